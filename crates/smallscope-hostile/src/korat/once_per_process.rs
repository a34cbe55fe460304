//! `hostile-korat-hang-per-process`: `rep_ok` hangs on its
//! [`HANGS_AT_CALL`]th call in each process, whatever the candidate.
//!
//! - **Misbehaviour**: a process-wide call counter; the call that reaches
//!   it spins forever. Every other call judges as `binary-tree` does. The
//!   invariant is nondeterministic: which candidate hangs depends on how
//!   many calls the process made before, not on the candidate.
//! - **What a run does** (`korat hostile-korat-hang-per-process --scope 7`,
//!   defaults otherwise, on 1 or 2 threads): the first hang is confirmed by
//!   running that candidate alone in a fresh worker, where it returns: a
//!   `flaky` finding. The search then steps past it (reached the same way,
//!   it would hang again) and commits after every part. Each restarted
//!   worker hangs again at its own 12 000th call, on another candidate;
//!   after 3 flaky findings the run stops (`stop: flaky`, about 30 s) and
//!   exits 1, instead of restarting forever, with the trees it committed
//!   (417 of 429 on one thread).
//! - **Before**: each restart replayed the search from its last commit, so
//!   the hang fell on the same candidate again and looked deterministic;
//!   each new hang cost the call timeout, with no end (later: a quarantine
//!   after about 51 s, with 156 trees).

use std::sync::atomic::{AtomicU64, Ordering};

use super::TreeView;
use crate::misbehave;

/// The call, counted from 1 in each process, that spins forever.
pub const HANGS_AT_CALL: u64 = 12_000;

static CALLS: AtomicU64 = AtomicU64::new(0);

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    if CALLS.fetch_add(1, Ordering::Relaxed) + 1 == HANGS_AT_CALL {
        misbehave::spin_forever();
    }
    super::shape(tree).is_some()
}

smallscope::korat_subject!("hostile-korat-hang-per-process", super::Tree, rep_ok = rep_ok);
