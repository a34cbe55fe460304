//! `smallscope beapi`: run BEAPI on a registered subject and report.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use smallscope::beapi::{parse_int_range, BeapiConfig, BeapiReport, ConfigFile, StateStorage};
use smallscope::emit::{rust_tests, write_jsonl, RustTestOptions};

use crate::memory::peak_memory_bytes;
use crate::progress::Bar;
use crate::{find_subject, BadInput};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
pub struct BeapiArgs {
    /// A registered subject (see `smallscope list`).
    pub subject: String,
    /// At most N objects of each class per structure (root and header nodes count).
    #[arg(long)]
    pub scope: Option<u32>,
    /// Integer arguments, `A..B` with B excluded (default `0..scope`).
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    pub ints: Option<String>,
    /// A TOML file with any of the settings; flags override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// `auto` (hill climbing, cached), `all`, or method names separated by commas.
    #[arg(long, value_name = "auto|all|m1,m2")]
    pub builders: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// String arguments, separated by commas.
    #[arg(long, value_delimiter = ',')]
    pub strings: Option<Vec<String>>,
    /// Leave `Class.field` out of the canonical form (repeatable).
    #[arg(long = "omit", value_name = "CLASS.FIELD")]
    pub omit: Vec<String>,
    /// Count panics whose message matches REGEX as misuse (repeatable).
    #[arg(long = "misuse-panic", value_name = "REGEX")]
    pub misuse_panics: Vec<String>,
    /// Scope used to identify builders.
    #[arg(long)]
    pub builder_scope: Option<u32>,
    /// Keep every sequence, not only those that make new structures (needs --max-length).
    #[arg(long)]
    pub no_state_matching: bool,
    /// Stop after sequences of this many calls.
    #[arg(long)]
    pub max_length: Option<u32>,
    /// Store whole canonical forms instead of 128-bit fingerprints.
    #[arg(long)]
    pub exact: bool,
    /// Stop after this many seconds, keeping what was found.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Write `structures.jsonl` and `summary.json` into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write a Rust test file with one test per structure.
    #[arg(long, value_name = "FILE")]
    pub emit_tests: Option<PathBuf>,
    /// At most this many structure tests in --emit-tests.
    #[arg(long)]
    pub max_tests: Option<usize>,
    /// Stop, keeping what was found, when resident memory passes this many MiB.
    #[arg(long, value_name = "MIB")]
    pub memory_limit_mb: Option<u64>,
    /// Where identified builders are cached.
    #[arg(long, value_name = "DIR", default_value = ".smallscope/cache")]
    pub cache_dir: PathBuf,
    /// Identify builders afresh, ignoring the cache.
    #[arg(long)]
    pub no_cache: bool,
}

impl BeapiArgs {
    /// Defaults, then the config file, then flags.
    fn config(&self) -> Result<BeapiConfig, BadInput> {
        let mut config = BeapiConfig::default();
        let mut scope_given = false;
        if let Some(path) = &self.config {
            let file = ConfigFile::load(path)?;
            scope_given = file.scope.is_some();
            file.apply(&mut config)?;
        }
        if let Some(scope) = self.scope {
            config.scope = scope;
            scope_given = true;
        }
        if !scope_given {
            return Err(BadInput("give a scope: --scope N (or `scope = N` in the config file)".into()));
        }
        if let Some(ints) = &self.ints {
            config.ints = Some(parse_int_range(ints)?);
        }
        if let Some(builders) = &self.builders {
            config.builders = builders.parse()?;
        }
        if let Some(strings) = &self.strings {
            config.strings = strings.clone();
        }
        config.omit.extend(self.omit.iter().cloned());
        config.misuse_panics.extend(self.misuse_panics.iter().cloned());
        if let Some(scope) = self.builder_scope {
            config.builder_scope = scope;
        }
        if self.no_state_matching {
            config.state_matching = false;
        }
        if let Some(max) = self.max_length {
            config.max_length = Some(max);
        }
        if self.exact {
            config.storage = StateStorage::Exact;
        }
        if let Some(seconds) = self.time_limit {
            if !(seconds.is_finite() && seconds > 0.0) {
                return Err(BadInput(format!("--time-limit must be a positive number of seconds, not {seconds}")));
            }
            config.time_limit = Some(Duration::from_secs_f64(seconds));
        }
        config.cache_dir = (!self.no_cache).then(|| self.cache_dir.clone());
        config.record_canonical = self.out.is_some() || self.emit_tests.is_some();
        config.validate()?;
        Ok(config)
    }

    /// The command line that reproduces this run, for replay hints.
    fn replay_command(&self, report: &BeapiReport) -> String {
        let mut command = format!(
            "smallscope beapi {} --scope {} --builders {}",
            self.subject,
            report.scope,
            report.builders.join(",")
        );
        if let Some(ints) = &self.ints {
            command.push_str(&format!(" --ints {ints}"));
        }
        if let Some(config) = &self.config {
            command.push_str(&format!(" --config {}", config.display()));
        }
        command
    }
}

pub fn run(args: &BeapiArgs) -> anyhow::Result<ExitCode> {
    let registration = find_subject(&args.subject)?;
    let config = args.config()?;
    let subject = registration.subject();
    let mut bar = Bar::new(args.memory_limit_mb.map(|mb| mb * 1024 * 1024));
    let report = subject.beapi(&config, &mut bar).map_err(BadInput::from);
    bar.finish();
    let report = report?;
    let peak = peak_memory_bytes();
    let summary = summary_json(&args.subject, &report, peak, args);
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("structures.jsonl");
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?,
        );
        write_jsonl(&report, &mut file).with_context(|| format!("writing {}", path.display()))?;
        file.flush()?;
        let path = dir.join("summary.json");
        std::fs::write(&path, serde_json::to_string_pretty(&summary)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.emit_tests {
        let options = RustTestOptions {
            command: format!("{} --emit-tests {}", args.replay_command(&report), path.display()),
            omit: config.omit.clone(),
            has_rep_ok: subject.has_rep_ok(),
            max_tests: args.max_tests,
        };
        std::fs::write(path, rust_tests(&report, &options)).with_context(|| format!("writing {}", path.display()))?;
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string(&summary)?),
        Format::Text => print_text(args, &report, peak),
    }
    Ok(if report.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn summary_json(name: &str, report: &BeapiReport, peak: Option<u64>, args: &BeapiArgs) -> serde_json::Value {
    let failures: Vec<serde_json::Value> = report
        .failures
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let program = report.failure_program(i);
            serde_json::json!({
                "failure": f.kind,
                "message": f.kind.to_string(),
                "count": f.count,
                "witness": program.to_text(&report.operations),
                "witness_calls": program.len(),
                "replay": args.replay_command(report),
            })
        })
        .collect();
    serde_json::json!({
        "subject": name,
        "type": report.subject,
        "engine": "beapi",
        "scope": report.scope,
        "builders": report.builders,
        "structures": report.structure_count(),
        "explored": report.explored,
        "misuses": report.misuses,
        "out_of_scope": report.out_of_scope,
        "failures": report.failure_count(),
        "failure_groups": failures,
        "levels": report.levels,
        "seconds": report.seconds,
        "timed_out": report.timed_out,
        "interrupted": report.interrupted,
        "peak_memory_bytes": peak,
        "notes": report.notes,
    })
}

fn print_text(args: &BeapiArgs, report: &BeapiReport, peak: Option<u64>) {
    println!("smallscope beapi {}: scope {}, builders {}", args.subject, report.scope, report.builders.join(", "));
    println!("{:>6} {:>14} {:>14} {:>10}", "level", "structures", "explored", "seconds");
    for level in &report.levels {
        println!("{:>6} {:>14} {:>14} {:>10.3}", level.level, level.structures, level.explored, level.seconds);
    }
    let memory = peak.map(|b| format!(", peak memory {:.1} MiB", b as f64 / (1024.0 * 1024.0))).unwrap_or_default();
    println!(
        "total: {} structures, {} sequences explored ({} misuse, {} out of scope), {} failures, {:.3} s{memory}",
        report.structure_count(),
        report.explored,
        report.misuses,
        report.out_of_scope,
        report.failure_count(),
        report.seconds
    );
    if report.timed_out {
        println!("stopped by the time limit: the last level is incomplete");
    }
    if let Some(reason) = &report.interrupted {
        println!("stopped early ({reason}): the last level is incomplete");
    }
    for note in &report.notes {
        println!("note: {note}");
    }
    for (i, failure) in report.failures.iter().enumerate() {
        let program = report.failure_program(i);
        println!("\nfailure {}: {} ({} sequences)", i + 1, failure.kind, failure.count);
        println!("  witness ({} calls): {}", program.len(), program.to_text(&report.operations));
        println!("  replay: {}", args.replay_command(report));
    }
}
