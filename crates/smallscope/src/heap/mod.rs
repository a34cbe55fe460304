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
mod schema;
mod value;
mod walk;

pub use contents::{shallow_clone_note, shared_objects, shares_objects, CloneAudit};
pub use extension::{FieldExtensions, GraphObject, GraphValue, GroupKind, ObjectGraph, PairNumbers, VARIANT_FIELD};
pub use linearize::{
    canonical_fingerprint, canonical_text, canonical_text_omitting, Canonical, CanonicalText, CollectionField,
    Linearizer, OutOfScope, Token,
};
pub use schema::Schema;
pub use value::{Arena, HeapValue, IndexLink};

/// Static description of one class: a derived struct or enum.
#[derive(Debug)]
pub struct Class {
    /// The type's name, as written in the source.
    pub name: &'static str,
    /// Fields in declaration order; for enums, `Variant.field` for every variant.
    pub fields: &'static [Field],
    /// For enums, the variant names in declaration order; empty for structs.
    pub variants: &'static [&'static str],
    /// Whether some field is `#[heap(skip)]` or `#[heap(omit)]`: then two
    /// values with one canonical form may still differ.
    pub hides_fields: bool,
    /// The `#[heap(skip)]` fields, which no walk sees, for notes.
    pub skipped: &'static [&'static str],
    /// For an enum, the index of its `#[heap(null)]` variant: the values
    /// whose [`Heap::is_null`] is true.
    pub null_variant: Option<u32>,
}

/// Static description of one field of a [`Class`].
#[derive(Debug)]
pub struct Field {
    /// The field's name (`0`, `1`, … for tuple fields).
    pub name: &'static str,
    /// `#[heap(omit)]`: walked, but left out of the canonical form.
    pub omit: bool,
}

impl Class {
    /// Index of the field called `name`, if there is one.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// A value whose object graph smallscope can walk. Derive it with `#[derive(Heap)]`.
pub trait Heap {
    /// This type's class description.
    fn class() -> &'static Class
    where
        Self: Sized;

    /// Whether this value is the heap's null (an enum's `#[heap(null)]`
    /// variant). A pointer to it, or a field holding it inline, is reported
    /// as null instead of an object; only the root is walked regardless.
    /// A hand-written impl that overrides it also sets
    /// [`Class::null_variant`], which tells `Option` to mark `Some`.
    fn is_null(&self) -> bool {
        false
    }

    /// Reports every field, in declaration order, to `visitor`.
    ///
    /// Each field is announced with [`Visitor::field`]; its value is walked only
    /// when that returns `true`.
    fn walk(&self, visitor: &mut dyn Visitor);

    /// Adds this class and every class reachable from its fields to `schema`.
    fn collect_classes(schema: &mut Schema)
    where
        Self: Sized;
}

/// A primitive field value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Prim<'a> {
    /// Any signed integer, widened.
    Int(i64),
    /// An unsigned integer too large for `i64`.
    Uint(u64),
    Bool(bool),
    Char(char),
    Str(&'a str),
    /// A float, by its bits, so that equality is exact.
    Float(u64),
}

/// The identity of an object that may be pointed to more than once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectId {
    /// The value's address, or for an arena element the arena's address.
    pub base: usize,
    /// The element's index in its arena; `usize::MAX` for other objects.
    /// (Elements of a zero-sized type share an address, so the index is needed.)
    pub index: usize,
}

impl ObjectId {
    /// The identity of the value at `value`.
    pub fn of<T: ?Sized>(value: *const T) -> Self {
        ObjectId { base: value.cast::<()>() as usize, index: usize::MAX }
    }

    /// The identity of element `index` of the arena at `arena`.
    pub fn in_arena<A: ?Sized>(arena: *const A, index: usize) -> Self {
        ObjectId { base: arena.cast::<()>() as usize, index }
    }
}

/// A reference to an object met during a walk.
#[derive(Clone, Copy)]
pub struct ObjRef<'a> {
    /// The object's identity: `None` for a `Box`, which nobody else can point to.
    pub addr: Option<ObjectId>,
    pub class: &'static Class,
    pub value: &'a dyn Heap,
}

/// Receives the events of [`Heap::walk`] and [`HeapValue::visit`].
///
/// Derived code, the [`HeapValue`] impls in this module and hand-written
/// [`Heap`] impls (see the module docs) call these methods; implementors are
/// the linearizer, renderers and coverage collectors.
pub trait Visitor {
    /// Announces field `index` of `class`; the value follows only if this returns `true`.
    fn field(&mut self, class: &'static Class, index: usize) -> bool;
    /// A missing reference: `None`, a dead `Weak`, a `null` link.
    fn null(&mut self);
    /// A present value of an `Option` whose contents can themselves be null
    /// (`Some(None)`); the value follows.
    fn some(&mut self);
    fn prim(&mut self, value: Prim<'_>);
    /// The variant of a derived enum; its fields follow.
    fn variant(&mut self, index: u32);
    /// A sequence (`Vec`, array, set, map) of `len` values follows, closed by [`Visitor::seq_end`].
    fn seq_begin(&mut self, len: usize);
    fn seq_end(&mut self);
    /// An array of `len` values follows, closed by [`Visitor::seq_end`]:
    /// a sequence whose length is fixed by its type, so no collection
    /// bound applies to it.
    fn array_begin(&mut self, len: usize) {
        self.seq_begin(len);
    }
    /// A tuple (or a map entry) of `arity` values follows, closed by
    /// [`Visitor::tuple_end`]. Its length is fixed by its type, so it is not
    /// bounded by the scope as an omitted sequence is. By default a sequence.
    fn tuple_begin(&mut self, arity: usize) {
        self.seq_begin(arity);
    }
    fn tuple_end(&mut self) {
        self.seq_end();
    }
    /// A map entry follows, its key then its value, closed by
    /// [`Visitor::entry_end`]. By default a tuple of two: only pictures
    /// tell an entry from a pair, to label a reference by its key.
    fn entry_begin(&mut self) {
        self.tuple_begin(2);
    }
    fn entry_end(&mut self) {
        self.tuple_end();
    }
    /// A derived type stored by value: part of its owner, walked in place.
    fn inline(&mut self, class: &'static Class, value: &dyn Heap);
    /// A pointer to an object.
    fn object(&mut self, obj: ObjRef<'_>);
    /// Makes `arena` resolvable by [`Visitor::arena_link`] under `name` while `body` runs.
    fn arena(&mut self, name: &'static str, arena: &dyn Arena, body: &mut dyn FnMut(&mut dyn Visitor));
    /// A link to element `index` of the arena registered as `name`.
    fn arena_link(&mut self, name: &'static str, index: Option<usize>);
}
