//! The xorshift64 generator the randomized differential tests draw from:
//! tiny, deterministic for a given seed, and free of dependencies.

/// Marsaglia's xorshift64; the seed must not be zero.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
