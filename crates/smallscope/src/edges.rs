//! Edge coverage of the code under test, as LLVM's SanitizerCoverage
//! reports it: the runtime its calls land in.
//!
//! A harness built with coverage (`cargo smallscope --coverage`) has the
//! crate under test compiled with `-Cpasses=sancov-module` and
//! `trace-pc-guard`, `trace-compares` and `pc-table`: each edge of its
//! control flow calls [`__sanitizer_cov_trace_pc_guard`] with a guard (a
//! `u32`) of its own, and at start each module hands over its guards and
//! the address of each. Nothing else is instrumented.
//!
//! **Only the user's edges count.** The crate under test holds more code
//! than its author wrote: smallscope's engines and std's generics,
//! instantiated for its types where it registers them. [`enable`] reads the
//! binary's line tables once and keeps an edge when the innermost frame of
//! its inline stack that is not std's or a registry crate's is on a line of
//! the user's crate that is not an attribute: code on the line of
//! `#[derive(Heap)]` or `#[smallscope::api]` is what the macro wrote, and
//! code without a line is the compiler's. So std code inlined into the
//! user's functions counts as theirs, and smallscope's code never does.
//! Every other guard stays 0.
//!
//! **Cost.** Enabling reads the line tables: milliseconds per thousand
//! instrumented edges. An edge that is not the user's costs a call, a load
//! and a branch each time it is taken; a user's edge, an atomic swap the
//! first time and a load after. Comparisons are traced as a no-op for now
//! (the callbacks must exist for the binary to link).
//!
//! ```no_run
//! // In a harness built with coverage:
//! let edges = smallscope::edges::enable(std::path::Path::new("/path/to/my-crate")).unwrap();
//! println!("{} of the crate's edges so far, of {}", smallscope::edges::covered(), edges.user);
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

/// Why coverage could not be enabled.
#[derive(Debug, thiserror::Error)]
pub enum EdgesError {
    #[error("this binary was not built with coverage (no SanitizerCoverage guards)")]
    NotInstrumented,
    #[error("the binary was built without the guards' addresses (`-sanitizer-coverage-pc-table`)")]
    NoAddresses,
    #[error("reading the line tables of {path}: {why}")]
    LineTables { path: PathBuf, why: String },
    #[error("coverage is enabled already")]
    Enabled,
}

/// What [`enable`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeCount {
    /// Edges of the user's crate: what [`covered`] counts up to.
    pub user: usize,
    /// Every instrumented edge, the user's among them.
    pub instrumented: usize,
}

/// A user's edge, where its code is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct EdgeSite {
    pub file: String,
    pub line: u32,
}

/// One instrumented module's guards and their addresses.
struct Module {
    guards: *mut u32,
    len: usize,
    /// `len` pairs of (address, flags), from `__sanitizer_cov_pcs_init`.
    table: Option<*const usize>,
}

// SAFETY: the pointers are into the binary's own sections, which live as
// long as the process.
unsafe impl Send for Module {}

static MODULES: Mutex<Vec<Module>> = Mutex::new(Vec::new());
/// Whether each user's edge was taken, by its guard's value (from 1).
static TAKEN: OnceLock<Box<[AtomicBool]>> = OnceLock::new();
static SITES: OnceLock<Vec<EdgeSite>> = OnceLock::new();
static COVERED: AtomicU64 = AtomicU64::new(0);
/// The user's edges taken since the last [`take_new`], by number: what a
/// journal keeps so that a restarted run knows them.
static NEW: Mutex<Vec<u32>> = Mutex::new(Vec::new());
static COUNT: OnceLock<EdgeCount> = OnceLock::new();

/// The functions instrumented code calls. Only in binaries that ask for
/// them (feature `sancov`, which the command line turns on): a binary with
/// a runtime of its own (libFuzzer's) would otherwise define them twice.
#[cfg(feature = "sancov")]
mod callbacks {
    use super::*;

    /// Called by each instrumented module at start: its guards, all 0 (off)
    /// until [`enable`] numbers the user's.
    ///
    /// # Safety
    /// `start..stop` are the module's guards, as SanitizerCoverage passes them.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard_init(start: *mut u32, stop: *mut u32) {
        let mut modules = MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if start == stop || modules.iter().any(|module| module.guards == start) {
            return;
        }
        // SAFETY: one module's guard section, as the caller promises.
        let len = unsafe { stop.offset_from(start) } as usize;
        for i in 0..len {
            // SAFETY: within the section.
            unsafe { *start.add(i) = 0 };
        }
        modules.push(Module { guards: start, len, table: None });
    }

    /// Called by each instrumented module at start, after its guards: the
    /// address of each guard's edge, in the guards' order.
    ///
    /// # Safety
    /// `start..end` is the module's table, as SanitizerCoverage passes it.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn __sanitizer_cov_pcs_init(start: *const usize, end: *const usize) {
        let mut modules = MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // SAFETY: one module's table, as the caller promises.
        let pairs = unsafe { end.offset_from(start) } as usize / 2;
        if let Some(module) = modules.iter_mut().rev().find(|module| module.table.is_none() && module.len == pairs) {
            module.table = Some(start);
        }
    }

    /// Called on every instrumented edge.
    ///
    /// # Safety
    /// `guard` is one of the guards handed to [`__sanitizer_cov_trace_pc_guard_init`].
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard(guard: *mut u32) {
        // SAFETY: a guard, as the caller promises.
        let index = unsafe { *guard } as usize;
        if index == 0 {
            return;
        }
        if let Some(taken) = TAKEN.get() {
            let edge = &taken[index];
            if !edge.load(Relaxed) && !edge.swap(true, Relaxed) {
                COVERED.fetch_add(1, Relaxed);
                NEW.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(index as u32);
            }
        }
    }

    macro_rules! comparisons {
        ($($name:ident: $operand:ty),*) => {$(
            /// A comparison's operands (not recorded yet).
            #[unsafe(no_mangle)]
            pub extern "C" fn $name(_: $operand, _: $operand) {}
        )*};
    }

    comparisons!(
        __sanitizer_cov_trace_cmp1: u8, __sanitizer_cov_trace_cmp2: u16,
        __sanitizer_cov_trace_cmp4: u32, __sanitizer_cov_trace_cmp8: u64,
        __sanitizer_cov_trace_const_cmp1: u8, __sanitizer_cov_trace_const_cmp2: u16,
        __sanitizer_cov_trace_const_cmp4: u32, __sanitizer_cov_trace_const_cmp8: u64
    );

    /// A `match` on `value` (not recorded yet).
    #[unsafe(no_mangle)]
    pub extern "C" fn __sanitizer_cov_trace_switch(_value: u64, _cases: *const u64) {}
}

/// Whether this binary has instrumented code.
pub fn instrumented() -> bool {
    !MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).is_empty()
}

/// Numbers the edges of the crate whose sources are under `user_crate`,
/// so that [`covered`] counts them from now on. Call it once, before the
/// code under test runs.
pub fn enable(user_crate: &Path) -> Result<EdgeCount, EdgesError> {
    let modules = MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if modules.is_empty() {
        return Err(EdgesError::NotInstrumented);
    }
    if TAKEN.get().is_some() {
        return Err(EdgesError::Enabled);
    }
    let binary = std::env::current_exe().map_err(|e| line_tables(Path::new("the binary"), e))?;
    let lines = addr2line::Loader::new(&binary).map_err(|e| line_tables(&binary, e))?;
    let base = load_address().ok_or_else(|| line_tables(&binary, "no load address"))?;
    let root = user_crate.canonicalize().unwrap_or_else(|_| user_crate.to_owned());
    let mut user = Vec::new();
    let mut sites = Vec::new();
    let mut sources = Sources::default();
    for module in modules.iter() {
        let table = module.table.ok_or(EdgesError::NoAddresses)?;
        for i in 0..module.len {
            // SAFETY: `len` pairs, as the module handed them over.
            let address = unsafe { *table.add(2 * i) };
            if let Some(site) = user_site(&lines, address.wrapping_sub(base) as u64, &root, &mut sources) {
                // SAFETY: guard `i` of this module.
                user.push(unsafe { module.guards.add(i) });
                sites.push(site);
            }
        }
    }
    let instrumented = modules.iter().map(|module| module.len).sum();
    let _ = TAKEN.set((0..=user.len()).map(|_| AtomicBool::new(false)).collect());
    let _ = SITES.set(sites);
    for (number, guard) in user.iter().enumerate() {
        // SAFETY: a guard of an instrumented module; no user code runs yet.
        unsafe { **guard = number as u32 + 1 };
    }
    let count = EdgeCount { user: user.len(), instrumented };
    let _ = COUNT.set(count);
    Ok(count)
}

/// What [`enable`] found, once it ran.
pub fn count() -> Option<EdgeCount> {
    COUNT.get().copied()
}

/// The user's files with edges, and how many each has.
pub fn files() -> Vec<(String, usize)> {
    let mut files: Vec<(String, usize)> = Vec::new();
    for site in SITES.get().into_iter().flatten() {
        match files.iter_mut().find(|(file, _)| *file == site.file) {
            Some((_, edges)) => *edges += 1,
            None => files.push((site.file.clone(), 1)),
        }
    }
    files.sort();
    files
}

/// The user's edges taken since [`enable`] (0 before).
pub fn covered() -> u64 {
    COVERED.load(Relaxed)
}

/// The numbers of the user's edges first taken since the last call (or
/// since [`enable`]), in the order they were taken.
pub fn take_new() -> Vec<u32> {
    std::mem::take(&mut *NEW.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

/// Counts the edges numbered `numbers` (from [`take_new`], in an earlier
/// process running the same binary) as taken: a restarted run carries on
/// with the coverage it had. Numbers this binary does not have are ignored.
pub fn mark(numbers: &[u32]) {
    let Some(taken) = TAKEN.get() else { return };
    for &number in numbers {
        if let Some(edge) = taken.get(number as usize).filter(|_| number > 0) {
            if !edge.swap(true, Relaxed) {
                COVERED.fetch_add(1, Relaxed);
            }
        }
    }
}

/// Where each user's edge taken so far is.
pub fn covered_sites() -> Vec<EdgeSite> {
    let (Some(taken), Some(sites)) = (TAKEN.get(), SITES.get()) else { return Vec::new() };
    let mut covered: Vec<EdgeSite> =
        sites.iter().enumerate().filter(|(i, _)| taken[i + 1].load(Relaxed)).map(|(_, site)| site.clone()).collect();
    covered.sort();
    covered
}

fn line_tables(path: &Path, why: impl std::fmt::Display) -> EdgesError {
    EdgesError::LineTables { path: path.to_owned(), why: why.to_string() }
}

/// Where the binary is loaded: addresses in its file are relative to it.
fn load_address() -> Option<usize> {
    // SAFETY: `dladdr` fills `info` for an address of this binary's code.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        let found = libc::dladdr(load_address as *const libc::c_void, &mut info);
        (found != 0).then_some(info.dli_fbase as usize)
    }
}

/// The user's site of the edge at `address` (in the file), if it is theirs.
fn user_site(lines: &addr2line::Loader, address: u64, root: &Path, sources: &mut Sources) -> Option<EdgeSite> {
    let mut frames = lines.find_frames(address).ok()?;
    while let Ok(Some(frame)) = frames.next() {
        let location = frame.location?;
        let file = location.file?;
        if is_library(file) {
            continue;
        }
        // Code without a line is the compiler's; code on an attribute's
        // line is what a macro wrote (`#[derive(Heap)]`, `#[smallscope::api]`).
        let line = location.line.filter(|&line| line > 0)?;
        let written = Path::new(file).starts_with(root) && !sources.is_attribute(file, line);
        return written.then(|| EdgeSite { file: file.to_owned(), line });
    }
    None
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
