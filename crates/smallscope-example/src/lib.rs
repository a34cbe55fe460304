//! An example of using smallscope from your own crate. Not a built-in subject:
//! it uses smallscope only through its public API, as a user would.
//!
//! `SortedSet` is a set of small integers kept as a sorted, singly linked
//! chain of boxed nodes. Its `tests/` run BEAPI on it and check the counts
//! against a closed form: every subset of the key domain with at most
//! `scope` elements is a distinct structure.
//!
//! [`model`] is the same set as a Korat model, with a check of `remove`
//! that Korat runs on every structure it finds: `docs/korat.md` walks through it.

use smallscope::Heap;

pub mod model;

#[derive(Heap, Clone, Debug)]
struct Node {
    key: u8,
    next: Option<Box<Node>>,
}

/// A set of `u8` keys, sorted, as a linked chain.
#[derive(Heap, Clone, Debug, Default)]
pub struct SortedSet {
    head: Option<Box<Node>>,
    /// Derivable from the chain, so left out of the canonical form.
    #[heap(omit)]
    len: usize,
    /// Set by `remove_with_bug` to show failure reporting; never by correct calls.
    #[heap(skip)]
    corrupted: bool,
}

/// The set was empty.
#[derive(Debug, PartialEq, Eq)]
pub struct Empty;

#[smallscope::api(name = "example-sorted-set", rep_ok = rep_ok)]
impl SortedSet {
    pub fn new() -> Self {
        SortedSet::default()
    }

    /// Adds `key`; false if it was there already.
    pub fn insert(&mut self, key: u8) -> bool {
        let mut link = &mut self.head;
        while link.as_ref().is_some_and(|n| n.key < key) {
            link = &mut link.as_mut().expect("checked above").next;
        }
        if link.as_ref().is_some_and(|n| n.key == key) {
            return false;
        }
        let next = link.take();
        *link = Some(Box::new(Node { key, next }));
        self.len += 1;
        true
    }

    /// Removes `key`; false if it was absent.
    pub fn remove(&mut self, key: u8) -> bool {
        let mut link = &mut self.head;
        while link.as_ref().is_some_and(|n| n.key < key) {
            link = &mut link.as_mut().expect("checked above").next;
        }
        match link.take() {
            Some(node) if node.key == key => {
                *link = node.next;
                self.len -= 1;
                true
            }
            other => {
                *link = other;
                false
            }
        }
    }

    /// Removes and returns the smallest key.
    pub fn pop_min(&mut self) -> Result<u8, Empty> {
        let node = self.head.take().ok_or(Empty)?;
        self.head = node.next;
        self.len -= 1;
        Ok(node.key)
    }

    pub fn contains(&self, key: u8) -> bool {
        self.keys().contains(&key)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// Invariant: strictly increasing keys, and `len` counts them.
    pub fn rep_ok(&self) -> bool {
        let keys = self.keys();
        !self.corrupted && keys.windows(2).all(|w| w[0] < w[1]) && keys.len() == self.len
    }
}

impl SortedSet {
    /// The keys in order.
    pub fn keys(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut node = &self.head;
        while let Some(n) = node {
            out.push(n.key);
            node = &n.next;
        }
        out
    }
}

/// The same set with a planted bug: `remove` of the largest key of a set
/// with two or more keys forgets to update `len`.
#[derive(Heap, Clone, Debug, Default)]
pub struct BuggySortedSet {
    inner: SortedSet,
}

#[smallscope::api(name = "example-sorted-set-bug-remove", rep_ok = rep_ok)]
impl BuggySortedSet {
    pub fn new() -> Self {
        BuggySortedSet::default()
    }

    pub fn insert(&mut self, key: u8) -> bool {
        self.inner.insert(key)
    }

    pub fn remove(&mut self, key: u8) -> bool {
        let keys = self.inner.keys();
        let removed = self.inner.remove(key);
        if removed && keys.len() >= 2 && keys.last() == Some(&key) {
            self.inner.len += 1; // The planted bug.
        }
        removed
    }

    pub fn rep_ok(&self) -> bool {
        self.inner.rep_ok()
    }
}

/// Item counts of a small shop, with a running total. It declares no
/// `rep_ok`: its one property lives in a user contract, [`TotalMatchesCounts`],
/// registered below and checked by every random run on it.
///
/// Planted bug: `take` of an item's last unit forgets to lower the total.
#[derive(Heap, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inventory {
    counts: Vec<Stock>,
    total: u32,
}

/// Units in stock of one item.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash)]
struct Stock {
    item: u8,
    units: u32,
}

#[smallscope::api(name = "example-inventory-bug-take")]
impl Inventory {
    pub fn new() -> Self {
        Inventory::default()
    }

    /// Adds one unit of `item`.
    pub fn put(&mut self, item: u8) {
        match self.counts.iter_mut().find(|s| s.item == item) {
            Some(stock) => stock.units += 1,
            None => self.counts.push(Stock { item, units: 1 }),
        }
        self.total += 1;
    }

    /// Takes one unit of `item`; false if there is none.
    pub fn take(&mut self, item: u8) -> bool {
        let Some(at) = self.counts.iter().position(|s| s.item == item) else { return false };
        self.counts[at].units -= 1;
        if self.counts[at].units == 0 {
            self.counts.remove(at); // The planted bug: the total stays.
        } else {
            self.total -= 1;
        }
        true
    }

    pub fn total(&self) -> u32 {
        self.total
    }

    /// Units of `item` in stock.
    pub fn count(&self, item: u8) -> u32 {
        self.counts.iter().find(|s| s.item == item).map_or(0, |s| s.units)
    }
}

/// A user contract, defined in this crate: `total()` is the sum of the counts.
#[derive(Default)]
pub struct TotalMatchesCounts;

impl smallscope::random::Contract<Inventory> for TotalMatchesCounts {
    fn name(&self) -> &str {
        "total-matches-counts"
    }

    fn check_value(&self, inventory: &Inventory) -> Result<(), String> {
        let sum: u32 = inventory.counts.iter().map(|s| s.units).sum();
        if sum == inventory.total {
            Ok(())
        } else {
            Err(format!("total() is {} but the counts add up to {sum}", inventory.total))
        }
    }
}

smallscope::register_contract!(Inventory, TotalMatchesCounts);

/// The README's examples compile and pass, as doc tests of this crate.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;
