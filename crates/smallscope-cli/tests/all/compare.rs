//! `smallscope compare`: exit codes, the JSON summary, and the pictures
//! `--out` writes. Runs the real binary.

use crate::common;

use common::*;
use std::process::Output;

fn json(output: &Output) -> serde_json::Value {
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 1, "one summary object: {text}");
    serde_json::from_str(&text).unwrap()
}

const NCL_BUILDERS: &str = "new,add,remove_first";

#[test]
fn roops_invariant_is_too_weak() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["compare", "ncl", "--scope", "3", "--invariant", "roops", "--builders", NCL_BUILDERS];
    let output = smallscope(&[&args[..], &["--format", "json"]].concat(), dir.path());
    assert_eq!(output.status.code(), Some(1), "the sets differ: {}", stderr(&output));
    let summary = json(&output);
    assert_eq!(summary["subject"], "ncl");
    assert_eq!(summary["engine"], "compare");
    assert_eq!(summary["scope"], 3);
    assert_eq!(summary["invariant"], "roops");
    assert_eq!(summary["verdict"], "invariant_too_weak");
    assert_eq!(summary["relation"], "SA ⊂ SR");
    assert_eq!(summary["only_api"], 0);
    assert_eq!(summary["both"], 18);
    assert_eq!(summary["api_structures"], 18);
    assert_eq!(summary["only_invariant"], 210);
    assert!(summary["seconds"].as_f64().unwrap() >= 0.0);
    let witnesses = summary["witnesses"]["only_invariant"].as_array().unwrap();
    assert_eq!(witnesses.len(), 3);
    let odd: Vec<&str> =
        witnesses.iter().flat_map(|w| w["odd_fields"].as_array().unwrap()).map(|f| f.as_str().unwrap()).collect();
    assert_eq!(odd, ["header.value = 0", "first_cache_node.value = 0", "header.previous.value = null"]);
    assert!(witnesses[1]["canonical"].as_str().unwrap().contains("first_cache_node: Node#2{value: 0"));
    assert!(summary["witnesses"]["only_api"].as_array().unwrap().is_empty());

    // The text report: counts, the verdict line, the witnesses.
    let output = smallscope(&args, dir.path());
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("SA ⊂ SR: the invariant may be too weak (210 structures only it admits)"), "{text}");
    assert!(text.contains("first_cache_node.value = 0"), "{text}");
}

#[test]
fn corrected_invariant_gives_equal_sets() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["compare", "ncl", "--scope", "3", "--invariant", "corrected", "--builders", NCL_BUILDERS];
    let output = smallscope(&[&args[..], &["--format", "json"]].concat(), dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary = json(&output);
    assert_eq!(summary["verdict"], "equal");
    assert_eq!((summary["only_api"].as_u64(), summary["only_invariant"].as_u64()), (Some(0), Some(0)));
    assert_eq!(summary["both"], 18);
    assert_eq!(summary["recheck_scope"], serde_json::Value::Null);
}

#[test]
fn out_writes_dot_and_svg_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pictures");
    let output = smallscope(
        &["compare", "rbt", "--scope", "3", "--builders", "new,add,remove", "--out", out.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("root.color = Red"), "the red-root witness: {text}");
    let dot = std::fs::read_to_string(out.join("witness-invariant-1.dot")).unwrap();
    assert!(dot.contains("digraph"), "{dot}");
    let svg = std::fs::read_to_string(out.join("witness-invariant-1.svg")).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{}", &svg[..svg.len().min(200)]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("comparison.json")).unwrap()).unwrap();
    assert_eq!(summary["engine"], "compare");
    let first = &summary["witnesses"]["only_invariant"][0];
    assert!(first["svg_file"].as_str().unwrap().ends_with("witness-invariant-1.svg"));
    assert!(first["canonical"].as_str().unwrap().contains("color: Red"));
}

#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["compare", "no-such-subject", "--scope", "3"][..],
        &["compare", "ncl", "--scope", "0"],
        &["compare", "ncl", "--scope", "3", "--invariant", "nonsense"],
        &["compare", "ncl", "--scope", "3", "--builders", "new,no_such_method"],
    ] {
        let output = smallscope(args, dir.path());
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?} should exit 2; stderr: {message}");
        assert!(message.starts_with("error"), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}

#[test]
fn list_shows_the_compare_engine() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["list"], dir.path());
    let text = String::from_utf8(output.stdout).unwrap();
    for name in ["ncl", "rbt"] {
        let line = text.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap();
        assert!(line.contains("compare"), "{line}");
    }
    // `suite` runs any subject an engine that makes structures runs, and no other.
    let engines = |name: &str| {
        let line = text.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap();
        line.split_whitespace().skip(1).map(|e| e.trim_end_matches(',').to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(engines("binary-tree"), ["korat", "suite"]);
    assert_eq!(engines("bst"), ["beapi", "random", "korat", "compare", "suite"]);
}
