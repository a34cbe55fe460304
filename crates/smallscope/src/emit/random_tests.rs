//! The two test files of a random run (thesis §7.2): failing tests, each of
//! which breaks a contract, and regression tests, which pin down what the
//! code returns today.
//!
//! Both are plain Rust, formatted as `rustfmt` would, and the same report
//! always gives the same bytes. Test names say what the test does, e.g.
//! `remove_after_two_adds_breaks_rep_ok`.

use std::fmt::Write as _;

use regex::Regex;

use super::rust_tests::unique_name;
use crate::api::OperationInfo;
use crate::events::FailureKind;
use crate::random::RandomReport;
use crate::sequence::Program;

/// How to head the files.
#[derive(Debug, Clone, Default)]
pub struct RandomTestOptions {
    /// The command that regenerates the files.
    pub command: String,
    /// The subject's name, for the header.
    pub subject: String,
    /// Mark the failing tests `#[ignore]`, so that `cargo test` passes and
    /// `cargo test -- --ignored` reproduces the failures.
    pub ignore_failing: bool,
    /// How long the test of a `hang` waits for its witness: the run's call
    /// timeout in seconds (`None`: the default one).
    pub hang_seconds: Option<u64>,
}

/// Longest statement kept on one line, as `rustfmt` leaves it (100 columns
/// less the indentation).
const MAX_STATEMENT: usize = 96;

/// The failing tests: one per failure group, each failing under `cargo test`
/// (or ignored, with [`RandomTestOptions::ignore_failing`]).
pub fn random_error_tests(report: &RandomReport, options: &RandomTestOptions) -> String {
    let how = match options.ignore_failing {
        false => "Each breaks a contract, so each fails under `cargo test` until the bug is fixed: one test",
        true => {
            "Each breaks a contract, so each fails until the bug is fixed; they are ignored, so run them with \
                 `cargo test -- --ignored`: one test"
        }
    };
    let hang_seconds = super::hang_test_seconds(options.hang_seconds);
    let mut out = header(
        report,
        options,
        &[
            "Failing tests",
            how,
            "per failure group (contract, last call, panic location), simplified. A test that ends the",
            "process (a stack overflow, an abort) is ignored: run it alone with `-- --ignored`. A hang fails",
            &format!("its test after {hang_seconds} s."),
        ],
    );
    let uses_hash = report.failure_groups.iter().any(|g| g.assertion.iter().any(|a| a.contains("hash_of(")));
    if uses_hash {
        out.push_str(
            "\nfn hash_of<T: std::hash::Hash>(value: &T) -> u64 {\n    use std::hash::Hasher as _;\n    \
             let mut hasher = std::hash::DefaultHasher::new();\n    value.hash(&mut hasher);\n    hasher.finish()\n}\n",
        );
    }
    let mut names = Vec::new();
    for group in &report.failure_groups {
        let program = crate::random::witness_program(group);
        // A panic breaks `no-panic`, a broken check its contract; a hang, a
        // crash or an abort is named as such.
        let contract = match (group.kind, group.contract.as_deref()) {
            (FailureKind::Panic, contract) => contract.unwrap_or("no-panic"),
            (FailureKind::Contract | FailureKind::RepOkFalse, Some(contract)) => contract,
            (kind, _) => kind.name(),
        };
        let verb = match group.kind {
            FailureKind::Panic if contract == "no-panic" => "panics".to_owned(),
            FailureKind::Panic | FailureKind::Contract | FailureKind::RepOkFalse => {
                format!("breaks_{}", contract.replace('-', "_"))
            }
            kind => format!("{}s", kind.name().replace('-', "_")),
        };
        let name = unique_name(&mut names, format!("{}_{verb}", describe(program, &report.operations)));
        let message = one_line(&group.message);
        let place = group.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        let operation = group.operation.as_deref().unwrap_or("?");
        writeln!(out, "\n/// `{contract}` after `{operation}`: {message}{place}.").unwrap();
        writeln!(
            out,
            "/// Found {} times; simplified from {} to {} calls.",
            group.count,
            group.shrink.map_or(program.calls.len(), |s| s.smallest),
            program.calls.len()
        )
        .unwrap();
        writeln!(out, "#[test]").unwrap();
        out.push_str(&super::failing_test_ignore(group.kind, options.ignore_failing));
        writeln!(out, "fn {name}() {{").unwrap();
        let lines = program.to_rust(&report.operations, "Subject").into_iter().chain(group.assertion.iter().cloned());
        super::witness_body(&mut out, group.kind, hang_seconds, lines);
        out.push_str("}\n");
    }
    out
}

/// The regression tests: each replays a legal sequence and checks the values
/// its calls returned when it was generated.
pub fn random_regression_tests(report: &RandomReport, options: &RandomTestOptions) -> String {
    let mut out = header(
        report,
        options,
        &[
            "Regression tests",
            "Each checks what the calls returned when it was generated, so each passes today and",
            "fails when that behaviour changes.",
        ],
    );
    let mut names = Vec::new();
    for test in &report.regression_tests {
        let observed: Vec<Option<String>> = test
            .observations
            .iter()
            .enumerate()
            .map(|(i, o)| o.clone().filter(|_| fits(&test.program, &report.operations, i, o.as_deref())))
            .collect();
        let generated = test.program.calls.len() - test.final_observers;
        let named = Program { calls: test.program.calls[..generated].to_vec(), result: None };
        let name = unique_name(&mut names, describe(&named, &report.operations));
        writeln!(out, "\n#[test]\nfn {name}() {{").unwrap();
        for line in test.program.to_rust_observed(&report.operations, "Subject", &observed) {
            writeln!(out, "    {line}").unwrap();
        }
        out.push_str("}\n");
    }
    out
}

/// Whether the assertion for call `index` fits on one line.
fn fits(program: &Program, ops: &[OperationInfo], index: usize, observed: Option<&str>) -> bool {
    let Some(value) = observed else { return false };
    let single = Program { calls: vec![program.calls[index].clone()], result: None };
    let line = single.to_rust_observed(ops, "Subject", &[Some(value.to_owned())]);
    line[0].len() <= MAX_STATEMENT
}

fn header(report: &RandomReport, options: &RandomTestOptions, what: &[&str]) -> String {
    let mut out = String::new();
    writeln!(out, "//! {} generated by smallscope's random testing of `{}`.", what[0], options.subject).unwrap();
    writeln!(out, "//!").unwrap();
    for line in &what[1..] {
        writeln!(out, "//! {line}").unwrap();
    }
    writeln!(out, "//!").unwrap();
    writeln!(out, "//! Regenerate with: {}", options.command).unwrap();
    out.push_str(super::GENERATED_ALLOWS);
    let (uses, alias) = imports(&report.subject);
    for line in uses {
        writeln!(out, "{line}").unwrap();
    }
    if !out.ends_with("\n\n") {
        out.push('\n');
    }
    writeln!(out, "type Subject = {alias};").unwrap();
    out
}

/// `use` lines and the type written with the imported names:
/// `a::b::List<a::c::Plain>` gives `use a::b::List;`, `use a::c::Plain;`
/// and `List<Plain>`. Two paths ending in the same name stay written out.
fn imports(type_name: &str) -> (Vec<String>, String) {
    let path = Regex::new(r"(?:[A-Za-z_][A-Za-z0-9_]*::)+[A-Za-z_][A-Za-z0-9_]*").expect("valid regex");
    let mut paths: Vec<&str> = path.find_iter(type_name).map(|m| m.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    let last = |p: &str| p.rsplit("::").next().unwrap_or(p).to_owned();
    let clash = |p: &str| paths.iter().filter(|q| last(q) == last(p)).count() > 1;
    let uses: Vec<String> = paths.iter().filter(|p| !clash(p)).map(|p| format!("use {p};")).collect();
    let alias = path
        .replace_all(type_name, |c: &regex::Captures| {
            let p = &c[0];
            if clash(p) {
                p.to_owned()
            } else {
                last(p)
            }
        })
        .into_owned();
    (uses, alias)
}

/// What a program does, as a name: `remove_after_two_adds`.
pub fn describe(program: &Program, ops: &[OperationInfo]) -> String {
    let names: Vec<&OperationInfo> = program.calls.iter().map(|c| &ops[usize::from(c.op)]).collect();
    let Some((last, before)) = names.split_last() else { return "nothing".into() };
    let before: Vec<&str> = before.iter().filter(|op| !op.is_constructor()).map(|op| op.name.as_str()).collect();
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for name in before {
        match runs.last_mut() {
            Some((n, count)) if *n == name => *count += 1,
            _ => runs.push((name, 1)),
        }
    }
    let counted = |(name, count): &(&str, usize)| match count {
        1 => name.to_string(),
        2 => format!("two_{}", plural(name)),
        3 => format!("three_{}", plural(name)),
        n => format!("{n}_{}", plural(name)),
    };
    let mut text = if runs.is_empty() {
        format!("{}_on_new", last.name)
    } else {
        format!("{}_after_{}", last.name, runs.iter().map(counted).collect::<Vec<_>>().join("_and_"))
    };
    if text.len() > 48 {
        text = format!("{}_after_{}_calls", last.name, program.calls.len() - 1);
    }
    text
}

/// An operation's name as a plural noun: `pushes`, `adds`, `copies`, `contains`.
fn plural(name: &str) -> String {
    let consonant_y = name.strip_suffix('y').filter(|stem| !stem.ends_with(['a', 'e', 'i', 'o', 'u', '_']));
    if let Some(stem) = consonant_y.filter(|stem| !stem.is_empty()) {
        format!("{stem}ies")
    } else if ["ss", "x", "z", "ch", "sh"].iter().any(|end| name.ends_with(end)) {
        format!("{name}es")
    } else if name.ends_with('s') {
        // A verb's third person (`contains`) reads as its own plural.
        name.to_owned()
    } else {
        format!("{name}s")
    }
}

/// A message on one line, without characters that end a doc comment early.
fn one_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or("").trim();
    let mut text: String = line.chars().take(120).collect();
    if text.ends_with('.') {
        text.pop();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_names_take_english_plurals() {
        let cases = [
            ("push", "pushes"),
            ("add", "adds"),
            ("remove_max", "remove_maxes"),
            ("touch", "touches"),
            ("copy", "copies"),
            ("destroy", "destroys"),
            ("contains", "contains"),
            ("press", "presses"),
            ("y", "ys"),
        ];
        for (name, expected) in cases {
            assert_eq!(plural(name), expected, "{name}");
        }
    }

    #[test]
    fn imports_shorten_paths_that_do_not_clash() {
        let (uses, alias) = imports("a::dll::List<a::dll::Correct>");
        assert_eq!(uses, ["use a::dll::Correct;", "use a::dll::List;"]);
        assert_eq!(alias, "List<Correct>");
        let (uses, alias) = imports("a::x::Node<b::y::Node>");
        assert!(uses.is_empty());
        assert_eq!(alias, "a::x::Node<b::y::Node>");
    }
}
