//! The Korat+ paper's case studies (Aguirre et al., §4): inputs paired with
//! an equivalence-class function `eq_class`, so Korat+ can skip valid
//! candidates of classes already covered.
//!
//! - `list-as-set`: a list and a "set" (a strictly sorted list), as inputs
//!   to a `listAsSet` oracle. Classes: the combinations of "the list is
//!   empty", "has repeated elements", "is sorted", and "the set is empty".
//! - `search-tree-delete`: a search tree and a value to delete. Classes: the
//!   value is absent, or where its node is (root or not; leaf, two
//!   subtrees, left only, right only).
//!
//! Both finitizations take one bound n: n nodes per structure, sizes 0..=n
//! and values 0..n.

use smallscope::korat::{Korat, Ref};

/// A singly linked list and a set kept as a strictly sorted list.
#[derive(Korat)]
pub struct ListAsSet {
    list: Option<Ref<ListNode>>,
    #[korat(ints = 0..=n)]
    list_size: i64,
    set: Option<Ref<SetNode>>,
    #[korat(ints = 0..=n)]
    set_size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct ListNode {
    /// A Java `Integer`: null or a value.
    #[korat(ints = 0..n)]
    value: Option<i64>,
    next: Option<Ref<ListNode>>,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct SetNode {
    #[korat(ints = 0..n)]
    value: i64,
    next: Option<Ref<SetNode>>,
}

/// The list is acyclic with `list_size` nodes and no null element; the set
/// is acyclic, strictly sorted, with `set_size` nodes. The list is checked
/// first, so the set's fields are the last read: Korat+ skips to the next
/// list class instead of enumerating every set for a covered one.
pub fn list_as_set_ok(pair: ListAsSetView<'_>) -> bool {
    let mut seen = Vec::new();
    let mut node = pair.list();
    while let Some(current) = node {
        if seen.contains(&current) || current.value().is_none() {
            return false;
        }
        seen.push(current);
        node = current.next();
    }
    if seen.len() as i64 != pair.list_size() {
        return false;
    }
    let mut members = Vec::new();
    let mut node = pair.set();
    let mut previous: Option<i64> = None;
    while let Some(current) = node {
        if members.contains(&current) {
            return false;
        }
        members.push(current);
        let value = current.value();
        if previous.is_some_and(|p| p >= value) {
            return false;
        }
        previous = Some(value);
        node = current.next();
    }
    members.len() as i64 == pair.set_size()
}

/// Four predicates as bits: list empty, list has repeats, list sorted, set empty.
pub fn list_as_set_class(pair: ListAsSetView<'_>) -> u64 {
    let mut values = Vec::new();
    let mut node = pair.list();
    while let Some(current) = node {
        values.push(current.value().expect("rep_ok held: no null element"));
        node = current.next();
    }
    let empty = values.is_empty();
    let repeats = (1..values.len()).any(|i| values[..i].contains(&values[i]));
    let sorted = values.windows(2).all(|w| w[0] <= w[1]);
    let set_empty = pair.set().is_none();
    u64::from(empty) | u64::from(repeats) << 1 | u64::from(sorted) << 2 | u64::from(set_empty) << 3
}

smallscope::korat_subject!("list-as-set", ListAsSet, rep_ok = list_as_set_ok, eq_class = list_as_set_class);

/// A value to delete, and a search tree to delete it from.
#[derive(Korat)]
pub struct SearchTreeDelete {
    /// One past the keys, too: deleting an absent value is a class.
    #[korat(ints = 0..=n)]
    value: i64,
    root: Option<Ref<TreeNode>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct TreeNode {
    left: Option<Ref<TreeNode>>,
    right: Option<Ref<TreeNode>>,
    #[korat(ints = 0..n)]
    key: i64,
}

/// The value is in range, then the tree: no node reached twice, `size`
/// nodes, keys in search order. Reading the value first leaves the tree's
/// fields last, where Korat+ can skip those that do not decide the class.
pub fn search_tree_delete_ok(input: SearchTreeDeleteView<'_>) -> bool {
    if input.value() < 0 {
        return false;
    }
    let mut seen = Vec::new();
    let mut work: Vec<_> = input.root().into_iter().collect();
    while let Some(node) = work.pop() {
        if seen.contains(&node) {
            return false;
        }
        seen.push(node);
        work.extend(node.right());
        work.extend(node.left());
    }
    seen.len() as i64 == input.size() && ordered(input.root(), None, None)
}

/// Keys strictly between `low` and `high` in the subtree at `node`.
fn ordered(node: Option<TreeNodeView<'_>>, low: Option<i64>, high: Option<i64>) -> bool {
    let Some(node) = node else { return true };
    let key = node.key();
    if low.is_some_and(|l| key <= l) || high.is_some_and(|h| key >= h) {
        return false;
    }
    ordered(node.left(), low, Some(key)) && ordered(node.right(), Some(key), high)
}

/// Where the value to delete is: 0 absent; else 1 + 4·(at the root) + shape,
/// shape 0 leaf, 1 two subtrees, 2 left only, 3 right only.
pub fn search_tree_delete_class(input: SearchTreeDeleteView<'_>) -> u64 {
    let value = input.value();
    let mut node = input.root();
    let mut at_root = true;
    while let Some(current) = node {
        let key = current.key();
        if key == value {
            let shape = match (current.left().is_some(), current.right().is_some()) {
                (false, false) => 0,
                (true, true) => 1,
                (true, false) => 2,
                (false, true) => 3,
            };
            return 1 + 4 * u64::from(at_root) + shape;
        }
        at_root = false;
        node = if value < key { current.left() } else { current.right() };
    }
    0
}

smallscope::korat_subject!(
    "search-tree-delete",
    SearchTreeDelete,
    rep_ok = search_tree_delete_ok,
    eq_class = search_tree_delete_class
);
