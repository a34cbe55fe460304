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

    // A random run counts the edges it took, the same for the same seed.
    let covered = |out: &str, sequences: &str| {
        let said =
            cargo_smallscope(&dir, &["random", "fixture-lru", "--coverage", "--sequences", sequences, "--out", out]);
        assert_eq!(said.code, 0, "{said:?}");
        assert!(said.stdout.contains("coverage: "), "{}", said.stdout);
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(out).join("summary.json")).unwrap()).unwrap();
        assert_eq!(summary["edges_total"].as_u64(), Some(edges), "{summary:#}");
        summary["edges_covered"].as_u64().unwrap()
    };
    let few = covered("few", "300");
    assert!(few > 0 && few <= edges, "{few} of {edges}");
    assert_eq!(covered("again", "300"), few);
    let more = covered("more", "3000");
    assert!(few <= more && more < edges, "{few}, then {more} of {edges}: fixture-graph's code is not run");

    // Without --coverage, the harness is the plain one, and says nothing of edges.
    let plain = cargo_smallscope(&dir, &["random", "fixture-lru", "--sequences", "300", "--out", "plain"]);
    assert_eq!(plain.code, 0, "{plain:?}");
    let summary = std::fs::read_to_string(dir.join("plain/summary.json")).unwrap();
    assert!(!summary.contains("edges"), "{summary}");
}
