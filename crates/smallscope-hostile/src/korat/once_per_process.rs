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
//!   `flaky` finding. Each restarted worker hangs again at its own
//!   5 000th call, on another candidate; after 3 flaky findings the run
//!   stops (`stop: flaky`) and exits 1, instead of restarting forever.
//! - **Before**: each restart replayed the search from its last commit, so
//!   the 5 000th call fell on the same candidate and the hang looked
//!   deterministic; each new hang cost the call timeout, with no end.

use std::sync::atomic::{AtomicU64, Ordering};

use super::TreeView;
use crate::misbehave;

/// The call, counted from 1 in each process, that spins forever.
pub const HANGS_AT_CALL: u64 = 5_000;

static CALLS: AtomicU64 = AtomicU64::new(0);

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    if CALLS.fetch_add(1, Ordering::Relaxed) + 1 == HANGS_AT_CALL {
        misbehave::spin_forever();
    }
    super::shape(tree).is_some()
}

smallscope::korat_subject!("hostile-korat-hang-per-process", super::Tree, rep_ok = rep_ok);
