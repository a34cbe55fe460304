//! `smallscope bench suites`: the field coverage paper's Tables II and III
//! in Rust terms: for each subject, scope and policy, the suite's size and
//! the seconds to generate it, next to the field-exhaustive suite and the
//! bounded-exhaustive count (every structure the engine makes). Each cell
//! is a `smallscope suite … --format json` run in a child process.

use std::process::Command;

use anyhow::{bail, Context as _};
use smallscope::coverage::{Criterion, StoppedBy};

use crate::summary::SuiteSummary;

#[derive(clap::Args)]
pub struct SuitesBench {
    /// `engine:subject` items, separated by commas. Default: the paper's
    /// subjects on both engines: the sorted list, the BST, the AVL tree
    /// (BEAPI's TreeSet) and the binomial heap.
    #[arg(long, value_delimiter = ',')]
    runs: Vec<String>,
    /// The scopes, `from-to`.
    #[arg(long, default_value = "5-8")]
    scopes: String,
    /// The small scope transcoping measures up to.
    #[arg(long, default_value_t = 5)]
    small_scope: u32,
}

const DEFAULT_RUNS: [&str; 7] = [
    "korat:sorted-list",
    "korat:search-tree",
    "korat:binomial-heap",
    "beapi:sorted-list",
    "beapi:bst",
    "beapi:avl",
    "beapi:binheap",
];

fn scopes(text: &str) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
    let parse = |t: &str| t.trim().parse::<u32>().with_context(|| format!("--scopes {text}: `{t}` is not a scope"));
    let range = match text.split_once('-') {
        Some((from, to)) => parse(from)?..=parse(to)?,
        None => parse(text)?..=parse(text)?,
    };
    if range.is_empty() || *range.start() == 0 {
        bail!("--scopes {text}: give `from-to` with 1 <= from <= to");
    }
    Ok(range)
}

/// One suite run, in a child process.
fn suite(engine: &str, subject: &str, criterion: Criterion, scope: u32, small: u32) -> anyhow::Result<SuiteSummary> {
    let exe = std::env::current_exe()?;
    let output = Command::new(exe)
        .args(["suite", subject, "--engine", engine, "--criterion", criterion.name()])
        .args(["--scope", &scope.to_string(), "--small-scope", &small.to_string(), "--format", "json"])
        .output()?;
    if !output.status.success() {
        bail!(
            "suite {subject} --engine {engine} --criterion {criterion} --scope {scope}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

pub fn run(bench: &SuitesBench) -> anyhow::Result<()> {
    let scopes = scopes(&bench.scopes)?;
    let runs: Vec<String> = match bench.runs.is_empty() {
        true => DEFAULT_RUNS.iter().map(|r| (*r).to_owned()).collect(),
        false => bench.runs.clone(),
    };
    println!(
        "Field coverage suites (the paper's Tables II and III): suite size / seconds to generate it, per policy; \
         small scopes 1 to {}",
        bench.small_scope
    );
    println!("BE: bounded-exhaustive, every structure the engine makes (the FET run sees them all)");
    println!("stop: e = the engine ended, s = predicted sizes reached, t = predicted time passed");
    let mut header = format!("{:<22} {:<7}", "subject", "policy");
    for scope in scopes.clone() {
        header.push_str(&format!(" {:>20}", format!("scope {scope}")));
    }
    println!("{header}");
    for run in &runs {
        let Some((engine, subject)) = run.split_once(':') else {
            bail!("--runs: `{run}` is not `engine:subject`");
        };
        let mut rows: Vec<(String, Vec<String>)> = vec![("BE".to_owned(), Vec::new())];
        rows.extend(Criterion::ALL.iter().map(|c| (c.name().to_owned(), Vec::new())));
        for scope in scopes.clone() {
            for (i, criterion) in Criterion::ALL.into_iter().enumerate() {
                let summary = suite(engine, subject, criterion, scope, bench.small_scope)?;
                if criterion == Criterion::Fet {
                    rows[0].1.push(format!("{}", summary.structures_seen));
                }
                let stop = match summary.stopped_by {
                    StoppedBy::Exhausted => "e",
                    StoppedBy::PredictedSizes => "s",
                    StoppedBy::PredictedTime => "t",
                    StoppedBy::Interrupted => "i",
                };
                rows[i + 1].1.push(format!("{} / {:.3} {stop}", summary.suite_size, summary.seconds));
            }
        }
        for (policy, cells) in rows {
            let mut line = format!("{:<22} {policy:<7}", format!("{engine}:{subject}"));
            for cell in cells {
                line.push_str(&format!(" {cell:>20}"));
            }
            println!("{line}");
        }
    }
    Ok(())
}
