//! Observer detection (builders paper, §4.4): which methods never change
//! their inputs and never make a structure, found by running them.
//!
//! A seeded random run ([`crate::random::legal_programs`]) makes legal call
//! sequences; each is replayed here with every structure argument's
//! canonical form (all fields, hidden ones too) taken before and after each
//! call. A method is an observer when it ran and never changed an input nor
//! returned a structure. Otherwise the first call that did is its evidence.
//! A method the run never managed to call is [`Role::Unexercised`], and
//! stays in the builders search: only what was seen is ruled out.
//!
//! The random run calls the subject's code far from the small scope, where
//! its bugs may hang or kill the worker. The first time that happens,
//! detection is given up for the job (see [`Detection::cut_short`]): one
//! restart, not one per bug the random run would meet.
//!
//! The signature does not settle it: a `&self` method may change its
//! receiver through a `RefCell`, and a `&mut self` one may only read.

use crate::api::{Arg, Operation, OperationInfo, ParamKind, Returned, StdTraits, Subject};
use crate::beapi::fingerprint;
use crate::events::During;
use crate::heap::Linearizer;
use crate::random::RandomConfig;
use crate::runner::{run_captured, Killed, StopFlag, UserCode};
use crate::sequence::{CallWatch, Program};
use crate::ConfigError;

pub use super::identified::{Effect, Evidence, MethodRole, Role};

/// What observer detection found.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    /// Each operation's role, in API order.
    pub roles: Vec<Role>,
    /// Why detection was cut short, if it was: a call of its random run
    /// killed or hung an earlier attempt of the job, twice (once to confirm
    /// it). Every method is then
    /// [`Role::Unchecked`] and stays in the builders search, which stays
    /// exact (an observer only slows it), and the job goes on without
    /// running the subject's code at random again.
    pub cut_short: Option<String>,
}

/// Where observer detection's run numbers start: apart from the job's own
/// search (run 0), so that an input that killed one is not stepped past in
/// the other. (Sets' searches are numbered by hashes, which meet these with
/// negligible odds.)
const OBSERVER_RUNS: u64 = 1 << 62;

/// Sequences the random run makes for observer detection: enough to call
/// each method of a 40-method API many times, in well under a second.
pub const SEQUENCES: u64 = 3_000;

/// The random run's settings for detecting `T`'s observers: seeded, bounded
/// by sequences (not time, so that the answer is the same on every
/// machine), with integers from `ints` (the builders search's domain).
pub fn random_settings(ints: std::ops::Range<i64>) -> RandomConfig {
    RandomConfig {
        seed: 0,
        sequence_limit: Some(SEQUENCES),
        ints: ints.collect(),
        max_length: 40,
        simplify: false,
        // Every legal sequence that observes a value: how observers are seen.
        regression_tests: SEQUENCES as usize,
        ..RandomConfig::default()
    }
}

/// Each operation's [`Role`], in API order.
pub fn classify<T: Subject + StdTraits>(
    config: &RandomConfig,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<Detection, ConfigError> {
    let ops = T::operations();
    let runs = OBSERVER_RUNS..OBSERVER_RUNS + (1 << 32);
    // An input not confirmed yet is run again first (the random run is
    // seeded): dying again confirms it, for the searches after this one.
    if let Some(k) = killed.iter().find(|k| runs.contains(&k.address.run) && k.confirmed) {
        let op = ops.get(usize::from(k.op)).map_or("?", |op| op.name);
        let why = format!(
            "observer detection stopped: its random run's call of `{op}` ended an attempt ({}: {}); every method \
             stays in the builders search",
            k.kind.name(),
            k.message
        );
        return Ok(Detection { roles: vec![Role::Unchecked; ops.len()], cut_short: Some(why) });
    }
    let programs = crate::random::legal_programs::<T>(config, OBSERVER_RUNS, killed, stop)?;
    let infos: Vec<OperationInfo> = ops.iter().map(|op| op.info()).collect();
    let mut watch = EffectWatch {
        ops: &ops,
        infos: &infos,
        type_path: crate::emit::type_expr(std::any::type_name::<T>()),
        lin: Linearizer::new(None).every_field(),
        program: &Program { calls: Vec::new(), result: None },
        before: Vec::new(),
        calls: vec![0; ops.len()],
        evidence: vec![None; ops.len()],
    };
    for program in &programs {
        watch.program = program;
        // A program stops early only if its run was not deterministic.
        let _ = program.run::<T>(&mut watch);
    }
    let (evidence, calls) = (watch.evidence, watch.calls);
    let roles = evidence
        .into_iter()
        .zip(calls)
        .map(|(evidence, calls)| match (evidence, calls) {
            (Some(evidence), _) => Role::Mutator(evidence),
            (None, 0) => Role::Unexercised,
            (None, calls) => Role::Observer { calls },
        })
        .collect();
    Ok(Detection { roles, cut_short: None })
}

/// Watches replayed calls for the first one of each operation that changed
/// a structure argument or made a structure.
struct EffectWatch<'a, T> {
    ops: &'a [Operation<T>],
    infos: &'a [OperationInfo],
    type_path: String,
    lin: Linearizer,
    program: &'a Program,
    /// The current call's structure arguments' fingerprints, by position.
    before: Vec<Option<u128>>,
    calls: Vec<u64>,
    evidence: Vec<Option<Evidence>>,
}

impl<T: Subject> EffectWatch<'_, T> {
    fn print(&mut self, arg: &Arg<T>) -> Option<u128> {
        match arg {
            Arg::Subject(value) => self.lin.linearize(value).map(fingerprint).ok(),
            _ => None,
        }
    }
}

impl<T: Subject> CallWatch<T> for EffectWatch<'_, T> {
    fn before(&mut self, _index: usize, args: &[Arg<T>]) {
        self.before = args.iter().map(|arg| self.print(arg)).collect();
    }

    fn call(&mut self, index: usize, op: &Operation<T>, args: &mut [Arg<T>]) -> Option<Returned<T>> {
        // Legal when generated: a panic now means the run was not deterministic.
        let code = UserCode::new(During::Call, self.program.calls[index].op);
        run_captured(code, || op.call(args, false)).ok()
    }

    fn after(&mut self, index: usize, args: &[Arg<T>], returned: &Returned<T>) {
        let call = &self.program.calls[index];
        let op_index = usize::from(call.op);
        let params = &self.ops[op_index].params;
        let mut effect = None;
        for (param, arg) in args.iter().enumerate() {
            let changed = matches!(params[param], ParamKind::Subject(_))
                && matches!(arg, Arg::Subject(_))
                && self.print(arg) != self.before[param];
            if changed {
                effect = Some(Effect::Changed { param });
                break;
            }
        }
        if let Returned::Subject(_) = returned {
            effect = effect.or(Some(Effect::Made));
        }
        self.calls[op_index] += 1;
        if let (Some(effect), None) = (effect, &self.evidence[op_index]) {
            let shown = Program { calls: self.program.calls[..=index].to_vec(), result: None };
            self.evidence[op_index] = Some(Evidence { effect, calls: shown.to_rust(self.infos, &self.type_path) });
        }
    }
}
