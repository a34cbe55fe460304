//! A progress bar on standard error, drawn only when it is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::ops::ControlFlow;

use smallscope::beapi::{LevelStats, Progress};

use crate::memory::resident_memory_bytes;

pub struct Bar {
    bar: ProgressBar,
    level: u32,
    /// Stop the run when resident memory passes this many bytes.
    memory_limit: Option<u64>,
    /// Words for a random run instead of BEAPI's levels.
    random: bool,
}

impl Bar {
    pub fn new(memory_limit: Option<u64>) -> Self {
        // indicatif draws nothing when standard error is not a terminal.
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
        Bar { bar, level: 0, memory_limit, random: false }
    }

    /// A bar for `smallscope random`: sequences and failure groups.
    pub fn for_random(memory_limit: Option<u64>) -> Self {
        Bar { random: true, ..Bar::new(memory_limit) }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn level_started(&mut self, level: u32, frontier: usize) {
        self.level = level;
        self.bar.set_message(format!("level {level}: extending {frontier} structures"));
    }
    fn tick(&mut self, explored: u64, structures: usize) -> ControlFlow<String> {
        if self.random {
            crate::partial::executed(explored);
            self.bar.set_message(format!("{explored} sequences executed, {structures} failure groups"));
        } else {
            self.bar
                .set_message(format!("level {}: {explored} sequences explored, {structures} structures", self.level));
        }
        self.bar.tick();
        match (self.memory_limit, resident_memory_bytes()) {
            (Some(limit), Some(used)) if used > limit => {
                ControlFlow::Break(format!("memory limit of {} MiB reached", limit / (1024 * 1024)))
            }
            _ => ControlFlow::Continue(()),
        }
    }
    fn level_finished(&mut self, stats: &LevelStats) {
        self.bar.set_message(format!("level {} done: {} new structures", stats.level, stats.structures));
    }
    fn found(&mut self, failure: &str) {
        crate::partial::found(failure);
        self.bar.println(format!("found: {failure}"));
    }
    fn message(&mut self, text: &str) {
        self.bar.set_message(text.to_owned());
        self.bar.tick();
    }
}
