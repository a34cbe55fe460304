//! How a run's files reach `--out` within its limits.
//!
//! Each file is streamed to a temporary name in the folder and renamed into
//! place, `summary.json` last, so that no file is ever half there and
//! nothing holds a large file in memory beside the run's own results. A
//! time limit, or a signal that comes while the files are written, cuts
//! the file being written at its last whole line (the files after it are
//! not written); the summary lists each such file as partial, and the
//! run's staging folder stays so that `--resume` writes them whole. A file
//! the run wrote already (its events, staged commit by commit) is linked
//! into place, not copied.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read as _, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use smallscope::emit::{write_atomically, AtomicFile};

use crate::signals::{Interrupts, TERMINATE_WRITING};

/// How long past its time limit a run may go on writing its files.
pub const WRITING_GRACE: Duration = Duration::from_secs(5);

/// Bytes written between two looks at the budget.
const LOOK_EVERY: u64 = 64 * 1024;

/// One file of a run's output.
pub struct OutputFile<'a> {
    pub name: String,
    body: Body<'a>,
}

/// Writes a file's lines into a writer, as it makes them.
type WriteLines<'a> = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + 'a>;

enum Body<'a> {
    /// Made already (small files: pages, tests).
    Bytes(Vec<u8>),
    /// Written line by line as it is made (structures).
    Lines(WriteLines<'a>),
    /// Written already, whole, by the run itself (the staging folder's
    /// events): its first `len` bytes are the file.
    Written { from: PathBuf, len: u64 },
}

impl<'a> OutputFile<'a> {
    pub fn bytes(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        OutputFile { name: name.into(), body: Body::Bytes(bytes) }
    }

    /// A file of lines that `write` makes as it writes them.
    pub fn lines(name: impl Into<String>, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + 'a) -> Self {
        OutputFile { name: name.into(), body: Body::Lines(Box::new(write)) }
    }

    /// The first `len` bytes of the file at `from`, which the run wrote
    /// already: linked into place when that is the whole file (no byte is
    /// copied, however long it is), else copied.
    pub fn written(name: impl Into<String>, from: PathBuf, len: u64) -> Self {
        OutputFile { name: name.into(), body: Body::Written { from, len } }
    }
}

/// What may cut the writing short: the run's time limit and signals.
pub struct Budget<'a> {
    interrupts: &'a Interrupts,
    /// Signals received before writing began.
    signals_before: usize,
    deadline: Option<Instant>,
}

impl<'a> Budget<'a> {
    /// Writing that ends by `deadline` (if any), and at a signal that comes
    /// from now on, at a second one, or a second after a SIGTERM.
    pub fn new(interrupts: &'a Interrupts, deadline: Option<Instant>) -> Self {
        Budget { interrupts, signals_before: interrupts.count(), deadline }
    }

    /// The last signal the process received, if any.
    pub fn signal(&self) -> Option<i32> {
        self.interrupts.signal()
    }

    /// Why writing must stop now, if it must.
    pub fn cut(&self) -> Option<&'static str> {
        let count = self.interrupts.count();
        if count > self.signals_before || count > 1 {
            Some("a signal")
        } else if self.interrupts.since_terminate().is_some_and(|since| since >= TERMINATE_WRITING) {
            Some("SIGTERM")
        } else if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            Some("the time limit")
        } else {
            None
        }
    }
}

/// A file that was cut short, or not written at all.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PartialFile {
    pub name: String,
    /// Whole lines it holds (0: not written).
    pub lines: u64,
    /// What cut it: `the time limit`, `a signal`, `SIGTERM`.
    pub cut_by: String,
}

impl PartialFile {
    pub fn describe(&self) -> String {
        match self.lines {
            0 => format!("{} was not written ({} came first)", self.name, self.cut_by),
            lines => format!("{} is partial: cut by {} after {lines} lines", self.name, self.cut_by),
        }
    }
}

/// The error a [`CutWriter`] stops a writer with.
#[derive(Debug, thiserror::Error)]
#[error("writing was cut short by {0}")]
struct Cut(&'static str);

/// Writes whole lines to a file, looking at the budget every
/// [`LOOK_EVERY`] bytes: a line is held back until its end comes, so a cut
/// leaves whole lines only.
struct CutWriter<'b, 'a> {
    file: BufWriter<AtomicFile>,
    budget: &'b Budget<'a>,
    written: u64,
    next_look: u64,
    /// The line begun and not yet ended.
    pending: Vec<u8>,
    lines: u64,
}

impl Write for CutWriter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written >= self.next_look {
            self.next_look = self.written + LOOK_EVERY;
            if let Some(why) = self.budget.cut() {
                return Err(std::io::Error::other(Cut(why)));
            }
        }
        match buf.iter().rposition(|&b| b == b'\n') {
            None => self.pending.extend_from_slice(buf),
            Some(last) => {
                self.file.write_all(&self.pending)?;
                self.file.write_all(&buf[..=last])?;
                self.pending.clear();
                self.pending.extend_from_slice(&buf[last + 1..]);
                self.lines += buf[..=last].iter().filter(|&&b| b == b'\n').count() as u64;
            }
        }
        self.written += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Writes a run's files into `out` within `budget`, then `summary.json`,
/// made by `summary` from the names of the files written and those cut
/// short. A file an earlier run's summary lists and this run does not
/// write is removed, so that the folder holds one run's files. Returns
/// the partial files.
pub fn write_outputs(
    out: &Path,
    files: Vec<OutputFile<'_>>,
    budget: &Budget<'_>,
    summary: impl FnOnce(Vec<String>, &[PartialFile]) -> anyhow::Result<Vec<u8>>,
) -> anyhow::Result<Vec<PartialFile>> {
    remove_earlier_files(out, &files);
    // The small files first: a cut leaves the pages and takes the long lists.
    let (mut files, lines): (Vec<_>, Vec<_>) = files.into_iter().partition(|f| matches!(f.body, Body::Bytes(_)));
    files.extend(lines);
    let mut written = Vec::new();
    let mut partial = Vec::new();
    for file in files {
        let path = out.join(&file.name);
        if let Some(why) = budget.cut() {
            let _ = std::fs::remove_file(&path);
            partial.push(PartialFile { name: file.name, lines: 0, cut_by: why.into() });
            continue;
        }
        match file.body {
            Body::Bytes(bytes) => {
                write_atomically(&path, &bytes).with_context(|| format!("writing {}", path.display()))?;
                written.push(file.name);
            }
            Body::Lines(write) => {
                if let Some(cut) = write_lines(&path, write, budget)? {
                    partial.push(PartialFile { name: file.name.clone(), ..cut });
                }
                written.push(file.name);
            }
            Body::Written { from, len } => {
                if !link_into_place(&from, len, &path) {
                    let copy = move |out: &mut dyn Write| {
                        let copied = std::io::copy(&mut BufReader::new(File::open(&from)?).take(len), out)?;
                        match copied == len {
                            true => Ok(()),
                            false => Err(std::io::Error::other(format!("{} is shorter than it was", from.display()))),
                        }
                    };
                    if let Some(cut) = write_lines(&path, Box::new(copy), budget)? {
                        partial.push(PartialFile { name: file.name.clone(), ..cut });
                    }
                }
                written.push(file.name);
            }
        }
    }
    let text = summary(written, &partial)?;
    let path = out.join(crate::staging::SUMMARY);
    write_atomically(&path, &text).with_context(|| format!("writing {}", path.display()))?;
    Ok(partial)
}

/// Gives the file at `from` a second name, `path`, when it is `len` bytes
/// long: linked under a temporary name and renamed into place, so that
/// `path` is never half there. False when that cannot be done (another
/// length, another file system), and nothing was changed.
fn link_into_place(from: &Path, len: u64, path: &Path) -> bool {
    if !std::fs::metadata(from).is_ok_and(|m| m.len() == len) {
        return false;
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.linking"));
    let _ = std::fs::remove_file(&temp);
    let linked = std::fs::hard_link(from, &temp).is_ok() && std::fs::rename(&temp, path).is_ok();
    if !linked {
        let _ = std::fs::remove_file(&temp);
    }
    linked
}

/// Writes the lines `write` makes to `path`, atomically; when the budget
/// cuts it, the file keeps its whole lines and says how many.
fn write_lines(path: &Path, write: WriteLines<'_>, budget: &Budget<'_>) -> anyhow::Result<Option<PartialFile>> {
    let context = || format!("writing {}", path.display());
    let file = BufWriter::new(AtomicFile::create(path).with_context(context)?);
    let mut writer = CutWriter { file, budget, written: 0, next_look: 0, pending: Vec::new(), lines: 0 };
    let cut = match write(&mut writer) {
        // A last line without its end is still a line of the file.
        Ok(()) => {
            let pending = std::mem::take(&mut writer.pending);
            writer.file.write_all(&pending).with_context(context)?;
            None
        }
        Err(error) => match error.get_ref().and_then(|e| e.downcast_ref::<Cut>()) {
            Some(Cut(why)) => Some(PartialFile {
                name: path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                lines: writer.lines,
                cut_by: (*why).to_owned(),
            }),
            None => return Err(error).with_context(context),
        },
    };
    let file = writer.file.into_inner().map_err(|e| e.into_error()).with_context(context)?;
    file.commit().with_context(context)?;
    Ok(cut)
}

/// Removes the files an earlier run's summary in `out` lists that this run
/// does not write.
fn remove_earlier_files(out: &Path, files: &[OutputFile<'_>]) {
    #[derive(serde::Deserialize)]
    struct Listed {
        #[serde(default)]
        files: Vec<String>,
    }
    let earlier: Vec<String> = std::fs::read_to_string(out.join(crate::staging::SUMMARY))
        .ok()
        .and_then(|t| serde_json::from_str::<Listed>(&t).ok())
        .map(|l| l.files)
        .unwrap_or_default();
    for name in earlier.iter().filter(|n| !files.iter().any(|f| &f.name == *n)) {
        // Only plain names in the folder: a summary never lists paths elsewhere.
        if !name.contains('/') && !name.contains('\\') {
            let _ = std::fs::remove_file(out.join(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget whose deadline has passed cuts a long file at a whole line
    /// and leaves the files after it unwritten; the summary lists both.
    #[test]
    fn a_passed_deadline_cuts_the_lines_at_a_whole_line() {
        let dir = tempfile::tempdir().unwrap();
        let interrupts = Interrupts::install().unwrap();
        let budget = Budget::new(interrupts, Some(Instant::now() + Duration::from_millis(200)));
        let started = Instant::now();
        let files = vec![
            OutputFile::lines("endless.jsonl", |out| {
                for i in 0u64.. {
                    writeln!(out, "{{\"index\":{i},\"padding\":\"{}\"}}", "x".repeat((i % 97) as usize))?;
                }
                Ok(())
            }),
            OutputFile::lines("after.jsonl", |out| writeln!(out, "{{}}")),
            OutputFile::bytes("report.html", b"<html></html>".to_vec()),
        ];
        let mut listed = Vec::new();
        let partial = write_outputs(dir.path(), files, &budget, |written, partial| {
            listed = written;
            Ok(serde_json::to_vec(partial)?)
        })
        .unwrap();
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
        assert_eq!(listed, ["report.html", "endless.jsonl"]);
        assert_eq!(partial.len(), 2, "{partial:?}");
        assert_eq!((partial[0].name.as_str(), partial[0].cut_by.as_str()), ("endless.jsonl", "the time limit"));
        assert_eq!((partial[1].name.as_str(), partial[1].lines), ("after.jsonl", 0));
        let text = std::fs::read_to_string(dir.path().join("endless.jsonl")).unwrap();
        assert!(text.ends_with('\n'));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() as u64, partial[0].lines);
        for (i, line) in lines.iter().enumerate() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(value["index"], i as u64);
        }
        assert!(!dir.path().join("after.jsonl").exists());
        let summary: Vec<PartialFile> =
            serde_json::from_slice(&std::fs::read(dir.path().join("summary.json")).unwrap()).unwrap();
        assert_eq!(summary, partial);
    }

    #[test]
    fn without_a_cut_every_file_is_whole() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget::new(Interrupts::install().unwrap(), None);
        let files = vec![OutputFile::lines("n.jsonl", |out| (0..100_000).try_for_each(|i| writeln!(out, "{i}")))];
        let partial = write_outputs(dir.path(), files, &budget, |_, _| Ok(b"{}".to_vec())).unwrap();
        assert!(partial.is_empty());
        let text = std::fs::read_to_string(dir.path().join("n.jsonl")).unwrap();
        let expected: String = (0..100_000).map(|i| format!("{i}\n")).collect();
        assert_eq!(text, expected);
    }
}
