//! What builders identification runs with and finds: data the events
//! carry, below the searches (the events name it; it names nothing of
//! them).

use crate::beapi::{BeapiConfig, BuilderMethod};
use crate::events::Stop;

/// What `smallscope builders` runs with.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct IdentifySettings {
    /// The scope, domains and cache; `scope` is the identification scope.
    pub beapi: BeapiConfig,
    pub method: BuilderMethod,
    /// The genetic algorithm's seed (hill climbing uses none).
    pub seed: u64,
}

/// What identification found, and what the whole API reaches for comparison.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Identification {
    #[serde(flatten)]
    pub identified: Identified,
    /// Structures the builders make at the scope.
    pub structures_builders: usize,
    /// Structures the whole API makes at the scope: equal when the builders
    /// are sufficient there.
    pub structures_api: usize,
    /// Seconds identification took (0 when read from the cache).
    pub seconds: f64,
    pub from_cache: bool,
}

/// The outcome of identification.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Identified {
    /// Method names, in API order.
    pub builders: Vec<String>,
    /// Structures they make at `scope`.
    pub structures: usize,
    /// Field-extension values they reach at `scope`.
    #[serde(default)]
    pub field_values: usize,
    /// The paper's fitness: field values plus the tie-break term.
    #[serde(default)]
    pub fitness: f64,
    pub scope: u32,
    /// `hc` or `ga`.
    #[serde(default = "hill_climbing_name")]
    pub method: String,
    /// Methods left out of the search as observers, by name.
    #[serde(default)]
    pub observers: Vec<String>,
    /// Every method's role, with the evidence for each non-observer.
    #[serde(default)]
    pub roles: Vec<MethodRole>,
    /// What the user should know of how identification went.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Sets scored.
    #[serde(default)]
    pub evaluations: usize,
    /// Whether this came from the cache.
    #[serde(skip)]
    pub from_cache: bool,
    /// Seconds identification took (0 when read from the cache).
    #[serde(skip)]
    pub seconds: f64,
    /// Set when a limit or the stop flag ended identification early: the
    /// builders are then the best set found so far.
    #[serde(skip)]
    pub stopped: Option<Stop>,
}

fn hill_climbing_name() -> String {
    "hc".into()
}

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
    /// Detection did not run to the end (see [`Detection::cut_short`](super::observers::Detection::cut_short)).
    Unchecked,
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
