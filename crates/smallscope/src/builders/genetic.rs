//! Builders by a genetic algorithm (builders paper, §4.3, Algorithm 1).
//!
//! A chromosome is a set of the candidate methods. The first population is
//! every singleton. Each generation keeps the `pop_size` fittest, adds the
//! children of `pop_size · c_rate` single-point crossovers of random pairs,
//! and a mutant of each kept chromosome whose genes each flipped with
//! probability `m_rate`; after `generations`, the fittest ever seen wins.
//! New chromosomes are scored in parallel (rayon); scores are exact and
//! memoized (see [`super::fitness`]), and the random choices come from one
//! seeded generator, so a seed gives one answer.
//!
//! The fittest is then polished, deterministically: a method whose removal
//! keeps the fitness is dropped, and a method replaced by another if that is
//! fitter, until neither helps. The answer is therefore minimal, and among
//! sets that tie it is the earliest in API order, whatever the seed.

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use rayon::prelude::*;

use super::fitness::{better, Fitness, Scorer};
use super::{Choice, Strategy};
use crate::events::Stop;
use crate::ConfigError;

/// The algorithm's parameters; the defaults are the paper's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Genetic {
    pub seed: u64,
    /// `numEvo`: 20.
    pub generations: u32,
    /// `popSize`: 30.
    pub pop_size: usize,
    /// `cRate`: 0.35.
    pub c_rate: f64,
    /// `mRate`: 0.08.
    pub m_rate: f64,
}

impl Default for Genetic {
    fn default() -> Self {
        Genetic { seed: 0, generations: 20, pop_size: 30, c_rate: 0.35, m_rate: 0.08 }
    }
}

/// A chromosome: one gene per candidate method.
type Genes = Vec<bool>;

impl Genetic {
    /// The operation indices a chromosome stands for, sorted.
    fn set(genes: &Genes, candidates: &[usize]) -> Vec<usize> {
        candidates.iter().zip(genes).filter(|(_, &on)| on).map(|(&i, _)| i).collect()
    }

    /// Scores every chromosome not scored yet, in parallel.
    fn score_all(scorer: &Scorer<'_>, population: &[Genes]) -> Result<Result<Vec<Fitness>, Stop>, ConfigError> {
        let candidates = scorer.candidates();
        let scored: Vec<_> = population.par_iter().map(|genes| scorer.score(&Self::set(genes, candidates))).collect();
        let mut out = Vec::with_capacity(scored.len());
        for result in scored {
            match result? {
                Ok(fitness) => out.push(fitness),
                Err(stop) => return Ok(Err(stop)),
            }
        }
        Ok(Ok(out))
    }
}

impl Strategy for Genetic {
    fn name(&self) -> &'static str {
        "ga"
    }

    fn choose(&self, scorer: &Scorer<'_>) -> Result<Choice, ConfigError> {
        let candidates = scorer.candidates().to_vec();
        let genes = candidates.len();
        let mut rng = XorShiftRng::seed_from_u64(self.seed);
        let mut population: Vec<Genes> = (0..genes).map(|g| (0..genes).map(|i| i == g).collect()).collect();
        let mut best: Option<(Vec<usize>, Fitness)> = None;
        let mut stopped = None;
        for _ in 0..=self.generations {
            population.sort();
            population.dedup();
            let fitness = match Self::score_all(scorer, &population)? {
                Ok(fitness) => fitness,
                Err(stop) => {
                    stopped = Some(stop);
                    break;
                }
            };
            let mut ranked: Vec<(Vec<usize>, Fitness, Genes)> = population
                .drain(..)
                .zip(fitness)
                .map(|(genes, fitness)| (Self::set(&genes, &candidates), fitness, genes))
                .collect();
            // Fittest first; exact ties in API order, as `better` decides.
            ranked.sort_by(|a, b| b.1.compare(&a.1).then_with(|| a.0.cmp(&b.0)));
            ranked.truncate(self.pop_size);
            if let Some((set, fitness, _)) = ranked.first() {
                if best.as_ref().is_none_or(|(s, f)| better((set, fitness), (s, f))) {
                    best = Some((set.clone(), *fitness));
                }
            }
            population = ranked.into_iter().map(|(_, _, genes)| genes).collect();
            if genes < 2 || population.is_empty() {
                break;
            }
            let kept = population.len();
            let crossovers = (self.pop_size as f64 * self.c_rate).round() as usize;
            for _ in 0..crossovers {
                let (a, b) = (rng.random_range(0..kept), rng.random_range(0..kept));
                let point = rng.random_range(1..genes);
                let mut child_a = population[a][..point].to_vec();
                child_a.extend_from_slice(&population[b][point..]);
                let mut child_b = population[b][..point].to_vec();
                child_b.extend_from_slice(&population[a][point..]);
                population.extend([child_a, child_b]);
            }
            for index in 0..kept {
                let mut mutant = population[index].clone();
                let mut changed = false;
                for gene in mutant.iter_mut() {
                    if rng.random_bool(self.m_rate) {
                        *gene = !*gene;
                        changed = true;
                    }
                }
                if changed {
                    population.push(mutant);
                }
            }
            population.retain(|genes| genes.iter().any(|&on| on));
        }
        let Some((set, fitness)) = best else {
            return Ok(Choice { set: candidates, fitness: None, stopped });
        };
        if stopped.is_some() {
            return Ok(Choice { set, fitness: Some(fitness), stopped });
        }
        polish(scorer, set, fitness)
    }
}

/// Makes `set` minimal and canonical: drops a method when the rest is as
/// fit, and swaps one for another when that is fitter, until neither helps.
pub(crate) fn polish(scorer: &Scorer<'_>, mut set: Vec<usize>, mut fitness: Fitness) -> Result<Choice, ConfigError> {
    loop {
        let mut neighbours: Vec<Vec<usize>> = Vec::new();
        for (position, _) in set.iter().enumerate() {
            let mut smaller = set.clone();
            smaller.remove(position);
            if !smaller.is_empty() {
                neighbours.push(smaller.clone());
            }
            for &other in scorer.candidates() {
                if !set.contains(&other) {
                    let mut swapped = smaller.clone();
                    swapped.push(other);
                    swapped.sort_unstable();
                    neighbours.push(swapped);
                }
            }
        }
        let scored: Vec<_> = neighbours.par_iter().map(|n| scorer.score(n)).collect();
        let mut improved = None;
        for (neighbour, result) in neighbours.into_iter().zip(scored) {
            match result? {
                Ok(f) => {
                    let current = improved.as_ref().map_or((&set, &fitness), |(s, f)| (s, f));
                    // As fit but smaller counts: fewer methods raise the tie-break.
                    if better((&neighbour, &f), (current.0, current.1)) {
                        improved = Some((neighbour, f));
                    }
                }
                Err(stop) => return Ok(Choice { set, fitness: Some(fitness), stopped: Some(stop) }),
            }
        }
        match improved {
            Some((better_set, better_fitness)) => (set, fitness) = (better_set, better_fitness),
            None => return Ok(Choice { set, fitness: Some(fitness), stopped: None }),
        }
    }
}
