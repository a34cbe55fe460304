//! Scratch memory for invariants: a `rep_ok` runs once per candidate, so a
//! `Vec` it allocates costs an allocation and a free per candidate, often
//! more than the fields it reads. [`ScratchVec`] and [`ObjectSet`] borrow
//! memory the candidate keeps from one run to the next instead.
//!
//! ```
//! use smallscope::korat::{self, Korat, ObjectSet, Ref, ScratchVec};
//!
//! #[derive(Korat)]
//! pub struct List { head: Option<Ref<Item>> }
//! #[derive(Korat)]
//! #[korat(objects = n)]
//! pub struct Item { next: Option<Ref<Item>> }
//!
//! // Acyclic lists, reading `next` until null or a repeat.
//! fn rep_ok(list: ListView<'_>) -> bool {
//!     let mut seen = ObjectSet::new(list);
//!     let mut order = ScratchVec::new(list); // a Vec<ItemView>, reused
//!     let mut current = list.head();
//!     while let Some(item) = current {
//!         if !seen.insert(item) { return false; }
//!         order.push(item);
//!         current = item.next();
//!     }
//!     true
//! }
//!
//! assert_eq!(korat::run::<List>(3, korat::from_fn::<List>(rep_ok)).unwrap().found, 4);
//! ```

use std::ops::{Deref, DerefMut};

use super::candidate::View;
use super::scratch_pool::ScratchPool;

/// A `Vec<T>` whose memory comes from the candidate and goes back to it
/// when dropped: use it as a `Vec` (it dereferences to one).
pub struct ScratchVec<'c, T> {
    vec: Vec<T>,
    pool: &'c ScratchPool,
}

impl<'c, T> ScratchVec<'c, T> {
    /// An empty vector, in memory of the candidate `anchor` is a view of.
    #[inline]
    pub fn new(anchor: impl View<'c>) -> Self {
        let pool = &anchor.handle().candidate().scratch;
        ScratchVec { vec: pool.take(), pool }
    }
}

impl<T> Deref for ScratchVec<'_, T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.vec
    }
}

impl<T> DerefMut for ScratchVec<'_, T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.vec
    }
}

impl<T> Drop for ScratchVec<'_, T> {
    fn drop(&mut self) {
        self.pool.give(std::mem::take(&mut self.vec));
    }
}

/// A set of objects of a candidate, of any classes: a bit per object, in
/// the set itself for the first 256 objects, in scratch memory for the rest.
/// Cheaper than `Vec::contains` or a `HashSet` of views.
pub struct ObjectSet<'c> {
    /// Objects `0..INLINE`: every insert into a candidate of at most 256
    /// objects is one comparison and a bit, with no bounds check.
    small: [u64; SMALL_WORDS],
    /// Objects from `INLINE` on, when the candidate has more.
    large: Option<ScratchVec<'c, u64>>,
}

const SMALL_WORDS: usize = 4;

/// The objects whose bits live in [`ObjectSet::small`].
const INLINE: usize = SMALL_WORDS * 64;

impl<'c> ObjectSet<'c> {
    /// An empty set, for objects of the candidate `anchor` is a view of.
    #[inline]
    pub fn new(anchor: impl View<'c>) -> Self {
        let objects = anchor.handle().candidate().space().objects as usize;
        let large = (objects > INLINE).then(|| {
            let mut bits = ScratchVec::new(anchor);
            bits.resize((objects - INLINE).div_ceil(64), 0);
            bits
        });
        ObjectSet { small: [0; SMALL_WORDS], large }
    }

    /// The word holding `id`'s bit, and the bit.
    #[inline(always)]
    fn word(&mut self, id: usize) -> (&mut u64, u64) {
        let bit = 1u64 << (id % 64);
        match id < INLINE {
            true => (&mut self.small[id / 64], bit),
            false => (self.large_word(id), bit),
        }
    }

    /// The word of an object past the inline ones: the rare case, out of line.
    #[inline(never)]
    fn large_word(&mut self, id: usize) -> &mut u64 {
        let bits = self.large.as_mut().expect("an object past the inline words has scratch words");
        &mut bits[(id - INLINE) / 64]
    }

    /// Adds `object`; false if it was in the set already.
    #[inline]
    pub fn insert(&mut self, object: impl View<'c>) -> bool {
        let (word, bit) = self.word(object.handle().id() as usize);
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    #[inline]
    pub fn contains(&self, object: impl View<'c>) -> bool {
        let id = object.handle().id() as usize;
        let word = match id < INLINE {
            true => self.small[id / 64],
            false => self.large.as_ref().map_or(0, |bits| bits[(id - INLINE) / 64]),
        };
        word & (1u64 << (id % 64)) != 0
    }

    /// Every word of the set.
    fn words(&self) -> impl Iterator<Item = &u64> {
        self.small.iter().chain(self.large.iter().flat_map(|bits| bits.iter()))
    }

    /// How many objects the set holds.
    pub fn len(&self) -> usize {
        self.words().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words().all(|&w| w == 0)
    }
}

/// A breadth-first walk over objects, in scratch memory: the objects
/// reached, in the order reached, and the set of them.
///
/// ```
/// use smallscope::korat::{self, BreadthFirst, Korat, Ref};
///
/// #[derive(Korat)]
/// pub struct Tree { root: Option<Ref<Node>> }
/// #[derive(Korat)]
/// #[korat(objects = n)]
/// pub struct Node { left: Option<Ref<Node>>, right: Option<Ref<Node>> }
///
/// // Trees: no node reached twice.
/// fn rep_ok(tree: TreeView<'_>) -> bool {
///     let Some(root) = tree.root() else { return true };
///     let mut walk = BreadthFirst::new(root);
///     while let Some(node) = walk.next() {
///         if !walk.reach(node.left()) || !walk.reach(node.right()) {
///             return false;
///         }
///     }
///     true
/// }
///
/// // Trees of at most 2 nodes: 1 + 1 + 2.
/// assert_eq!(korat::run::<Tree>(2, korat::from_fn::<Tree>(rep_ok)).unwrap().found, 4);
/// ```
pub struct BreadthFirst<'c, V> {
    reached: ObjectSet<'c>,
    order: ScratchVec<'c, V>,
    next: usize,
}

impl<'c, V: View<'c>> BreadthFirst<'c, V> {
    /// A walk that has reached `start`.
    #[inline]
    pub fn new(start: V) -> Self {
        let mut walk = BreadthFirst { reached: ObjectSet::new(start), order: ScratchVec::new(start), next: 0 };
        walk.add(start);
        walk
    }

    /// The next object to visit, in the order they were reached.
    #[inline]
    #[allow(clippy::should_implement_trait)] // an `Iterator` could not be added to while it runs
    pub fn next(&mut self) -> Option<V> {
        let object = self.order.get(self.next).copied();
        self.next += 1;
        object
    }

    /// Adds `object` when it is not `None`; false if it was reached before.
    #[inline]
    pub fn reach(&mut self, object: Option<V>) -> bool {
        object.is_none_or(|object| self.add(object))
    }

    /// Adds `object`; false if it was reached before.
    #[inline]
    pub fn add(&mut self, object: V) -> bool {
        let new = self.reached.insert(object);
        if new {
            self.order.push(object);
        }
        new
    }

    #[inline]
    pub fn contains(&self, object: V) -> bool {
        self.reached.contains(object)
    }

    /// How many objects were reached.
    pub fn reached(&self) -> usize {
        self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::korat::{self, Candidate, Korat, Model, Ref};

    #[derive(Korat)]
    #[allow(dead_code)]
    pub struct Pool {
        first: Option<Ref<Member>>,
    }

    #[derive(Korat)]
    #[korat(objects = n)]
    #[allow(dead_code)]
    pub struct Member {
        next: Option<Ref<Member>>,
    }

    /// A candidate of `objects` members, member `i` pointing to member `i + 1`.
    fn chain(objects: i64) -> Candidate {
        let mut candidate = Candidate::new(korat::space::<Pool>(objects).unwrap());
        let last = candidate.values().len();
        for slot in 0..last {
            // Index 0 is null; index `k` is object `k - 1`.
            candidate.set(slot, if slot + 1 < last { slot as u32 + 1 } else { 0 });
        }
        candidate
    }

    #[test]
    fn object_sets_count_each_object_once_in_and_past_the_inline_words() {
        for objects in [3, 255, 256, 257, 300, 600] {
            let candidate = chain(objects);
            let pool = Pool::root(&candidate);
            let mut set = ObjectSet::new(pool);
            let mut member = pool.first();
            let mut inserted = 0;
            while let Some(m) = member {
                assert!(!set.contains(m));
                assert!(set.insert(m), "member {} is new", m.object_index());
                assert!(!set.insert(m), "member {} is in the set", m.object_index());
                inserted += 1;
                member = m.next();
            }
            assert_eq!(inserted, objects as usize);
            assert_eq!(set.len(), objects as usize);
            assert!(!set.contains(pool), "the root was never inserted");
        }
    }

    #[test]
    fn scratch_vectors_reuse_memory_across_runs_and_types() {
        let candidate = chain(4);
        let pool = Pool::root(&candidate);
        let first = {
            let mut members = ScratchVec::new(pool);
            members.extend(std::iter::successors(pool.first(), |m| m.next()));
            assert_eq!(members.len(), 4);
            members.as_ptr() as usize
        };
        // The next run gets the same memory back, empty.
        let members: ScratchVec<'_, MemberView<'_>> = ScratchVec::new(pool);
        assert!(members.is_empty());
        assert_eq!(members.as_ptr() as usize, first);
        assert!(members.capacity() >= 4);
        // Two at once, and a type of another size: both valid vectors.
        let mut numbers: ScratchVec<'_, u8> = ScratchVec::new(pool);
        numbers.extend(0..=255);
        assert_eq!(numbers.iter().map(|&n| u32::from(n)).sum::<u32>(), 255 * 128);
        drop(members);
        drop(numbers);
        let pairs: ScratchVec<'_, (u64, u64)> = ScratchVec::new(pool);
        assert!(pairs.is_empty());
    }
}
