//! [`shares_objects`] and [`CloneAudit`]: whether a copy shares objects
//! with its original, for the engines' own checks.
//!
//! BEAPI and random copy stored values with the subject's `Clone`; a
//! derived `Clone` of a type holding `Rc`s copies the pointers, not the
//! objects, so the copy shares them with the stored value and a call on
//! the copy changes the stored value too. [`shares_objects`] tells.

use super::{Arena, Class, Heap, ObjRef, ObjectId, Prim, Visitor};

/// The identities of the objects reachable from `value` that may be shared
/// (`Rc`, arena elements), each once, in walk order.
pub fn shared_objects(value: &dyn Heap) -> Vec<ObjectId> {
    let mut objects = SharedObjects(Vec::new());
    value.walk(&mut objects);
    objects.0
}

/// Collects [`shared_objects`].
struct SharedObjects(Vec<ObjectId>);

/// Whether `copy` shares an object with `original`; `None` when `original`
/// has no addressed object, so that sharing cannot be seen.
pub fn shares_objects(original: &dyn Heap, copy: &dyn Heap) -> Option<bool> {
    let theirs = shared_objects(original);
    if theirs.is_empty() {
        return None;
    }
    let ours = shared_objects(copy);
    Some(ours.iter().any(|a| theirs.contains(a)))
}

impl Visitor for SharedObjects {
    fn field(&mut self, _: &'static Class, _: usize) -> bool {
        true
    }
    fn null(&mut self) {}
    fn some(&mut self) {}
    fn prim(&mut self, _: Prim<'_>) {}
    fn variant(&mut self, _: u32) {}
    fn seq_begin(&mut self, _: usize) {}
    fn seq_end(&mut self) {}
    fn inline(&mut self, _: &'static Class, value: &dyn Heap) {
        value.walk(self);
    }
    fn object(&mut self, obj: ObjRef<'_>) {
        if let Some(addr) = obj.addr {
            if self.0.contains(&addr) {
                return;
            }
            self.0.push(addr);
        }
        obj.value.walk(self);
    }
    fn arena(&mut self, _: &'static str, arena: &dyn Arena, body: &mut dyn FnMut(&mut dyn Visitor)) {
        // A cloned arena is a new value: its elements have new identities.
        self.0.extend((0..arena.len()).map(|i| ObjectId::in_arena(arena, i)));
        body(self);
    }
    fn arena_link(&mut self, _: &'static str, _: Option<usize>) {}
}

/// Checks that a subject's `Clone` copies its objects, on a budget: once
/// [`CloneAudit::CHECKS`] copies holding objects were deep, or
/// [`CloneAudit::LOOKED_AT`] copies were looked at, `Clone` is trusted.
/// (Walking every copy would cost as much as the fast path saves.)
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CloneAudit {
    /// Copies that held objects and were compared with their originals.
    pub checks: u32,
    /// Copies looked at.
    pub looked_at: u32,
}

impl CloneAudit {
    pub const CHECKS: u32 = 64;
    pub const LOOKED_AT: u32 = 1024;

    /// Whether `copy` is seen to share objects with `original`.
    pub fn is_shallow(&mut self, original: &dyn Heap, copy: &dyn Heap) -> bool {
        if self.checks >= Self::CHECKS || self.looked_at >= Self::LOOKED_AT {
            return false;
        }
        self.looked_at += 1;
        let shares = shares_objects(original, copy);
        self.checks += u32::from(shares.is_some());
        shares == Some(true)
    }
}

/// The note an engine gives when it stops trusting `T`'s `Clone`.
pub fn shallow_clone_note<T>() -> String {
    format!(
        "`Clone` of {} shares objects with the original (a derived `Clone` copies `Rc` pointers, not \
         objects), so stored values are rebuilt by replaying the calls that made them (slower); implement \
         a deep `Clone` to use the fast path",
        std::any::type_name::<T>()
    )
}
