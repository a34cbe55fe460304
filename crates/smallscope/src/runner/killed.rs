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
    /// The fingerprint of the value under check, when the engine set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print: Option<Fingerprint>,
}

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
            print: slot.print.map(Fingerprint),
        }
    }

    /// The killed input at `address`, if there is one.
    pub fn at(killed: &[Killed], address: Address) -> Option<&Killed> {
        killed.iter().find(|k| k.address == address)
    }
}
