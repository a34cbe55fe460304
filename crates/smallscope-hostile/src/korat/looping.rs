//! `hostile-korat-loop`: `rep_ok` loops forever on one tree at scope 3.
//!
//! - **Trigger**: the tree whose root has no left child and a right child
//!   that has a left child (a leaf) and no right child, [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   once `rep_ok` has read all its fields and `size`. Every other candidate
//!   is judged as `binary-tree` judges it.
//! - **Misbehaviour**: the invariant spins on a counter behind
//!   `std::hint::black_box` and never returns.
//! - **Finding** (`smallscope korat hostile-korat-loop --scope 3 --call-timeout 2`,
//!   on 1 or 2 threads): `hang`, during `rep-ok`, no operation, with the
//!   trigger candidate's fields as witness (see the [module doc](super)).
//!   The supervisor ends the stuck worker and restarts it twice (once to confirm it): the probe
//!   of the split that hung leaves its part whole, and the counted search
//!   reports the tree from that probe's record without calling `rep_ok`
//!   on it again. The search explores 63 candidates and finds 4 trees.
//! - **When**: see the [module doc](super): first in the command's split,
//!   before any tree is counted; in a
//!   sequential search, after 15 candidates, 1 of them a valid tree.
//! - **Library mode** and `--no-isolation`: survived too, by the call
//!   timeout (10 s by default), which leaves the stuck thread behind.

use super::TreeView;
use crate::misbehave;

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    super::rep_ok_or(tree, misbehave::spin_forever)
}

smallscope::korat_subject!("hostile-korat-loop", super::Tree, rep_ok = rep_ok);
