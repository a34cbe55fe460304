//! A canonical form's fingerprint: a leaf of the event schema, which the runner and the
//! model name without naming the events that carry them.

/// A 128-bit fingerprint of a canonical form, written as 32 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u128);

impl serde::Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{:032x}", self.0))
    }
}

impl<'de> serde::Deserialize<'de> for Fingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        u128::from_str_radix(&text, 16).map(Fingerprint).map_err(serde::de::Error::custom)
    }
}
