//! The branches of the user's code with one side taken and another not:
//! the thesis's *frontier conditions* (Pacheco, §8.4), which branch-directed
//! generation tries to flip.
//!
//! SanitizerCoverage's `control-flow` option writes each instrumented
//! function's control-flow graph into the binary: for each block, its
//! address, its successors' addresses and the functions it calls. A block of
//! the user's with two or more successors is a branch; it is on the frontier
//! when it was taken and some of its successors were and some were not.
//! A side that only calls std's panics (an index out of bounds, an
//! `unwrap` on `None`, an overflow) is told apart: taking it is a failure,
//! and in a correct crate no input takes it.
//!
//! **Cost.** One pass over the table, about as many entries as instrumented
//! blocks, and a symbol lookup per function a missed side calls.

use std::collections::HashMap;
use std::sync::Mutex;

use super::guards;
use super::lines::EdgeSite;

/// The tables handed over at start: (start, end) of each module's.
static TABLES: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// A branch of the user's code with a side not taken yet.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct FrontierBranch {
    /// Where the branching block's code starts.
    pub at: EdgeSite,
    /// Where each side not taken starts.
    pub missed: Vec<EdgeSite>,
    /// Every side not taken only calls a std panic.
    pub to_panic: bool,
    /// The sides not taken, as edge numbers of this binary: a flip takes one.
    #[serde(default)]
    pub missed_edges: Vec<u32>,
    /// The user's function the branch is in (its name, as the line tables have it).
    #[serde(default)]
    pub function: String,
    /// The branching block's own edge, when it starts in the user's code.
    #[serde(skip)]
    pub edge: Option<u32>,
    /// The sides taken, as edge numbers: a run that took one reached the branch.
    #[serde(skip)]
    pub sides_taken: Vec<u32>,
    /// The branching block's code, as addresses in the binary's file: the
    /// comparison sites in it decide the branch.
    #[serde(skip)]
    pub block: (u64, u64),
}

impl FrontierBranch {
    /// The lines of the sides not taken, as `103, 104`.
    pub fn missed_lines(&self) -> String {
        let lines: Vec<String> = self.missed.iter().map(|site| site.line.to_string()).collect();
        lines.join(", ")
    }
}

/// A module's table.
///
/// # Safety
/// `start..end` is the module's control-flow table, as SanitizerCoverage
/// passes it; it lives as long as the process.
#[cfg_attr(not(feature = "sancov"), allow(dead_code))]
pub(super) unsafe fn add_table(start: *const usize, end: *const usize) {
    TABLES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((start as usize, end as usize));
}

/// The user's branches with a side taken and a side not, by place.
pub fn frontier() -> Vec<FrontierBranch> {
    let tables = TABLES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
    let mut frontier = Vec::new();
    for (start, end) in tables {
        // SAFETY: a table SanitizerCoverage handed over, in the binary's data.
        let table = unsafe { std::slice::from_raw_parts(start as *const usize, (end - start) / size_of::<usize>()) };
        let mut reading = Blocks { table, at: 0 };
        let blocks: Vec<Block<'_>> = std::iter::from_fn(|| reading.next()).collect();
        let block_at: HashMap<usize, &Block<'_>> = blocks.iter().map(|block| (block.address, block)).collect();
        let mut starts: Vec<usize> = blocks.iter().map(|block| block.address).collect();
        starts.sort_unstable();
        for block in blocks.iter().filter(|block| block.successors.len() >= 2) {
            // Sides are the user's blocks; a side that is not (code a macro
            // wrote, or nothing but `unreachable`) is not counted.
            let sides: Vec<(usize, u32)> =
                block.successors.iter().filter_map(|&side| Some((side, guards::edge_at(side)?))).collect();
            let missed: Vec<&(usize, u32)> = sides.iter().filter(|(_, edge)| !guards::taken(*edge)).collect();
            // A side taken means the branch was.
            if missed.is_empty() || missed.len() == sides.len() {
                continue;
            }
            let end = starts.get(starts.partition_point(|&s| s <= block.address)).copied();
            let end = end.unwrap_or(block.address + 1);
            let Some((Some((at, function)), range)) = super::lines::with(|lines| {
                (lines.user_branch(block.address, end), (lines.in_file(block.address), lines.in_file(end)))
            }) else {
                continue;
            };
            let to_panic = missed.iter().all(|(side, _)| block_at.get(side).is_some_and(|b| only_panics(b)));
            let missed_edges: Vec<u32> = missed.iter().map(|(_, edge)| *edge).collect();
            let sides_taken = sides.iter().map(|(_, edge)| *edge).filter(|edge| !missed_edges.contains(edge)).collect();
            let missed = missed.iter().filter_map(|(_, edge)| guards::site(*edge)).collect();
            let edge = guards::edge_at(block.address);
            frontier.push(FrontierBranch {
                at,
                missed,
                to_panic,
                missed_edges,
                function,
                edge,
                sides_taken,
                block: range,
            });
        }
    }
    frontier.sort();
    frontier.dedup();
    frontier
}

/// One block of a table: its address, its successors', and the functions
/// it calls (`usize::MAX` for a call through a pointer).
struct Block<'a> {
    address: usize,
    successors: &'a [usize],
    calls: &'a [usize],
}

/// A table read block by block: `address, successors…, 0, calls…, 0`.
struct Blocks<'a> {
    table: &'a [usize],
    at: usize,
}

impl<'a> Blocks<'a> {
    fn next(&mut self) -> Option<Block<'a>> {
        let address = *self.table.get(self.at)?;
        let successors = self.until_zero(self.at + 1);
        let calls = self.until_zero(self.at + 2 + successors.len());
        self.at += 3 + successors.len() + calls.len();
        Some(Block { address, successors, calls })
    }

    fn until_zero(&self, from: usize) -> &'a [usize] {
        let rest = self.table.get(from..).unwrap_or(&[]);
        &rest[..rest.iter().position(|&word| word == 0).unwrap_or(rest.len())]
    }
}

/// Whether `block` calls something and every call is to a std panic.
fn only_panics(block: &Block<'_>) -> bool {
    !block.calls.is_empty()
        && block.calls.iter().all(|&callee| {
            callee != usize::MAX
                && super::lines::with(|lines| lines.symbol(callee).is_some_and(is_panic)).unwrap_or(false)
        })
}

/// A std function that only panics, by its (mangled) name.
fn is_panic(symbol: &str) -> bool {
    ["panicking", "unwrap_failed", "expect_failed", "panic_bounds_check", "slice_index_fail", "slice_end_index"]
        .iter()
        .any(|name| symbol.contains(name))
}
