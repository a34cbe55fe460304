//! A candidate: one value index per slot, and the log of which slots the
//! invariant read, in the order it first read them.
//!
//! Models never see the vector: `#[derive(Korat)]` generates view types whose
//! field methods call [`FieldType::read`], which goes through
//! [`Candidate::read`]. So every read is logged, with no code from the user.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::Arc;

use super::scratch_pool::ScratchPool;
use super::space::{ClassId, FieldKind, SlotCode, Space, SpaceBuilder};
use crate::error::MAX_DOMAIN;
use crate::runner::flight::ReadLog;
use crate::ConfigError;

/// A candidate structure of a [`Space`].
pub struct Candidate {
    space: Arc<Space>,
    /// Per slot: its value as views see it, and whether it was read.
    slots: Box<[SlotState]>,
    /// The value indices, one per slot.
    values: Vec<u32>,
    /// The space's decoding tables, copied so that a write needs no `Arc`.
    codes: Box<[SlotCode]>,
    value_table: Box<[i64]>,
    /// In the thread's flight slot when it has one, so the reads of a
    /// `rep_ok` that kills the process are known.
    log: ReadLog,
    generation: Cell<u32>,
    /// Whether the root class (declared first) has an object.
    has_root: bool,
    /// Memory invariants borrow instead of allocating.
    pub(super) scratch: ScratchPool,
}

/// One slot as the read path needs it, in one place: a read is a check of
/// `seen`, and a load of `decoded`, which the search keeps up to date as
/// it changes values (a few slots per candidate; reads are many more).
#[derive(Clone)]
struct SlotState {
    /// A value slot: the value (`i64` bits). A reference slot: the object's
    /// first slot in the high half and its id in the low half, or [`NULL`].
    decoded: u64,
    /// `seen == generation`: the slot was read in this run.
    seen: Cell<u32>,
    /// The value index (as in `Candidate::values`), beside `seen` for the
    /// read log: no second array to load from on a first read.
    value: u32,
}

/// A null reference, decoded.
const NULL: u64 = u64::MAX;

impl Candidate {
    /// The first candidate: every slot at its first value.
    pub fn new(space: Arc<Space>) -> Self {
        let n = space.slots.len();
        let mut candidate = Candidate {
            slots: vec![SlotState { decoded: 0, seen: Cell::new(0), value: 0 }; n].into(),
            values: vec![0; n],
            codes: space.codes.clone().into(),
            value_table: space.value_table.clone().into(),
            log: ReadLog::new(n),
            generation: Cell::new(1),
            has_root: space.classes.first().is_some_and(|c| c.objects > 0),
            scratch: ScratchPool::default(),
            space,
        };
        for slot in 0..n {
            candidate.set(slot, 0);
        }
        candidate
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

    /// Sets a slot's value index.
    #[inline]
    pub(super) fn set(&mut self, slot: usize, index: u32) {
        self.values[slot] = index;
        let code = &self.codes[slot];
        let state = &mut self.slots[slot];
        state.value = index;
        state.decoded = match code.is_ref {
            true => match index.checked_sub(code.first) {
                Some(object) => (u64::from(code.base + object * code.stride) << 32) | u64::from(code.first_id + object),
                None => NULL,
            },
            false => self.value_table[(code.first + index) as usize] as u64,
        };
    }

    /// The candidate whose slots `reads` hold `values` (the others their
    /// first value): what a `rep_ok` that read them saw, to run it again.
    pub(super) fn replaying(space: Arc<Space>, reads: &[u32], values: &[u32]) -> Self {
        let mut candidate = Candidate::new(space);
        for (&slot, &value) in reads.iter().zip(values) {
            let slot = slot as usize;
            // A log from a corrupted slot must not index out of bounds.
            if candidate.space.slots.get(slot).is_some_and(|domain| value < domain.len()) {
                candidate.set(slot, value);
            }
        }
        candidate
    }

    /// Sets every slot's value index.
    pub(super) fn set_values(&mut self, values: &[u32]) {
        for (slot, &index) in values.iter().enumerate() {
            if self.values[slot] != index {
                self.set(slot, index);
            }
        }
    }

    /// Forgets the reads logged so far.
    #[inline]
    pub(super) fn clear_log(&self) {
        self.log.clear();
        let next = self.generation.get().wrapping_add(1);
        if next == 0 {
            self.slots.iter().for_each(|s| s.seen.set(0));
            self.generation.set(1);
        } else {
            self.generation.set(next);
        }
    }

    /// The slots read since the log was cleared, in first-read order,
    /// into `out` (cleared first); the log is cleared.
    #[inline]
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
    #[inline]
    pub(super) fn was_read(&self, slot: usize) -> bool {
        self.slots[slot].seen.get() == self.generation.get()
    }

    /// Logs a read of `slot` (the first one in this run) and returns its state.
    #[inline(always)]
    fn touch(&self, slot: usize) -> &SlotState {
        let state = &self.slots[slot];
        let generation = self.generation.get();
        if state.seen.get() != generation {
            state.seen.set(generation);
            self.log.push(slot as u32, state.value);
        }
        state
    }

    /// Reads a slot's value index, logging the first read.
    #[inline]
    pub fn read(&self, slot: usize) -> u32 {
        self.touch(slot);
        self.values[slot]
    }

    /// Reads a slot holding a value (integer or boolean).
    #[inline(always)]
    pub fn read_value(&self, slot: usize) -> i64 {
        let decoded = self.touch(slot).decoded;
        debug_assert!(!self.codes[slot].is_ref, "slot {} holds a reference", self.space.slot_name(slot));
        decoded as i64
    }

    /// Reads a reference slot: the object it points to, or `None`.
    #[inline(always)]
    pub fn read_ref(&self, slot: usize) -> Option<ViewHandle<'_>> {
        let decoded = self.touch(slot).decoded;
        debug_assert!(self.codes[slot].is_ref, "slot {} holds a value", self.space.slot_name(slot));
        (decoded != NULL).then_some(ViewHandle { candidate: self, base: (decoded >> 32) as u32, id: decoded as u32 })
    }

    /// The value of a slot without logging (for reports and materialization);
    /// a reference slot's value index.
    pub fn peek_value(&self, slot: usize) -> i64 {
        match self.codes[slot].is_ref {
            true => i64::from(self.values[slot]),
            false => self.peek_int(slot),
        }
    }

    /// [`Self::peek_value`] of a slot known to hold a value, not a reference.
    #[inline]
    fn peek_int(&self, slot: usize) -> i64 {
        self.slots[slot].decoded as i64
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
    type View<'c>: View<'c>;
    /// Declares the class and its fields (and, first, the classes they reach).
    fn declare(space: &mut SpaceBuilder, n: i64) -> ClassId;
    /// The view of the root object of `candidate` (object 0 of class 0).
    #[inline]
    fn root(candidate: &Candidate) -> Self::View<'_> {
        Self::View::from_handle(ViewHandle::root(candidate))
    }
}

/// A generated view type: a [`ViewHandle`] with field methods.
pub trait View<'c>: Copy {
    fn from_handle(handle: ViewHandle<'c>) -> Self;
    fn handle(self) -> ViewHandle<'c>;
}

/// A field type in a model: how it is declared and read.
pub trait FieldType {
    type Out<'c>;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind;
    fn read(candidate: &Candidate, slot: usize) -> Self::Out<'_>;
    /// Slots one value of this type occupies.
    const WIDTH: usize = 1;
    /// Whether every finitization gives the field [`Self::WIDTH`] slots
    /// (an array's width depends on its lengths): the fields after a
    /// fixed-width field have offsets known at compile time.
    const FIXED_WIDTH: bool = true;
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
    #[inline]
    fn read(candidate: &Candidate, slot: usize) -> T::View<'_> {
        T::View::from_handle(candidate.read_ref(slot).expect("a non-null reference slot"))
    }
}

impl<T: Model> FieldType for Option<Ref<T>> {
    type Out<'c> = Option<T::View<'c>>;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind {
        FieldKind::Ref { class: T::declare(space, n), nullable: bounds.nullable.unwrap_or(true) }
    }
    #[inline]
    fn read(candidate: &Candidate, slot: usize) -> Option<T::View<'_>> {
        candidate.read_ref(slot).map(T::View::from_handle)
    }
}

macro_rules! int_field {
    ($($t:ty)*) => {$(
        impl FieldType for $t {
            type Out<'c> = $t;
            fn kind(space: &mut SpaceBuilder, _n: i64, bounds: &Bounds) -> FieldKind {
                FieldKind::Values(bound_values(space, bounds.field, &bounds.ints, "a domain: #[korat(ints = A..B)]"))
            }
            #[inline]
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
            #[inline]
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
    #[inline]
    fn read(candidate: &Candidate, slot: usize) -> bool {
        candidate.read_value(slot) != 0
    }
}

impl<E: FieldType> FieldType for Array<E> {
    type Out<'c> = ArrayView<'c, E>;
    const FIXED_WIDTH: bool = false;
    fn kind(space: &mut SpaceBuilder, n: i64, bounds: &Bounds) -> FieldKind {
        // As BEAPI bounds a collection, an array holds at most `n` elements
        // unless its declaration says otherwise.
        let lengths = match bounds.length {
            None => (0..=n.max(0)).collect(),
            Some(_) => bound_values(space, bounds.field, &bounds.length, "lengths: #[korat(length = A..B)]"),
        };
        let element = E::kind(space, n, bounds);
        if matches!(element, FieldKind::Array { .. }) {
            space.error(format!("{}: arrays of arrays are not supported", bounds.field));
        }
        FieldKind::Array { lengths, element: Box::new(element) }
    }
    #[inline]
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
    #[inline]
    pub fn len(self) -> usize {
        self.candidate.read_value(self.slot).max(0) as usize
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Element `index`; panics past the length, which makes the invariant
    /// fail. As with Java's `a[i]`, the bounds check reads no field.
    /// (Inlined into the invariant: a call per element cost about 70
    /// instructions of `heap-array`'s candidates.)
    #[inline]
    pub fn get(self, index: usize) -> E::Out<'c> {
        let len = self.candidate.peek_int(self.slot).max(0) as usize;
        if index >= len {
            out_of_bounds(index, len);
        }
        E::read(self.candidate, self.slot + 1 + index * E::WIDTH)
    }
}

/// An array read past the length: the invariant's panic, out of line.
#[cold]
#[inline(never)]
fn out_of_bounds(index: usize, len: usize) -> ! {
    panic!("array index {index} out of bounds for length {len}")
}

/// What a generated view holds: an object of a candidate. Its fields are
/// private to smallscope, so code holding a view can read fields only
/// through [`ViewHandle::read_field`], which logs the read.
#[derive(Clone, Copy)]
pub struct ViewHandle<'c> {
    candidate: &'c Candidate,
    /// The object's first slot.
    base: u32,
    /// The object's number among the objects of every class.
    id: u32,
}

impl<'c> ViewHandle<'c> {
    /// A handle on `object` of `class`; panics if the space has no such object.
    pub fn new(candidate: &'c Candidate, class: ClassId, object: u32) -> Self {
        let space = candidate.space();
        let decl = space.classes.get(class as usize).expect("a class of the candidate's space");
        assert!(
            (object as usize) < decl.objects,
            "class {} has {} objects, not {}",
            decl.name,
            decl.objects,
            object + 1
        );
        let base = (decl.base + object as usize * decl.stride) as u32;
        ViewHandle { candidate, base, id: space.first_ids[class as usize] + object }
    }

    /// The root: object 0 of class 0, which the space lays out first.
    #[inline]
    pub fn root(candidate: &'c Candidate) -> Self {
        assert!(candidate.has_root, "the root class has no objects");
        ViewHandle { candidate, base: 0, id: 0 }
    }

    /// Reads field `field` (its declaration index) as type `F`, logging the read.
    #[inline]
    pub fn read_field<F: FieldType>(self, field: usize) -> F::Out<'c> {
        let offset = self.candidate.space().classes[self.class() as usize].fields[field].offset;
        F::read(self.candidate, self.base as usize + offset)
    }

    /// [`Self::read_field`] for generated code, which knows at compile
    /// time whether the fields before `field` are one slot each: then the
    /// field's slot is the object's first slot plus `field`.
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_field_at<F: FieldType>(self, field: usize, one_slot_each_before: bool) -> F::Out<'c> {
        match one_slot_each_before {
            true => F::read(self.candidate, self.base as usize + field),
            false => self.read_field::<F>(field),
        }
    }

    /// The object's index among the objects of its class.
    pub fn object(self) -> u32 {
        self.id - self.candidate.space().first_ids[self.class() as usize]
    }

    pub fn class(self) -> ClassId {
        let first_ids = &self.candidate.space().first_ids;
        // The last class whose objects start at or before this one (classes
        // with no objects share their first id with the next class).
        (first_ids.partition_point(|&first| first <= self.id) - 1) as ClassId
    }

    /// The object's number among the objects of every class: what
    /// [`ObjectSet`](super::ObjectSet) keys on.
    #[inline]
    pub fn id(self) -> u32 {
        self.id
    }

    pub(super) fn candidate(self) -> &'c Candidate {
        self.candidate
    }
}

impl PartialEq for ViewHandle<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.candidate, other.candidate)
    }
}

impl Eq for ViewHandle<'_> {}

impl std::hash::Hash for ViewHandle<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}
