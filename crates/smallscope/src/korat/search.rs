//! The Korat search (Korat+ paper §2.1, `korat()`), and Korat+'s pruning on
//! the fields `eq_class` reads (§3, `koratPlus()`).

use std::sync::Arc;
use std::time::Instant;

use super::candidate::Candidate;
use super::space::{FieldKind, SlotDomain, Space};
use crate::api::run_captured;

/// Counts of one search.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SearchStats {
    /// Candidates on which `rep_ok` held.
    pub found: u64,
    /// Candidates `rep_ok` was run on.
    pub explored: u64,
    pub seconds: f64,
    /// The equivalence classes covered, when the invariants define `eq_class`.
    pub classes: std::collections::BTreeSet<u64>,
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Korat+: skip candidates whose `eq_class` fields are unchanged since
    /// the last valid one. Without it, classes are still recorded.
    pub prune_eq_classes: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { prune_eq_classes: true }
    }
}

/// What the search calls on each candidate.
pub trait Invariants {
    fn rep_ok(&self, candidate: &Candidate) -> bool;
    /// Korat+: the equivalence class of a valid candidate; `None` turns the pruning off.
    fn eq_class(&self, _candidate: &Candidate) -> Option<u64> {
        None
    }
}

/// Runs Korat over `space`, calling `found` on every valid candidate.
///
/// The next candidate increments the last field `rep_ok` read that can
/// still grow, resetting the fields read after it; fields never read keep
/// their first value. A reference field ranges only over `null`, the
/// objects of its class that fields read before it point to, and one more
/// (`nonIsoMax`), so no two isomorphic candidates are both visited. When
/// `rep_ok` holds, the reachable fields it did not read are added, so
/// that no valid candidate is missed.
pub fn search(space: Arc<Space>, invariants: &dyn Invariants, found: &mut dyn FnMut(&Candidate)) -> SearchStats {
    search_with(space, invariants, SearchOptions::default(), found)
}

/// [`search`] with options.
pub fn search_with(
    space: Arc<Space>,
    invariants: &dyn Invariants,
    options: SearchOptions,
    found: &mut dyn FnMut(&Candidate),
) -> SearchStats {
    let started = Instant::now();
    let mut candidate = Candidate::new(space);
    let mut stats = search_subtree(&mut candidate, 0, invariants, options, found);
    stats.seconds = started.elapsed().as_secs_f64();
    stats
}

/// Searches the candidates that share `candidate`'s values on the first
/// `frozen` fields `rep_ok` reads, starting from `candidate`.
fn search_subtree(
    candidate: &mut Candidate,
    frozen: usize,
    invariants: &dyn Invariants,
    options: SearchOptions,
    found: &mut dyn FnMut(&Candidate),
) -> SearchStats {
    let space = candidate.space_arc();
    let mut stats = SearchStats::default();
    let mut stack = Vec::new();
    crate::api::set_current_operation("rep_ok");
    loop {
        candidate.clear_log();
        let ok = run_captured(|| invariants.rep_ok(candidate)).unwrap_or(false);
        stats.explored += 1;
        candidate.take_log_into(&mut stack);
        let mut eq_fields = None;
        if ok {
            stats.found += 1;
            push_unread_reachable(&space, candidate, &mut stack);
            // After the stack is complete: what `found` reads changes nothing.
            found(candidate);
            candidate.clear_log();
            if let Ok(Some(class)) = run_captured(|| invariants.eq_class(candidate)) {
                stats.classes.insert(class);
                if options.prune_eq_classes {
                    eq_fields = Some(candidate.take_log());
                }
            }
        }
        // Fields below `frozen` belong to the subtree's definition.
        let frozen = frozen.min(stack.len());
        let advanced = match eq_fields {
            Some(eq_fields) => advance_past(&space, candidate.values_mut(), &mut stack, frozen, &eq_fields),
            None => advance(&space, candidate.values_mut(), &mut stack, frozen),
        };
        if !advanced {
            return stats;
        }
    }
}

/// One part of a split search: a first candidate and how many of its first
/// read fields are fixed.
struct Subtree {
    values: Vec<u32>,
    frozen: usize,
}

/// Runs the search on `threads` threads (0: all cores), splitting it on a
/// prefix of the fields `rep_ok` reads first (as PKorat does). Counts and
/// the order in which valid candidates are reported equal the sequential
/// search's: each part is the sequential search restricted to one value of
/// the prefix, and the parts are reported in the order it would visit them.
pub fn search_parallel<F, R>(
    space: Arc<Space>,
    invariants: &(dyn Invariants + Sync),
    options: SearchOptions,
    threads: usize,
    found: F,
) -> (SearchStats, Vec<R>)
where
    F: Fn(&Candidate) -> Option<R> + Sync,
    R: Send,
{
    use rayon::prelude::*;
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    // Parts are uneven (a null branch is small), so make many.
    let target = pool.current_num_threads() * 1024;
    let parts = split(&space, invariants, target);
    let results: Vec<(SearchStats, Vec<R>)> = pool.install(|| {
        parts
            .into_par_iter()
            .map(|part| {
                let mut candidate = Candidate::new(space.clone());
                candidate.values_mut().copy_from_slice(&part.values);
                let mut out = Vec::new();
                let stats =
                    search_subtree(&mut candidate, part.frozen, invariants, options, &mut |c| out.extend(found(c)));
                (stats, out)
            })
            .collect()
    });
    let mut stats = SearchStats::default();
    let mut all = Vec::new();
    for (part, out) in results {
        stats.found += part.found;
        stats.explored += part.explored;
        stats.classes.extend(part.classes);
        all.extend(out);
    }
    stats.seconds = started.elapsed().as_secs_f64();
    (stats, all)
}

/// Splits the search into at least `target` parts where it can. Probing
/// which field comes next runs `rep_ok` outside the counted search.
fn split(space: &Arc<Space>, invariants: &dyn Invariants, target: usize) -> Vec<Subtree> {
    let mut parts = vec![Subtree { values: vec![0; space.slots.len()], frozen: 0 }];
    let mut probe = Candidate::new(space.clone());
    for _ in 0..64 {
        if parts.len() >= target {
            break;
        }
        let mut next = Vec::new();
        let mut grew = false;
        for part in parts {
            probe.values_mut().copy_from_slice(&part.values);
            probe.clear_log();
            let _ = run_captured(|| invariants.rep_ok(&probe));
            let stack = probe.take_log();
            // Within the part, the field read after the prefix is always the same.
            let Some(&field) = stack.get(part.frozen) else {
                next.push(part);
                continue;
            };
            let field = field as usize;
            let max = non_iso_max(space, &part.values, &stack[..part.frozen], &[], field);
            for value in part.values[field]..=max {
                let mut values = part.values.clone();
                values[field] = value;
                next.push(Subtree { values, frozen: part.frozen + 1 });
            }
            grew |= max > part.values[field];
        }
        parts = next;
        if !grew {
            break;
        }
    }
    parts
}

/// The largest index `slot` may take given the fields read before it
/// (`earlier`, then `later`).
fn non_iso_max(space: &Space, values: &[u32], earlier: &[u32], later: &[u32], slot: usize) -> u32 {
    match &space.slots[slot] {
        SlotDomain::Values(values) => values.len() as u32 - 1,
        SlotDomain::Ref { class, nullable, objects } => {
            let touched = earlier
                .iter()
                .chain(later)
                .filter_map(|&s| match &space.slots[s as usize] {
                    domain @ SlotDomain::Ref { class: c, .. } if c == class => domain.object(values[s as usize]),
                    _ => None,
                })
                .max();
            let untouched = touched.map_or(0, |m| m + 1).min(objects.saturating_sub(1));
            if *objects == 0 {
                0
            } else {
                untouched + u32::from(*nullable)
            }
        }
    }
}

/// Korat's next candidate: increments the last read field that can grow.
/// The first `frozen` fields of the stack stay fixed.
fn advance(space: &Space, values: &mut [u32], stack: &mut Vec<u32>, frozen: usize) -> bool {
    while stack.len() > frozen {
        let slot = stack.pop().expect("longer than frozen") as usize;
        if values[slot] < non_iso_max(space, values, stack, &[], slot) {
            values[slot] += 1;
            return true;
        }
        values[slot] = 0;
    }
    false
}

/// Korat+'s next candidate after a valid one: as [`advance`], but if that
/// would leave every field `eq_class` read unchanged (a candidate of the
/// class just covered), it resets those fields and advances the last field
/// `eq_class` read instead.
fn advance_past(space: &Space, values: &mut [u32], stack: &mut Vec<u32>, frozen: usize, eq_fields: &[u32]) -> bool {
    let before = stack.clone();
    let saved: Vec<u32> = values.to_vec();
    if !advance(space, values, stack, frozen) {
        return false;
    }
    // The fields `advance` popped were all reset or incremented: modified.
    if before[stack.len()..].iter().any(|f| eq_fields.contains(f)) {
        return true;
    }
    // Undo, then skip to the last eq_class field on the stack.
    values.copy_from_slice(&saved);
    *stack = before;
    while stack.len() > frozen {
        let top = *stack.last().expect("longer than frozen");
        if eq_fields.contains(&top) {
            return advance(space, values, stack, frozen);
        }
        values[top as usize] = 0;
        stack.pop();
    }
    false
}

/// Adds the fields reachable from the root that `rep_ok` did not read, as
/// Korat's `touch` does: an object's fields in declaration order, following
/// a reference to an object not yet visited at once, before the next field;
/// an array's length, then its elements in index order.
fn push_unread_reachable(space: &Space, candidate: &Candidate, stack: &mut Vec<u32>) {
    if space.classes.first().is_none_or(|c| c.objects == 0) {
        return;
    }
    let mut visited: Vec<Vec<bool>> = space.classes.iter().map(|c| vec![false; c.objects]).collect();
    visited[0][0] = true;
    touch(space, candidate, stack, &mut visited, 0, 0);
}

fn touch(
    space: &Space,
    candidate: &Candidate,
    stack: &mut Vec<u32>,
    visited: &mut [Vec<bool>],
    class: u32,
    object: u32,
) {
    let decl = &space.classes[class as usize];
    for (f, field) in decl.fields.iter().enumerate() {
        let first = space.slot(class, object, f);
        let len = match &field.kind {
            FieldKind::Array { .. } => candidate.peek_value(first).max(0) as usize,
            _ => 0,
        };
        for slot in std::iter::once(first).chain((0..len).map(|i| first + 1 + i)) {
            if !candidate.was_read(slot) {
                stack.push(slot as u32);
            }
            if let domain @ SlotDomain::Ref { class: target, .. } = &space.slots[slot] {
                if let Some(o) = domain.object(candidate.values()[slot]) {
                    if !visited[*target as usize][o as usize] {
                        visited[*target as usize][o as usize] = true;
                        touch(space, candidate, stack, visited, *target, o);
                    }
                }
            }
        }
    }
}
