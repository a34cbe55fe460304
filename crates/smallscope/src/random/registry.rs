//! Contracts registered from anywhere with [`register_contract!`]: every
//! random run on their subject checks them, from the library or the CLI.
//!
//! ```
//! use smallscope::random::{registered_contracts, Contract};
//! use smallscope::Heap;
//!
//! #[derive(Heap, Clone, Debug)]
//! pub struct Gauge { level: u8 }
//!
//! #[smallscope::api(name = "doc-gauge")]
//! impl Gauge {
//!     pub fn new() -> Self { Gauge { level: 0 } }
//! }
//!
//! struct BelowTen;
//! impl Contract<Gauge> for BelowTen {
//!     fn name(&self) -> &str { "below-ten" }
//!     fn check_value(&self, g: &Gauge) -> Result<(), String> {
//!         if g.level < 10 { Ok(()) } else { Err("too high".into()) }
//!     }
//! }
//!
//! smallscope::register_contract!(Gauge, BelowTen);
//!
//! let names: Vec<String> = registered_contracts::<Gauge>().iter().map(|c| c.name().to_owned()).collect();
//! assert_eq!(names, ["below-ten"]);
//! ```
//!
//! [`register_contract!`]: crate::register_contract

use std::any::{Any, TypeId};

use super::Contract;

/// One registered contract: the subject type it is for and how to make it.
pub struct ContractRegistration {
    pub subject: fn() -> TypeId,
    /// Makes a `Box<dyn Contract<T>>`, boxed again as `Any`.
    pub make: fn() -> Box<dyn Any>,
}

inventory::collect!(ContractRegistration);

/// The contracts registered for `T`, in a stable order (by name).
pub fn registered_contracts<T: 'static>() -> Vec<Box<dyn Contract<T>>> {
    let mut out: Vec<Box<dyn Contract<T>>> = inventory::iter::<ContractRegistration>
        .into_iter()
        .filter(|r| (r.subject)() == TypeId::of::<T>())
        .filter_map(|r| (r.make)().downcast::<Box<dyn Contract<T>>>().ok().map(|b| *b))
        .collect();
    out.sort_by(|a, b| a.name().cmp(b.name()));
    out
}

/// Registers a contract for a subject type: `register_contract!(MyList, LenMatchesIter)`.
/// The contract expression is evaluated once per run.
#[macro_export]
macro_rules! register_contract {
    ($subject:ty, $contract:expr) => {
        $crate::api::__private::inventory::submit! {
            $crate::random::ContractRegistration {
                subject: ::std::any::TypeId::of::<$subject>,
                make: || ::std::boxed::Box::new(
                    ::std::boxed::Box::new($contract) as ::std::boxed::Box<dyn $crate::random::Contract<$subject>>
                ),
            }
        }
    };
}
