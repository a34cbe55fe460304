//! `report.html`: one self-contained page per run (inline CSS and SVG, no
//! script, nothing fetched) that `--out DIR` writes beside the run's other
//! files.
//!
//! A [`Page`] is what the page shows, made from a run's summary and folded
//! report by one constructor per engine; [`Page::render`] lays it out. It
//! holds the summary, the per-level table with a plot of structures per
//! level, the failure groups (each with its witness as Rust and a picture
//! of the structure just before the failing call, for BEAPI and random),
//! the structures (a
//! picture beside the calls that build each, the first ones when there are
//! many), for a comparison the witnesses of each side, side by side, and
//! for a random run with coverage the crate's edges taken over the run.
//!
//! Two runs of the same job give the same page, but for what is measured
//! (times, memory): those elements have the class `measured`.

mod plot;

pub use plot::field_size_plot;

use maud::{html, Markup, PreEscaped, DOCTYPE};

use smallscope::beapi::BeapiReport;
use smallscope::emit::{dot_to_svg, type_expr};
use smallscope::events::{Branching, EdgeGain, Failure, FailureKind, Input, LevelStats};
use smallscope::korat::KoratReport;
use smallscope::random::{witness_program, RandomReport};

use smallscope::coverage::{ScopeMeasure, Transcoped};

use crate::summary::{
    BeapiSummary, CompareSummary, KoratSummary, OperationUse, RandomSummary, Role, RunFacts, SuiteSummary,
    WitnessSummary,
};

/// A picture as the page shows it: SVG, or why it could not be drawn.
type Picture = Result<String, String>;

/// What a report page shows.
#[derive(Debug, Default)]
pub struct Page {
    /// `beapi · bst`.
    title: String,
    /// The run's figures, in order; `true` marks what is measured (times,
    /// memory), which differs between two runs of the same job.
    facts: Vec<(&'static str, String, bool)>,
    replay: String,
    levels: Vec<LevelStats>,
    failures: Vec<FailureView>,
    structures: Option<Structures>,
    comparison: Option<[(&'static str, Vec<WitnessView>); 2]>,
    suite: Option<SuiteView>,
    coverage: Option<CoverageView>,
    notes: Vec<String>,
}

/// A random run's coverage of the crate: its gains, the sequences run and
/// the crate's edges.
#[derive(Debug)]
struct CoverageView {
    gains: Vec<EdgeGain>,
    sequences: u64,
    covered: u64,
    total: u64,
    /// [`RandomReport::coverage_story`].
    story: String,
    /// Branches with a side not taken: where, the lines not taken, and
    /// whether those only panic.
    frontier: Vec<(String, String, bool)>,
    branching: Option<Branching>,
}

/// A field coverage suite's fields: sizes per small scope, predicted,
/// reached, and the plot of them.
#[derive(Debug)]
struct SuiteView {
    /// The scopes fitted, one column each.
    scopes: Vec<u32>,
    /// Field, size per fitted scope, predicted, reached.
    rows: Vec<(String, Vec<usize>, Option<usize>, usize)>,
    plot: Picture,
    caption: &'static str,
    /// In a harness built with coverage: the crate's edges the suite's calls take.
    edges: Option<crate::summary::SuiteEdges>,
}

#[derive(Debug)]
struct FailureView {
    heading: String,
    message: String,
    count: u64,
    /// The witness as Rust statements.
    code: Vec<String>,
    picture: Option<Picture>,
    /// What `picture` shows.
    caption: &'static str,
    /// What the failing call left, what changed marked red, and its caption.
    after: Option<(Picture, &'static str)>,
    replay: Option<String>,
}

#[derive(Debug)]
struct Structures {
    total: usize,
    shown: Vec<StructureView>,
    /// The order they are shown in, as the page says it.
    order: &'static str,
}

#[derive(Debug)]
struct StructureView {
    index: usize,
    code: Vec<String>,
    picture: Picture,
}

#[derive(Debug)]
struct WitnessView {
    heading: String,
    canonical: String,
    program: Option<String>,
    notes: Vec<String>,
    picture: Option<Picture>,
}

/// Figures of the run's results, none of them measured.
fn counted(facts: Vec<(&'static str, String)>) -> Vec<(&'static str, String, bool)> {
    facts.into_iter().map(|(name, value)| (name, value, false)).collect()
}

/// The facts every run has.
fn run_facts(run: &RunFacts, seconds: f64) -> Vec<(&'static str, String, bool)> {
    let mut facts = vec![("stopped", run.stop_text(), false), ("seconds", format!("{seconds:.3}"), true)];
    if run.restarts > 0 {
        facts.push(("worker restarts", run.restarts.to_string(), false));
    }
    if let Some(bytes) = run.peak_memory_bytes {
        facts.push(("peak memory", format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0)), true));
    }
    facts.push(("run", run.run.clone(), false));
    facts
}

fn draw(dot: &str, title: &str) -> Picture {
    dot_to_svg(dot, title).map_err(|e| e.to_string())
}

impl Page {
    /// A BEAPI run; it shows the structures the run drew.
    pub fn beapi(summary: &BeapiSummary<'_>, report: &BeapiReport) -> Page {
        let body = &summary.report;
        let of_role = |role: Role| summary.operations.iter().filter(move |op| op.role == role);
        let list = |names: Vec<String>| if names.is_empty() { "none".to_owned() } else { names.join(", ") };
        let mut facts = counted(vec![
            ("type", body.subject.clone()),
            ("scope", body.scope.to_string()),
            ("builders", body.builders.join(", ")),
            ("checked on every structure", list(of_role(Role::Checked).map(OperationUse::describe).collect())),
            ("never called, so not tested", list(of_role(Role::NotCalled).map(|op| op.name.clone()).collect())),
            ("structures", summary.structures.to_string()),
            ("sequences explored", body.explored.to_string()),
            ("checked calls", body.checked_calls.to_string()),
            ("misuse", body.misuses.to_string()),
            ("out of scope", body.out_of_scope.to_string()),
            ("failing sequences", summary.failures.to_string()),
        ]);
        facts.extend(run_facts(&summary.run, body.seconds));
        // The page names the type without its path, to keep lines short.
        let ty = type_expr(&without_paths(&report.subject));
        let failures = report
            .failures
            .iter()
            .enumerate()
            .map(|(i, failure)| {
                let program = report.failure_program(i);
                let mut view = FailureView::of(failure);
                view.code = program.to_rust(&report.operations, &ty);
                view
            })
            .collect();
        let shown = report
            .counted_structures()
            .filter_map(|(index, structure)| {
                let dot = structure.picture.as_deref()?;
                let code = report.program(index).to_rust(&report.operations, &ty);
                Some(StructureView { index, code, picture: draw(dot, &format!("structure {index}")) })
            })
            .collect();
        Page {
            title: format!("beapi · {}", body.name),
            facts,
            replay: summary.run.replay.clone(),
            levels: body.levels.clone(),
            failures,
            structures: Some(Structures { total: summary.structures, shown, order: "the smallest first" }),
            notes: body.notes.clone(),
            ..Page::default()
        }
    }

    /// A random run.
    pub fn random(summary: &RandomSummary<'_>, report: &RandomReport) -> Page {
        let body = &summary.report;
        let mut facts = counted(vec![
            ("type", body.subject.clone()),
            ("seed", body.seed.to_string()),
            ("sequences", body.sequences.to_string()),
            ("legal", body.legal.to_string()),
            ("illegal", body.illegal.to_string()),
            ("redundant", body.redundant.to_string()),
            ("regression tests", summary.regression_test_count.to_string()),
            ("contracts", body.contracts.join(", ")),
        ]);
        facts.push(("sequences per second", format!("{:.0}", summary.sequences_per_second), true));
        let coverage = (body.edges_total > 0).then(|| {
            facts.push(("edges covered", format!("{} of {}", body.edges_covered, body.edges_total), false));
            CoverageView::of(body)
        });
        facts.extend(run_facts(&summary.run, body.seconds));
        let ty = type_expr(&without_paths(&report.subject));
        let failures = body
            .failure_groups
            .iter()
            .map(|failure| {
                let mut view = FailureView::of(failure);
                view.code = witness_program(failure).to_rust(&report.operations, &ty);
                view.code.extend(failure.assertion.iter().cloned());
                view
            })
            .collect();
        Page {
            title: format!("{} · {}", summary.engine, body.name),
            facts,
            replay: summary.run.replay.clone(),
            failures,
            coverage,
            notes: body.notes.clone(),
            ..Page::default()
        }
    }

    /// A Korat run; it shows the structures the run drew, each with its
    /// canonical text when the run recorded it.
    pub fn korat(summary: &KoratSummary<'_>, report: &KoratReport) -> Page {
        let body = &summary.report;
        let mut facts = counted(vec![
            ("type", body.model.clone()),
            ("scope", summary.scope.to_string()),
            ("structures", body.found.to_string()),
            ("candidates explored", body.explored.to_string()),
            ("failing candidates", summary.failures.to_string()),
        ]);
        facts.extend(run_facts(&summary.run, body.seconds));
        Page {
            title: format!("korat · {}", body.name),
            facts,
            replay: summary.run.replay.clone(),
            failures: body.failures.iter().map(FailureView::of).collect(),
            structures: (!report.pictures.is_empty()).then(|| Structures {
                total: report.structures.len(),
                shown: report
                    .pictures
                    .iter()
                    .map(|(index, canonical, dot)| StructureView {
                        index: *index,
                        code: canonical.iter().cloned().collect(),
                        picture: draw(dot, &format!("structure {index}")),
                    })
                    .collect(),
                order: "in the order the search found them",
            }),
            notes: body.notes.clone(),
            ..Page::default()
        }
    }

    /// A comparison: the witnesses of each side, side by side.
    pub fn compare(summary: &CompareSummary) -> Page {
        let mut facts = counted(vec![
            ("type", summary.type_name.clone()),
            ("scope", summary.scope.to_string()),
            ("invariant", summary.invariant.clone()),
            ("verdict", summary.verdict_text.clone()),
            ("built by the API", summary.api_structures.to_string()),
            ("allowed by the invariant", summary.invariant_structures.to_string()),
            ("in both", summary.both.to_string()),
            ("only built by the API", summary.only_api.to_string()),
            ("only allowed by the invariant", summary.only_invariant.to_string()),
            ("builders", summary.builders.join(", ")),
        ]);
        facts.extend(run_facts(&summary.run, summary.seconds));
        let side = |witnesses: &[WitnessSummary]| witnesses.iter().map(WitnessView::of).collect();
        Page {
            title: format!("compare · {}", summary.subject),
            facts,
            replay: summary.run.replay.clone(),
            comparison: Some([
                ("Built by the API, not allowed by the invariant", side(&summary.witnesses.only_api)),
                ("Allowed by the invariant, not built by the API", side(&summary.witnesses.only_invariant)),
            ]),
            notes: summary.notes.clone(),
            ..Page::default()
        }
    }

    /// A field coverage suite: its fields, predicted and reached, and their plot.
    pub fn suite(summary: &SuiteSummary, plot: Picture) -> Page {
        let mut facts = counted(vec![
            ("engine", summary.engine.clone()),
            ("criterion", summary.criterion.to_string()),
            ("scope", summary.scope.to_string()),
            ("small scopes", summary.small_scope.map_or("none".into(), |s| format!("1 to {s}"))),
            ("suite size", summary.suite_size.to_string()),
            ("structures seen", summary.structures_seen.to_string()),
            ("stopped by", summary.stopped_by.name().to_owned()),
            ("failing inputs", summary.failures.to_string()),
        ]);
        if let Some(seconds) = summary.predicted_seconds {
            facts.push(("predicted seconds", format!("{seconds:.3}"), true));
        }
        facts.push(("seconds", format!("{:.3}", summary.seconds), true));
        let fitted: Vec<&ScopeMeasure> =
            summary.scopes.iter().filter(|m| summary.small_scope.is_some_and(|s| m.scope <= s)).collect();
        let rows = summary
            .field_sizes
            .iter()
            .map(|(field, &reached)| {
                let sizes = fitted.iter().map(|m| m.field_sizes.get(field).copied().unwrap_or(0)).collect();
                let predicted = summary.predicted_sizes.as_ref().and_then(|p| p.get(field).copied());
                (field.clone(), sizes, predicted, reached)
            })
            .collect();
        Page {
            title: format!("suite · {}", summary.subject),
            facts,
            replay: summary.replay.clone(),
            suite: Some(SuiteView {
                scopes: fitted.iter().map(|m| m.scope).collect(),
                rows,
                plot,
                caption: match summary.criterion.transcoping() {
                    Some((Transcoped::Time, _)) => {
                        "Seconds each small scope took to reach its last pair, and each policy's prediction"
                    }
                    _ => "Pairs per field at each scope: reached, and each policy's prediction",
                },
                edges: summary.edges.clone(),
            }),
            notes: summary.notes.clone(),
            ..Page::default()
        }
    }

    /// The page as the `report.html` entry of a run's files.
    pub fn file(&self) -> crate::writing::OutputFile<'static> {
        crate::writing::OutputFile::bytes("report.html", self.render().into_bytes())
    }

    /// The page as HTML.
    pub fn render(&self) -> String {
        let page = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { "smallscope " (self.title) }
                    style { (PreEscaped(STYLE)) }
                }
                body {
                    header { h1 { "smallscope " (self.title) } }
                    section #summary {
                        h2 { "Summary" }
                        dl {
                            @for (name, value, measured) in &self.facts {
                                dt { (name) }
                                @if *measured { dd.measured { (value) } } @else { dd { (value) } }
                            }
                        }
                        p.replay { "Replay: " code { (self.replay) } }
                    }
                    @if !self.levels.is_empty() { (self.levels_section()) }
                    @if let Some(suite) = &self.suite { (suite_section(suite)) }
                    @if let Some(coverage) = &self.coverage { (coverage_section(coverage)) }
                    @if !self.notes.is_empty() {
                        section #notes { h2 { "Notes" } ul { @for note in &self.notes { li { (note) } } } }
                    }
                    (self.failures_section())
                    @if let Some(sides) = &self.comparison { (comparison_section(sides)) }
                    @if let Some(structures) = &self.structures { (structures_section(structures)) }
                }
            }
        };
        page.into_string()
    }

    fn levels_section(&self) -> Markup {
        html! {
            section #levels {
                h2 { "Levels" }
                div.levels {
                    table {
                        thead { tr { th { "level" } th { "structures" } th { "explored" } th { "seconds" } } }
                        tbody {
                            @for level in &self.levels {
                                tr {
                                    td { (level.level) } td { (level.structures) }
                                    td { (level.explored) } td.measured { (format!("{:.3}", level.seconds)) }
                                }
                            }
                        }
                    }
                    figure #plot {
                        @match plot::levels(&self.levels) {
                            Ok(svg) => (PreEscaped(svg)),
                            Err(e) => p.error { "The plot could not be drawn: " (e) },
                        }
                        figcaption { "New structures per level" }
                    }
                }
            }
        }
    }

    fn failures_section(&self) -> Markup {
        html! {
            section #failures {
                h2 { "Failures (" (self.failures.len()) " groups)" }
                @if self.failures.is_empty() { p { "None found." } }
                @for (i, failure) in self.failures.iter().enumerate() {
                    article.failure {
                        h3 { (i + 1) ". " (failure.heading) }
                        p { (failure.message) }
                        p.count { (failure.count) " failing inputs in this group; the simplest:" }
                        @let before = failure.picture.as_ref().map(|picture| html! {
                            figure.structure {
                                (picture_markup(picture))
                                figcaption { (failure.caption) }
                            }
                        });
                        @let code = html! { pre { code { @for line in &failure.code { (line) "\n" } } } };
                        @if let Some((after, caption)) = &failure.after {
                            (code)
                            div.sides {
                                (before.unwrap_or_default())
                                figure.structure.after {
                                    (picture_markup(after))
                                    figcaption { (caption) "; what changed is red" }
                                }
                            }
                        } @else {
                            div.pair { (code) (before.unwrap_or_default()) }
                        }
                        @if let Some(replay) = &failure.replay { p.replay { "Reproduce: " code { (replay) } } }
                    }
                }
            }
        }
    }
}

impl CoverageView {
    fn of(body: &RandomReport) -> CoverageView {
        CoverageView {
            gains: body.edges_over_time.clone(),
            sequences: body.sequences,
            covered: body.edges_covered,
            total: body.edges_total,
            story: body.coverage_story(),
            frontier: body
                .frontier
                .iter()
                .map(|branch| (crate::summary::place(&branch.at), branch.missed_lines(), branch.to_panic))
                .collect(),
            branching: body.branching.clone(),
        }
    }
}

fn coverage_section(coverage: &CoverageView) -> Markup {
    html! {
        section #coverage {
            h2 { "Coverage" }
            p { (coverage.covered) " of the crate's " (coverage.total) " edges taken" (coverage.story) "." }
            figure #edge-plot {
                (picture_markup(&plot::edges(
                    &coverage.gains,
                    coverage.sequences,
                    coverage.total,
                    coverage.branching.as_ref().map(|b| b.edges_after),
                )))
                figcaption { "The crate's edges taken, by sequences executed" }
            }
            @if let Some(branching) = &coverage.branching { (branching_section(branching)) }
            @if !coverage.frontier.is_empty() {
                h3 { "Frontier: branches with a side not taken" }
                table.frontier {
                    thead { tr { th { "branch" } th { "lines not taken" } th { "not taken only panics" } } }
                    tbody {
                        @for (at, missed, to_panic) in &coverage.frontier {
                            tr { td { code { (at) } } td { (missed) } td { @if *to_panic { "yes" } } }
                        }
                    }
                }
            }
        }
    }
}

/// The branch phase: edges before and after, each branch tried, the strategies.
fn branching_section(branching: &Branching) -> Markup {
    let (targets, flipped) = branching.flip_rate();
    html! {
        h3 #branching { "Branch phase" }
        p {
            "Flipped " (flipped) " of " (targets) " frontier branches of the code under test with "
            (branching.candidates) " candidates in " (format!("{:.2}", branching.seconds)) " s; the crate's edges taken: "
            (branching.edges_before) " before the phase, " (branching.edges_after) " after."
        }
        table.branching {
            thead { tr { th { "branch" } th { "lines not taken" } th { "outcome" } th { "sequence" } th { "confirmed" } } }
            tbody {
                @for tried in &branching.branches {
                    tr {
                        td {
                            code { (crate::summary::place(&tried.branch.at)) }
                            @if tried.invariant { " (the invariant's)" }
                            @else if tried.branch.to_panic { " (only panics)" }
                            @else if tried.witnesses == 0 { " (no call reached it)" }
                        }
                        td { (tried.branch.missed_lines()) }
                        @match &tried.flip {
                            Some(flip) => {
                                td { "flipped by " (flip.strategy.name()) }
                                td { code { (flip.witness.text) } }
                                td { @match flip.confirmed { Some(true) => "yes", Some(false) => "NO", None => "not checked" } }
                            }
                            None => {
                                td { "not flipped (" (tried.witnesses) " witnesses, " (tried.candidates) " candidates)" }
                                td {} td {}
                            }
                        }
                    }
                }
            }
        }
        table.strategies {
            thead { tr { th { "strategy" } th { "candidates" } th { "flips" } } }
            tbody {
                @for tally in branching.strategies.iter().filter(|t| t.candidates > 0) {
                    tr { td { (tally.strategy.name()) } td { (tally.candidates) } td { (tally.flips) } }
                }
            }
        }
    }
}

fn suite_section(suite: &SuiteView) -> Markup {
    html! {
        section #fields {
            h2 { "Field extensions" }
            table {
                thead {
                    tr {
                        th { "field" }
                        @for scope in &suite.scopes { th { "scope " (scope) } }
                        th { "predicted" } th { "reached" }
                    }
                }
                tbody {
                    @for (field, sizes, predicted, reached) in &suite.rows {
                        tr {
                            td.field { (field) }
                            @for size in sizes { td { (size) } }
                            td { (predicted.map_or("-".to_owned(), |p| p.to_string())) }
                            td { (reached) }
                        }
                    }
                }
            }
            figure #field-plot {
                (picture_markup(&suite.plot))
                figcaption { (suite.caption) }
            }
        }
        @if let Some(edges) = &suite.edges { (suite_edges_section(edges)) }
    }
}

/// The crate's edges the suite's calls take, per function that any structure's calls reach.
fn suite_edges_section(edges: &crate::summary::SuiteEdges) -> Markup {
    let reached: Vec<_> = edges.functions.iter().filter(|f| f.every_structure > 0 || f.suite > 0).collect();
    html! {
        section #suite-edges {
            h2 { "Edges of the crate" }
            p {
                "Each structure built again by its calls, then every operation that takes one called on it with \
                 every argument: the suite's calls take " (edges.suite) " of the crate's " (edges.total)
                " edges, the same calls on every structure of the scope " (edges.every_structure) "."
            }
            table {
                thead { tr { th { "file" } th { "function" } th { "edges" } th { "suite" } th { "every structure" } } }
                tbody {
                    @for function in &reached {
                        tr {
                            td.field { (crate::summary::relative(&function.file)) }
                            td.field { (function.function) }
                            td { (function.edges) }
                            td { (function.suite) }
                            td { (function.every_structure) }
                        }
                    }
                }
            }
            p {
                (edges.functions.len() - reached.len()) " functions of the crate no structure's calls reach. \
                 Measuring took " (format!("{:.2}", edges.seconds)) " s."
            }
        }
    }
}

fn comparison_section(sides: &[(&'static str, Vec<WitnessView>); 2]) -> Markup {
    html! {
        section #comparison {
            h2 { "Witnesses" }
            div.sides {
                @for (title, witnesses) in sides {
                    div.side {
                        h3 { (title) " (" (witnesses.len()) " shown)" }
                        @if witnesses.is_empty() { p { "None." } }
                        @for witness in witnesses {
                            article.witness {
                                h4 { (witness.heading) }
                                @if let Some(picture) = &witness.picture {
                                    figure.structure { (picture_markup(picture)) }
                                }
                                @if let Some(program) = &witness.program { pre { code { (program) } } }
                                @for note in &witness.notes { p { (note) } }
                                details { summary { "canonical form" } pre { code { (witness.canonical) } } }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn structures_section(structures: &Structures) -> Markup {
    html! {
        section #structures {
            h2 { "Structures" }
            p.count {
                @if structures.shown.len() < structures.total {
                    "Showing " (structures.shown.len()) " of " (structures.total)
                    " structures, " (structures.order) "; all are in structures.jsonl."
                } @else {
                    "All " (structures.total) " structures, " (structures.order) "."
                }
            }
            div.grid {
                @for structure in &structures.shown {
                    article.structure-card {
                        h3 { "#" (structure.index) }
                        figure.structure { (picture_markup(&structure.picture)) }
                        @if !structure.code.is_empty() {
                            pre { code { @for line in &structure.code { (line) "\n" } } }
                        }
                    }
                }
            }
        }
    }
}

fn picture_markup(picture: &Picture) -> Markup {
    match picture {
        Ok(svg) => html! { div.picture { (PreEscaped(svg_body(svg))) } },
        Err(e) => html! { p.error { "No picture: " (e) } },
    }
}

/// `a::b::List<a::c::Key>` as `List<Key>`.
fn without_paths(type_name: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in type_name.chars().chain(std::iter::once(' ')) {
        match c {
            c if c.is_alphanumeric() || c == '_' || c == ':' => word.push(c),
            c => {
                out.push_str(word.rsplit("::").next().unwrap_or(&word));
                word.clear();
                out.push(c);
            }
        }
    }
    out.pop();
    out
}

/// `svg` without an XML declaration, to sit inside HTML.
fn svg_body(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |start| &svg[start..])
}

impl FailureView {
    fn of(failure: &Failure) -> FailureView {
        let heading = failure.headline();
        // A Korat witness is a structure the check ran on, not a call's input.
        let (title, caption) = match failure.witness.input {
            Input::Candidate(_) => ("the structure it failed on", "The structure it failed on"),
            _ => ("before the failing call", "The structure just before the failing call"),
        };
        let mut message = failure.message.clone();
        if let Some(location) = &failure.location {
            message.push_str(&format!(" (at {location})"));
        }
        FailureView {
            heading,
            message,
            count: failure.count,
            code: vec![failure.witness.text.clone()],
            picture: failure.picture.as_deref().map(|dot| draw(dot, title)),
            caption,
            after: failure.picture.as_deref().zip(failure.picture_after.as_deref()).map(|(before, after)| {
                let caption = match failure.kind {
                    FailureKind::Panic => "What the call left when it panicked",
                    _ => "What the call left, which fails the check",
                };
                (draw(&smallscope::emit::mark_changes(before, after), "after the failing call"), caption)
            }),
            replay: failure.replay.clone(),
        }
    }
}

impl WitnessView {
    fn of(witness: &WitnessSummary) -> WitnessView {
        let w = &witness.witness;
        let mut notes = Vec::new();
        if !w.odd_fields.is_empty() {
            notes.push(format!("Differs in: {}", w.odd_fields.join(", ")));
        }
        if let Some(scope) = w.api_at_scope {
            notes.push(format!("The API builds it at scope {scope}: a scope artifact."));
        }
        let picture = match (&w.svg, &w.picture_error) {
            (Some(svg), _) => Some(Ok(svg.clone())),
            (None, Some(error)) => Some(Err(error.clone())),
            (None, None) => None,
        };
        WitnessView {
            heading: format!("#{} ({} objects)", witness.position, w.objects),
            canonical: w.canonical.clone(),
            program: w.program.clone(),
            notes,
            picture,
        }
    }
}

const STYLE: &str = "
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 20px 40px; color: #1d2330; }
h1 { font-size: 24px; margin: 20px 0 8px; }
h2 { font-size: 19px; border-bottom: 1px solid #d8dde6; padding-bottom: 4px; margin-top: 28px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; }
dt { color: #5a6478; } dd { margin: 0; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f4f6fa; padding: 8px 10px; border-radius: 4px; overflow-x: auto; margin: 0; }
.replay code { background: #f4f6fa; padding: 2px 4px; }
table { border-collapse: collapse; } th, td { padding: 3px 12px; text-align: right; border-bottom: 1px solid #e5e8ee; }
.levels { display: flex; gap: 32px; align-items: flex-start; flex-wrap: wrap; }
figure { margin: 0; } figcaption { color: #5a6478; font-size: 13px; }
.failure { border-left: 4px solid #c53030; padding: 4px 14px; margin: 14px 0; background: #fffafa; }
.pair { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 14px; }
td.field, th:first-child { text-align: left; }
table.frontier td, table.frontier th, table.branching td, table.branching th, table.strategies td:first-child { text-align: left; }
table.strategies { margin-top: 12px; }
.structure-card { border: 1px solid #d8dde6; border-radius: 6px; padding: 8px; }
.structure-card h3 { font-size: 14px; margin: 0 0 6px; color: #5a6478; }
.structure-card pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.picture svg { max-width: 100%; height: auto; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; margin-top: 10px; }
.witness { border: 1px solid #d8dde6; border-radius: 6px; padding: 8px; margin-bottom: 12px; }
.error { color: #c53030; }
";
