//! The oracle of the list subjects' differential tests: what `java.util`'s
//! `LinkedList` answers to each call, on a `VecDeque`, with the subjects'
//! error for Java's exceptions.

use std::collections::VecDeque;

use crate::list::ListError;

#[derive(Clone, Debug, Default)]
pub(crate) struct ListModel(VecDeque<i32>);

impl ListModel {
    pub(crate) fn add_last(&mut self, x: i32) {
        self.0.push_back(x);
    }

    pub(crate) fn add_first(&mut self, x: i32) {
        self.0.push_front(x);
    }

    /// Inserts `x` at position `index` (`0..=len`).
    pub(crate) fn add_at(&mut self, index: usize, x: i32) -> Result<(), ListError> {
        if index > self.0.len() {
            return Err(self.out_of_bounds(index));
        }
        self.0.insert(index, x);
        Ok(())
    }

    /// Inserts `x` after every value `<= x`, so that a sorted model stays sorted.
    pub(crate) fn insert_sorted(&mut self, x: i32) {
        let at = self.0.partition_point(|&v| v <= x);
        self.0.insert(at, x);
    }

    pub(crate) fn get_first(&self) -> Result<i32, ListError> {
        self.0.front().copied().ok_or(ListError::NoSuchElement)
    }

    pub(crate) fn get_last(&self) -> Result<i32, ListError> {
        self.0.back().copied().ok_or(ListError::NoSuchElement)
    }

    pub(crate) fn get(&self, index: usize) -> Result<i32, ListError> {
        self.0.get(index).copied().ok_or(self.out_of_bounds(index))
    }

    /// Replaces the element at `index`; returns the old one.
    pub(crate) fn set(&mut self, index: usize, x: i32) -> Result<i32, ListError> {
        let oob = self.out_of_bounds(index);
        self.0.get_mut(index).map(|slot| std::mem::replace(slot, x)).ok_or(oob)
    }

    pub(crate) fn remove_first(&mut self) -> Result<i32, ListError> {
        self.0.pop_front().ok_or(ListError::NoSuchElement)
    }

    pub(crate) fn remove_last(&mut self) -> Result<i32, ListError> {
        self.0.pop_back().ok_or(ListError::NoSuchElement)
    }

    pub(crate) fn remove_at(&mut self, index: usize) -> Result<i32, ListError> {
        let oob = self.out_of_bounds(index);
        self.0.remove(index).ok_or(oob)
    }

    /// Removes the first occurrence of `x` (`remove(Object)`).
    pub(crate) fn remove(&mut self, x: i32) -> bool {
        self.index_of(x).and_then(|p| self.0.remove(p)).is_some()
    }

    pub(crate) fn remove_last_occurrence(&mut self, x: i32) -> bool {
        self.last_index_of(x).and_then(|p| self.0.remove(p)).is_some()
    }

    /// Removes every occurrence of `x`; returns how many there were.
    pub(crate) fn remove_all(&mut self, x: i32) -> usize {
        let before = self.0.len();
        self.0.retain(|&v| v != x);
        before - self.0.len()
    }

    pub(crate) fn index_of(&self, x: i32) -> Option<usize> {
        self.0.iter().position(|&e| e == x)
    }

    pub(crate) fn last_index_of(&self, x: i32) -> Option<usize> {
        self.0.iter().rposition(|&e| e == x)
    }

    pub(crate) fn contains(&self, x: i32) -> bool {
        self.0.contains(&x)
    }

    pub(crate) fn count(&self, x: i32) -> usize {
        self.0.iter().filter(|&&v| v == x).count()
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    pub(crate) fn to_vec(&self) -> Vec<i32> {
        self.0.iter().copied().collect()
    }

    fn out_of_bounds(&self, index: usize) -> ListError {
        ListError::IndexOutOfBounds { index, size: self.0.len() }
    }
}
