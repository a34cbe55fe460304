//! Integration tests of the BEAPI engine's semantics (`smallscope::beapi`).
//!
//! Every expected number here comes from a fact computed in this file: a
//! closed form over the subject's reachable states, or [`enumerate`], a small
//! brute force over call sequences of a *model* of the subject (plain `Vec`s,
//! not the subject's code). No number is copied from an earlier engine run.
//!
//! Sections: 1 execution outcomes, 2 scope, 3 parameter kinds, 4 state
//! matching and storage, 5 levels, 6 clone fast path vs replay, 7 limits,
//! 8 builders identification, 9 configuration errors, 10 generated Rust, and
//! last the bugs found (ignored tests).

#![allow(clippy::new_without_default)]

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::{Duration, Instant};

use smallscope::beapi::StateStorage;
use smallscope::builders::Method;
use smallscope::emit::{rust_tests, RustTestOptions};
use smallscope::events::{During, Failure, FailureKind, Stop};
use smallscope::runner::{Control, Observer};
use smallscope::sequence::Output;
use smallscope::{Beapi, BeapiConfig, BeapiReport, Builders, Check, ConfigError, RunError};

// ===========================================================================
// Oracles: closed forms and a brute force over model sequences.
// ===========================================================================

/// `k^from + .. + k^to`: how many key sequences have a length in `from..=to`.
fn powers(k: u64, from: u32, to: u32) -> u64 {
    (from..=to).map(|j| k.pow(j)).sum()
}

/// What one modelled call does.
#[derive(Clone, Debug)]
enum Effect<S> {
    Ok(S),
    Misuse,
    OutOfScope,
    /// Fails, in the named group (the engine's kind + message + location).
    Fail(&'static str),
}

/// Counts over every call sequence of length `1..=max_len` (no state matching).
#[derive(Debug, Default)]
struct Tally {
    /// Sequences that end in a kept structure (no misuse, in scope, no failure).
    valid: u64,
    /// Calls executed: each valid sequence shorter than `max_len` is extended by every call.
    executions: u64,
    misuses: u64,
    out_of_scope: u64,
    /// Group → (failing sequences, length of the shortest).
    failures: BTreeMap<&'static str, (u64, usize)>,
}

/// Brute force: every sequence that starts with a constructor call (`ctors`)
/// and continues with the calls `step` lists for the current model state.
fn enumerate<S: Clone>(ctors: &[Effect<S>], step: &dyn Fn(&S) -> Vec<Effect<S>>, max_len: usize) -> Tally {
    let mut tally = Tally::default();
    let record = |tally: &mut Tally, out: Effect<S>, len: usize, next: &mut Vec<S>| {
        tally.executions += 1;
        match out {
            Effect::Ok(s) => {
                tally.valid += 1;
                next.push(s);
            }
            Effect::Misuse => tally.misuses += 1,
            Effect::OutOfScope => tally.out_of_scope += 1,
            Effect::Fail(group) => {
                let entry = tally.failures.entry(group).or_insert((0, len));
                entry.0 += 1;
                entry.1 = entry.1.min(len);
            }
        }
    };
    let mut frontier = Vec::new();
    for c in ctors {
        record(&mut tally, c.clone(), 1, &mut frontier);
    }
    for len in 2..=max_len {
        let mut next = Vec::new();
        for s in &frontier {
            for out in step(s) {
                record(&mut tally, out, len, &mut next);
            }
        }
        frontier = next;
    }
    tally
}

fn names(list: &[&str]) -> Builders {
    Builders::Named(list.iter().map(|s| s.to_string()).collect())
}

/// `Seq` stacks built by `new` and `push` over `k` keys.
fn seq_stacks(scope: u32, k: u64) -> BeapiReport {
    let builders = names(&["new", "push"]);
    Beapi::<Seq>::new().check(Check::None).scope(scope).ints(0..k as i64).builders(builders).run().unwrap()
}

/// Structure `index`'s program as one line of text.
fn program_text(report: &BeapiReport, index: usize) -> String {
    report.program(index).to_text(&report.operations)
}

fn canonicals(report: &BeapiReport) -> Vec<String> {
    report.structures.iter().map(|s| s.canonical.clone().expect("record_canonical was set")).collect()
}

/// The BFS level of a BEAPI failure's witness.
fn level_of(failure: &Failure) -> u32 {
    failure.level().expect("a call")
}

/// Asserts two reports agree on everything but timing.
fn assert_same_reports(a: &BeapiReport, b: &BeapiReport, what: &str) {
    assert_eq!(a.structure_count(), b.structure_count(), "{what}: structures");
    for (i, (x, y)) in a.structures.iter().zip(&b.structures).enumerate() {
        assert_eq!((x.level, &x.step), (y.level, &y.step), "{what}: structure {i}");
    }
    let levels = |r: &BeapiReport| r.levels.iter().map(|l| (l.level, l.structures, l.explored)).collect::<Vec<_>>();
    assert_eq!(levels(a), levels(b), "{what}: levels");
    assert_eq!((a.explored, a.misuses, a.out_of_scope), (b.explored, b.misuses, b.out_of_scope), "{what}: counters");
    let failures = |r: &BeapiReport| {
        r.failures
            .iter()
            .map(|f| (f.kind, f.during, f.operation.clone(), f.message.clone(), f.count, f.witness.input.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(failures(a), failures(b), "{what}: failures");
}

// ===========================================================================
// Subjects.
// ===========================================================================

/// A list of keys as boxed cells: scope bounds its length (the root `Seq` is a class of its own).
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Cell {
    key: u8,
    next: Option<Box<Cell>>,
}

#[derive(smallscope::Heap, Clone, Debug, Default)]
pub struct Seq {
    head: Option<Box<Cell>>,
}

impl Seq {
    fn from_keys(keys: &[u8]) -> Self {
        let mut head = None;
        for &key in keys.iter().rev() {
            head = Some(Box::new(Cell { key, next: head }));
        }
        Seq { head }
    }

    fn keys(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut cell = &self.head;
        while let Some(c) = cell {
            out.push(c.key);
            cell = &c.next;
        }
        out
    }
}

#[smallscope::api(name = "engine-test-seq")]
impl Seq {
    pub fn new() -> Self {
        Seq { head: None }
    }

    pub fn single(x: u8) -> Self {
        Seq::from_keys(&[x])
    }

    /// Prepends `x`.
    pub fn push(&mut self, x: u8) {
        let next = self.head.take();
        self.head = Some(Box::new(Cell { key: x, next }));
    }

    pub fn pop(&mut self) -> Result<u8, &'static str> {
        let cell = self.head.take().ok_or("empty")?;
        self.head = cell.next;
        Ok(cell.key)
    }

    /// An observer.
    pub fn size(&self) -> usize {
        self.keys().len()
    }

    /// `self ++ other`, consuming `other`.
    pub fn absorb(&mut self, other: Self) {
        let mut keys = self.keys();
        keys.extend(other.keys());
        *self = Seq::from_keys(&keys);
    }

    /// `self ++ other`, borrowing `other`.
    pub fn append_copy(&mut self, other: &Self) {
        let mut keys = self.keys();
        keys.extend(other.keys());
        *self = Seq::from_keys(&keys);
    }

    /// Moves the head cell of `self` to the front of `other`; both change.
    pub fn give(&mut self, other: &mut Self) -> Result<(), &'static str> {
        let mut cell = self.head.take().ok_or("empty")?;
        self.head = cell.next.take();
        cell.next = other.head.take();
        other.head = Some(cell);
        Ok(())
    }

    /// A producer: a new list `x :: self`.
    pub fn with_pushed(&self, x: u8) -> Self {
        let mut keys = vec![x];
        keys.extend(self.keys());
        Seq::from_keys(&keys)
    }

    /// A producer that consumes its receiver.
    pub fn pushed(mut self, x: u8) -> Self {
        self.push(x);
        self
    }

    /// A function of two structures, without a receiver.
    pub fn concat(a: &Self, b: &Self) -> Self {
        let mut keys = a.keys();
        keys.extend(b.keys());
        Seq::from_keys(&keys)
    }
}

/// The root is itself a node: it counts against the scope of its class.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Chain {
    key: u8,
    next: Option<Box<Chain>>,
}

#[smallscope::api(name = "engine-test-chain")]
impl Chain {
    pub fn new() -> Self {
        Chain { key: 0, next: None }
    }

    /// Appends a node keyed `x` at the end.
    pub fn append(&mut self, x: u8) {
        let mut link = &mut self.next;
        while link.is_some() {
            link = &mut link.as_mut().expect("checked").next;
        }
        *link = Some(Box::new(Chain { key: x, next: None }));
    }
}

/// Misuse after mutation: the changed structure must be dropped anyway.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Guard {
    items: Vec<u8>,
}

#[smallscope::api(name = "engine-test-guard")]
impl Guard {
    pub fn new() -> Self {
        Guard { items: Vec::new() }
    }

    /// Pushes, then reports misuse for 1.
    pub fn push_or_err(&mut self, x: u8) -> Result<(), &'static str> {
        self.items.push(x);
        if x == 1 {
            return Err("one is not allowed");
        }
        Ok(())
    }

    /// Pushes, then assumes `x != 2`.
    pub fn push_assume(&mut self, x: u8) {
        self.items.push(x);
        smallscope::assume!(x != 2);
    }
}

/// Panics in three places; two of them with the same message.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Panicky {
    items: Vec<u8>,
}

#[smallscope::api(name = "engine-test-panicky")]
impl Panicky {
    pub fn new() -> Self {
        Panicky { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        if self.items.len() == 2 {
            panic!("push overflow");
        }
        self.items.push(x);
    }

    /// Does nothing on an empty stack; panics with a message naming `x` otherwise.
    pub fn poke(&mut self, x: u8) {
        if !self.items.is_empty() {
            panic!("poke {x}");
        }
    }

    /// `push` again, with its panic at another line.
    pub fn shove(&mut self, x: u8) {
        if self.items.len() == 2 {
            panic!("push overflow");
        }
        self.items.push(x);
    }
}

/// An invariant that returns false (two 1s) or panics (three items).
#[derive(smallscope::Heap, Clone, Debug)]
pub struct NoDoubleOne {
    items: Vec<u8>,
}

#[smallscope::api(name = "engine-test-no-double-one", rep_ok = rep_ok)]
impl NoDoubleOne {
    pub fn new() -> Self {
        NoDoubleOne { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        self.items.push(x);
    }

    pub fn push_front(&mut self, x: u8) {
        self.items.insert(0, x);
    }

    pub fn rep_ok(&self) -> bool {
        assert!(self.items.len() < 3, "too long");
        self.items.iter().filter(|&&x| x == 1).count() < 2
    }
}

/// Primitive-only constructors of several integer types.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Numbers {
    signed: bool,
    v: i64,
}

#[smallscope::api(name = "engine-test-numbers")]
impl Numbers {
    pub fn unsigned(n: u8) -> Self {
        Numbers { signed: false, v: i64::from(n) }
    }

    pub fn signed(n: i8) -> Self {
        Numbers { signed: true, v: i64::from(n) }
    }
}

/// bool, char, &str and String parameters.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Tagged {
    b: bool,
    c: char,
    s: String,
}

#[smallscope::api(name = "engine-test-tagged")]
impl Tagged {
    /// `c` is outside every char domain used below, so this one is always distinct.
    pub fn plain() -> Self {
        Tagged { b: false, c: '-', s: String::new() }
    }

    pub fn make(b: bool, c: char, s: &str) -> Self {
        Tagged { b, c, s: s.to_owned() }
    }

    pub fn owned(s: String) -> Self {
        Tagged { b: true, c: '+', s }
    }
}

/// A vector stack without a scope bound, for runs that only a limit stops.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Unbounded {
    items: Vec<u8>,
}

#[smallscope::api(name = "engine-test-unbounded")]
impl Unbounded {
    pub fn new() -> Self {
        Unbounded { items: Vec::new() }
    }

    pub fn push(&mut self, x: u8) {
        self.items.push(x);
    }
}

/// A stack of at most one value whose omitted counter grows with every
/// `tick`: state the scope does not bound.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Ticking {
    top: Option<u8>,
    #[heap(omit)]
    ticks: u32,
}

#[smallscope::api(name = "engine-test-ticking")]
impl Ticking {
    pub fn new() -> Self {
        Ticking { top: None, ticks: 0 }
    }

    pub fn set(&mut self, x: u8) {
        self.top = Some(x);
    }

    pub fn tick(&mut self) {
        self.ticks += 1;
    }
}

/// Two identical list types, one `Clone` (fast path) and one not (replay).
macro_rules! twin_list {
    ($list:ident, $node:ident, $name:tt $(, $derive:ident)*) => {
        #[derive(smallscope::Heap, Debug $(, $derive)*)]
        pub struct $node {
            key: u8,
            next: Option<Box<$node>>,
        }

        #[derive(smallscope::Heap, Debug $(, $derive)*)]
        pub struct $list {
            head: Option<Box<$node>>,
        }

        #[smallscope::api(name = $name)]
        impl $list {
            pub fn new() -> Self {
                $list { head: None }
            }

            pub fn push(&mut self, x: u8) {
                let next = self.head.take();
                self.head = Some(Box::new($node { key: x, next }));
            }

            pub fn pop(&mut self) -> Result<u8, &'static str> {
                let node = self.head.take().ok_or("empty")?;
                self.head = node.next;
                Ok(node.key)
            }

            pub fn give(&mut self, other: &mut Self) -> Result<(), &'static str> {
                let mut node = self.head.take().ok_or("empty")?;
                self.head = node.next.take();
                node.next = other.head.take();
                other.head = Some(node);
                Ok(())
            }
        }
    };
}

twin_list!(ClonedList, ClonedNode, "engine-test-cloned-list", Clone);
twin_list!(ReplayedList, ReplayedNode, "engine-test-replayed-list");

/// Shared nodes; `append` mutates the last node in place.
#[derive(smallscope::Heap, Debug)]
pub struct RcNode {
    key: u8,
    next: Option<Rc<RefCell<RcNode>>>,
}

type RcLink = Option<Rc<RefCell<RcNode>>>;

fn rc_append(head: &mut RcLink, key: u8) {
    let node = Rc::new(RefCell::new(RcNode { key, next: None }));
    let Some(first) = head.clone() else {
        *head = Some(node);
        return;
    };
    let mut last = first;
    loop {
        let next = last.borrow().next.clone();
        match next {
            Some(n) => last = n,
            None => break,
        }
    }
    last.borrow_mut().next = Some(node);
}

/// Derived `Clone`: copies the `Rc`, so a clone shares every node with its original.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct ShallowList {
    head: RcLink,
}

#[smallscope::api(name = "engine-test-shallow-list")]
impl ShallowList {
    pub fn new() -> Self {
        ShallowList { head: None }
    }

    pub fn append(&mut self, x: u8) {
        rc_append(&mut self.head, x);
    }
}

/// The same list with a deep `Clone`.
#[derive(smallscope::Heap, Debug)]
pub struct DeepList {
    head: RcLink,
}

impl Clone for DeepList {
    fn clone(&self) -> Self {
        let mut head = None;
        let mut node = self.head.clone();
        while let Some(n) = node {
            rc_append(&mut head, n.borrow().key);
            node = n.borrow().next.clone();
        }
        DeepList { head }
    }
}

#[smallscope::api(name = "engine-test-deep-list")]
impl DeepList {
    pub fn new() -> Self {
        DeepList { head: None }
    }

    pub fn append(&mut self, x: u8) {
        rc_append(&mut self.head, x);
    }
}

/// For builders identification: two constructors, a plain and a redundant
/// add, a remove and an observer.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct ClimbNode {
    key: u8,
    next: Option<Box<ClimbNode>>,
}

#[derive(smallscope::Heap, Clone, Debug)]
#[allow(dead_code)]
pub struct Climb {
    top: Option<Box<ClimbNode>>,
    /// Not part of the structure: `with_capacity(n)` makes the same structure as `new()`.
    #[heap(skip)]
    capacity: u8,
}

#[smallscope::api(name = "engine-test-climb")]
impl Climb {
    /// Declared first so that picking `new` shows the tie-break, not declaration order.
    pub fn with_capacity(n: u8) -> Self {
        Climb { top: None, capacity: n }
    }

    pub fn new() -> Self {
        Climb { top: None, capacity: 0 }
    }

    pub fn add(&mut self, x: u8) {
        let next = self.top.take();
        self.top = Some(Box::new(ClimbNode { key: x, next }));
    }

    /// Redundant: everything it makes, `add` makes too.
    pub fn add_twice(&mut self, x: u8) {
        self.add(x);
        self.add(x);
    }

    pub fn remove(&mut self) -> Result<u8, &'static str> {
        let node = self.top.take().ok_or("empty")?;
        self.top = node.next;
        Ok(node.key)
    }

    pub fn peek(&self) -> Option<u8> {
        self.top.as_ref().map(|n| n.key)
    }
}

/// Two adds that tie when the int domain has two values: `add_flag` has the simpler parameter.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct FlagNode {
    key: u8,
    next: Option<Box<FlagNode>>,
}

#[derive(smallscope::Heap, Clone, Debug)]
pub struct Flags {
    top: Option<Box<FlagNode>>,
}

#[smallscope::api(name = "engine-test-flags")]
impl Flags {
    pub fn new() -> Self {
        Flags { top: None }
    }

    /// Declared before `add_flag`, so picking `add_flag` on a tie is the tie-break's doing.
    pub fn add(&mut self, x: u8) {
        let next = self.top.take();
        self.top = Some(Box::new(FlagNode { key: x, next }));
    }

    pub fn add_flag(&mut self, b: bool) {
        self.add(u8::from(b));
    }
}

/// An API without a constructor.
#[derive(smallscope::Heap, Debug)]
pub struct NoCtor {
    v: u8,
}

#[smallscope::api(name = "engine-test-no-ctor")]
impl NoCtor {
    pub fn bump(&mut self) {
        self.v += 1;
    }
}

/// A counter whose `add` takes a second structure: BFS depth and sequence length differ.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Tally4 {
    v: u8,
}

#[smallscope::api(name = "engine-test-tally4")]
impl Tally4 {
    pub fn new() -> Self {
        Tally4 { v: 0 }
    }

    pub fn inc(&mut self) {
        smallscope::assume!(self.v < 4);
        self.v += 1;
    }

    pub fn add(&mut self, other: &Self) {
        smallscope::assume!(self.v + other.v <= 4);
        self.v += other.v;
    }

    pub fn check(&self) {
        if self.v == 4 {
            panic!("reached four");
        }
    }
}

/// Hidden state: `len` is omitted, so a broken and a valid value can share a canonical form.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Counted {
    items: Vec<u8>,
    #[heap(omit)]
    len: usize,
}

#[smallscope::api(name = "engine-test-counted", rep_ok = rep_ok)]
impl Counted {
    pub fn new() -> Self {
        Counted { items: Vec::new(), len: 0 }
    }

    /// Forgets to count; declared before `push`, so it runs first on each level.
    pub fn push_early_bug(&mut self, x: u8) {
        self.items.push(x);
    }

    pub fn push(&mut self, x: u8) {
        self.items.push(x);
        self.len += 1;
    }

    /// Forgets to count; declared after `push`.
    pub fn push_late_bug(&mut self, x: u8) {
        self.items.push(x);
    }

    pub fn rep_ok(&self) -> bool {
        self.items.len() == self.len
    }
}

/// Breaks a structure other than the receiver: `other`, or a returned one.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Tainted {
    items: Vec<u8>,
}

#[smallscope::api(name = "engine-test-tainted", rep_ok = rep_ok)]
impl Tainted {
    pub fn new() -> Self {
        Tainted { items: Vec::new() }
    }

    pub fn taint(&mut self, other: &mut Self) {
        let _ = &self.items;
        other.items.push(9);
    }

    pub fn tainted_copy(&self) -> Self {
        let mut copy = self.clone();
        copy.items.push(9);
        copy
    }

    pub fn rep_ok(&self) -> bool {
        !self.items.contains(&9)
    }
}

/// A counter the scope does not bound; `inc` is slow so a runaway search stays small.
#[derive(smallscope::Heap, Clone, Debug)]
pub struct Ticker {
    v: u64,
}

#[smallscope::api(name = "engine-test-ticker")]
impl Ticker {
    pub fn new() -> Self {
        Ticker { v: 0 }
    }

    pub fn inc(&mut self) {
        std::thread::sleep(Duration::from_millis(1));
        self.v += 1;
    }
}

// ===========================================================================
// 1. Execution outcomes.
// ===========================================================================

#[test]
fn err_after_mutation_is_misuse_and_the_structure_is_dropped() {
    // push_or_err(1) pushes, then returns Err: only stacks of zeros survive.
    let l = 4u32;
    let report = Beapi::<Guard>::new()
        .collection_length(u32::MAX)
        .check(Check::None)
        .scope(1)
        .ints(0..2)
        .builders(names(&["new", "push_or_err"]))
        .max_length(l)
        .record_canonical(true)
        .run()
        .unwrap();
    // Stacks of zeros of length 0..l-1; one misuse per frontier stack per level 2..=l.
    assert_eq!(report.structure_count() as u32, l);
    assert_eq!(report.misuses, u64::from(l - 1));
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert!(canonicals(&report).iter().all(|c| !c.contains('1')), "{:?}", canonicals(&report));
    // 1 constructor call, then 2 calls per frontier stack on each later level.
    assert_eq!(report.explored, 1 + 2 * u64::from(l - 1));
}

#[test]
fn failed_assume_is_misuse_and_the_structure_is_dropped() {
    let l = 3u32;
    let report = Beapi::<Guard>::new()
        .collection_length(u32::MAX)
        .check(Check::None)
        .scope(1)
        .ints(0..3)
        .builders(names(&["new", "push_assume"]))
        .max_length(l)
        .record_canonical(true)
        .run()
        .unwrap();
    // Stacks over {0, 1} of length < l; each frontier stack misuses once (x = 2).
    assert_eq!(report.structure_count() as u64, powers(2, 0, l - 1));
    assert_eq!(report.misuses, powers(2, 0, l - 2));
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert!(canonicals(&report).iter().all(|c| !c.contains('2')));
}

/// The model of `Panicky` with builders new, push, poke, shove over keys 0..2.
fn panicky_model() -> Tally {
    let step = |s: &Vec<u8>| {
        let mut outs = Vec::new();
        // push(x) and shove(x): the same behaviour, panicking at different lines.
        for group in ["push overflow@push", "push overflow@shove"] {
            for x in 0..2u8 {
                outs.push(if s.len() == 2 { Effect::Fail(group) } else { Effect::Ok([s.clone(), vec![x]].concat()) });
            }
        }
        for group in ["poke 0", "poke 1"] {
            outs.push(if s.is_empty() { Effect::Ok(s.clone()) } else { Effect::Fail(group) });
        }
        outs
    };
    enumerate(&[Effect::Ok(Vec::new())], &step, 4)
}

#[test]
fn panics_are_failures_grouped_by_message_and_location_with_minimal_witnesses() {
    let k = 2u64;
    let report =
        Beapi::<Panicky>::new().collection_length(u32::MAX).scope(1).ints(0..2).builders(Builders::All).run().unwrap();
    // Stacks of length <= 2: after that every push/shove panics.
    assert_eq!(report.structure_count() as u64, powers(k, 0, 2));
    assert_eq!(report.misuses, 0);
    let model = panicky_model();
    let mut seen = BTreeSet::new();
    for (i, group) in report.failures.iter().enumerate() {
        assert_eq!((group.kind, group.during), (FailureKind::Panic, During::Call), "{group:?}");
        let location = group.location.as_deref().expect("a location");
        assert!(location.contains("engine.rs"), "{location}");
        let witness = report.failure_program(i);
        let last = &report.operations[usize::from(witness.calls.last().unwrap().op)].name;
        let (key, expected_count, text): (&str, u64, &str) = match (group.message.as_str(), last.as_str()) {
            // Each stack of length 2 (k^2 of them) times k keys.
            ("push overflow", "push") => {
                ("push overflow@push", k * k * k, "s0 = new(); s0.push(0); s0.push(0); s0.push(0)")
            }
            ("push overflow", "shove") => {
                ("push overflow@shove", k * k * k, "s0 = new(); s0.push(0); s0.push(0); s0.shove(0)")
            }
            // poke x on each non-empty stack that is ever extended (lengths 1 and 2).
            ("poke 0", "poke") => ("poke 0", k + k * k, "s0 = new(); s0.push(0); s0.poke(0)"),
            ("poke 1", "poke") => ("poke 1", k + k * k, "s0 = new(); s0.push(0); s0.poke(1)"),
            other => panic!("unexpected failure {other:?}"),
        };
        assert!(seen.insert(key), "two groups for {key}");
        assert_eq!(group.count, expected_count, "{key}");
        // Minimal: no model sequence shorter than the witness fails this way.
        assert_eq!(witness.len(), model.failures[key].1, "{key}: {}", witness.to_text(&report.operations));
        assert_eq!(witness.len() as u32, level_of(group), "{key}");
        assert_eq!(witness.to_text(&report.operations), text, "{key}");
    }
    assert_eq!(seen.len(), 4, "{:?}", report.failures);
    // Same message, different lines: different groups, different locations.
    let location_of = |op: &str| {
        report
            .failures
            .iter()
            .enumerate()
            .find(|(i, _)| {
                let w = report.failure_program(*i);
                report.operations[usize::from(w.calls.last().unwrap().op)].name == op
            })
            .map(|(_, g)| g.location.clone())
            .unwrap()
    };
    assert_ne!(location_of("push"), location_of("shove"));
    assert_eq!(report.failure_count(), 2 * k * k * k + 2 * (k + k * k));
}

#[test]
fn misuse_panic_patterns_turn_matching_panics_into_misuse() {
    let k = 2u64;
    let panicky = || Beapi::<Panicky>::new().collection_length(u32::MAX).scope(1).ints(0..2).builders(Builders::All);
    let report = panicky().misuse_panic("^push overflow$").run().unwrap();
    assert_eq!(report.structure_count() as u64, powers(k, 0, 2));
    // Both overflow sites are misuse now; the poke panics stay failures.
    assert_eq!(report.misuses, 2 * k * k * k);
    assert_eq!(report.failures.len(), 2, "{:?}", report.failures);
    assert_eq!(report.failure_count(), 2 * (k + k * k));
    assert!(report.failures.iter().all(|g| g.kind == FailureKind::Panic && g.message.starts_with("poke")));
    // A pattern that matches nothing changes nothing.
    let report = panicky().misuse_panic("^overflow").run().unwrap();
    assert_eq!(report.misuses, 0);
    assert_eq!(report.failures.len(), 4);
}

/// The model of `NoDoubleOne` with builders new and push over keys 0..2 (rep_ok included).
fn no_double_one_model(ops_front: bool, max_len: usize) -> Tally {
    let step = move |s: &Vec<u8>| {
        let mut outs = Vec::new();
        let fronts: &[bool] = if ops_front { &[false, true] } else { &[false] };
        for &front in fronts {
            for x in 0..2u8 {
                let next = if front { [vec![x], s.clone()].concat() } else { [s.clone(), vec![x]].concat() };
                outs.push(if next.len() >= 3 {
                    Effect::Fail("rep_ok panic")
                } else if next.iter().filter(|&&v| v == 1).count() >= 2 {
                    Effect::Fail("rep_ok false")
                } else {
                    Effect::Ok(next)
                });
            }
        }
        outs
    };
    enumerate(&[Effect::Ok(Vec::new())], &step, max_len)
}

#[test]
fn rep_ok_false_and_rep_ok_panic_are_failures_and_not_stored() {
    let report = Beapi::<NoDoubleOne>::new()
        .collection_length(u32::MAX)
        .check(Check::None)
        .scope(1)
        .ints(0..2)
        .builders(names(&["new", "push"]))
        .record_canonical(true)
        .run()
        .unwrap();
    // Valid: stacks of length <= 2 over {0,1} with fewer than two 1s: 1 + 2 + (4 - 1).
    assert_eq!(report.structure_count(), 1 + 2 + 3);
    assert!(canonicals(&report).iter().all(|c| !c.contains("1, 1")), "{:?}", canonicals(&report));
    let model = no_double_one_model(false, 4);
    assert_eq!(report.failures.len(), 2, "{:?}", report.failures);
    for (i, group) in report.failures.iter().enumerate() {
        let witness = report.failure_program(i);
        assert_eq!(group.operation.as_deref(), Some("push"));
        assert_eq!(group.during, During::RepOk);
        match group.kind {
            FailureKind::RepOkFalse => {
                // Only [1, 1] is broken.
                assert_eq!(group.count, 1);
                assert_eq!(witness.len(), model.failures["rep_ok false"].1);
                assert_eq!(witness.to_text(&report.operations), "s0 = new(); s0.push(1); s0.push(1)");
            }
            FailureKind::Panic => {
                assert_eq!(group.message, "too long");
                assert!(group.location.as_deref().unwrap().contains("engine.rs"));
                // Each of the 3 valid stacks of length 2, pushed with each of 2 keys.
                assert_eq!(group.count, 3 * 2);
                assert_eq!(witness.len(), model.failures["rep_ok panic"].1);
                assert_eq!(witness.to_text(&report.operations), "s0 = new(); s0.push(0); s0.push(0); s0.push(0)");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // The broken [1, 1] was never extended: nothing was built on it.
    assert!(report.structures.iter().all(|s| s.level <= 3));
}

#[test]
fn with_hidden_state_every_output_is_checked() {
    // `len` is omitted: push_late_bug(x) makes the canonical form of a valid
    // stack made before by push(x), yet it is broken, and must be reported.
    let l = 3u32;
    let report = Beapi::<Counted>::new()
        .collection_length(u32::MAX)
        .check(Check::None)
        .scope(1)
        .ints(0..2)
        .builders(names(&["new", "push", "push_late_bug"]))
        .max_length(l)
        .run()
        .unwrap();
    // Valid stacks: made by push alone, lengths 0..l-1 over 2 keys.
    assert_eq!(report.structure_count() as u64, powers(2, 0, l - 1));
    // Every push_late_bug call on a frontier stack: 2 keys x 2^(k-2) stacks on levels 2..=l.
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let failure = &report.failures[0];
    assert_eq!((failure.kind, failure.operation.as_deref()), (FailureKind::RepOkFalse, Some("push_late_bug")));
    assert_eq!(report.failures[0].count, 2 * powers(2, 0, l - 2));
}

// ===========================================================================
// 2. Scope.
// ===========================================================================

#[test]
fn out_of_scope_structures_are_dropped_and_the_root_counts() {
    for scope in 1..=3u32 {
        for k in 1..=3u64 {
            // Chain: the root is a Chain too, so a chain has at most `scope` nodes in all.
            let report = Beapi::<Chain>::new().scope(scope).ints(0..k as i64).builders(Builders::All).run().unwrap();
            assert_eq!(report.structure_count() as u64, powers(k, 0, scope - 1), "chain scope {scope} k {k}");
            // Every append to a full chain passes the scope.
            assert_eq!(report.out_of_scope, k.pow(scope), "chain scope {scope} k {k}");
            // Seq: the root is its own class, so `scope` cells fit besides it.
            let report = seq_stacks(scope, k);
            assert_eq!(report.structure_count() as u64, powers(k, 0, scope), "seq scope {scope} k {k}");
            assert_eq!(report.out_of_scope, k.pow(scope + 1), "seq scope {scope} k {k}");
        }
    }
}

// ===========================================================================
// 3. Parameter kinds.
// ===========================================================================

/// Runs `Seq` with `builders` at scope 3 over keys 0..2.
fn seq_run(builders: &[&str]) -> BeapiReport {
    Beapi::<Seq>::new()
        .check(Check::None)
        .scope(3)
        .ints(0..2)
        .builders(names(builders))
        .record_canonical(true)
        .run()
        .unwrap()
}

/// Every list of length <= 3 over {0, 1}, each once.
fn assert_all_lists(report: &BeapiReport, what: &str) {
    assert_eq!(report.structure_count() as u64, powers(2, 0, 3), "{what}");
    let distinct: BTreeSet<_> = canonicals(report).into_iter().collect();
    assert_eq!(distinct.len(), report.structure_count(), "{what}: duplicates");
    assert!(report.failures.is_empty(), "{what}: {:?}", report.failures);
}

#[test]
fn moved_borrowed_and_mutably_borrowed_subject_parameters() {
    // Each of these, with the constructors, reaches every list: if the engine
    // mishandled the parameter kind, some lists would be missing.
    for op in ["absorb", "append_copy", "concat"] {
        let report = seq_run(&["new", "single", op]);
        assert_all_lists(&report, op);
        // Level 1: [] and [x]; level k: lengths in (2^(k-2), 2^(k-1)] up to 3.
        let expected: Vec<u64> = vec![1 + 2, powers(2, 2, 2), powers(2, 3, 3), 0];
        let got: Vec<u64> = report.levels.iter().map(|l| l.structures as u64).collect();
        assert_eq!(got, expected, "{op}");
        // Pairs with at least one component made at the level before: N(k-1)^2 - N(k-2)^2,
        // N(j) being the structures made up to level j.
        let cumulative: Vec<u64> = (0..expected.len()).map(|j| expected[..j].iter().sum()).collect();
        for (i, level) in report.levels.iter().enumerate().skip(1) {
            let explored = cumulative[i].pow(2) - cumulative[i - 1].pow(2);
            assert_eq!(level.explored, explored, "{op} level {}", level.level);
        }
    }
    // give(&mut self, other: &mut Self): longer lists only come out of `other`.
    let report = seq_run(&["new", "single", "give"]);
    assert_all_lists(&report, "give");
    assert!(report.structures.iter().any(|s| s.step.output == Output::Param(1)));
    let got: Vec<u64> = report.levels.iter().map(|l| l.structures as u64).collect();
    assert_eq!(got, [1 + 2, 4, 8, 0]);
    // Misuse: `give` from the empty list. [] is paired as `self` with every
    // `other` exactly once (tuples need one component from the newest level,
    // and every stored list is the newest level once), so once per structure.
    assert_eq!(report.misuses, powers(2, 0, 3));
}

#[test]
fn a_ref_self_method_returning_self_is_a_producer() {
    let report = seq_run(&["new", "with_pushed"]);
    assert_all_lists(&report, "with_pushed");
    assert!(report.structures.iter().skip(1).all(|s| s.step.output == Output::Result));
}

#[test]
fn a_self_method_returning_self_is_a_producer() {
    let report = seq_run(&["new", "pushed"]);
    assert_all_lists(&report, "pushed");
    assert!(report.structures.iter().all(|s| s.step.output == Output::Result));
}

#[test]
fn constructors_with_primitive_parameters_run_once_per_value() {
    let report = Beapi::<Seq>::new().check(Check::None).scope(2).ints(0..5).builders(names(&["single"])).run().unwrap();
    // single(x) for 5 values, one level, then a level with nothing to do.
    assert_eq!(report.structure_count(), 5);
    assert_eq!(report.levels.len(), 2);
    assert_eq!((report.levels[0].explored, report.levels[1].explored), (5, 0));
}

#[test]
fn unsigned_parameters_skip_negative_values() {
    for range in [-3i64..3, -300..300, 0..1, -5..-1] {
        let fits_u8 = range.clone().filter(|v| u8::try_from(*v).is_ok()).count();
        let fits_i8 = range.clone().filter(|v| i8::try_from(*v).is_ok()).count();
        let report = Beapi::<Numbers>::new().scope(1).ints(range.clone()).builders(Builders::All).run().unwrap();
        assert_eq!(report.structure_count(), fits_u8 + fits_i8, "{range:?}");
        // Values that do not fit are not calls at all.
        assert_eq!(report.explored as usize, fits_u8 + fits_i8, "{range:?}");
        assert_eq!(report.misuses, 0);
    }
}

#[test]
fn bool_char_and_string_domains_come_from_the_config() {
    let run = |chars: Vec<char>, strings: Vec<&str>| {
        let config = BeapiConfig {
            scope: 1,
            chars,
            strings: strings.into_iter().map(String::from).collect(),
            builders: Builders::All,
            record_canonical: true,
            ..BeapiConfig::default()
        };
        Beapi::<Tagged>::with_config(config).run().unwrap()
    };
    let report = run(vec!['x', 'y', 'z'], vec!["", "p"]);
    // plain; make: 2 bools x 3 chars x 2 strings; owned: 2 strings.
    assert_eq!(report.structure_count(), 1 + 2 * 3 * 2 + 2);
    assert_eq!(report.explored, 1 + 2 * 3 * 2 + 2);
    let texts = canonicals(&report);
    assert!(texts.iter().any(|t| t.contains("'z'") && t.contains("\"p\"")), "{texts:?}");
    // An empty domain: the operations that need it are never called.
    let report = run(vec!['x'], vec![]);
    assert_eq!((report.structure_count(), report.explored), (1, 1));
    let report = run(vec![], vec!["q"]);
    assert_eq!((report.structure_count(), report.explored), (2, 2));
}

// ===========================================================================
// 4. State matching and storage.
// ===========================================================================

/// The model of `Seq` with builders new, push, pop, size over keys 0..k at `scope`.
fn seq_stack_model(scope: usize, k: u8, max_len: usize) -> Tally {
    let step = move |s: &Vec<u8>| {
        let mut outs = Vec::new();
        for x in 0..k {
            outs.push(if s.len() == scope { Effect::OutOfScope } else { Effect::Ok([vec![x], s.clone()].concat()) });
        }
        outs.push(if s.is_empty() { Effect::Misuse } else { Effect::Ok(s[1..].to_vec()) });
        outs.push(Effect::Ok(s.clone())); // size(): the receiver is an output too
        outs
    };
    enumerate(&[Effect::Ok(Vec::new())], &step, max_len)
}

#[test]
fn without_state_matching_every_valid_sequence_is_kept() {
    let builders = ["new", "push", "pop", "size"];
    for (scope, l) in [(2u32, 4u32), (1, 5), (3, 3)] {
        let report = Beapi::<Seq>::new()
            .check(Check::None)
            .scope(scope)
            .ints(0..2)
            .builders(names(&builders))
            .state_matching(false)
            .max_length(l)
            .run()
            .unwrap();
        let model = seq_stack_model(scope as usize, 2, l as usize);
        assert_eq!(report.structure_count() as u64, model.valid, "scope {scope} L {l}");
        assert_eq!(report.explored, model.executions, "scope {scope} L {l}");
        assert_eq!(report.misuses, model.misuses, "scope {scope} L {l}");
        assert_eq!(report.out_of_scope, model.out_of_scope, "scope {scope} L {l}");
        assert!(report.failures.is_empty());
        assert_eq!(report.levels.len() as u32, l);
    }
}

#[test]
fn with_state_matching_each_structure_is_stored_once() {
    for storage in [StateStorage::Fingerprint, StateStorage::Exact] {
        let report = Beapi::<Seq>::new()
            .check(Check::None)
            .scope(3)
            .ints(0..2)
            .builders(names(&["new", "push", "pop", "size"]))
            .storage(storage)
            .record_canonical(true)
            .run()
            .unwrap();
        assert_eq!(report.structure_count() as u64, powers(2, 0, 3), "{storage:?}");
        let distinct: BTreeSet<_> = canonicals(&report).into_iter().collect();
        assert_eq!(distinct.len(), report.structure_count(), "{storage:?}");
    }
}

#[test]
fn fingerprint_and_exact_storage_give_identical_reports() {
    fn both<T: smallscope::Subject + smallscope::api::StdTraits>(beapi: Beapi<T>, what: &str) {
        let config = beapi.config().clone();
        let f = Beapi::<T>::with_config(BeapiConfig { storage: StateStorage::Fingerprint, ..config.clone() })
            .run()
            .unwrap();
        let e = Beapi::<T>::with_config(BeapiConfig { storage: StateStorage::Exact, ..config }).run().unwrap();
        assert_same_reports(&f, &e, what);
        assert!(f.structure_count() > 0);
    }
    both(
        Beapi::<Seq>::new().check(Check::None).scope(3).ints(0..2).builders(names(&["new", "single", "give"])),
        "seq give",
    );
    both(
        Beapi::<Seq>::new()
            .check(Check::None)
            .scope(2)
            .ints(0..2)
            .builders(names(&["new", "push", "pop", "size"]))
            .state_matching(false)
            .max_length(4),
        "seq without state matching",
    );
    both(Beapi::<Chain>::new().check(Check::None).scope(3).ints(0..3).builders(Builders::All), "chain");
    both(
        Beapi::<NoDoubleOne>::new()
            .collection_length(u32::MAX)
            .check(Check::None)
            .scope(1)
            .ints(0..2)
            .builders(names(&["new", "push"])),
        "rep_ok",
    );
    both(
        Beapi::<Panicky>::new()
            .collection_length(u32::MAX)
            .check(Check::None)
            .scope(1)
            .ints(0..2)
            .builders(Builders::All),
        "panics",
    );
}

// ===========================================================================
// 5. Levels.
// ===========================================================================

#[test]
fn levels_count_structures_by_sequence_length_and_stop_when_empty() {
    for (scope, k) in [(3u32, 2u64), (2, 3), (4, 1)] {
        let report = seq_stacks(scope, k);
        // A stack of length j is first made at level j + 1; level scope + 2 adds nothing and ends the search.
        let expected: Vec<u64> = (0..=scope).map(|j| k.pow(j)).chain([0]).collect();
        let got: Vec<u64> = report.levels.iter().map(|l| l.structures as u64).collect();
        assert_eq!(got, expected, "scope {scope} k {k}");
        for (i, level) in report.levels.iter().enumerate() {
            assert_eq!(level.level as usize, i + 1);
            // One `new`, then `k` pushes on each stack of the level before.
            let explored = if i == 0 { 1 } else { k.pow(i as u32 - 1) * k };
            assert_eq!(level.explored, explored, "scope {scope} k {k} level {}", level.level);
        }
        for (index, structure) in report.structures.iter().enumerate() {
            assert_eq!(report.program(index).len() as u32, structure.level);
        }
    }
}

// ===========================================================================
// 6. Clone fast path vs replay.
// ===========================================================================

#[test]
fn replay_without_clone_gives_the_same_report_as_the_clone_fast_path() {
    // The premise: only one of the twins can be cloned by the engine.
    assert!(smallscope::Subject::try_clone(&ClonedList::new()).is_some());
    assert!(smallscope::Subject::try_clone(&ReplayedList::new()).is_none());
    for builders in [vec!["new", "push", "pop"], vec!["new", "push", "give"]] {
        let cloned =
            Beapi::<ClonedList>::new().check(Check::None).scope(3).ints(0..2).builders(names(&builders)).run().unwrap();
        let replayed = Beapi::<ReplayedList>::new()
            .check(Check::None)
            .scope(3)
            .ints(0..2)
            .builders(names(&builders))
            .run()
            .unwrap();
        assert_same_reports(&cloned, &replayed, &builders.join(","));
        assert_eq!(cloned.structure_count() as u64, powers(2, 0, 3));
        for report in [&cloned, &replayed] {
            assert!(report.notes.iter().all(|n| !n.contains("could not be rebuilt")), "{:?}", report.notes);
        }
    }
}

#[test]
fn a_shallow_clone_is_detected_and_counts_stay_right() {
    // The premise: a derived clone of ShallowList shares its first node.
    let mut list = ShallowList::new();
    list.append(1);
    let copy = list.clone();
    assert!(Rc::ptr_eq(list.head.as_ref().unwrap(), copy.head.as_ref().unwrap()));
    for (scope, k) in [(3u32, 2u64), (2, 3)] {
        let shallow = Beapi::<ShallowList>::new().scope(scope).ints(0..k as i64).builders(Builders::All).run().unwrap();
        assert!(shallow.notes.iter().any(|n| n.contains("Clone")), "{:?}", shallow.notes);
        // Lists of at most `scope` nodes over k keys.
        assert_eq!(shallow.structure_count() as u64, powers(k, 0, scope), "scope {scope} k {k}");
        let deep = Beapi::<DeepList>::new().scope(scope).ints(0..k as i64).builders(Builders::All).run().unwrap();
        assert!(deep.notes.is_empty(), "{:?}", deep.notes);
        assert_same_reports(&shallow, &deep, "shallow vs deep");
    }
}

// ===========================================================================
// 7. Time limit and interruption.
// ===========================================================================

#[test]
fn the_time_limit_stops_a_large_run_and_keeps_what_was_found() {
    let started = Instant::now();
    let report = Beapi::<Unbounded>::new()
        .collection_length(u32::MAX)
        .scope(1)
        .ints(0..10)
        .builders(Builders::All)
        .time_limit(Duration::from_millis(50))
        .run()
        .unwrap();
    assert_eq!(report.stop, Some(Stop::TimeLimit));
    assert!(report.structure_count() > 0);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    // What was kept is consistent: every structure rebuilds at its level.
    let last = report.structures.len() - 1;
    assert_eq!(report.program(last).len() as u32, report.structures[last].level);
}

#[test]
fn levels_that_only_grow_omitted_state_end_the_search_as_unbounded() {
    // Builders identified too: their searches end the same way.
    for builders in [Builders::All, Builders::Auto] {
        let report = Beapi::<Ticking>::new().scope(2).builders(builders.clone()).run().unwrap();
        assert_eq!(report.stop, Some(Stop::Unbounded), "{builders:?}");
        // `None`, `Some(0)`, `Some(1)`: the canonical forms, all by level 2.
        assert_eq!(report.structure_count(), 3, "{builders:?}");
        let note = report.notes.iter().find(|n| n.contains("and no structure")).expect("a note says why");
        // Levels 3 to 10 make only new tick counts (the 8 levels the engine waits).
        assert!(note.starts_with("levels 3 to 10 made ") && note.contains("--max-length"), "{note}");
    }
}

/// Asks the run to stop once it has seen a first commit.
struct StopAfterFirstCommit {
    commits: u32,
}

impl Observer for StopAfterFirstCommit {
    fn batch(&mut self, _batch: &smallscope::runner::Batch) {
        self.commits += 1;
    }
    fn poll(&mut self) -> Control {
        if self.commits > 0 {
            Control::Interrupt
        } else {
            Control::Continue
        }
    }
}

#[test]
fn an_observer_can_interrupt_the_run() {
    let mut observer = StopAfterFirstCommit { commits: 0 };
    let report = Beapi::<Unbounded>::new()
        .collection_length(u32::MAX)
        .scope(1)
        .ints(0..10)
        .builders(Builders::All)
        .run_observed(&mut observer)
        .unwrap();
    assert!(observer.commits >= 1);
    assert_eq!(report.stop, Some(Stop::Interrupted));
    assert!(report.structure_count() > 0);
    // Stopped within a few commits ("every few thousand executions"), far from the end.
    assert!(report.explored < 1_000_000, "{}", report.explored);
}

/// Asks the run to stop at once.
struct StopAtOnce;

impl Observer for StopAtOnce {
    fn poll(&mut self) -> Control {
        Control::Interrupt
    }
}

#[test]
fn a_stop_while_builders_are_identified_ends_the_run_before_its_search() {
    // Identification stops with the best set so far; the search then does not begin.
    let report = Beapi::<Seq>::new().scope(3).builders(Builders::Auto).run_observed(&mut StopAtOnce).unwrap();
    assert_eq!(report.stop, Some(Stop::Interrupted));
    assert_eq!((report.structure_count(), report.explored), (0, 0), "{:?}", report.notes);
}

// ===========================================================================
// 8. Builders identification.
// ===========================================================================

fn climb_config(builder_scope: u32, keys: i64) -> BeapiConfig {
    BeapiConfig { scope: 3, builder_scope, ints: Some(0..keys), builders: Builders::Auto, ..BeapiConfig::default() }
}

#[test]
fn hill_climbing_picks_the_constructor_and_the_plain_add() {
    let config = climb_config(3, 2);
    let identified = smallscope::builders::identify::<Climb>(&config, Method::HillClimbing, &[], None).unwrap();
    // new over with_capacity (same structures, simpler parameters); add over
    // add_twice (more structures); nothing else adds a structure.
    assert_eq!(identified.builders, ["new", "add"]);
    assert_eq!(identified.structures as u64, powers(2, 0, 3));
    assert_eq!(identified.scope, 3);
    assert!(!identified.from_cache);
    // A run with automatic builders uses them.
    let report = Beapi::<Climb>::with_config(config).run().unwrap();
    assert_eq!(report.builders, ["new", "add"]);
    assert_eq!(report.structure_count() as u64, powers(2, 0, 3));
}

#[test]
fn hill_climbing_ties_go_to_simpler_parameters() {
    // Two keys: add(x: u8) and add_flag(b: bool) make the same stacks; bool is simpler.
    let identified =
        smallscope::builders::identify::<Flags>(&climb_config(3, 2), Method::HillClimbing, &[], None).unwrap();
    assert_eq!(identified.builders, ["new", "add_flag"]);
    assert_eq!(identified.structures as u64, powers(2, 0, 3));
    // Three keys: add makes more, so it wins.
    let identified =
        smallscope::builders::identify::<Flags>(&climb_config(3, 3), Method::HillClimbing, &[], None).unwrap();
    assert_eq!(identified.builders, ["new", "add"]);
    assert_eq!(identified.structures as u64, powers(3, 0, 3));
}

#[test]
fn identified_builders_are_cached_per_config() {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("smallscope-engine-test-{}-{nanos}", std::process::id()));
    let config = BeapiConfig { cache_dir: Some(dir.clone()), ..climb_config(3, 2) };
    let first = smallscope::builders::identify_cached::<Climb>(&config, Method::HillClimbing, &[], None).unwrap();
    assert!(!first.from_cache);
    let files: Vec<_> = walk_files(&dir);
    assert_eq!(files.len(), 1, "{files:?}");
    let second = smallscope::builders::identify_cached::<Climb>(&config, Method::HillClimbing, &[], None).unwrap();
    assert!(second.from_cache);
    assert_eq!(second.builders, first.builders);
    assert_eq!(second.structures, first.structures);
    // Another builder scope is another fitness: recomputed.
    let other = BeapiConfig { builder_scope: 2, ..config.clone() };
    let third = smallscope::builders::identify_cached::<Climb>(&other, Method::HillClimbing, &[], None).unwrap();
    assert!(!third.from_cache);
    assert_eq!(third.scope, 2);
    assert_eq!(third.structures as u64, powers(2, 0, 2));
    let _ = std::fs::remove_dir_all(&dir);
}

fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk_files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

// ===========================================================================
// 9. Configuration errors.
// ===========================================================================

#[test]
#[allow(clippy::reversed_empty_ranges)] // An upside-down range is the point.
fn configuration_errors_name_the_offending_value() {
    let seq = || Beapi::<Seq>::new().check(Check::None).scope(2).builders(Builders::All);
    let cases: Vec<(Result<BeapiReport, RunError>, &str)> = vec![
        (seq().builders(names(&["new", "frobnicate"])).run(), "frobnicate"),
        (seq().builders(names(&["push", "pop"])).run(), "push"),
        (seq().omit("Seq.nope").run(), "Seq.nope"),
        (seq().omit("Nope.head").run(), "Nope.head"),
        (seq().scope(0).run(), "0"),
        (seq().ints(3..3).run(), "3..3"),
        (seq().ints(5..1).run(), "5..1"),
        (seq().misuse_panic("(unclosed").run(), "(unclosed"),
    ];
    for (result, needle) in cases {
        let error = result.expect_err(needle);
        assert!(error.to_string().contains(needle), "{error} should name {needle}");
    }
    assert!(matches!(
        seq().builders(names(&["new", "frobnicate"])).run(),
        Err(RunError::Config(ConfigError::UnknownBuilder { name, .. })) if name == "frobnicate"
    ));
    assert!(matches!(seq().builders(names(&["push"])).run(), Err(RunError::Config(ConfigError::NoConstructor(_)))));
    assert!(matches!(seq().omit("Seq.nope").run(), Err(RunError::Config(ConfigError::UnknownField { .. }))));
    assert!(matches!(seq().scope(0).run(), Err(RunError::Config(ConfigError::ZeroScope(0)))));
    assert!(matches!(seq().ints(3..3).run(), Err(RunError::Config(ConfigError::EmptyIntRange { start: 3, end: 3 }))));
    assert!(matches!(seq().misuse_panic("(unclosed").run(), Err(RunError::Config(ConfigError::BadPattern { .. }))));
    assert!(matches!(
        seq().state_matching(false).run(),
        Err(RunError::Config(ConfigError::UnboundedWithoutStateMatching))
    ));
    assert!(matches!(
        Beapi::<NoCtor>::new().builders(Builders::All).run(),
        Err(RunError::Config(ConfigError::SubjectWithoutConstructor))
    ));
}

// ===========================================================================
// 10. Generated Rust.
// ===========================================================================

/// The Rust lines (and result variable) of the first structure made at
/// `level` by operation `op`, in a run of `Seq` at scope 2 over keys 0..2.
fn first_rust(builders: &[&str], op: &str, level: u32, state_matching: bool) -> (Vec<String>, Option<u32>) {
    let mut beapi = Beapi::<Seq>::new().check(Check::None).scope(2).ints(0..2).builders(names(builders));
    if !state_matching {
        beapi = beapi.state_matching(false).max_length(3);
    }
    let report = beapi.run().unwrap();
    let index = report
        .structures
        .iter()
        .position(|s| s.level == level && report.operations[usize::from(s.step.op)].name == op)
        .expect("a structure made by that operation at that level");
    let program = report.program(index);
    (program.to_rust(&report.operations, "<T>"), program.result)
}

#[test]
fn programs_render_as_rust() {
    // Breadth-first order: the first level-3 stack is push(0) on push(0).
    let (lines, result) = first_rust(&["new", "push"], "push", 3, true);
    assert_eq!(lines, ["let mut s0 = <T>::new();", "s0.push(0);", "s0.push(0);"]);
    assert_eq!(result, Some(0));
    // &mut other, and .unwrap() after a fallible call; the result lives in s1.
    let (lines, result) = first_rust(&["new", "single", "give"], "give", 2, true);
    assert_eq!(lines, ["let mut s0 = <T>::single(0);", "let mut s1 = <T>::single(0);", "s0.give(&mut s1).unwrap();"]);
    assert_eq!(result, Some(1));
    // &other: not mutated, so no `mut`.
    let (lines, _) = first_rust(&["new", "single", "append_copy"], "append_copy", 2, true);
    assert_eq!(lines, ["let mut s0 = <T>::single(0);", "let s1 = <T>::single(0);", "s0.append_copy(&s1);"]);
    // Moved other.
    let (lines, _) = first_rust(&["new", "single", "absorb"], "absorb", 2, true);
    assert_eq!(lines, ["let mut s0 = <T>::single(0);", "let s1 = <T>::single(0);", "s0.absorb(s1);"]);
    // A function of two references, and a producer.
    let (lines, result) = first_rust(&["new", "single", "concat"], "concat", 2, true);
    assert_eq!(lines, ["let s0 = <T>::single(0);", "let s1 = <T>::single(0);", "let s2 = <T>::concat(&s0, &s1);"]);
    assert_eq!(result, Some(2));
    let (lines, result) = first_rust(&["new", "with_pushed"], "with_pushed", 2, true);
    assert_eq!(lines, ["let s0 = <T>::new();", "let s1 = s0.with_pushed(0);"]);
    assert_eq!(result, Some(1));
    let (lines, result) = first_rust(&["new", "pushed"], "pushed", 2, true);
    assert_eq!(lines, ["let s0 = <T>::new();", "let s1 = s0.pushed(0);"]);
    assert_eq!(result, Some(1));
    // A fallible call returning a value, kept without state matching; an observer.
    let (lines, result) = first_rust(&["new", "pop", "push"], "pop", 3, false);
    assert_eq!(lines, ["let mut s0 = <T>::new();", "s0.push(0);", "let _ = s0.pop().unwrap();"]);
    assert_eq!(result, Some(0));
    let (lines, _) = first_rust(&["new", "size"], "size", 2, false);
    assert_eq!(lines, ["let s0 = <T>::new();", "let _ = s0.size();"]);
}

#[test]
fn emitted_test_file_has_one_test_per_structure() {
    let options = |max_tests| RustTestOptions {
        command: "cargo test".into(),
        omit: Vec::new(),
        has_rep_ok: false,
        max_tests,
        ..Default::default()
    };
    let report = Beapi::<Seq>::new()
        .check(Check::None)
        .scope(2)
        .ints(0..2)
        .builders(names(&["new", "single", "give"]))
        .record_canonical(true)
        .run()
        .unwrap();
    let file = rust_tests(&report, &options(None));
    assert_eq!(report.structure_count() as u64, powers(2, 0, 2));
    assert_eq!(file.matches("#[test]").count(), report.structure_count(), "{file}");
    assert_eq!(rust_tests(&report, &options(Some(3))).matches("#[test]").count(), 3);
    // Without recorded canonical forms there is nothing to check against.
    let bare =
        Beapi::<Seq>::new().check(Check::None).scope(2).ints(0..2).builders(names(&["new", "push"])).run().unwrap();
    assert_eq!(rust_tests(&bare, &options(None)).matches("#[test]").count(), 0);
    // Failures add one ignored test each.
    let panicky = Beapi::<Panicky>::new()
        .collection_length(u32::MAX)
        .scope(1)
        .ints(0..2)
        .builders(Builders::All)
        .record_canonical(true)
        .run()
        .unwrap();
    let file = rust_tests(&panicky, &options(None));
    assert_eq!(file.matches("#[test]").count(), powers(2, 0, 2) as usize + 4);
    assert_eq!(file.matches("#[ignore").count(), 4);
}

// ===========================================================================
// Bugs found.
// ===========================================================================

#[test]

fn without_state_matching_broken_structures_are_never_stored() {
    let l = 3u32;
    let report = Beapi::<NoDoubleOne>::new()
        .collection_length(u32::MAX)
        .check(Check::None)
        .scope(1)
        .ints(0..2)
        .builders(names(&["new", "push", "push_front"]))
        .state_matching(false)
        .max_length(l)
        .record_canonical(true)
        .run()
        .unwrap();
    let stored_broken: Vec<usize> = (0..report.structure_count())
        .filter(|&i| report.structures[i].canonical.as_deref().unwrap().contains("1, 1"))
        .collect();
    assert!(
        stored_broken.is_empty(),
        "stored broken structures: {:?}",
        stored_broken.iter().map(|&i| program_text(&report, i)).collect::<Vec<_>>()
    );
    let model = no_double_one_model(true, l as usize);
    assert_eq!(report.structure_count() as u64, model.valid);
    // Four sequences make [1, 1]: push or push_front, twice.
    assert_eq!(report.failure_count(), model.failures["rep_ok false"].0);
}

#[test]
fn with_a_builder_taking_two_structures_levels_are_bfs_depths() {
    // BEAPI's "shortest" is in levels: a call at level k takes structures from
    // levels below k. Depth of v: new is 1; inc adds one level; add(a, b)
    // takes max(depth a, depth b) + 1. Programs may have more calls than levels.
    let report = Beapi::<Tally4>::new().scope(1).builders(Builders::All).record_canonical(true).run().unwrap();
    let mut depth = [0u32; 5];
    let mut calls = [0usize; 5];
    depth[0] = 1;
    calls[0] = 1;
    for v in 1..=4 {
        depth[v] = depth[v - 1] + 1;
        calls[v] = calls[v - 1] + 1;
        for a in 1..v {
            depth[v] = depth[v].min(depth[a].max(depth[v - a]) + 1);
            calls[v] = calls[v].min(calls[a] + calls[v - a] + 1);
        }
    }
    assert_eq!(report.structure_count(), 5);
    for (index, text) in canonicals(&report).iter().enumerate() {
        let v: usize = text.trim_end_matches('}').rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(report.structures[index].level, depth[v], "{text}");
        assert!(report.program(index).len() >= calls[v], "{text} is built by {}", program_text(&report, index));
    }
    // v = 4 is reached at depth 4 through add(2, 2), with 7 calls, not 5.
    assert_eq!(depth[4], 4);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    assert_eq!(level_of(&report.failures[0]), depth[4] + 1);
}

#[test]

fn with_hidden_state_a_broken_value_does_not_hide_a_valid_one() {
    // As `with_hidden_state_every_output_is_checked`, but the buggy push runs
    // first on each level: its broken [x] is visited before push(x)'s valid [x].
    let l = 3u32;
    let report = Beapi::<Counted>::new()
        .collection_length(u32::MAX)
        .check(Check::None)
        .scope(1)
        .ints(0..2)
        .builders(names(&["new", "push_early_bug", "push"]))
        .max_length(l)
        .run()
        .unwrap();
    assert!(!report.failures.is_empty());
    // The valid stacks are the same as with push alone.
    assert_eq!(report.structure_count() as u64, powers(2, 0, l - 1), "levels: {:?}", report.levels);
}

#[test]

fn emitted_failure_tests_check_the_broken_structure() {
    let options =
        RustTestOptions { command: "cargo test".into(), omit: Vec::new(), has_rep_ok: true, ..Default::default() };
    // taint(&mut self, other: &mut Self) breaks `other`, which is s1.
    let report = Beapi::<Tainted>::new().check(Check::None).scope(1).builders(names(&["new", "taint"])).run().unwrap();
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    assert_eq!(report.failure_program(0).to_text(&report.operations), "s0 = new(); s1 = new(); s0.taint(&mut s1)");
    let file = rust_tests(&report, &options);
    assert!(file.contains("rep_ok(&s1)"), "the witness test does not check the broken s1:\n{file}");
    // tainted_copy(&self) -> Self returns the broken value: it must be bound and checked.
    let report =
        Beapi::<Tainted>::new().check(Check::None).scope(1).builders(names(&["new", "tainted_copy"])).run().unwrap();
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let file = rust_tests(&report, &options);
    assert!(file.contains("rep_ok(&s1)"), "the witness test does not check the returned value:\n{file}");
}

#[test]

fn automatic_builders_respect_the_run_limits() {
    // Ticker's structures are unbounded by the scope; max_length and the time
    // limit bound the run, and should bound identification too.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let report = Beapi::<Ticker>::new().scope(1).max_length(3).time_limit(Duration::from_millis(200)).run();
        let _ = tx.send(report.map(|r| (r.structure_count(), r.builders)));
    });
    // On a hang the thread is left behind; it sleeps 1 ms per call, so it stays small.
    let result = rx.recv_timeout(Duration::from_secs(3));
    let Ok(Ok((structures, builders))) = result else { panic!("no report within 3 s: {result:?}") };
    assert_eq!(builders, ["new", "inc"]);
    // v = 0, 1, 2: sequences of at most 3 calls.
    assert_eq!(structures, 3);
}

/// The structures `kept` start from, found by walking each call's
/// structure arguments: written apart from `BeapiReport::measure_edges`.
fn ancestors(report: &BeapiReport, kept: &[usize]) -> BTreeSet<usize> {
    let mut seen = BTreeSet::new();
    let mut waiting = kept.to_vec();
    while let Some(index) = waiting.pop() {
        if seen.insert(index) {
            for arg in &report.structures[index].step.args {
                if let smallscope::sequence::StepArg::Structure(s) = arg {
                    waiting.push(*s as usize);
                }
            }
        }
    }
    seen
}

/// A run that measures edges gets the kept structures and only what their
/// calls start from, numbered afresh: each kept one unrolls to the program
/// the report gives it. `Tally4::add` takes a second structure, so a
/// kept structure can need two chains.
#[test]
fn a_measure_holds_the_calls_that_build_each_kept_structure() {
    let tally = Beapi::<Tally4>::new().check(Check::None).scope(4).builders(Builders::All).run().unwrap();
    let stacks = seq_stacks(4, 2);
    for report in [&tally, &stacks] {
        let kept: Vec<usize> = (0..report.structures.len()).rev().step_by(3).collect();
        let measure = report.measure_edges(kept.iter().copied());
        assert_eq!(measure.structures.len(), ancestors(report, &kept).len());
        assert_eq!(measure.kept.len(), kept.len());
        for (&index, &renumbered) in kept.iter().zip(&measure.kept) {
            let step_of = |s: u32| &measure.structures[s as usize];
            let unrolled = smallscope::sequence::Program::unroll(step_of(renumbered), &step_of);
            assert_eq!(unrolled, report.program(index), "structure {index}");
        }
    }
    // Not vacuous: some kept `Tally4` was made by `add` from two structures.
    let two = |s: &smallscope::beapi::Structure| {
        s.step.args.iter().filter(|a| matches!(a, smallscope::sequence::StepArg::Structure(_))).count() == 2
    };
    assert!(tally.structures.iter().any(two));
}
