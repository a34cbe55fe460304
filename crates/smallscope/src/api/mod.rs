//! API model: operations, their arguments and what running one gives.
//!
//! `#[smallscope::api]` on an `impl` block turns each `pub fn` into an
//! [`Operation`]: a type-erased callable with typed parameter slots. The
//! receiver, when there is one, is parameter 0. Parameters are primitives
//! (integers, `bool`, `char`, `String`, `&str`), `Option` of an integer,
//! and lists of integers (`Vec<u8>`, `&[u8]`, `&Vec<u8>`), drawn from the
//! scope's domains ([`ParamKind`]), the subject type itself (`Self`,
//! `&Self`, `&mut Self`) drawn from structures built before, or a
//! reference to another type with `#[smallscope::api]` (`&Order`,
//! `&mut Order`), drawn from that type's own structures ([`other`]), or a
//! handle: a type (or `&` of it) that some operation of the block returns,
//! itself or in `Ok` (`insert(..) -> Key`, `remove(key: Key)`), whose values
//! are those earlier calls of the same sequence returned
//! ([`ParamKind::Handle`]). Any other parameter type (a `&mut [u8]`, a
//! `&PriceList` without an API) is a compile error on that parameter; leave
//! the method out with `#[smallscope(skip)]`.
//!
//! A returned value is observed through its `Debug` rendering; a type
//! without `Debug` (an `impl Iterator`) is called but not observed.
//! Generated tests compare a value with a literal only when its declared
//! type equals its rendering read as one ([`Operation::returns_literal`]),
//! and otherwise compare renderings, so they compile for any return type
//! (`Option<&u8>`, `&[u8]`).
//!
//! An impl generic only over lifetimes (`impl<'a> Parser<'a>`) declares the
//! subject `Parser<'static>`; one generic over types or constants needs
//! `register(..)`. A parameter borrowing for the impl's lifetime is an error.
//!
//! ```
//! use smallscope::Heap;
//!
//! #[derive(Heap, Clone, Debug, Default)]
//! pub struct Counter { value: u8 }
//!
//! #[smallscope::api(name = "doc-counter", rep_ok = rep_ok)]
//! impl Counter {
//!     pub fn new() -> Self { Counter::default() }
//!     pub fn bump(&mut self, by: u8) { self.value += by; }
//!     /// `Err` means the caller misused the API: that sequence is dropped.
//!     pub fn take(&mut self, n: u8) -> Result<u8, String> {
//!         if n > self.value { return Err("not enough".into()); }
//!         self.value -= n;
//!         Ok(self.value)
//!     }
//!     pub fn get(&self) -> u8 { self.value }
//!     /// `None` and each integer of the domain are tried.
//!     pub fn bump_or_reset(&mut self, by: Option<u8>) { self.value = by.map_or(0, |b| self.value + b); }
//!     /// Every list of at most 2 integers of the domain is tried.
//!     pub fn bump_all(&mut self, by: &[u8]) { self.value += by.iter().sum::<u8>(); }
//!     #[smallscope(skip)]
//!     pub fn reset_all(&mut self) { self.value = 0; }
//!     pub fn rep_ok(&self) -> bool { self.value < 200 }
//! }
//!
//! use smallscope::api::Subject;
//! let names: Vec<_> = Counter::operations().iter().map(|op| op.name).collect();
//! assert_eq!(names, ["new", "bump", "take", "get", "bump_or_reset", "bump_all"]);
//! ```
//!
//! Arguments of `#[smallscope::api(..)]`:
//! - `name = "sll"`: registers the subject under that name for the CLI
//!   (default: the type's name in kebab case);
//! - `rep_ok = method`: the invariant, checked after every call that makes a new structure;
//! - `register("rbt" = RedBlackTree<Plain>, "rbt-bug-x" = RedBlackTree<BugX>)`:
//!   for a generic `impl`, registers each instantiation under its own name.

mod arg;
mod debug_text;
mod operation;
pub mod other;
mod other_domains;
mod registry;
mod signature;
mod std_traits;

pub use crate::runner::{assume_failed, Outcome, PanicInfo};
pub use crate::sequence::OtherValue;
pub use arg::{Arg, HandleValue, Primitive, TypedInts};
pub use debug_text::{debug_text, is_cut, Bounded, CONTRACT_LIMIT, RENDER_LIMIT};
pub use operation::{select_operations, AsInt, Invoke, Operation, Returned};
pub use other::{OtherArg, OtherParam, OtherSubject};
pub use other_domains::OtherDomains;
pub use registry::{find_subject, registered_subjects, ErasedSubject, Registration, SubjectHandle};
pub use signature::{Access, IntKind, ListForm, OperationInfo, ParamKind, ReturnKind};
pub use std_traits::{StdTraitTable, StdTraits};

use crate::heap::Heap;

/// A type with a declared API. Implement it with `#[smallscope::api]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no API for smallscope",
    label = "not a type with #[smallscope::api]",
    note = "put #[smallscope::api] on an impl block of `{Self}`; as a parameter type (`&{Self}`), it may instead \
            be left out with #[smallscope(skip)] on the method"
)]
pub trait Subject: Heap + Sized + 'static {
    /// The operations, in declaration order.
    fn operations() -> Vec<Operation<Self>>;

    /// Whether an invariant was declared with `rep_ok = ..`.
    const HAS_REP_OK: bool = false;

    /// The invariant's method name, when one was declared: its code is
    /// the oracle's, not the code under test (see `smallscope::random`'s branch phase).
    const REP_OK_METHOD: Option<&'static str> = None;

    /// The declared invariant's verdict, if there is one.
    fn rep_ok(&self) -> Option<bool> {
        None
    }

    /// A copy of `self`, when the type is `Clone`. Engines use it to extend a
    /// stored structure without replaying the sequence that built it.
    fn try_clone(&self) -> Option<Self> {
        None
    }
}

/// Support for derived code; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use inventory;

    pub use super::std_traits::probe;
}
