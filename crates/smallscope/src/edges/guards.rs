//! The edges: which guards are the user's, and which of those were taken.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;

use super::lines::{EdgeSite, LineTablesError, Lines};

/// Why coverage could not be enabled.
#[derive(Debug, thiserror::Error)]
pub enum EdgesError {
    #[error("this binary was not built with coverage (no SanitizerCoverage guards)")]
    NotInstrumented,
    #[error("the binary was built without the guards' addresses (`-sanitizer-coverage-pc-table`)")]
    NoAddresses,
    #[error(transparent)]
    LineTables(#[from] LineTablesError),
    #[error("coverage is enabled already")]
    Enabled,
}

/// What [`enable`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeCount {
    /// Edges of the user's crate: what [`covered`] counts up to.
    pub user: usize,
    /// Every instrumented edge, the user's among them.
    pub instrumented: usize,
}

/// One instrumented module's guards and their addresses.
struct Module {
    guards: *mut u32,
    len: usize,
    /// `len` pairs of (address, flags), from `__sanitizer_cov_pcs_init`.
    table: Option<*const usize>,
}

// SAFETY: the pointers are into the binary's own sections, which live as
// long as the process.
unsafe impl Send for Module {}

static MODULES: Mutex<Vec<Module>> = Mutex::new(Vec::new());
/// Whether each user's edge was taken, by its guard's value (from 1).
static TAKEN: OnceLock<Box<[AtomicBool]>> = OnceLock::new();
static SITES: OnceLock<Vec<EdgeSite>> = OnceLock::new();
/// The function each user's edge is in, as the line tables name it.
static FUNCTIONS: OnceLock<Vec<String>> = OnceLock::new();
static COVERED: AtomicU64 = AtomicU64::new(0);
/// The user's edges taken since the last [`take_new`], by number: what a
/// journal keeps so that a restarted run knows them.
static NEW: Mutex<Vec<u32>> = Mutex::new(Vec::new());
static COUNT: OnceLock<EdgeCount> = OnceLock::new();
/// The user's edges by their address in memory.
static EDGE_AT: OnceLock<FxHashMap<usize, u32>> = OnceLock::new();
/// Whether [`take`] writes down every user's edge it is called for, not
/// only the first time: what one replay took, for [`super::trace`].
static TRACING: AtomicBool = AtomicBool::new(false);
static TRACE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Whether this binary has instrumented code.
pub fn instrumented() -> bool {
    !MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).is_empty()
}

/// Numbers the edges of the crate whose sources are under `user_crate`,
/// so that [`covered`] counts them from now on. Call it once, before the
/// code under test runs.
pub fn enable(user_crate: &Path) -> Result<EdgeCount, EdgesError> {
    let modules = MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if modules.is_empty() {
        return Err(EdgesError::NotInstrumented);
    }
    if TAKEN.get().is_some() {
        return Err(EdgesError::Enabled);
    }
    let mut lines = Lines::open(user_crate)?;
    let mut user = Vec::new();
    let mut sites = Vec::new();
    let mut functions = Vec::new();
    let mut addresses = FxHashMap::default();
    // Each block ends where the next begins.
    let mut starts = Vec::new();
    for module in modules.iter() {
        let table = module.table.ok_or(EdgesError::NoAddresses)?;
        // SAFETY: `len` pairs, as the module handed them over.
        starts.extend((0..module.len).map(|i| unsafe { *table.add(2 * i) }));
    }
    starts.sort_unstable();
    let end_of = |address: usize| {
        let next = starts.partition_point(|&start| start <= address);
        starts.get(next).copied().unwrap_or(address + 1)
    };
    for module in modules.iter() {
        let table = module.table.ok_or(EdgesError::NoAddresses)?;
        for i in 0..module.len {
            // SAFETY: `len` pairs, as the module handed them over.
            let address = unsafe { *table.add(2 * i) };
            if let Some((site, function)) = lines.user_block(address, end_of(address)) {
                // SAFETY: guard `i` of this module.
                user.push(unsafe { module.guards.add(i) });
                sites.push(site);
                functions.push(function);
                addresses.insert(address, user.len() as u32);
            }
        }
    }
    let instrumented = modules.iter().map(|module| module.len).sum();
    let _ = TAKEN.set((0..=user.len()).map(|_| AtomicBool::new(false)).collect());
    let _ = SITES.set(sites);
    let _ = FUNCTIONS.set(functions);
    for (number, guard) in user.iter().enumerate() {
        // SAFETY: a guard of an instrumented module; no user code runs yet.
        unsafe { **guard = number as u32 + 1 };
    }
    let count = EdgeCount { user: user.len(), instrumented };
    let _ = COUNT.set(count);
    let _ = EDGE_AT.set(addresses);
    super::lines::keep(lines);
    Ok(count)
}

/// What [`enable`] found, once it ran.
pub fn count() -> Option<EdgeCount> {
    COUNT.get().copied()
}

/// The user's files with edges, and how many each has.
pub fn files() -> Vec<(String, usize)> {
    let mut files: Vec<(String, usize)> = Vec::new();
    for site in SITES.get().into_iter().flatten() {
        match files.iter_mut().find(|(file, _)| *file == site.file) {
            Some((_, edges)) => *edges += 1,
            None => files.push((site.file.clone(), 1)),
        }
    }
    files.sort();
    files
}

/// The user's edges taken since [`enable`] (0 before).
pub fn covered() -> u64 {
    COVERED.load(Relaxed)
}

/// The numbers of the user's edges first taken since the last call (or
/// since [`enable`]), in the order they were taken.
pub fn take_new() -> Vec<u32> {
    std::mem::take(&mut *NEW.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

/// Counts the edges numbered `numbers` (from [`take_new`], in an earlier
/// process running the same binary) as taken: a restarted run carries on
/// with the coverage it had. Numbers this binary does not have are ignored.
pub fn mark(numbers: &[u32]) {
    let Some(taken) = TAKEN.get() else { return };
    for &number in numbers {
        if let Some(edge) = taken.get(number as usize).filter(|_| number > 0) {
            if !edge.swap(true, Relaxed) {
                COVERED.fetch_add(1, Relaxed);
            }
        }
    }
}

/// Where each user's edge taken so far is.
pub fn covered_sites() -> Vec<EdgeSite> {
    let (Some(taken), Some(sites)) = (TAKEN.get(), SITES.get()) else { return Vec::new() };
    let mut covered: Vec<EdgeSite> =
        sites.iter().enumerate().filter(|(i, _)| taken[i + 1].load(Relaxed)).map(|(_, site)| site.clone()).collect();
    covered.sort();
    covered
}

/// A module's guards, all 0 (off) until [`enable`] numbers the user's.
///
/// # Safety
/// `start..stop` are the module's guards, as SanitizerCoverage passes them.
#[cfg_attr(not(feature = "sancov"), allow(dead_code))]
pub(super) unsafe fn add_module(start: *mut u32, stop: *mut u32) {
    let mut modules = MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if start == stop || modules.iter().any(|module| module.guards == start) {
        return;
    }
    // SAFETY: one module's guard section, as the caller promises.
    let len = unsafe { stop.offset_from(start) } as usize;
    for i in 0..len {
        // SAFETY: within the section.
        unsafe { *start.add(i) = 0 };
    }
    modules.push(Module { guards: start, len, table: None });
}

/// The address of each guard's edge, for the module added last with as
/// many guards.
///
/// # Safety
/// `start..end` is the module's table, as SanitizerCoverage passes it.
#[cfg_attr(not(feature = "sancov"), allow(dead_code))]
pub(super) unsafe fn add_addresses(start: *const usize, end: *const usize) {
    let mut modules = MODULES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // SAFETY: one module's table, as the caller promises.
    let pairs = unsafe { end.offset_from(start) } as usize / 2;
    if let Some(module) = modules.iter_mut().rev().find(|module| module.table.is_none() && module.len == pairs) {
        module.table = Some(start);
    }
}

/// An edge taken: counted the first time if it is the user's.
///
/// # Safety
/// `guard` is one of the guards handed to [`add_module`].
#[cfg_attr(not(feature = "sancov"), allow(dead_code))]
#[inline]
pub(super) unsafe fn take(guard: *mut u32) {
    // SAFETY: a guard, as the caller promises.
    let index = unsafe { *guard } as usize;
    if index == 0 {
        return;
    }
    if TRACING.load(Relaxed) {
        let mut trace = TRACE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        trace.push(index as u32);
        // A loop takes the same edges again and again: kept once.
        if trace.len() >= 1 << 16 {
            trace.sort_unstable();
            trace.dedup();
        }
    }
    if let Some(taken) = TAKEN.get() {
        let edge = &taken[index];
        if !edge.load(Relaxed) && !edge.swap(true, Relaxed) {
            COVERED.fetch_add(1, Relaxed);
            NEW.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(index as u32);
        }
    }
}

/// Starts or stops writing down the user's edges taken.
pub(super) fn trace(on: bool) {
    TRACING.store(on, Relaxed);
}

/// Whether [`trace`] is on.
pub(super) fn tracing() -> bool {
    TRACING.load(Relaxed)
}

/// The user's edges taken since the last call while tracing, each once, by number.
pub(super) fn take_trace() -> Vec<u32> {
    let mut edges = std::mem::take(&mut *TRACE.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// The number of the user's edge at `address` (in memory), if it is one.
pub(super) fn edge_at(address: usize) -> Option<u32> {
    EDGE_AT.get()?.get(&address).copied()
}

/// Whether the user's edge `number` was taken.
pub(super) fn taken(number: u32) -> bool {
    TAKEN.get().and_then(|taken| taken.get(number as usize)).is_some_and(|edge| edge.load(Relaxed))
}

/// Every user's edge, by number from 1: where it is and the function it is in.
pub(super) fn all_sites() -> impl Iterator<Item = (u32, &'static EdgeSite, &'static str)> {
    let sites = SITES.get().into_iter().flatten();
    let functions = FUNCTIONS.get().into_iter().flatten();
    sites.zip(functions).enumerate().map(|(i, (site, function))| (i as u32 + 1, site, function.as_str()))
}

/// Where the user's edge `number` is.
pub(super) fn site(number: u32) -> Option<EdgeSite> {
    SITES.get()?.get((number as usize).checked_sub(1)?).cloned()
}
