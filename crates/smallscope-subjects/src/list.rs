//! What the list subjects (`sll`, `dll`, `sorted-list`, `ncl`) share: the
//! misuse error and Java's index checks. Each subject re-exports
//! [`ListError`] as its own.

/// A call that Java would answer with `IndexOutOfBoundsException` or
/// `NoSuchElementException`: API misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListError {
    IndexOutOfBounds { index: usize, size: usize },
    NoSuchElement,
}

/// Java's `checkElementIndex`: `index` must name an element, `0..size`.
pub(crate) fn check_element_index(index: usize, size: usize) -> Result<(), ListError> {
    if index < size {
        Ok(())
    } else {
        Err(ListError::IndexOutOfBounds { index, size })
    }
}

/// Java's `checkPositionIndex`: `index` must be a position between elements, `0..=size`.
pub(crate) fn check_position_index(index: usize, size: usize) -> Result<(), ListError> {
    if index <= size {
        Ok(())
    } else {
        Err(ListError::IndexOutOfBounds { index, size })
    }
}
