//! Parameters of another subject's type take that subject's own
//! structures, and two types whose APIs take each other do not send the
//! engines round in circles: where the cycle closes, an operation gets no
//! values and is not called.

use smallscope::{Beapi, Builders, Heap};

/// A counter that `bump` raises to 2, and that can take a [`Right`]'s value.
#[derive(Heap, Clone, Debug, Default)]
pub struct Left {
    n: u8,
}

/// A value `set` puts at 10 or more, or one more than a [`Left`]'s.
#[derive(Heap, Clone, Debug, Default)]
pub struct Right {
    n: u8,
}

#[derive(Debug)]
pub struct AtMost;

#[smallscope::api(name = "test-left")]
impl Left {
    pub fn new() -> Self {
        Left::default()
    }

    pub fn bump(&mut self) -> Result<(), AtMost> {
        if self.n >= 2 {
            return Err(AtMost);
        }
        self.n += 1;
        Ok(())
    }

    pub fn take(&mut self, right: &Right) {
        self.n = right.n;
    }

    pub fn get(&self) -> u8 {
        self.n
    }
}

#[smallscope::api(name = "test-right")]
impl Right {
    pub fn new() -> Self {
        Right::default()
    }

    pub fn set(&mut self, value: u8) {
        self.n = 10 + value;
    }

    pub fn follow(&mut self, left: &mut Left) {
        self.n = left.n + 1;
    }
}

fn all() -> Builders {
    Builders::All
}

/// `Left` at scope 3: `bump` makes 0, 1, 2 (`get` makes nothing). Its `take(&Right)` gets the
/// `Right`s made without `follow(&Left)`, which would close the cycle:
/// 0, 10, 11, 12. So 0, 1, 2, 10, 11, 12.
#[test]
fn the_cycle_closes_without_values() {
    let left = Beapi::<Left>::new().scope(3).builders(all()).run().unwrap();
    assert_eq!(left.structure_count(), 6, "{:#?}", left.structures);
    let note = left.notes.iter().find(|n| n.contains("Right")).expect("a note on `&Right`");
    assert!(note.contains("its 4 structures at scope 3"), "{note}");
    assert!(note.contains("gets no values") && note.contains("cycle"), "{note}");
}

/// `Right` at scope 3: `set` makes 10, 11, 12 and `new` 0; `follow(&mut
/// Left)` gets the three `Left`s made without `take(&Right)`: 1, 2, 3.
#[test]
fn each_side_of_a_cycle_counts_from_its_own_side() {
    let right = Beapi::<Right>::new().scope(3).builders(all()).run().unwrap();
    assert_eq!(right.structure_count(), 7, "{:#?}", right.structures);
}

/// The random engine draws its `Right`s from their structures at its
/// `other_scope`, and its regression tests pass them as blocks of calls.
#[test]
fn random_passes_other_structures() {
    let report = smallscope::random::Random::<Left>::new().seed(1).sequences(500).run().unwrap();
    assert!(report.failure_groups.is_empty(), "{:#?}", report.failure_groups);
    let takes: Vec<&str> =
        report.regression_tests.iter().map(|t| t.sequence.as_str()).filter(|s| s.contains("take(&{")).collect();
    assert!(!takes.is_empty(), "{:#?}", report.regression_tests);
}
