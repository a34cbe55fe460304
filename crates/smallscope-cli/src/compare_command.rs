//! `smallscope compare`: the structures the API builds (BEAPI, SA) against
//! those an invariant admits (Korat, SR), at the same scope.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use smallscope::compare::{find_comparison, registered_comparisons, CompareOptions, Comparison, Verdict, Witness};

use crate::beapi_command::Format;
use crate::BadInput;

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
    /// Stop BEAPI after this many seconds (the comparison is then incomplete).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write `witness-<side>-<k>.dot` and `.svg` for the shown witnesses, and `comparison.json`, into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Where identified builders are cached.
    #[arg(long, value_name = "DIR", default_value = ".smallscope/cache")]
    pub cache_dir: PathBuf,
    /// Identify builders afresh, ignoring the cache.
    #[arg(long)]
    pub no_cache: bool,
}

/// A witness's picture files: its side (0 API, 1 invariant), its place
/// among the shown ones, and the paths written.
struct PictureFile {
    side: usize,
    k: usize,
    dot: PathBuf,
    svg: Option<PathBuf>,
}

/// The two sides, as named in files and JSON.
const SIDES: [(&str, &str); 2] = [("api", "only the API builds"), ("invariant", "only the invariant admits")];

pub fn run(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    let registration = find_comparison(&args.subject).ok_or_else(|| {
        let known: Vec<&str> = registered_comparisons().iter().map(|r| r.name).collect();
        BadInput(format!(
            "no comparison registered for `{}`; subjects with a Korat model to compare: {}",
            args.subject,
            known.join(", ")
        ))
    })?;
    if args.scope == 0 {
        return Err(BadInput("scope must be at least 1 (got 0)".into()).into());
    }
    let invariant = args.invariant.clone().unwrap_or_else(|| registration.invariants[0].to_owned());
    if !registration.invariants.contains(&invariant.as_str()) {
        return Err(BadInput(format!(
            "unknown invariant `{invariant}` for `{}`; known: {}",
            args.subject,
            registration.invariants.join(", ")
        ))
        .into());
    }
    let time_limit = match args.time_limit {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(BadInput(format!("--time-limit must be a positive number of seconds, not {s}")).into())
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let options = CompareOptions {
        builders: args.builders.parse().map_err(BadInput::from)?,
        builder_scope: args.builder_scope,
        cache_dir: (!args.no_cache).then(|| args.cache_dir.clone()),
        omit: args.omit.clone(),
        pictures: args.witnesses,
        recheck: args.recheck.unwrap_or(registration.recheck),
        time_limit,
    };
    let comparison = (registration.run)(args.scope, &invariant, &options).map_err(|e| BadInput(e.to_string()))?;
    let mut files = Vec::new();
    if let Some(dir) = &args.out {
        files = write_pictures(dir, &comparison, args.witnesses)?;
    }
    let summary = summary_json(args, &comparison, &files);
    if let Some(dir) = &args.out {
        let path = dir.join("comparison.json");
        std::fs::write(&path, serde_json::to_string_pretty(&summary)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string(&summary)?),
        Format::Text => print_text(args, &comparison, &files),
    }
    Ok(if comparison.verdict == Verdict::Equal { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The witnesses shown on one side.
fn shown(comparison: &Comparison, side: usize, k: usize) -> Vec<(usize, &Witness)> {
    let witnesses = if side == 0 { &comparison.only_api } else { &comparison.only_invariant };
    Comparison::representatives(witnesses, k)
}

/// Writes the pictures of the shown witnesses; returns `(side, k, dot path, svg path)`.
fn write_pictures(dir: &Path, comparison: &Comparison, k: usize) -> anyhow::Result<Vec<PictureFile>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut files = Vec::new();
    for (side, (name, _)) in SIDES.iter().enumerate() {
        for (shown_k, (_, witness)) in shown(comparison, side, k).into_iter().enumerate() {
            let stem = format!("witness-{name}-{}", shown_k + 1);
            let Some(dot) = &witness.dot else { continue };
            let dot_path = dir.join(format!("{stem}.dot"));
            std::fs::write(&dot_path, dot).with_context(|| format!("writing {}", dot_path.display()))?;
            let svg_path = match &witness.svg {
                Some(svg) => {
                    let path = dir.join(format!("{stem}.svg"));
                    std::fs::write(&path, svg).with_context(|| format!("writing {}", path.display()))?;
                    Some(path)
                }
                None => None,
            };
            files.push(PictureFile { side, k: shown_k, dot: dot_path, svg: svg_path });
        }
    }
    Ok(files)
}

fn witness_json(witness: &Witness, index: usize, files: Option<&PictureFile>) -> serde_json::Value {
    let mut value = serde_json::json!({
        "position": index + 1,
        "objects": witness.objects,
        "canonical": witness.canonical,
    });
    let map = value.as_object_mut().expect("an object");
    if let Some(program) = &witness.program {
        map.insert("program".into(), program.clone().into());
        map.insert("calls".into(), witness.calls.into());
    }
    if !witness.odd_fields.is_empty() {
        map.insert("odd_fields".into(), witness.odd_fields.clone().into());
    }
    map.insert("same_shape".into(), witness.same_shape.into());
    if let Some(scope) = witness.api_at_scope {
        map.insert("api_at_scope".into(), scope.into());
    }
    if let Some(dot) = &witness.dot {
        map.insert("dot".into(), dot.clone().into());
    }
    if let Some(error) = &witness.picture_error {
        map.insert("picture_error".into(), error.clone().into());
    }
    if let Some(PictureFile { dot, svg, .. }) = files {
        map.insert("dot_file".into(), dot.display().to_string().into());
        if let Some(svg) = svg {
            map.insert("svg_file".into(), svg.display().to_string().into());
        }
    }
    value
}

fn summary_json(args: &CompareArgs, comparison: &Comparison, files: &[PictureFile]) -> serde_json::Value {
    let side_json = |side: usize| -> Vec<serde_json::Value> {
        shown(comparison, side, args.witnesses)
            .into_iter()
            .enumerate()
            .map(|(k, (index, w))| witness_json(w, index, files.iter().find(|f| f.side == side && f.k == k)))
            .collect()
    };
    serde_json::json!({
        "subject": args.subject,
        "type": comparison.subject,
        "engine": "compare",
        "scope": comparison.scope,
        "invariant": comparison.invariant,
        "api_structures": comparison.api_structures,
        "invariant_structures": comparison.invariant_structures,
        "only_api": comparison.only_api.len(),
        "only_invariant": comparison.only_invariant.len(),
        "both": comparison.both,
        "verdict": comparison.verdict,
        "relation": comparison.verdict.relation(),
        "verdict_text": comparison.verdict_line(),
        "builders": comparison.builders,
        "recheck_scope": comparison.recheck_scope,
        "scope_artifacts": comparison.scope_artifacts,
        "incomplete": comparison.incomplete,
        "korat": { "found": comparison.korat_found, "explored": comparison.korat_explored, "seconds": comparison.korat_seconds },
        "beapi": { "structures": comparison.api_structures, "seconds": comparison.beapi_seconds },
        "seconds": comparison.seconds,
        "kinds": {
            "only_api": Comparison::kinds(&comparison.only_api),
            "only_invariant": Comparison::kinds(&comparison.only_invariant),
        },
        "witnesses": { "only_api": side_json(0), "only_invariant": side_json(1) },
        "notes": comparison.notes,
    })
}

fn print_text(args: &CompareArgs, c: &Comparison, files: &[PictureFile]) {
    println!(
        "smallscope compare {}: scope {}, invariant {}, builders {}",
        args.subject,
        c.scope,
        c.invariant,
        c.builders.join(", ")
    );
    println!("SA (built by the API, BEAPI):      {:>8} structures ({:.3} s)", c.api_structures, c.beapi_seconds);
    println!(
        "SR (admitted by the invariant):    {:>8} structures (Korat: {} valid of {} explored, {:.3} s)",
        c.invariant_structures, c.korat_found, c.korat_explored, c.korat_seconds
    );
    println!(
        "both: {}; only the API: {}; only the invariant: {}; {:.3} s in all",
        c.both,
        c.only_api.len(),
        c.only_invariant.len(),
        c.seconds
    );
    println!("{}", c.verdict_line());
    for note in &c.notes {
        println!("note: {note}");
    }
    for (side, (_, title)) in SIDES.iter().enumerate() {
        let witnesses = if side == 0 { &c.only_api } else { &c.only_invariant };
        if witnesses.is_empty() {
            continue;
        }
        let shown = shown(c, side, args.witnesses);
        let other = if side == 0 { "the invariant admits" } else { "the API builds" };
        let kinds = Comparison::kinds(witnesses);
        println!(
            "\n{title} ({} structures, {kinds} kind{} of difference; {} shown, fewest differences and smallest first):",
            witnesses.len(),
            if kinds == 1 { "" } else { "s" },
            shown.len()
        );
        for (k, (index, witness)) in shown.into_iter().enumerate() {
            println!("  {}. {} objects (#{} smallest): {}", k + 1, witness.objects, index + 1, witness.canonical);
            if !witness.odd_fields.is_empty() {
                println!("     unlike every structure of its shape {other}: {}", witness.odd_fields.join(", "));
            } else if witness.same_shape {
                println!("     each field as in some structure of its shape {other}, but not all together");
            } else {
                println!("     no structure {other} has its shape");
            }
            if let Some(program) = &witness.program {
                match witness.api_at_scope {
                    Some(scope) => {
                        println!("     built by the API only through larger structures (scope {scope}): {program}")
                    }
                    None => println!("     built by: {program}"),
                }
            } else if side == 1 {
                match c.recheck_scope {
                    Some(scope) => println!("     the API does not build it, not even at scope {scope}"),
                    None => println!("     the API does not build it"),
                }
            }
            if let Some(PictureFile { dot, svg, .. }) = files.iter().find(|f| f.side == side && f.k == k) {
                let svg = svg.as_ref().map(|p| format!(", {}", p.display())).unwrap_or_default();
                println!("     picture: {}{svg}", dot.display());
            }
            if let Some(error) = &witness.picture_error {
                println!("     no SVG: {error}");
            }
        }
    }
}
