//! `hostile-korat-overflow`: `rep_ok` recurses without bound on one tree at scope 3.
//!
//! - **Trigger**: the tree whose root has no left child and a right child
//!   that has a left child (a leaf) and no right child, [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   once `rep_ok` has read all its fields and `size`. Every other candidate
//!   is judged as `binary-tree` judges it.
//! - **Finding**: `stack-overflow`: a recursive helper with no base case
//!   keeps a 512-byte array in each frame; Rust prints `thread '…' has
//!   overflowed its stack` and aborts (`SIGABRT`). The `smallscope` binary
//!   runs the search on a worker thread with a 256 MiB stack, so about
//!   256 MiB is touched first: a memory limit below that makes it `out-of-memory`.
//! - **Attributed to**: `rep_ok`.
//! - **When** (`smallscope korat hostile-korat-overflow --scope 3`): see the
//!   [module doc](super): in the command's split, before any tree is counted;
//!   in a sequential search, after 15 candidates, 1 of them a valid tree.

use super::TreeView;
use crate::misbehave;

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    super::rep_ok_or(tree, misbehave::overflow_stack)
}

smallscope::korat_subject!("hostile-korat-overflow", super::Tree, rep_ok = rep_ok);
