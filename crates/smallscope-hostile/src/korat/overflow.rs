//! `hostile-korat-overflow`: `rep_ok` recurses without bound on one tree at scope 3.
//!
//! - **Trigger**: the tree whose root has no left child and a right child
//!   that has a left child (a leaf) and no right child, [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   once `rep_ok` has read all its fields and `size`. Every other candidate
//!   is judged as `binary-tree` judges it.
//! - **Misbehaviour**: a recursive helper with no base case keeps a 512-byte
//!   array in each frame until the thread's stack overflows; Rust prints
//!   `thread '…' has overflowed its stack` and aborts (`SIGABRT`).
//! - **Finding** (`smallscope korat hostile-korat-overflow --scope 3`, on 1
//!   or 2 threads): `stack-overflow`, during `rep-ok`, no operation, with the
//!   trigger candidate's fields as witness (see the [module doc](super)).
//!   The overflow kills the worker and the supervisor restarts it twice (once to confirm it):
//!   the probe of the split that killed it leaves its part whole, and the
//!   counted search reports the tree from that probe's record without
//!   calling `rep_ok` on it again. The search explores 63 candidates and finds 4
//!   trees.
//! - **When**: see the [module doc](super): first in the command's split,
//!   before any tree is counted; in a
//!   sequential search, after 15 candidates, 1 of them a valid tree.
//! - **Library mode** and `--no-isolation`: the overflow ends the process.

use super::TreeView;
use crate::misbehave;

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    super::rep_ok_or(tree, misbehave::overflow_stack)
}

smallscope::korat_subject!("hostile-korat-overflow", super::Tree, rep_ok = rep_ok);
