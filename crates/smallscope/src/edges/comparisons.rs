//! The operands of the comparisons the crate under test makes, by site:
//! what a search needs to take a branch no input took yet (set an argument
//! to the value it was compared with, or next to it).
//!
//! SanitizerCoverage's `trace-compares` calls back before every integer
//! comparison (`__sanitizer_cov_trace_cmp4(left, right)`) and `match`
//! (`__sanitizer_cov_trace_switch(value, cases)`) of the instrumented
//! crate; on x86_64 the callback passes its caller's address on, which
//! names the site. Only the user's sites are kept, as for edges (see
//! [`super`]), and only while [`record`] is on: otherwise a comparison
//! costs a call, a jump and a load.
//!
//! **Cost while recording.** A lock and a hash lookup per comparison,
//! and reading the line tables the first time a site is met (tens of
//! microseconds). Recording is for re-running chosen sequences, not for
//! a whole random run.
//!
//! A site is named by its address in the binary's file, the same in every
//! process running the binary; [`site`] says where its code is.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

use rustc_hash::{FxBuildHasher, FxHashMap};

use super::lines::EdgeSite;

/// Outcome bit of a comparison whose operands were equal.
pub const EQUAL: u64 = 1;
/// Outcome bit of a comparison whose operands differed.
pub const UNEQUAL: u64 = 2;
/// Outcome bit of a `match` whose value was none of its cases (bit `i` is case `i`).
pub const NO_CASE: u64 = 1 << 63;
/// Distinct operand pairs kept per site.
pub const OPERANDS_KEPT: usize = 8;

/// What a comparison site saw while recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The site's address in the binary's file.
    pub site: u64,
    pub kind: SiteKind,
    /// The outcomes seen: [`EQUAL`] and [`UNEQUAL`] for a comparison; for a
    /// `match`, bit `i` for case `i` (of the first 63) and [`NO_CASE`].
    pub outcomes: u64,
    /// Distinct operand pairs, the first [`OPERANDS_KEPT`] seen; a `match`'s
    /// value is both.
    pub operands: Vec<(u64, u64)>,
}

/// What kind of comparison a site makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SiteKind {
    /// Two integers of `bytes` bytes; `constant` when the left one is a
    /// constant of the code.
    Compare { bytes: u8, constant: bool },
    /// A `match` on an integer, with its cases' values.
    Match { cases: Vec<u64> },
}

static RECORDING: AtomicBool = AtomicBool::new(false);
static RECORDER: Mutex<Recorder> = Mutex::new(Recorder {
    sites: FxHashMap::with_hasher(FxBuildHasher),
    observed: FxHashMap::with_hasher(FxBuildHasher),
    places: FxHashMap::with_hasher(FxBuildHasher),
});

struct Recorder {
    /// By caller address in memory: the site's file address, if the user's.
    sites: FxHashMap<usize, Option<u64>>,
    observed: FxHashMap<u64, Observed>,
    /// Where each site met is.
    places: FxHashMap<u64, EdgeSite>,
}

fn recorder() -> std::sync::MutexGuard<'static, Recorder> {
    RECORDER.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts or stops recording. Nothing is recorded before
/// [`super::enable`], nor in a binary built without coverage.
pub fn record(on: bool) {
    RECORDING.store(on, Relaxed);
}

/// What the user's comparison sites saw since the last call, by site.
pub fn take() -> Vec<Observed> {
    let mut observed: Vec<Observed> = recorder().observed.drain().map(|(_, observed)| observed).collect();
    observed.sort_by_key(|o| o.site);
    observed
}

/// Where the code of `site` (met while recording) is.
pub fn site(site: u64) -> Option<EdgeSite> {
    recorder().places.get(&site).cloned()
}

impl Recorder {
    /// The file address of the user's site that called from `caller`.
    fn user_site(&mut self, caller: usize) -> Option<u64> {
        if let Some(&known) = self.sites.get(&caller) {
            return known;
        }
        // The call instruction ends at the return address.
        let (place, site) = super::lines::with(|lines| (lines.user_site(caller - 1), lines.in_file(caller - 1)))?;
        let found = place.map(|place| {
            self.places.insert(site, place);
            site
        });
        self.sites.insert(caller, found);
        found
    }

    fn observe(&mut self, caller: usize, kind: impl FnOnce() -> SiteKind, outcome: u64, pair: (u64, u64)) {
        let Some(site) = self.user_site(caller) else { return };
        let observed = self.observed.entry(site).or_insert_with(|| Observed {
            site,
            kind: kind(),
            outcomes: 0,
            operands: Vec::new(),
        });
        observed.outcomes |= outcome;
        if observed.operands.len() < OPERANDS_KEPT && !observed.operands.contains(&pair) {
            observed.operands.push(pair);
        }
    }
}

/// A comparison of `left` and `right` (`bytes` wide) called from `caller`.
#[cfg_attr(not(all(feature = "sancov", target_arch = "x86_64")), allow(dead_code))]
#[inline]
pub(super) fn compare(caller: usize, left: u64, right: u64, bytes: u8, constant: bool) {
    if !RECORDING.load(Relaxed) {
        return;
    }
    let outcome = if left == right { EQUAL } else { UNEQUAL };
    recorder().observe(caller, || SiteKind::Compare { bytes, constant }, outcome, (left, right));
}

/// A `match` on `value` called from `caller`; `cases` is SanitizerCoverage's
/// table: the number of cases, their width in bits, then the values.
///
/// # Safety
/// `cases` is such a table.
#[cfg_attr(not(all(feature = "sancov", target_arch = "x86_64")), allow(dead_code))]
#[inline]
pub(super) unsafe fn switch(caller: usize, value: u64, cases: *const u64) {
    if !RECORDING.load(Relaxed) {
        return;
    }
    // SAFETY: the table's length comes first, as the caller promises.
    let values = unsafe { std::slice::from_raw_parts(cases.add(2), *cases as usize) };
    let outcome = match values.iter().position(|&case| case == value) {
        Some(i) if i < 63 => 1 << i,
        Some(_) => 0,
        None => NO_CASE,
    };
    recorder().observe(caller, || SiteKind::Match { cases: values.to_vec() }, outcome, (value, value));
}
