//! A Rust test file: one test per structure, rebuilt through the API; or,
//! for more structures than a reader would look at one by one, the
//! structures as a table that a few tests rebuild and check, row by row,
//! so that the file compiles in seconds whatever the count.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::api::OperationInfo;
use crate::beapi::BeapiReport;
use crate::events::FailureKind;
use crate::sequence::{statement, Call, Operand, Output, Program, Step, StepArg};

/// Above this many structure tests a file holds a table instead.
pub const TABLE_ABOVE: usize = 500;

/// Rows of the table each generated test checks.
const ROWS_PER_TEST: usize = 4096;

/// How to write the test file.
#[derive(Debug, Clone, Default)]
pub struct RustTestOptions {
    /// The command that regenerates the file, for its header.
    pub command: String,
    /// The `omit` setting of the run, so canonical forms compare alike.
    pub omit: Vec<String>,
    /// Whether the subject declares `rep_ok`, checked after rebuilding.
    pub has_rep_ok: bool,
    /// Write at most this many structure tests (the first ones, shortest first).
    pub max_tests: Option<usize>,
    /// Write only these structures' tests, by index (a suite a field
    /// coverage criterion kept); `None`: every structure.
    pub only: Option<std::collections::BTreeSet<usize>>,
    /// A function (a path) each structure test then calls with the rebuilt
    /// structure, `check(&s)`: the user's own checks on every input.
    pub check: Option<String>,
    /// Whether the failure witnesses are in this file, `#[ignore]`d, or
    /// written apart by [`rust_failing_tests`].
    pub witnesses: Witnesses,
    /// Write a table instead of one test per structure above this many
    /// structures (`None`: [`TABLE_ABOVE`]).
    pub table_above: Option<usize>,
    /// How long the test of a `hang` waits for its witness: the run's call
    /// timeout in seconds (`None`: the default one).
    pub hang_seconds: Option<u64>,
}

/// Where [`rust_tests`] puts the failure witnesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Witnesses {
    /// In the structure tests' file, `#[ignore]`d: `cargo test` passes, and
    /// `cargo test -- --ignored` reproduces the failures.
    #[default]
    Ignored,
    /// Left out: [`rust_failing_tests`] writes them in a file of their own.
    Apart,
}

/// A type name as the qualified path calls go through: `<a::b::List<a::B>>`.
/// In type position a bare generic name takes its defaults, which
/// `std::any::type_name` leaves out.
pub fn type_expr(type_name: &str) -> String {
    format!("<{type_name}>")
}

/// The test file for `report`. Every structure test must pass; failure
/// witnesses are `#[ignore]`d tests that reproduce the failure when run.
pub fn rust_tests(report: &BeapiReport, options: &RustTestOptions) -> String {
    let chosen = |index: &usize| options.only.as_ref().is_none_or(|only| only.contains(index));
    let limit = options.max_tests.unwrap_or(usize::MAX);
    let tested: Vec<usize> = (report.counted_structures())
        .filter(|(index, structure)| chosen(index) && structure.canonical.is_some())
        .map(|(index, _)| index)
        .take(limit)
        .collect();
    if tested.len() > options.table_above.unwrap_or(TABLE_ABOVE) {
        return table_tests(report, options, &tested);
    }
    let ty = type_expr(&report.subject);
    let mut out = header(
        report,
        options,
        "the structures BEAPI built for",
        "Each test rebuilds one structure through the API and checks its canonical form.",
    );
    let omit: Vec<String> = options.omit.iter().map(|f| format!("{f:?}")).collect();
    writeln!(out, "const OMIT: &[&str] = &[{}];\n", omit.join(", ")).unwrap();
    out.push_str("fn canonical<T: smallscope::Heap>(value: &T) -> String {\n");
    out.push_str("    smallscope::heap::canonical_text_omitting(value, OMIT).expect(\"omitted fields exist\")\n}\n");
    let mut names = Vec::new();
    for &index in &tested {
        let canonical = report.structures[index].canonical.as_ref().expect("tested structures have one");
        let program = report.program(index);
        let name = unique_name(&mut names, test_name(&program, &report.operations, index));
        writeln!(out, "\n#[test]\nfn {name}() {{").unwrap();
        for line in program.to_rust(&report.operations, &ty) {
            writeln!(out, "    {line}").unwrap();
        }
        let result = program.result.expect("a structure's program yields it");
        writeln!(out, "    assert_eq!(canonical(&s{result}), {canonical:?});").unwrap();
        if options.has_rep_ok {
            writeln!(out, "    {}", rep_ok_holds(&format!("s{result}"))).unwrap();
        }
        if let Some(check) = &options.check {
            writeln!(out, "    {check}(&s{result});").unwrap();
        }
        out.push_str("}\n");
    }
    if options.witnesses == Witnesses::Ignored {
        write_witnesses(&mut out, report, options, &mut names, true);
    }
    out
}

/// The file for many structures: a table of rows, each the call that makes
/// a structure from earlier ones and its canonical form's fingerprint,
/// read by tests of [`ROWS_PER_TEST`] rows each. The code is written as
/// rustfmt leaves it, at any line width from 100 up.
fn table_tests(report: &BeapiReport, options: &RustTestOptions, tested: &[usize]) -> String {
    let each = "Each test rebuilds the structures of its rows of `STRUCTURES` through the API and checks their \
                canonical forms.";
    let mut out = header(report, options, "the structures BEAPI built for", each);
    let omit: Vec<String> = options.omit.iter().map(|f| format!("{f:?}")).collect();
    writeln!(out, "const OMIT: &[&str] = &[{}];", omit.join(", ")).unwrap();
    writeln!(out, "\ntype Tested = {};", report.subject).unwrap();
    // Rows up to the last tested structure: the others are their inputs.
    let rows = tested.last().map_or(0, |last| last + 1);
    // Handles the API hands out go from the row whose call returned them to the rows that take them.
    let handles = report.operations.iter().any(|op| op.returns_handle.is_some());
    let mut calls: HashMap<Vec<String>, usize> = HashMap::new();
    let mut arms = Vec::new();
    let mut labels = Vec::new();
    let mut table = String::new();
    for (index, structure) in report.structures[..rows].iter().enumerate() {
        let (arm, label) = make_arm(&structure.step, &report.operations, "Tested", handles);
        let call = *calls.entry(arm.clone()).or_insert_with(|| {
            arms.push(arm);
            labels.push(label);
            arms.len() - 1
        });
        let inputs: Vec<String> = (structure.step.args.iter())
            .filter_map(|a| match a {
                StepArg::Structure(s) => Some(s.to_string()),
                StepArg::Handle(s) => Some(format!("h{s}")),
                StepArg::Literal(_) => None,
            })
            .collect();
        let inputs = if inputs.is_empty() { "-".to_owned() } else { inputs.join(",") };
        let fingerprint = match (tested.binary_search(&index), &structure.canonical) {
            (Ok(_), Some(canonical)) => crate::heap::canonical_fingerprint(canonical),
            // An input only: not checked.
            _ => "?".to_owned(),
        };
        writeln!(table, "{call} {inputs} {fingerprint}").unwrap();
    }
    out.push_str(&format!(
        "\n/// One row per structure: the case of `make` that builds it, the rows it\n\
         /// takes (`-`: none; `hN`: the handle row N's call returned), and its canonical form's fingerprint\n\
         /// (`smallscope::heap::canonical_fingerprint`; `?`: an input, not checked).\n\
         const STRUCTURES: &str = {};\n",
        raw_string(&table)
    ));
    writeln!(out, "\n/// Case `call` of `make` as text, for messages.").unwrap();
    writeln!(out, "fn call_text(call: usize) -> &'static str {{\n    match call {{").unwrap();
    for (call, label) in labels.iter().enumerate() {
        writeln!(out, "        {call} => {label:?},").unwrap();
    }
    writeln!(out, "        _ => \"?\",\n    }}\n}}").unwrap();
    writeln!(out, "\n/// Makes a structure by case `call` from the structures it takes.").unwrap();
    if handles {
        writeln!(out, "/// and the handles; with the handle the call returned, if one.").unwrap();
        writeln!(out, "fn make(call: usize, inputs: Vec<Tested>, taken: Vec<Handle>) -> (Tested, Option<Handle>) {{")
            .unwrap();
        writeln!(out, "    let mut taken = taken.into_iter();").unwrap();
    } else {
        writeln!(out, "fn make(call: usize, inputs: Vec<Tested>) -> Tested {{").unwrap();
    }
    writeln!(out, "    let mut inputs = inputs.into_iter();").unwrap();
    writeln!(out, "    match call {{").unwrap();
    for (call, arm) in arms.iter().enumerate() {
        writeln!(out, "        {call} => {{").unwrap();
        for line in arm {
            writeln!(out, "            {line}").unwrap();
        }
        writeln!(out, "        }}").unwrap();
    }
    writeln!(out, "        _ => unreachable!(\"no case {{call}}\"),\n    }}\n}}").unwrap();
    out.push_str(TABLE_READER);
    out.push_str(if handles { BUILD_WITH_HANDLES } else { BUILD });
    // What each rebuilt structure must pass besides its canonical form.
    writeln!(out, "\n/// The checks of every rebuilt structure, `built` by the calls given.").unwrap();
    writeln!(out, "fn check(index: usize, value: &Tested, built: &str) {{").unwrap();
    if options.has_rep_ok {
        writeln!(out, "    let holds = smallscope::Subject::rep_ok(value) != Some(false);").unwrap();
        writeln!(out, "    assert!(holds, \"rep_ok fails on structure {{index}}, by {{built}}\");").unwrap();
    }
    if let Some(check) = &options.check {
        writeln!(out, "    let checked = std::panic::AssertUnwindSafe(|| {check}(value));").unwrap();
        writeln!(out, "    if let Err(panic) = std::panic::catch_unwind(checked) {{").unwrap();
        writeln!(out, "        eprintln!(\"structure {{index}}, built by {{built}}\");").unwrap();
        writeln!(out, "        std::panic::resume_unwind(panic);\n    }}").unwrap();
    }
    out.push_str("}\n");
    for start in (0..tested.len()).step_by(ROWS_PER_TEST) {
        let chunk = &tested[start..tested.len().min(start + ROWS_PER_TEST)];
        let (first, last) = (chunk[0], chunk[chunk.len() - 1]);
        writeln!(out, "\n#[test]\nfn structures_{first}_to_{last}() {{\n    check_rows({first}..={last});\n}}")
            .unwrap();
    }
    if options.witnesses == Witnesses::Ignored {
        write_witnesses(&mut out, report, options, &mut Vec::new(), true);
    }
    out
}

/// What a table file reads its rows with: short lines and chains, which
/// rustfmt leaves as they are at any width from 100 up.
const TABLE_READER: &str = r#"
fn canonical<T: smallscope::Heap>(value: &T) -> String {
    smallscope::heap::canonical_text_omitting(value, OMIT).expect("omitted fields exist")
}

struct Row {
    call: usize,
    inputs: Vec<usize>,
    handles: Vec<usize>,
    fingerprint: &'static str,
}

fn row_number(text: &str) -> usize {
    text.parse().expect("a row number")
}

fn row(line: &'static str) -> Row {
    let mut parts = line.splitn(3, ' ');
    let mut next = || parts.next().expect("a row has three parts");
    let call = row_number(next());
    let (mut inputs, mut handles) = (Vec::new(), Vec::new());
    for input in next().split(',').filter(|i| *i != "-") {
        match input.strip_prefix('h') {
            Some(row) => handles.push(row_number(row)),
            None => inputs.push(row_number(input)),
        }
    }
    let fingerprint = next();
    Row {
        call,
        inputs,
        handles,
        fingerprint,
    }
}

fn rows() -> &'static [Row] {
    static ROWS: std::sync::OnceLock<Vec<Row>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        let lines = STRUCTURES.lines().filter(|l| !l.is_empty());
        lines.map(row).collect()
    })
}

/// The calls that build row `index`, as text.
fn described(index: usize) -> String {
    let row = &rows()[index];
    let mut calls: Vec<String> = row.inputs.iter().map(|&i| described(i)).collect();
    calls.push(call_text(row.call).to_owned());
    calls.join("; ")
}

fn check_rows(rows_checked: std::ops::RangeInclusive<usize>) {
    for index in rows_checked {
        let expected = rows()[index].fingerprint;
        if expected == "?" {
            continue;
        }
        let value = build(index);
        let text = canonical(&value);
        let found = smallscope::heap::canonical_fingerprint(&text);
        let built = described(index);
        assert!(found == expected, "structure {index}: {text}, by {built}");
        check(index, &value, &built);
    }
}
"#;

/// How a table file's `build` makes a row: from the rows it takes.
const BUILD: &str = r#"
fn build(index: usize) -> Tested {
    let row = &rows()[index];
    let inputs = row.inputs.iter().map(|&i| build(i)).collect();
    make(row.call, inputs)
}
"#;

/// [`BUILD`] for an API that hands out handles: each row's structure comes
/// with the handles its calls returned, by row, for later rows to take.
const BUILD_WITH_HANDLES: &str = r#"
type Handle = std::rc::Rc<dyn std::any::Any>;

/// The next handle a call takes, of the type its parameter has.
fn next_handle<H: Clone + 'static>(taken: &mut std::vec::IntoIter<Handle>) -> H {
    let handle = taken.next().expect("a handle");
    let typed = handle.downcast_ref::<H>();
    typed.expect("a handle of the parameter's type").clone()
}

fn build_with_handles(index: usize) -> (Tested, Vec<(usize, Handle)>) {
    let row = &rows()[index];
    let mut made = Vec::new();
    let mut inputs = Vec::new();
    for &input in &row.inputs {
        let (value, handles) = build_with_handles(input);
        made.extend(handles);
        inputs.push(value);
    }
    let mut taken = Vec::new();
    for &source in &row.handles {
        let found = made.iter().rev().find(|(row, _)| *row == source);
        taken.push(found.expect("a handle an input returned").1.clone());
    }
    let (value, handle) = make(row.call, inputs, taken);
    made.extend(handle.map(|handle| (index, handle)));
    (value, made)
}

fn build(index: usize) -> Tested {
    build_with_handles(index).0
}
"#;

/// `make`'s case for `step`: the lines of a block that binds the
/// structures it takes, calls, and yields the structure made (with the
/// handle it returned, with `handles`); and the call as text.
fn make_arm(step: &Step, ops: &[OperationInfo], ty: &str, handles: bool) -> (Vec<String>, String) {
    let mut inputs = 0u32;
    let operands: Vec<Operand> = (step.args.iter())
        .map(|arg| match arg {
            StepArg::Structure(_) => {
                inputs += 1;
                Operand::Var(inputs - 1)
            }
            StepArg::Literal(literal) => Operand::Literal(literal.clone()),
            // Taken in order from the row's handles.
            StepArg::Handle(source) => Operand::Returned(*source),
        })
        .collect();
    let (binds, result) = match step.output {
        Output::Result => (Some(inputs), inputs),
        Output::Param(slot) => match operands[usize::from(slot)] {
            Operand::Var(v) => (None, v),
            Operand::Literal(_) | Operand::Returned(_) => unreachable!("a structure comes out of a structure slot"),
        },
    };
    let program = Program { calls: vec![Call { op: step.op, operands, binds }], result: Some(result) };
    let mut block: Vec<String> =
        (0..inputs).map(|v| format!("let mut s{v} = inputs.next().expect(\"an input\");")).collect();
    if !handles {
        block.extend(program.to_rust(ops, ty));
        block.push(format!("s{result}"));
        return (block, program.to_text(ops));
    }
    let taken = |_, by_ref: bool| format!("{}next_handle(&mut taken)", if by_ref { "&" } else { "" });
    let expr = program.call_rust(0, ops, ty, &taken);
    let op = &ops[usize::from(step.op)];
    let returns_handle = op.returns_handle.is_some() && matches!(step.output, Output::Param(_));
    block.push(match returns_handle {
        true => format!("let handle: Handle = std::rc::Rc::new({expr});"),
        false => statement(&program.calls[0], op, &expr, false),
    });
    let handle = if returns_handle { "Some(handle)" } else { "None" };
    block.push(format!("(s{result}, {handle})"));
    let text = program.call_text(0, ops, &|_, by_ref| format!("{}handle", if by_ref { "&" } else { "" }));
    let label = match binds {
        Some(v) => format!("s{v} = {text}"),
        None => text,
    };
    (block, label)
}

/// `text` as a raw string literal with enough `#`s.
fn raw_string(text: &str) -> String {
    let hashes = (0..).find(|&n| !text.contains(&format!("\"{}", "#".repeat(n)))).unwrap_or(0).max(1);
    let fence = "#".repeat(hashes);
    format!("r{fence}\"\n{text}\"{fence}")
}

/// The failure witnesses alone, one test each, failing until the bug is
/// fixed; `ignored` marks them `#[ignore]` so that `cargo test` passes.
pub fn rust_failing_tests(report: &BeapiReport, options: &RustTestOptions, ignored: bool) -> String {
    let mut out = header(
        report,
        options,
        "the failures BEAPI found in",
        "Each test replays a minimal witness and fails until the bug is fixed.",
    );
    write_witnesses(&mut out, report, options, &mut Vec::new(), ignored);
    out
}

/// A file's head: what it holds, how to regenerate it, and the lints it turns off.
fn header(report: &BeapiReport, options: &RustTestOptions, what: &str, each: &str) -> String {
    let mut out = String::new();
    writeln!(out, "//! Generated by smallscope: {what} `{}` at scope {}.", report.subject, report.scope).unwrap();
    writeln!(out, "//! {each}").unwrap();
    writeln!(out, "//! Regenerate with: {}", options.command).unwrap();
    out.push_str(super::GENERATED_ALLOWS);
    out
}

/// One test per failure group of `report`, replaying its witness.
fn write_witnesses(
    out: &mut String,
    report: &BeapiReport,
    options: &RustTestOptions,
    names: &mut Vec<String>,
    ignored: bool,
) {
    let ty = type_expr(&report.subject);
    for (index, failure) in report.failures.iter().enumerate() {
        let program = report.failure_program(index);
        let name = unique_name(names, format!("failure_{}", snake(&program, &report.operations)));
        let reason = failure.kind.to_string().replace('"', "'");
        writeln!(out, "\n/// smallscope found: {reason}").unwrap();
        writeln!(out, "#[test]").unwrap();
        out.push_str(&super::failing_test_ignore(failure.kind, ignored));
        writeln!(out, "fn {name}() {{").unwrap();
        // After a panic, the invariant too: where the call returns instead (an
        // overflow wraps without overflow checks), it is what fails.
        let after_panic = (failure.kind == FailureKind::Panic).then(|| program.last_mutated(&report.operations));
        let check = match (program.result.or(after_panic.flatten()), options.has_rep_ok) {
            (Some(broken), true) => Some(rep_ok_holds(&format!("s{broken}"))),
            _ => None,
        };
        let lines = program.to_rust(&report.operations, &ty).into_iter().chain(check);
        super::witness_body(out, failure.kind, super::hang_test_seconds(options.hang_seconds), lines);
        out.push_str("}\n");
    }
}

/// Asserts that the declared invariant holds on `var`. A failure prints
/// `assertion failed: smallscope::Subject::rep_ok(&s0) != Some(false)`
/// (`assert_ne!` would print `left: Some(false), right: Some(false)`), and
/// the line is short enough for rustfmt to keep it whole.
pub(crate) fn rep_ok_holds(var: &str) -> String {
    format!("assert!(smallscope::Subject::rep_ok(&{var}) != Some(false));")
}

/// `new_add_add_remove`: the calls, by name.
fn snake(program: &Program, ops: &[OperationInfo]) -> String {
    let names: Vec<&str> = program.calls.iter().map(|c| ops[usize::from(c.op)].name.as_str()).collect();
    let mut name = names.join("_");
    if name.len() > 60 {
        name.truncate(60);
        name = name.trim_end_matches('_').to_owned();
    }
    name
}

/// `built_by_new_add_add`, made unique by the structure index where needed.
fn test_name(program: &Program, ops: &[OperationInfo], index: usize) -> String {
    format!("structure_{index}_built_by_{}", snake(program, ops))
}

pub(super) fn unique_name(taken: &mut Vec<String>, name: String) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    taken.push(candidate.clone());
    candidate
}
