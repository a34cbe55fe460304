//! Checks that trigger nothing: the trigger predicates against every state
//! at scope 3, the ordinary operations on near misses, and engine runs only
//! on the subjects whose misbehaviour is a panic, which an engine catches in
//! this process too. A stack overflow, an abort, an exit or a runaway
//! allocation would end the test process, and a hang costs a call timeout
//! (10 s by default): `tests/survive.rs` runs every subject, through the
//! harness binary.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use smallscope::api::{find_subject, Arg, Returned, Subject};
use smallscope::events::Input;
use smallscope::korat::{
    find_korat_subject, from_fn, run, search, search_parallel, space, Candidate, Invariants, Model, SearchOptions,
};
use smallscope::sequence::StepArg;
use smallscope::{Beapi, Builders};

use crate::korat::{Shape, Tree};
use crate::*;

/// Every stack BEAPI makes at scope 3 with integer arguments `0..3`, by level.
fn stacks_at_scope_3() -> Vec<Stack> {
    let mut levels = vec![vec![Vec::<u8>::new()]];
    for _ in 0..3 {
        let longer = levels.last().unwrap().iter().flat_map(|s| (0..3).map(move |x| [vec![x], s.clone()].concat()));
        levels.push(longer.collect());
    }
    levels.concat().iter().map(|values| stack_of(values)).collect()
}

/// The stack holding `values`, top first.
fn stack_of(values: &[u8]) -> Stack {
    let mut stack = Stack::new();
    values.iter().rev().for_each(|&x| stack.push(x));
    stack
}

#[test]
fn each_trigger_predicate_matches_exactly_one_state_at_scope_3() {
    let stacks = stacks_at_scope_3();
    assert_eq!(stacks.len(), 1 + 3 + 9 + 27);
    let matching = |p: &dyn Fn(&Stack) -> bool| stacks.iter().filter(|s| p(s)).map(|s| s.values().collect()).collect();
    let values: Vec<Vec<u8>> = matching(&Stack::is_trigger_value);
    assert_eq!(values, [TRIGGER_VALUE.to_vec()]);
    let values: Vec<Vec<u8>> = matching(&Stack::is_trigger_after_push);
    assert_eq!(values, [TRIGGER_AFTER_PUSH.to_vec()]);
    let calls: Vec<(Vec<u8>, u8)> = stacks
        .iter()
        .flat_map(|s| (0..3).filter(|&x| s.is_trigger_push(x)).map(|x| (s.values().collect(), x)))
        .collect();
    assert_eq!(calls, [(vec![2, 1], 0)]);
    // What the trigger call makes is what the `rep_ok` subjects watch for.
    let mut made = stack_of(&TRIGGER_VALUE);
    made.push(TRIGGER_ARG);
    assert!(made.is_trigger_after_push());
}

#[test]
fn the_stack_behaves_as_a_stack() {
    let mut stack = stack_of(&[0, 2, 1]);
    assert_eq!((stack.len(), stack.is_empty(), stack.rep_ok()), (3, false, true));
    assert_eq!([stack.pop(), stack.pop(), stack.pop(), stack.pop()], [Ok(0), Ok(2), Ok(1), Err(Empty)]);
    assert!(stack.is_empty() && stack.rep_ok());
}

#[test]
fn every_subject_is_registered_with_the_stack_api() {
    for name in API_SUBJECTS {
        let subject = find_subject(name).unwrap_or_else(|| panic!("{name} is not registered")).subject();
        let operations: Vec<String> = subject.operations().into_iter().map(|op| op.name).collect();
        assert_eq!(operations, ["new", "push", "pop", "len"], "{name}");
        assert!(subject.has_rep_ok(), "{name}");
    }
    for name in KORAT_SUBJECTS {
        assert!(find_korat_subject(name).is_some(), "{name} is not registered");
    }
}

/// Runs operation `name` of `T` on `args` (receiver first), as the engines do.
fn invoke<T: Subject>(name: &str, args: &mut [Arg<T>]) -> Returned<T> {
    let operations = T::operations();
    let operation = operations.iter().find(|op| op.name == name).expect("an operation of the stack API");
    (operation.invoke)(args, false)
}

/// `new()` and then `push(x)` for each of `pushes`, through the operations.
fn build<T: Subject>(pushes: &[u8]) -> T {
    let Returned::Subject(mut value) = invoke::<T>("new", &mut []) else { panic!("new returns the subject") };
    for &x in pushes {
        let mut args = [Arg::Subject(value), Arg::Int(i64::from(x))];
        assert!(matches!(invoke("push", &mut args), Returned::Unit));
        value = args[0].take_subject();
    }
    value
}

/// The integer an observer returned, or `None` for misuse.
fn int_of<T>(returned: Returned<T>) -> Option<i64> {
    match returned {
        Returned::Value { int, .. } => int,
        Returned::Misuse(_) => None,
        _ => panic!("an observer returned a unit or a subject"),
    }
}

/// Builds the stack of `pushes` (bottom first), clones it, and checks
/// `len`, `rep_ok` and the popped values of both. `pushes` must not hold a
/// trigger of `T`: this only runs the ordinary code.
fn check_near_miss<T: Subject>(pushes: &[u8]) {
    let original = build::<T>(pushes);
    let copy = original.try_clone().expect("the subjects are Clone");
    for value in [original, copy] {
        let mut args = [Arg::Subject(value)];
        assert_eq!(int_of(invoke("len", &mut args)), Some(pushes.len() as i64));
        assert_eq!(args[0].subject_ref().rep_ok(), Some(true));
        let popped: Vec<_> = std::iter::from_fn(|| int_of(invoke("pop", &mut args))).collect();
        let expected: Vec<i64> = pushes.iter().rev().map(|&x| i64::from(x)).collect();
        assert_eq!(popped, expected, "{}", std::any::type_name::<T>());
        assert_eq!(int_of(invoke("len", &mut args)), Some(0));
    }
}

/// Near misses of every trigger: `push(1)` on `[2, 1]` (then `rep_ok` and
/// a clone of `[1, 2, 1]`), `push(0)` on `[2, 1, 0]` and on `[1, 2]`.
fn check_near_misses<T: Subject>() {
    check_near_miss::<T>(&[1, 2, 1]);
    check_near_miss::<T>(&[0, 1, 2, 0]);
    check_near_miss::<T>(&[2, 1, 0]);
}

#[test]
fn the_subjects_behave_on_near_misses_of_their_triggers() {
    check_near_misses::<HostileStack<recursion::Recursion>>();
    check_near_misses::<HostileStack<abort::Abort>>();
    check_near_misses::<HostileStack<exit::Exit>>();
    check_near_misses::<HostileStack<looping::Loop>>();
    check_near_misses::<HostileClone<loop_clone::LoopInClone>>();
    check_near_misses::<HostileStack<loop_rep_ok::LoopInRepOk>>();
    check_near_misses::<panic_drop::PanickingDrop>();
    check_near_misses::<HostileClone<panic_clone::PanicInClone>>();
    check_near_misses::<HostileStack<alloc_bomb::AllocBomb>>();
    check_near_misses::<HostileStack<panic_rep_ok::PanicInRepOk>>();
    // Only a push onto the empty stack leaks nothing.
    check_near_miss::<HostileStack<leak::Leak>>(&[2]);
}

#[test]
fn beapi_reports_the_rep_ok_panic_once_with_the_minimal_witness() {
    let builders = Builders::Named(vec!["new".into(), "push".into()]);
    let report = Beapi::<HostileStack<panic_rep_ok::PanicInRepOk>>::new().scope(3).builders(builders).run().unwrap();
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let failure = &report.failures[0];
    assert_eq!(failure.count, 1);
    assert_eq!(failure.level(), Some(4));
    let message = failure.describe();
    assert!(message.contains("rep_ok panicked after `push`") && message.contains(panic_rep_ok::MESSAGE), "{message}");
    let witness = report.failure_program(0);
    assert_eq!(witness.len(), 4);
    assert_eq!(witness.to_text(&report.operations), WITNESS);
    // Every other stack of length at most 3 is made.
    assert_eq!(report.structure_count(), 40 - 1);
    // Structures made before the trigger call: all of the lower levels, and
    // those of level 4 that extend a stack made before `[2, 1]`.
    let Input::Call { args, .. } = &failure.witness.input else { panic!("a call") };
    let [StepArg::Structure(receiver), _] = args[..] else { panic!("push on a structure") };
    let before = report.structures.iter().filter(|s| match s.step.args[..] {
        [StepArg::Structure(extended), _] if s.level == 4 => extended < receiver,
        _ => s.level < 4,
    });
    assert_eq!(before.count(), STRUCTURES_BEFORE_TRIGGER);
    assert_eq!(report.structures.iter().filter(|s| s.level < 4).count(), STRUCTURES_BEFORE_TRIGGER_LEVEL);
}

/// A safe stand-in for the Korat subjects' invariant: records, for each
/// `rep_ok` run, whether the candidate was the trigger tree.
#[derive(Default)]
struct Watch {
    runs: AtomicU64,
    valid: AtomicU64,
    shapes: Mutex<Vec<Shape>>,
    /// (runs, valid trees) before the first trigger candidate.
    first_trigger: Mutex<Option<(u64, u64)>>,
}

impl Invariants for Watch {
    fn rep_ok(&self, candidate: &Candidate) -> bool {
        let shape = korat::shape(Tree::root(candidate));
        let runs = self.runs.fetch_add(1, Ordering::Relaxed);
        if shape.as_deref().is_some_and(korat::is_trigger) {
            let valid = self.valid.load(Ordering::Relaxed);
            self.first_trigger.lock().unwrap().get_or_insert((runs, valid));
        }
        if let Some(shape) = &shape {
            self.valid.fetch_add(1, Ordering::Relaxed);
            self.shapes.lock().unwrap().push(shape.clone());
        }
        shape.is_some()
    }
}

#[test]
fn the_korat_trigger_is_one_of_the_five_trees_at_scope_3() {
    let watch = Watch::default();
    let stats = search(space::<Tree>(3).unwrap(), &watch, &mut |_| {});
    assert_eq!(stats.found, 5);
    let shapes = watch.shapes.into_inner().unwrap();
    assert_eq!(shapes.iter().filter(|s| korat::is_trigger(s)).count(), 1, "{shapes:?}");
    let first = (korat::EXPLORED_BEFORE_TRIGGER, korat::FOUND_BEFORE_TRIGGER);
    assert_eq!(watch.first_trigger.into_inner().unwrap(), Some(first));
    // No valid tree has that shape at other scopes.
    for scope in [1, 2, 4] {
        let watch = Watch::default();
        search(space::<Tree>(scope).unwrap(), &watch, &mut |_| {});
        assert_eq!(*watch.first_trigger.lock().unwrap(), None, "scope {scope}");
    }
}

#[test]
fn the_korat_command_meets_the_trigger_in_its_split() {
    // As `smallscope korat --scope 3` runs it: a split search, one thread.
    let watch = Watch::default();
    let (stats, _) = search_parallel::<_, ()>(space::<Tree>(3).unwrap(), &watch, SearchOptions::default(), 1, |_| None);
    let probes = watch.runs.load(Ordering::Relaxed) - stats.explored;
    let (runs, _) = watch.first_trigger.into_inner().unwrap().expect("the trigger is reached");
    assert!(runs < probes, "the trigger is met after the split ({runs} runs, {probes} probes)");
    assert_eq!(runs, korat::PROBES_BEFORE_TRIGGER);
    assert_eq!(stats.found, 5);
}

#[test]
fn korat_treats_the_panicking_invariant_as_false() {
    let stats = run::<Tree>(3, from_fn::<Tree>(korat::panicking::rep_ok)).unwrap();
    assert_eq!((stats.found, stats.explored), (4, 63));
    // And reports it, with the candidate.
    assert_eq!(stats.failures.len(), 1);
    assert_eq!(stats.failures[0].kind, smallscope::events::FailureKind::Panic);
    let invariants = from_fn::<Tree>(korat::panicking::rep_ok);
    // As the `smallscope korat` command runs it.
    let (stats, _) =
        search_parallel::<_, ()>(space::<Tree>(3).unwrap(), &invariants, SearchOptions::default(), 1, |_| None);
    assert_eq!((stats.found, stats.explored), (4, 63));
}
