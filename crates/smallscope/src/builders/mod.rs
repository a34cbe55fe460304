//! Builders identification: which few methods of an API to build
//! structures with, so that the engines reach larger scopes.
//!
//! A set of builders should be *sufficient* (it builds every structure
//! within a small scope), *minimal* (no method in it is superfluous) and
//! *simplest* (fewest and simplest parameters among equivalent sets).
//!
//! This layer sits above the engines: [`resolve`] turns a run's `builders`
//! setting into names (from the cache, or identified here), and the BEAPI
//! engine takes the names and knows nothing of how they were chosen.
//!
//! Identification first runs [`observers`] detection: methods seen never to
//! change an input nor make a structure can never help, and are left out.
//! Both strategies then score candidate sets with the same exact
//! [`Fitness`]: the field values and structures a set reaches at the small
//! scope (`builder_scope`, default 5). One BEAPI search with every
//! candidate records its [`StateGraph`](crate::beapi::StateGraph); a set's
//! reach is the closure over its calls there, which is what a search with
//! that set keeps, at a small fraction of a search's cost. (With a
//! `max_length`, which a closure does not model, each set gets a search.)
//!
//! - [`HillClimbing`] (`hc`, the BEAPI paper's): greedy, from the best
//!   constructor, at most `m²` sets scored for `m` methods. Fast on small APIs;
//!   can stop short when two methods only help together.
//! - [`Genetic`] (`ga`, the builders paper's): a seeded genetic algorithm,
//!   then a deterministic polish that makes the set minimal and picks the
//!   earliest in API order among ties. More sets scored, in parallel;
//!   meant for rich APIs (20 to 40 methods).
//!
//! Identification is part of the run that needs it: the run's time limit,
//! memory limit and stop flag end it, and then the best set found so far
//! is used (and not cached). A complete result is cached per subject,
//! keyed by its API, the method and the settings that change the fitness,
//! so later runs at larger scopes reuse it.
//!
//! `identify::<T>(&config, Method::Genetic(Genetic::default()), &[], None)` returns the
//! [`Identified`] builders; the built-in subjects' tests show both methods at work.

mod fitness;
mod genetic;
mod hill_climbing;
mod identified;
mod job;
pub mod observers;
mod strategy;

pub use fitness::{run_number, Fitness, Scorer, Weights};
pub use genetic::Genetic;
pub use hill_climbing::HillClimbing;
pub use identified::{Effect, Evidence, Identification, Identified, IdentifySettings, MethodRole, Role};
pub use job::{IdentificationReport, IdentifyJob};
pub use strategy::{Choice, Strategy};

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::api::{OperationInfo, StdTraits, Subject};
use crate::beapi::{BeapiConfig, BuilderMethod, Builders, ChosenBuilders};
use crate::events::Stop;
use crate::runner::{Killed, StopFlag};
use crate::ConfigError;

/// Which strategy to identify builders with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    HillClimbing,
    Genetic(Genetic),
}

impl From<BuilderMethod> for Method {
    /// The method with its default parameters.
    fn from(method: BuilderMethod) -> Self {
        match method {
            BuilderMethod::HillClimbing => Method::HillClimbing,
            BuilderMethod::Genetic => Method::Genetic(Genetic::default()),
        }
    }
}

impl Method {
    fn strategy(&self) -> &dyn Strategy {
        match self {
            Method::HillClimbing => &HillClimbing,
            Method::Genetic(genetic) => genetic,
        }
    }

    /// `hc` or `ga`.
    pub fn name(&self) -> &'static str {
        self.strategy().name()
    }

    /// The strategy's parameters, which the cache keys a result by too.
    fn parameters(&self) -> String {
        match self {
            Method::HillClimbing => String::new(),
            Method::Genetic(g) => format!("{}:{}:{}:{}:{}", g.seed, g.generations, g.pop_size, g.c_rate, g.m_rate),
        }
    }
}

/// Identifies builders for `T` with `method`, without the cache. First
/// [`observers`] are detected (by a seeded random run) and left out. Each
/// fitness search is numbered by its set in addresses, so an input that
/// killed an earlier attempt (`killed`) is stepped past. The run's time
/// limit bounds identification as a whole, and so do memory pressure and
/// `stop`: then the best set so far is returned, with
/// [`Identified::stopped`] set.
pub fn identify<T: Subject + StdTraits>(
    config: &BeapiConfig,
    method: Method,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<Identified, ConfigError> {
    let started = Instant::now();
    let infos: Vec<OperationInfo> = T::operations().iter().map(|op| op.info()).collect();
    if !infos.iter().any(OperationInfo::is_constructor) {
        return Err(ConfigError::SubjectWithoutConstructor);
    }
    let mut small = config.clone();
    small.scope = config.identification_scope();
    small.builders = Builders::All;
    small.record_canonical = false;
    small.state_matching = true;
    small.graphs = true;
    small.pictures = 0;
    // Under a time limit, identification takes at most half of it (a state
    // space that grows without bound would take it all), so that the
    // search has the rest.
    let remaining = || match config.time_limit {
        None => Ok(None),
        Some(limit) => match (limit / 2).checked_sub(started.elapsed()).filter(|left| !left.is_zero()) {
            Some(left) => Ok(Some(left)),
            None => Err(Stop::TimeLimit),
        },
    };
    let mut random = observers::random_settings(small.int_range());
    // Detection takes at most a quarter of the time limit.
    random.time_limit = config.time_limit.map(|limit| limit / 4);
    let detection = observers::classify::<T>(&random, killed, stop)?;
    let roles = detection.roles;
    let (observers, candidates): (Vec<usize>, Vec<usize>) = (0..infos.len()).partition(|&i| roles[i].is_observer());
    let graph = match (config.max_length, remaining()) {
        // Sequence lengths depend on the builders: no one graph serves all sets.
        (Some(_), _) | (_, Err(_)) => None,
        (None, Ok(left)) => {
            let names: Vec<String> = candidates.iter().map(|&i| infos[i].name.clone()).collect();
            let whole = BeapiConfig { time_limit: left, ..small.clone() };
            let (graph, stopped) =
                crate::beapi::state_graph::<T>(&whole, &names, run_number(&candidates), killed, stop)?;
            (stopped == Stop::Complete).then_some(graph)
        }
    };
    let measure = |set: &[usize], run: u64| {
        if !set.iter().any(|&i| infos[i].is_constructor()) {
            // Nothing to start from: it builds nothing.
            return Ok(Ok(Default::default()));
        }
        if let Some(graph) = &graph {
            let mut chosen = vec![false; infos.len()];
            for &i in set {
                chosen[i] = true;
            }
            return Ok(Ok(graph.reach(&chosen)));
        }
        let mut small = small.clone();
        match remaining() {
            Ok(left) => small.time_limit = left,
            Err(stop) => return Ok(Err(stop)),
        }
        let names: Vec<String> = set.iter().map(|&i| infos[i].name.clone()).collect();
        // The search takes its builders from `names`, not from the config.
        let (reach, stopped) = crate::beapi::reach::<T>(&small, &names, run, killed, stop)?;
        Ok(match stopped {
            // What it reached is all the scope holds; only hidden state went on growing.
            Stop::Complete | Stop::Unbounded => Ok(reach),
            other => Err(other),
        })
    };
    let scorer = Scorer::new(&infos, candidates, Weights::default(), &measure);
    let choice = method.strategy().choose(&scorer)?;
    // Stopped before any set was measured: every operation.
    let set = match choice.set.is_empty() {
        true => (0..infos.len()).collect(),
        false => choice.set,
    };
    let fitness = choice.fitness.unwrap_or(Fitness { reach: Default::default(), tie_break: 0.0, complexity: 0 });
    Ok(Identified {
        builders: names(&set, &infos),
        structures: fitness.reach.structures,
        field_values: fitness.reach.field_values,
        fitness: fitness.value(),
        scope: small.scope,
        method: method.name().to_owned(),
        observers: names(&observers, &infos),
        roles: infos.iter().zip(roles).map(|(info, role)| MethodRole { method: info.name.clone(), role }).collect(),
        notes: detection.cut_short.into_iter().collect(),
        evaluations: scorer.evaluations(),
        from_cache: false,
        seconds: started.elapsed().as_secs_f64(),
        stopped: choice.stopped,
    })
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
    method: String,
    parameters: String,
}

/// A cache file: the key and what was identified under it.
#[derive(serde::Serialize, serde::Deserialize)]
struct CacheEntry {
    key: CacheKey,
    identified: Identified,
}

/// Identifies builders for `T`, reusing the cached result in `config.cache_dir`.
pub fn identify_cached<T: Subject + StdTraits>(
    config: &BeapiConfig,
    method: Method,
    killed: &[Killed],
    stop: Option<&StopFlag>,
) -> Result<Identified, ConfigError> {
    let Some(dir) = &config.cache_dir else {
        return identify::<T>(config, method, killed, stop);
    };
    let (key, path) = cache_key::<T>(config, method, dir);
    if let Some(identified) = read_cache(&path, &key, Parameters::Same) {
        return Ok(identified);
    }
    let identified = identify::<T>(config, method, killed, stop)?;
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

/// What a result for `T` by `method` under `config` is cached under, and where.
fn cache_key<T: Subject>(config: &BeapiConfig, method: Method, dir: &Path) -> (CacheKey, PathBuf) {
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
        method: method.name().to_owned(),
        parameters: method.parameters(),
    };
    let path = cache_path(dir, &subject, method.name());
    (key, path)
}

/// Whether a cached result must have been computed with the method's
/// parameters (a GA's seed, say), or may have any: every seed gives the
/// same set, so `--builders auto` takes any of them.
#[derive(Clone, Copy, PartialEq)]
enum Parameters {
    Same,
    Any,
}

/// The cached result at `path`, if it was computed under `key`.
fn read_cache(path: &Path, key: &CacheKey, parameters: Parameters) -> Option<Identified> {
    let text = std::fs::read_to_string(path).ok()?;
    let entry = serde_json::from_str::<CacheEntry>(&text).ok()?;
    let cached = match parameters {
        Parameters::Same => entry.key,
        Parameters::Any => CacheKey { parameters: key.parameters.clone(), ..entry.key },
    };
    (cached == *key).then_some(Identified { from_cache: true, ..entry.identified })
}

/// The builders `config.builders` asks for. `Auto` takes a cached result
/// of `config.builder_method`, or else of the other method (so that a
/// `smallscope builders --method ga` run is picked up), or else identifies
/// them with `config.builder_method` and caches the result.
pub fn resolve<T: Subject + StdTraits>(
    config: &BeapiConfig,
    killed: &[Killed],
    stop: &StopFlag,
) -> Result<ChosenBuilders, ConfigError> {
    let names = match &config.builders {
        Builders::All => T::operations().iter().map(|op| op.name.to_owned()).collect(),
        Builders::Named(names) => names.clone(),
        Builders::Auto => return resolve_auto::<T>(config, killed, stop),
    };
    Ok(ChosenBuilders { names, ..ChosenBuilders::default() })
}

fn resolve_auto<T: Subject + StdTraits>(
    config: &BeapiConfig,
    killed: &[Killed],
    stop: &StopFlag,
) -> Result<ChosenBuilders, ConfigError> {
    let preferred = Method::from(config.builder_method);
    let other = Method::from(match config.builder_method {
        BuilderMethod::HillClimbing => BuilderMethod::Genetic,
        BuilderMethod::Genetic => BuilderMethod::HillClimbing,
    });
    let cached = config.cache_dir.as_deref().and_then(|dir| {
        [preferred, other].into_iter().find_map(|method| {
            let (key, path) = cache_key::<T>(config, method, dir);
            read_cache(&path, &key, Parameters::Any).map(|identified| (identified, path))
        })
    });
    let (identified, cache_file) = match cached {
        Some((identified, path)) => (identified, Some(path)),
        None => (identify_cached::<T>(config, preferred, killed, Some(stop))?, None),
    };
    let how = match identified.method.as_str() {
        "ga" => "the genetic algorithm",
        _ => "hill climbing",
    };
    let note = match (identified.from_cache, identified.stopped) {
        (true, _) => format!(
            "builders read from the cache ({}; --no-cache identifies them afresh): identified by {how} at scope {} \
             ({} states at that scope, the builders' own search)",
            cache_file.as_deref().map_or(String::new(), |p| p.display().to_string()),
            identified.scope,
            identified.structures
        ),
        (false, None) => format!(
            "builders identified by {how} at scope {} in {:.2} s ({} states at that scope, the builders' own search)",
            identified.scope, identified.seconds, identified.structures
        ),
        (false, Some(why)) => format!(
            "builders identification by {how} at scope {} stopped after {:.2} s ({}): using the best set so far",
            identified.scope,
            identified.seconds,
            why.describe()
        ),
    };
    let notes = std::iter::once(note).chain(identified.notes).collect();
    Ok(ChosenBuilders { names: identified.builders, notes, seconds: identified.seconds })
}

/// `dir/builders/<type path with :: as ->.json`, `….ga.json` for the GA.
fn cache_path(dir: &Path, subject: &str, method: &str) -> PathBuf {
    let file: String = subject.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect();
    let suffix = if method == "hc" { String::new() } else { format!(".{method}") };
    dir.join("builders").join(format!("{file}{suffix}.json"))
}
