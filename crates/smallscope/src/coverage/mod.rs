//! Field coverage criteria and transcoping: small suites that keep their
//! bug-finding power.
//!
//! The idea (Godio, Bengolea, Ponzio, Aguirre and Frias, ASE 2019): keep
//! an input only if it adds a pair to some field's extension (see
//! [`crate::heap::FieldExtensions`]). Kept to the end, that is a
//! field-exhaustive suite (**FET**). **Transcoping** stops earlier: run FET
//! at scopes 1 to a small scope, fit how each field's extension grows (or
//! how long each scope took to reach its last pair), extrapolate to the
//! target scope, and stop once every field has reached its predicted size
//! (`fbt-l`, `fbt-q`, `fbt-a`) or the predicted time has passed
//! (`time-q`, `time-e`, `time-a`).
//!
//! The paper drives Symbolic PathFinder's lazy initialization over
//! `repOK`. Korat's search over the fields `rep_ok` reads is the same
//! exploration, and BEAPI's levels reach the same structures from the
//! API, so those are the engines here. Both meet small structures first,
//! which is what makes most pairs appear early:
//!
//! - Korat's stock finitizations fix the size, so a suite at scope `n`
//!   runs the search at sizes 1, 2, …, n in turn
//!   ([`KoratSettings::ascending`](crate::korat::KoratSettings::ascending)):
//!   strictly ascending size, the order SPF's heuristic approximates, and
//!   the FET suite at a small scope is a prefix of the target's run (one
//!   pass, as the paper allows). Within one size, null-first domains make
//!   the search meet shallow shapes first.
//! - BEAPI extends sequences level by level, one call per level, and a
//!   call adds at most a few objects, so structures come in roughly
//!   ascending size (a structure of n objects needs about n calls). Each
//!   small scope is a run of its own, since BEAPI's scope also bounds the
//!   values. The deepest pairs (`left` of the last node) still come with
//!   the last levels, so on BEAPI transcoping saves less than on Korat.
//!
//! A criterion is a filter over an engine's stream of structures: a
//! [`Suite`] is offered each structure's [`ObjectGraph`] in stream order,
//! says whether to keep it, and when to stop. The suite it keeps depends
//! only on that order, so the same run keeps the same suite; only the
//! time policies depend on the clock.
//!
//! ```
//! use smallscope::coverage::{Criterion, Suite};
//! use smallscope::heap::Linearizer;
//! use smallscope::Heap;
//!
//! #[derive(Heap)]
//! struct Node { next: Option<Box<Node>> }
//!
//! let list = |n: usize| (0..n).fold(Node { next: None }, |next, _| Node { next: Some(Box::new(next)) });
//! let mut suite = Suite::new(Criterion::Fet, 3, 5);
//! let mut lin = Linearizer::new(None);
//! for n in 0..3 {
//!     suite.offer(&lin.graph(&list(n)).unwrap(), 0.0);
//! }
//! assert_eq!(suite.kept(), 3); // each longer list adds Node#k.next = Node#k+1
//! ```

mod regression;

pub use regression::{Curve, Extrapolation, Fit, RegressionError};

use std::collections::BTreeMap;

use crate::heap::{FieldExtensions, ObjectGraph};

/// What to keep, and when to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    /// Field-exhaustive: keep every structure that adds a pair, to the end.
    Fet,
    /// Stop at the field sizes a line predicts.
    FbtL,
    /// Stop at the field sizes a parabola predicts.
    FbtQ,
    /// Stop at the average of the two.
    FbtA,
    /// Stop at the time a parabola predicts.
    TimeQ,
    /// Stop at the time an exponential predicts.
    TimeE,
    /// Stop at the average of the two.
    TimeA,
}

impl Criterion {
    pub const ALL: [Criterion; 7] = [
        Criterion::Fet,
        Criterion::FbtL,
        Criterion::FbtQ,
        Criterion::FbtA,
        Criterion::TimeQ,
        Criterion::TimeE,
        Criterion::TimeA,
    ];

    /// Its name on the command line: `fet`, `fbt-a`, `time-q`, …
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Fet => "fet",
            Criterion::FbtL => "fbt-l",
            Criterion::FbtQ => "fbt-q",
            Criterion::FbtA => "fbt-a",
            Criterion::TimeQ => "time-q",
            Criterion::TimeE => "time-e",
            Criterion::TimeA => "time-a",
        }
    }

    /// What it extrapolates, and how; `None` for FET.
    pub fn transcoping(self) -> Option<(Transcoped, Extrapolation)> {
        use Curve::{Exponential, Linear, Quadratic};
        let sizes = |e| Some((Transcoped::FieldSizes, e));
        let time = |e| Some((Transcoped::Time, e));
        match self {
            Criterion::Fet => None,
            Criterion::FbtL => sizes(Extrapolation::One(Linear)),
            Criterion::FbtQ => sizes(Extrapolation::One(Quadratic)),
            Criterion::FbtA => sizes(Extrapolation::Average(Linear, Quadratic)),
            Criterion::TimeQ => time(Extrapolation::One(Quadratic)),
            Criterion::TimeE => time(Extrapolation::One(Exponential)),
            Criterion::TimeA => time(Extrapolation::Average(Quadratic, Exponential)),
        }
    }

    /// The criteria that transcope the same measure as this one (the plot
    /// draws each one's prediction); empty for FET.
    pub fn family(self) -> Vec<Criterion> {
        let Some((measure, _)) = self.transcoping() else { return Vec::new() };
        Criterion::ALL.into_iter().filter(|c| c.transcoping().is_some_and(|(m, _)| m == measure)).collect()
    }
}

impl std::fmt::Display for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Criterion {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Criterion::ALL.into_iter().find(|c| c.name() == text).ok_or_else(|| {
            let names: Vec<&str> = Criterion::ALL.iter().map(|c| c.name()).collect();
            format!("unknown criterion `{text}`; known: {}", names.join(", "))
        })
    }
}

/// What a transcoping criterion extrapolates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transcoped {
    /// Each field's extension size (Algorithm 1).
    FieldSizes,
    /// The time to reach the full field extensions (Algorithm 2).
    Time,
}

/// Why a suite stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoppedBy {
    /// Every field reached its predicted size.
    PredictedSizes,
    /// The predicted time passed.
    PredictedTime,
    /// The engine had no more structures.
    Exhausted,
    /// Ctrl-C, SIGTERM, or a run that could not go on: the suite holds what
    /// was kept before.
    Interrupted,
}

impl StoppedBy {
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::PredictedSizes => "predicted-sizes",
            StoppedBy::PredictedTime => "predicted-time",
            StoppedBy::Exhausted => "exhausted",
            StoppedBy::Interrupted => "interrupted",
        }
    }
}

/// What one complete small scope measured.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScopeMeasure {
    pub scope: u32,
    /// Each field's extension size at this scope, by `Class.field`.
    pub field_sizes: BTreeMap<String, usize>,
    /// Seconds from the scope's start until its last new pair.
    pub seconds_to_full: f64,
    /// Structures the FET suite at this scope keeps.
    pub suite_size: u64,
}

/// A criterion's running state over one engine's stream: the suite so far,
/// the small scopes measured, and the prediction once they are.
#[derive(Debug, Clone)]
pub struct Suite {
    criterion: Criterion,
    scope: u32,
    small_scope: u32,
    extensions: FieldExtensions,
    kept: u64,
    /// The last time (seconds since the stream began) a pair was added.
    last_new_pair: f64,
    measures: Vec<ScopeMeasure>,
    predicted_sizes: Option<BTreeMap<String, usize>>,
    predicted_seconds: Option<f64>,
    stopped: Option<StoppedBy>,
}

impl Suite {
    /// A suite at `scope`, transcoping from scopes 1 to `small_scope` (the
    /// paper's 5) when the criterion does. The small scope is capped one
    /// below the target.
    pub fn new(criterion: Criterion, scope: u32, small_scope: u32) -> Self {
        Suite {
            criterion,
            scope,
            small_scope: small_scope.min(scope.saturating_sub(1)),
            extensions: FieldExtensions::default(),
            kept: 0,
            last_new_pair: 0.0,
            measures: Vec::new(),
            predicted_sizes: None,
            predicted_seconds: None,
            stopped: None,
        }
    }

    pub fn criterion(&self) -> Criterion {
        self.criterion
    }

    pub fn scope(&self) -> u32 {
        self.scope
    }

    /// The last scope measured before the prediction (scopes 1 to it are);
    /// `None` for FET, or when the target is too small to transcope from
    /// three smaller scopes.
    pub fn small_scope(&self) -> Option<u32> {
        self.criterion.transcoping().and(Some(self.small_scope)).filter(|&small| small >= 3)
    }

    /// Offers the next structure of the stream, `seconds` after it began;
    /// whether the suite keeps it. Once stopped, nothing is kept.
    pub fn offer(&mut self, graph: &ObjectGraph, seconds: f64) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if self.time_is_up(seconds) {
            return false;
        }
        let added = self.extensions.add(graph);
        if added {
            self.kept += 1;
            self.last_new_pair = seconds;
            if self.sizes_reached() {
                self.stopped = Some(StoppedBy::PredictedSizes);
            }
        }
        added
    }

    /// Whether the predicted time has passed `seconds` into the stream (a
    /// time policy stops then, even between structures).
    pub fn time_is_up(&mut self, seconds: f64) -> bool {
        if self.stopped.is_none() && self.predicted_seconds.is_some_and(|limit| seconds > limit) {
            self.stopped = Some(StoppedBy::PredictedTime);
        }
        self.stopped == Some(StoppedBy::PredictedTime)
    }

    fn sizes_reached(&self) -> bool {
        self.predicted_sizes
            .as_ref()
            .is_some_and(|predicted| predicted.iter().all(|(field, &size)| self.extensions.size(field) >= size))
    }

    /// The suite's state as a measure of `scope`: its field sizes, and
    /// when (in the seconds [`Suite::offer`] was given) its last pair came.
    pub fn measure(&self, scope: u32) -> ScopeMeasure {
        ScopeMeasure {
            scope,
            field_sizes: self.extensions.sizes(),
            seconds_to_full: self.last_new_pair,
            suite_size: self.kept,
        }
    }

    /// Records that small scope `scope` is complete: the suite must hold
    /// exactly the structures of that scope, and the seconds it was offered
    /// them at count from the start of that scope's run. After the last
    /// small scope, the prediction is made.
    pub fn small_scope_done(&mut self, scope: u32) -> Result<(), RegressionError> {
        self.measures.push(self.measure(scope));
        if scope == self.small_scope {
            self.predict()?;
        }
        Ok(())
    }

    /// Starts a scope that is a run of its own (BEAPI), from nothing.
    pub fn start_scope(&mut self) {
        self.extensions = FieldExtensions::default();
        self.kept = 0;
        self.last_new_pair = 0.0;
    }

    /// Starts the run at the target scope: afresh (BEAPI), or carrying on
    /// from the small scopes' stream (Korat). A prediction the suite
    /// already meets stops it here.
    pub fn start_target(&mut self, fresh: bool) {
        if fresh {
            self.start_scope();
        }
        if self.stopped.is_none() && self.sizes_reached() {
            self.stopped = Some(StoppedBy::PredictedSizes);
        }
    }

    fn predict(&mut self) -> Result<(), RegressionError> {
        let Some((measure, extrapolation)) = self.criterion.transcoping() else { return Ok(()) };
        let target = f64::from(self.scope);
        match measure {
            Transcoped::FieldSizes => {
                self.predicted_sizes = Some(predict_sizes(&self.measures, extrapolation, target)?);
            }
            Transcoped::Time => {
                let points: Vec<(f64, f64)> =
                    self.measures.iter().map(|m| (f64::from(m.scope), m.seconds_to_full)).collect();
                self.predicted_seconds = Some(extrapolation.predict(&points, target)?.max(0.0));
            }
        }
        Ok(())
    }

    /// The stream ended: the engine has nothing more.
    pub fn exhausted(&mut self) {
        self.stopped.get_or_insert(StoppedBy::Exhausted);
    }

    /// The stream was cut from outside before the criterion stopped it.
    pub fn interrupted(&mut self) {
        self.stopped.get_or_insert(StoppedBy::Interrupted);
    }

    /// Why it stopped, once it has.
    pub fn stopped(&self) -> Option<StoppedBy> {
        self.stopped
    }

    /// Structures kept.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    pub fn extensions(&self) -> &FieldExtensions {
        &self.extensions
    }

    pub fn measures(&self) -> &[ScopeMeasure] {
        &self.measures
    }

    pub fn predicted_sizes(&self) -> Option<&BTreeMap<String, usize>> {
        self.predicted_sizes.as_ref()
    }

    pub fn predicted_seconds(&self) -> Option<f64> {
        self.predicted_seconds
    }
}

/// Each field's predicted extension size at `target`, from the measured
/// scopes, rounded to a whole number of pairs (at least 0).
pub fn predict_sizes(
    measures: &[ScopeMeasure],
    extrapolation: Extrapolation,
    target: f64,
) -> Result<BTreeMap<String, usize>, RegressionError> {
    let fields: std::collections::BTreeSet<&String> = measures.iter().flat_map(|m| m.field_sizes.keys()).collect();
    fields
        .into_iter()
        .map(|field| {
            let points: Vec<(f64, f64)> = measures
                .iter()
                .map(|m| (f64::from(m.scope), m.field_sizes.get(field).copied().unwrap_or(0) as f64))
                .collect();
            let predicted = extrapolation.predict(&points, target)?;
            Ok((field.clone(), predicted.round().max(0.0) as usize))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{GraphObject, GraphValue};

    /// A graph of one object whose `field` holds `value`.
    fn graph(field: &str, value: i64) -> ObjectGraph {
        ObjectGraph {
            objects: vec![GraphObject {
                class: "C".into(),
                fields: vec![(field.to_owned().into(), GraphValue::Prim(value.to_string()))],
                index: None,
            }],
        }
    }

    /// Scope k adds the values 0..k to field `f`: sizes 1, 2, 3 at scopes
    /// 1 to 3, a line, so fbt-l at scope 6 predicts 6 and stops at the 6th.
    #[test]
    fn size_transcoping_stops_at_the_predicted_size() {
        let mut suite = Suite::new(Criterion::FbtL, 6, 3);
        assert_eq!(suite.small_scope(), Some(3));
        let mut offered = 0;
        'scopes: for scope in 1..=6u32 {
            for value in 0..i64::from(scope) {
                offered += 1;
                suite.offer(&graph("f", value), 0.0);
                if suite.stopped().is_some() {
                    break 'scopes;
                }
            }
            if scope <= 3 {
                suite.small_scope_done(scope).unwrap();
            }
            if scope == 3 {
                suite.start_target(false);
            }
        }
        assert_eq!(suite.predicted_sizes().unwrap()["C.f"], 6);
        assert_eq!(suite.stopped(), Some(StoppedBy::PredictedSizes));
        assert_eq!(suite.kept(), 6);
        // Scopes 1..=5 offer 15 values; the sixth pair is the last value scope 6 offers.
        assert_eq!(offered, 21);
    }

    #[test]
    fn fet_keeps_to_the_end_and_time_policies_stop_on_the_clock() {
        let mut fet = Suite::new(Criterion::Fet, 4, 5);
        assert_eq!(fet.small_scope(), None);
        assert!(fet.offer(&graph("f", 1), 0.0));
        assert!(!fet.offer(&graph("f", 1), 0.0));
        fet.exhausted();
        assert_eq!((fet.kept(), fet.stopped()), (1, Some(StoppedBy::Exhausted)));

        // Each scope reaches its last pair after `scope` seconds: a line, so
        // every time policy predicts a little over 5 s at scope 5.
        let mut timed = Suite::new(Criterion::TimeQ, 5, 4);
        for scope in 1..=4u32 {
            timed.start_scope();
            timed.offer(&graph("f", i64::from(scope)), f64::from(scope));
            timed.small_scope_done(scope).unwrap();
        }
        timed.start_target(true);
        assert!((timed.predicted_seconds().unwrap() - 5.0).abs() < 1e-6);
        assert!(!timed.time_is_up(4.0));
        assert!(timed.time_is_up(5.5));
        assert!(!timed.offer(&graph("f", 9), 6.0));
        assert_eq!(timed.stopped(), Some(StoppedBy::PredictedTime));
    }

    #[test]
    fn names_round_trip() {
        for criterion in Criterion::ALL {
            assert_eq!(criterion.name().parse::<Criterion>(), Ok(criterion));
        }
        assert!("fbt-x".parse::<Criterion>().unwrap_err().contains("fbt-a"));
        assert_eq!(Criterion::TimeE.family(), [Criterion::TimeQ, Criterion::TimeE, Criterion::TimeA]);
    }
}
