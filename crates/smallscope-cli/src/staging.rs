//! Where a run keeps what it committed while it runs, and how its final
//! files reach `--out`.
//!
//! The staging folder (`DIR/.smallscope/` with `--out DIR`, a temporary one
//! without) holds:
//! - `events.ndjson` and `journal.bin`: every committed event and the
//!   engine's journal, appended commit by commit;
//! - `resume.bin`: the committed events as a restarted worker reads them
//!   ([`resume_log`]: no texts or pictures, no JSON), so that a restart does
//!   not parse every event of the run again;
//! - `checkpoint.json`: how many bytes of each are committed, written
//!   atomically, so that a run killed mid-write resumes from a whole commit;
//! - `job.json`: the command line, so that `--resume` continues only the
//!   same run;
//! - `flight` and `killed.json`: what a worker shares with its supervisor.
//!
//! A worker restarted after a crash, and `--resume`, read the committed
//! state from here: `--resume` from the events (the report needs all of
//! them), writing the resume log again as it goes; a worker from the
//! resume log. The final files are written to temporary names in
//! `DIR` and renamed into place, the summary last (`events.ndjson` is the
//! staged file, linked there: a later run here writes a file of its own); a finished run removes
//! its staging folder, an interrupted one keeps it to be resumed.

use std::fs::File;
use std::io::{BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use smallscope::emit::write_atomically;
use smallscope::events::{read_ndjson, write_ndjson, Event, Fold, Stop};
use smallscope::order::JobOrder;
use smallscope::runner::{resume_log, Batch, Control, Flight, Killed, Observer};

use crate::BadInput;

const EVENTS: &str = "events.ndjson";
const JOURNAL: &str = "journal.bin";
const RESUME_LOG: &str = "resume.bin";
const CHECKPOINT: &str = "checkpoint.json";
/// How often the checkpoint follows the commits: a killed supervisor loses
/// at most this much of the run. Saving flushes three buffers and renames a
/// small file, so four times a second costs nothing a run would notice.
const SAVE_EVERY: Duration = Duration::from_millis(250);
const JOB: &str = "job.json";
/// The run as data ([`smallscope::order::JobOrder`]): what a worker runs.
pub const ORDER: &str = "order.json";
pub const FLIGHT: &str = "flight";
pub const KILLED: &str = "killed.json";
const LOCK: &str = "lock";

/// How much of the staged files is committed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Checkpoint {
    events: u64,
    journal: u64,
    /// Bytes of the resume log, which holds the first `logged_events`
    /// bytes' worth of events (a worker parses the rest of them).
    #[serde(default)]
    resume_log: u64,
    #[serde(default)]
    logged_events: u64,
}

/// The command line a staging folder belongs to, and the program that ran it.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct JobFile {
    args: Vec<String>,
    /// The program's version and its binary's size and modification time:
    /// a run is carried on only by the program that began it (another one
    /// may name, number or run things otherwise).
    #[serde(default)]
    program: String,
}

/// This program, as [`JobFile::program`] names it.
fn this_program() -> String {
    use std::os::unix::fs::MetadataExt as _;
    let binary = std::env::current_exe().and_then(std::fs::metadata);
    let built = binary.map(|m| format!("{} bytes, modified {}", m.len(), m.mtime())).unwrap_or_default();
    format!("smallscope {} ({built})", env!("CARGO_PKG_VERSION"))
}

/// A run's staging folder.
pub struct Staging {
    dir: PathBuf,
    /// Keeps a temporary folder alive (runs without `--out`).
    _temp: Option<tempfile::TempDir>,
    /// Held while the run goes: one run per folder.
    _lock: File,
    events: File,
    journal: File,
    resume_log: File,
    committed: Checkpoint,
    saved: Checkpoint,
    last_save: Instant,
    /// A commit's resume log and events, encoded: kept from one commit to
    /// the next, so that they grow once.
    log_bytes: Vec<u8>,
    event_bytes: Vec<u8>,
}

impl Staging {
    /// The staging folder of a run writing to `out` (a temporary one
    /// without), for the command `args`. With `resume`, the committed state
    /// of an earlier run of the same command is kept; without, any is dropped.
    pub fn open(out: Option<&Path>, resume: bool, args: &[String]) -> anyhow::Result<Staging> {
        let (dir, temp) = match out {
            Some(out) => {
                std::fs::create_dir_all(out)
                    .map_err(|e| BadInput(format!("--out {}: cannot create it: {e}", out.display())))?;
                let dir = out.join(".smallscope");
                if std::fs::symlink_metadata(&dir).is_ok_and(|m| !m.is_dir()) {
                    return Err(BadInput(format!(
                        "--out {}: {} is not a folder (a link?); smallscope keeps a run's state there and follows no link: \
                         remove it, or give another --out",
                        out.display(),
                        dir.display()
                    ))
                    .into());
                }
                std::fs::create_dir_all(&dir)
                    .map_err(|e| BadInput(format!("--out {}: cannot write into it: {e}", out.display())))?;
                (dir, None)
            }
            None => {
                if resume {
                    return Err(BadInput("--resume needs --out DIR: the run to resume is kept there".into()).into());
                }
                let temp =
                    tempfile::Builder::new().prefix("smallscope-run-").tempdir().context("a temporary folder")?;
                (temp.path().to_owned(), Some(temp))
            }
        };
        let lock = lock(&dir)?;
        let job = JobFile { args: args.to_vec(), program: this_program() };
        let mut committed = Checkpoint::default();
        if resume {
            let earlier: Option<JobFile> =
                std::fs::read_to_string(dir.join(JOB)).ok().and_then(|t| serde_json::from_str(&t).ok());
            match earlier {
                Some(earlier) if earlier.args == job.args && earlier.program != job.program => {
                    return Err(BadInput(format!(
                        "--resume: the run kept in {} was begun by another build of the program ({}; this is {}): \
                         run it again without --resume, or give another --out",
                        dir.display(),
                        if earlier.program.is_empty() { "an older version" } else { &earlier.program },
                        job.program
                    ))
                    .into())
                }
                Some(earlier) if earlier != job => {
                    return Err(BadInput(format!(
                        "--resume: the run kept in {} is another one (`{}`); give the same options, or another --out",
                        dir.display(),
                        earlier.args.join(" ")
                    ))
                    .into())
                }
                Some(_) => {
                    committed = std::fs::read_to_string(dir.join(CHECKPOINT))
                        .ok()
                        .and_then(|t| serde_json::from_str(&t).ok())
                        .unwrap_or_default();
                    // An engine stopped by Ctrl-C or its memory limit ended with
                    // its last commit: without that end, it carries on from there.
                    if let Some((stop, at)) = run_finished(&dir.join(EVENTS), committed.events)? {
                        if matches!(stop, Stop::Interrupted | Stop::MemoryLimit) {
                            committed.events = at;
                        }
                    }
                }
                None => {}
            }
        }
        let open = |name: &str, keep: u64| -> anyhow::Result<File> {
            let path = dir.join(name);
            own_file(&path, keep).map_err(|e| BadInput(format!("cannot write {}: {e}", path.display())))?;
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .read(true)
                .write(true)
                .open(&path)
                .map_err(|e| BadInput(format!("cannot write {}: {e}", path.display())))?;
            file.set_len(keep)?;
            file.seek(std::io::SeekFrom::End(0))?;
            Ok(file)
        };
        // The resume log is written again when the events are loaded.
        committed.resume_log = 0;
        committed.logged_events = 0;
        let events = open(EVENTS, committed.events)?;
        let journal = open(JOURNAL, committed.journal)?;
        let resume_log = open(RESUME_LOG, 0)?;
        write_atomically(&dir.join(JOB), serde_json::to_string(&job)?.as_bytes())
            .map_err(|e| BadInput(format!("cannot write into {}: {e}", dir.display())))?;
        // Saved once now whatever it says: a checkpoint an earlier run left goes.
        let saved = Checkpoint { events: u64::MAX, ..Checkpoint::default() };
        let mut staging = Staging {
            dir,
            _temp: temp,
            _lock: lock,
            events,
            journal,
            resume_log,
            committed,
            saved,
            last_save: Instant::now(),
            log_bytes: Vec::new(),
            event_bytes: Vec::new(),
        };
        staging.save()?;
        Ok(staging)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes the order the run's workers read.
    pub fn write_order(&self, order: &JobOrder) -> anyhow::Result<()> {
        let path = self.dir.join(ORDER);
        write_atomically(&path, serde_json::to_string(order)?.as_bytes())
            .with_context(|| format!("writing {}", path.display()))
    }

    /// Appends a commit; the checkpoint file follows at most every [`SAVE_EVERY`]
    /// (and on [`Staging::save`]).
    pub fn append(&mut self, batch: &Batch) -> anyhow::Result<()> {
        // The log goes on only while it holds every committed event.
        let logging = self.committed.logged_events == self.committed.events;
        if logging {
            let log = &mut self.log_bytes;
            log.clear();
            for event in &batch.events {
                resume_log::append(event, log);
            }
            self.resume_log.write_all(log)?;
            self.committed.resume_log += log.len() as u64;
        }
        if batch.ndjson.is_empty() {
            let bytes = &mut self.event_bytes;
            bytes.clear();
            for event in &batch.events {
                write_ndjson(event, bytes)?;
            }
            self.events.write_all(bytes)?;
            self.committed.events += bytes.len() as u64;
        } else {
            self.events.write_all(&batch.ndjson)?;
            self.committed.events += batch.ndjson.len() as u64;
        }
        if logging {
            self.committed.logged_events = self.committed.events;
        }
        self.journal.write_all(&batch.journal)?;
        self.committed.journal += batch.journal.len() as u64;
        if self.last_save.elapsed() >= SAVE_EVERY {
            self.save()?;
        }
        Ok(())
    }

    /// Makes the committed state durable for a restart or `--resume`.
    pub fn save(&mut self) -> anyhow::Result<()> {
        self.events.flush()?;
        self.journal.flush()?;
        self.resume_log.flush()?;
        if self.committed != self.saved {
            write_atomically(&self.dir.join(CHECKPOINT), serde_json::to_string(&self.committed)?.as_bytes())?;
            self.saved = self.committed;
        }
        self.last_save = Instant::now();
        Ok(())
    }

    /// The committed events, folded, and the journal: what `--resume`
    /// carries on from; `None` when nothing is committed. Writes the resume
    /// log of those events for the workers.
    pub fn load<F: Fold>(&mut self) -> anyhow::Result<Option<(F, Vec<u8>)>> {
        if self.committed.events == 0 {
            return Ok(None);
        }
        let events = read_range(&self.dir.join(EVENTS), 0, self.committed.events)?;
        let mut fold = F::default();
        let mut log = Vec::new();
        for event in read_ndjson(&events[..]) {
            let event = event.map_err(|e| anyhow::anyhow!("reading committed events: {e}"))?;
            resume_log::append(&event, &mut log);
            fold.apply(event);
        }
        self.resume_log.write_all(&log)?;
        self.committed.resume_log = log.len() as u64;
        self.committed.logged_events = self.committed.events;
        self.save()?;
        let journal = read_range(&self.dir.join(JOURNAL), 0, self.committed.journal)?;
        Ok(Some((fold, journal)))
    }

    /// Whether the committed events end the run (it was stopped after its
    /// engine finished, before its files were written).
    pub fn finished(&self) -> anyhow::Result<bool> {
        Ok(run_finished(&self.dir.join(EVENTS), self.committed.events)?.is_some())
    }

    /// The file of committed events and its committed length: what goes
    /// into `--out` as `events.ndjson`, linked there (a later run on this
    /// folder writes to a file of its own, see [`own_file`]).
    pub fn events(&self) -> (PathBuf, u64) {
        (self.dir.join(EVENTS), self.committed.events)
    }

    /// The run is over: with `complete`, the staging folder goes; else it
    /// stays, to be resumed.
    pub fn close(&mut self, complete: bool) -> anyhow::Result<()> {
        self.save()?;
        if complete && self._temp.is_none() && self.dir.exists() {
            std::fs::remove_dir_all(&self.dir).with_context(|| format!("removing {}", self.dir.display()))?;
        }
        Ok(())
    }
}

/// Makes the file at `path` this folder's own before a run writes to it:
/// the events of a run kept here may be linked into `--out` as well
/// ([`Staging::events`]), and that file must not change. Its first
/// `keep` bytes go on in a copy (a run resumed); none, when `keep` is 0.
fn own_file(path: &Path, keep: u64) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt as _;
    if !std::fs::metadata(path).is_ok_and(|m| m.nlink() > 1) {
        return Ok(());
    }
    let copy = path.with_extension("own");
    {
        let mut kept = File::open(path)?.take(keep);
        std::io::copy(&mut kept, &mut File::create(&copy)?)?;
    }
    std::fs::rename(&copy, path)
}

/// Locks the staging folder `dir` for this run (the lock goes with the
/// process): a second run on the same `--out` is refused, not mixed in.
fn lock(dir: &Path) -> anyhow::Result<File> {
    use std::os::fd::AsRawFd as _;
    let path = dir.join(LOCK);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| BadInput(format!("cannot write {}: {e}", path.display())))?;
    // SAFETY: flock(2) on a descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let out = dir.parent().unwrap_or(dir);
        return Err(BadInput(format!(
            "--out {}: another run is writing there; wait for it, or give another --out",
            out.display()
        ))
        .into());
    }
    Ok(file)
}

/// The stop of the `run_finished` event that ends the first `len` bytes of
/// the events file `path`, and where its line starts; `None` when they end
/// otherwise.
fn run_finished(path: &Path, len: u64) -> anyhow::Result<Option<(Stop, u64)>> {
    const TAIL: u64 = 64 * 1024;
    if len == 0 {
        return Ok(None);
    }
    let mut file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let start = len.saturating_sub(TAIL);
    file.seek(std::io::SeekFrom::Start(start))?;
    let mut tail = Vec::new();
    file.take(len - start).read_to_end(&mut tail)?;
    let body = tail.strip_suffix(b"\n").unwrap_or(&tail);
    let line_start = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    match serde_json::from_slice::<Event>(&body[line_start..]) {
        Ok(Event::RunFinished(finished)) => Ok(Some((finished.stop, start + line_start as u64))),
        _ => Ok(None),
    }
}

/// What a staging folder has committed: its events folded, and its journal;
/// `None` when nothing is. A worker reads it to carry on: the events from
/// the resume log, and those past it (none, but while `--resume` writes
/// it again) from `events.ndjson`.
pub fn load_committed<F: Fold>(dir: &Path) -> anyhow::Result<Option<(F, Vec<u8>)>> {
    let checkpoint: Checkpoint = match std::fs::read_to_string(dir.join(CHECKPOINT)) {
        Ok(text) => serde_json::from_str(&text).context("reading the checkpoint")?,
        Err(_) => Checkpoint::default(),
    };
    if checkpoint.events == 0 {
        return Ok(None);
    }
    let mut fold = F::default();
    let log = read_range(&dir.join(RESUME_LOG), 0, checkpoint.resume_log)?;
    resume_log::fold(&log, &mut fold).map_err(|e| anyhow::anyhow!("reading {RESUME_LOG}: {e}"))?;
    let events = read_range(&dir.join(EVENTS), checkpoint.logged_events, checkpoint.events)?;
    for event in read_ndjson(&events[..]) {
        fold.apply(event.map_err(|e| anyhow::anyhow!("reading committed events: {e}"))?);
    }
    let journal = read_range(&dir.join(JOURNAL), 0, checkpoint.journal)?;
    Ok(Some((fold, journal)))
}

/// Bytes `from..to` of `path`.
fn read_range(path: &Path, from: u64, to: u64) -> anyhow::Result<Vec<u8>> {
    let len = to.saturating_sub(from);
    if len == 0 {
        return Ok(Vec::new());
    }
    let mut file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    file.seek(std::io::SeekFrom::Start(from))?;
    let mut bytes = Vec::with_capacity(len as usize);
    BufReader::new(file).take(len).read_to_end(&mut bytes)?;
    anyhow::ensure!(bytes.len() as u64 == len, "{} is shorter than its checkpoint", path.display());
    Ok(bytes)
}

/// The name of the summary every run writes last.
pub const SUMMARY: &str = "summary.json";

/// Maps the flight recorder `file`, which a worker and its supervisor share.
pub fn map_flight(file: &File) -> std::io::Result<Arc<Flight>> {
    // SAFETY: a file of this run's own, never truncated while mapped, and
    // accessed through atomics only.
    let map = unsafe { memmap2::MmapMut::map_mut(file) }?;
    let words = map.len() / 8;
    // SAFETY: the mapping is page-aligned and `AtomicU64` has the size and
    // alignment of `u64`; the flight owns the mapping.
    Ok(unsafe {
        let slice = std::slice::from_raw_parts(map.as_ptr().cast::<AtomicU64>(), words);
        Flight::mapped_by(slice, Box::new(map))
    })
}

/// The observer that makes a supervised run durable: it stages each commit
/// before it is folded, and saves the checkpoint when a worker dies (the
/// next one resumes from it). A write that fails stops the run: what it
/// finds from then on could not be kept.
pub struct Keeper<'a> {
    staging: &'a mut Staging,
    /// The first write that failed.
    pub error: Option<anyhow::Error>,
}

impl<'a> Keeper<'a> {
    pub fn new(staging: &'a mut Staging) -> Self {
        Keeper { staging, error: None }
    }
}

impl Observer for Keeper<'_> {
    fn batch(&mut self, batch: &Batch) {
        if let Err(error) = self.staging.append(batch) {
            self.error.get_or_insert(error);
        }
    }

    fn killed(&mut self, _: &Killed) {
        if let Err(error) = self.staging.save() {
            self.error.get_or_insert(error);
        }
    }

    fn poll(&mut self) -> Control {
        match self.error {
            Some(_) => Control::Abandon,
            None => Control::Continue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallscope::events::{Event, Note, StructureFound};
    use smallscope::sequence::{Output, Step};
    use smallscope::BeapiReport;

    /// A commit of `n` structures (with texts, as a run records them) and a note.
    fn commit(from: u64, n: u64) -> Batch {
        let structure = |index| {
            Event::Structure(StructureFound {
                index,
                level: Some(1),
                fingerprint: Some(smallscope::events::Fingerprint(u128::from(index) * 7919)),
                canonical: Some(format!("Structure#{index} with a long canonical text")),
                rebuild: smallscope::events::Rebuild::Step(Step { op: 0, args: vec![], output: Output::Result }),
                variant: false,
                picture: None,
                graph: None,
            })
        };
        let mut events: Vec<Event> = (from..from + n).map(structure).collect();
        events.push(Event::Note(Note { text: format!("after {}", from + n) }));
        Batch { events, journal: vec![from as u8], ndjson: Vec::new() }
    }

    fn steps(report: &BeapiReport) -> Vec<(Option<smallscope::events::Fingerprint>, String)> {
        report.structures.iter().map(|s| (s.fingerprint, format!("{:?}", s.step))).collect()
    }

    /// Overwrites `events.ndjson` with bytes that are not JSON, keeping its length.
    fn spoil_events(dir: &Path) {
        let path = dir.join(EVENTS);
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        std::fs::write(&path, vec![b'#'; len]).unwrap();
    }

    /// The events in `--out` are the staged file under a second name, not a
    /// copy; a run resumed, or a new run, on the folder writes a file of its
    /// own, and the events already in `--out` stay as they were.
    #[test]
    fn the_events_are_linked_into_out_and_later_runs_leave_them() {
        use std::os::unix::fs::MetadataExt as _;
        let out = tempfile::tempdir().unwrap();
        let args = vec!["beapi".to_owned()];
        let (staged, linked) = (out.path().join(".smallscope").join(EVENTS), out.path().join(EVENTS));
        let inode = |path: &Path| std::fs::metadata(path).unwrap().ino();
        let budget = crate::writing::Budget::new(crate::signals::Interrupts::install().unwrap(), None);
        let first = {
            let mut staging = Staging::open(Some(out.path()), false, &args).unwrap();
            staging.append(&commit(0, 3)).unwrap();
            staging.save().unwrap();
            let summary = |_: Vec<String>, _: &[crate::writing::PartialFile]| Ok(b"{}".to_vec());
            let (path, len) = staging.events();
            let events = crate::writing::OutputFile::written(EVENTS, path, len);
            crate::writing::write_outputs(out.path(), vec![events], &budget, summary).unwrap();
            assert_eq!(inode(&staged), inode(&linked));
            std::fs::read_to_string(&linked).unwrap()
        };
        assert_eq!(first.lines().count(), 4, "{first}");
        {
            let mut resumed = Staging::open(Some(out.path()), true, &args).unwrap();
            resumed.append(&commit(3, 1)).unwrap();
            resumed.save().unwrap();
        }
        assert_ne!(inode(&staged), inode(&linked));
        assert_eq!(std::fs::read_to_string(&linked).unwrap(), first);
        let staged_text = std::fs::read_to_string(&staged).unwrap();
        assert!(staged_text.starts_with(&first) && staged_text.lines().count() == 6, "{staged_text}");
        // A new run on the folder starts its own events; the linked file stays.
        std::fs::hard_link(&staged, out.path().join("events-again.ndjson")).unwrap();
        Staging::open(Some(out.path()), false, &args).unwrap();
        assert_eq!(std::fs::metadata(&staged).unwrap().len(), 0);
        assert_eq!(std::fs::read_to_string(out.path().join("events-again.ndjson")).unwrap(), staged_text);
    }

    #[test]
    fn a_worker_reads_the_resume_log_not_the_events() {
        let out = tempfile::tempdir().unwrap();
        let args = vec!["beapi".to_owned()];
        let mut staging = Staging::open(Some(out.path()), false, &args).unwrap();
        staging.append(&commit(0, 3)).unwrap();
        staging.append(&commit(3, 2)).unwrap();
        staging.save().unwrap();
        let (by_events, journal) = staging.load_events_for_test();
        spoil_events(staging.dir());
        let (by_log, log_journal): (BeapiReport, _) = load_committed(staging.dir()).unwrap().unwrap();
        assert_eq!(steps(&by_log), steps(&by_events));
        assert_eq!(steps(&by_log).len(), 5);
        assert_eq!(by_log.notes, ["after 3", "after 5"]);
        assert_eq!(log_journal, journal);
        assert!(by_log.structures.iter().all(|s| s.canonical.is_none()));
    }

    #[test]
    fn resume_writes_the_log_again_and_the_workers_read_it() {
        let out = tempfile::tempdir().unwrap();
        let args = vec!["beapi".to_owned()];
        {
            let mut staging = Staging::open(Some(out.path()), false, &args).unwrap();
            staging.append(&commit(0, 4)).unwrap();
            staging.close(false).unwrap();
        }
        // An earlier program's staging folder has no resume log.
        std::fs::remove_file(out.path().join(".smallscope").join(RESUME_LOG)).unwrap();
        let mut staging = Staging::open(Some(out.path()), true, &args).unwrap();
        let (resumed, _): (BeapiReport, _) = staging.load().unwrap().unwrap();
        staging.append(&commit(4, 1)).unwrap();
        staging.save().unwrap();
        let (by_events, _) = staging.load_events_for_test();
        spoil_events(staging.dir());
        let (by_log, _): (BeapiReport, _) = load_committed(staging.dir()).unwrap().unwrap();
        assert_eq!(steps(&resumed).len(), 4);
        assert_eq!(steps(&by_log), steps(&by_events));
        assert_eq!(by_log.notes, ["after 4", "after 5"]);
    }

    impl Staging {
        /// The committed events folded from `events.ndjson` itself.
        fn load_events_for_test(&self) -> (BeapiReport, Vec<u8>) {
            let events = read_range(&self.dir.join(EVENTS), 0, self.committed.events).unwrap();
            let mut fold = BeapiReport::default();
            for event in read_ndjson(&events[..]) {
                fold.apply(event.unwrap());
            }
            (fold, read_range(&self.dir.join(JOURNAL), 0, self.committed.journal).unwrap())
        }
    }
}
