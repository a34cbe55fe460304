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
//! [`Linearizer`] turns a rooted heap into its canonical form (the BEAPI
//! paper's Fig. 3); [`Schema`] lists the classes a type can reach, so that
//! configuration naming a field can be checked before a run.
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
mod linearize;
mod schema;
mod value;

pub use contents::{shallow_clone_note, shares_objects, CloneAudit, Contents};
pub use linearize::{canonical_text, canonical_text_omitting, Canonical, CanonicalText, Linearizer, OutOfScope, Token};
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

/// Receives the events of [`Heap::walk`].
///
/// Only derived code and the pointer impls in this module call these methods;
/// implementors are the linearizer, renderers and coverage collectors.
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
    /// A sequence (`Vec`, array) of `len` values follows, closed by [`Visitor::seq_end`].
    fn seq_begin(&mut self, len: usize);
    fn seq_end(&mut self);
    /// A derived type stored by value: part of its owner, walked in place.
    fn inline(&mut self, class: &'static Class, value: &dyn Heap);
    /// A pointer to an object.
    fn object(&mut self, obj: ObjRef<'_>);
    /// Makes `arena` resolvable by [`Visitor::arena_link`] under `name` while `body` runs.
    fn arena(&mut self, name: &'static str, arena: &dyn Arena, body: &mut dyn FnMut(&mut dyn Visitor));
    /// A link to element `index` of the arena registered as `name`.
    fn arena_link(&mut self, name: &'static str, index: Option<usize>);
}
