//! BEAPI tests the whole API (the paper's §3): builders make the
//! structures, every other operation is called on each of them with every
//! argument of its domains, and what it makes is checked. Also what the
//! scope bounds besides objects (collections, strings) and the notes a run
//! gives about its bounds and merges.
//!
//! Every expected number comes from a model written here: bags as sorted
//! `Vec<u8>`s, enumerated by plain loops, with the planted bug's effect
//! modelled apart from the subject's code.

#![allow(clippy::new_without_default)]

use std::collections::BTreeSet;

use smallscope::events::{During, FailureKind};
use smallscope::{Beapi, BeapiReport, Builders, Check};

/// A sorted bag of keys, built by `insert`. Two planted bugs, both in
/// operations that build nothing new: `remove` of the largest key of a bag
/// of three or more swaps it to the front instead of removing it (the bag is
/// then unsorted, unless its keys were equal), and `max` of an empty bag panics.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Bag {
    items: Vec<u8>,
}

#[derive(Debug)]
pub struct Missing;

#[smallscope::api(name = "whole-api-bag", rep_ok = rep_ok)]
impl Bag {
    pub fn new() -> Self {
        Bag { items: Vec::new() }
    }

    pub fn insert(&mut self, x: u8) {
        let at = self.items.partition_point(|&k| k <= x);
        self.items.insert(at, x);
    }

    /// `Err` (misuse) when `x` is not in the bag.
    pub fn remove(&mut self, x: u8) -> Result<(), Missing> {
        let i = self.items.iter().position(|&k| k == x).ok_or(Missing)?;
        buggy_remove(&mut self.items, i);
        Ok(())
    }

    pub fn count(&self, x: u8) -> usize {
        self.items.iter().filter(|&&k| k == x).count()
    }

    pub fn max(&self) -> u8 {
        *self.items.last().unwrap()
    }

    pub fn rep_ok(&self) -> bool {
        self.items.windows(2).all(|w| w[0] <= w[1])
    }
}

/// `remove` at position `i`, with the planted bug. The model uses it on
/// plain vectors: it is the bug's definition, not the subject.
fn buggy_remove(items: &mut Vec<u8>, i: usize) {
    if i + 1 == items.len() && i >= 2 {
        items.swap(0, i);
        items.pop();
    } else {
        items.remove(i);
    }
}

/// Every bag of at most `n` keys over `0..k`, as sorted vectors.
fn bags(n: usize, k: u8) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::<u8>::new()];
    for _ in 0..n {
        last = last
            .iter()
            .flat_map(|bag| {
                let from = bag.last().copied().unwrap_or(0);
                (from..k).map(move |x| [bag.clone(), vec![x]].concat())
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

fn sorted(items: &[u8]) -> bool {
    items.windows(2).all(|w| w[0] <= w[1])
}

fn index_of(report: &BeapiReport, name: &str) -> usize {
    report.operations.iter().position(|op| op.name == name).expect("an operation")
}

#[test]
fn every_operation_that_is_not_a_builder_is_called_on_every_structure() {
    let (scope, k) = (3usize, 3u8);
    let report = Beapi::<Bag>::new().scope(scope as u32).builders(names(&["new", "insert"])).run().unwrap();
    let model = bags(scope, k);
    assert_eq!(model.len(), 20, "C(6, 3) bags of at most 3 keys over 3 values");
    assert_eq!(report.structure_count(), model.len());
    assert_eq!(report.checked, ["remove", "count", "max"]);

    // Each checked operation ran on every structure with every argument.
    let structures = model.len() as u64;
    assert_eq!(report.calls_of(index_of(&report, "count")), (structures * u64::from(k), 0));
    assert_eq!(report.calls_of(index_of(&report, "max")), (structures, 0));
    let absent: u64 = model.iter().map(|bag| (0..k).filter(|x| !bag.contains(x)).count() as u64).sum();
    assert_eq!(report.calls_of(index_of(&report, "remove")), (structures * u64::from(k), absent));
    assert_eq!(report.checked_calls, structures * (2 * u64::from(k) + 1));
    // The builders' own calls are counted apart.
    let inserts = report.calls_of(index_of(&report, "insert")).0;
    assert_eq!(report.explored, 1 + inserts);

    // What `remove` makes is checked, never kept: the failing inputs are
    // the (bag, key) pairs the bug leaves unsorted.
    let broken: Vec<(&Vec<u8>, u8)> = (model.iter())
        .flat_map(|bag| (0..k).map(move |x| (bag, x)))
        .filter(|(bag, x)| {
            let Some(i) = bag.iter().position(|k| k == x) else { return false };
            let mut after = (*bag).clone();
            buggy_remove(&mut after, i);
            !sorted(&after)
        })
        .collect();
    let group = report.failures.iter().find(|f| f.operation.as_deref() == Some("remove")).expect("remove's bug");
    assert_eq!((group.kind, group.during), (FailureKind::RepOkFalse, During::RepOk));
    assert_eq!(group.count, broken.len() as u64);
    // The witness: the shortest bag that breaks, built by its inserts, then the call.
    let shortest = broken.iter().map(|(bag, _)| bag.len()).min().unwrap();
    assert_eq!(group.witness.calls, 1 + shortest + 1, "{}", group.witness.text);
    let (built, call) = group.witness.text.rsplit_once("; ").unwrap();
    assert!(call.starts_with("s0.remove("), "{}", group.witness.text);
    // The witness is one of the failing inputs: its bag, built by inserts, and the key.
    let bag: Vec<u8> = built.split("; ").skip(1).map(|c| c["s0.insert(".len()..c.len() - 1].parse().unwrap()).collect();
    let key: u8 = call["s0.remove(".len()..call.len() - 1].parse().unwrap();
    let mut sorted_bag = bag.clone();
    sorted_bag.sort_unstable();
    assert!(broken.contains(&(&sorted_bag, key)), "{}", group.witness.text);

    let empty = report.failures.iter().find(|f| f.operation.as_deref() == Some("max")).expect("max's panic");
    assert_eq!((empty.kind, empty.count), (FailureKind::Panic, 1));
    assert_eq!(empty.witness.text, "s0 = new(); s0.max()");
    assert_eq!(report.failures.len(), 2, "{:?}", report.failures);
    // Nothing a checked call made was kept.
    assert!(report.structures.iter().all(|s| report.operations[usize::from(s.step.op)].name != "remove"));
}

#[test]
fn checks_can_be_narrowed_or_turned_off() {
    let run =
        |check: Check| Beapi::<Bag>::new().scope(3).builders(names(&["new", "insert"])).check(check).run().unwrap();
    let none = run(Check::None);
    assert!(none.failures.is_empty() && none.checked.is_empty() && none.checked_calls == 0);
    assert_eq!(none.calls_of(index_of(&none, "remove")), (0, 0));
    let count_only = run(Check::Named(vec!["count".into(), "insert".into()]));
    // A builder named to check is run as a builder only.
    assert_eq!(count_only.checked, ["count"]);
    assert!(count_only.failures.is_empty());
    assert_eq!(count_only.structure_count(), none.structure_count());
    let unknown = Beapi::<Bag>::new().builders(names(&["new", "insert"])).check(Check::Named(vec!["pop".into()])).run();
    let error = unknown.unwrap_err().to_string();
    assert!(error.contains("unknown method `pop`") && error.contains("remove"), "{error}");
    // With every operation a builder, nothing is left to check, and the
    // bugs are found as the builders' own failures.
    let all = Beapi::<Bag>::new().scope(3).builders(Builders::All).run().unwrap();
    assert!(all.checked.is_empty() && all.checked_calls == 0);
    assert_eq!(all.failures.len(), 2, "{:?}", all.failures);
}

#[test]
fn a_collection_holds_at_most_scope_elements_and_the_run_says_so() {
    for scope in 1..=4usize {
        let report = Beapi::<Bag>::new().scope(scope as u32).ints(0..3).builders(Builders::All).run().unwrap();
        assert_eq!(report.structure_count(), bags(scope, 3).len(), "scope {scope}");
        let note = format!("field `Bag.items` holds at most {scope} elements (the scope");
        assert!(report.notes.iter().any(|n| n.contains(&note)), "{:?}", report.notes);
        // Every insert into a full bag was dropped, and the run says by which bound.
        let full = bags(scope, 3).iter().filter(|b| b.len() == scope).count() as u64;
        assert_eq!(report.out_of_scope, full * 3, "scope {scope}");
        assert!(report.notes.iter().any(|n| n.contains(&format!("`Bag.items` ({})", full * 3))), "{:?}", report.notes);
    }
    let longer = Beapi::<Bag>::new().scope(2).ints(0..3).collection_length(3).builders(Builders::All).run().unwrap();
    assert_eq!(longer.structure_count(), bags(3, 3).len());
    assert!(longer.notes.iter().any(|n| n.contains("at most 3 elements (--collection-length)")), "{:?}", longer.notes);
}

/// A word, and a fixed row of four counters: the scope bounds the word's
/// characters, never the row, whose length is its type's.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Word {
    text: String,
    row: [u8; 4],
}

#[smallscope::api(name = "whole-api-word")]
impl Word {
    pub fn new() -> Self {
        Word { text: String::new(), row: [0; 4] }
    }

    pub fn push(&mut self, c: char) {
        self.text.push(c);
        self.row[self.text.len() % 4] += 1;
    }
}

#[test]
fn strings_are_bounded_in_characters_and_arrays_not_at_all() {
    // Words over {a, b} of at most 2 characters: 1 + 2 + 4, each with its row.
    let report = Beapi::<Word>::new().scope(2).builders(Builders::All).run().unwrap();
    assert_eq!(report.structure_count(), 7);
    assert!(report.notes.iter().any(|n| n.contains("`Word.text` holds at most 2 characters")), "{:?}", report.notes);
    assert!(!report.notes.iter().any(|n| n.contains("Word.row")), "{:?}", report.notes);
}

/// A counter of hits the walk never sees: `touch` changes only it.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Touched {
    key: u8,
    #[heap(skip)]
    hits: u32,
}

#[smallscope::api(name = "whole-api-touched")]
impl Touched {
    pub fn new() -> Self {
        Touched { key: 0, hits: 0 }
    }

    pub fn set(&mut self, key: u8) {
        self.key = key;
    }

    pub fn touch(&mut self) {
        self.hits += 1;
    }
}

#[test]
fn a_merge_of_states_that_differ_in_a_skipped_field_is_told_once() {
    let report = Beapi::<Touched>::new().scope(2).builders(Builders::All).run().unwrap();
    let merges: Vec<&String> = report.notes.iter().filter(|n| n.contains("#[heap(skip)]")).collect();
    assert_eq!(merges.len(), 1, "{:?}", report.notes);
    assert!(merges[0].contains("`Touched.hits`") && merges[0].contains("`touch`"), "{}", merges[0]);
    // Without the skipping call, nothing was merged.
    let report = Beapi::<Touched>::new().scope(2).builders(names(&["new", "set"])).check(Check::None).run().unwrap();
    assert!(report.notes.iter().all(|n| !n.contains("#[heap(skip)]")), "{:?}", report.notes);
}

fn names(list: &[&str]) -> Builders {
    Builders::Named(list.iter().map(|s| s.to_string()).collect())
}

#[test]
fn structure_sets_grow_with_the_builders() {
    // Every subset of the API that has the constructor, against every superset.
    let ops = ["insert", "remove", "count", "max"];
    let run = |mask: usize| -> BTreeSet<String> {
        let mut builders = vec!["new"];
        builders.extend(ops.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, op)| *op));
        let report = Beapi::<Bag>::new()
            .scope(3)
            .builders(names(&builders))
            .check(Check::None)
            .record_canonical(true)
            .run()
            .unwrap();
        report.counted_structures().map(|(_, s)| s.canonical.clone().unwrap()).collect()
    };
    let sets: Vec<BTreeSet<String>> = (0..1 << ops.len()).map(run).collect();
    for a in 0..sets.len() {
        for b in 0..sets.len() {
            if a & b == a {
                assert!(sets[a].is_subset(&sets[b]), "builders {a:b} reach structures {b:b} does not");
            }
        }
    }
}

/// A slot of [`Generational`]: a value while in use, and a generation
/// bumped each time it is freed, which the next allocation keeps.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Slot {
    value: Option<u8>,
    generation: u8,
}

/// A bag of values in an arena of slots, whose free list says which slots
/// come back: its slots are state (a freed slot's generation shows again
/// when the slot is reused), so the free list links them.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Generational {
    #[heap(arena)]
    slots: Vec<Slot>,
    #[heap(index = "slots")]
    live: Vec<usize>,
    #[heap(omit, index = "slots")]
    free: Vec<usize>,
}

#[smallscope::api(name = "whole-api-generational")]
impl Generational {
    pub fn new() -> Self {
        Generational { slots: Vec::new(), live: Vec::new(), free: Vec::new() }
    }

    pub fn push(&mut self, value: u8) {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(Slot { value: None, generation: 0 });
                self.slots.len() - 1
            }
        };
        self.slots[slot].value = Some(value);
        self.live.push(slot);
    }

    /// Frees the newest value's slot.
    pub fn pop(&mut self) -> Result<u8, Missing> {
        let slot = self.live.pop().ok_or(Missing)?;
        self.slots[slot].generation += 1;
        self.free.push(slot);
        self.slots[slot].value.take().ok_or(Missing)
    }

    /// Frees the oldest value's slot.
    pub fn pop_oldest(&mut self) -> Result<u8, Missing> {
        if self.live.is_empty() {
            return Err(Missing);
        }
        let slot = self.live.remove(0);
        self.slots[slot].generation += 1;
        self.free.push(slot);
        self.slots[slot].value.take().ok_or(Missing)
    }
}

#[test]
fn freed_slots_a_free_list_links_are_state_and_builders_only_add_structures() {
    let key = |bag: &Generational| smallscope::heap::Linearizer::new(None).every_field().text(bag).unwrap();
    let mut bag = Generational::new();
    bag.push(1);
    bag.pop().unwrap();
    // The freed slot's generation is in the state the search keys on.
    assert!(key(&bag).contains("free: [Slot#1{value: null, generation: 1}]"), "{}", key(&bag));
    // Generations grow with every pop: sequences of at most 6 calls bound
    // the run. Within them, each set of builders makes what the model
    // makes (without the link, `new, push, pop` made 17 of its 19).
    let run = |builders: &[&str]| -> BTreeSet<String> {
        let report = Beapi::<Generational>::new()
            .scope(2)
            .ints(0..2)
            .max_length(6)
            .builders(names(builders))
            .record_canonical(true);
        let report = report.check(Check::None).run().unwrap();
        report.counted_structures().map(|(_, s)| s.canonical.clone().unwrap()).collect()
    };
    let pushes_and_pops = run(&["new", "push", "pop"]);
    let every_operation = run(&["new", "push", "pop", "pop_oldest"]);
    assert!(pushes_and_pops.is_subset(&every_operation));
    assert_eq!(pushes_and_pops.len(), generational_model(false, 6));
    assert_eq!(every_operation.len(), generational_model(true, 6));
}

/// The visible states of [`Generational`] at scope 2 within `calls` calls
/// (`new` included): live values with their generations, in order. A state
/// is its live `(value, generation)` list and its free list's generations;
/// a push past two slots is out of scope.
fn generational_model(pop_oldest: bool, calls: usize) -> usize {
    type State = (Vec<(u8, u8)>, Vec<u8>);
    let mut seen: BTreeSet<State> = BTreeSet::from([(Vec::new(), Vec::new())]);
    let mut level: Vec<State> = seen.iter().cloned().collect();
    for _ in 1..calls {
        let mut next = Vec::new();
        for (live, free) in &level {
            for value in 0..2 {
                let (mut live, mut free) = (live.clone(), free.clone());
                match free.pop() {
                    Some(generation) => live.push((value, generation)),
                    None if live.len() < 2 => live.push((value, 0)),
                    None => continue,
                }
                next.push((live, free));
            }
            let ends: &[usize] = if pop_oldest { &[0, 1] } else { &[1] };
            for &end in ends.iter().filter(|_| !live.is_empty()) {
                let (mut live, mut free) = (live.clone(), free.clone());
                let (_, generation) = if end == 0 { live.remove(0) } else { live.pop().unwrap() };
                free.push(generation + 1);
                next.push((live, free));
            }
        }
        level = next.into_iter().filter(|state| seen.insert(state.clone())).collect();
    }
    seen.iter().map(|(live, _)| live.clone()).collect::<BTreeSet<_>>().len()
}
