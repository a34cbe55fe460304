//! Why a run stopped: a leaf of the event schema, which the runner and the
//! model name without naming the events that carry them.

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// The engine did all it was asked to.
    Complete,
    TimeLimit,
    /// Random: the requested number of sequences ran.
    SequenceLimit,
    MemoryLimit,
    /// A signal (Ctrl-C, SIGTERM) or the caller stopped it.
    Interrupted,
    /// Random: every sequence it could assemble was made already.
    Stuck,
    /// Korat: `rep_ok` killed the worker on too many candidates (the
    /// supervisor's `max_repeats`): the search ended there.
    Quarantined,
    /// User code failed on inputs where it did not fail again when run a
    /// second time, too often (`MAX_FLAKY`): the run ended there.
    Flaky,
    /// In this process (library mode, `--no-isolation`), calls that did
    /// not return each left a thread behind, too many of them: the run
    /// ended there.
    TooManyHangs,
    /// BEAPI: level after level made only states that differ from kept
    /// structures in what the canonical form leaves out, which grows
    /// without bound: the search ended there (a note says where).
    Unbounded,
}

impl Stop {
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Complete => "complete",
            Stop::TimeLimit => "time limit",
            Stop::SequenceLimit => "sequence limit",
            Stop::MemoryLimit => "memory limit",
            Stop::Interrupted => "interrupted",
            Stop::Stuck => "stuck: every sequence it could assemble was made already",
            Stop::Quarantined => "quarantined: rep_ok kept killing the worker, so the search ended early",
            Stop::Flaky => "flaky: the code under test failed on inputs where it then passed, so the run ended early",
            Stop::Unbounded => {
                "unbounded: levels made only states that the canonical form does not tell apart, so the search ended"
            }
            Stop::TooManyHangs => {
                "too many hangs: each left a thread of this process spinning, so the run ended early (a worker \
                 process, the command line's default, goes on past them)"
            }
        }
    }

    /// Whether the run did not finish what it was asked (a level or a
    /// search is incomplete).
    pub fn is_early(self) -> bool {
        matches!(
            self,
            Stop::TimeLimit
                | Stop::MemoryLimit
                | Stop::Interrupted
                | Stop::Quarantined
                | Stop::Flaky
                | Stop::TooManyHangs
        )
    }
}
