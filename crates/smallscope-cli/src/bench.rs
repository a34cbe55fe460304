//! `smallscope bench`: benchmark tables, printed in one run.
//!
//! `bench beapi` reproduces the shape of the BEAPI paper's Table 2: the time
//! of four configurations at growing scopes, each run in a child process
//! (so memory is measured per run and a runaway run cannot take the others
//! down) with a time limit:
//!
//! - SM/BLD: state matching and identified builders (the default);
//! - SM: state matching, every operation;
//! - BLD: identified builders, no state matching;
//! - NoOPT: every operation, no state matching.
//!
//! Without state matching the search never ends by itself, so those runs
//! are bounded by the sequence length SM/BLD needed at the same scope. A
//! configuration that passes the limit is not run at larger scopes.
//!
//! Then it prints the performance targets: `bst` at scopes 10 and 12.
//!
//! `bench random` measures the random engine's throughput, in executed
//! sequences per second, on `dll` and `binheap` with one thread and with one
//! generator per core (seeds `seed + i`, run side by side), and once with
//! the thesis's repetition bound (`max_repeat` 100) on `dll`. It runs in
//! process, through the subject registry.

use std::io::Write as _;
use std::process::Command;

use anyhow::{bail, Context as _};
use smallscope_args::bench::{BeapiBench, BenchArgs, BenchKind, IsolationBench, KoratBench, RandomBench};
use smallscope_subjects::korat::by_hand::Counts as KoratCounts;

use crate::bench_child::measure;
use crate::summary::{BeapiSummary, KoratSummary, RandomSummary};

/// What a hand-written search (Korat's binary-tree, search-tree and heap-array, BEAPI's bst) counted, and its time.
#[derive(serde::Serialize, serde::Deserialize)]
struct ByHand {
    explored: u64,
    found: u64,
    seconds: f64,
}

impl ByHand {
    /// Runs `search`, which returns what it explored and found, and times it.
    fn timed(search: impl FnOnce() -> (u64, u64)) -> Self {
        let started = std::time::Instant::now();
        let (explored, found) = search();
        ByHand { explored, found, seconds: started.elapsed().as_secs_f64() }
    }
}

/// A hand-written Korat search of one model, and its largest scope.
struct KoratFloor {
    search: fn(usize) -> KoratCounts,
    max_scope: usize,
}

/// The hand-written Korat search of `subject`'s model, if there is one.
fn korat_by_hand(subject: &str) -> Option<KoratFloor> {
    use smallscope_subjects::korat::by_hand::{binary_tree, heap_array, search_tree, MAX_SCOPE};
    let (search, max_scope): (fn(usize) -> KoratCounts, usize) = match subject {
        "binary-tree" => (binary_tree::search, MAX_SCOPE),
        "search-tree" => (search_tree::search, MAX_SCOPE),
        "heap-array" => (heap_array::search, usize::MAX),
        _ => return None,
    };
    Some(KoratFloor { search, max_scope })
}

/// Runs the hand-written Korat search of `subject` (the floor the engine
/// is measured against) at `scope`.
fn by_hand(subject: &str, scope: u32) -> Result<ByHand, crate::BadInput> {
    let Some(KoratFloor { search, max_scope }) = korat_by_hand(subject) else {
        return Err(crate::BadInput(format!("no hand-written search of `{subject}`")));
    };
    if scope as usize > max_scope {
        return Err(crate::BadInput(format!("the hand-written search goes up to scope {max_scope}, not {scope}")));
    }
    Ok(ByHand::timed(|| {
        let counts = search(scope as usize);
        (counts.explored, counts.found)
    }))
}

/// Runs the hand-written BEAPI search of bst (`new`, `add`) at `scope`.
fn bst_by_hand(scope: u32) -> ByHand {
    ByHand::timed(|| {
        let counts = smallscope_subjects::bst::by_hand::search(scope);
        (counts.explored, counts.structures)
    })
}

/// Whether a row of `subject` at `scope` is followed by the hand-written search's.
fn has_by_hand_row(subject: &str, scope: u32) -> bool {
    korat_by_hand(subject).is_some_and(|floor| scope as usize <= floor.max_scope)
}

/// Korat 1.0 on JDK 17, one thread, on the machine type CI runs on:
/// subject, scope, explored candidates, seconds (issue 10's measurements).
const KORAT_1_0: [(&str, u32, u64, f64); 4] = [
    ("binary-tree", 13, 47_795_450, 14.2),
    ("search-tree", 9, 20_086_300, 5.6),
    ("red-black-tree", 10, 7_530_712, 5.5),
    ("sorted-list", 12, 16_225_257, 6.9),
];

/// One benchmark configuration.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Setup {
    SmBld,
    Sm,
    Bld,
    NoOpt,
}

impl Setup {
    const ALL: [Setup; 4] = [Setup::SmBld, Setup::Sm, Setup::Bld, Setup::NoOpt];

    fn label(self) -> &'static str {
        match self {
            Setup::SmBld => "SM/BLD",
            Setup::Sm => "SM",
            Setup::Bld => "BLD",
            Setup::NoOpt => "NoOPT",
        }
    }

    fn builders(self) -> &'static str {
        match self {
            Setup::SmBld | Setup::Bld => "auto",
            Setup::Sm | Setup::NoOpt => "all",
        }
    }

    fn state_matching(self) -> bool {
        matches!(self, Setup::SmBld | Setup::Sm)
    }
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let bench = match &args.kind {
        BenchKind::Beapi(bench) => bench,
        BenchKind::Korat(bench) => return korat_table(bench),
        BenchKind::Random(bench) => return random_table(bench),
        BenchKind::Isolation(bench) => return isolation_table(bench),
        BenchKind::Suites(bench) => return crate::suite_bench::run(bench),
        BenchKind::Builders(bench) => return crate::builders_bench::run(bench),
        BenchKind::Cluster(bench) => return crate::cluster_bench::run(bench),
    };
    if let Some(scope) = bench.by_hand {
        println!("{}", serde_json::to_string(&bst_by_hand(scope))?);
        return Ok(());
    }
    if bench.instructions {
        return beapi_instructions(&bench.runs);
    }
    smallscope::positive_seconds("--limit", bench.limit).map_err(crate::BadInput::from)?;
    for subject in &bench.subjects {
        crate::find_subject(subject)?;
    }
    if !bench.targets_only {
        table_2(bench)?;
    }
    if !bench.no_targets {
        targets(bench)?;
    }
    Ok(())
}

fn table_2(bench: &BeapiBench) -> anyhow::Result<()> {
    println!("BEAPI configurations (as the paper's Table 2): seconds per run, limit {} s", bench.limit);
    println!("TO: over the time or memory limit; -: not run (a smaller scope was already over the limit)");
    println!(
        "{:<12} {:>5} {:>12} {:>9} {:>9} {:>9} {:>9}",
        "subject", "scope", "structures", "SM/BLD", "SM", "BLD", "NoOPT"
    );
    let mut largest: Vec<(String, Setup, Option<u32>)> = Vec::new();
    for subject in &bench.subjects {
        let mut alive = [true; 4];
        let mut reached: [Option<u32>; 4] = [None; 4];
        for scope in bench.from..=bench.to {
            if !alive.iter().any(|a| *a) {
                break;
            }
            let mut cells = Vec::new();
            let mut structures = None;
            let mut length = None;
            for (k, setup) in Setup::ALL.iter().enumerate() {
                if !alive[k] {
                    cells.push("-".to_owned());
                    continue;
                }
                let mut extra = vec!["--builders".to_owned(), setup.builders().to_owned()];
                if !setup.state_matching() {
                    // Bounded by the sequence length the full search needed.
                    let Some(levels) = length else {
                        cells.push("-".to_owned());
                        alive[k] = false;
                        continue;
                    };
                    extra.extend(["--no-state-matching".to_owned(), "--max-length".to_owned(), format!("{levels}")]);
                }
                let measured = measure(subject, scope, &extra, bench.limit, bench.memory_limit_mb)?;
                if measured.finished {
                    if *setup == Setup::SmBld {
                        structures = Some(measured.structures);
                        length = Some(measured.levels);
                    }
                    reached[k] = Some(scope);
                    cells.push(format!("{:.2}", measured.seconds));
                } else {
                    alive[k] = false;
                    cells.push("TO".to_owned());
                }
            }
            let structures = structures.map_or("?".to_owned(), |s| s.to_string());
            println!(
                "{:<12} {:>5} {:>12} {:>9} {:>9} {:>9} {:>9}",
                subject, scope, structures, cells[0], cells[1], cells[2], cells[3]
            );
            std::io::stdout().flush()?;
        }
        for (k, setup) in Setup::ALL.iter().enumerate() {
            largest.push((subject.clone(), *setup, reached[k]));
        }
    }
    println!("\nlargest scope finished within {} s:", bench.limit);
    for subject in &bench.subjects {
        let cells: Vec<String> = largest
            .iter()
            .filter(|(s, _, _)| s == subject)
            .map(|(_, setup, scope)| {
                format!("{} {}", setup.label(), scope.map_or("none".to_owned(), |s| s.to_string()))
            })
            .collect();
        println!("  {subject}: {}", cells.join(", "));
    }
    Ok(())
}

fn targets(bench: &BeapiBench) -> anyhow::Result<()> {
    println!("\nPerformance targets: bst, builders new,add, single-threaded");
    println!("{:>5} {:>12} {:>14} {:>9} {:>10}  target", "scope", "structures", "structures/s", "seconds", "peak MiB");
    for (scope, target) in [(10, "< 5 s (Java BEAPI: ~50 s)"), (12, "< 120 s (Java BEAPI: 1342 s)")] {
        let extra = vec!["--builders".to_owned(), "new,add".to_owned()];
        let measured = measure("bst", scope, &extra, 600.0, bench.memory_limit_mb)?;
        let peak = measured.peak_bytes.map_or("?".to_owned(), |b| format!("{:.0}", b as f64 / 1048576.0));
        let rate = measured.structures as f64 / measured.seconds;
        println!(
            "{:>5} {:>12} {:>14.0} {:>9.2} {:>10}  {target}{}",
            scope,
            measured.structures,
            rate,
            measured.seconds,
            peak,
            if measured.finished { "" } else { " (did not finish)" }
        );
    }
    Ok(())
}

/// `subject:from-to` → (subject, scopes).
fn parse_run(item: &str) -> Result<(String, std::ops::RangeInclusive<u32>), crate::BadInput> {
    let bad =
        || crate::BadInput(format!("`{item}`: write runs as subject:from-to or subject:n, e.g. binary-tree:10-14"));
    let (subject, scopes) = item.split_once(':').ok_or_else(bad)?;
    let (from, to) = scopes.split_once('-').unwrap_or((scopes, scopes));
    let from: u32 = from.trim().parse().map_err(|_| bad())?;
    let to: u32 = to.trim().parse().map_err(|_| bad())?;
    if from == 0 || from > to {
        return Err(bad());
    }
    Ok((subject.trim().to_owned(), from..=to))
}

fn korat_table(bench: &KoratBench) -> anyhow::Result<()> {
    use smallscope::korat::{find_korat_subject, search_parallel, SearchOptions};
    if let Some(run) = &bench.by_hand {
        let (subject, scopes) = parse_run(run)?;
        println!("{}", serde_json::to_string(&by_hand(&subject, *scopes.end())?)?);
        return Ok(());
    }
    let defaults: &[&str] = match bench.instructions {
        true => &KORAT_INSTRUCTION_RUNS,
        false => &["binary-tree:13", "search-tree:9", "red-black-tree:10", "sorted-list:12"],
    };
    let items: Vec<String> = match bench.runs.is_empty() {
        true => defaults.iter().map(|d| d.to_string()).collect(),
        false => bench.runs.clone(),
    };
    let runs = items.iter().map(|r| parse_run(r)).collect::<Result<Vec<_>, _>>()?;
    for (subject, _) in &runs {
        if find_korat_subject(subject).is_none() {
            bail!(crate::BadInput(format!("unknown Korat subject `{subject}`")));
        }
    }
    if bench.instructions {
        return korat_instructions(&runs);
    }
    println!("Korat, stock finitizations, {} thread(s); Korat 1.0 is one thread", bench.threads);
    println!(
        "{:<20} {:>5} {:>12} {:>14} {:>9} {:>14} {:>12}",
        "subject", "scope", "found", "explored", "seconds", "candidates/s", "x Korat 1.0"
    );
    for (subject, scopes) in runs {
        let registration = find_korat_subject(&subject).expect("checked above");
        for scope in scopes {
            let space = (registration.space)(i64::from(scope)).map_err(crate::BadInput)?;
            let invariants = (registration.invariants)();
            let (stats, _) =
                search_parallel::<_, ()>(space, invariants.as_ref(), SearchOptions::default(), bench.threads, |_| None);
            korat_row(&subject, false, scope, stats.found, stats.explored, stats.seconds)?;
            if has_by_hand_row(&subject, scope) {
                let floor = by_hand(&subject, scope)?;
                korat_row(&subject, true, scope, floor.found, floor.explored, floor.seconds)?;
            }
        }
    }
    Ok(())
}

/// A row's first column: the subject, and whether the search is the hand-written one.
fn row_label(subject: &str, by_hand: bool) -> String {
    match by_hand {
        true => format!("{subject} by hand"),
        false => subject.to_owned(),
    }
}

/// A row of the Korat timing table, compared with Korat 1.0 where it was measured.
fn korat_row(subject: &str, by_hand: bool, scope: u32, found: u64, explored: u64, seconds: f64) -> anyhow::Result<()> {
    let label = row_label(subject, by_hand);
    let rate = explored as f64 / seconds.max(1e-9);
    let versus = KORAT_1_0
        .iter()
        .find(|(s, n, counted, _)| *s == subject && *n == scope && *counted == explored)
        .map_or("-".to_owned(), |(_, _, counted, seconds)| format!("{:.1}", rate / (*counted as f64 / seconds)));
    println!("{label:<20} {scope:>5} {found:>12} {explored:>14} {seconds:>9.2} {rate:>14.0} {versus:>12}");
    std::io::stdout().flush()?;
    Ok(())
}

/// The scope of each Korat subject's instruction count: 10^5 to 10^6
/// candidates (the four of the Korat 1.0 table at the scopes measured
/// before), a minute or two under callgrind.
const KORAT_INSTRUCTION_RUNS: [&str; 19] = [
    "avl:8",
    "binary-tree:10",
    "binheap:6",
    "binomial-heap:7",
    "bst:7",
    "disj-set:5",
    "dll:6",
    "doubly-linked-list:10",
    "fibonacci-heap:5",
    "heap-array:7",
    "list-as-set:6",
    "ncl:6",
    "rbt:8",
    "red-black-tree:9",
    "search-tree:8",
    "search-tree-delete:5",
    "singly-linked-list:9",
    "sll:6",
    "sorted-list:10",
];

/// Instructions per explored candidate, counted by callgrind over a whole
/// `smallscope korat` run in one process and one thread, and over the
/// hand-written search for binary-tree rows.
fn korat_instructions(runs: &[(String, std::ops::RangeInclusive<u32>)]) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    println!("Korat under callgrind: instructions of the whole run per explored candidate, one thread");
    instructions_header("per candidate");
    for (subject, scopes) in runs {
        for scope in scopes.clone() {
            let n = scope.to_string();
            let engine = ["korat", subject, "--scope", &n, "--threads", "1", "--format", "json", "--no-isolation"];
            let (summary, instructions) = callgrind::<KoratSummary>(dir.path(), &engine)?;
            instructions_row(&row_label(subject, false), scope, summary.report.explored, instructions)?;
            if has_by_hand_row(subject, scope) {
                let run = format!("{subject}:{n}");
                let (floor, instructions) = callgrind::<ByHand>(dir.path(), &["bench", "korat", "--by-hand", &run])?;
                if floor.explored != summary.report.explored {
                    bail!(
                        "the hand-written {subject} search explored {}, the engine {}",
                        floor.explored,
                        summary.report.explored
                    );
                }
                instructions_row(&row_label(subject, true), scope, floor.explored, instructions)?;
            }
        }
    }
    Ok(())
}

/// The scope of each BEAPI subject's instruction count: about 10^5
/// explored sequences, a minute or two under callgrind.
const BEAPI_INSTRUCTION_RUNS: [&str; 18] = [
    "avl:10",
    "binheap:6",
    "binheap-bug-rebalance:6",
    "bst:8",
    "dll:6",
    "dll-bug-remove:6",
    "lits:4",
    "ncl:6",
    "ncl-bug-cache:6",
    "ncl-bug-hash:6",
    "ncl-full:6",
    "rbt:9",
    "rbt-bug-fixup:9",
    "scheduler:4",
    "sll:6",
    "sorted-list:8",
    "tree-map:4",
    "union-find:5",
];

/// Instructions per explored sequence, counted by callgrind over a whole
/// `smallscope beapi` run in one process, its builders read from the
/// cache a first run outside callgrind filled; and over the hand-written
/// search for bst.
fn beapi_instructions(items: &[String]) -> anyhow::Result<()> {
    let items: Vec<String> = match items.is_empty() {
        true => BEAPI_INSTRUCTION_RUNS.iter().map(|r| r.to_string()).collect(),
        false => items.to_vec(),
    };
    let runs = items.iter().map(|r| parse_run(r)).collect::<Result<Vec<_>, _>>()?;
    for (subject, _) in &runs {
        crate::find_subject(subject)?;
    }
    let dir = tempfile::tempdir()?;
    println!("BEAPI under callgrind: instructions of the whole run per explored sequence, --check none, one thread");
    instructions_header("per sequence");
    for (subject, scopes) in runs {
        for scope in scopes {
            let n = scope.to_string();
            let engine = ["beapi", &subject, "--scope", &n, "--check", "none", "--format", "json", "--no-isolation"];
            // Builders identified outside the count, then read from the cache.
            let cached = Command::new(std::env::current_exe()?).args(engine).current_dir(dir.path()).output()?;
            if !matches!(cached.status.code(), Some(0 | 1)) {
                bail!("`smallscope {}` failed: {}", engine.join(" "), String::from_utf8_lossy(&cached.stderr));
            }
            let (summary, instructions) = callgrind::<BeapiSummary>(dir.path(), &engine)?;
            instructions_row(&subject, scope, summary.report.explored, instructions)?;
            if subject == "bst" {
                let (floor, instructions) = callgrind::<ByHand>(dir.path(), &["bench", "beapi", "--by-hand", &n])?;
                if floor.found != summary.structures as u64 {
                    bail!(
                        "the hand-written bst search found {} structures, the engine {}",
                        floor.found,
                        summary.structures
                    );
                }
                instructions_row(&row_label(&subject, true), scope, floor.explored, instructions)?;
            }
        }
    }
    Ok(())
}

/// Instructions per executed sequence, counted by callgrind over whole
/// `smallscope random` runs in one process: of the run, and at the margin.
///
/// A run's end has fixed costs (its regression tests replay a bounded
/// sample ten times), so a second run with half the sequences gives the
/// cost of one more sequence: the difference over the sequences added.
fn random_instructions(bench: &RandomBench) -> anyhow::Result<()> {
    let subjects: Vec<String> = match bench.subjects.is_empty() {
        true => smallscope::api::registered_subjects().iter().map(|r| r.name.to_owned()).collect(),
        false => bench.subjects.clone(),
    };
    for subject in &subjects {
        crate::find_subject(subject)?;
    }
    let dir = tempfile::tempdir()?;
    let seed = bench.seed.to_string();
    println!("random under callgrind: instructions per sequence, seed {seed}, one thread");
    println!("(margin: from a run with half the sequences to the whole one)");
    println!("{:<22} {:>12} {:>16} {:>14} {:>12}", "subject", "sequences", "instructions", "per sequence", "margin");
    for subject in &subjects {
        let run = |sequences: u64| {
            let sequences = sequences.to_string();
            let args =
                ["random", subject, "--sequences", &sequences, "--seed", &seed, "--format", "json", "--no-isolation"];
            callgrind::<RandomSummary>(dir.path(), &args)
                .map(|(summary, instructions)| (summary.report.sequences, instructions))
        };
        let (half, half_instructions) = run(bench.sequences / 2)?;
        let (executed, instructions) = run(bench.sequences)?;
        let per_sequence = instructions as f64 / executed.max(1) as f64;
        let margin =
            instructions.saturating_sub(half_instructions) as f64 / executed.saturating_sub(half).max(1) as f64;
        println!("{subject:<22} {executed:>12} {instructions:>16} {per_sequence:>14.0} {margin:>12.0}");
        std::io::stdout().flush()?;
    }
    Ok(())
}

/// Runs this program with `args` under callgrind: what it printed as JSON,
/// and the instructions it ran.
fn callgrind<T: serde::de::DeserializeOwned>(dir: &std::path::Path, args: &[&str]) -> anyhow::Result<(T, u64)> {
    let exe = std::env::current_exe().context("finding this program to run under callgrind")?;
    let out = dir.join("callgrind.out");
    let ran = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&exe)
        .args(args)
        .current_dir(dir)
        .output()
        .context("running valgrind (install it: apt-get install valgrind)")?;
    // A subject with a planted bug ends with findings (1), which is no fault of the count.
    if !matches!(ran.status.code(), Some(0 | 1)) {
        bail!("callgrind on `smallscope {}` failed: {}", args.join(" "), String::from_utf8_lossy(&ran.stderr));
    }
    let printed = serde_json::from_slice(&ran.stdout).context("reading the run's JSON output")?;
    let profile = std::fs::read_to_string(&out).context("reading callgrind's output")?;
    let instructions = profile
        .lines()
        .find_map(|line| line.strip_prefix("totals:"))
        .and_then(|total| total.trim().parse().ok())
        .context("callgrind's output has no `totals:` line")?;
    Ok((printed, instructions))
}

/// The columns of [`instructions_row`], the last one named by the unit counted.
fn instructions_header(per_unit: &str) {
    println!("{:<22} {:>5} {:>14} {:>16} {:>14}", "subject", "scope", "explored", "instructions", per_unit);
}

fn instructions_row(label: &str, scope: u32, explored: u64, instructions: u64) -> anyhow::Result<()> {
    let per_candidate = instructions as f64 / explored.max(1) as f64;
    println!("{label:<22} {scope:>5} {explored:>14} {instructions:>16} {per_candidate:>14.0}");
    std::io::stdout().flush()?;
    Ok(())
}

/// One cell of the random table: a subject with some settings, on some threads.
struct RandomCell {
    subject: &'static str,
    settings: &'static str,
    threads: usize,
    max_repeat: Option<u32>,
}

/// What the generators of one cell did together.
struct RandomMeasured {
    sequences: u64,
    /// The longest generation time among the threads.
    seconds: f64,
    /// The threads' rates, summed.
    rate: f64,
    failure_groups: usize,
}

/// Runs `threads` generators side by side, each on a thread with a large
/// stack (as the CLI's worker), seeded `seed`, `seed + 1`, ...
fn measure_random(cell: &RandomCell, bench: &RandomBench) -> anyhow::Result<RandomMeasured> {
    use smallscope::random::RandomConfig;
    let limit = std::time::Duration::from_secs_f64(bench.seconds);
    let reports = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cell.threads)
            .map(|i| {
                let mut config = RandomConfig {
                    seed: bench.seed.wrapping_add(i as u64),
                    time_limit: Some(limit),
                    ..Default::default()
                };
                if let Some(max) = cell.max_repeat {
                    config.max_repeat = max;
                }
                std::thread::Builder::new()
                    .name(format!("random-{i}"))
                    .stack_size(256 << 20)
                    .spawn_scoped(scope, move || {
                        let registration = crate::find_subject(cell.subject)?;
                        let job = registration.subject().random(config, cell.subject.to_owned(), None, None);
                        Ok::<_, anyhow::Error>(smallscope::runner::run_in_thread(job, None, &mut ())?)
                    })
                    .context("spawning a generator thread")
            })
            .collect::<anyhow::Result<_>>()?;
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| bail!("a generator thread panicked")))
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    Ok(RandomMeasured {
        sequences: reports.iter().map(|r| r.sequences).sum(),
        seconds: reports.iter().map(|r| r.seconds).fold(0.0, f64::max),
        rate: reports.iter().map(|r| r.sequences_per_second()).sum(),
        failure_groups: reports.iter().map(|r| r.failure_groups.len()).sum(),
    })
}

fn random_table(bench: &RandomBench) -> anyhow::Result<()> {
    if bench.instructions {
        return random_instructions(bench);
    }
    smallscope::positive_seconds("--seconds", bench.seconds).map_err(crate::BadInput::from)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cells = Vec::new();
    for subject in ["dll", "binheap"] {
        cells.push(RandomCell { subject, settings: "default", threads: 1, max_repeat: None });
        if cores > 1 {
            cells.push(RandomCell { subject, settings: "default", threads: cores, max_repeat: None });
        }
        if subject == "dll" {
            cells.push(RandomCell { subject, settings: "max_repeat=100", threads: 1, max_repeat: Some(100) });
        }
    }
    println!(
        "Random testing throughput: executed sequences per second, {} s per cell, seed {} (thread i: seed + i), {} core(s)",
        bench.seconds, bench.seed, cores
    );
    println!("default: max_repeat=10; max_repeat=100: Randoop's thesis setting");
    println!(
        "{:<10} {:<16} {:>7} {:>12} {:>9} {:>12} {:>8}",
        "subject", "settings", "threads", "sequences", "seconds", "sequences/s", "speed-up"
    );
    // Single-threaded rates by (subject, settings), for the speed-up column.
    let mut single: Vec<(&str, &str, f64)> = Vec::new();
    let mut dll_rate = None;
    for cell in &cells {
        let measured = measure_random(cell, bench)?;
        if cell.threads == 1 {
            single.push((cell.subject, cell.settings, measured.rate));
            if cell.subject == "dll" && cell.settings == "default" {
                dll_rate = Some(measured.rate);
            }
        }
        let base = single.iter().find(|(s, k, _)| *s == cell.subject && *k == cell.settings).map(|(_, _, r)| *r);
        let speed_up = base.filter(|b| *b > 0.0).map_or("?".to_owned(), |b| format!("{:.2}", measured.rate / b));
        let note = if measured.failure_groups > 0 {
            format!("  ({} failure groups on a correct subject!)", measured.failure_groups)
        } else {
            String::new()
        };
        println!(
            "{:<10} {:<16} {:>7} {:>12} {:>9.2} {:>12.0} {:>8}{note}",
            cell.subject, cell.settings, cell.threads, measured.sequences, measured.seconds, measured.rate, speed_up
        );
        std::io::stdout().flush()?;
    }
    let verdict = match dll_rate {
        Some(rate) if rate >= 100_000.0 => format!("met ({rate:.0})"),
        Some(rate) => format!("NOT met ({rate:.0})"),
        None => "not measured".to_owned(),
    };
    println!("\ntarget: >= 100000 sequences/s single-threaded on dll: {verdict}");
    Ok(())
}

/// One command of the isolation table, run in both modes.
struct IsolationCase {
    label: String,
    args: Vec<String>,
    /// What the run makes, from its summary: structures or sequences.
    count: fn(&[u8]) -> anyhow::Result<u64>,
}

/// One mode's measurements: wall-clock and CPU seconds per run (the CPU of
/// the process and of the workers it ran), and what the run made.
#[derive(Default)]
struct ModeRuns {
    wall: Vec<f64>,
    cpu: Vec<f64>,
    count: u64,
}

impl ModeRuns {
    fn median(values: &[f64]) -> f64 {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        sorted[sorted.len() / 2]
    }

    /// The spread of the wall-clock times, as a share of their median.
    fn spread(&self) -> f64 {
        let (min, max) = self.wall.iter().fold((f64::MAX, 0.0f64), |(lo, hi), &w| (lo.min(w), hi.max(w)));
        (max - min) / Self::median(&self.wall)
    }
}

/// CPU seconds of the children reaped so far (their own children included).
fn children_cpu() -> f64 {
    // SAFETY: `getrusage` fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs the command `runs` times in each mode, the modes alternated so that
/// both see the same noise.
fn time_modes(case: &IsolationCase, runs: usize) -> anyhow::Result<[ModeRuns; 2]> {
    let exe = std::env::current_exe().context("finding the smallscope binary")?;
    let mut modes = [ModeRuns::default(), ModeRuns::default()];
    for _ in 0..runs {
        for (mode, extra) in [&[][..], &["--no-isolation"][..]].iter().enumerate() {
            let cpu = children_cpu();
            let started = std::time::Instant::now();
            let output = Command::new(&exe).args(&case.args).args(*extra).output().context("running smallscope")?;
            let wall = started.elapsed().as_secs_f64();
            if output.status.code().is_none_or(|c| c > 1) {
                bail!("{}: {}", case.label, String::from_utf8_lossy(&output.stderr).trim());
            }
            modes[mode].wall.push(wall);
            modes[mode].cpu.push(children_cpu() - cpu);
            modes[mode].count = (case.count)(&output.stdout)?;
        }
    }
    Ok(modes)
}

fn isolation_table(bench: &IsolationBench) -> anyhow::Result<()> {
    if bench.runs == 0 {
        bail!(crate::BadInput("--runs must be at least 1".into()));
    }
    let cases = [
        IsolationCase {
            label: format!("beapi bst --scope {} --builders new,add --check none", bench.scope),
            args: [
                "beapi",
                "bst",
                "--scope",
                &bench.scope.to_string(),
                "--builders",
                "new,add",
                "--check",
                "none",
                "--format",
                "json",
            ]
            .map(String::from)
            .to_vec(),
            count: |bytes| Ok(serde_json::from_slice::<BeapiSummary>(bytes)?.structures as u64),
        },
        IsolationCase {
            label: format!("random dll --sequences {}", bench.sequences),
            args: ["random", "dll", "--sequences", &bench.sequences.to_string(), "--seed", "0", "--format", "json"]
                .map(String::from)
                .to_vec(),
            count: |bytes| Ok(serde_json::from_slice::<RandomSummary>(bytes)?.report.sequences),
        },
    ];
    println!(
        "Isolation overhead: whole commands, {} runs per mode, modes alternated; medians (wall-clock spread in brackets)",
        bench.runs
    );
    println!(
        "{:<40} {:>16} {:>10} {:>16} {:>10} {:>9} {:>9}",
        "command", "isolated s", "per s", "in-process s", "per s", "wall +", "cpu +"
    );
    for case in &cases {
        let [isolated, in_process] = time_modes(case, bench.runs)?;
        if isolated.count != in_process.count {
            bail!("{}: {} in a worker but {} in process", case.label, isolated.count, in_process.count);
        }
        let (wall, base) = (ModeRuns::median(&isolated.wall), ModeRuns::median(&in_process.wall));
        let (cpu, base_cpu) = (ModeRuns::median(&isolated.cpu), ModeRuns::median(&in_process.cpu));
        println!(
            "{:<40} {:>7.3} ({:>5.1}%) {:>10.0} {:>7.3} ({:>5.1}%) {:>10.0} {:>8.1}% {:>8.1}%",
            case.label,
            wall,
            isolated.spread() * 100.0,
            isolated.count as f64 / wall,
            base,
            in_process.spread() * 100.0,
            in_process.count as f64 / base,
            (wall / base - 1.0) * 100.0,
            (cpu / base_cpu - 1.0) * 100.0
        );
        std::io::stdout().flush()?;
    }
    println!("\nper s: structures or sequences per wall-clock second; wall +, cpu +: what isolation adds");
    println!("target: isolation costs at most 10% of throughput");
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Every name has a row of `runs`, and every row parses.
    fn assert_rows(runs: &[&str], names: impl IntoIterator<Item = &'static str>) {
        let counted: Vec<&str> = runs.iter().map(|r| r.split(':').next().unwrap()).collect();
        for name in names {
            assert!(counted.contains(&name), "{name} has no row");
        }
        for run in runs {
            super::parse_run(run).unwrap();
        }
    }

    /// `bench beapi --instructions` counts every built-in BEAPI subject.
    #[test]
    fn the_instruction_table_has_every_beapi_subject() {
        assert_rows(&super::BEAPI_INSTRUCTION_RUNS, smallscope::api::registered_subjects().iter().map(|r| r.name));
    }

    /// `bench korat --instructions` counts every built-in Korat subject.
    #[test]
    fn the_instruction_table_has_every_korat_subject() {
        let names = smallscope::compare::registered_korat_subjects().into_iter().map(|r| r.name);
        assert_rows(&super::KORAT_INSTRUCTION_RUNS, names);
    }
}
