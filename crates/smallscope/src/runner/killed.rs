//! [`Killed`]: an input that brought an attempt down, to be stepped past.

use super::flight::{Address, InFlight};
use crate::events::{During, FailureKind, Fingerprint};

/// An input on which user code killed the process running it or did not
/// return. The next attempt reports it as a failure, with its witness, when
/// it reaches `address`, and goes on without running it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Killed {
    pub address: Address,
    pub kind: FailureKind,
    pub during: During,
    /// The operation the input ends with (index in the API).
    pub op: u16,
    pub message: String,
    /// Korat: the fields `rep_ok` had read, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<u32>,
    /// Korat: the value index each of `reads` held (to run it again alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u32>,
    /// The fingerprint of the value under check, when the engine set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print: Option<Fingerprint>,
    /// Whether the input is known to bring a worker down: it did so twice,
    /// or others of its group did. An unconfirmed input is run again, not
    /// stepped past; if it then returns, it is a `flaky` finding.
    #[serde(default)]
    pub confirmed: bool,
    /// The confirmed input that made its group reach the supervisor's
    /// `max_repeats`: past it, the engine no longer runs its operation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quarantines: bool,
}

/// The bit of an address's run that marks a run over another subject's API.
pub const OTHER_API_RUNS: u64 = 1 << 63;

/// What a group of killed inputs shares: how they died, in which user
/// code, ending with which operation.
pub type KillGroup = (FailureKind, During, u16);

impl Killed {
    /// What the flight recorder says of the input in `slot`, and how it died.
    pub fn from_flight(slot: &InFlight, kind: FailureKind, message: String) -> Self {
        Killed {
            address: slot.address,
            kind,
            during: slot.code.during,
            op: slot.code.op,
            message,
            reads: slot.reads.clone(),
            values: slot.read_values.clone(),
            print: slot.print.map(Fingerprint),
            confirmed: false,
            quarantines: false,
        }
    }

    pub fn group(&self) -> KillGroup {
        (self.kind, self.during, self.op)
    }

    /// The confirmed killed input at `address`, to step past, if there is one.
    pub fn at(killed: &[Killed], address: Address) -> Option<&Killed> {
        killed.iter().find(|k| k.address == address && k.confirmed)
    }

    /// The unconfirmed killed input at `address`, to run again, if there is one.
    pub fn unconfirmed_at(killed: &[Killed], address: Address) -> Option<&Killed> {
        killed.iter().find(|k| k.address == address && !k.confirmed)
    }

    /// The message of the `flaky` finding an unconfirmed input becomes when
    /// it returns on its second run. It names the input, so that each such
    /// input is a finding of its own.
    pub fn flaky_message(&self) -> String {
        format!(
            "{} on the first run ({}), but returned when run again in a fresh worker: the code under test is \
             nondeterministic (input {})",
            self.kind, self.message, self.address
        )
    }

    /// What a run that stopped before it could run this input again and
    /// report it says of it; `operation` names the operation when known.
    pub fn unreported_message(&self, operation: Option<&str>) -> String {
        let operation = operation.map_or(format!("operation {}", self.op), |name| format!("`{name}`"));
        format!(
            "the run stopped on a {} during {} ({operation}, input {}: {}) before it could run the input again and \
             report it: it is not among the findings; a run with a longer time limit reports it",
            self.kind,
            self.during.name(),
            self.address,
            self.message
        )
    }

    /// The confirmed inputs of `of`'s group in runs over its API: how many
    /// repeats quarantined it.
    pub fn repeats(killed: &[Killed], of: &Killed) -> usize {
        Self::confirmed_like(killed, of).count()
    }

    /// The confirmed inputs of `of`'s group in runs over its API.
    fn confirmed_like<'a>(killed: &'a [Killed], of: &'a Killed) -> impl Iterator<Item = &'a Killed> {
        killed.iter().filter(|k| k.confirmed && k.group() == of.group() && same_api(k.address.run, of.address.run))
    }

    /// "N confirmed KIND findings during CODE", saying how many of them an earlier phase
    /// met (builders identification before BEAPI's search): those count
    /// towards the quarantine too, so N may pass `--max-repeats`.
    pub fn repeats_text(killed: &[Killed], of: &Killed) -> String {
        let repeats = Self::repeats(killed, of);
        let elsewhere = Self::confirmed_like(killed, of).filter(|k| k.address.run != of.address.run).count();
        let text = format!("{repeats} confirmed {} findings during {}", of.kind, of.during.name());
        match elsewhere {
            0 => text,
            n => format!("{text} ({n} of them in an earlier phase of the run)"),
        }
    }

    /// The quarantining inputs whose operations are not run at `address`:
    /// those of its own run before it, and those of runs of the same API
    /// with a lower number (random's generation for its regression tests).
    /// A run with a higher number (BEAPI's builder identification) does
    /// not quarantine a lower one, which then finds and reports the bug
    /// itself. Runs with [`OTHER_API_RUNS`] set belong to another subject's
    /// API, whose operations are numbered apart.
    pub fn quarantined(killed: &[Killed], address: Address) -> impl Iterator<Item = &Killed> {
        killed.iter().filter(move |k| {
            k.quarantines
                && match k.address.run == address.run {
                    true => k.address < address,
                    false => k.address.run < address.run && same_api(k.address.run, address.run),
                }
        })
    }
}

/// Whether two runs call the operations of one API (numbered alike).
pub fn same_api(run: u64, other: u64) -> bool {
    run == other || (run | other) & OTHER_API_RUNS == 0
}
