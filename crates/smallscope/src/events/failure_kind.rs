//! How an input failed, and during which user code: a leaf of the event schema, which the runner and the
//! model name without naming the events that carry them.

/// How an input failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// User code panicked.
    Panic,
    /// `rep_ok` returned false.
    RepOkFalse,
    /// A contract check found a broken law.
    Contract,
    /// User code overflowed its stack.
    StackOverflow,
    /// User code aborted the process.
    Abort,
    /// User code exited the process.
    Exit,
    /// Memory passed the limit during user code.
    OutOfMemory,
    /// User code did not return within the call timeout.
    Hang,
    /// The process died another way (a signal).
    Crash,
    /// An input that killed or hung a worker returned when run again in a
    /// fresh one: the code under test is nondeterministic.
    Flaky,
}

impl FailureKind {
    /// The kebab-case name used in outputs.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Panic => "panic",
            FailureKind::RepOkFalse => "rep-ok-false",
            FailureKind::Contract => "contract",
            FailureKind::StackOverflow => "stack-overflow",
            FailureKind::Abort => "abort",
            FailureKind::Exit => "exit",
            FailureKind::OutOfMemory => "out-of-memory",
            FailureKind::Hang => "hang",
            FailureKind::Crash => "crash",
            FailureKind::Flaky => "flaky",
        }
    }

    /// Whether the failure ends the process running the user code (so only a
    /// supervisor outside it can report it).
    pub fn kills_the_process(self) -> bool {
        !matches!(self, FailureKind::Panic | FailureKind::RepOkFalse | FailureKind::Contract | FailureKind::Flaky)
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which user code was running when an input failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum During {
    /// An operation of the API.
    Call,
    /// The subject's `Clone`.
    Clone,
    /// The subject's `Drop`.
    Drop,
    /// The invariant.
    RepOk,
    /// Korat+'s equivalence class.
    EqClass,
    /// A contract check (random testing).
    Check,
    /// A comparison's conversion of a candidate into a value.
    Convert,
}

impl During {
    pub fn name(self) -> &'static str {
        match self {
            During::Call => "call",
            During::Clone => "clone",
            During::Drop => "drop",
            During::RepOk => "rep-ok",
            During::EqClass => "eq-class",
            During::Check => "check",
            During::Convert => "convert",
        }
    }

    /// A code for the in-flight record (see [`crate::runner::flight`]).
    pub(crate) fn code(self) -> u64 {
        self as u64
    }

    pub(crate) fn from_code(code: u64) -> During {
        [During::Call, During::Clone, During::Drop, During::RepOk, During::EqClass, During::Check, During::Convert]
            .get(code as usize)
            .copied()
            .unwrap_or(During::Call)
    }
}
