//! Heap shapes: how a value describes its own object graph.
//!
//! Rust has no reflection, so `#[derive(Heap)]` writes, for each type, a
//! [`Heap::walk`] that reports every field to a [`Visitor`]. Object identity
//! comes from pointers:
//!
//! - `Box<T>` is an object nobody else can point to (a tree edge);
//! - `Rc<T>`, `Rc<RefCell<T>>` and `Weak<..>` are objects that may be shared and
//!   may form cycles; the pointer's address is the identity;
//! - a `usize` or `Option<usize>` field marked `#[heap(index = "nodes")]` is a
//!   link to element `i` of the root's `#[heap(arena)] nodes: Vec<Node>`.
//!
//! A derived type stored by value inside another (a `Color` enum, a small
//! inline struct) is part of its owner, not an object of its own.
//! Primitives, `Option`, tuples, `Vec`, arrays, `VecDeque`, `BTreeMap`,
//! `BTreeSet`, `HashMap` and `HashSet` are walked as values; maps and sets in
//! key order (see [`HeapValue`]).
//!
//! ```
//! use smallscope::Heap;
//!
//! #[derive(Heap)]
//! struct Node { key: i32, next: Option<Box<Node>> }
//!
//! #[derive(Heap)]
//! struct List { head: Option<Box<Node>>, #[heap(omit)] len: usize }
//!
//! let list = List { head: Some(Box::new(Node { key: 7, next: None })), len: 1 };
//! assert_eq!(smallscope::heap::canonical_text(&list), "List#0{head: Node#1{key: 7, next: null}}");
//! ```
//!
//! # Null variants
//!
//! An enum tree often ends in a unit variant rather than `None`. Mark it
//! `#[heap(null)]` and it is the heap's null wherever it is reached: behind a
//! `Box`, `Rc` or `Rc<RefCell<..>>`, or stored inline. It is then not an
//! object, so the scope does not count it. Without the attribute every
//! variant, unit ones included, is an object when boxed: a tree of `n`
//! nodes would have `n + 1` more objects, its leaves. Only the root, and an
//! arena element reached by an index link, is walked as an object even when
//! it is the null variant. At most one variant, with no fields, can be null.
//!
//! ```
//! use smallscope::Heap;
//!
//! #[derive(Heap)]
//! enum Tree { #[heap(null)] Leaf, Node(Box<Tree>, u8, Box<Tree>) }
//!
//! #[derive(Heap)]
//! struct Set { root: Tree }
//!
//! let leaf = || Box::new(Tree::Leaf);
//! let set = Set { root: Tree::Node(leaf(), 3, Box::new(Tree::Node(leaf(), 5, leaf()))) };
//! assert_eq!(
//!     smallscope::heap::canonical_text(&set),
//!     "Set#0{root: Node{0: null, 1: 3, 2: Tree#1{Node{0: null, 1: 5, 2: null}}}}"
//! );
//! ```
//!
//! # Types derive cannot walk
//!
//! A field of a type from another crate (which can implement neither trait
//! here) is walked by a module of your own, like serde's `with`:
//! `#[heap(with = module)]` (or `with = "module"`) makes the derived code call
//!
//! - `module::visit(&field, visitor: &mut dyn Visitor)` to report the field,
//!   as [`HeapValue::visit`] would: typically through the `HeapValue`s of
//!   its parts, in an order that depends only on its state;
//! - `module::collect_classes(schema: &mut Schema)` to add the classes the
//!   field can reach (nothing for primitives). It takes no value, so it is
//!   written for the field's concrete type, not generically.
//!
//! A type of your own whose fields are not its state (spare capacity, a
//! cache) can implement [`Heap`] by hand; implement [`HeapValue`] too if it
//! is stored by value in another type:
//!
//! ```
//! use smallscope::heap::{canonical_text, Class, Field, Heap, HeapValue, Schema, Visitor};
//!
//! /// Only the first `len` slots hold keys; the others keep stale ones.
//! struct SmallSet { len: usize, slots: [u8; 4] }
//!
//! impl Heap for SmallSet {
//!     fn class() -> &'static Class {
//!         static CLASS: Class = Class {
//!             name: "SmallSet",
//!             fields: &[Field { name: "keys", omit: false }],
//!             variants: &[],
//!             hides_fields: false,
//!             skipped: &[],
//!             null_variant: None,
//!         };
//!         &CLASS
//!     }
//!     fn walk(&self, visitor: &mut dyn Visitor) {
//!         if visitor.field(Self::class(), 0) {
//!             self.slots[..self.len].visit(visitor);
//!         }
//!     }
//!     fn collect_classes(_schema: &mut Schema) {}
//! }
//!
//! let stale = SmallSet { len: 1, slots: [4, 9, 9, 9] };
//! let fresh = SmallSet { len: 1, slots: [4, 0, 0, 0] };
//! assert_eq!(canonical_text(&stale), "SmallSet#0{keys: [4]}");
//! assert_eq!(canonical_text(&stale), canonical_text(&fresh));
//! ```
//!
//! # Generic types
//!
//! `#[derive(Heap)]` on a generic type adds `P: HeapValue` for each type
//! parameter `P` a walked field names (not one that is `skip`ped, an index
//! link, a `with` field, or only inside `PhantomData`). Every instance of a
//! generic type shares one [`Class`] (`Stack<u8>` and `Stack<char>` are
//! both `Stack`), so the scope counts their objects together.
//!
//! [`Linearizer`] turns a rooted heap into its canonical form (the BEAPI
//! paper's Fig. 3), or into an [`ObjectGraph`] whose [`FieldExtensions`]
//! field coverage criteria and builders fitness count; [`Schema`] lists
//! the classes a type can reach, so that configuration naming a field can
//! be checked before a run.
//!
//! # Hidden state
//!
//! A field can be left out of the canonical form in two ways, and only one
//! of them is sound for search:
//!
//! - `#[heap(omit)]` (or a run's `omit` setting): the field is still walked.
//!   Structures are counted and reported by the canonical form without it,
//!   but state matching (BEAPI) and index pruning (random) key on the state
//!   *with* it ([`Linearizer::every_field`]). Two values with one canonical
//!   form whose omitted fields differ are both extended: one may be clean
//!   and the other dirty (a freed slot still on a free list), and the next
//!   call may only break the dirty one. The second is reported as a
//!   variant of the first (`variant` in its structure event), not counted.
//! - `#[heap(skip)]`: the field is not walked at all, so nothing can key on
//!   it. Two values that differ only there are one state: if the API's
//!   behaviour depends on the field, a bug can be missed. Use it only for
//!   what the walk cannot see, or for a value computed from the rest.

mod contents;
mod extension;
mod linearize;
mod value;
mod visit;
mod walk;

pub use contents::{shallow_clone_note, shared_objects, shares_objects, CloneAudit};
pub use extension::{FieldExtensions, GraphObject, GraphValue, GroupKind, ObjectGraph, PairNumbers, VARIANT_FIELD};
pub use linearize::{
    canonical_fingerprint, canonical_text, canonical_text_omitting, Canonical, CanonicalText, CollectionField,
    Linearizer, OutOfScope, Token,
};
pub use value::{HeapValue, IndexLink};
pub use visit::{Arena, Class, Field, Heap, ObjRef, ObjectId, Prim, Schema, StaticVisitor, Visitor};
