//! Spec comparison (BEAPI paper, §4.3): the structures a type's API builds
//! against the structures its invariant admits, at the same scope.
//!
//! BEAPI gives SA, every structure the API builds within the scope. Korat
//! gives SR, every candidate of a model on which an invariant holds. Each
//! valid candidate is *materialized*: a user-provided conversion turns it
//! into a real value of the API's type, which is linearized with the same
//! canonical form (same object limit, same omitted fields) the BEAPI engine
//! stores. Then:
//!
//! - SA ⊂ SR: the invariant admits structures the API never builds; it may
//!   be too weak (or the API cannot reach all valid structures);
//! - SR ⊂ SA: the API builds structures the invariant rejects; it may be too
//!   strong (or the API is buggy);
//! - both differ: errors on either side.
//!
//! The witnesses of each difference come smallest first (fewest objects,
//! then canonical text), those only the API builds with the call sequence
//! that builds them, and each can be drawn as DOT and SVG.
//!
//! Scope. Both sides must bound the same thing: at most `scope` objects of
//! each class reachable from the root (the root and header nodes count), and
//! integers `0..scope`. BEAPI drops a sequence as soon as a structure passes
//! the scope, so it misses structures of size n reachable only through larger
//! ones (red-black trees after a removal rebalances them: the paper's §4.1).
//! [`CompareOptions::recheck`] runs BEAPI again at larger scopes and marks
//! the invariant-only witnesses it builds there: those are scope artifacts,
//! not invariant flaws.
//!
//! Candidates are materialized in the search's `found` callback, which runs
//! after the search has recorded what `rep_ok` read: reading the candidate's
//! fields there changes nothing in the search.
//!
//! Register a pairing for the command line with
//! [`compare_subject!`](crate::compare_subject).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::api::{Outcome, Subject};
use crate::beapi::{BeapiConfig, BeapiReport, Builders};
use crate::events::During;
use crate::heap::{Linearizer, Schema};
use crate::korat::{self, Model, SearchOptions};
use crate::runner::{run_captured, RunError, UserCode};
use crate::ConfigError;

/// How to run a comparison, besides the scope and the invariant.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// BEAPI's builders. They must be able to build every structure; for
    /// structures whose shape depends on history (balanced trees), include
    /// removals.
    pub builders: Builders,
    /// Scope for builders identification (`Builders::Auto`).
    pub builder_scope: u32,
    /// Where identified builders are cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// `Class.field` names left out of the canonical form, on both sides.
    pub omit: Vec<String>,
    /// How many representative witnesses per side get DOT and SVG pictures.
    pub pictures: usize,
    /// Also run BEAPI at scopes `scope + 1 ..= scope + recheck` (0: not at
    /// all), one at a time until each invariant-only witness is built, and
    /// mark those the API builds there. Red-black trees need up to 3.
    pub recheck: u32,
    /// Stops BEAPI early (the comparison then says it is incomplete).
    pub time_limit: Option<Duration>,
    /// BEAPI's lists for `Vec<u8>` parameters (see [`BeapiConfig::list_length`]).
    pub list_length: u32,
    /// Elements allowed in a collection, on both sides; `None`: the scope.
    pub collection_length: Option<u32>,
    /// BEAPI's longest sequences (see [`BeapiConfig::max_length`]).
    pub max_length: Option<u32>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            builders: Builders::Auto,
            builder_scope: 5,
            cache_dir: None,
            omit: Vec::new(),
            pictures: 3,
            recheck: 1,
            time_limit: None,
            list_length: BeapiConfig::default().list_length,
            collection_length: None,
            max_length: None,
        }
    }
}

/// What went wrong; none of these is a difference between the sets.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("the model's finitization at scope {scope}: {reason}")]
    Space { scope: u32, reason: String },
    #[error("unknown invariant `{name}`; this comparison knows: {known}")]
    UnknownInvariant { name: String, known: String },
    #[error(
        "a candidate the invariant admits became a value with {bound}: the model or its conversion does not \
         bound the scope as BEAPI does; value: {canonical}"
    )]
    OutOfScope { bound: crate::heap::OutOfScope, canonical: String },
    #[error("converting a candidate the invariant admits panicked: {0}")]
    Materialize(String),
}

/// Which way the sets differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// SA = SR.
    #[default]
    Equal,
    /// SA ⊂ SR: the invariant admits structures the API does not build.
    InvariantTooWeak,
    /// SR ⊂ SA: the API builds structures the invariant rejects.
    InvariantTooStrong,
    /// Each set has structures the other lacks.
    Differ,
}

impl Verdict {
    fn of(only_api: usize, only_invariant: usize) -> Self {
        match (only_api, only_invariant) {
            (0, 0) => Verdict::Equal,
            (0, _) => Verdict::InvariantTooWeak,
            (_, 0) => Verdict::InvariantTooStrong,
            _ => Verdict::Differ,
        }
    }

    /// The relation as symbols: `SA = SR`, `SA ⊂ SR`, `SR ⊂ SA`, `SA ≠ SR`.
    pub fn relation(self) -> &'static str {
        match self {
            Verdict::Equal => "SA = SR",
            Verdict::InvariantTooWeak => "SA ⊂ SR",
            Verdict::InvariantTooStrong => "SR ⊂ SA",
            Verdict::Differ => "SA ≠ SR",
        }
    }
}

/// Which set a structure is in, and not the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// SA \ SR: the API builds it, the invariant rejects it.
    OnlyApi,
    /// SR \ SA: the invariant admits it, the API does not build it.
    OnlyInvariant,
}

/// One structure in one set and not the other, as an event.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Difference {
    pub side: Side,
    /// Its position on its side, smallest first.
    pub position: usize,
    pub witness: Witness,
}

/// A comparison's settings, as the events record them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareSettings {
    pub scope: u32,
    pub invariant: String,
    pub builders: Builders,
    pub builder_scope: u32,
    pub omit: Vec<String>,
    pub pictures: usize,
    pub recheck: u32,
    pub time_limit: Option<Duration>,
    #[serde(default = "default_list_length")]
    pub list_length: u32,
    #[serde(default)]
    pub collection_length: Option<u32>,
    #[serde(default)]
    pub max_length: Option<u32>,
}

/// Settings recorded before lists had a length setting here.
fn default_list_length() -> u32 {
    BeapiConfig::default().list_length
}

impl CompareSettings {
    /// The settings of a comparison at `scope` against `invariant` with `options`.
    pub fn new(scope: u32, invariant: String, options: &CompareOptions) -> Self {
        CompareSettings {
            scope,
            invariant,
            builders: options.builders.clone(),
            builder_scope: options.builder_scope,
            omit: options.omit.clone(),
            pictures: options.pictures,
            recheck: options.recheck,
            time_limit: options.time_limit,
            list_length: options.list_length,
            collection_length: options.collection_length,
            max_length: options.max_length,
        }
    }
}

/// One structure in one set and not the other.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Witness {
    /// Its canonical text (the BEAPI engine's linearization).
    pub canonical: String,
    /// Objects in it (the root included).
    pub objects: usize,
    /// Where it differs from the other set's structures of the same shape
    /// (same objects and links): `path.field = value` for each field holding
    /// a value no such structure has there. Empty when no structure of the
    /// other set has its shape, or when each of its values occurs in one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub odd_fields: Vec<String>,
    /// Whether the other set has a structure of the same shape.
    pub same_shape: bool,
    /// Its rank among the witnesses worth showing first (see
    /// [`Comparison::representatives`]); `None` for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub representative: Option<usize>,
    /// Calls that build it through the API: for an API-only witness, the
    /// shortest BEAPI found; for an invariant-only one, the one found at the
    /// larger recheck scope, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<usize>,
    /// For an invariant-only witness: the larger scope at which BEAPI built
    /// it, so a scope artifact rather than an invariant flaw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_at_scope: Option<u32>,
    /// Graphviz DOT picture (representatives, up to [`CompareOptions::pictures`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dot: Option<String>,
    /// SVG picture, as DOT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    /// Why the SVG could not be drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture_error: Option<String>,
}

impl Witness {
    fn new(canonical: String) -> Self {
        Witness {
            objects: count_objects(&canonical),
            canonical,
            odd_fields: Vec::new(),
            same_shape: false,
            representative: None,
            program: None,
            calls: None,
            api_at_scope: None,
            dot: None,
            svg: None,
            picture_error: None,
        }
    }
}

/// The result of comparing SA (from the API) with SR (from an invariant).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Comparison {
    /// The API's Rust type.
    pub subject: String,
    pub scope: u32,
    /// The invariant's name, as registered; from [`compare`] called
    /// directly, `rep_ok over <model type>`.
    pub invariant: String,
    /// |SA|: structures BEAPI built.
    pub api_structures: usize,
    /// |SR|: distinct canonical forms of the candidates the invariant admits.
    pub invariant_structures: usize,
    /// |SA ∩ SR|.
    pub both: usize,
    /// SA \ SR, smallest first (fewest objects, then text).
    #[serde(default)]
    pub only_api: Vec<Witness>,
    /// SR \ SA, smallest first.
    #[serde(default)]
    pub only_invariant: Vec<Witness>,
    pub verdict: Verdict,
    /// BEAPI's builders.
    pub builders: Vec<String>,
    /// Valid candidates Korat found (more than `invariant_structures` if two
    /// candidates materialize to one value) and candidates it explored.
    pub korat_found: u64,
    pub korat_explored: u64,
    pub beapi_seconds: f64,
    pub korat_seconds: f64,
    pub seconds: f64,
    /// The largest recheck scope BEAPI ran at, if it ran again to explain
    /// invariant-only witnesses.
    pub recheck_scope: Option<u32>,
    /// Invariant-only witnesses the API built at a recheck scope.
    pub scope_artifacts: usize,
    /// BEAPI stopped early (time limit): SA may be incomplete.
    pub incomplete: bool,
    pub notes: Vec<String>,
}

impl Comparison {
    /// One line: the relation, what it may mean, and how many structures differ.
    pub fn verdict_line(&self) -> String {
        let relation = self.verdict.relation();
        let (a, r) = (self.only_api.len(), self.only_invariant.len());
        match self.verdict {
            Verdict::Equal => format!("{relation}: the invariant admits exactly the structures the API builds"),
            Verdict::InvariantTooWeak => {
                format!("{relation}: the invariant may be too weak ({r} structures only it admits)")
            }
            Verdict::InvariantTooStrong => {
                format!("{relation}: the invariant may be too strong ({a} structures the API builds fail it)")
            }
            Verdict::Differ => format!(
                "{relation}: the invariant and the API disagree both ways ({r} structures only the invariant \
                 admits, {a} only the API builds)"
            ),
        }
    }

    /// The first `k` witnesses of one side worth showing, with their index.
    ///
    /// Each witness is explained against the other set: the fields where it
    /// holds what no structure of the same shape there holds (its odd
    /// fields), or its shape when the other set has none like it. A witness
    /// is a representative if no witness with fewer odd fields, or as few
    /// and fewer objects, has a subset of its odd fields: so a list whose
    /// header *and* cache node hold values is not shown once one whose header
    /// alone does is.
    pub fn representatives(witnesses: &[Witness], k: usize) -> Vec<(usize, &Witness)> {
        let mut shown: Vec<(usize, &Witness)> =
            witnesses.iter().enumerate().filter(|(_, w)| w.representative.is_some()).collect();
        shown.sort_by_key(|(_, w)| w.representative);
        shown.truncate(k);
        shown
    }

    /// How many representatives a side has: distinct kinds of difference.
    pub fn kinds(witnesses: &[Witness]) -> usize {
        witnesses.iter().filter(|w| w.representative.is_some()).count()
    }
}

/// Compares what `T`'s API builds with what `rep_ok` admits over model `M`
/// at `scope`; `convert` turns a valid candidate (read through the root's
/// view) into a value of `T`.
///
/// ```ignore
/// let comparison = smallscope::compare::compare::<MyList, ListModel>(3, roops_rep_ok, to_list, &CompareOptions::default())?;
/// assert_eq!(comparison.verdict, Verdict::InvariantTooWeak);
/// ```
pub fn compare<T: Subject + crate::api::StdTraits, M: Model>(
    scope: u32,
    rep_ok: for<'c> fn(M::View<'c>) -> bool,
    convert: for<'c> fn(M::View<'c>) -> T,
    options: &CompareOptions,
) -> Result<Comparison, CompareError> {
    let started = Instant::now();
    if scope == 0 {
        return Err(ConfigError::ZeroScope(0).into());
    }
    let space = korat::space::<M>(i64::from(scope)).map_err(|reason| CompareError::Space { scope, reason })?;
    let omitted = Schema::of::<T>().resolve_fields(&options.omit)?;
    let mut notes = Vec::new();

    // SA.
    let config = BeapiConfig {
        scope,
        ints: None,
        builders: options.builders.clone(),
        builder_scope: options.builder_scope,
        cache_dir: options.cache_dir.clone(),
        omit: options.omit.clone(),
        time_limit: options.time_limit,
        record_canonical: true,
        list_length: options.list_length,
        collection_length: options.collection_length,
        max_length: options.max_length,
        // The sets are compared; the API is not checked here.
        check: crate::beapi::Check::None,
        ..BeapiConfig::default()
    };
    let report = crate::Beapi::<T>::with_config(config.clone()).run()?;
    let incomplete = report.stopped_early();
    if incomplete {
        notes.push("BEAPI stopped early: SA is incomplete, so SR \\ SA may hold structures the API builds".into());
    }
    if !report.failures.is_empty() {
        notes.push(format!(
            "BEAPI found {} failing sequences (the API's own `rep_ok` broke or a call panicked): \
             the `beapi` command on the subject shows them",
            report.failure_count()
        ));
    }
    notes.extend(report.notes.iter().cloned());
    let mut api: FxHashMap<&str, (usize, bool)> = FxHashMap::default();
    for (index, structure) in report.counted_structures() {
        let text = structure.canonical.as_deref().expect("the run recorded canonical texts");
        api.insert(text, (index, false));
    }

    // SR, materialized and compared as it is found.
    let mut lin = Linearizer::new(Some(scope)).collections(Some(config.collection_limit())).omit(omitted);
    let mut only_invariant: FxHashMap<String, T> = FxHashMap::default();
    let mut both = 0usize;
    let mut error: Option<CompareError> = None;
    let mut sink = |converted: Result<T, String>| {
        if error.is_some() {
            return;
        }
        let value = match converted {
            Ok(value) => value,
            Err(message) => {
                error = Some(CompareError::Materialize(message));
                return;
            }
        };
        let text = match lin.text(&value) {
            Ok(text) => text,
            Err(out) => {
                let canonical = crate::heap::canonical_text(&value);
                error = Some(CompareError::OutOfScope { bound: out, canonical });
                return;
            }
        };
        match api.get_mut(text.as_str()) {
            Some((_, seen)) => {
                if !*seen {
                    *seen = true;
                    both += 1;
                }
            }
            None => {
                only_invariant.entry(text).or_insert(value);
            }
        }
    };
    let stats =
        {
            // Each valid candidate is materialized as it is found; reading its
            // fields there does not change the search.
            let invariants = korat::from_fn::<M>(rep_ok);
            korat::search_with(space, &invariants, SearchOptions { prune_eq_classes: false }, &mut |candidate| {
                let converted = run_captured(UserCode::new(During::Convert, 0), || convert(M::root(candidate)))
                    .map_err(|outcome| match outcome {
                        Outcome::Panicked(panic) | Outcome::AssumeFailed(panic) => panic.to_string(),
                    });
                sink(converted);
            })
        };
    if let Some(error) = error {
        return Err(error);
    }
    let invariant_structures = both + only_invariant.len();
    if stats.found != invariant_structures as u64 {
        notes.push(format!(
            "Korat found {} valid candidates for {invariant_structures} distinct structures: some candidates \
             materialize to the same value",
            stats.found
        ));
    }

    // SA \ SR: every structure BEAPI built that no candidate matched.
    let mut only_api: Vec<(Witness, usize)> = api
        .iter()
        .filter(|(_, (_, seen))| !seen)
        .map(|(text, (index, _))| {
            let mut witness = Witness::new((*text).to_owned());
            let program = report.program(*index);
            witness.program = Some(program.to_text(&report.operations));
            witness.calls = Some(program.len());
            (witness, *index)
        })
        .collect();
    only_api.sort_by(|a, b| (a.0.objects, &a.0.canonical).cmp(&(b.0.objects, &b.0.canonical)));
    {
        let sr = api.iter().filter(|(_, (_, seen))| *seen).map(|(text, _)| *text);
        let sr = sr.chain(only_invariant.keys().map(String::as_str));
        explain(only_api.iter_mut().map(|(w, _)| w), sr);
    }
    for (witness, index) in &mut only_api {
        if witness.representative.is_none_or(|rank| rank >= options.pictures) {
            continue;
        }
        match rebuild::<T>(&report, *index as u32) {
            Some(value) if lin.text(&value).is_ok_and(|text| text == witness.canonical) => {
                draw(witness, &value, &format!("{}: only the API builds it", title(&report.subject, scope)));
            }
            _ => witness.picture_error = Some("its call sequence did not rebuild the structure".into()),
        }
    }
    let only_api: Vec<Witness> = only_api.into_iter().map(|(w, _)| w).collect();

    // SR \ SA.
    let mut values: Vec<(Witness, T)> =
        only_invariant.into_iter().map(|(text, value)| (Witness::new(text), value)).collect();
    values.sort_by(|a, b| (a.0.objects, &a.0.canonical).cmp(&(b.0.objects, &b.0.canonical)));

    // The recheck at larger scopes, one more object at a time, until every
    // invariant-only witness is built or the last scope was tried.
    let mut recheck_scope = None;
    let mut scope_artifacts = 0;
    for larger in scope + 1..=scope + options.recheck {
        if scope_artifacts == values.len() {
            break;
        }
        let config = BeapiConfig {
            scope: larger,
            builders: Builders::Named(report.builders.clone()),
            time_limit: options.time_limit,
            ..config.clone()
        };
        let bigger = crate::Beapi::<T>::with_config(config).run()?;
        let built: FxHashMap<&str, usize> =
            bigger.counted_structures().filter_map(|(i, s)| s.canonical.as_deref().map(|t| (t, i))).collect();
        for (witness, _) in values.iter_mut().filter(|(w, _)| w.api_at_scope.is_none()) {
            if let Some(&index) = built.get(witness.canonical.as_str()) {
                let program = bigger.program(index);
                witness.program = Some(program.to_text(&bigger.operations));
                witness.calls = Some(program.len());
                witness.api_at_scope = Some(larger);
                scope_artifacts += 1;
            }
        }
        recheck_scope = Some(larger);
        if bigger.stopped_early() {
            notes.push(format!("the recheck at scope {larger} stopped early"));
        }
    }
    if let Some(larger) = recheck_scope {
        let unexplained = values.len() - scope_artifacts;
        notes.push(if scope_artifacts == 0 {
            format!("the API builds none of the structures only the invariant admits at scopes up to {larger} either")
        } else {
            format!(
                "{scope_artifacts} of the {} structures only the invariant admits are built by the API at a larger \
                 scope (up to {larger}): they are reachable only through larger structures (BEAPI drops a sequence \
                 as soon as it passes the scope, paper §4.1), so they are scope artifacts, not invariant flaws; \
                 {unexplained} remain",
                values.len()
            )
        });
    }

    explain(values.iter_mut().map(|(w, _)| w), api.keys().copied());
    for (witness, value) in &mut values {
        if witness.representative.is_some_and(|rank| rank < options.pictures) {
            draw(witness, value, &format!("{}: only the invariant admits it", title(&report.subject, scope)));
        }
    }
    let only_invariant: Vec<Witness> = values.into_iter().map(|(w, _)| w).collect();

    let verdict = Verdict::of(only_api.len(), only_invariant.len());
    Ok(Comparison {
        subject: std::any::type_name::<T>().to_owned(),
        scope,
        // A registration renames it; called directly, the model names it.
        invariant: format!("rep_ok over {}", std::any::type_name::<M>()),
        api_structures: report.structure_count(),
        invariant_structures,
        both,
        only_api,
        only_invariant,
        verdict,
        builders: report.builders.clone(),
        korat_found: stats.found,
        korat_explored: stats.explored,
        beapi_seconds: report.seconds,
        korat_seconds: stats.seconds,
        seconds: started.elapsed().as_secs_f64(),
        recheck_scope,
        scope_artifacts,
        incomplete,
        notes,
    })
}

/// `Type at scope N`, with the type's path and generic arguments left out.
fn title(type_name: &str, scope: u32) -> String {
    let base = type_name.split('<').next().unwrap_or(type_name);
    format!("{} at scope {scope}", base.rsplit("::").next().unwrap_or(base))
}

/// Draws `value` into the witness: DOT always, SVG when it can be laid out.
fn draw<T: Subject>(witness: &mut Witness, value: &T, title: &str) {
    witness.dot = Some(crate::emit::to_dot(value, title));
    match crate::emit::to_svg(value, title) {
        Ok(svg) => witness.svg = Some(svg),
        Err(e) => witness.picture_error = Some(e.to_string()),
    }
}

/// A canonical text taken apart: its shape (objects and links, values
/// masked) and its values, each with the object it is in.
struct Parsed<'t> {
    shape: String,
    /// The path of fields that reaches each object or inline value, in the
    /// order they open (`""` for the root).
    owners: Vec<String>,
    /// `(owner, field, value)` in text order.
    values: Vec<(u32, &'t str, &'t str)>,
}

impl Parsed<'_> {
    /// `path.field` of value `index`.
    fn path(&self, index: usize) -> String {
        let (owner, field, _) = self.values[index];
        match self.owners[owner as usize].as_str() {
            "" => field.to_owned(),
            owner => format!("{owner}.{field}"),
        }
    }
}

/// Parses `Class#id{field: value, field: Class#id{..}, field: @id}`; values
/// are whatever is not an object, a back reference or a bracket.
fn parse(canonical: &str) -> Parsed<'_> {
    let mut shape = String::with_capacity(canonical.len());
    let mut owners: Vec<String> = Vec::new();
    let mut values = Vec::new();
    // Open objects, as indices into `owners`.
    let mut open: Vec<u32> = Vec::new();
    let bytes = canonical.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let delimiter = matches!(b, b'{' | b'}' | b'[' | b']') || (b == b',' && bytes.get(i + 1) == Some(&b' '));
        if !delimiter {
            i += 1;
            continue;
        }
        let piece = canonical[start..i].trim();
        match b {
            b'{' | b'[' => {
                // An object, an inline value or a sequence opens.
                let (field, head) = match piece.split_once(':') {
                    Some((field, head)) => (field.trim(), head.trim()),
                    None if open.is_empty() => ("", piece),
                    None => ("[]", piece),
                };
                if !field.is_empty() {
                    shape.push_str(field);
                    shape.push(':');
                }
                shape.push_str(head);
                shape.push(b as char);
                let mut path = String::new();
                if let Some(&o) = open.last() {
                    let outer = &owners[o as usize];
                    if !outer.is_empty() {
                        path.reserve(outer.len() + 1 + field.len());
                        path.push_str(outer);
                        path.push('.');
                    }
                }
                path.push_str(field);
                open.push(owners.len() as u32);
                owners.push(path);
            }
            _ => {
                if !piece.is_empty() {
                    let (field, value) = piece.split_once(": ").unwrap_or(("[]", piece));
                    shape.push_str(field);
                    shape.push(':');
                    shape.push_str(if value.starts_with('@') { value } else { "_" });
                    values.push((open.last().copied().unwrap_or(0), field, value));
                }
                if b == b',' {
                    shape.push(',');
                    i += 1;
                } else {
                    shape.push(b as char);
                    open.pop();
                }
            }
        }
        i += 1;
        start = i;
    }
    if owners.is_empty() {
        owners.push(String::new());
    }
    Parsed { shape, owners, values }
}

/// What kind of value a printed value is, for grouping witnesses: `null`, a
/// number, or the text itself (an enum variant, a boolean).
fn value_kind(value: &str) -> &str {
    let number = value.strip_prefix('-').unwrap_or(value);
    let numeric = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if numeric || value.starts_with('"') || value.starts_with('\'') {
        "a value"
    } else {
        value
    }
}

/// Explains each witness against `other` (the other set's canonical texts)
/// and ranks the representatives; see [`Comparison::representatives`].
/// `witnesses` come sorted smallest first.
fn explain<'w, 'o>(witnesses: impl Iterator<Item = &'w mut Witness>, other: impl Iterator<Item = &'o str>) {
    // Per shape, per value position: the values the other set has there.
    let mut groups: FxHashMap<String, Vec<FxHashSet<&'o str>>> = FxHashMap::default();
    for text in other {
        let parsed = parse(text);
        let group = groups.entry(parsed.shape).or_insert_with(|| vec![Default::default(); parsed.values.len()]);
        for (slot, (_, _, value)) in group.iter_mut().zip(parsed.values) {
            slot.insert(value);
        }
    }
    let mut witnesses: Vec<&mut Witness> = witnesses.collect();
    let mut signatures: Vec<BTreeSet<String>> = Vec::with_capacity(witnesses.len());
    for witness in &mut witnesses {
        let parsed = parse(&witness.canonical);
        let (same_shape, odd_fields, signature) = match groups.get(&parsed.shape) {
            Some(group) => {
                let odd: Vec<usize> = (0..parsed.values.len())
                    .filter(|&i| group.get(i).is_some_and(|seen| !seen.contains(parsed.values[i].2)))
                    .collect();
                let fields = odd.iter().map(|&i| format!("{} = {}", parsed.path(i), parsed.values[i].2)).collect();
                let signature = if odd.is_empty() {
                    BTreeSet::from([format!("combination in {}", parsed.shape)])
                } else {
                    odd.iter().map(|&i| format!("{} = {}", parsed.path(i), value_kind(parsed.values[i].2))).collect()
                };
                (true, fields, signature)
            }
            None => (false, Vec::new(), BTreeSet::from([format!("shape {}", parsed.shape)])),
        };
        witness.same_shape = same_shape;
        witness.odd_fields = odd_fields;
        signatures.push(signature);
    }
    // Witnesses the API builds at a larger scope last, then fewer odd fields
    // first; the sort is stable, so then smallest first.
    let mut order: Vec<usize> = (0..witnesses.len()).collect();
    order.sort_by_key(|&i| (witnesses[i].api_at_scope.is_some(), signatures[i].len()));
    // Kept signatures: single ones in a set, the others in a list.
    let mut single: FxHashSet<&String> = FxHashSet::default();
    let mut kept: Vec<&BTreeSet<String>> = Vec::new();
    let mut rank = 0;
    for i in order {
        let signature = &signatures[i];
        if signature.iter().any(|s| single.contains(s)) || kept.iter().any(|k| k.is_subset(signature)) {
            continue;
        }
        witnesses[i].representative = Some(rank);
        rank += 1;
        match signature.len() {
            1 => {
                single.extend(signature.iter());
            }
            _ => kept.push(signature),
        }
    }
}

/// Rebuilds BEAPI structure `index` by running its call sequence.
fn rebuild<T: Subject>(report: &BeapiReport, index: u32) -> Option<T> {
    let step = &report.structures.get(index as usize)?.step;
    let program = report.program(index as usize);
    run_captured(UserCode::call(step.op), || program.build::<T>()).ok().flatten()
}

/// Objects in a canonical text: each prints as `Class#id{`.
pub fn count_objects(canonical: &str) -> usize {
    let bytes = canonical.as_bytes();
    let mut count = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'#' || i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let digits = bytes[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && bytes.get(i + 1 + digits) == Some(&b'{') {
            count += 1;
        }
    }
    count
}

/// A comparison registered for the command line with
/// [`compare_subject!`](crate::compare_subject).
pub struct CompareRegistration {
    /// The name on the command line (usually the BEAPI subject's).
    pub name: &'static str,
    /// The invariants it can compare, by name; the first is the default.
    pub invariants: &'static [&'static str],
    /// How many scopes above the compared one to recheck by default (see
    /// [`CompareOptions::recheck`]).
    pub recheck: u32,
    /// Runs the comparison with the named invariant.
    pub run: fn(u32, &str, &CompareOptions) -> Result<Comparison, CompareError>,
    /// The model as a Korat subject, with the first invariant, converting
    /// its structures to the API's (what `suite --engine korat` runs).
    pub model: crate::korat::KoratRegistration,
}

inventory::collect!(CompareRegistration);

/// Every registered comparison, sorted by name.
pub fn registered_comparisons() -> Vec<&'static CompareRegistration> {
    let mut all: Vec<_> = inventory::iter::<CompareRegistration>.into_iter().collect();
    all.sort_by_key(|r| r.name);
    all
}

/// The comparison registered as `name`.
pub fn find_comparison(name: &str) -> Option<&'static CompareRegistration> {
    inventory::iter::<CompareRegistration>.into_iter().find(|r| r.name == name)
}

/// Registers a comparison for the command line:
///
/// ```ignore
/// smallscope::compare_subject!("ncl", NodeCachingLinkedList, NclModel, convert = to_ncl,
///     invariants = { "roops" => roops_rep_ok, "corrected" => rep_ok });
/// ```
///
/// `convert` maps the model root's view to a value of the subject type; the
/// first invariant is the default. An optional `recheck = k` (default 1)
/// sets how many larger scopes BEAPI tries by default to explain the
/// invariant-only structures (see [`CompareOptions::recheck`]).
#[macro_export]
macro_rules! compare_subject {
    ($name:literal, $subject:ty, $model:ty, convert = $convert:path,
     invariants = { $($invariant:literal => $rep_ok:path),+ $(,)? } $(,)?) => {
        $crate::compare_subject!($name, $subject, $model, convert = $convert,
            invariants = { $($invariant => $rep_ok),+ }, recheck = 1);
    };
    ($name:literal, $subject:ty, $model:ty, convert = $convert:path,
     invariants = { $($invariant:literal => $rep_ok:path),+ $(,)? }, recheck = $recheck:expr $(,)?) => {
        $crate::api::__private::inventory::submit! {
            $crate::compare::CompareRegistration {
                name: $name,
                invariants: &[$($invariant),+],
                recheck: $recheck,
                run: |scope, invariant, options| {
                    let rep_ok: for<'c> fn(<$model as $crate::korat::Model>::View<'c>) -> bool = match invariant {
                        $($invariant => $rep_ok,)+
                        other => {
                            return ::core::result::Result::Err($crate::compare::CompareError::UnknownInvariant {
                                name: other.to_owned(),
                                known: [$($invariant),+].join(", "),
                            })
                        }
                    };
                    let mut comparison =
                        $crate::compare::compare::<$subject, $model>(scope, rep_ok, $convert, options)?;
                    comparison.invariant = invariant.to_owned();
                    ::core::result::Result::Ok(comparison)
                },
                model: $crate::korat::KoratRegistration {
                    name: $name,
                    space: $crate::korat::space::<$model>,
                    invariants: || {
                        let first: [for<'c> fn(<$model as $crate::korat::Model>::View<'c>) -> bool; 1] =
                            [[$($rep_ok),+][0]];
                        ::std::sync::Arc::new($crate::korat::converting::<$model, $subject>(first[0], $convert))
                    },
                    converts: true,
                },
            }
        }
    };
}

/// The objects reachable from `roots`, numbered breadth first, each once:
/// `links(object)` gives an object's links in field order. A conversion
/// uses it to give a candidate's objects arena slots, then [`index_in`] to
/// turn links into slot indices.
pub fn reachable_in_order<V: Copy + PartialEq>(roots: &[Option<V>], links: impl Fn(V) -> Vec<Option<V>>) -> Vec<V> {
    let mut order: Vec<V> = Vec::new();
    for root in roots.iter().flatten() {
        if !order.contains(root) {
            order.push(*root);
        }
    }
    let mut next = 0;
    while let Some(&object) = order.get(next) {
        for link in links(object).into_iter().flatten() {
            if !order.contains(&link) {
                order.push(link);
            }
        }
        next += 1;
    }
    order
}

/// The position of `object` in an order from [`reachable_in_order`].
pub fn index_in<V: PartialEq>(order: &[V], object: Option<V>) -> Option<usize> {
    object.map(|o| order.iter().position(|x| *x == o).expect("every reachable object is numbered"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_counted_from_the_text() {
        assert_eq!(count_objects("List#0{head: Node#1{key: 7, next: Node#2{key: 1, next: @1}}}"), 3);
        assert_eq!(count_objects("List#0{head: null}"), 1);
    }

    #[test]
    fn texts_are_parsed_into_shapes_and_values() {
        let a = parse("L#0{head: N#1{key: 7, next: @1}, size: 1, color: Red, tags: [1, null]}");
        let b = parse("L#0{head: N#1{key: 2, next: @1}, size: 1, color: Black, tags: [3, 4]}");
        assert_eq!(a.shape, b.shape);
        assert_eq!(a.shape, "L#0{head:N#1{key:_,next:@1},size:_,color:_,tags:[[]:_,[]:_]}");
        let paths: Vec<String> = (0..a.values.len()).map(|i| format!("{}={}", a.path(i), a.values[i].2)).collect();
        assert_eq!(paths, ["head.key=7", "head.next=@1", "size=1", "color=Red", "tags.[]=1", "tags.[]=null"]);
        assert_ne!(parse("L#0{head: null}").shape, parse("L#0{head: N#1{key: 1, next: null}}").shape);
    }

    #[test]
    fn witnesses_are_explained_and_ranked() {
        let api = ["L#0{head: null, size: 0}", "L#0{head: N#1{key: 1}, size: 1}", "L#0{head: N#1{key: 2}, size: 1}"];
        let mut witnesses: Vec<Witness> = [
            "L#0{head: null, size: 1}",
            "L#0{head: N#1{key: null}, size: 1}",
            "L#0{head: N#1{key: null}, size: 2}",
            "L#0{head: N#1{key: 3}, size: 1}",
            "L#0{head: N#1{key: 1}, tail: null}",
        ]
        .into_iter()
        .map(|t| Witness::new(t.to_owned()))
        .collect();
        explain(witnesses.iter_mut(), api.into_iter());
        assert_eq!(witnesses[0].odd_fields, ["size = 1"]);
        assert_eq!(witnesses[1].odd_fields, ["head.key = null"]);
        // Both odd fields of the third were shown already, one at a time.
        assert_eq!(witnesses[2].odd_fields.len(), 2);
        assert_eq!(witnesses[2].representative, None);
        // A key the API never sets there (3), a shape it never builds.
        assert_eq!(witnesses[3].odd_fields, ["head.key = 3"]);
        assert!(!witnesses[4].same_shape);
        let ranks: Vec<Option<usize>> = witnesses.iter().map(|w| w.representative).collect();
        assert_eq!(ranks, [Some(0), Some(1), None, Some(2), Some(3)]);
    }

    #[test]
    fn verdicts() {
        assert_eq!(Verdict::of(0, 0), Verdict::Equal);
        assert_eq!(Verdict::of(0, 2), Verdict::InvariantTooWeak);
        assert_eq!(Verdict::of(1, 0), Verdict::InvariantTooStrong);
        assert_eq!(Verdict::of(1, 2), Verdict::Differ);
    }
}

/// A registered comparison as a [`Job`](crate::runner::Job). A comparison runs whole: it has no
/// commit to resume from, and an attempt that dies starts again.
pub struct CompareJob {
    registration: &'static CompareRegistration,
    settings: CompareSettings,
    options: CompareOptions,
    command: Option<String>,
}

impl CompareJob {
    pub fn new(
        registration: &'static CompareRegistration,
        settings: CompareSettings,
        options: CompareOptions,
        command: Option<String>,
    ) -> Self {
        CompareJob { registration, settings, options, command }
    }
}

/// A comparison's events, folded.
#[derive(Debug, Clone, Default)]
pub struct ComparisonReport {
    pub run: String,
    pub name: String,
    pub comparison: Comparison,
    pub stop: Option<crate::events::Stop>,
}

impl crate::events::Fold for ComparisonReport {
    fn stopped_early(&mut self, stop: crate::events::Stop) {
        self.stop.get_or_insert(stop);
    }

    fn apply(&mut self, event: crate::events::Event) {
        use crate::events::Event;
        match event {
            Event::RunStarted(started) => {
                self.run = started.run;
                self.name = started.subject;
            }
            Event::Difference(difference) => match difference.side {
                Side::OnlyApi => self.comparison.only_api.push(difference.witness),
                Side::OnlyInvariant => self.comparison.only_invariant.push(difference.witness),
            },
            Event::Compared(comparison) => {
                let (only_api, only_invariant) = (
                    std::mem::take(&mut self.comparison.only_api),
                    std::mem::take(&mut self.comparison.only_invariant),
                );
                self.comparison = Comparison { only_api, only_invariant, ..comparison };
            }
            Event::RunFinished(finished) => self.stop = Some(finished.stop),
            _ => {}
        }
    }
}

impl crate::runner::Job for CompareJob {
    type Fold = ComparisonReport;

    fn run(
        &self,
        _start: crate::runner::Start<'_, ComparisonReport>,
        out: &mut dyn crate::events::Sink,
    ) -> Result<(), ConfigError> {
        use crate::events::{Configuration, Counts, Event, RunFinished, RunStarted, Stop};
        let started = Instant::now();
        let configuration = Configuration::Compare(self.settings.clone());
        out.event(Event::RunStarted(RunStarted::new(
            self.registration.name,
            String::new(),
            configuration,
            self.command.clone(),
        )));
        let mut comparison = (self.registration.run)(self.settings.scope, &self.settings.invariant, &self.options)
            .map_err(|e| ConfigError::Invalid(e.to_string()))?;
        for (side, witnesses) in
            [(Side::OnlyApi, &mut comparison.only_api), (Side::OnlyInvariant, &mut comparison.only_invariant)]
        {
            for (position, witness) in std::mem::take(witnesses).into_iter().enumerate() {
                out.event(Event::Difference(Difference { side, position, witness }));
            }
        }
        let counts = Counts {
            explored: comparison.korat_explored,
            structures: (comparison.api_structures + comparison.invariant_structures) as u64,
            ..Counts::default()
        };
        let stop = if comparison.incomplete { Stop::TimeLimit } else { Stop::Complete };
        out.event(Event::Compared(comparison));
        out.event(Event::RunFinished(RunFinished {
            stop,
            seconds: started.elapsed().as_secs_f64(),
            counts,
            group_counts: Vec::new(),
        }));
        Ok(())
    }
}
