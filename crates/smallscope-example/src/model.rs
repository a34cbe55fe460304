//! Korat as a bug finder: a model of [`SortedSet`]'s memory, its
//! invariant, a conversion into the real type, and a check of `remove`
//! that Korat runs on every valid set (the guide is `docs/korat.md`).
//!
//! BEAPI builds structures through the API; Korat builds them from their
//! fields, so it also reaches states the API builds only through long
//! sequences. A structure alone finds no bug: the check does, by running
//! the method under test on each structure and comparing what it did with
//! what the model says it should do.
//!
//! At `--scope n` the model has at most `n` nodes with keys `0..=n`: a valid
//! set is a subset of those `n + 1` keys with at most `n` of them, so there
//! are `2^(n+1) - 1`.

use smallscope::korat::{Korat, ObjectSet, Ref};

use crate::{BuggySortedSet, Node, SortedSet};

/// [`SortedSet`] as Korat sees it: its chain and its `len`.
#[derive(Korat)]
pub struct SetModel {
    head: Option<Ref<NodeModel>>,
    #[korat(ints = 0..=n)]
    len: i64,
}

/// A node of the chain: at most `n` of them, keys `0..=n`.
#[derive(Korat)]
#[korat(objects = n)]
pub struct NodeModel {
    #[korat(ints = 0..=n)]
    key: i64,
    next: Option<Ref<NodeModel>>,
}

/// [`SortedSet::rep_ok`] over the model: a chain without cycles, keys
/// strictly increasing, and `len` counting them.
pub fn rep_ok(set: SetModelView<'_>) -> bool {
    let mut seen = ObjectSet::new(set);
    let mut count = 0;
    let mut previous = None;
    let mut node = set.head();
    while let Some(current) = node {
        if !seen.insert(current) || previous.is_some_and(|key| key >= current.key()) {
            return false;
        }
        previous = Some(current.key());
        count += 1;
        node = current.next();
    }
    count == set.len()
}

/// The keys along the chain of a valid set.
fn keys(set: SetModelView<'_>) -> Vec<u8> {
    let mut keys = Vec::new();
    let mut node = set.head();
    while let Some(current) = node {
        keys.push(current.key() as u8);
        node = current.next();
    }
    keys
}

impl SortedSet {
    /// The set a valid model stands for, built node by node as the model
    /// lays it out (not through `insert`, which may itself be wrong).
    pub fn from_model(set: SetModelView<'_>) -> SortedSet {
        let mut head = None;
        for key in keys(set).into_iter().rev() {
            head = Some(Box::new(Node { key, next: head }));
        }
        SortedSet { head, len: set.len() as usize, corrupted: false }
    }
}

/// Checks `remove` on `set`: of each key in it, and of one that is not,
/// against the model: the keys left, `len`, and what it returned.
fn check_remove(set: SetModelView<'_>, remove: fn(SortedSet, u8) -> (SortedSet, bool)) -> Result<(), String> {
    let keys = keys(set);
    let absent = keys.last().map_or(0, |last| last + 1);
    for key in keys.iter().copied().chain([absent]) {
        let (after, removed) = remove(SortedSet::from_model(set), key);
        let expected: Vec<u8> = keys.iter().copied().filter(|&k| k != key).collect();
        if removed != keys.contains(&key) || after.keys() != expected || after.len() != expected.len() {
            return Err(format!(
                "remove({key}) on {keys:?} returned {removed} and left keys {:?} with len() {}; the model says \
                 {} and {expected:?} with len() {}",
                after.keys(),
                after.len(),
                keys.contains(&key),
                expected.len()
            ));
        }
    }
    Ok(())
}

/// The check Korat runs on every valid set: [`SortedSet::remove`].
pub fn check(set: SetModelView<'_>) -> Result<(), String> {
    check_remove(set, |mut s, key| {
        let removed = s.remove(key);
        (s, removed)
    })
}

/// The same check of [`BuggySortedSet::remove`], which has a planted bug.
pub fn check_buggy(set: SetModelView<'_>) -> Result<(), String> {
    check_remove(set, |inner, key| {
        let mut buggy = BuggySortedSet { inner };
        let removed = buggy.remove(key);
        (buggy.inner, removed)
    })
}

smallscope::korat_subject!("example-sorted-set-model", SetModel, rep_ok = rep_ok, check = check);
smallscope::korat_subject!("example-sorted-set-model-bug-remove", SetModel, rep_ok = rep_ok, check = check_buggy);
