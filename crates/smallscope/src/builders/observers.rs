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

use crate::api::{Arg, OperationInfo, ParamKind, Returned, StdTraits, Subject};
use crate::beapi::fingerprint;
use crate::events::During;
use crate::heap::Linearizer;
use crate::random::RandomConfig;
use crate::runner::{run_captured, Killed, StopFlag, UserCode};
use crate::sequence::{Operand, Program};
use crate::ConfigError;

/// What observer detection found for one method.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "role")]
pub enum Role {
    /// Ran `calls` times legally, and never changed an input or made a structure.
    Observer { calls: u64 },
    /// Changed an input or made a structure: how, and the calls that show it.
    Mutator(Evidence),
    /// The random run never called it legally: nothing is known.
    Unexercised,
    /// Detection did not run to the end (see [`Detection::cut_short`]).
    Unchecked,
}

/// What observer detection found.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    /// Each operation's role, in API order.
    pub roles: Vec<Role>,
    /// Why detection was cut short, if it was: a call of its random run
    /// killed or hung an earlier attempt of the job. Every method is then
    /// [`Role::Unchecked`] and stays in the builders search, which stays
    /// exact (an observer only slows it), and the job goes on without
    /// running the subject's code at random again.
    pub cut_short: Option<String>,
}

impl Role {
    pub fn is_observer(&self) -> bool {
        matches!(self, Role::Observer { .. })
    }
}

/// One method's [`Role`], as observer detection found it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodRole {
    pub method: String,
    #[serde(flatten)]
    pub role: Role,
}

/// A call that shows a method is not an observer.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Evidence {
    pub effect: Effect,
    /// The calls, as Rust, up to and including the one that showed it.
    pub calls: Vec<String>,
}

/// What the call did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum Effect {
    /// Parameter `param` (0: the receiver) is not what it was before the call.
    Changed { param: usize },
    /// It returned a structure.
    Made,
}

impl std::fmt::Display for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let last = self.calls.last().map_or("", String::as_str);
        match self.effect {
            Effect::Changed { param: 0 } => write!(f, "`{last}` changed its receiver"),
            Effect::Changed { param } => write!(f, "`{last}` changed its argument {param}"),
            Effect::Made => write!(f, "`{last}` made a structure"),
        }
    }
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
    if let Some(k) = killed.iter().find(|k| runs.contains(&k.address.run)) {
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
    let type_path = crate::emit::type_expr(std::any::type_name::<T>());
    let mut calls = vec![0u64; ops.len()];
    let mut evidence: Vec<Option<Evidence>> = vec![None; ops.len()];
    let mut lin = Linearizer::new(None).every_field();
    let mut print = |value: &T| lin.linearize(value).map(fingerprint).ok();
    for program in &programs {
        let mut vars: Vec<Option<T>> = Vec::new();
        for (index, call) in program.calls.iter().enumerate() {
            let op = &ops[usize::from(call.op)];
            let mut before = Vec::with_capacity(call.operands.len());
            let mut args = Vec::with_capacity(call.operands.len());
            for operand in &call.operands {
                match operand {
                    Operand::Var(v) => {
                        let Some(value) = vars.get_mut(*v as usize).and_then(Option::take) else { break };
                        before.push(print(&value));
                        args.push(Arg::Subject(value));
                    }
                    Operand::Literal(literal) => {
                        before.push(None);
                        args.push(literal.to_arg());
                    }
                }
            }
            if args.len() < call.operands.len() {
                break; // a value moved before: the program cannot go on
            }
            let Ok(returned) = run_captured(UserCode::new(During::Call, call.op), || op.call(&mut args, false)) else {
                break; // legal when generated; a panic now means nondeterminism
            };
            let mut effect = None;
            for (param, ((operand, arg), was)) in call.operands.iter().zip(args).zip(&before).enumerate() {
                if let (Operand::Var(v), Arg::Subject(value)) = (operand, arg) {
                    let changed = matches!(op.params[param], ParamKind::Subject(_)) && print(&value) != *was;
                    if changed && effect.is_none() {
                        effect = Some(Effect::Changed { param });
                    }
                    vars[*v as usize] = Some(value);
                }
            }
            match returned {
                Returned::Misuse(_) => break,
                Returned::Subject(value) => {
                    effect = effect.or(Some(Effect::Made));
                    if let Some(var) = call.binds {
                        let var = var as usize;
                        if vars.len() <= var {
                            vars.resize_with(var + 1, || None);
                        }
                        vars[var] = Some(value);
                    }
                }
                Returned::Value { .. } | Returned::Unit => {}
            }
            let op_index = usize::from(call.op);
            calls[op_index] += 1;
            if let (Some(effect), None) = (effect, &evidence[op_index]) {
                let shown = Program { calls: program.calls[..=index].to_vec(), result: None };
                evidence[op_index] = Some(Evidence { effect, calls: shown.to_rust(&infos, &type_path) });
            }
        }
    }
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
