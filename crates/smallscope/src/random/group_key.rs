//! What failures are grouped by: data a stream's record carries, below the
//! engine.

/// What failures are grouped by (MinUnit, thesis §8.2.1): the contract, the
/// last call and, for panics, where it panicked. A law over two or three
/// values (`Hash` agreeing with `==`, say) breaks because of how the values
/// differ, not because of the call that happened to come last, so those
/// failures are grouped without the call (`op` is `None`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct GroupKey {
    pub contract: String,
    pub op: Option<u16>,
    pub location: Option<String>,
}
