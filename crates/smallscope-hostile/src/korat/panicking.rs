//! `hostile-korat-panic`: `rep_ok` panics on one tree at scope 3.
//!
//! The in-process case: the panic is caught wherever the search runs (a
//! worker, `--no-isolation` or library mode), so this subject is also
//! searched in-process (`src/tests.rs`).
//!
//! - **Trigger**: the tree whose root has no left child and a right child
//!   that has a left child (a leaf) and no right child, [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   once `rep_ok` has read all its fields and `size`. Every other candidate
//!   is judged as `binary-tree` judges it.
//! - **Misbehaviour**: `rep_ok` panics with the message [`MESSAGE`].
//! - **Finding** (`smallscope korat hostile-korat-panic --scope 3`, on 1 or
//!   2 threads): `panic`, during `rep-ok`, no operation, with [`MESSAGE`]
//!   and the trigger candidate's fields as witness (see the
//!   [module doc](super)). The panic is caught in the worker: no restart.
//!   Korat reports the failure and counts the candidate as not a tree, so
//!   the search explores 63 candidates and finds 4 trees, not 5. In-process,
//!   `korat::run` gives the same counts and reports the same failure.
//! - **When**: see the [module doc](super): first in the command's split,
//!   then again in the counted search (in a sequential search, after 15
//!   candidates, 1 of them a valid tree).

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
