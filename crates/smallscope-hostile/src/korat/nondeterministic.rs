//! `hostile-korat-nondeterministic`: `rep_ok` rejects every
//! [`REJECTS_EVERY`]th call in a process, whatever the candidate.
//!
//! - **Misbehaviour**: a process-wide call counter; the call that reaches a
//!   multiple of it returns `false` without reading a field. Every other
//!   call judges as `binary-tree` does. Nothing crashes or hangs: the search
//!   only loses the trees judged on those calls, and prunes by reads that
//!   are not the tree's.
//! - **What a run does** (`korat hostile-korat-nondeterministic --scope 6`,
//!   defaults otherwise): one candidate in 64, chosen by its address, is
//!   judged twice; where the two calls disagree (a verdict or the fields
//!   read), a `flaky` finding in `rep-ok` says `rep_ok` is nondeterministic
//!   and the search may have missed structures. It exits 1.
//! - **Before**: it found fewer trees than Catalan(6) = 132, said
//!   complete and exited 0.

use std::sync::atomic::{AtomicU64, Ordering};

use super::TreeView;

/// Every call whose number (from 1, in each process) is a multiple of this returns `false`.
pub const REJECTS_EVERY: u64 = 13;

static CALLS: AtomicU64 = AtomicU64::new(0);

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    if (CALLS.fetch_add(1, Ordering::Relaxed) + 1) % REJECTS_EVERY == 0 {
        return false;
    }
    super::shape(tree).is_some()
}

smallscope::korat_subject!("hostile-korat-nondeterministic", super::Tree, rep_ok = rep_ok);
