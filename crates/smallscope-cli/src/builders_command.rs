//! `smallscope builders`: identify a subject's builders (hill climbing or
//! the genetic algorithm), detect its observers, cache the result for
//! `--builders auto`, and compare what the builders reach with the whole API.

use std::time::Duration;

use smallscope::beapi::{parse_int_range, BeapiConfig, BuilderMethod, Builders};
use smallscope::builders::{Identification, IdentificationReport, IdentifySettings, Role};
use smallscope::events::Stop;
use smallscope::order::BuildersOrder;
use smallscope_args::builders::{BuildersArgs, MethodArg};

use crate::engine_command::EngineCommand;
use crate::summary::{BuildersSummary, RunFacts};
use crate::{find_subject, program, BadInput};

fn settings(args: &BuildersArgs) -> Result<IdentifySettings, BadInput> {
    let mut beapi = BeapiConfig {
        scope: args.scope,
        builder_scope: args.scope,
        builders: Builders::Auto,
        omit: args.omit.clone(),
        cache_dir: args.cache.dir(),
        ..BeapiConfig::default()
    };
    if let Some(ints) = &args.ints {
        beapi.ints = Some(parse_int_range(ints)?);
    }
    crate::bounds::apply(&args.bounds, &mut beapi)?;
    if let Some(limit) = &args.time_limit {
        beapi.time_limit = Some(smallscope::parse_duration("--time-limit", limit)?);
    }
    beapi.validate()?;
    let method = match args.method {
        MethodArg::Hc => BuilderMethod::HillClimbing,
        MethodArg::Ga => BuilderMethod::Genetic,
    };
    Ok(IdentifySettings { beapi, method, seed: args.seed })
}

/// The command that repeats this run.
fn command(args: &BuildersArgs) -> String {
    let method = match args.method {
        MethodArg::Hc => "hc",
        MethodArg::Ga => "ga",
    };
    let mut command = format!("{} builders {} --method {method} --scope {}", program(), args.subject, args.scope);
    if args.method == MethodArg::Ga {
        command.push_str(&format!(" --seed {}", args.seed));
    }
    if let Some(ints) = &args.ints {
        command.push_str(&format!(" --ints={ints}"));
    }
    for field in &args.omit {
        command.push_str(&format!(" --omit {field}"));
    }
    for flag in args.bounds.flags() {
        command.push_str(&format!(" {flag}"));
    }
    command
}

/// `smallscope builders`, made from its arguments.
pub struct BuildersCommand<'a> {
    args: &'a BuildersArgs,
    order: BuildersOrder,
    type_name: &'static str,
}

impl<'a> BuildersCommand<'a> {
    pub fn new(args: &'a BuildersArgs) -> Result<Self, BadInput> {
        let type_name = find_subject(&args.subject)?.subject().type_name();
        let order =
            BuildersOrder { subject: args.subject.clone(), settings: settings(args)?, command: Some(command(args)) };
        Ok(BuildersCommand { args, order, type_name })
    }
}

impl EngineCommand for BuildersCommand<'_> {
    type Args = BuildersArgs;
    type Order = BuildersOrder;
    type Summary<'a> = BuildersSummary;
    const NAME: &'static str = "builders";

    fn args(&self) -> &BuildersArgs {
        self.args
    }
    fn order(&self) -> &BuildersOrder {
        &self.order
    }
    fn time_limit(&self) -> Option<Duration> {
        self.order.settings.beapi.time_limit
    }
    fn ended(report: &IdentificationReport) -> (String, Option<Stop>) {
        (report.run.clone(), report.stop)
    }

    fn summarize(&self, report: &IdentificationReport, run: RunFacts) -> Option<BuildersSummary> {
        let seed = (self.args.method == MethodArg::Ga).then_some(self.args.seed);
        let identification = report.identification.clone()?;
        Some(BuildersSummary::new(&self.args.subject, self.type_name, identification, seed, run))
    }

    fn text(&self, summary: &BuildersSummary, _: &IdentificationReport) -> String {
        text(summary)
    }

    fn found(&self, _: &BuildersSummary) -> bool {
        false
    }
}

fn text(summary: &BuildersSummary) -> String {
    let how = match summary.method.as_str() {
        "ga" => format!("the genetic algorithm (seed {})", summary.seed.unwrap_or_default()),
        _ => "hill climbing".to_owned(),
    };
    let mut out = format!("smallscope builders {}: {how}, scope {}\n", summary.subject, summary.scope);
    out.push_str(&format!(
        "builders: {} (fitness {:.4}: {} field values)\n",
        summary.builders.join(", "),
        summary.fitness,
        summary.field_values
    ));
    let verdict = match summary.structures_builders == summary.structures_api {
        true => "sufficient at this scope",
        false => "NOT sufficient at this scope",
    };
    out.push_str(&format!(
        "structures at scope {}: {} with the builders, {} with the whole API ({verdict})\n",
        summary.scope, summary.structures_builders, summary.structures_api
    ));
    out.push_str(&format!("observers ({}): {}\n", summary.observers.len(), summary.observers.join(", ")));
    for role in &summary.roles {
        match &role.role {
            Role::Mutator(evidence) => out.push_str(&format!("  {}: {evidence}\n", role.method)),
            Role::Unexercised => {
                out.push_str(&format!("  {}: never called legally by the random run, so kept\n", role.method))
            }
            Role::Observer { .. } | Role::Unchecked => {}
        }
    }
    for note in &summary.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    match summary.from_cache {
        true => out.push_str("read from the cache"),
        false => out.push_str(&format!("identified in {:.2} s ({} sets scored)", summary.seconds, summary.evaluations)),
    }
    if summary.run.stop.is_early() {
        out.push_str(&format!("\nstopped early ({}): the best set so far, not cached", summary.run.stop_text()));
    }
    crate::run::finish_text(&mut out, &summary.run, summary.seed);
    out
}

impl BuildersSummary {
    fn new(subject: &str, type_name: &str, identification: Identification, seed: Option<u64>, run: RunFacts) -> Self {
        let Identification { identified, structures_builders, structures_api, seconds, from_cache } = identification;
        BuildersSummary {
            subject: subject.to_owned(),
            type_name: type_name.to_owned(),
            seed,
            method: identified.method,
            scope: identified.scope,
            builders: identified.builders,
            observers: identified.observers,
            roles: identified.roles,
            notes: identified.notes,
            fitness: identified.fitness,
            field_values: identified.field_values,
            structures_builders,
            structures_api,
            evaluations: identified.evaluations,
            seconds,
            from_cache,
            run,
        }
    }
}
