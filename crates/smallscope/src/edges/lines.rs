//! The binary's line tables: whose code an address is.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A user's edge or branch, where its code is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct EdgeSite {
    pub file: String,
    pub line: u32,
}

/// The binary's line tables could not be read.
#[derive(Debug, thiserror::Error)]
#[error("reading the line tables of {path}: {why}")]
pub struct LineTablesError {
    path: PathBuf,
    why: String,
}

/// The line tables [`super::enable`] read, kept to name what is met later.
static LINES: Mutex<Option<Lines>> = Mutex::new(None);

pub(super) fn keep(lines: Lines) {
    *LINES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(lines);
}

/// `look` on the kept line tables; `None` before [`super::enable`].
pub(super) fn with<R>(look: impl FnOnce(&mut Lines) -> R) -> Option<R> {
    LINES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).as_mut().map(look)
}

/// The line tables of this binary, and the user's crate to tell its code by.
pub(super) struct Lines {
    loader: addr2line::Loader,
    /// Where the binary is loaded: addresses in its file are relative to it.
    base: usize,
    root: PathBuf,
    sources: Sources,
}

impl Lines {
    pub(super) fn open(user_crate: &Path) -> Result<Lines, LineTablesError> {
        let binary = std::env::current_exe().map_err(|e| line_tables(Path::new("the binary"), e))?;
        let loader = addr2line::Loader::new(&binary).map_err(|e| line_tables(&binary, e))?;
        let base = load_address().ok_or_else(|| line_tables(&binary, "no load address"))?;
        let root = user_crate.canonicalize().unwrap_or_else(|_| user_crate.to_owned());
        Ok(Lines { loader, base, root, sources: Sources::default() })
    }

    /// An address of the running binary as an address in its file, which
    /// is the same in every process that runs it.
    pub(super) fn in_file(&self, address: usize) -> u64 {
        address.wrapping_sub(self.base) as u64
    }

    /// The name of the function at `address` (in memory), as the symbol table has it.
    pub(super) fn symbol(&self, address: usize) -> Option<&str> {
        self.loader.find_symbol(self.in_file(address))
    }

    /// The user's site of the code at `address` (in memory), if it is theirs.
    pub(super) fn user_site(&mut self, address: usize) -> Option<EdgeSite> {
        let probe = self.in_file(address);
        self.first_told(std::iter::once(probe)).map(|(site, _)| site)
    }

    /// The user's site of the block `start..end` (in memory), if it is
    /// theirs, with the function it is in: told by its first instruction
    /// that has a line (optimized code starts many blocks with
    /// instructions of line 0).
    pub(super) fn user_block(&mut self, start: usize, end: usize) -> Option<(EdgeSite, String)> {
        let probes = self.rows(start, end);
        self.first_told(probes.into_iter())
    }

    /// The user's site of the branch that ends the block `start..end` (in
    /// memory), if it is theirs: told by its last instruction that has a
    /// line (a block that starts in code a macro wrote can end in the
    /// user's comparison).
    pub(super) fn user_branch(&mut self, start: usize, end: usize) -> Option<(EdgeSite, String)> {
        let probes = self.rows(start, end);
        for probe in probes.into_iter().rev() {
            match self.whose(probe) {
                Whose::User(site, function) => return Some((site, function)),
                Whose::Other => return None,
                Whose::NoLine => {}
            }
        }
        None
    }

    /// The start of `start..end` and of each row of the line table in it, in the file.
    fn rows(&self, start: usize, end: usize) -> Vec<u64> {
        let (low, high) = (self.in_file(start), self.in_file(end.max(start + 1)));
        let mut probes = vec![low];
        if let Ok(rows) = self.loader.find_location_range(low, high) {
            probes.extend(rows.map(|(row, _, _)| row).filter(|&row| row > low));
        }
        probes.sort_unstable();
        probes.dedup();
        probes
    }

    /// The site and function of the first probe whose code is someone's: the user's, or `None`.
    fn first_told(&mut self, probes: impl Iterator<Item = u64>) -> Option<(EdgeSite, String)> {
        for probe in probes {
            match self.whose(probe) {
                Whose::User(site, function) => return Some((site, function)),
                Whose::Other => return None,
                Whose::NoLine => {}
            }
        }
        None
    }

    /// Whose code is at `probe` (in the file): the innermost frame of its
    /// inline stack that is not std's or a registry crate's says.
    fn whose(&mut self, probe: u64) -> Whose {
        let Ok(mut frames) = self.loader.find_frames(probe) else { return Whose::Other };
        while let Ok(Some(frame)) = frames.next() {
            let function = || {
                let name = frame.function.as_ref().and_then(|f| f.demangle().ok());
                name.map(|name| name.into_owned()).unwrap_or_default()
            };
            let Some(file) = frame.location.as_ref().and_then(|location| location.file) else { return Whose::NoLine };
            if is_library(file) {
                continue;
            }
            // Code without a line is the compiler's; code on an attribute's
            // line is what a macro wrote (`#[derive(Heap)]`, `#[smallscope::api]`).
            let Some(line) = frame.location.and_then(|location| location.line).filter(|&line| line > 0) else {
                return Whose::NoLine;
            };
            let written = Path::new(file).starts_with(&self.root) && !self.sources.is_attribute(file, line);
            return match written {
                true => Whose::User(EdgeSite { file: file.to_owned(), line }, function()),
                false => Whose::Other,
            };
        }
        Whose::Other
    }
}

enum Whose {
    /// The user's, at this site, in the function named.
    User(EdgeSite, String),
    /// Someone else's code: smallscope's, or std's alone.
    Other,
    /// Code of the compiler's, on no line: the next instruction tells.
    NoLine,
}

fn line_tables(path: &Path, why: impl std::fmt::Display) -> LineTablesError {
    LineTablesError { path: path.to_owned(), why: why.to_string() }
}

/// Where the binary is loaded.
fn load_address() -> Option<usize> {
    // SAFETY: `dladdr` fills `info` for an address of this binary's code.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        let found = libc::dladdr(load_address as *const libc::c_void, &mut info);
        (found != 0).then_some(info.dli_fbase as usize)
    }
}

/// The user's source files, read as edges name them: which lines are
/// attributes.
#[derive(Default)]
struct Sources {
    attributes: std::collections::HashMap<String, Vec<bool>>,
}

impl Sources {
    fn is_attribute(&mut self, file: &str, line: u32) -> bool {
        let lines = self.attributes.entry(file.to_owned()).or_insert_with(|| {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            text.lines().map(|line| line.trim_start().starts_with("#[")).collect()
        });
        lines.get(line as usize - 1).copied().unwrap_or(false)
    }
}

/// std's sources and crates from a registry: their code inlined into the
/// user's functions counts as the user's.
fn is_library(file: &str) -> bool {
    file.starts_with("/rustc/") || file.contains("/.cargo/registry/") || file.contains("/.cargo/git/")
}
