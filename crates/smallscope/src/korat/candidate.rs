//! A candidate: one value index per slot, and the log of which slots the
//! invariant read, in the order it first read them.
//!
//! Models never see the vector: `#[derive(Korat)]` generates view types whose
//! field methods call [`FieldType::read`], which goes through
//! [`Candidate::read`]. So every read is logged, with no code from the user.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::Arc;

use super::space::{ClassId, FieldKind, SlotDomain, Space, SpaceBuilder};
use crate::error::MAX_DOMAIN;
use crate::runner::flight::ReadLog;
use crate::ConfigError;

/// A candidate structure of a [`Space`].
pub struct Candidate {
    space: Arc<Space>,
    values: Vec<u32>,
    /// In the thread's flight slot when it has one, so the reads of a
    /// `rep_ok` that kills the process are known.
    log: ReadLog,
    /// `seen[slot] == generation`: the slot was read in this run.
    seen: Box<[Cell<u32>]>,
    generation: Cell<u32>,
}

impl Candidate {
    /// The first candidate: every slot at its first value.
    pub fn new(space: Arc<Space>) -> Self {
        let n = space.slots.len();
        Candidate {
            space,
            values: vec![0; n],
            log: ReadLog::new(n),
            seen: (0..n).map(|_| Cell::new(0)).collect(),
            generation: Cell::new(1),
        }
    }

    pub fn space(&self) -> &Space {
        &self.space
    }

    pub(super) fn space_arc(&self) -> Arc<Space> {
        self.space.clone()
    }

    /// The value indices, one per slot.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    pub(super) fn values_mut(&mut self) -> &mut Vec<u32> {
        &mut self.values
    }

    /// Forgets the reads logged so far.
    pub(super) fn clear_log(&self) {
        self.log.clear();
        let next = self.generation.get().wrapping_add(1);
        if next == 0 {
            self.seen.iter().for_each(|s| s.set(0));
            self.generation.set(1);
        } else {
            self.generation.set(next);
        }
    }

    /// The slots read since the log was cleared, in first-read order, into
    /// `out` (whose buffer the log keeps for the next run).
    pub(super) fn take_log_into(&self, out: &mut Vec<u32>) {
        self.log.copy_into(out);
        self.log.clear();
    }

    /// The slots read since the log was cleared, in first-read order.
    pub(super) fn take_log(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.take_log_into(&mut out);
        out
    }

    /// Whether `slot` was read since the log was cleared.
    pub(super) fn was_read(&self, slot: usize) -> bool {
        self.seen[slot].get() == self.generation.get()
    }

    /// Reads a slot's value index, logging the first read.
    #[inline]
    pub fn read(&self, slot: usize) -> u32 {
        let generation = self.generation.get();
        let seen = &self.seen[slot];
        if seen.get() != generation {
            seen.set(generation);
            self.log.push(slot as u32);
        }
        self.values[slot]
    }

    /// Reads a slot holding a value (integer or boolean).
    #[inline]
    pub fn read_value(&self, slot: usize) -> i64 {
        let index = self.read(slot);
        match &self.space.slots[slot] {
            SlotDomain::Values(values) => values[index as usize],
            SlotDomain::Ref { .. } => panic!("slot {} holds a reference, not a value", self.space.slot_name(slot)),
        }
    }

    /// Reads a reference slot: the class and object it points to, or `None`.
    #[inline]
    pub fn read_ref(&self, slot: usize) -> Option<(ClassId, u32)> {
        let index = self.read(slot);
        match &self.space.slots[slot] {
            domain @ SlotDomain::Ref { class, .. } => domain.object(index).map(|o| (*class, o)),
            SlotDomain::Values(_) => panic!("slot {} holds a value, not a reference", self.space.slot_name(slot)),
        }
    }

    /// The value of a slot without logging (for reports and materialization).
    pub fn peek_value(&self, slot: usize) -> i64 {
        match &self.space.slots[slot] {
            SlotDomain::Values(values) => values[self.values[slot] as usize],
            SlotDomain::Ref { .. } => i64::from(self.values[slot]),
        }
    }
}

/// Bounds a field's declaration gives: `#[korat(ints = .., length = .., nullable = ..)]`.
#[derive(Debug, Clone, Default)]
pub struct Bounds {
    /// `Class.field`, for error messages.
    pub field: &'static str,
    pub ints: Option<Domain>,
    pub length: Option<Domain>,
    pub nullable: Option<bool>,
}

/// The values of a field's domain, or why it cannot have them.
pub type Domain = Result<Vec<i64>, String>;

/// Values that can bound a field: ranges, vectors and arrays of integers.
pub trait IntoDomain {
    fn into_domain(self) -> Domain;
}

fn range_domain(start: i64, end_inclusive: i64) -> Domain {
    if end_inclusive < start {
        return Ok(Vec::new());
    }
    let size = u128::from(end_inclusive.abs_diff(start)) + 1;
    if size > u128::from(MAX_DOMAIN) {
        let what = format!("the domain {start}..={end_inclusive}");
        return Err(ConfigError::DomainTooLarge { what, size, max: MAX_DOMAIN }.to_string());
    }
    Ok((start..=end_inclusive).collect())
}

impl IntoDomain for std::ops::Range<i64> {
    fn into_domain(self) -> Domain {
        match self.end.checked_sub(1) {
            Some(last) => range_domain(self.start, last),
            None => Ok(Vec::new()),
        }
    }
}

impl IntoDomain for std::ops::RangeInclusive<i64> {
    fn into_domain(self) -> Domain {
        range_domain(*self.start(), *self.end())
    }
}

impl IntoDomain for Vec<i64> {
    fn into_domain(self) -> Domain {
        Ok(self)
    }
}

impl<const N: usize> IntoDomain for [i64; N] {
    fn into_domain(self) -> Domain {
        Ok(self.to_vec())
    }
}

/// A bound's values, or an error recorded in `space` (and no values).
fn bound_values(space: &mut SpaceBuilder, field: &str, bound: &Option<Domain>, missing: &str) -> Vec<i64> {
    match bound {
        Some(Ok(values)) => values.clone(),
        Some(Err(why)) => {
            space.error(format!("{field}: {why}"));
            Vec::new()
        }
        None => {
            space.error(format!("{field} needs {missing}"));
            Vec::new()
        }
    }
}

/// A model class: `#[derive(Korat)]` implements it.
pub trait Model: 'static {
    /// The generated view type, through which invariants read fields.
    type View<'c>: Copy;
    /// Declares the class and its fields (and, first, the classes they reach).
    fn declare(space: &mut SpaceBuilder, n: i64) -> ClassId;
    fn view(candidate: &Candidate, class: ClassId, object: u32) -> Self::View<'_>;
}

/// A field type in a model: how it is declared and read.
pub trait FieldType {
    type Out<'c>;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind;
    fn read(candidate: &Candidate, slot: usize) -> Self::Out<'_>;
    /// Slots one value of this type occupies.
    const WIDTH: usize = 1;
}

/// A non-null reference to an object of `T` (a model field type).
pub struct Ref<T>(PhantomData<T>);

/// An array owned by its object (a model field type): a length, then elements.
pub struct Array<T>(PhantomData<T>);

impl<T: Model> FieldType for Ref<T> {
    type Out<'c> = T::View<'c>;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind {
        if bounds.nullable == Some(true) {
            space.error(format!("{}: a `Ref<T>` is never null; use `Option<Ref<T>>`", bounds.field));
        }
        FieldKind::Ref { class: T::declare(space, n), nullable: false }
    }
    fn read(candidate: &Candidate, slot: usize) -> T::View<'_> {
        let (class, object) = candidate.read_ref(slot).expect("a non-null reference slot");
        T::view(candidate, class, object)
    }
}

impl<T: Model> FieldType for Option<Ref<T>> {
    type Out<'c> = Option<T::View<'c>>;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind {
        FieldKind::Ref { class: T::declare(space, n), nullable: bounds.nullable.unwrap_or(true) }
    }
    fn read(candidate: &Candidate, slot: usize) -> Option<T::View<'_>> {
        candidate.read_ref(slot).map(|(class, object)| T::view(candidate, class, object))
    }
}

macro_rules! int_field {
    ($($t:ty)*) => {$(
        impl FieldType for $t {
            type Out<'c> = $t;
            fn kind(space: &mut SpaceBuilder, _n: i64, bounds: &Bounds) -> FieldKind {
                FieldKind::Values(bound_values(space, bounds.field, &bounds.ints, "a domain: #[korat(ints = A..B)]"))
            }
            fn read(candidate: &Candidate, slot: usize) -> $t {
                candidate.read_value(slot) as $t
            }
        }
    )*};
}
int_field!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

/// How `null` is stored in a value domain (`Option` of an integer).
pub const NULL_VALUE: i64 = i64::MIN;

macro_rules! optional_int_field {
    ($($t:ty)*) => {$(
        /// `null` (first), then the `ints` values: an object field without
        /// symmetry breaking, such as Korat's `Integer` elements.
        impl FieldType for Option<$t> {
            type Out<'c> = Option<$t>;
            fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind {
                match <$t as FieldType>::kind(space, n, bounds) {
                    FieldKind::Values(values) => {
                        FieldKind::Values(std::iter::once(NULL_VALUE).chain(values).collect())
                    }
                    other => other,
                }
            }
            fn read(candidate: &Candidate, slot: usize) -> Option<$t> {
                let value = candidate.read_value(slot);
                (value != NULL_VALUE).then_some(value as $t)
            }
        }
    )*};
}
optional_int_field!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl FieldType for bool {
    type Out<'c> = bool;
    fn kind(_space: &mut SpaceBuilder, _n: i64, _bounds: &Bounds) -> FieldKind {
        FieldKind::Values(vec![0, 1])
    }
    fn read(candidate: &Candidate, slot: usize) -> bool {
        candidate.read_value(slot) != 0
    }
}

impl<E: FieldType> FieldType for Array<E> {
    type Out<'c> = ArrayView<'c, E>;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind {
        let lengths = bound_values(space, bounds.field, &bounds.length, "lengths: #[korat(length = A..B)]");
        let element = E::kind(space, n, bounds);
        if matches!(element, FieldKind::Array { .. }) {
            space.error(format!("{}: arrays of arrays are not supported", bounds.field));
        }
        FieldKind::Array { lengths, element: Box::new(element) }
    }
    fn read(candidate: &Candidate, slot: usize) -> ArrayView<'_, E> {
        ArrayView { candidate, slot, element: PhantomData }
    }
}

/// Reads an array field: its length and elements are logged like fields.
pub struct ArrayView<'c, E> {
    candidate: &'c Candidate,
    /// The length's slot; elements follow.
    slot: usize,
    element: PhantomData<E>,
}

impl<E> Clone for ArrayView<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E> Copy for ArrayView<'_, E> {}

impl<'c, E: FieldType> ArrayView<'c, E> {
    /// The array's length (reads the length slot).
    pub fn len(self) -> usize {
        self.candidate.read_value(self.slot).max(0) as usize
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Element `index`; panics past the length, which makes the invariant
    /// fail. As with Java's `a[i]`, the bounds check reads no field.
    pub fn get(self, index: usize) -> E::Out<'c> {
        let len = self.candidate.peek_value(self.slot).max(0) as usize;
        assert!(index < len, "array index {index} out of bounds for length {len}");
        E::read(self.candidate, self.slot + 1 + index * E::WIDTH)
    }
}

/// What a generated view holds: an object of a candidate. Its fields are
/// private to smallscope, so code holding a view can read fields only
/// through [`ViewHandle::read_field`], which logs the read.
#[derive(Clone, Copy)]
pub struct ViewHandle<'c> {
    candidate: &'c Candidate,
    class: ClassId,
    object: u32,
}

impl<'c> ViewHandle<'c> {
    /// A handle on `object` of `class`; used by generated code.
    pub fn new(candidate: &'c Candidate, class: ClassId, object: u32) -> Self {
        ViewHandle { candidate, class, object }
    }

    /// Reads field `field` (its declaration index) as type `F`, logging the read.
    #[inline]
    pub fn read_field<F: FieldType>(self, field: usize) -> F::Out<'c> {
        let slot = self.candidate.space().slot(self.class, self.object, field);
        F::read(self.candidate, slot)
    }

    /// The object's index among the objects of its class.
    pub fn object(self) -> u32 {
        self.object
    }

    pub fn class(self) -> ClassId {
        self.class
    }
}

impl PartialEq for ViewHandle<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.candidate, other.candidate) && self.class == other.class && self.object == other.object
    }
}

impl Eq for ViewHandle<'_> {}

impl std::hash::Hash for ViewHandle<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.class, self.object).hash(state);
    }
}
