//! [`HeapValue`]: how each kind of field reports itself to a [`Visitor`].

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::{Rc, Weak};

use super::{Arena, Class, Heap, ObjRef, ObjectId, Prim, Schema, StaticVisitor, Visitor};

/// A field type that [`Heap::walk`] can report: primitives, pointers to
/// derived types, options, tuples, sequences, maps and sets of these.
/// `#[derive(Heap)]` implements it for the derived type itself (visited in
/// place, as part of its owner).
///
/// Collections report their elements in a canonical order, so that two
/// equal collections have one canonical form whatever their history:
///
/// - `Vec`, arrays, slices and `VecDeque`: a sequence, front to back;
/// - `BTreeSet<K>`, `HashSet<K, S>`: a sequence of the keys in `K`'s `Ord`
///   order (the hash containers need `K: Ord`, consistent with their `Eq`;
///   their iteration order, which varies from run to run, is never seen);
/// - `BTreeMap<K, V>`, `HashMap<K, V, S>`: a sequence of `(key, value)`
///   tuples in key order, so maps with different contents differ in some
///   key, some value or the length;
/// - tuples `(A,)` to `(A, B, C, D, E, F)`: their elements in order, as a
///   fixed-length group ([`Visitor::tuple_begin`]).
pub trait HeapValue {
    /// Whether some value of this type is reported as null: an `Option`, or
    /// a pointer to (or an inline value of) an enum with a `#[heap(null)]`
    /// variant. An `Option` of such a type marks `Some` so that `Some(null)`
    /// and `None` stay apart.
    fn nullable() -> bool
    where
        Self: Sized,
    {
        false
    }

    /// Reports this value to `visitor`.
    fn visit(&self, visitor: &mut dyn Visitor);

    /// [`HeapValue::visit`] with static calls (see [`StaticVisitor`]): the
    /// common field types and derived code write it; the default visits.
    #[doc(hidden)]
    #[inline]
    fn visit_static<V: StaticVisitor>(&self, visitor: &mut V)
    where
        Self: Sized,
    {
        self.visit(visitor);
    }
    /// Adds the classes this value can reach to `schema`.
    fn collect_classes(_schema: &mut Schema)
    where
        Self: Sized,
    {
    }
}

/// A primitive field type, and the [`Prim`] it reports, to either walk.
macro_rules! primitive {
    ($($t:ty => |$value:ident| $prim:expr;)*) => {$(
        impl HeapValue for $t {
            fn visit(&self, visitor: &mut dyn Visitor) {
                let $value = self;
                visitor.prim($prim);
            }
            #[inline]
            fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
                let $value = self;
                walk.prim($prim);
            }
        }
    )*};
}

primitive! {
    i8 => |v| Prim::Int(i64::from(*v));
    i16 => |v| Prim::Int(i64::from(*v));
    i32 => |v| Prim::Int(i64::from(*v));
    i64 => |v| Prim::Int(*v);
    isize => |v| Prim::Int(*v as i64);
    u8 => |v| Prim::Int(i64::from(*v));
    u16 => |v| Prim::Int(i64::from(*v));
    u32 => |v| Prim::Int(i64::from(*v));
    u64 => |v| unsigned(*v);
    usize => |v| unsigned(*v as u64);
    bool => |v| Prim::Bool(*v);
    char => |v| Prim::Char(*v);
    String => |v| Prim::Str(v);
    &'static str => |v| Prim::Str(v);
    f64 => |v| Prim::Float(v.to_bits());
    f32 => |v| Prim::Float(f64::from(*v).to_bits());
}

/// An unsigned integer: as `Int` when it fits, so that `5u64` and `5i32` read alike.
#[inline]
fn unsigned(wide: u64) -> Prim<'static> {
    match i64::try_from(wide) {
        Ok(v) => Prim::Int(v),
        Err(_) => Prim::Uint(wide),
    }
}

impl HeapValue for () {
    fn visit(&self, _visitor: &mut dyn Visitor) {}
}

impl<T: ?Sized> HeapValue for std::marker::PhantomData<T> {
    fn visit(&self, _visitor: &mut dyn Visitor) {}
}

impl<T: HeapValue> HeapValue for Option<T> {
    fn nullable() -> bool {
        true
    }

    fn visit(&self, visitor: &mut dyn Visitor) {
        match self {
            None => visitor.null(),
            Some(value) => {
                if T::nullable() {
                    // Tells `Some(None)` from `None`.
                    visitor.some();
                }
                value.visit(visitor)
            }
        }
    }
    #[inline]
    fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
        match self {
            None => walk.null(),
            Some(value) => {
                if T::nullable() {
                    walk.some();
                }
                value.visit_static(walk)
            }
        }
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

/// The elements of `values`, in order, as a sequence.
fn visit_sequence<'a, T: HeapValue + 'a>(
    len: usize,
    values: impl IntoIterator<Item = &'a T>,
    visitor: &mut dyn Visitor,
) {
    visitor.seq_begin(len);
    for value in values {
        value.visit(visitor);
    }
    visitor.seq_end();
}

/// Map entries, already in key order, as a sequence of `(key, value)` tuples.
fn visit_entries<'a, K: HeapValue + 'a, V: HeapValue + 'a>(
    len: usize,
    entries: impl IntoIterator<Item = (&'a K, &'a V)>,
    visitor: &mut dyn Visitor,
) {
    visitor.seq_begin(len);
    for (key, value) in entries {
        visitor.entry_begin();
        key.visit(visitor);
        value.visit(visitor);
        visitor.entry_end();
    }
    visitor.seq_end();
}

impl<T: HeapValue> HeapValue for [T] {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visit_sequence(self.len(), self, visitor);
    }
}

impl<T: HeapValue> HeapValue for Vec<T> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visit_sequence(self.len(), self, visitor);
    }
    fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
        walk.seq_begin(self.len());
        for value in self {
            value.visit_static(walk);
        }
        walk.seq_end();
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

impl<T: HeapValue, const N: usize> HeapValue for [T; N] {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.array_begin(N);
        for value in self {
            value.visit(visitor);
        }
        visitor.seq_end();
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

impl<T: HeapValue> HeapValue for VecDeque<T> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visit_sequence(self.len(), self, visitor);
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

impl<K: HeapValue> HeapValue for BTreeSet<K> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visit_sequence(self.len(), self, visitor);
    }
    fn collect_classes(schema: &mut Schema) {
        K::collect_classes(schema);
    }
}

/// Needs `K: Ord` to report the keys in an order that does not depend on hashing.
impl<K: HeapValue + Ord, S> HeapValue for HashSet<K, S> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        let mut keys: Vec<&K> = self.iter().collect();
        keys.sort_unstable();
        visit_sequence(keys.len(), keys, visitor);
    }
    fn collect_classes(schema: &mut Schema) {
        K::collect_classes(schema);
    }
}

impl<K: HeapValue, V: HeapValue> HeapValue for BTreeMap<K, V> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visit_entries(self.len(), self, visitor);
    }
    fn collect_classes(schema: &mut Schema) {
        K::collect_classes(schema);
        V::collect_classes(schema);
    }
}

/// Needs `K: Ord` to report the entries in an order that does not depend on hashing.
impl<K: HeapValue + Ord, V: HeapValue, S> HeapValue for HashMap<K, V, S> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        let mut entries: Vec<(&K, &V)> = self.iter().collect();
        // Keys are distinct, so the order is total.
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        visit_entries(entries.len(), entries, visitor);
    }
    fn collect_classes(schema: &mut Schema) {
        K::collect_classes(schema);
        V::collect_classes(schema);
    }
}

macro_rules! tuple {
    ($arity:literal: $($element:ident)+) => {
        impl<$($element: HeapValue),+> HeapValue for ($($element,)+) {
            fn visit(&self, visitor: &mut dyn Visitor) {
                #[allow(non_snake_case)]
                let ($($element,)+) = self;
                visitor.tuple_begin($arity);
                $($element.visit(visitor);)+
                visitor.tuple_end();
            }
            fn collect_classes(schema: &mut Schema) {
                $($element::collect_classes(schema);)+
            }
        }
    };
}
tuple!(1: A);
tuple!(2: A B);
tuple!(3: A B C);
tuple!(4: A B C D);
tuple!(5: A B C D E);
tuple!(6: A B C D E F);

/// Whether the values of `T` include a `#[heap(null)]` variant.
fn has_null<T: Heap>() -> bool {
    T::class().null_variant.is_some()
}

impl<T: Heap> HeapValue for Box<T> {
    fn nullable() -> bool {
        has_null::<T>()
    }
    fn visit(&self, visitor: &mut dyn Visitor) {
        if (**self).is_null() {
            visitor.null();
            return;
        }
        // A Box is never shared, so it needs no identity lookup.
        visitor.object(ObjRef { addr: None, class: T::class(), value: &**self });
    }
    #[inline]
    fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
        if (**self).is_null() {
            walk.null();
            return;
        }
        walk.object_static(None, &**self);
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<T>();
    }
}

impl<T: Heap> HeapValue for Rc<T> {
    fn nullable() -> bool {
        has_null::<T>()
    }
    fn visit(&self, visitor: &mut dyn Visitor) {
        if (**self).is_null() {
            visitor.null();
            return;
        }
        visitor.object(ObjRef { addr: Some(ObjectId::of(Rc::as_ptr(self))), class: T::class(), value: &**self });
    }
    fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
        if (**self).is_null() {
            walk.null();
            return;
        }
        walk.object_static(Some(ObjectId::of(Rc::as_ptr(self))), &**self);
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<T>();
    }
}

impl<T: Heap> HeapValue for Rc<RefCell<T>> {
    fn nullable() -> bool {
        has_null::<T>()
    }
    fn visit(&self, visitor: &mut dyn Visitor) {
        // The identity is the value's own address, as for a root given by reference.
        let addr = ObjectId::of(self.as_ptr());
        let value = self.borrow();
        if value.is_null() {
            visitor.null();
            return;
        }
        visitor.object(ObjRef { addr: Some(addr), class: T::class(), value: &*value });
    }
    fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
        let addr = ObjectId::of(self.as_ptr());
        let value = self.borrow();
        if value.is_null() {
            walk.null();
            return;
        }
        walk.object_static(Some(addr), &*value);
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<T>();
    }
}

/// A dead `Weak` is the heap's null: `Some(dead)` and `None` in an
/// `Option<Weak<_>>` are the same state, so no `some` marker tells them apart
/// (nor a live `Weak` to a `#[heap(null)]` variant).
impl<T> HeapValue for Weak<T>
where
    Rc<T>: HeapValue,
{
    fn visit(&self, visitor: &mut dyn Visitor) {
        match self.upgrade() {
            None => visitor.null(),
            Some(strong) => strong.visit(visitor),
        }
    }
    fn visit_static<V: StaticVisitor>(&self, walk: &mut V) {
        match self.upgrade() {
            None => walk.null(),
            Some(strong) => strong.visit_static(walk),
        }
    }
    fn collect_classes(schema: &mut Schema) {
        <Rc<T>>::collect_classes(schema);
    }
}

impl<T: Heap> Arena for Vec<T> {
    fn class(&self) -> &'static Class {
        T::class()
    }
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    fn get(&self, index: usize) -> Option<&dyn Heap> {
        self.as_slice().get(index).map(|v| v as &dyn Heap)
    }
}

/// Walks a link field marked `#[heap(index = "..")]`; used by derived code.
pub trait IndexLink {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor);
}

impl IndexLink for usize {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor) {
        visitor.arena_link(arena, Some(*self));
    }
}

impl IndexLink for Option<usize> {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor) {
        visitor.arena_link(arena, *self);
    }
}

impl IndexLink for u32 {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor) {
        visitor.arena_link(arena, Some(*self as usize));
    }
}

impl IndexLink for Option<u32> {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor) {
        visitor.arena_link(arena, self.map(|i| i as usize));
    }
}

/// Links in order, as a sequence: a free list whose slots are state (a
/// freed slot's generation, read when the slot is reused).
fn visit_links<'a, L: IndexLink + 'a>(
    len: usize,
    links: impl IntoIterator<Item = &'a L>,
    arena: &'static str,
    visitor: &mut dyn Visitor,
) {
    visitor.seq_begin(len);
    for link in links {
        link.visit_link(arena, visitor);
    }
    visitor.seq_end();
}

impl<L: IndexLink> IndexLink for Vec<L> {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor) {
        visit_links(self.len(), self, arena, visitor);
    }
}

impl<L: IndexLink> IndexLink for VecDeque<L> {
    fn visit_link(&self, arena: &'static str, visitor: &mut dyn Visitor) {
        visit_links(self.len(), self, arena, visitor);
    }
}
