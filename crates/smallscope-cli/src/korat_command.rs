//! `smallscope korat`: run Korat on a registered model and report.

use std::process::ExitCode;

use smallscope::korat::{find_korat_subject, registered_korat_subjects, search_parallel, SearchOptions};

use crate::beapi_command::Format;
use crate::BadInput;

#[derive(clap::Args)]
pub struct KoratArgs {
    /// A registered Korat subject (see `smallscope list`).
    pub subject: String,
    /// The bound n of the subject's stock finitization `fin(n)`.
    #[arg(long)]
    pub scope: Option<u32>,
    /// A TOML file in the `beapi` format; its `scope` is used when --scope is not given.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Threads for the search (0: all cores). Results equal the sequential search's.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Plain Korat: record equivalence classes but do not prune on them (Korat+ is the default when the subject has `eq_class`).
    #[arg(long)]
    pub no_eq_pruning: bool,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

pub fn run(args: &KoratArgs) -> anyhow::Result<ExitCode> {
    let registration = find_korat_subject(&args.subject).ok_or_else(|| {
        let known: Vec<&str> = registered_korat_subjects().iter().map(|r| r.name).collect();
        BadInput(format!("unknown Korat subject `{}`; known Korat subjects: {}", args.subject, known.join(", ")))
    })?;
    let file_scope = match &args.config {
        Some(path) => smallscope::beapi::ConfigFile::load(path).map_err(BadInput::from)?.scope,
        None => None,
    };
    let scope = args
        .scope
        .or(file_scope)
        .ok_or_else(|| BadInput("give a scope: --scope N (or `scope = N` in the config file)".into()))?;
    if scope == 0 {
        return Err(BadInput("scope must be at least 1 (got 0)".into()).into());
    }
    let space = (registration.space)(i64::from(scope))
        .map_err(|e| BadInput(format!("finitization of `{}` at scope {scope}: {e}", args.subject)))?;
    let invariants = (registration.invariants)();
    let options = SearchOptions { prune_eq_classes: !args.no_eq_pruning };
    // Only the counts are reported, so no candidate is kept.
    let (stats, _) = search_parallel::<_, ()>(space.clone(), invariants.as_ref(), options, args.threads, |_| None);
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::json!({
                "subject": args.subject,
                "engine": if options.prune_eq_classes && !stats.classes.is_empty() { "korat+" } else { "korat" },
                "scope": scope,
                "structures": stats.found,
                "explored": stats.explored,
                "seconds": stats.seconds,
                "threads": args.threads,
                "space_size": space.size(),
                "classes": stats.classes.len(),
            })
        ),
        Format::Text => {
            println!(
                "smallscope korat {}: scope {}, {} fields, space of {:.3e} candidates",
                args.subject,
                scope,
                space.slots.len(),
                space.size()
            );
            println!(
                "total: {} structures, {} candidates explored, {:.3} s ({:.0} candidates/s)",
                stats.found,
                stats.explored,
                stats.seconds,
                stats.explored as f64 / stats.seconds.max(1e-9)
            );
            if !stats.classes.is_empty() {
                println!("equivalence classes covered: {}", stats.classes.len());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
