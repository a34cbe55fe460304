//! The fitness of a set of methods as builders (builders paper, §4.2).
//!
//! The main term is the number of field-extension values the set reaches
//! at a small scope, computed exactly by BEAPI (the paper used random runs,
//! and names their randomness its main weakness). Between sets that reach
//! as many values, the one that makes more structures wins (sufficiency is
//! defined on structures), then the paper's term in `[0, 1)`: fewer
//! methods (weight `w1`), fewer parameters, reference ones counting `w3`
//! (weight `w2`); then simpler parameters by kind (a `bool` before an
//! integer, see [`crate::api::ParamKind::complexity`]), which the paper's
//! count does not tell apart. Scores are memoized per set, and may be
//! asked for from several threads at once.

use std::cmp::Ordering;
use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::api::{OperationInfo, ParamKind};
use crate::beapi::Reach;
use crate::events::Stop;
use crate::ConfigError;

/// The paper's weights: `w1` for fewer methods, `w2` for simpler
/// parameters, `w3` for a reference parameter against a primitive one.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    pub w1: f64,
    pub w2: f64,
    pub w3: f64,
}

impl Default for Weights {
    /// The paper's: 2, 1, 2.
    fn default() -> Self {
        Weights { w1: 2.0, w2: 1.0, w3: 2.0 }
    }
}

/// How fit a set of methods is.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fitness {
    pub reach: Reach,
    /// The paper's tie-break term, in `[0, 1)`.
    pub tie_break: f64,
    /// The sum of the parameters' complexities: lower is simpler.
    pub complexity: u32,
}

impl Fitness {
    /// The paper's `f(M)`: field-extension values plus the tie-break term.
    pub fn value(&self) -> f64 {
        self.reach.field_values as f64 + self.tie_break
    }

    /// Fitter first: more field values, more structures, a larger
    /// tie-break, simpler parameters.
    pub fn compare(&self, other: &Fitness) -> Ordering {
        self.reach
            .cmp(&other.reach)
            .then(self.tie_break.total_cmp(&other.tie_break))
            .then(other.complexity.cmp(&self.complexity))
    }
}

/// Measures one set (operation indices, sorted) at the small scope, as the
/// search numbered `run`: its reach, or why a limit stopped it.
pub type Measure<'a> = dyn Fn(&[usize], u64) -> Result<Result<Reach, Stop>, ConfigError> + Sync + 'a;

/// Scores sets of methods of one API, each once.
pub struct Scorer<'a> {
    operations: &'a [OperationInfo],
    /// The methods searched over (observers left out): the paper's `MT`.
    candidates: Vec<usize>,
    weights: Weights,
    measure: &'a Measure<'a>,
    memo: Mutex<FxHashMap<Vec<usize>, Fitness>>,
}

impl<'a> Scorer<'a> {
    pub fn new(
        operations: &'a [OperationInfo],
        candidates: Vec<usize>,
        weights: Weights,
        measure: &'a Measure<'a>,
    ) -> Self {
        Scorer { operations, candidates, weights, measure, memo: Mutex::default() }
    }

    /// The methods searched over, by index into the API.
    pub fn candidates(&self) -> &[usize] {
        &self.candidates
    }

    pub fn operations(&self) -> &[OperationInfo] {
        self.operations
    }

    /// Sets scored so far.
    pub fn evaluations(&self) -> usize {
        self.memo.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The fitness of `set` (operation indices, any order), or why a limit
    /// stopped its measure.
    pub fn score(&self, set: &[usize]) -> Result<Result<Fitness, Stop>, ConfigError> {
        let mut key = set.to_vec();
        key.sort_unstable();
        key.dedup();
        if let Some(known) = self.memo.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(Ok(*known));
        }
        let reach = match (self.measure)(&key, run_number(&key))? {
            Ok(reach) => reach,
            Err(stop) => return Ok(Err(stop)),
        };
        let complexity = key.iter().map(|&i| self.operations[i].complexity()).sum();
        let fitness = Fitness { reach, tie_break: self.tie_break(&key), complexity };
        self.memo.lock().unwrap_or_else(|e| e.into_inner()).insert(key, fitness);
        Ok(Ok(fitness))
    }

    /// The paper's term: `(w1 (1 - |M|/|MT|) + w2 (1 - params(M)/params(MT))) / (w1 + w2)`.
    fn tie_break(&self, set: &[usize]) -> f64 {
        let Weights { w1, w2, w3 } = self.weights;
        let params = |ops: &mut dyn Iterator<Item = &usize>| -> f64 {
            ops.map(|&i| {
                let info = &self.operations[i];
                info.params
                    .iter()
                    .skip(usize::from(info.receiver))
                    .map(|p| match p {
                        ParamKind::Subject(_) | ParamKind::Other(_) => w3,
                        _ => 1.0,
                    })
                    .sum::<f64>()
            })
            .sum()
        };
        let all = self.candidates.len().max(1) as f64;
        let all_params = params(&mut self.candidates.iter());
        let methods = 1.0 - set.len() as f64 / all;
        let simpler = if all_params > 0.0 { 1.0 - params(&mut set.iter()) / all_params } else { 1.0 };
        (w1 * methods + w2 * simpler) / (w1 + w2)
    }
}

/// Of two sets with their fitness, whether the first is better: fitter,
/// then (exact ties) earlier in API order, so that the answer does not
/// depend on the order sets were met in.
pub fn better(a: (&[usize], &Fitness), b: (&[usize], &Fitness)) -> bool {
    match a.1.compare(b.1) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => a.0 < b.0,
    }
}

/// The run number of the search that measures `set` (sorted operation
/// indices): from the set itself, so the same on every attempt and whatever
/// order sets are measured in, and killed inputs are found again. Never 0,
/// the number of a run's own search.
pub fn run_number(set: &[usize]) -> u64 {
    let bytes: Vec<u8> = set.iter().flat_map(|i| (*i as u32).to_le_bytes()).collect();
    1 + xxhash_rust::xxh3::xxh3_64(&bytes) % (u64::MAX - 1)
}
