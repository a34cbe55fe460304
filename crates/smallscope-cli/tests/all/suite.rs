//! `smallscope suite`: field extensions checked against a brute force
//! written here, the JSON a user scripts against, what the run says when an
//! engine ends before a prediction, and the structure of the plot.

use crate::common;

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;

use common::{catalan, refused, refused_in_one_line, smallscope, stderr, stdout};
use smallscope_cli::SuiteSummary;

/// Runs `suite` with `args` (and `--format json`) and reads its summary.
fn suite(args: &[&str], dir: &Path) -> SuiteSummary {
    let mut all = vec!["suite"];
    all.extend_from_slice(args);
    all.extend(["--format", "json"]);
    let output = smallscope(&all, dir);
    assert_eq!(output.status.code(), Some(0), "{all:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&output)))
}

/// A binary tree shape: each node's left and right child, by index; node 0 is the root.
type Shape = Vec<(Option<usize>, Option<usize>)>;

/// Every shape with `n` nodes, built recursively: a root, a left subtree of
/// `l` nodes, a right one of `n - 1 - l`.
fn shapes(n: usize) -> Vec<Shape> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for l in 0..n {
        for left in shapes(l) {
            for right in shapes(n - 1 - l) {
                let mut shape: Shape = vec![(None, None)];
                let graft = |shape: &mut Shape, sub: &Shape| -> Option<usize> {
                    let base = shape.len();
                    shape.extend(sub.iter().map(|(a, b)| (a.map(|a| a + base), b.map(|b| b + base))));
                    (!sub.is_empty()).then_some(base)
                };
                let l_root = graft(&mut shape, &left);
                let r_root = graft(&mut shape, &right);
                shape[0] = (l_root, r_root);
                all.push(shape);
            }
        }
    }
    all
}

/// The (node, child) pairs of `left` and `right` over every tree of 1 to
/// `n` nodes, nodes numbered breadth-first from the root, left before right.
fn brute_force_pairs(n: usize) -> (usize, usize) {
    let (mut left, mut right) = (BTreeSet::new(), BTreeSet::new());
    for size in 1..=n {
        for shape in shapes(size) {
            let mut number = vec![usize::MAX; size];
            let mut queue = VecDeque::from([0]);
            let mut next = 0;
            number[0] = 0;
            while let Some(node) = queue.pop_front() {
                let (l, r) = shape[node];
                for child in [l, r].into_iter().flatten() {
                    next += 1;
                    number[child] = next;
                    queue.push_back(child);
                }
            }
            for (node, &(l, r)) in shape.iter().enumerate() {
                left.insert((number[node], l.map(|c| number[c])));
                right.insert((number[node], r.map(|c| number[c])));
            }
        }
    }
    (left.len(), right.len())
}

#[test]
fn binary_tree_field_sizes_equal_a_brute_force_over_every_shape() {
    let dir = tempfile::tempdir().unwrap();
    // Scope 1: n0 with null children. Scope 2: also n0 → n1, n1 → null.
    assert_eq!(brute_force_pairs(1), (1, 1));
    assert_eq!(brute_force_pairs(2), (3, 3));
    for n in 1..=8u32 {
        let scope = n.to_string();
        let summary = suite(&["binary-tree", "--engine", "korat", "--criterion", "fet", "--scope", &scope], dir.path());
        let (left, right) = brute_force_pairs(n as usize);
        assert_eq!(summary.field_sizes["Node.left"], left, "scope {n}");
        assert_eq!(summary.field_sizes["Node.right"], right, "scope {n}");
        assert_eq!(summary.field_sizes["BinaryTree.root"], 1);
        assert_eq!(summary.field_sizes["BinaryTree.size"], n as usize);
        // Every tree of 1 to n nodes was offered: the sum of Catalan numbers.
        assert_eq!(summary.structures_seen, (1..=u64::from(n)).map(catalan).sum::<u64>());
        assert_eq!(summary.stopped_by.name(), "exhausted");
        // Each kept tree added a pair, and the first tree of each size a `size` value.
        let pairs: usize = summary.field_sizes.values().sum();
        assert!(summary.suite_size as usize <= pairs && summary.suite_size >= u64::from(n), "{summary:?}");
    }
}

#[test]
fn size_transcoping_stops_at_its_prediction_and_the_json_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["search-tree", "--engine", "korat", "--criterion", "fbt-a", "--scope", "7"];
    let output = smallscope(&[&["suite"][..], &args, &["--format", "json"]].concat(), dir.path());
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    for key in [
        "subject",
        "engine",
        "criterion",
        "scope",
        "suite_size",
        "seconds",
        "stopped_by",
        "field_sizes",
        "predicted_sizes",
    ] {
        assert!(json.get(key).is_some(), "no `{key}` in {json}");
    }
    assert_eq!(json["criterion"], "fbt-a");
    let summary: SuiteSummary = serde_json::from_value(json).unwrap();
    assert_eq!(summary.stopped_by.name(), "predicted-sizes");
    let predicted = summary.predicted_sizes.as_ref().unwrap();
    for (field, want) in predicted {
        assert!(summary.field_sizes[field] >= *want, "{field}: {summary:?}");
    }
    // It stopped before the search-trees of 7 nodes were all seen.
    assert!(summary.structures_seen < (1..=7).map(catalan).sum::<u64>(), "{summary:?}");
    // The small scopes are complete FET runs: scope 1 is one node.
    assert_eq!(summary.scopes[0].field_sizes["Node.left"], 1);
    assert_eq!(summary.small_scope, Some(5));
    // The same run keeps the same suite.
    let again = suite(&args, dir.path());
    assert_eq!((again.suite_size, again.field_sizes), (summary.suite_size, summary.field_sizes));
}

/// The red-black tree's colours grow slower than a parabola predicts: the
/// engine ends first, and the run says which fields fell short.
#[test]
fn an_engine_that_ends_before_the_prediction_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(
        &["suite", "red-black-tree", "--engine", "korat", "--criterion", "fbt-q", "--scope", "7"],
        dir.path(),
    );
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(text.contains("stopped by exhausted"), "{text}");
    assert!(text.contains("short of the predicted"), "{text}");
    assert!(text.contains("replay: smallscope suite red-black-tree --engine korat --criterion fbt-q --scope 7"));
}

#[test]
fn time_transcoping_predicts_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let summary = suite(&["binary-tree", "--engine", "korat", "--criterion", "time-a", "--scope", "7"], dir.path());
    assert!(summary.predicted_seconds.is_some_and(|s| s >= 0.0), "{summary:?}");
    assert!(summary.predicted_sizes.is_none());
    assert!(["predicted-time", "exhausted"].contains(&summary.stopped_by.name()), "{summary:?}");
    assert!(summary.suite_size >= 1);
}

/// BEAPI: each small scope a run of its own; the kept structures are tests.
#[test]
fn beapi_suites_transcope_from_runs_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let summary = suite(&["bst", "--engine", "beapi", "--criterion", "fbt-l", "--scope", "6"], dir.path());
    let scopes: Vec<u32> = summary.scopes.iter().map(|m| m.scope).collect();
    assert_eq!(scopes, [1, 2, 3, 4, 5, 6], "the small scopes, then the target");
    // At scope k BEAPI's keys are 0..k and a tree holds at most k of them:
    // node i can hold any key, so Node.key has k² pairs.
    for measure in &summary.scopes[..5] {
        let k = measure.scope as usize;
        assert_eq!(measure.field_sizes["Node.key"], k * k, "{measure:?}");
    }
    assert!(summary.suite_size >= 1 && summary.structures_seen >= summary.suite_size);
    // The suite is the target run's: no larger than its field-exhaustive suite.
    let fet = suite(&["bst", "--engine", "beapi", "--criterion", "fet", "--scope", "6"], dir.path());
    assert!(summary.suite_size <= fet.suite_size, "{} > {}", summary.suite_size, fet.suite_size);
    assert_eq!(summary.suite_size as usize, summary.scopes[5].suite_size as usize);
    // The built-in binary has no coverage: the suite measures no edges.
    assert_eq!(summary.edges, None);
}

#[test]
fn bad_input_is_refused_in_one_line() {
    // clap's own message, with its usage hint, names the criteria known.
    let message = refused(&["suite", "binary-tree", "--engine", "korat", "--criterion", "fbt-x", "--scope", "3"]);
    assert!(message.contains("fbt-a"), "{message}");
    refused_in_one_line(&["suite", "binary-tree", "--engine", "korat", "--scope", "0"]);
    refused_in_one_line(&["suite", "no-such", "--engine", "korat", "--scope", "3"]);
    refused_in_one_line(&["suite", "bst-bug", "--engine", "korat", "--scope", "3"]);
    refused_in_one_line(&["suite", "binary-tree", "--engine", "korat", "--scope", "3", "--builders", "all"]);
    // A check of the tests needs an API: this Korat model has none.
    refused_in_one_line(&["suite", "binary-tree", "--engine", "korat", "--scope", "3", "--check-with", "f"]);
}

/// The plot is an SVG whose structure is checked, not its pixels: a panel
/// per field with its axes, one line per policy, the points reached.
#[test]
fn the_field_plot_has_axes_a_series_per_policy_and_points() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = smallscope(
        &[
            "suite",
            "search-tree",
            "--engine",
            "korat",
            "--criterion",
            "fbt-a",
            "--scope",
            "7",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary: SuiteSummary =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    for file in ["field-sizes.svg", "report.html", "suite.jsonl"] {
        assert!(summary.files.contains(&file.to_owned()), "{file}: {:?}", summary.files);
    }
    let lines = std::fs::read_to_string(out.join("suite.jsonl")).unwrap();
    assert_eq!(lines.lines().count() as u64, summary.suite_size);

    let svg = std::fs::read_to_string(out.join("field-sizes.svg")).unwrap();
    let document = roxmltree::Document::parse(&svg).expect("the plot is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let texts: Vec<String> = document
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_owned())
        .collect();
    let count = |label: &str| texts.iter().filter(|t| *t == label).count();
    let fields = summary.field_sizes.len();
    assert_eq!(fields, 5, "root, size, left, right, info");
    for field in summary.field_sizes.keys() {
        assert_eq!(count(field), 1, "a panel titled {field}");
    }
    // Axes: each panel names both, and labels every scope.
    assert_eq!(count("scope"), fields);
    assert_eq!(count("pairs"), fields);
    for scope in 1..=7 {
        assert!(count(&scope.to_string()) >= fields, "scope {scope} labelled in every panel");
    }
    // One series per policy of the run's family, and the sizes reached, each
    // in its legend and drawn as a line of a point per scope.
    for label in ["reached", "fbt-l", "fbt-q", "fbt-a"] {
        assert_eq!(count(label), fields, "{label} in each legend");
    }
    let lines: Vec<roxmltree::Node> = document
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| n.attribute("points").is_some_and(|p| p.split_whitespace().count() >= 3))
        .collect();
    let mut strokes: Vec<&str> = lines.iter().filter_map(|n| n.attribute("stroke")).collect();
    strokes.sort();
    strokes.dedup();
    assert_eq!(strokes.len(), 4, "reached and three policies: {strokes:?}");
    for stroke in &strokes {
        let series = lines.iter().filter(|n| n.attribute("stroke") == Some(stroke)).count();
        assert_eq!(series, fields, "{stroke}: one line per panel");
    }
    // Policy lines run over every scope 1..=7; points mark what was reached.
    let points = document.descendants().filter(|n| n.has_tag_name("circle")).count();
    assert_eq!(points, fields * summary.scopes.len());
}

/// Ctrl-C keeps what was kept: the files are written, and the summary says
/// the suite was interrupted (not that the engine ended).
#[test]
fn ctrl_c_keeps_the_suite_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let args = ["suite", "binomial-heap", "--engine", "korat", "--scope", "9", "--out", out.to_str().unwrap()];
    let child = common::spawn(&args, dir.path());
    std::thread::sleep(std::time::Duration::from_secs(3));
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let summary: SuiteSummary =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary.stopped_by.name(), "interrupted");
    assert!(summary.suite_size >= 1, "{summary:?}");
    let lines = std::fs::read_to_string(out.join("suite.jsonl")).unwrap();
    assert_eq!(lines.lines().count() as u64, summary.suite_size);
    assert!(stdout(&output).contains("stopped by interrupted"), "{}", stdout(&output));
}

/// BEAPI meets small structures first, as Korat's null-first domains do: a
/// structure first built at level L (L calls) has at most L − 1 nodes (`new`,
/// then one node per `add`), and every level brings its largest trees.
#[test]
fn beapi_levels_come_in_ascending_size() {
    let dir = tempfile::tempdir().unwrap();
    let output =
        smallscope(&["beapi", "bst", "--scope", "5", "--builders", "new,add,remove", "--out", "out"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut largest_by_level: Vec<usize> = Vec::new();
    for line in std::fs::read_to_string(dir.path().join("out/structures.jsonl")).unwrap().lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let level = record["level"].as_u64().unwrap() as usize;
        let nodes = record["canonical"].as_str().unwrap().matches("Node#").count();
        assert!(nodes < level, "{nodes} nodes at level {level}: {record}");
        largest_by_level.resize(largest_by_level.len().max(level), 0);
        largest_by_level[level - 1] = largest_by_level[level - 1].max(nodes);
    }
    let expected: Vec<usize> = (0..largest_by_level.len()).collect();
    assert_eq!(largest_by_level, expected, "level L brings trees of L − 1 nodes");
}

/// A binary search tree read back from its canonical text: key, left, right.
#[derive(Debug)]
struct Tree {
    key: i64,
    children: [Option<Box<Tree>>; 2],
}

/// Reads `Node#i{key: k, left: …, right: …}` or `null` from the front of
/// `text`, leaving the rest.
fn read_node(text: &mut &str) -> Option<Box<Tree>> {
    if let Some(rest) = text.strip_prefix("null") {
        *text = rest;
        return None;
    }
    let open = text.find("{key: ").expect("a node");
    *text = &text[open + "{key: ".len()..];
    let end = text.find(',').unwrap();
    let key = text[..end].parse().unwrap();
    *text = text[end..].strip_prefix(", left: ").unwrap();
    let left = read_node(text);
    *text = text.strip_prefix(", right: ").unwrap();
    let right = read_node(text);
    *text = text.strip_prefix('}').unwrap();
    Some(Box::new(Tree { key, children: [left, right] }))
}

/// The field pairs of one `BinarySearchTree#0{root: …, size: n}`, with the
/// model's names: nodes numbered breadth-first from the root, left first.
fn bst_pairs(text: &str, pairs: &mut BTreeSet<(&'static str, usize, Option<i64>)>) {
    let mut rest = text.strip_prefix("BinarySearchTree#0{root: ").expect("a tree");
    let root = read_node(&mut rest);
    let size = rest.strip_prefix(", size: ").and_then(|r| r.strip_suffix('}')).unwrap().parse().unwrap();
    pairs.insert(("BstModel.size", 0, Some(size)));
    pairs.insert(("BstModel.root", 0, root.as_ref().map(|_| 0)));
    let mut queue: VecDeque<&Tree> = root.as_deref().into_iter().collect();
    let (mut number, mut next) = (0, 1);
    while let Some(node) = queue.pop_front() {
        pairs.insert(("BstNode.key", number, Some(node.key)));
        for (field, child) in ["BstNode.left", "BstNode.right"].into_iter().zip(&node.children) {
            let id = child.as_ref().map(|_| {
                next += 1;
                next as i64 - 1
            });
            pairs.insert((field, number, id));
            queue.extend(child.as_deref());
        }
        number += 1;
    }
}

/// A Korat suite of a model with an API becomes Rust tests: one per kept
/// structure, rebuilt by BEAPI's calls, and together they hold every field
/// pair the suite counted (read back from the tests' canonical texts here).
#[test]
fn korat_suites_become_tests_that_hold_the_suites_pairs() {
    let dir = tempfile::tempdir().unwrap();
    for criterion in ["fet", "fbt-a"] {
        let out = dir.path().join(criterion);
        let args =
            ["bst", "--engine", "korat", "--criterion", criterion, "--scope", "6", "--out", out.to_str().unwrap()];
        let summary = suite(&args, dir.path());
        let size = summary.suite_size;
        let note = format!("Rust tests rebuild {size} of the {size} kept structures");
        assert!(summary.notes.iter().any(|n| n.contains(&note)), "{:?}", summary.notes);
        for file in ["suite_tests.rs", "suite.jsonl"] {
            assert!(summary.files.contains(&file.to_owned()), "{file}: {:?}", summary.files);
        }
        let tests = std::fs::read_to_string(out.join("suite_tests.rs")).unwrap();
        let texts: Vec<&str> = tests
            .lines()
            .filter_map(|line| line.trim().strip_prefix("assert_eq!(canonical(&s"))
            .map(|line| line.split_once(", \"").unwrap().1.strip_suffix("\");").unwrap())
            .collect();
        assert_eq!(texts.len() as u64, size, "{tests}");
        let mut pairs = BTreeSet::new();
        for text in &texts {
            bst_pairs(text, &mut pairs);
        }
        for (field, &reached) in &summary.field_sizes {
            let held = pairs.iter().filter(|(f, _, _)| f == field).count();
            assert_eq!(held, reached, "{criterion}: {field}");
        }
    }
}
