//! `hostile-korat-loop`: `rep_ok` loops forever on one tree at scope 3.
//!
//! - **Trigger**: the tree whose root has no left child and a right child
//!   that has a left child (a leaf) and no right child, [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   once `rep_ok` has read all its fields and `size`. Every other candidate
//!   is judged as `binary-tree` judges it.
//! - **Finding**: `hang`: the invariant spins on a counter behind
//!   `std::hint::black_box` and never returns. It runs inside a captured
//!   call, so `--call-timeout` sees it; in the split of `smallscope korat`
//!   the engine has not named the operation `rep_ok` yet.
//! - **Attributed to**: `rep_ok`.
//! - **When** (`smallscope korat hostile-korat-loop --scope 3`): see the
//!   [module doc](super): in the command's split, before any tree is counted;
//!   in a sequential search, after 15 candidates, 1 of them a valid tree.

use super::TreeView;
use crate::misbehave;

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    super::rep_ok_or(tree, misbehave::spin_forever)
}

smallscope::korat_subject!("hostile-korat-loop", super::Tree, rep_ok = rep_ok);
