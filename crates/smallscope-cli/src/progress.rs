//! What a person sees while a run goes: a progress line on a terminal,
//! each failure as soon as it is committed, and each restart of a worker.
//! It only draws: the staging folder keeps the commits
//! ([`crate::staging::Keeper`]) and the guard stops the run
//! ([`crate::guard::Guard`]).

use std::collections::HashSet;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use smallscope::events::{Event, Failure};
use smallscope::runner::{Batch, Killed, Observer};

/// Standard error, shared by the progress line and the lines printed under it.
#[derive(Clone)]
pub struct Console {
    bar: Arc<ProgressBar>,
}

impl Console {
    pub fn new() -> Self {
        // indicatif draws nothing when standard error is not a terminal.
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
        Console { bar: Arc::new(bar) }
    }

    /// Prints a line above the progress line (or alone, off a terminal).
    pub fn line(&self, text: &str) {
        if self.bar.is_hidden() {
            say(text);
        } else {
            self.bar.println(text);
        }
    }

    fn status(&self, text: String) {
        self.bar.set_message(text);
        self.bar.tick();
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Prints a line on standard error; one that is gone (a closed terminal
/// after SIGHUP) does not stop the run.
pub fn say(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// What a person sees of a supervised run: each failure once, as soon as
/// it is committed, the progress line, and each worker that died.
pub struct Progress {
    console: Console,
    /// Failures already told, by what they are.
    told: HashSet<String>,
    /// Attempts run in worker processes (else in threads of this one).
    isolated: bool,
}

impl Progress {
    pub fn new(console: Console, isolated: bool) -> Self {
        Progress { console, told: HashSet::new(), isolated }
    }

    fn tell(&mut self, failure: &Failure) {
        let what = failure.describe();
        if self.told.insert(what.clone()) {
            self.console.line(&format!("found: {what}: {}", failure.witness.text));
        }
    }
}

impl Observer for Progress {
    fn batch(&mut self, batch: &Batch) {
        for event in &batch.events {
            match event {
                Event::Failure(failure) => self.tell(failure),
                Event::Progress(progress) => {
                    let c = &progress.counts;
                    self.console.status(format!(
                        "{} explored, {} kept, {} failing ({:.0} s)",
                        c.explored, c.structures, c.failing, progress.seconds
                    ));
                }
                Event::Level(level) => self.console.status(format!(
                    "level {} done: {} new structures, {} explored",
                    level.level, level.structures, level.explored
                )),
                _ => {}
            }
        }
    }

    fn killed(&mut self, killed: &Killed) {
        // In a thread, only a hang comes here: the thread is left behind.
        let what = if self.isolated { "the worker died" } else { "the engine's thread was left behind" };
        let next = match (killed.confirmed, killed.quarantines) {
            (false, _) => "running that input again in a fresh worker, to confirm it",
            (true, false) => "restarting past that input",
            (true, true) => "restarting past that input; its operation is quarantined from here on",
        };
        self.console.line(&format!("{what} ({}: {}); {next}", killed.kind, killed.message));
    }
}
