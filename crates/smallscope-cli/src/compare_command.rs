//! `smallscope compare`: the structures the API builds (BEAPI, SA) against
//! those an invariant admits (Korat, SR), at the same scope.

use std::process::ExitCode;
use std::sync::Arc;

use smallscope::compare::{
    find_comparison, registered_comparisons, CompareJob, CompareOptions, CompareSettings, Comparison, ComparisonReport,
    Verdict, Witness,
};
use smallscope::runner::Job;

use crate::beapi_command::Format;
use crate::run::RunOptions;
use crate::summary::{CompareSummary, Sides, WitnessSummary};
use crate::writing::OutputFile;
use crate::{print, program, BadInput, RunArgs};

#[derive(clap::Args)]
pub struct CompareArgs {
    /// A subject with a registered Korat model (`smallscope list` shows `compare` for it).
    pub subject: String,
    /// At most N objects of each class per structure (root and header nodes count), integers 0..N, on both sides.
    #[arg(long)]
    pub scope: u32,
    /// Which of the model's invariants to compare (default: the first registered).
    #[arg(long)]
    pub invariant: Option<String>,
    /// BEAPI's builders: `auto` (hill climbing, cached), `all`, or method names separated by commas.
    /// Structures whose shape depends on history (balanced trees) need a removal among them.
    #[arg(long, value_name = "auto|all|m1,m2", default_value = "auto")]
    pub builders: String,
    /// Scope used to identify builders.
    #[arg(long, default_value_t = 5)]
    pub builder_scope: u32,
    /// Also run BEAPI at scopes N+1..=N+K (until all are explained) to mark structures only the
    /// invariant admits that the API reaches through larger ones (0: off; default: the subject's, 1 or 3).
    #[arg(long, value_name = "K")]
    pub recheck: Option<u32>,
    /// Show (and draw) at most this many witnesses per side, one per kind of difference.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub witnesses: usize,
    /// Leave `Class.field` out of the canonical form on both sides (repeatable).
    #[arg(long = "omit", value_name = "CLASS.FIELD")]
    pub omit: Vec<String>,
    #[command(flatten)]
    pub bounds: crate::bounds::SearchBounds,
    /// Stop BEAPI after this many seconds (the comparison is then incomplete).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// How the summary is printed: `text`, or `json` (as `summary.json`).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    #[command(flatten)]
    pub cache: crate::CacheArgs,
    /// `--out DIR` writes `witness-<side>-<k>.dot` and `.svg` for the shown witnesses, and `comparison.json`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The two sides, as named in files, and as told.
const SIDES: [(&str, &str); 2] = [("api", "only the API builds"), ("invariant", "only the invariant admits")];

impl CompareArgs {
    fn settings(&self) -> Result<(CompareSettings, CompareOptions), BadInput> {
        let registration = find_comparison(&self.subject).ok_or_else(|| {
            let known: Vec<&str> = registered_comparisons().iter().map(|r| r.name).collect();
            BadInput(format!(
                "no comparison registered for `{}`; subjects with a Korat model to compare: {}",
                self.subject,
                known.join(", ")
            ))
        })?;
        if self.scope == 0 {
            return Err(BadInput("scope must be at least 1 (got 0)".into()));
        }
        let invariant = self.invariant.clone().unwrap_or_else(|| registration.invariants[0].to_owned());
        if !registration.invariants.contains(&invariant.as_str()) {
            return Err(BadInput(format!(
                "unknown invariant `{invariant}` for `{}`; known: {}",
                self.subject,
                registration.invariants.join(", ")
            )));
        }
        let time_limit = self.time_limit.map(|s| smallscope::positive_seconds("--time-limit", s)).transpose()?;
        let mut bounds = smallscope::BeapiConfig::default();
        self.bounds.apply(&mut bounds)?;
        let options = CompareOptions {
            list_length: bounds.list_length,
            collection_length: bounds.collection_length,
            max_length: bounds.max_length,
            builders: self.builders.parse().map_err(BadInput::from)?,
            builder_scope: self.builder_scope,
            cache_dir: self.cache.dir(),
            omit: self.omit.clone(),
            pictures: self.witnesses,
            recheck: self.recheck.unwrap_or(registration.recheck),
            time_limit,
        };
        let settings = CompareSettings::new(self.scope, invariant, &options);
        Ok((settings, options))
    }

    /// The command that repeats this run.
    fn command(&self, settings: &CompareSettings) -> String {
        let mut command = format!(
            "{} compare {} --scope {} --invariant {} --builders {}",
            program(),
            self.subject,
            settings.scope,
            settings.invariant,
            self.builders
        );
        for field in &self.omit {
            command.push_str(&format!(" --omit {field}"));
        }
        for flag in self.bounds.flags() {
            command.push_str(&format!(" {flag}"));
        }
        command
    }

    /// The run as a job: what the supervisor runs, and its workers.
    pub fn job(&self) -> Result<Arc<dyn Job<Fold = ComparisonReport>>, BadInput> {
        let (settings, options) = self.settings()?;
        let registration = find_comparison(&self.subject).expect("checked by `settings`");
        let command = self.command(&settings);
        Ok(Arc::new(CompareJob::new(registration, settings, options, Some(command))))
    }
}

pub fn run(args: &CompareArgs, options: &RunOptions) -> anyhow::Result<ExitCode> {
    let job = args.job()?;
    let (settings, _) = args.settings()?;
    let mut finished = crate::run::run(job, options)?;
    let report = std::mem::take(&mut finished.fold);
    let comparison = &report.comparison;
    let stop = finished.stop(report.stop);
    let facts = finished.facts(report.run.clone(), stop, args.command(&settings));
    let mut files = Vec::new();
    let mut witnesses: Sides<Vec<WitnessSummary>> = Sides::default();
    for (side, (name, _)) in SIDES.iter().enumerate() {
        let shown = shown(comparison, side, args.witnesses);
        let list = if side == 0 { &mut witnesses.only_api } else { &mut witnesses.only_invariant };
        for (k, (index, witness)) in shown.into_iter().enumerate() {
            let mut summary =
                WitnessSummary { position: index + 1, witness: witness.clone(), dot_file: None, svg_file: None };
            if args.run.out.is_some() {
                let stem = format!("witness-{name}-{}", k + 1);
                if let Some(dot) = &witness.dot {
                    files.push(OutputFile::bytes(format!("{stem}.dot"), dot.clone().into_bytes()));
                    summary.dot_file = Some(format!("{stem}.dot"));
                }
                if let Some(svg) = &witness.svg {
                    files.push(OutputFile::bytes(format!("{stem}.svg"), svg.clone().into_bytes()));
                    summary.svg_file = Some(format!("{stem}.svg"));
                }
            }
            list.push(summary);
        }
    }
    let summary = CompareSummary::new(&args.subject, comparison, witnesses, facts);
    if args.run.out.is_some() {
        files.push(OutputFile::bytes("comparison.json", (serde_json::to_string_pretty(&summary)? + "\n").into_bytes()));
        files.push(crate::report::Page::compare(&summary).file());
    }
    let summary = finished.write(&args.run, files, summary, |s| &mut s.run)?;
    match args.format {
        Format::Json => print(serde_json::to_string(&summary)?)?,
        Format::Text => print(text(&summary, comparison))?,
    }
    Ok(finished.exit_code(comparison.verdict != Verdict::Equal))
}

/// The witnesses shown on one side.
fn shown(comparison: &Comparison, side: usize, k: usize) -> Vec<(usize, &Witness)> {
    let witnesses = if side == 0 { &comparison.only_api } else { &comparison.only_invariant };
    Comparison::representatives(witnesses, k)
}

fn text(summary: &CompareSummary, c: &Comparison) -> String {
    let mut out = format!(
        "smallscope compare {}: scope {}, invariant {}, builders {}\n",
        summary.subject,
        c.scope,
        c.invariant,
        c.builders.join(", ")
    );
    out.push_str(&format!(
        "SA (built by the API, BEAPI):      {:>8} structures ({:.3} s)\n",
        c.api_structures, c.beapi_seconds
    ));
    out.push_str(&format!(
        "SR (admitted by the invariant):    {:>8} structures (Korat: {} valid of {} explored, {:.3} s)\n",
        c.invariant_structures, c.korat_found, c.korat_explored, c.korat_seconds
    ));
    out.push_str(&format!(
        "both: {}; only the API: {}; only the invariant: {}; {:.3} s in all\n",
        c.both,
        c.only_api.len(),
        c.only_invariant.len(),
        c.seconds
    ));
    out.push_str(&c.verdict_line());
    for note in &c.notes {
        out.push_str(&format!("\nnote: {note}"));
    }
    for (side, (_, title)) in SIDES.iter().enumerate() {
        let witnesses = if side == 0 { &c.only_api } else { &c.only_invariant };
        let shown = if side == 0 { &summary.witnesses.only_api } else { &summary.witnesses.only_invariant };
        if witnesses.is_empty() {
            continue;
        }
        let other = if side == 0 { "the invariant admits" } else { "the API builds" };
        let kinds = Comparison::kinds(witnesses);
        out.push_str(&format!(
            "\n\n{title} ({} structures, {kinds} kind{} of difference; {} shown, fewest differences and smallest first):",
            witnesses.len(),
            if kinds == 1 { "" } else { "s" },
            shown.len()
        ));
        for (k, shown) in shown.iter().enumerate() {
            let witness = &shown.witness;
            out.push_str(&format!(
                "\n  {}. {} objects (#{} smallest): {}",
                k + 1,
                witness.objects,
                shown.position,
                witness.canonical
            ));
            if !witness.odd_fields.is_empty() {
                out.push_str(&format!(
                    "\n     unlike every structure of its shape {other}: {}",
                    witness.odd_fields.join(", ")
                ));
            } else if witness.same_shape {
                out.push_str(&format!(
                    "\n     each field as in some structure of its shape {other}, but not all together"
                ));
            } else {
                out.push_str(&format!("\n     no structure {other} has its shape"));
            }
            if let Some(program) = &witness.program {
                match witness.api_at_scope {
                    Some(scope) => out.push_str(&format!(
                        "\n     built by the API only through larger structures (scope {scope}): {program}"
                    )),
                    None => out.push_str(&format!("\n     built by: {program}")),
                }
            } else if side == 1 {
                match c.recheck_scope {
                    Some(scope) => {
                        out.push_str(&format!("\n     the API does not build it, not even at scope {scope}"))
                    }
                    None => out.push_str("\n     the API does not build it"),
                }
            }
            if let Some(dot) = &shown.dot_file {
                let svg = shown.svg_file.as_ref().map(|p| format!(", {p}")).unwrap_or_default();
                out.push_str(&format!("\n     picture: {dot}{svg}"));
            }
            if let Some(error) = &witness.picture_error {
                out.push_str(&format!("\n     no SVG: {error}"));
            }
        }
    }
    crate::run::finish_text(&mut out, &summary.run, None);
    out
}
