//! The Korat subjects: one model, Korat's `BinaryTree` (binary trees of
//! exactly `size` nodes, Catalan(n) of them at scope n), and three
//! invariants that misbehave on one valid tree at scope 3, [`TRIGGER_SHAPE`]:
//!
//! ```text
//! root
//!    \
//!     N1
//!    /
//!  N2
//! ```
//!
//! The root has no left child and a right child `N1`; `N1` has a left
//! child `N2` and no right child; `N2` is a leaf.
//!
//! The invariants read fields in `binary-tree`'s order: `root`, then a
//! breadth-first walk reading each node's `left` before its `right`, then
//! `size`. They misbehave only after all of those reads, so the candidate is
//! known to be that tree, with `size` 3; at other scopes no valid tree has
//! that shape (a valid tree has `size` = n nodes) and nothing misbehaves.
//! With isomorphism breaking, exactly one candidate of a scope-3 search is
//! that tree: the root `Node#0`, `N1` = `Node#1`, `N2` = `Node#2`.
//!
//! When the trigger is reached at scope 3:
//! - the sequential search ([`smallscope::korat::search`], `korat::run`)
//!   explores [`EXPLORED_BEFORE_TRIGGER`] (15) candidates, of which
//!   [`FOUND_BEFORE_TRIGGER`] (1) is a valid tree, and then the trigger tree;
//! - the `smallscope korat <subject> --scope 3` command splits the search
//!   first (even with `--threads 1`), probing `rep_ok` on the first candidate
//!   of each part, and one probe is that tree: the command meets the trigger
//!   in the split, at its probe number [`PROBES_BEFORE_TRIGGER`] + 1 (23),
//!   before any tree is counted. A probe that kills or hangs the worker
//!   leaves its part whole (the supervisor restarts the worker past it,
//!   once), and the counted search reports the trigger tree from the
//!   probe's record.
//!
//! What `korat <subject> --scope 3 --threads 1|2 --call-timeout 2` reports,
//! the same on every thread count: one failure during `rep-ok` (no
//! operation), whose witness is the trigger candidate's fields,
//! `Tree#0.root = 0, Tree#0.size = 3, Node#0.left = null, Node#0.right = 1,
//! Node#1.left = 2, Node#1.right = null, Node#2.left = null, Node#2.right = null`;
//! 63 candidates explored and 4 trees found (Catalan(3) = 5, less the
//! trigger tree), all 4 in `--out`; and the command exits with status 1.
//! The finding's kind is `hang` for `hostile-korat-loop`, `stack-overflow`
//! for `hostile-korat-overflow` and `panic` (caught) for
//! `hostile-korat-panic`.

pub mod check_overflow;
pub mod looping;
pub mod nondeterministic;
pub mod once_per_process;
pub mod overflow;
pub mod panicking;

use smallscope::korat::{Korat, Ref};

#[derive(Korat)]
pub struct Tree {
    root: Option<Ref<Node>>,
    #[korat(ints = n..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    left: Option<Ref<Node>>,
    right: Option<Ref<Node>>,
}

/// A tree's shape: for each node in breadth-first order, the breadth-first
/// positions of its left and right children.
pub type Shape = Vec<[Option<usize>; 2]>;

/// The shape the Korat subjects misbehave on (see the module doc).
pub const TRIGGER_SHAPE: [[Option<usize>; 2]; 3] = [[None, Some(1)], [Some(2), None], [None, None]];

/// Valid trees a sequential Korat search at scope 3 finds before the trigger candidate.
pub const FOUND_BEFORE_TRIGGER: u64 = 1;

/// Candidates a sequential Korat search at scope 3 explores before the trigger candidate.
pub const EXPLORED_BEFORE_TRIGGER: u64 = 15;

/// `rep_ok` runs of `smallscope korat` at scope 3 before the trigger (all in the split).
pub const PROBES_BEFORE_TRIGGER: u64 = 22;

/// Whether `shape` is [`TRIGGER_SHAPE`].
pub fn is_trigger(shape: &[[Option<usize>; 2]]) -> bool {
    shape == TRIGGER_SHAPE
}

/// `binary-tree`'s invariant, reading the same fields in the same order:
/// the shape when the candidate is a tree of `size` nodes.
pub fn shape(tree: TreeView<'_>) -> Option<Shape> {
    let Some(root) = tree.root() else {
        return (tree.size() == 0).then(Vec::new);
    };
    // Breadth first: `visited` is also the queue, read from `next` on.
    let mut visited = vec![root];
    let mut shape = Vec::new();
    let mut next = 0;
    while let Some(&current) = visited.get(next) {
        next += 1;
        // `right` is read only once `left` passed.
        let left = reach(current.left(), &mut visited)?;
        let right = reach(current.right(), &mut visited)?;
        shape.push([left, right]);
    }
    (visited.len() as i64 == tree.size()).then_some(shape)
}

/// Adds a child to the walk: its position, or `None` for no child; `None`
/// outside if it was reached before (not a tree).
fn reach<'c>(child: Option<NodeView<'c>>, visited: &mut Vec<NodeView<'c>>) -> Option<Option<usize>> {
    match child {
        Some(child) if visited.contains(&child) => None,
        Some(child) => {
            visited.push(child);
            Some(Some(visited.len() - 1))
        }
        None => Some(None),
    }
}

/// The invariant of the hostile subjects: a tree of `size` nodes, except
/// that `misbehave` runs on the trigger tree once all its fields are read.
fn rep_ok_or(tree: TreeView<'_>, misbehave: fn() -> !) -> bool {
    match shape(tree) {
        Some(shape) if is_trigger(&shape) => misbehave(),
        Some(_) => true,
        None => false,
    }
}
