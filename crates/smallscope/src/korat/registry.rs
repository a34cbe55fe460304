//! Korat subjects registered with [`korat_subject!`](crate::korat_subject),
//! found at run time through `inventory`.

use std::sync::Arc;

use super::{Invariants, Space};

/// One registered Korat subject: a model, its stock finitization and its invariants.
pub struct KoratRegistration {
    pub name: &'static str,
    /// The space of the stock finitization `fin(n)`.
    pub space: fn(i64) -> Result<Arc<Space>, String>,
    pub invariants: fn() -> Arc<dyn Invariants + Send + Sync>,
}

inventory::collect!(KoratRegistration);

/// Every registered Korat subject, sorted by name.
pub fn registered_korat_subjects() -> Vec<&'static KoratRegistration> {
    let mut all: Vec<_> = inventory::iter::<KoratRegistration>.into_iter().collect();
    all.sort_by_key(|r| r.name);
    all
}

/// The Korat subject registered as `name`.
pub fn find_korat_subject(name: &str) -> Option<&'static KoratRegistration> {
    inventory::iter::<KoratRegistration>.into_iter().find(|r| r.name == name)
}

/// Registers a Korat subject for the command line:
/// `korat_subject!("binary-tree", BinaryTree, rep_ok = rep_ok)`, optionally
/// with `eq_class = f` (Korat+), where `f` maps the root's view to `u64`.
#[macro_export]
macro_rules! korat_subject {
    ($name:literal, $model:ty, rep_ok = $rep_ok:path $(,)?) => {
        $crate::api::__private::inventory::submit! {
            $crate::korat::KoratRegistration {
                name: $name,
                space: $crate::korat::space::<$model>,
                invariants: || ::std::sync::Arc::new($crate::korat::from_fn::<$model>($rep_ok)),
            }
        }
    };
    ($name:literal, $model:ty, rep_ok = $rep_ok:path, eq_class = $eq_class:path $(,)?) => {
        $crate::api::__private::inventory::submit! {
            $crate::korat::KoratRegistration {
                name: $name,
                space: $crate::korat::space::<$model>,
                invariants: || ::std::sync::Arc::new($crate::korat::with_eq_class::<$model>($rep_ok, $eq_class)),
            }
        }
    };
}
