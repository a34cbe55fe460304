//! Builders by hill climbing (BEAPI paper, §3.3).
//!
//! The climb starts from the fittest constructor and adds, one at a time,
//! the method that helps most, while that strictly helps (more field
//! values or more structures). Cost: at most `m` rounds of `m` BEAPI runs
//! at the small scope, for `m` candidate methods. It is greedy: a method
//! that helps only together with another (a remove that only a later add
//! makes useful) can be missed, which the genetic algorithm does not miss.

use super::fitness::{better, Fitness, Scorer};
use super::{Choice, Strategy};
use crate::ConfigError;

/// Hill climbing over the candidate methods.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HillClimbing;

impl Strategy for HillClimbing {
    fn name(&self) -> &'static str {
        "hc"
    }

    fn choose(&self, scorer: &Scorer<'_>) -> Result<Choice, ConfigError> {
        let operations = scorer.operations();
        let constructors: Vec<usize> =
            scorer.candidates().iter().copied().filter(|&i| operations[i].is_constructor()).collect();
        if constructors.is_empty() {
            return Err(ConfigError::SubjectWithoutConstructor);
        }
        let mut current: Option<(Vec<usize>, Fitness)> = None;
        let mut sets: Vec<Vec<usize>> = constructors.iter().map(|&c| vec![c]).collect();
        loop {
            let mut round: Option<(Vec<usize>, Fitness)> = None;
            for set in sets {
                match scorer.score(&set)? {
                    Ok(fitness) => {
                        if round.as_ref().is_none_or(|(s, f)| better((&set, &fitness), (s, f))) {
                            round = Some((set, fitness));
                        }
                    }
                    // A round that a limit cut short is not taken.
                    Err(stop) => {
                        let (set, fitness) = current.map_or((Vec::new(), None), |(s, f)| (s, Some(f)));
                        return Ok(Choice { set, fitness, stopped: Some(stop) });
                    }
                }
            }
            match (round, &current) {
                (Some((set, fitness)), Some((_, base))) if fitness.reach > base.reach => {
                    current = Some((set, fitness));
                }
                (Some(first), None) => current = Some(first),
                _ => break,
            }
            let (base, _) = current.as_ref().expect("a constructor was scored");
            sets = scorer
                .candidates()
                .iter()
                .filter(|m| !base.contains(m))
                .map(|&m| {
                    let mut set = base.clone();
                    set.push(m);
                    set.sort_unstable();
                    set
                })
                .collect();
            if sets.is_empty() {
                break;
            }
        }
        let (set, fitness) = current.expect("a constructor was scored");
        Ok(Choice { set, fitness: Some(fitness), stopped: None })
    }
}
