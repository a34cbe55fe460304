//! Korat subjects registered with [`korat_subject!`](crate::korat_subject),
//! found at run time through `inventory`. The models of the `compare`
//! pairings are Korat subjects too: [`find_korat_subject`] (defined with
//! the pairings, above this engine) finds both.

use std::sync::Arc;

use super::{Invariants, Space};

/// One registered Korat subject: a model, its stock finitization and its invariants.
pub struct KoratRegistration {
    pub name: &'static str,
    /// The space of the stock finitization `fin(n)`.
    pub space: fn(i64) -> Result<Arc<Space>, String>,
    pub invariants: fn() -> Arc<dyn Invariants + Send + Sync>,
    /// Whether the model converts to the API subject of the same name (a
    /// pairing's model): its invariants give [`Invariants::canonical`].
    pub converts: bool,
}

inventory::collect!(KoratRegistration);

/// Registers a Korat subject for the command line:
/// `korat_subject!("binary-tree", BinaryTree, rep_ok = rep_ok)`, optionally
/// with `eq_class = f` (Korat+), where `f` maps the root's view to `u64`,
/// and `check = g`, a check of the code under test that `g` runs on every
/// valid structure: `fn g(root: View) -> Result<(), String>`, where `Err`
/// or a panic is a finding (see `docs/korat.md`).
#[macro_export]
macro_rules! korat_subject {
    ($name:literal, $model:ty, rep_ok = $rep_ok:path $(, check = $check:path)? $(,)?) => {
        $crate::korat_subject!(@register $name, $model,
            $crate::korat::from_fn::<$model>($rep_ok) $(, $check)?);
    };
    ($name:literal, $model:ty, rep_ok = $rep_ok:path, eq_class = $eq_class:path $(, check = $check:path)? $(,)?) => {
        $crate::korat_subject!(@register $name, $model,
            $crate::korat::with_eq_class::<$model>($rep_ok, $eq_class) $(, $check)?);
    };
    (@register $name:literal, $model:ty, $invariants:expr) => {
        $crate::api::__private::inventory::submit! {
            $crate::korat::KoratRegistration {
                name: $name,
                space: $crate::korat::space::<$model>,
                invariants: || ::std::sync::Arc::new($invariants),
                converts: false,
            }
        }
    };
    (@register $name:literal, $model:ty, $invariants:expr, $check:path) => {
        $crate::korat_subject!(@register $name, $model, $crate::korat::checked::<$model, _>($invariants, $check));
    };
}
