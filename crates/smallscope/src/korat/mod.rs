//! Korat: bounded-exhaustive generation from an invariant.
//!
//! The idea (Boyapati, Khurshid and Marinov; Korat+ by Aguirre et al.):
//! describe a structure's classes and the bounds of every field (a
//! finitization), write its invariant `rep_ok` in ordinary Rust, and search
//! the space of candidate vectors, one value per field. Each run of
//! `rep_ok` logs which fields it read; the search backtracks only on those,
//! so one failed run rules out every candidate that agrees on them. A
//! reference field may point only to objects already touched and one more,
//! which breaks isomorphism. Korat+ also prunes candidates whose
//! `eq_class` fields did not change since the last valid one.
//!
//! Cost: one `rep_ok` run per explored candidate; memory is one candidate
//! per thread. The parallel search splits the space into parts that do not
//! depend on the thread count, so every thread count gives the same result,
//! Korat+ included.
//!
//! What a candidate costs, and why: a field read is a bounds check, a check
//! that the field was not read yet in this run (then two stores to the
//! log), and one load of the value already decoded for views (the search
//! decodes the few fields it changes per candidate, not the many that are
//! read). User code runs inside one `catch_unwind` per part of the search,
//! re-entered after a panic. `nonIsoMax` is kept per position of the
//! read stack and recomputed only past the field that changed. What is left
//! is the invariant's own work: `rep_ok` should take its sets and queues
//! from [`ObjectSet`], [`ScratchVec`] and [`BreadthFirst`], which reuse the candidate's
//! memory, rather than allocate. `smallscope bench korat --instructions`
//! counts instructions per candidate with callgrind; its `binary-tree by
//! hand` row is the same search written by hand for that one model (flat
//! arrays, no views, no bounds checks), the floor to compare with.
//!
//! ```
//! use smallscope::korat::{self, Ref, Korat};
//!
//! #[derive(Korat)]
//! pub struct Tree { root: Option<Ref<Node>>, #[korat(ints = n..=n)] size: i64 }
//!
//! #[derive(Korat)]
//! #[korat(objects = n)]
//! pub struct Node { left: Option<Ref<Node>>, right: Option<Ref<Node>> }
//!
//! // Binary trees with exactly `size` nodes, as Korat's BinaryTree. A link
//! // to a node already seen fails the moment it is read.
//! fn rep_ok(tree: TreeView<'_>) -> bool {
//!     let mut seen: Vec<NodeView<'_>> = tree.root().into_iter().collect();
//!     let mut queue = std::collections::VecDeque::from_iter(seen.clone());
//!     while let Some(node) = queue.pop_front() {
//!         for read in [NodeView::left, NodeView::right] {
//!             let Some(child) = read(node) else { continue };
//!             if seen.contains(&child) { return false; }
//!             seen.push(child);
//!             queue.push_back(child);
//!         }
//!     }
//!     seen.len() as i64 == tree.size()
//! }
//!
//! // The same trees, checking for sharing only when a node leaves the queue.
//! fn rep_ok_late(tree: TreeView<'_>) -> bool {
//!     let mut seen = Vec::new();
//!     let mut queue = std::collections::VecDeque::from_iter(tree.root());
//!     while let Some(node) = queue.pop_front() {
//!         if seen.contains(&node) { return false; }
//!         seen.push(node);
//!         queue.extend(node.left());
//!         queue.extend(node.right());
//!     }
//!     seen.len() as i64 == tree.size()
//! }
//!
//! let early = korat::run::<Tree>(5, korat::from_fn::<Tree>(rep_ok)).unwrap();
//! let late = korat::run::<Tree>(5, korat::from_fn::<Tree>(rep_ok_late)).unwrap();
//! assert_eq!((early.found, late.found), (42, 42)); // Catalan(5)
//! // 947 candidates against 104 105.
//! assert!(late.explored > 100 * early.explored, "{} against {}", late.explored, early.explored);
//! ```
//!
//! # Fail at the first bad read
//!
//! That is what makes Korat fast, and it is up to the invariant. A run of
//! `rep_ok` that returns `false` rules out every candidate that agrees on
//! the fields it read, and the search moves on by changing the *last* field
//! read. `rep_ok` above checks a link for sharing as soon as it reads it:
//! the last field read is the bad link, and the next candidate changes it.
//! `rep_ok_late` reads on (the other child, nodes further down the queue)
//! before it pops the shared node and fails; the search then changes one of
//! those later fields, which had nothing to do with the failure, and meets
//! the same failure again for each of their values. The two accept the same
//! trees, but at n = 5 the late check explores 110 times the candidates;
//! the gap grows with the scope and with the fields per node (keys,
//! colours, parents).
//!
//! Every read goes through a view's field methods, which log it; even code
//! in the model's own module cannot reach the candidate behind a view:
//!
//! ```compile_fail
//! use smallscope::korat::{Korat, Ref};
//!
//! #[derive(Korat)]
//! pub struct List { head: Option<Ref<Item>> }
//! #[derive(Korat)]
//! #[korat(objects = n)]
//! pub struct Item { next: Option<Ref<Item>> }
//!
//! fn sneaky(list: ListView<'_>) -> bool {
//!     list.handle.candidate.values().is_empty() // private to smallscope
//! }
//! ```

mod candidate;
mod cluster;
mod job;
mod part_record;
mod registry;
mod resume;
mod scratch;
mod scratch_pool;
mod search;
mod settings;
mod space;

pub use crate::compare::{find_korat_subject, registered_korat_subjects};
pub use candidate::{
    Array, ArrayView, Bounds, Candidate, FieldType, IntoDomain, Model, Ref, View, ViewHandle, NULL_VALUE,
};
pub use cluster::{Arrivals, JoinFrom, Lost};
pub use job::{KoratJob, KoratReport};
pub use part_record::{CandidateFailure, Ending, PartKey, PartRecord};
pub use registry::KoratRegistration;
pub use resume::{PartPosition, Resume};
pub use scratch::{BreadthFirst, ObjectSet, ScratchVec};
pub use search::{search, search_parallel, search_with, Invariants, SearchOptions, SearchStats};
pub use settings::KoratSettings;
pub use smallscope_macros::Korat;
pub use space::{ClassDecl, ClassId, FieldDecl, FieldKind, SlotDomain, Space, SpaceBuilder};

use std::marker::PhantomData;
use std::sync::Arc;

use crate::runner::{Job, RunError, DEFAULT_CALL_TIMEOUT};

/// The space of model `T` at bound `n` (its stock finitization).
pub fn space<T: Model>(n: i64) -> Result<Arc<Space>, String> {
    let mut builder = SpaceBuilder::default();
    T::declare(&mut builder, n);
    builder.build().map(Arc::new)
}

/// Invariants from a function over the root's view.
pub fn from_fn<T: Model>(rep_ok: for<'c> fn(T::View<'c>) -> bool) -> impl Invariants + Send + Sync + 'static {
    struct FromFn<T: Model>(for<'c> fn(T::View<'c>) -> bool);
    impl<T: Model> Invariants for FromFn<T> {
        fn rep_ok(&self, candidate: &Candidate) -> bool {
            (self.0)(T::root(candidate))
        }
    }
    FromFn::<T>(rep_ok)
}

/// Invariants of a model that converts to an API type `T` (a `compare`
/// pairing's): [`Invariants::canonical`] converts a valid candidate and
/// linearizes the value, as BEAPI does its structures, so that the two
/// engines' structures can be matched by their text.
pub fn converting<M: Model, T: crate::Heap + 'static>(
    rep_ok: for<'c> fn(M::View<'c>) -> bool,
    convert: for<'c> fn(M::View<'c>) -> T,
) -> impl Invariants + Send + Sync + 'static {
    struct Converting<M: Model, T>(for<'c> fn(M::View<'c>) -> bool, for<'c> fn(M::View<'c>) -> T);
    impl<M: Model, T: crate::Heap + 'static> Invariants for Converting<M, T> {
        fn rep_ok(&self, candidate: &Candidate) -> bool {
            (self.0)(M::root(candidate))
        }
        fn canonical(&self, candidate: &Candidate) -> Option<String> {
            let code = crate::runner::UserCode::new(crate::events::During::Convert, 0);
            let value = crate::runner::run_captured(code, || (self.1)(M::root(candidate))).ok()?;
            Some(crate::heap::canonical_text(&value))
        }
    }
    Converting::<M, T>(rep_ok, convert)
}

/// Invariants with Korat+'s equivalence classes: `eq_class` is run, with its
/// reads logged, on every valid candidate.
pub fn with_eq_class<T: Model>(
    rep_ok: for<'c> fn(T::View<'c>) -> bool,
    eq_class: for<'c> fn(T::View<'c>) -> u64,
) -> impl Invariants + Send + Sync + 'static {
    struct WithEqClass<T: Model>(for<'c> fn(T::View<'c>) -> bool, for<'c> fn(T::View<'c>) -> u64);
    impl<T: Model> Invariants for WithEqClass<T> {
        fn rep_ok(&self, candidate: &Candidate) -> bool {
            (self.0)(T::root(candidate))
        }
        fn eq_class(&self, candidate: &Candidate) -> Option<u64> {
            Some((self.1)(T::root(candidate)))
        }
    }
    WithEqClass::<T>(rep_ok, eq_class)
}

/// `invariants`, with a check of the code under test run on every valid
/// candidate (after `eq_class`): an `Err` is a `contract` finding named
/// after the check function, and a panic, hang or crash in it is a finding
/// too, with the candidate as witness.
pub fn checked<T: Model, F>(
    invariants: impl Invariants + Send + Sync + 'static,
    check: F,
) -> impl Invariants + Send + Sync + 'static
where
    F: for<'c> Fn(T::View<'c>) -> Result<(), String> + Send + Sync + 'static,
{
    struct Checked<T, I, F>(I, F, PhantomData<fn() -> T>);
    impl<T: Model, I: Invariants, F: for<'c> Fn(T::View<'c>) -> Result<(), String>> Invariants for Checked<T, I, F> {
        fn rep_ok(&self, candidate: &Candidate) -> bool {
            self.0.rep_ok(candidate)
        }
        fn eq_class(&self, candidate: &Candidate) -> Option<u64> {
            self.0.eq_class(candidate)
        }
        fn canonical(&self, candidate: &Candidate) -> Option<String> {
            self.0.canonical(candidate)
        }
        fn check_name(&self) -> Option<&str> {
            // A function's type is named by its path: `my_crate::model::check`.
            let path = std::any::type_name::<F>();
            Some(path.rsplit("::").find(|s| !s.starts_with('{')).unwrap_or(path))
        }
        fn check(&self, candidate: &Candidate) -> Result<(), String> {
            (self.1)(T::root(candidate))
        }
    }
    Checked::<T, _, F>(invariants, check, PhantomData)
}

/// Counts the valid candidates of model `T` at bound `n`, on a thread of
/// its own: a `rep_ok` that panics is a reported failure, one that does not
/// return within 10 s a `hang` failure, and the search goes on past both.
pub fn run<T: Model>(n: i64, invariants: impl Invariants + Send + Sync + 'static) -> Result<KoratReport, RunError> {
    let space = space::<T>(n).map_err(|e| crate::ConfigError::Invalid(format!("finitization at {n}: {e}")))?;
    let settings = KoratSettings::new(n.max(0) as u32);
    let job = KoratJob::new(std::any::type_name::<T>().to_owned(), space, Arc::new(invariants), settings, None);
    crate::runner::run_in_thread(Arc::new(job) as Arc<dyn Job<Fold = KoratReport>>, Some(DEFAULT_CALL_TIMEOUT), &mut ())
}
