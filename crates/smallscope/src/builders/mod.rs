//! Builders identification by hill climbing (BEAPI paper, §3.3).
//!
//! The fitness of a set of methods is the number of distinct structures
//! BEAPI makes with it at a small scope; ties go to fewer methods, then to
//! simpler parameters. The climb starts from the best constructor and adds,
//! one at a time, the method that helps most, while that strictly helps.
//! Observers (methods that take `&self` only and return no structure) can
//! never help, so they are not tried.
//!
//! Cost: at most `m` rounds of `m` BEAPI runs at the small scope (never
//! more than the run's own scope), for `m` methods, each bounded by the
//! run's `max_length`. Identification is part of the run: the run's time
//! limit, memory limit and stop flag end it, and then the best set found so
//! far is used (and not cached). Its seconds count in the run's. A complete
//! result is cached per subject, keyed by its API and the settings that
//! change the fitness, so later runs at larger scopes reuse it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::api::{OperationInfo, Subject};
use crate::beapi::{BeapiConfig, Builders};
use crate::events::Stop;
use crate::runner::{Killed, StopFlag};
use crate::ConfigError;

/// The outcome of identification.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Identified {
    /// Method names, in API order.
    pub builders: Vec<String>,
    /// Structures they make at `scope`.
    pub structures: usize,
    pub scope: u32,
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

/// A candidate set of operations, by index into the API.
#[derive(Clone)]
struct Candidate {
    ops: Vec<usize>,
    structures: usize,
    complexity: u32,
}

impl Candidate {
    /// Better: more structures, then fewer methods, then simpler parameters.
    fn beats(&self, other: &Candidate) -> bool {
        (self.structures, std::cmp::Reverse(self.ops.len()), std::cmp::Reverse(self.complexity))
            > (other.structures, std::cmp::Reverse(other.ops.len()), std::cmp::Reverse(other.complexity))
    }
}

/// Identifies builders for `T`, without the cache. Each fitness search is
/// numbered from 1 in addresses, so an input that killed an earlier attempt
/// (`killed`) is stepped past. The run's time limit bounds identification
/// as a whole, and so do memory pressure and `stop`: then the best set so
/// far is returned, with [`Identified::stopped`] set.
pub fn identify<T: Subject>(
    config: &BeapiConfig,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<Identified, ConfigError> {
    let started = Instant::now();
    let infos: Vec<OperationInfo> = T::operations().iter().map(|op| op.info()).collect();
    let mut small = config.clone();
    small.scope = config.identification_scope();
    small.builders = Builders::All;
    small.record_canonical = false;
    small.state_matching = true;
    let mut runs = 0u64;
    // A fitness that a limit cut short is not comparable: it ends the climb.
    let mut fitness = |ops: &[usize]| -> Result<Result<Candidate, Stop>, ConfigError> {
        if let Some(limit) = config.time_limit {
            match limit.checked_sub(started.elapsed()).filter(|left| !left.is_zero()) {
                Some(left) => small.time_limit = Some(left),
                None => return Ok(Err(Stop::TimeLimit)),
            }
        }
        let names: Vec<String> = ops.iter().map(|&i| infos[i].name.to_owned()).collect();
        runs += 1;
        // The search takes its builders from `names`, not from the config.
        let (structures, stopped) = crate::beapi::count_structures::<T>(&small, &names, runs, killed, stop)?;
        if stopped != Stop::Complete {
            return Ok(Err(stopped));
        }
        let complexity = ops.iter().map(|&i| infos[i].complexity()).sum();
        Ok(Ok(Candidate { ops: ops.to_vec(), structures, complexity }))
    };
    let constructors: Vec<usize> = (0..infos.len()).filter(|&i| infos[i].is_constructor()).collect();
    if constructors.is_empty() {
        return Err(ConfigError::SubjectWithoutConstructor);
    }
    let (mut current, mut stopped) = best_of(constructors.iter().map(|&c| vec![c]), &mut fitness)?;
    while let (None, Some(base)) = (stopped, &current) {
        let extensions = (0..infos.len()).filter(|m| !base.ops.contains(m) && infos[*m].may_build()).map(|m| {
            let mut ops = base.ops.clone();
            ops.push(m);
            ops.sort_unstable();
            ops
        });
        let (best, why) = best_of(extensions, &mut fitness)?;
        // A round that a limit cut short is not taken.
        match best {
            Some(best) if why.is_none() && best.structures > base.structures => current = Some(best),
            _ => {
                stopped = why;
                break;
            }
        }
    }
    // Stopped before any constructor was measured: every operation.
    let (ops, structures) = match current {
        Some(c) => (c.ops, c.structures),
        None => ((0..infos.len()).collect(), 0),
    };
    Ok(Identified {
        builders: names(&ops, &infos),
        structures,
        scope: small.scope,
        from_cache: false,
        seconds: started.elapsed().as_secs_f64(),
        stopped,
    })
}

/// The best of the operation sets `sets` by `fitness`, and why a limit
/// stopped the measuring, if one did (the best is then of those measured).
fn best_of(
    sets: impl Iterator<Item = Vec<usize>>,
    fitness: &mut impl FnMut(&[usize]) -> Result<Result<Candidate, Stop>, ConfigError>,
) -> Result<(Option<Candidate>, Option<Stop>), ConfigError> {
    let mut best: Option<Candidate> = None;
    for ops in sets {
        match fitness(&ops)? {
            Ok(candidate) if best.as_ref().is_none_or(|b| candidate.beats(b)) => best = Some(candidate),
            Ok(_) => {}
            Err(why) => return Ok((best, Some(why))),
        }
    }
    Ok((best, None))
}

fn names(ops: &[usize], infos: &[OperationInfo]) -> Vec<String> {
    let mut ops = ops.to_vec();
    ops.sort_unstable();
    ops.iter().map(|&i| infos[i].name.to_owned()).collect()
}

/// What a cached result was computed from; a different key means recompute.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct CacheKey {
    subject: String,
    api: Vec<OperationInfo>,
    scope: u32,
    ints: (i64, i64),
    strings: Vec<String>,
    chars: Vec<char>,
    list_length: u32,
    omit: Vec<String>,
    misuse_panics: Vec<String>,
    max_length: Option<u32>,
}

/// A cache file: the key and what was identified under it.
#[derive(serde::Serialize, serde::Deserialize)]
struct CacheEntry {
    key: CacheKey,
    identified: Identified,
}

/// Identifies builders for `T`, reusing the cached result in `config.cache_dir`.
pub fn identify_cached<T: Subject>(
    config: &BeapiConfig,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<Identified, ConfigError> {
    let Some(dir) = &config.cache_dir else {
        return identify::<T>(config, killed, stop);
    };
    let subject = std::any::type_name::<T>().to_owned();
    let mut small = config.clone();
    small.scope = config.identification_scope();
    let range = small.int_range();
    let key = CacheKey {
        subject: subject.clone(),
        api: T::operations().iter().map(|op| op.info()).collect(),
        scope: small.scope,
        ints: (range.start, range.end),
        strings: config.strings.clone(),
        chars: config.chars.clone(),
        list_length: config.list_length,
        omit: config.omit.clone(),
        misuse_panics: config.misuse_panics.clone(),
        max_length: config.max_length,
    };
    let path = cache_path(dir, &subject);
    let cached = std::fs::read_to_string(&path).ok().and_then(|text| serde_json::from_str::<CacheEntry>(&text).ok());
    if let Some(entry) = cached.filter(|entry| entry.key == key) {
        return Ok(Identified { from_cache: true, ..entry.identified });
    }
    let identified = identify::<T>(config, killed, stop)?;
    if config.time_limit.is_some() || identified.stopped.is_some() {
        // Under a time limit the result may depend on the machine's speed.
        return Ok(identified);
    }
    let entry = CacheEntry { key, identified };
    // A cache that cannot be written only costs time later.
    if std::fs::create_dir_all(path.parent().unwrap_or(dir)).is_ok() {
        let text = serde_json::to_string_pretty(&entry).expect("cache entries serialize");
        let _ = crate::emit::write_atomically(&path, text.as_bytes());
    }
    Ok(entry.identified)
}

/// `dir/builders/<type path with :: as ->.json`.
fn cache_path(dir: &Path, subject: &str) -> PathBuf {
    let file: String = subject.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect();
    dir.join("builders").join(format!("{file}.json"))
}
