//! A canonical form's fingerprint: a leaf of the event schema, which the runner and the
//! model name without naming the events that carry them.

/// A 128-bit fingerprint of a canonical form, written as 32 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u128);

impl Fingerprint {
    /// The 32 lower-case hex digits, most significant first; written by
    /// hand, since every structure event carries one and `format!` costs
    /// ten times as much.
    pub fn hex(self) -> [u8; 32] {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut out = [0u8; 32];
        for (k, digit) in out.iter_mut().enumerate() {
            *digit = DIGITS[(self.0 >> (124 - 4 * k) & 0xf) as usize];
        }
        out
    }
}

impl serde::Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let hex = self.hex();
        s.serialize_str(std::str::from_utf8(&hex).expect("hex digits are ASCII"))
    }
}

impl<'de> serde::Deserialize<'de> for Fingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        u128::from_str_radix(&text, 16).map(Fingerprint).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    #[test]
    fn hex_is_the_formatted_number() {
        for value in [0, 1, 0xabc, u128::MAX, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210, 1 << 127] {
            let hex = Fingerprint(value).hex();
            assert_eq!(std::str::from_utf8(&hex).unwrap(), format!("{value:032x}"));
        }
    }
}
