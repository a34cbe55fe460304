//! The next candidate: Korat's backtracking over the fields the last
//! `rep_ok` read (paper §2.1), bounded by isomorphism breaking, and
//! Korat+'s advance past candidates its pruning skips.

use crate::korat::candidate::Candidate;
use crate::korat::space::{FieldKind, SlotCode, Space};

pub(super) use crate::korat::part_record::Ending;

/// Korat's `nonIsoMax`, kept along the stack: for each stack position, one
/// past the highest object of each class that the reference fields up to
/// it point to. A reference field ranges over null, those objects and one
/// more. Rows are recomputed only from the first position whose field or
/// value changed, not rescanned at every advance.
pub(super) struct Limits {
    classes: usize,
    /// `rows[i * classes + c]`: for stack position `i`.
    rows: Vec<u32>,
    /// Rows below this position are up to date.
    valid: usize,
}

impl Limits {
    pub(super) fn new(space: &Space) -> Self {
        Limits { classes: space.classes.len(), rows: Vec::new(), valid: 0 }
    }

    /// The stack changed at position `at` or above.
    #[inline]
    pub(super) fn truncate(&mut self, at: usize) {
        self.valid = self.valid.min(at);
    }

    /// The largest value index `slot` may take after the fields `earlier`.
    #[inline]
    pub(super) fn max(&mut self, codes: &[SlotCode], values: &[u32], earlier: &[u32], slot: usize) -> u32 {
        let code = codes[slot];
        if !code.is_ref {
            return code.last;
        }
        if code.objects == 0 {
            return 0;
        }
        let touched = match earlier.len() {
            0 => 0,
            at => {
                self.update(codes, values, earlier);
                self.rows[(at - 1) * self.classes + code.class as usize]
            }
        };
        touched.min(code.last) + code.first
    }

    /// Brings the rows of every position of `stack` up to date.
    #[inline]
    pub(super) fn update(&mut self, codes: &[SlotCode], values: &[u32], stack: &[u32]) {
        let classes = self.classes;
        if self.rows.len() < stack.len() * classes {
            self.rows.resize(stack.len() * classes, 0);
        }
        for at in self.valid..stack.len() {
            let (before, row) = self.rows.split_at_mut(at * classes);
            let row = &mut row[..classes];
            match at {
                0 => row.fill(0),
                _ => row.copy_from_slice(&before[(at - 1) * classes..]),
            }
            let slot = stack[at] as usize;
            let code = codes[slot];
            if code.is_ref {
                if let Some(object) = values[slot].checked_sub(code.first) {
                    let touched = &mut row[code.class as usize];
                    *touched = (*touched).max(object + 1);
                }
            }
        }
        self.valid = self.valid.max(stack.len());
    }
}

/// Korat's next candidate: increments the last read field that can grow.
/// The first `frozen` fields of the stack stay fixed.
#[inline]
pub(super) fn advance(
    space: &Space,
    limits: &mut Limits,
    candidate: &mut Candidate,
    stack: &mut Vec<u32>,
    frozen: usize,
) -> bool {
    while stack.len() > frozen {
        let slot = stack.pop().expect("longer than frozen") as usize;
        limits.truncate(stack.len());
        let value = candidate.values()[slot];
        if value < limits.max(&space.codes, candidate.values(), stack, slot) {
            candidate.set(slot, value + 1);
            return true;
        }
        if value != 0 {
            candidate.set(slot, 0);
        }
    }
    false
}

/// Korat+'s next candidate after a valid one: as [`advance`], but if that
/// would leave every field `eq_class` read unchanged (a candidate of the
/// class just covered), it resets those fields and advances the last field
/// `eq_class` read instead. `None` when it advanced within the part; else
/// how the sequential search would go on.
pub(super) fn advance_past(
    space: &Space,
    limits: &mut Limits,
    candidate: &mut Candidate,
    stack: &mut Vec<u32>,
    frozen: usize,
    eq_fields: &[u32],
) -> Option<Ending> {
    let before = stack.clone();
    let saved: Vec<u32> = candidate.values().to_vec();
    if !advance(space, limits, candidate, stack, frozen) {
        if before[frozen..].iter().any(|f| eq_fields.contains(f)) {
            return Some(Ending::Next);
        }
        return Some(Ending::Carry(before[..frozen].iter().map(|f| eq_fields.contains(f)).collect()));
    }
    // The fields `advance` popped were all reset or incremented: modified.
    if before[stack.len()..].iter().any(|f| eq_fields.contains(f)) {
        return None;
    }
    // Undo, then skip to the last eq_class field on the stack.
    candidate.set_values(&saved);
    *stack = before;
    while stack.len() > frozen {
        let top = *stack.last().expect("longer than frozen");
        if eq_fields.contains(&top) {
            return (!advance(space, limits, candidate, stack, frozen)).then_some(Ending::Next);
        }
        candidate.set(top as usize, 0);
        stack.pop();
        limits.truncate(stack.len());
    }
    // The skip goes into the fields the part fixes: the sequential search
    // would carry on from the last eq_class field there.
    match stack[..frozen].iter().rposition(|f| eq_fields.contains(f)) {
        Some(p) => Some(Ending::Skip(p)),
        None => Some(Ending::All),
    }
}

/// Korat's `touch`: after a valid candidate, adds the fields reachable from
/// the root that `rep_ok` did not read: an object's fields in declaration
/// order, following a reference to an object not yet visited at once,
/// before the next field; an array's length, then its elements in order.
pub(super) struct Reachable {
    /// Per class: each field's offset in the object, and whether it is an array.
    fields: Vec<Vec<(u32, bool)>>,
    /// Per class with no arrays: its slots per object.
    plain: Vec<Option<u32>>,
    /// `visited[id] == stamp`: the object was visited in this walk.
    visited: Vec<u32>,
    stamp: u32,
}

impl Reachable {
    pub(super) fn new(space: &Space) -> Self {
        let fields = space
            .classes
            .iter()
            .map(|c| c.fields.iter().map(|f| (f.offset as u32, matches!(f.kind, FieldKind::Array { .. }))).collect())
            .collect();
        let plain = space
            .classes
            .iter()
            .map(|c| c.fields.iter().all(|f| !matches!(f.kind, FieldKind::Array { .. })).then_some(c.stride as u32))
            .collect();
        let visited = vec![0; space.objects as usize];
        Reachable { fields, plain, visited, stamp: 0 }
    }

    pub(super) fn push_unread(&mut self, space: &Space, candidate: &Candidate, stack: &mut Vec<u32>) {
        if space.classes.first().is_none_or(|c| c.objects == 0) {
            return;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.visited.fill(0);
            self.stamp = 1;
        }
        self.visited[0] = self.stamp;
        self.visit(candidate, stack, 0, 0);
    }

    pub(super) fn visit(&mut self, candidate: &Candidate, stack: &mut Vec<u32>, class: u32, base: u32) {
        let class = class as usize;
        match self.plain[class] {
            // No arrays: the object's slots are its fields, in order.
            Some(stride) => {
                for slot in base as usize..(base + stride) as usize {
                    self.reach(candidate, stack, slot);
                }
            }
            None => {
                for f in 0..self.fields[class].len() {
                    let (offset, array) = self.fields[class][f];
                    let first = (base + offset) as usize;
                    let len = if array { candidate.peek_value(first).max(0) as usize } else { 0 };
                    for slot in first..first + len + 1 {
                        self.reach(candidate, stack, slot);
                    }
                }
            }
        }
    }

    /// Adds `slot` if unread, then visits the object it points to, if new.
    #[inline]
    pub(super) fn reach(&mut self, candidate: &Candidate, stack: &mut Vec<u32>, slot: usize) {
        if !candidate.was_read(slot) {
            stack.push(slot as u32);
        }
        let code = candidate.space().codes[slot];
        if !code.is_ref {
            return;
        }
        if let Some(object) = candidate.values()[slot].checked_sub(code.first) {
            let (class, base) = (code.class, code.base + object * code.stride);
            let id = (code.first_id + object) as usize;
            if self.visited[id] != self.stamp {
                self.visited[id] = self.stamp;
                self.visit(candidate, stack, class, base);
            }
        }
    }
}
