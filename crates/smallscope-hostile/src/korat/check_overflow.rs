//! `hostile-korat-check-overflow`: `rep_ok` is `binary-tree`'s; the check
//! of the code under test recurses without bound on one tree at scope 3.
//!
//! - **Trigger**: the valid tree [`TRIGGER_SHAPE`](super::TRIGGER_SHAPE),
//!   which the check meets after `rep_ok` held on it.
//! - **Misbehaviour**: the check overflows its thread's stack, which aborts
//!   the worker (`SIGABRT`).
//! - **Finding** (`smallscope korat hostile-korat-check-overflow --scope 3`,
//!   on 1 or 2 threads): `stack-overflow`, during `check`, with the trigger
//!   candidate's fields as witness. Unlike a death in `rep_ok`, the tree it
//!   died on is valid: all Catalan(3) = 5 trees are counted, and the search
//!   goes on past it.
//! - **Library mode** and `--no-isolation`: the overflow ends the process.

use super::TreeView;
use crate::misbehave;

pub fn rep_ok(tree: TreeView<'_>) -> bool {
    super::shape(tree).is_some()
}

/// Overflows the stack on the trigger tree; passes every other.
pub fn check(tree: TreeView<'_>) -> Result<(), String> {
    match super::shape(tree) {
        Some(shape) if super::is_trigger(&shape) => misbehave::overflow_stack(),
        _ => Ok(()),
    }
}

smallscope::korat_subject!("hostile-korat-check-overflow", super::Tree, rep_ok = rep_ok, check = check);
