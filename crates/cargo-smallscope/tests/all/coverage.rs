//! `cargo smallscope --coverage` on a user's crate (`fixtures/lru-graph`):
//! the harness is built with SanitizerCoverage on that crate alone, and
//! the edges a run counts are the crate's own code, never smallscope's
//! engines or std instantiated in it.

use std::collections::BTreeMap;

use crate::common;

use common::{cargo_smallscope, initialized};

/// `coverage: N edges in the crate's code (M instrumented)` and the
/// `  FILE: K edges` lines under it.
fn listed_edges(stdout: &str) -> (u64, u64, BTreeMap<String, u64>) {
    let head = stdout.lines().find_map(|l| l.strip_prefix("coverage: ")).expect("list says the coverage");
    let numbers: Vec<u64> = head.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
    let files = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(" edges")?.rsplit_once(": "))
        .map(|(file, edges)| (file.to_owned(), edges.parse().unwrap()))
        .collect();
    (numbers[0], numbers[1], files)
}

#[test]
fn coverage_counts_the_crates_own_edges_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = initialized("lru-graph", tmp.path());

    let listed = cargo_smallscope(&dir, &["list", "--coverage"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    let (edges, instrumented, files) = listed_edges(&listed.stdout);
    // The crate's two modules have code; lib.rs only declares them.
    let src = dir.canonicalize().unwrap().join("src");
    let listed_files: Vec<_> = files.keys().map(|f| std::path::Path::new(f).canonicalize().unwrap()).collect();
    assert_eq!(listed_files, [src.join("graph.rs"), src.join("lru.rs")], "{}", listed.stdout);
    assert!(files.values().all(|&n| n > 0) && files.values().sum::<u64>() == edges, "{}", listed.stdout);
    // smallscope's engines and std, instantiated in the crate for its
    // types, were instrumented too, and are left out.
    assert!(instrumented > 10 * edges, "{}", listed.stdout);

    // A random run counts the edges it took, the same for the same seed,
    // and when they grew.
    let covered = |out: &str, sequences: &str| {
        let said =
            cargo_smallscope(&dir, &["random", "fixture-lru", "--coverage", "--sequences", sequences, "--out", out]);
        assert_eq!(said.code, 0, "{said:?}");
        assert!(said.stdout.contains("coverage: "), "{}", said.stdout);
        let summary = summary_in(&dir.join(out));
        assert_eq!(summary["edges_total"].as_u64(), Some(edges), "{summary:#}");
        let gains = gains(&summary);
        let covered = summary["edges_covered"].as_u64().unwrap();
        assert!(gains.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1), "{gains:?}");
        // Edges taken after the sequences (making regression tests, say) count, not as gains.
        assert!(gains.last().is_some_and(|g| g.1 <= covered), "{gains:?}");
        assert!(gains.last().unwrap().0 <= sequences.parse().unwrap(), "{gains:?}");
        let report = std::fs::read_to_string(dir.join(out).join("report.html")).unwrap();
        let section = &report[report.find("id=\"coverage\"").expect("a coverage section")..];
        assert!(section.contains("<svg") && section.contains(&format!("{covered} of the crate's {edges} edges")));
        let told = format!("the last new one at sequence {}", gains.last().unwrap().0);
        assert!(said.stdout.contains(&told) && section.contains(&told), "{}", said.stdout);
        (covered, gains)
    };
    let (few, gained) = covered("few", "300");
    assert!(few > 0 && few <= edges, "{few} of {edges}");
    assert_eq!(covered("again", "300"), (few, gained));
    let (more, _) = covered("more", "3000");
    assert!(few <= more && more < edges, "{few}, then {more} of {edges}: fixture-graph's code is not run");

    // Interrupted and resumed, a run ends as it would have: the journal
    // keeps the edges taken, so that the resumed run steers and counts as
    // the first one did.
    let run = ["random", "fixture-lru", "--coverage", "--sequences", "600000", "--out"];
    let whole = cargo_smallscope(&dir, &[&run[..], &["whole"]].concat());
    assert_eq!(whole.code, 0, "{whole:?}");
    let harness = common::harness_lock();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-smallscope"))
        .arg("smallscope")
        .args(run)
        .arg("cut")
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", common::target_dir())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let staged = dir.join("cut/.smallscope/events.ndjson");
    while !std::fs::read_to_string(&staged).is_ok_and(|events| events.contains("\"event\":\"progress\"")) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before its first commit");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    drop(harness);
    assert_eq!(summary_in(&dir.join("cut"))["stop"], "interrupted");
    let resumed = cargo_smallscope(&dir, &[&run[..], &["cut", "--resume"]].concat());
    assert_eq!(resumed.code, 0, "{resumed:?}");
    let (whole, cut) = (summary_in(&dir.join("whole")), summary_in(&dir.join("cut")));
    for key in ["edges_covered", "edges_over_time", "sequences", "stored", "redundant"] {
        assert_eq!(whole[key], cut[key], "{key}");
    }

    // A suite measures what its structures' calls reach of the crate: each
    // of the LRU's and the graph's edges is counted in the function and
    // file it is in, and a subject's calls reach its own file only.
    let lib = dir.canonicalize().unwrap().join("src");
    for (subject, own, other) in [("fixture-lru", "lru.rs", "graph.rs"), ("fixture-graph", "graph.rs", "lru.rs")] {
        let out = format!("suite-{subject}");
        let said = cargo_smallscope(
            &dir,
            &["suite", subject, "--engine", "beapi", "--scope", "3", "--coverage", "--out", &out],
        );
        assert_eq!(said.code, 0, "{said:?}");
        let summary = summary_in(&dir.join(&out));
        let measured = &summary["edges"];
        let count = |key: &str| measured[key].as_u64().unwrap_or_else(|| panic!("{key}: {summary:#}"));
        let (total, suite, every) = (count("total"), count("suite"), count("every_structure"));
        assert_eq!(total, edges, "{measured:#}");
        assert!(0 < suite && suite <= every && every < total, "{measured:#}");
        let functions = measured["functions"].as_array().unwrap();
        let field = |f: &serde_json::Value, key: &str| f[key].as_u64().unwrap();
        assert_eq!(functions.iter().map(|f| field(f, "edges")).sum::<u64>(), total, "{measured:#}");
        assert_eq!(functions.iter().map(|f| field(f, "suite")).sum::<u64>(), suite, "{measured:#}");
        assert_eq!(functions.iter().map(|f| field(f, "every_structure")).sum::<u64>(), every, "{measured:#}");
        for function in functions {
            assert!(field(function, "suite") <= field(function, "every_structure"), "{function}");
            assert!(field(function, "every_structure") <= field(function, "edges"), "{function}");
            let file = std::path::Path::new(function["file"].as_str().unwrap()).canonicalize().unwrap();
            assert!(file == lib.join(own) || file == lib.join(other), "{function}");
            if file == lib.join(other) {
                assert_eq!(field(function, "every_structure"), 0, "{subject} reached {function}");
            }
        }
        assert!(said.stdout.contains(&format!("edges: the suite's calls take {suite} of the crate's {total} edges")));
        let report = std::fs::read_to_string(dir.join(&out).join("report.html")).unwrap();
        let section = &report[report.find("id=\"suite-edges\"").expect("an edges section")..];
        assert!(section.contains(&format!("take {suite} of the crate's {total}")), "{section}");
        // The same suite measures the same edges.
        let again = cargo_smallscope(
            &dir,
            &["suite", subject, "--engine", "beapi", "--scope", "3", "--coverage", "--format", "json"],
        );
        let again: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
        assert_eq!(again["edges"]["functions"], measured["functions"]);
    }

    // Without --coverage, the harness is the plain one, and says nothing of edges.
    let plain = cargo_smallscope(&dir, &["random", "fixture-lru", "--sequences", "300", "--out", "plain"]);
    assert_eq!(plain.code, 0, "{plain:?}");
    let summary = std::fs::read_to_string(dir.join("plain/summary.json")).unwrap();
    assert!(!summary.contains("edges"), "{summary}");
}

fn summary_in(out: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

/// `edges_over_time` as (sequences, edges) pairs.
fn gains(summary: &serde_json::Value) -> Vec<(u64, u64)> {
    let gains = summary["edges_over_time"].as_array().expect("edges over time");
    gains.iter().map(|g| (g["sequences"].as_u64().unwrap(), g["edges"].as_u64().unwrap())).collect()
}

/// On `fixtures/branchy`, whose three rare branches (a magic key, a
/// checksum no call returns, a length of 500) random testing does not
/// take, a run with coverage names each as a branch of the frontier: a
/// side taken, a side not, and the side not taken is no panic.
#[test]
fn random_leaves_the_rare_branches_on_the_frontier() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = initialized("branchy", tmp.path());
    let said = cargo_smallscope(&dir, &["random", "branchy", "--coverage", "--sequences", "200000", "--out", "cov"]);
    assert_eq!(said.code, 0, "{said:?}");
    assert!(said.stdout.contains("frontier: "), "{}", said.stdout);
    let summary = summary_in(&dir.join("cov"));
    assert_eq!(summary["failure_groups"].as_array().unwrap().len(), 0, "{summary:#}");

    let source = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let line_of = |code: &str| 1 + source.lines().position(|line| line.contains(code)).expect(code) as u64;
    let lib = dir.canonicalize().unwrap().join("src/lib.rs");
    let frontier = summary["frontier"].as_array().expect("a frontier");
    let at = |branch: &serde_json::Value, key: &str| {
        let site = &branch[key];
        assert_eq!(std::path::Path::new(site["file"].as_str().unwrap()).canonicalize().unwrap(), lib, "{site}");
        site["line"].as_u64().unwrap()
    };
    for code in ["match usize::from(len).cmp(&PAGE)", "if code == self.stamp", "if key == MASTER_KEY"] {
        let line = line_of(code);
        let branch = frontier.iter().find(|b| at(b, "at") == line).unwrap_or_else(|| panic!("{code}: {summary:#}"));
        assert_eq!(branch["to_panic"], false, "{branch}");
        let missed: Vec<u64> =
            branch["missed"].as_array().unwrap().iter().map(|site| site["line"].as_u64().unwrap()).collect();
        assert!(missed.iter().all(|&m| m > line && m <= line + 3), "{code}: not taken {missed:?}");
    }
    let report = std::fs::read_to_string(dir.join("cov/report.html")).unwrap();
    assert!(report.contains("Frontier: branches with a side not taken"), "{report}");
}
