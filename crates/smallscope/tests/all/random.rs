//! Integration tests of directed random testing (`smallscope::random`).
//!
//! Expected numbers come from facts computed here: the reachable states of
//! small subjects, and a brute force over call sequences for the shortest
//! failing one. Sections: 1 contracts, 2 index pruning, 3 simplification,
//! 4 determinism and emission, 5 configuration errors.

#![allow(clippy::new_without_default, clippy::len_without_is_empty)]

use std::collections::BTreeSet;
use std::sync::Mutex;

use smallscope::emit::{random_error_tests, random_regression_tests, RandomTestOptions};
use smallscope::random::{Contract, IndexPruning, Random, RandomConfig, RandomReport};
use smallscope::{ConfigError, Heap, RunError};

fn run<T: smallscope::Subject + smallscope::api::StdTraits>(sequences: u64, seed: u64) -> RandomReport {
    Random::<T>::new().sequences(sequences).seed(seed).run().unwrap()
}

fn contracts_broken(report: &RandomReport) -> BTreeSet<String> {
    report.failure_groups.iter().filter_map(|g| g.contract.clone()).collect()
}

// ===========================================================================
// 1. Contracts: each standard law, broken on purpose, is reported; a type
//    that keeps them all is not.
// ===========================================================================

/// A correct bounded counter with every standard trait.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counter {
    n: u8,
}

#[smallscope::api(name = "test-random-counter", rep_ok = rep_ok)]
impl Counter {
    pub fn new() -> Self {
        Counter { n: 0 }
    }
    pub fn inc(&mut self) -> Result<(), &'static str> {
        if self.n == 5 {
            return Err("full");
        }
        self.n += 1;
        Ok(())
    }
    pub fn dec(&mut self) -> Result<(), &'static str> {
        self.n = self.n.checked_sub(1).ok_or("empty")?;
        Ok(())
    }
    pub fn get(&self) -> u8 {
        self.n
    }
    pub fn rep_ok(&self) -> bool {
        self.n <= 5
    }
}

#[test]
fn a_type_that_keeps_every_law_has_no_failures() {
    let report = run::<Counter>(3_000, 1);
    assert!(report.failure_groups.is_empty(), "{:?}", report.failure_groups);
    for law in ["rep-ok", "debug-does-not-panic", "eq-reflexive", "eq-symmetric", "hash-agrees-with-eq"] {
        assert!(report.contracts.iter().any(|c| c == law), "{law} missing from {:?}", report.contracts);
    }
    for law in ["clone-is-equal", "ord-consistent", "ord-transitive"] {
        assert!(report.contracts.iter().any(|c| c == law), "{law} missing");
    }
}

/// Breaks `Hash`/`Eq`: equality ignores `noise`, the hash does not.
#[derive(Heap, Clone, Debug)]
pub struct NoisyHash {
    n: u8,
    noise: u8,
}

impl PartialEq for NoisyHash {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n
    }
}
impl Eq for NoisyHash {}
impl std::hash::Hash for NoisyHash {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.n, self.noise).hash(state);
    }
}

#[smallscope::api(name = "test-random-noisy-hash")]
impl NoisyHash {
    pub fn new() -> Self {
        NoisyHash { n: 0, noise: 0 }
    }
    pub fn stir(&mut self) {
        self.noise = self.noise.wrapping_add(1) % 3;
    }
}

#[test]
fn hash_that_disagrees_with_eq_is_reported() {
    let report = run::<NoisyHash>(2_000, 2);
    assert_eq!(contracts_broken(&report), BTreeSet::from(["hash-agrees-with-eq".to_owned()]));
    let group = &report.failure_groups[0];
    // Shortest: a = new(); b = new(); b.stir() (3 calls), found by the pair check.
    assert_eq!(group.witness.calls, 3, "{}", group.witness.text);
    assert_eq!(group.assertion.len(), 2);
}

/// Breaks `Eq` reflexivity (at 2) and `Clone` (at 1).
#[derive(Heap, Debug)]
pub struct Unlawful {
    n: u8,
}

impl PartialEq for Unlawful {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.n != 2
    }
}
impl Eq for Unlawful {}
impl Clone for Unlawful {
    fn clone(&self) -> Self {
        Unlawful { n: if self.n == 1 { 3 } else { self.n } }
    }
}

#[smallscope::api(name = "test-random-unlawful")]
impl Unlawful {
    pub fn new() -> Self {
        Unlawful { n: 0 }
    }
    /// n = 1: its clone differs.
    pub fn one(&mut self) {
        self.n = 1;
    }
    /// n = 2: not equal to itself.
    pub fn two(&mut self) {
        self.n = 2;
    }
}

#[test]
fn reflexivity_and_clone_laws_are_checked() {
    let broken = contracts_broken(&run::<Unlawful>(2_000, 3));
    assert!(broken.contains("eq-reflexive"), "{broken:?}");
    assert!(broken.contains("clone-is-equal"), "{broken:?}");
}

/// `Ord` that is not antisymmetric and disagrees with `Eq`.
#[derive(Heap, Clone, Debug, PartialEq, Eq)]
pub struct BadOrder {
    n: u8,
}

impl PartialOrd for BadOrder {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for BadOrder {
    fn cmp(&self, _other: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Less
    }
}

#[smallscope::api(name = "test-random-bad-order")]
impl BadOrder {
    pub fn new() -> Self {
        BadOrder { n: 0 }
    }
    pub fn inc(&mut self) {
        self.n = (self.n + 1) % 3;
    }
}

#[test]
fn inconsistent_ord_is_reported() {
    let broken = contracts_broken(&run::<BadOrder>(2_000, 4));
    assert!(broken.contains("ord-consistent"), "{broken:?}");
}

/// A panic in `Debug` is a broken contract, not a crash.
#[derive(Heap, Clone)]
pub struct ShyDebug {
    n: u8,
}

impl std::fmt::Debug for ShyDebug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        assert!(self.n < 3, "too big to show");
        write!(f, "ShyDebug({})", self.n)
    }
}

#[smallscope::api(name = "test-random-shy-debug")]
impl ShyDebug {
    pub fn new() -> Self {
        ShyDebug { n: 0 }
    }
    pub fn inc(&mut self) {
        self.n = (self.n + 1) % 5;
    }
}

#[test]
fn panicking_debug_is_reported_with_its_location() {
    let report = run::<ShyDebug>(2_000, 5);
    let group =
        report.failure_groups.iter().find(|g| g.contract.as_deref() == Some("debug-does-not-panic")).expect("found");
    assert!(group.message.contains("too big to show"), "{}", group.message);
    assert!(group.location.as_deref().is_some_and(|l| l.contains("tests/all/random.rs")), "{:?}", group.location);
    // new(); inc(); inc(); inc() is the shortest way to n = 3.
    assert_eq!(group.witness.calls, 4, "{}", group.witness.text);
}

/// A user contract, added through the builder.
struct AtMostFour;

impl Contract<Counter> for AtMostFour {
    fn name(&self) -> &str {
        "at-most-four"
    }
    fn check_value(&self, value: &Counter) -> Result<(), String> {
        if value.get() <= 4 {
            Ok(())
        } else {
            Err(format!("{} is more than four", value.get()))
        }
    }
}

#[test]
fn a_user_contract_fails_with_the_shortest_sequence() {
    let report = Random::<Counter>::new().sequences(3_000).seed(6).contract(AtMostFour).run().unwrap();
    assert_eq!(contracts_broken(&report), BTreeSet::from(["at-most-four".to_owned()]));
    let group = &report.failure_groups[0];
    assert_eq!(group.witness.calls, 6, "new + 5 incs: {}", group.witness.text);
    assert_eq!(group.operation.as_deref(), Some("inc"));
    assert!(group.assertion[0].contains("assert_contract"), "{:?}", group.assertion);
}

/// `Clone` panics at 2: user code the engine calls itself.
#[derive(Heap, Debug)]
pub struct BrittleClone {
    n: u8,
}

impl Clone for BrittleClone {
    fn clone(&self) -> Self {
        assert!(self.n != 2, "cannot copy a two");
        BrittleClone { n: self.n }
    }
}

#[smallscope::api(name = "test-random-brittle-clone")]
impl BrittleClone {
    pub fn new() -> Self {
        BrittleClone { n: 0 }
    }
    pub fn inc(&mut self) {
        self.n = (self.n + 1) % 4;
    }
}

#[test]
fn a_panicking_clone_is_a_failure_and_the_run_goes_on() {
    let report = run::<BrittleClone>(3_000, 9);
    // Four states, three of them reusable: everything it can assemble is made
    // long before the limit, and the run says so.
    assert_eq!(report.stop, Some(smallscope::events::Stop::Stuck));
    let messages: Vec<&str> = report.failure_groups.iter().map(|g| g.message.as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("cannot copy a two")), "{messages:?}");
}

// ===========================================================================
// 2. Index pruning
// ===========================================================================

#[test]
fn heap_pruning_stores_one_sequence_per_reachable_state() {
    // Counter states are 0..=5; each is new exactly once.
    let report = run::<Counter>(5_000, 7);
    assert_eq!(report.stored, 6);
    let unpruned = Random::<Counter>::with_config(RandomConfig {
        sequence_limit: Some(5_000),
        seed: 7,
        index_pruning: IndexPruning::Off,
        ..RandomConfig::default()
    })
    .run()
    .unwrap();
    assert!(unpruned.stored > 100, "{}", unpruned.stored);
}

/// A singly linked chain of at most six links.
#[derive(Heap, Clone, Debug)]
pub struct Chain {
    head: Option<Box<Link>>,
    len: u8,
}

#[derive(Heap, Clone, Debug)]
pub struct Link {
    next: Option<Box<Link>>,
}

#[smallscope::api(name = "test-random-chain")]
impl Chain {
    pub fn new() -> Self {
        Chain { head: None, len: 0 }
    }
    pub fn push(&mut self) -> Result<(), &'static str> {
        if self.len == 6 {
            return Err("full");
        }
        self.head = Some(Box::new(Link { next: self.head.take() }));
        self.len += 1;
        Ok(())
    }
    pub fn len(&self) -> u8 {
        self.len
    }
}

#[test]
fn the_largest_stored_structure_is_counted_in_objects() {
    // A chain of k links is k + 1 objects; `new` and six pushes make the
    // longest, and the counter is its root alone.
    assert_eq!(run::<Chain>(2_000, 3).largest_structure, 7);
    assert_eq!(run::<Counter>(2_000, 3).largest_structure, 1);
    // Stored sequences have at most 4 calls: `new` and three pushes.
    let short = RandomConfig { sequence_limit: Some(2_000), seed: 3, max_length: 4, ..RandomConfig::default() };
    assert_eq!(Random::<Chain>::with_config(short).run().unwrap().largest_structure, 4);
}

static ARGUMENTS: Mutex<BTreeSet<i64>> = Mutex::new(BTreeSet::new());

/// Returns a large number; `absorb` records the largest argument it gets.
#[derive(Heap, Clone, Debug)]
pub struct Sink {
    total: i64,
}

#[smallscope::api(name = "test-random-sink")]
impl Sink {
    pub fn new() -> Self {
        Sink { total: 0 }
    }
    pub fn large(&self) -> i64 {
        1_000_000
    }
    pub fn small(&self) -> i64 {
        42
    }
    pub fn absorb(&mut self, x: i64) {
        ARGUMENTS.lock().unwrap().insert(x);
        self.total = self.total.wrapping_add(x) % 1000;
    }
}

#[test]
fn returned_integers_are_reused_unless_large() {
    run::<Sink>(5_000, 8);
    // 42 is not a seed value, so it came back from `small`; 1_000_000 never does.
    let seeds = RandomConfig::default().ints;
    assert!(!seeds.contains(&42));
    let arguments = ARGUMENTS.lock().unwrap();
    assert!(arguments.contains(&42), "{arguments:?}");
    assert!(!arguments.contains(&1_000_000), "{arguments:?}");
}

// ===========================================================================
// 3. Simplification
// ===========================================================================

/// Panics on `pop` when exactly three pushes are stored and the top is 2.
#[derive(Heap, Clone, Debug)]
pub struct Fragile {
    items: Vec<i64>,
}

#[smallscope::api(name = "test-random-fragile")]
impl Fragile {
    pub fn new() -> Self {
        Fragile { items: Vec::new() }
    }
    pub fn push(&mut self, x: i64) -> Result<(), &'static str> {
        if !(0..=3).contains(&x) || self.items.len() >= 6 {
            return Err("out of range");
        }
        self.items.push(x);
        Ok(())
    }
    pub fn pop(&mut self) -> Option<i64> {
        if self.items.len() == 3 && self.items[2] == 2 {
            panic!("fragile pop");
        }
        self.items.pop()
    }
    pub fn shuffle(&mut self) {
        self.items.reverse();
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
}

/// The shortest failing sequence of a model of `Fragile`, by breadth-first
/// search over (calls, items).
fn shortest_fragile_failure() -> usize {
    let mut level: Vec<Vec<i64>> = vec![Vec::new()];
    let mut seen = BTreeSet::from([Vec::new()]);
    for calls in 2.. {
        let mut next = Vec::new();
        for items in &level {
            if items.len() == 3 && items[2] == 2 {
                return calls; // new + the calls so far + pop
            }
            let mut successors = vec![];
            for x in 0..=3 {
                if items.len() < 6 {
                    let mut pushed = items.clone();
                    pushed.push(x);
                    successors.push(pushed);
                }
            }
            let mut popped = items.clone();
            popped.pop();
            successors.push(popped);
            successors.push(items.iter().rev().copied().collect());
            for s in successors {
                if seen.insert(s.clone()) {
                    next.push(s);
                }
            }
        }
        level = next;
    }
    unreachable!()
}

#[test]
fn simplification_reaches_the_shortest_failing_sequence() {
    let shortest = shortest_fragile_failure();
    assert_eq!(shortest, 5);
    for seed in 0..4 {
        let report = run::<Fragile>(20_000, seed);
        let group = report.failure_groups.iter().find(|g| g.contract.as_deref() == Some("no-panic")).expect("found");
        assert_eq!(group.witness.calls, shortest, "seed {seed}: {}", group.witness.text);
        assert!(group.shrink.unwrap().smallest >= group.witness.calls);
        // The literals were simplified towards 0 where the failure allows it.
        assert!(group.witness.text.ends_with("s0.push(2); s0.pop()"), "{}", group.witness.text);
    }
}

/// A stack of bytes whose `pop` panics on a large top; `push` takes a `u8`.
#[derive(Heap, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bytes {
    items: Vec<u8>,
}

#[smallscope::api(name = "test-random-bytes")]
impl Bytes {
    pub fn new() -> Self {
        Bytes { items: Vec::new() }
    }
    pub fn push(&mut self, x: u8) {
        self.items.push(x);
    }
    pub fn pop(&mut self) -> Option<u8> {
        assert!(self.items.last().is_none_or(|&top| top < 100), "a large top");
        self.items.pop()
    }
}

#[test]
fn simplified_literals_fit_their_parameter_type() {
    // Of the default integers {-1, 0, 1, 2, 3, 10, 100}, only 100 breaks `pop`
    // as a `u8`; -1 is simpler, but no `u8` (it would be 255 if cast).
    let report = run::<Bytes>(5_000, 1);
    let group = report.failure_groups.iter().find(|g| g.contract.as_deref() == Some("no-panic")).expect("found");
    assert_eq!(group.witness.text, "s0 = new(); s0.push(100); s0.pop()");
}

#[test]
fn without_simplification_the_found_sequence_is_kept() {
    let config = RandomConfig { sequence_limit: Some(20_000), seed: 1, simplify: false, ..RandomConfig::default() };
    let report = Random::<Fragile>::with_config(config).run().unwrap();
    let group = &report.failure_groups[0];
    assert_eq!(group.shrink.unwrap().smallest, group.witness.calls);
}

// ===========================================================================
// 4. Determinism and emission
// ===========================================================================

fn emitted(report: &RandomReport) -> (String, String) {
    let options =
        RandomTestOptions { command: "smallscope random x".into(), subject: "x".into(), ..Default::default() };
    (random_error_tests(report, &options), random_regression_tests(report, &options))
}

#[test]
fn same_seed_and_count_give_identical_files() {
    let a = emitted(&run::<Fragile>(10_000, 11));
    let b = emitted(&run::<Fragile>(10_000, 11));
    assert_eq!(a, b);
    let c = emitted(&run::<Fragile>(10_000, 12));
    assert_ne!(a.1, c.1);
}

/// A run of `K` streams is the `K` one-stream runs of seeds `seed..seed+K`
/// with the limits shared out, put together: checked against those runs,
/// made here one by one, and grouped here by what broke and where.
#[test]
fn streams_are_one_stream_runs_put_together_in_order() {
    let (seed, streams, sequences) = (21, 3u32, 3_001);
    let config = RandomConfig { seed, streams, sequence_limit: Some(sequences), ..RandomConfig::default() };
    let merged = Random::<Unlawful>::with_config(config).run().unwrap();
    let one: Vec<RandomReport> = (0..streams)
        .map(|s| {
            let portion = 1_000 + u64::from(s == 0);
            let tests = [67, 67, 66][s as usize];
            let config = RandomConfig {
                seed: seed + u64::from(s),
                sequence_limit: Some(portion),
                regression_tests: tests,
                ..RandomConfig::default()
            };
            Random::<Unlawful>::with_config(config).run().unwrap()
        })
        .collect();
    // `Unlawful` has few states: each stream gets stuck before its limit.
    assert_eq!(merged.sequences, one.iter().map(|r| r.sequences).sum::<u64>());
    assert_eq!(merged.stop, one[0].stop);
    assert_eq!(merged.stored, one.iter().map(|r| r.stored).sum::<u64>());
    assert_eq!(merged.illegal, one.iter().map(|r| r.illegal).sum::<u64>());
    let tests: Vec<&str> = one.iter().flat_map(|r| &r.regression_tests).map(|t| t.sequence.as_str()).collect();
    assert_eq!(merged.regression_tests.iter().map(|t| t.sequence.as_str()).collect::<Vec<_>>(), tests);
    // Groups in the order the streams found them; counts added; the shortest witness.
    let mut groups: Vec<(Option<String>, Option<String>, u64, usize)> = Vec::new();
    for failure in one.iter().flat_map(|r| &r.failure_groups) {
        let known = groups.iter_mut().find(|g| (&g.0, &g.1) == (&failure.contract, &failure.location));
        match known {
            Some(group) => {
                group.2 += failure.count;
                group.3 = group.3.min(failure.witness.calls);
            }
            None => {
                groups.push((failure.contract.clone(), failure.location.clone(), failure.count, failure.witness.calls))
            }
        }
    }
    let got: Vec<_> = merged
        .failure_groups
        .iter()
        .map(|f| (f.contract.clone(), f.location.clone(), f.count, f.witness.calls))
        .collect();
    assert_eq!(got, groups);
    assert!(got.len() >= 2, "{got:?}");
    // Each group's replay names the stream that found its witness.
    for failure in &merged.failure_groups {
        assert!(failure.replay.is_none(), "a run from the library has no command to repeat");
    }
    // Too few sequences for the streams, and the branch phase, are refused.
    let few = RandomConfig { streams: 4, sequence_limit: Some(3), ..RandomConfig::default() };
    assert!(Random::<Unlawful>::with_config(few).run().is_err());
}

#[test]
fn emitted_tests_have_descriptive_names_and_assertions() {
    let report = run::<Fragile>(10_000, 13);
    let (errors, regressions) = emitted(&report);
    assert!(errors.contains("fn pop_after_"), "{errors}");
    assert!(errors.contains("_panics()"), "{errors}");
    assert!(errors.contains("type Subject = Fragile;"), "{errors}");
    assert!(regressions.contains("assert_eq!("), "{regressions}");
    assert!(!regressions.contains("fn test"), "{regressions}");
}

/// Observers whose renderings vary between executions: a `HashSet` (its
/// order comes from a per-instance random seed) and an address.
#[derive(Heap, Clone, Debug)]
pub struct Fickle {
    items: Vec<u8>,
}

#[smallscope::api(name = "test-random-fickle")]
impl Fickle {
    pub fn new() -> Self {
        Fickle { items: Vec::new() }
    }
    pub fn push(&mut self, x: u8) {
        if self.items.len() < 8 {
            self.items.push(x);
        }
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn as_set(&self) -> std::collections::HashSet<u8> {
        self.items.iter().copied().collect()
    }
    pub fn address(&self) -> String {
        format!("{:p}", Box::new(self.items.len()))
    }
}

#[test]
fn renderings_that_vary_between_executions_are_not_asserted() {
    let config = RandomConfig {
        sequence_limit: Some(3_000),
        seed: 14,
        ints: vec![1, 2, 3, 4, 5, 6, 7],
        ..RandomConfig::default()
    };
    let report = Random::<Fickle>::with_config(config).run().unwrap();
    let (_, regressions) = emitted(&report);
    assert!(regressions.contains(".len(), "), "{regressions}");
    assert!(!regressions.contains("0x"), "an address is asserted:\n{regressions}");
    // A set of three or more elements renders in a per-instance random order.
    let asserted_sets: Vec<&str> =
        regressions.lines().filter(|l| l.contains(".as_set()") && l.contains("assert")).collect();
    for line in &asserted_sets {
        let expected = line.rsplit('"').nth(1).unwrap_or("");
        assert!(expected.matches(',').count() <= 1, "a set of three or more is asserted: {line}");
    }
}

// ===========================================================================
// 5. Configuration errors
// ===========================================================================

/// No constructor: nothing can be made.
#[derive(Heap, Clone, Debug)]
pub struct Orphan {
    n: u8,
}

#[smallscope::api(name = "test-random-orphan")]
impl Orphan {
    pub fn inc(&mut self) {
        self.n += 1;
    }
}

#[test]
fn bad_configuration_is_refused_with_a_clear_error() {
    let err = Random::<Orphan>::new().sequences(10).run().unwrap_err();
    assert!(matches!(err, RunError::Config(ConfigError::SubjectWithoutConstructor)), "{err}");
    let err = Random::<Counter>::new().time_limit(std::time::Duration::ZERO).run().unwrap_err();
    assert!(err.to_string().contains("time limit"), "{err}");
    let err = Random::<Counter>::new().sequences(0).run().unwrap_err();
    assert!(err.to_string().contains("sequence limit"), "{err}");
    let config = RandomConfig { repeat_probability: 1.5, ..RandomConfig::default() };
    assert!(Random::<Counter>::with_config(config).run().is_err());
    let config = RandomConfig { misuse_panics: vec!["(".into()], ..RandomConfig::default() };
    assert!(matches!(Random::<Counter>::with_config(config).run(), Err(RunError::Config(ConfigError::Invalid(_)))));
}

// ===========================================================================
// 6. Branch-directed generation, where no coverage can be had (this test
//    binary is not instrumented): it says so, and confirms nothing.
// ===========================================================================

#[test]
fn branch_without_coverage_is_refused_and_flips_are_not_confirmed() {
    let config = RandomConfig { branch: true, sequence_limit: Some(100), ..RandomConfig::default() };
    match Random::<Counter>::with_config(config).run() {
        Err(RunError::Config(ConfigError::Invalid(why))) => assert!(why.contains("coverage"), "{why}"),
        other => panic!("expected a refusal, got {:?}", other.map(|r| r.sequences)),
    }
    // A flip is confirmed only when its run takes one of its edges: here
    // no run takes any, so none is, however it ran.
    let program = smallscope::sequence::Program {
        calls: vec![smallscope::sequence::Call { op: 0, operands: vec![], binds: Some(0) }],
        result: None,
    };
    let confirm = vec![
        smallscope::random::FlipToConfirm { program: program.clone(), edges: vec![1] },
        smallscope::random::FlipToConfirm { program, edges: vec![] },
    ];
    let config = RandomConfig { confirm, sequence_limit: Some(100), ..RandomConfig::default() };
    let report = Random::<Counter>::with_config(config).run().unwrap();
    assert_eq!(report.confirmed, [false, false]);
    assert_eq!(report.sequences, 0);
}
