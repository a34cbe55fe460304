//! The visited-state set behind state matching.

use rustc_hash::FxHashSet;
use xxhash_rust::xxh3::xxh3_128;

use super::StateStorage;
use crate::heap::Token;

/// Canonical forms seen so far, as fingerprints or exactly.
pub enum StateSet {
    Fingerprints(FxHashSet<u128>),
    Exact(FxHashSet<Box<[Token]>>),
}

/// A canonical form's key in a [`StateSet`].
#[derive(Clone, PartialEq, Eq)]
pub enum StateKey {
    Fingerprint(u128),
    Exact(Box<[Token]>),
}

impl StateKey {
    /// The fingerprint of the canonical form: the key itself, or its hash.
    pub fn fingerprint(&self) -> u128 {
        match self {
            StateKey::Fingerprint(print) => *print,
            StateKey::Exact(tokens) => fingerprint(tokens),
        }
    }
}

impl StateSet {
    pub fn new(storage: StateStorage) -> Self {
        match storage {
            StateStorage::Fingerprint => StateSet::Fingerprints(FxHashSet::default()),
            StateStorage::Exact => StateSet::Exact(FxHashSet::default()),
        }
    }

    pub fn key(&self, tokens: &[Token]) -> StateKey {
        match self {
            StateSet::Fingerprints(_) => StateKey::Fingerprint(fingerprint(tokens)),
            StateSet::Exact(_) => StateKey::Exact(tokens.into()),
        }
    }

    pub fn contains(&self, key: &StateKey) -> bool {
        match (self, key) {
            (StateSet::Fingerprints(set), StateKey::Fingerprint(f)) => set.contains(f),
            (StateSet::Exact(set), StateKey::Exact(t)) => set.contains(t),
            _ => unreachable!("a key is made by the set it is used with"),
        }
    }

    /// Adds `key`; false if it was there already.
    pub fn insert(&mut self, key: StateKey) -> bool {
        match (self, key) {
            (StateSet::Fingerprints(set), StateKey::Fingerprint(f)) => set.insert(f),
            (StateSet::Exact(set), StateKey::Exact(t)) => set.insert(t),
            _ => unreachable!("a key is made by the set it is used with"),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            StateSet::Fingerprints(set) => set.len(),
            StateSet::Exact(set) => set.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The 128-bit xxh3 fingerprint of a canonical form.
pub fn fingerprint(tokens: &[Token]) -> u128 {
    // SAFETY: u64 has no padding and u8 has alignment 1, so viewing the
    // token slice as bytes is sound.
    let bytes = unsafe { std::slice::from_raw_parts(tokens.as_ptr().cast::<u8>(), std::mem::size_of_val(tokens)) };
    xxh3_128(bytes)
}
