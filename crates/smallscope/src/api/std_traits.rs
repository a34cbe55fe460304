//! Which standard traits a subject implements, found without bounds.
//!
//! Rust cannot ask "is `T: Hash`?" at run time, so `#[smallscope::api]`
//! asks at compile time, for each concrete subject type, through autoref
//! specialization: method lookup on `&&Probe<T>` finds the impl for
//! `&Probe<T>` when `T` has the trait, and falls back to the one for
//! `Probe<T>` when it does not. The answers are plain function pointers in a
//! [`StdTraitTable`], which the random engine's contracts use.
//!
//! ```
//! use smallscope::api::StdTraits;
//! use smallscope::Heap;
//!
//! #[derive(Heap, Clone, Debug, PartialEq, Eq, Hash)]
//! pub struct Bag { items: Vec<u8> }
//!
//! #[smallscope::api(name = "doc-bag")]
//! impl Bag {
//!     pub fn new() -> Self { Bag { items: Vec::new() } }
//! }
//!
//! let table = Bag::std_traits();
//! assert!(table.clone.is_some() && table.hash.is_some() && table.is_eq);
//! assert!(table.ord.is_none()); // `Bag` is not `Ord`
//! ```

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// The standard traits of `T`, as function pointers (`None`: not implemented).
pub struct StdTraitTable<T> {
    pub clone: Option<fn(&T) -> T>,
    pub partial_eq: Option<fn(&T, &T) -> bool>,
    /// Whether `T: Eq`, so that `==` must be reflexive.
    pub is_eq: bool,
    /// `Hash` through a hasher with fixed keys: equal inputs give equal
    /// numbers in every run.
    pub hash: Option<fn(&T) -> u64>,
    pub partial_ord: Option<fn(&T, &T) -> Option<Ordering>>,
    pub ord: Option<fn(&T, &T) -> Ordering>,
    /// `Debug`, writing into any `fmt::Write`.
    pub debug: Option<fn(&T, &mut dyn std::fmt::Write) -> std::fmt::Result>,
}

impl<T> Clone for StdTraitTable<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for StdTraitTable<T> {}

impl<T> StdTraitTable<T> {
    /// A table for a type that implements none of them.
    pub const NONE: Self = StdTraitTable {
        clone: None,
        partial_eq: None,
        is_eq: false,
        hash: None,
        partial_ord: None,
        ord: None,
        debug: None,
    };
}

/// A subject type's [`StdTraitTable`]; `#[smallscope::api]` implements it
/// for every concrete type it registers.
pub trait StdTraits: Sized {
    fn std_traits() -> StdTraitTable<Self>;
}

/// Support for derived code; not a public API.
#[doc(hidden)]
pub mod probe {
    use super::*;
    use std::marker::PhantomData;

    pub struct Probe<T>(PhantomData<fn() -> T>);

    impl<T> Probe<T> {
        pub const fn new() -> Self {
            Probe(PhantomData)
        }
    }

    impl<T> Default for Probe<T> {
        fn default() -> Self {
            Self::new()
        }
    }

    /// One capability: `$via` answers for `&Probe<T>` when `T: $bound`,
    /// `$none` for `Probe<T>` otherwise.
    macro_rules! capability {
        ($via:ident, $none:ident, $method:ident, $ty:ty, [$($bound:tt)+], $some:expr, $absent:expr) => {
            pub trait $via<T> {
                fn $method(&self) -> $ty;
            }
            impl<T: $($bound)+> $via<T> for &Probe<T> {
                fn $method(&self) -> $ty {
                    $some
                }
            }
            pub trait $none<T> {
                fn $method(&self) -> $ty;
            }
            impl<T> $none<T> for Probe<T> {
                fn $method(&self) -> $ty {
                    $absent
                }
            }
        };
    }

    capability!(ViaClone, NoClone, clone_fn, Option<fn(&T) -> T>, [Clone], Some(|t| t.clone()), None);
    capability!(
        ViaPartialEq,
        NoPartialEq,
        partial_eq_fn,
        Option<fn(&T, &T) -> bool>,
        [PartialEq],
        Some(|a, b| a == b),
        None
    );
    capability!(ViaEq, NoEq, is_eq, bool, [Eq], true, false);
    capability!(ViaHash, NoHash, hash_fn, Option<fn(&T) -> u64>, [Hash], Some(fixed_hash::<T>), None);
    capability!(
        ViaPartialOrd,
        NoPartialOrd,
        partial_ord_fn,
        Option<fn(&T, &T) -> Option<Ordering>>,
        [PartialOrd],
        Some(|a, b| a.partial_cmp(b)),
        None
    );
    capability!(ViaOrd, NoOrd, ord_fn, Option<fn(&T, &T) -> Ordering>, [Ord], Some(|a, b| a.cmp(b)), None);
    capability!(
        ViaDebug,
        NoDebug,
        debug_fn,
        Option<fn(&T, &mut dyn std::fmt::Write) -> std::fmt::Result>,
        [std::fmt::Debug],
        Some(|t, out| write!(out, "{t:?}")),
        None
    );

    fn fixed_hash<T: Hash>(value: &T) -> u64 {
        // `DefaultHasher::new()` has fixed keys, unlike `RandomState`.
        let mut hasher = std::hash::DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    }

    /// An integer return value, kept so later calls can reuse it as an argument.
    pub trait ViaInt {
        fn smallscope_int(&self) -> Option<i64>;
    }
    impl<T: crate::api::AsInt> ViaInt for &IntProbe<'_, T> {
        fn smallscope_int(&self) -> Option<i64> {
            self.0.as_int()
        }
    }
    pub trait NoInt {
        fn smallscope_int(&self) -> Option<i64>;
    }
    impl<T: ?Sized> NoInt for IntProbe<'_, T> {
        fn smallscope_int(&self) -> Option<i64> {
            None
        }
    }
    pub struct IntProbe<'a, T: ?Sized>(pub &'a T);

    /// A return value's `Debug` rendering, or `None` for a type without
    /// `Debug` (an `impl Iterator`, a struct that does not derive it): such a
    /// value is not observed.
    pub trait ViaDebugValue {
        fn smallscope_render(&self) -> Option<String>;
    }
    impl<T: std::fmt::Debug + ?Sized> ViaDebugValue for &DebugProbe<'_, T> {
        fn smallscope_render(&self) -> Option<String> {
            Some(crate::api::debug_text(self.0))
        }
    }
    pub trait NoDebugValue {
        fn smallscope_render(&self) -> Option<String>;
    }
    impl<T: ?Sized> NoDebugValue for DebugProbe<'_, T> {
        fn smallscope_render(&self) -> Option<String> {
            None
        }
    }
    pub struct DebugProbe<'a, T: ?Sized>(pub &'a T);
}
