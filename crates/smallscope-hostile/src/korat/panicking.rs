//! `hostile-korat-panic`: `rep_ok` panics on one tree at scope 3.
//!
//! The in-process case: Korat catches the panic today and counts the
//! candidate as invalid, so a scope-3 search finds 4 trees, not 5.
//!
//! - **Trigger**: the tree whose root has no left child and a right child
//!   that has a left child (a leaf) and no right child, [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   once `rep_ok` has read all its fields and `size`. Every other candidate
//!   is judged as `binary-tree` judges it.
//! - **Finding**: `panic`, with the message [`MESSAGE`]; Korat takes it as
//!   `false` and reports no failure, so only a supervisor that watches
//!   panics (or the count: 4 instead of Catalan(3) = 5) sees it.
//! - **Attributed to**: `rep_ok`.
//! - **When** (`smallscope korat hostile-korat-panic --scope 3`): see the
//!   [module doc](super): first in the command's split, then again in the
//!   counted search (in a sequential search, after 15 candidates, 1 of them
//!   a valid tree). The command reports 4 structures and 63 explored.

use super::TreeView;

/// The panic message.
pub const MESSAGE: &str = "hostile-korat-panic: refusing to check the trigger tree";

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    super::rep_ok_or(tree, refuse)
}

fn refuse() -> ! {
    panic!("{MESSAGE}")
}

smallscope::korat_subject!("hostile-korat-panic", super::Tree, rep_ok = rep_ok);
