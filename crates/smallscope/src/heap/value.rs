//! [`HeapValue`]: how each kind of field reports itself to a [`Visitor`].

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use super::{Class, Heap, ObjRef, ObjectId, Prim, Schema, Visitor};

/// A field type that [`Heap::walk`] can report: primitives, pointers to
/// derived types, options and vectors of these. `#[derive(Heap)]` implements
/// it for the derived type itself (visited in place, as part of its owner).
pub trait HeapValue {
    /// Whether some value of this type is reported as null.
    const NULLABLE: bool = false;

    fn visit(&self, visitor: &mut dyn Visitor);
    /// Adds the classes this value can reach to `schema`.
    fn collect_classes(_schema: &mut Schema)
    where
        Self: Sized,
    {
    }
}

macro_rules! signed {
    ($($t:ty)*) => {$(
        impl HeapValue for $t {
            fn visit(&self, visitor: &mut dyn Visitor) {
                visitor.prim(Prim::Int(*self as i64));
            }
        }
    )*};
}
signed!(i8 i16 i32 i64 isize u8 u16 u32);

macro_rules! unsigned {
    ($($t:ty)*) => {$(
        impl HeapValue for $t {
            fn visit(&self, visitor: &mut dyn Visitor) {
                let wide = *self as u64;
                visitor.prim(match i64::try_from(wide) {
                    Ok(v) => Prim::Int(v),
                    Err(_) => Prim::Uint(wide),
                });
            }
        }
    )*};
}
unsigned!(u64 usize);

impl HeapValue for bool {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.prim(Prim::Bool(*self));
    }
}

impl HeapValue for char {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.prim(Prim::Char(*self));
    }
}

impl HeapValue for String {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.prim(Prim::Str(self));
    }
}

impl HeapValue for &'static str {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.prim(Prim::Str(self));
    }
}

impl HeapValue for f64 {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.prim(Prim::Float(self.to_bits()));
    }
}

impl HeapValue for f32 {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.prim(Prim::Float(f64::from(*self).to_bits()));
    }
}

impl HeapValue for () {
    fn visit(&self, _visitor: &mut dyn Visitor) {}
}

impl<T: ?Sized> HeapValue for std::marker::PhantomData<T> {
    fn visit(&self, _visitor: &mut dyn Visitor) {}
}

impl<T: HeapValue> HeapValue for Option<T> {
    const NULLABLE: bool = true;

    fn visit(&self, visitor: &mut dyn Visitor) {
        match self {
            None => visitor.null(),
            Some(value) => {
                if T::NULLABLE {
                    // Tells `Some(None)` from `None`.
                    visitor.some();
                }
                value.visit(visitor)
            }
        }
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

impl<T: HeapValue> HeapValue for Vec<T> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.seq_begin(self.len());
        for value in self {
            value.visit(visitor);
        }
        visitor.seq_end();
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

impl<T: HeapValue, const N: usize> HeapValue for [T; N] {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.seq_begin(N);
        for value in self {
            value.visit(visitor);
        }
        visitor.seq_end();
    }
    fn collect_classes(schema: &mut Schema) {
        T::collect_classes(schema);
    }
}

impl<T: Heap> HeapValue for Box<T> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        // A Box is never shared, so it needs no identity lookup.
        visitor.object(ObjRef { addr: None, class: T::class(), value: &**self });
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<T>();
    }
}

impl<T: Heap> HeapValue for Rc<T> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.object(ObjRef { addr: Some(ObjectId::of(Rc::as_ptr(self))), class: T::class(), value: &**self });
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<T>();
    }
}

impl<T: Heap> HeapValue for Rc<RefCell<T>> {
    fn visit(&self, visitor: &mut dyn Visitor) {
        // The identity is the value's own address, as for a root given by reference.
        let addr = ObjectId::of(self.as_ptr());
        let value = self.borrow();
        visitor.object(ObjRef { addr: Some(addr), class: T::class(), value: &*value });
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<T>();
    }
}

/// A dead `Weak` is the heap's null: `Some(dead)` and `None` in an
/// `Option<Weak<_>>` are the same state, so no `some` marker tells them apart.
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
    fn collect_classes(schema: &mut Schema) {
        <Rc<T>>::collect_classes(schema);
    }
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
