//! `smallscope bench builders`: builders identification in one run, as the
//! builders paper measures it.
//!
//! 1. Per subject: hill climbing's and the genetic algorithm's time and set
//!    (the GA once per seed, single-threaded, each set checked to be the
//!    same), the observers, and the structures the set reaches at the scope
//!    against the whole API's.
//! 2. The largest BEAPI scope finished within the limit with the whole API
//!    and with the GA's builders.
//! 3. The paper's Table 3 in Rust terms: random testing with the whole API
//!    and with the builders only, for a few time limits: distinct
//!    structures (by canonical form, every field), the objects in the
//!    largest, and sequences run.
//!
//! Every run is a child process of this binary, with no cache.

use std::io::Write as _;

use smallscope_args::bench::BuildersBench;

use crate::summary::{BuildersSummary, RandomSummary};

/// Runs this binary with `args`, single-threaded as the target is stated.
fn child<S: serde::de::DeserializeOwned>(args: &[String]) -> anyhow::Result<S> {
    crate::bench_child::child_summary(args, &[("RAYON_NUM_THREADS", "1")])
}

fn identify(bench: &BuildersBench, subject: &str, method: &str, seed: u64) -> anyhow::Result<BuildersSummary> {
    let args = [
        "builders",
        subject,
        "--method",
        method,
        "--seed",
        &seed.to_string(),
        "--scope",
        &bench.scope.to_string(),
        "--no-cache",
        "--format",
        "json",
        "--memory-limit-mb",
        &bench.memory_limit_mb.to_string(),
    ];
    child(&args.map(str::to_owned))
}

pub fn run(bench: &BuildersBench) -> anyhow::Result<()> {
    for subject in bench.subjects.iter().chain(&bench.random_subjects) {
        crate::find_subject(subject)?;
    }
    if bench.seeds == 0 {
        return Err(crate::BadInput("--seeds must be at least 1".into()).into());
    }
    let sets = identification_table(bench)?;
    if bench.limit > 0.0 {
        largest_scope_table(bench, &sets)?;
    }
    if !bench.random_seconds.is_empty() {
        random_table(bench, &sets)?;
    }
    Ok(())
}

/// Table 1; returns each subject's GA set.
fn identification_table(bench: &BuildersBench) -> anyhow::Result<Vec<(String, Vec<String>)>> {
    println!(
        "Builders identification at scope {}, single-threaded, no cache; GA seeds 0..{} (target: GA < 10 s; the \
         paper's Java GA took up to ~30 min)",
        bench.scope, bench.seeds
    );
    println!(
        "Each GA set is checked sufficient (as many structures as the whole API) and minimal (fewer without any \
         one of its builders); a note follows the set when not."
    );
    println!(
        "{:<11} {:>4} {:>9} {:>9} {:>9} {:>11} {:>11}  builders (GA)",
        "subject", "ops", "observers", "HC s", "GA s", "structs BLD", "structs API"
    );
    let mut sets = Vec::new();
    let mut targets_missed = Vec::new();
    let mut subjects = bench.subjects.clone();
    for subject in &bench.random_subjects {
        if !subjects.contains(subject) {
            subjects.push(subject.clone());
        }
    }
    for subject in &subjects {
        let climbed = identify(bench, subject, "hc", 0)?;
        let evolved: Vec<BuildersSummary> =
            (0..bench.seeds).map(|seed| identify(bench, subject, "ga", seed)).collect::<anyhow::Result<_>>()?;
        let ga = &evolved[0];
        let same = evolved.iter().all(|run| run.builders == ga.builders);
        let slowest = evolved.iter().map(|run| run.seconds).fold(0.0, f64::max);
        if slowest >= 10.0 {
            targets_missed.push(format!("{subject} ({slowest:.1} s)"));
        }
        let mut notes = Vec::new();
        if !same {
            notes.push("seeds disagree!".to_owned());
        }
        if climbed.builders != ga.builders {
            notes.push(format!("HC: {}", climbed.builders.join(", ")));
        }
        if ga.structures_builders != ga.structures_api {
            notes.push("NOT sufficient".to_owned());
        }
        // Minimal: a search without any one of them makes fewer structures
        // (none at all when no constructor is left).
        let constructors: Vec<String> = crate::find_subject(subject)?
            .subject()
            .operations()
            .into_iter()
            .filter(|op| op.is_constructor())
            .map(|op| op.name)
            .collect();
        for left_out in &ga.builders {
            let rest: Vec<&str> = ga.builders.iter().filter(|b| *b != left_out).map(String::as_str).collect();
            if !rest.iter().any(|b| constructors.iter().any(|c| c == b)) {
                continue;
            }
            let extra = vec!["--builders".to_owned(), rest.join(",")];
            let measured = crate::bench_child::measure(subject, bench.scope, &extra, 600.0, bench.memory_limit_mb)?;
            if measured.structures as usize >= ga.structures_api {
                notes.push(format!("{left_out} is superfluous"));
            }
        }
        println!(
            "{:<11} {:>4} {:>9} {:>9.2} {:>9.2} {:>11} {:>11}  {}{}",
            subject,
            ga.roles.len(),
            ga.observers.len(),
            climbed.seconds,
            slowest,
            ga.structures_builders,
            ga.structures_api,
            ga.builders.join(", "),
            if notes.is_empty() { String::new() } else { format!("  ({})", notes.join("; ")) }
        );
        std::io::stdout().flush()?;
        sets.push((subject.clone(), ga.builders.clone()));
    }
    match targets_missed.is_empty() {
        true => println!("GA under 10 s on every subject (the slowest seed is shown)."),
        false => println!("GA target missed on: {}", targets_missed.join(", ")),
    }
    Ok(sets)
}

/// Table 2: the largest scope BEAPI finishes within the limit.
fn largest_scope_table(bench: &BuildersBench, sets: &[(String, Vec<String>)]) -> anyhow::Result<()> {
    println!("\nLargest BEAPI scope finished within {} s: the whole API against the GA's builders", bench.limit);
    println!("{:<11} {:>10} {:>10} {:>14} {:>14}", "subject", "API scope", "BLD scope", "API seconds", "BLD seconds");
    for (subject, builders) in sets.iter().filter(|(s, _)| bench.subjects.contains(s)) {
        let mut cells = Vec::new();
        for names in ["all".to_owned(), builders.join(",")] {
            let extra = vec!["--builders".to_owned(), names];
            let mut reached = None;
            for scope in 1.. {
                let measured = crate::bench_child::measure(subject, scope, &extra, bench.limit, bench.memory_limit_mb)?;
                if !measured.finished {
                    break;
                }
                reached = Some((scope, measured.seconds));
            }
            cells.push(reached);
        }
        let scope = |cell: &Option<(u32, f64)>| cell.map_or("none".to_owned(), |(s, _)| s.to_string());
        let seconds = |cell: &Option<(u32, f64)>| cell.map_or("-".to_owned(), |(_, t)| format!("{t:.2}"));
        println!(
            "{:<11} {:>10} {:>10} {:>14} {:>14}",
            subject,
            scope(&cells[0]),
            scope(&cells[1]),
            seconds(&cells[0]),
            seconds(&cells[1])
        );
        std::io::stdout().flush()?;
    }
    Ok(())
}

/// Table 3: random testing with the whole API and with the builders.
fn random_table(bench: &BuildersBench, sets: &[(String, Vec<String>)]) -> anyhow::Result<()> {
    println!(
        "\nRandom testing (as the paper's Table 3), seed 0: distinct structures stored (by canonical form), \
         objects in the largest, and sequences run"
    );
    println!(
        "{:<11} {:>7} {:>12} {:>12} {:>6} {:>8} {:>8} {:>11} {:>11}",
        "subject", "seconds", "API structs", "BLD structs", "ratio", "API objs", "BLD objs", "API seqs", "BLD seqs"
    );
    for (subject, builders) in sets.iter().filter(|(s, _)| bench.random_subjects.contains(s)) {
        for &seconds in &bench.random_seconds {
            smallscope::positive_seconds("--random-seconds", seconds).map_err(crate::BadInput::from)?;
            let run = |operations: Option<&[String]>| -> anyhow::Result<RandomSummary> {
                let mut args: Vec<String> =
                    ["random", subject, "--seed", "0", "--time-limit", &seconds.to_string(), "--format", "json"]
                        .map(str::to_owned)
                        .to_vec();
                args.extend(["--memory-limit-mb".to_owned(), bench.memory_limit_mb.to_string()]);
                if let Some(operations) = operations {
                    args.extend(["--operations".to_owned(), operations.join(",")]);
                }
                child(&args)
            };
            let (api, built) = (run(None)?, run(Some(builders))?);
            let ratio = built.report.stored as f64 / api.report.stored.max(1) as f64;
            println!(
                "{:<11} {:>7} {:>12} {:>12} {:>6.2} {:>8} {:>8} {:>11} {:>11}",
                subject,
                seconds,
                api.report.stored,
                built.report.stored,
                ratio,
                api.report.largest_structure,
                built.report.largest_structure,
                api.report.sequences,
                built.report.sequences
            );
            std::io::stdout().flush()?;
        }
    }
    Ok(())
}
