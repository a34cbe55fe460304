//! `smallscope compare`: the structures the API builds (BEAPI, SA) against
//! those an invariant admits (Korat, SR), at the same scope.

use smallscope::compare::{
    find_comparison, registered_comparisons, CompareOptions, CompareSettings, Comparison, ComparisonReport, Verdict,
    Witness,
};
use smallscope::events::Stop;
use smallscope::order::CompareOrder;
use smallscope_args::compare::CompareArgs;

use crate::engine_command::EngineCommand;
use crate::run::RunOptions;
use crate::summary::{CompareSummary, RunFacts, Sides, WitnessSummary};
use crate::writing::OutputFile;
use crate::{program, BadInput};

/// The two sides, as named in files, and as told.
const SIDES: [(&str, &str); 2] = [("api", "only the API builds"), ("invariant", "only the invariant admits")];

fn settings(args: &CompareArgs) -> Result<(CompareSettings, CompareOptions), BadInput> {
    let registration = find_comparison(&args.subject).ok_or_else(|| {
        let known: Vec<&str> = registered_comparisons().iter().map(|r| r.name).collect();
        BadInput(format!(
            "no comparison registered for `{}`; subjects with a Korat model to compare: {}",
            args.subject,
            known.join(", ")
        ))
    })?;
    if args.scope == 0 {
        return Err(BadInput("scope must be at least 1 (got 0)".into()));
    }
    let invariant = args.invariant.clone().unwrap_or_else(|| registration.invariants[0].to_owned());
    if !registration.invariants.contains(&invariant.as_str()) {
        return Err(BadInput(format!(
            "unknown invariant `{invariant}` for `{}`; known: {}",
            args.subject,
            registration.invariants.join(", ")
        )));
    }
    let time_limit = args.time_limit.as_deref().map(|t| smallscope::parse_duration("--time-limit", t)).transpose()?;
    let mut bounds = smallscope::BeapiConfig::default();
    crate::bounds::apply(&args.bounds, &mut bounds)?;
    let options = CompareOptions {
        list_length: bounds.list_length,
        collection_length: bounds.collection_length,
        max_length: bounds.max_length,
        builders: args.builders.parse().map_err(BadInput::from)?,
        builder_scope: args.builder_scope,
        cache_dir: args.cache.dir(),
        omit: args.omit.clone(),
        pictures: args.witnesses,
        recheck: args.recheck.unwrap_or(registration.recheck),
        time_limit,
    };
    let settings = CompareSettings::new(args.scope, invariant, &options);
    Ok((settings, options))
}

/// The command that repeats this run.
fn command(args: &CompareArgs, settings: &CompareSettings) -> String {
    let mut command = format!(
        "{} compare {} --scope {} --invariant {} --builders {}",
        program(),
        args.subject,
        settings.scope,
        settings.invariant,
        args.builders
    );
    for field in &args.omit {
        command.push_str(&format!(" --omit {field}"));
    }
    for flag in args.bounds.flags() {
        command.push_str(&format!(" {flag}"));
    }
    command
}

/// `smallscope compare`, made from its arguments.
pub struct CompareCommand<'a> {
    args: &'a CompareArgs,
    order: CompareOrder,
}

impl<'a> CompareCommand<'a> {
    pub fn new(args: &'a CompareArgs) -> Result<Self, BadInput> {
        let (settings, options) = settings(args)?;
        let command = Some(command(args, &settings));
        let order = CompareOrder {
            subject: args.subject.clone(),
            scope: settings.scope,
            invariant: settings.invariant,
            options,
            command,
        };
        Ok(CompareCommand { args, order })
    }
}

impl EngineCommand for CompareCommand<'_> {
    type Args = CompareArgs;
    type Order = CompareOrder;
    type Summary<'a> = CompareSummary;
    const NAME: &'static str = "compare";

    fn args(&self) -> &CompareArgs {
        self.args
    }
    fn order(&self) -> &CompareOrder {
        &self.order
    }
    fn ended(report: &ComparisonReport) -> (String, Option<Stop>) {
        (report.run.clone(), report.stop)
    }

    /// The witnesses shown, each with its picture's file names in `--out`.
    fn summarize(&self, report: &ComparisonReport, run: RunFacts) -> Option<CompareSummary> {
        let comparison = &report.comparison;
        let mut witnesses: Sides<Vec<WitnessSummary>> = Sides::default();
        for (side, (name, _)) in SIDES.iter().enumerate() {
            let list = if side == 0 { &mut witnesses.only_api } else { &mut witnesses.only_invariant };
            for (k, (index, witness)) in shown(comparison, side, self.args.witnesses).into_iter().enumerate() {
                let file = |extension: &str, picture: &Option<String>| {
                    let named = self.args.run.out.is_some() && picture.is_some();
                    named.then(|| format!("witness-{name}-{}.{extension}", k + 1))
                };
                list.push(WitnessSummary {
                    position: index + 1,
                    dot_file: file("dot", &witness.dot),
                    svg_file: file("svg", &witness.svg),
                    witness: witness.clone(),
                });
            }
        }
        Some(CompareSummary::new(&self.args.subject, comparison, witnesses, run))
    }

    fn files<'a>(
        &self,
        summary: &CompareSummary,
        _: &'a ComparisonReport,
        _: &RunOptions,
    ) -> anyhow::Result<Vec<OutputFile<'a>>> {
        let mut files = Vec::new();
        for shown in summary.witnesses.only_api.iter().chain(&summary.witnesses.only_invariant) {
            for (file, picture) in [(&shown.dot_file, &shown.witness.dot), (&shown.svg_file, &shown.witness.svg)] {
                if let (Some(file), Some(picture)) = (file, picture) {
                    files.push(OutputFile::bytes(file.clone(), picture.clone().into_bytes()));
                }
            }
        }
        files.push(OutputFile::bytes("comparison.json", (serde_json::to_string_pretty(summary)? + "\n").into_bytes()));
        files.push(crate::report::Page::compare(summary).file());
        Ok(files)
    }

    fn text(&self, summary: &CompareSummary, report: &ComparisonReport) -> String {
        text(summary, &report.comparison)
    }

    fn found(&self, summary: &CompareSummary) -> bool {
        summary.verdict != Verdict::Equal
    }
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
