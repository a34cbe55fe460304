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

use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::api::{Outcome, Subject};
use crate::beapi::{BeapiConfig, BeapiReport, Builders};
use crate::events::During;
use crate::heap::{Linearizer, Schema};
use crate::korat::{self, Model, SearchOptions};
use crate::runner::{run_captured, UserCode};
use crate::ConfigError;

mod error;
mod explain;
mod job;
mod outcome;
mod registry;
mod settings;

pub use error::CompareError;
pub use job::{CompareJob, ComparisonReport};
pub use outcome::{count_objects, Comparison, Difference, Side, Verdict, Witness};
pub use registry::{
    find_comparison, find_korat_subject, index_in, reachable_in_order, registered_comparisons,
    registered_korat_subjects, CompareRegistration,
};
pub use settings::{CompareOptions, CompareSettings};

use explain::explain;

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

/// Rebuilds BEAPI structure `index` by running its call sequence.
fn rebuild<T: Subject>(report: &BeapiReport, index: u32) -> Option<T> {
    let step = &report.structures.get(index as usize)?.step;
    let program = report.program(index as usize);
    run_captured(UserCode::call(step.op), || program.build::<T>()).ok().flatten()
}

inventory::collect!(CompareRegistration);

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
