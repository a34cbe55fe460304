//! Walking a value's object graph: the [`Heap`] trait a walkable type
//! implements, the [`Visitor`] its walk reports to, and the descriptions
//! they name ([`Class`], [`Schema`], [`Arena`]). They name each other, so
//! they are one module; everything else in `heap` builds on them.

use crate::ConfigError;

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

    /// [`Heap::walk`] with static calls, which the linearizer makes:
    /// derived code writes it; a hand-written impl leaves the default, which walks.
    #[doc(hidden)]
    #[inline]
    fn walk_static<V: StaticVisitor>(&self, visitor: &mut V)
    where
        Self: Sized,
    {
        self.walk(visitor);
    }

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

/// Receives the events of [`Heap::walk`] and [`HeapValue::visit`](super::HeapValue::visit).
///
/// Derived code, the [`HeapValue`](super::HeapValue) impls and hand-written
/// [`Heap`] impls (see [`crate::heap`]) call these methods; implementors are
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

/// A [`Visitor`] of a known type, which walks objects with static calls
/// ([`Heap::walk_static`]): the linearizer's, whose walk through `dyn
/// Visitor` calls costs about three times as many instructions.
#[doc(hidden)]
pub trait StaticVisitor: Visitor + Sized {
    /// [`Visitor::object`] for a pointer to `value` at `addr` (`None` for a `Box`).
    fn object_static<T: Heap>(&mut self, addr: Option<ObjectId>, value: &T);
    /// [`Visitor::inline`] for `value`, stored in place.
    fn inline_static<T: Heap>(&mut self, value: &T);
}

/// A `Vec` of objects addressed by index: the target of `#[heap(index = "..")]` links.
pub trait Arena {
    fn class(&self) -> &'static Class;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `index`, or `None` past the end (a dangling link).
    fn get(&self, index: usize) -> Option<&dyn Heap>;
}

/// Every class reachable from a root type, in discovery order.
#[derive(Debug, Default, Clone)]
pub struct Schema {
    classes: Vec<&'static Class>,
}

impl Schema {
    /// The schema of `T` and everything its fields can reach.
    pub fn of<T: Heap>() -> Self {
        let mut schema = Schema::default();
        schema.add::<T>();
        schema
    }

    /// Adds `T` and, the first time, the classes its fields reach.
    pub fn add<T: Heap>(&mut self) {
        let class = T::class();
        if !self.classes.iter().any(|c| std::ptr::eq(*c, class)) {
            self.classes.push(class);
            T::collect_classes(self);
        }
    }

    pub fn classes(&self) -> &[&'static Class] {
        &self.classes
    }

    /// The class called `name`.
    pub fn class(&self, name: &str) -> Option<&'static Class> {
        self.classes.iter().copied().find(|c| c.name == name)
    }

    /// Whether some class hides fields from the canonical form.
    pub fn hides_fields(&self) -> bool {
        self.classes.iter().any(|c| c.hides_fields)
    }

    /// Whether some class has `#[heap(skip)]` fields, which no walk sees.
    pub fn skips_fields(&self) -> bool {
        self.classes.iter().any(|c| !c.skipped.is_empty())
    }

    /// Whether some class walks a field it leaves out of the canonical form (`#[heap(omit)]`).
    pub fn omits_fields(&self) -> bool {
        self.classes.iter().any(|c| c.fields.iter().any(|f| f.omit))
    }

    /// Every `Class.field` name, for error messages.
    pub fn field_names(&self) -> Vec<String> {
        self.classes.iter().flat_map(|c| c.fields.iter().map(move |f| format!("{}.{}", c.name, f.name))).collect()
    }

    /// Resolves `Class.field` names to `(class, field index)` pairs, as
    /// [`Linearizer::omit`](super::Linearizer::omit) takes them.
    pub fn resolve_fields<S: AsRef<str>>(&self, names: &[S]) -> Result<Vec<(&'static Class, usize)>, ConfigError> {
        names
            .iter()
            .map(|name| {
                let name = name.as_ref();
                let unknown =
                    || ConfigError::UnknownField { name: name.to_owned(), known: self.field_names().join(", ") };
                let (class, field) = name.split_once('.').ok_or_else(unknown)?;
                let class = self.class(class).ok_or_else(unknown)?;
                let index = class.field_index(field).ok_or_else(unknown)?;
                Ok((class, index))
            })
            .collect()
    }
}
