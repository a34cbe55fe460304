//! `smallscope bench suites`: the field coverage paper's Tables II and III
//! in Rust terms: for each subject, scope and policy, the suite's size and
//! the seconds to generate it, next to the field-exhaustive suite and the
//! bounded-exhaustive count (every structure the engine makes). Each cell
//! is a `smallscope suite … --format json` run in a child process.
//!
//! With `--quality`, also its Tables V and VI: each suite's edge coverage
//! of `insert`, `remove` and `contains`, measured in-process by `suite`
//! in a harness built with coverage, and its mutation score (see
//! [`crate::suite_quality`]). `scripts/bench-suites` installs
//! `cargo-mutants` and builds `cargo-smallscope`, which that needs.

use std::collections::BTreeMap;
use std::process::Command;

use anyhow::{bail, Context as _};
use smallscope::coverage::{Criterion, StoppedBy};
use smallscope_args::bench::SuitesBench;

use crate::suite_quality::{Measured, QualityCrate, MEASURED};
use crate::summary::SuiteSummary;

const DEFAULT_RUNS: [&str; 7] = [
    "korat:sorted-list",
    "korat:bst",
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

/// One suite run, in a child process, with `extra` arguments: this
/// program's, or `through` a quality crate's harness, built with coverage.
fn suite(
    engine: &str,
    subject: &str,
    criterion: Criterion,
    scope: u32,
    small: u32,
    extra: &[String],
    through: Option<&QualityCrate>,
) -> anyhow::Result<SuiteSummary> {
    let mut command = match through {
        Some(quality) => {
            let mut command = quality.cargo_smallscope()?;
            command.arg("--coverage");
            command
        }
        None => Command::new(std::env::current_exe()?),
    };
    let output = command
        .args(["suite", subject, "--engine", engine, "--criterion", criterion.name()])
        .args(["--scope", &scope.to_string(), "--small-scope", &small.to_string(), "--format", "json"])
        .args(extra)
        .output()?;
    if !output.status.success() {
        bail!(
            "suite {subject} --engine {engine} --criterion {criterion} --scope {scope}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

/// A row of the table: the policy (or `BE`), and a cell per scope.
type Row = (String, Vec<String>);

/// What the quality columns need of one cell.
#[derive(Default)]
struct Quality {
    /// Edges of the measured functions taken, of all theirs.
    coverage: Option<(u64, u64)>,
    /// Mutants killed, of the viable ones.
    mutation: Option<(u64, u64)>,
}

/// Which subject's code a run's suites are measured on: BEAPI's, and
/// Korat's models with an API (their suites have calls).
fn measured_for(engine: &str, subject: &str) -> Option<&'static Measured> {
    let with_calls = engine == "beapi" || smallscope::compare::find_comparison(subject).is_some();
    MEASURED.iter().find(|m| m.run == subject).filter(|_| with_calls)
}

fn percent((part, whole): (u64, u64)) -> String {
    match whole {
        0 => "-".to_owned(),
        _ => format!("{:.0}%", 100.0 * part as f64 / whole as f64),
    }
}

pub fn run(bench: &SuitesBench) -> anyhow::Result<()> {
    let scopes = scopes(&bench.scopes)?;
    let runs: Vec<String> = match bench.runs.is_empty() {
        true => DEFAULT_RUNS.iter().map(|r| (*r).to_owned()).collect(),
        false => bench.runs.clone(),
    };
    let workdir = tempfile::tempdir()?;
    let mut quality = match bench.quality {
        true => Some(QualityCrate::new(&bench.checkout, &workdir.path().join("subjects"))?),
        false => None,
    };
    let mut measures: BTreeMap<String, Quality> = BTreeMap::new();
    // Each run's rows: BE, then a cell per policy and scope.
    let mut table: Vec<(String, Vec<Row>)> = Vec::new();
    // (run, policy, scope) → the module measuring it.
    let mut modules: BTreeMap<(String, Criterion, u32), (String, &'static Measured)> = BTreeMap::new();
    for run in &runs {
        let Some((engine, subject)) = run.split_once(':') else {
            bail!("--runs: `{run}` is not `engine:subject`");
        };
        let measured = measured_for(engine, subject).filter(|_| quality.is_some());
        let mut rows: Vec<Row> = vec![("BE".to_owned(), Vec::new())];
        rows.extend(Criterion::ALL.iter().map(|c| (c.name().to_owned(), Vec::new())));
        for scope in scopes.clone() {
            for (i, criterion) in Criterion::ALL.into_iter().enumerate() {
                let module = format!("{engine}_{subject}_{criterion}_{scope}").replace('-', "_");
                let (extra, through) = match (&quality, measured) {
                    (Some(quality), Some(measured)) => {
                        let check = format!("crate::check_{}::<{scope}>", measured.run.replace('-', "_"));
                        let file = quality.module_file(&module).display().to_string();
                        (vec!["--emit-tests".into(), file, "--check-with".into(), check], Some(quality))
                    }
                    _ => (Vec::new(), None),
                };
                let summary = suite(engine, subject, criterion, scope, bench.small_scope, &extra, through)?;
                if let (Some(quality), Some(measured)) = (&mut quality, measured) {
                    let Some(edges) = &summary.edges else {
                        bail!("suite {subject} --engine {engine} --scope {scope} measured no edges");
                    };
                    quality.add_module(&module, measured);
                    measures.entry(module.clone()).or_default().coverage = Some(measured.coverage(edges));
                    modules.insert((run.clone(), criterion, scope), (module, measured));
                }
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
        table.push((run.clone(), rows));
    }
    if let Some(quality) = &quality {
        quality.write_root()?;
        eprintln!("quality: checking that every suite passes on the code as it is");
        quality.baseline()?;
        let mut done: Vec<&str> = Vec::new();
        for (_, measured) in modules.values() {
            if done.contains(&measured.run) {
                continue;
            }
            done.push(measured.run);
            eprintln!("quality: mutants of {} ({})", measured.name, measured.file);
            let (viable, killed) = quality.mutation(measured)?;
            println!(
                "{}: {viable} viable mutants in {}, {}, {}",
                measured.name, measured.insert, measured.remove, measured.contains
            );
            for (module, count) in killed {
                measures.entry(module).or_default().mutation = Some((count, viable));
            }
        }
    }
    print_table(bench, &scopes, &table, &modules, &measures);
    Ok(())
}

fn print_table(
    bench: &SuitesBench,
    scopes: &std::ops::RangeInclusive<u32>,
    table: &[(String, Vec<Row>)],
    modules: &BTreeMap<(String, Criterion, u32), (String, &'static Measured)>,
    measures: &BTreeMap<String, Quality>,
) {
    println!(
        "Field coverage suites (the paper's Tables II and III): suite size / seconds to generate it, per policy; \
         small scopes 1 to {}",
        bench.small_scope
    );
    println!("BE: bounded-exhaustive, every structure the engine makes (the FET run sees them all)");
    println!("stop: e = the engine ended, s = predicted sizes reached, t = predicted time passed");
    if bench.quality {
        println!(
            "then (Tables V and VI) edge coverage of insert, remove and contains and their helpers (smallscope's \
             own, in-process: each structure built, then every operation called on it with every value) and \
             mutation score (cargo-mutants, those methods, each run with every value below the scope)"
        );
    }
    let width = if bench.quality { 32 } else { 20 };
    let mut header = format!("{:<22} {:<7}", "subject", "policy");
    for scope in scopes.clone() {
        header.push_str(&format!(" {:>width$}", format!("scope {scope}")));
    }
    println!("{header}");
    for (run, rows) in table {
        for (row, (policy, cells)) in rows.iter().enumerate() {
            let mut line = format!("{run:<22} {policy:<7}");
            for (cell, scope) in cells.iter().zip(scopes.clone()) {
                let mut text = cell.clone();
                let criterion = row.checked_sub(1).map(|i| Criterion::ALL[i]);
                if let Some((module, _)) = criterion.and_then(|c| modules.get(&(run.clone(), c, scope))) {
                    let measure = measures.get(module);
                    let coverage = measure.and_then(|m| m.coverage).map_or("-".to_owned(), percent);
                    let mutation = measure.and_then(|m| m.mutation).map_or("-".to_owned(), percent);
                    text.push_str(&format!(" {coverage} {mutation}"));
                }
                line.push_str(&format!(" {text:>width$}"));
            }
            println!("{line}");
        }
    }
}
