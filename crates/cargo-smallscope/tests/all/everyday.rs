//! `cargo smallscope` on a new user's crate, `fixtures/everyday` (outside
//! the workspace, written the way people write Rust): a `Vec<u8>` multiset,
//! a `BTreeMap` trie, a `Vec` of ranges, an index-linked list with a free
//! list and generations, and a heap with a `HashMap` position map, each
//! with one bug planted in a method no builder needs.
//!
//! With no option but the scope, BEAPI ends by itself, exits 1, names the
//! operations it checked, finds every bug with a minimal witness, and
//! counts what an independent model search (`models/`) counts; an
//! overflow is a panic, as under `cargo test` (a sixth type, `shelf`); more
//! builders never give fewer structures; and the tests it writes compile
//! and pass in the user's crate, the witnesses failing until fixed.

use crate::common;
use crate::models;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{cargo_smallscope, initialized, summary};
use smallscope_scratch_crate::ScratchCrate;

/// One structure of the crate, and what its model says.
struct Case {
    subject: &'static str,
    /// The method with the planted bug.
    buggy: &'static str,
    structures: usize,
    shortest_bug: usize,
}

fn cases() -> [Case; 5] {
    let scope = 3;
    [
        Case {
            subject: "sorted-multiset",
            buggy: "remove_one",
            structures: models::multiset::structures(scope),
            shortest_bug: models::multiset::shortest_bug(scope),
        },
        Case {
            subject: "byte-trie",
            buggy: "remove",
            structures: models::trie::structures(scope),
            shortest_bug: models::trie::shortest_bug(scope),
        },
        Case {
            subject: "range-set",
            buggy: "remove",
            structures: models::ranges::structures(scope),
            shortest_bug: models::ranges::shortest_bug(scope),
        },
        Case {
            subject: "slot-list",
            buggy: "pop_front",
            structures: models::slot_list::structures(scope),
            shortest_bug: models::slot_list::shortest_bug(scope),
        },
        Case {
            subject: "indexed-heap",
            buggy: "pop_min",
            structures: models::indexed_heap::structures(scope),
            shortest_bug: models::indexed_heap::shortest_bug(scope),
        },
    ]
}

/// The canonical forms of the structures in a run's `structures.jsonl`.
fn canonical_forms(out: &Path) -> BTreeSet<String> {
    let lines = std::fs::read_to_string(out.join("structures.jsonl")).unwrap();
    lines
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|structure| structure["variant"] != true)
        .map(|structure| structure["canonical"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn defaults_find_every_planted_bug_and_count_what_a_model_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = initialized("everyday", tmp.path());
    // Builds the harness, so that the runs below are timed alone.
    let listed = cargo_smallscope(&dir, &["list"]);
    assert_eq!(listed.code, 0, "{listed:?}");

    let mut witnesses = 0;
    for case in cases() {
        let started = Instant::now();
        let run = cargo_smallscope(&dir, &["beapi", case.subject, "--scope", "3"]);
        let took = started.elapsed();
        assert_eq!(run.code, 1, "{}: failures found: {run:?}", case.subject);
        assert!(took < Duration::from_secs(60), "{}: {took:?}", case.subject);
        let found = summary(case.subject, "beapi");
        assert_eq!(found["structures"], case.structures, "{}: the model's count", case.subject);
        assert_eq!(found["stop"], "complete", "{}", case.subject);
        // The console names the operations it checked, the buggy one among them.
        let line = run.stdout.lines().find(|l| l.starts_with("checked on every structure: ")).unwrap_or_default();
        assert!(line.contains(&format!("{} (", case.buggy)), "{}: {}", case.subject, run.stdout);
        let checked: Vec<&str> = found["checked"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert!(checked.contains(&case.buggy), "{}: {checked:?}", case.subject);
        // The bug, with a witness as short as the model's shortest.
        let groups = found["failure_groups"].as_array().unwrap();
        let shortest = (groups.iter())
            .filter(|group| group["operation"] == case.buggy)
            .map(|group| group["witness"]["calls"].as_u64().unwrap())
            .min();
        assert_eq!(shortest, Some(case.shortest_bug as u64), "{}: {groups:#?}", case.subject);
        assert!(run.stdout.contains(&format!("replay: cargo smallscope beapi {} --scope 3", case.subject)));
        witnesses += groups.len() as u64;
    }

    // The harness builds the crate as `cargo test` does: an overflow is the
    // panic it is there, not a wrapped count that `rep_ok` later rejects.
    let shelf = cargo_smallscope(&dir, &["beapi", "shelf", "--scope", "3"]);
    assert_eq!(shelf.code, 1, "{shelf:?}");
    // Every list of at most 3 counts (items 0..3), each count 0..=3.
    let lists: u64 = (0..=3).map(|len| 4u64.pow(len)).sum();
    assert_eq!(summary("shelf", "beapi")["structures"], lists);
    let groups = summary("shelf", "beapi")["failure_groups"].as_array().unwrap().clone();
    let overflow = groups.iter().find(|group| group["operation"] == "take").expect("a failure in take");
    assert_eq!(overflow["kind"], "panic", "{groups:#?}");
    assert!(overflow["message"].as_str().unwrap().contains("attempt to subtract with overflow"), "{groups:#?}");
    assert_eq!(overflow["witness"]["calls"], 3, "new, stock(1), take(0): {groups:#?}");
    witnesses += groups.len() as u64;

    // The tests written for each subject compile and pass in the user's
    // crate; each witness fails until its bug is fixed.
    let krate = ScratchCrate::open(&dir);
    let passing = krate.cargo_test(&[]);
    assert!(passing.success, "{}", passing.text);
    for subject in cases().iter().map(|case| case.subject).chain(["shelf"]) {
        let file = format!("smallscope_{}", subject.replace('-', "_"));
        let failing = krate.cargo_test_file_with(&file, &["--ignored"]);
        let groups = summary(subject, "beapi")["failure_groups"].as_array().unwrap().len() as u64;
        assert_eq!(failing.failed(), groups, "{}", failing.text);
        witnesses -= groups;
    }
    assert_eq!(witnesses, 0);

    // Field coverage sees inside collections: a field-exhaustive suite of
    // the `Vec`-backed multiset and of the `BTreeMap` trie keeps fewer
    // structures than BEAPI makes, and names every field it counts.
    for (subject, fields) in [("sorted-multiset", ["SortedMultiset.items"]), ("byte-trie", ["TrieNode.children"])] {
        let run =
            cargo_smallscope(&dir, &["suite", subject, "--engine", "beapi", "--criterion", "fet", "--scope", "3"]);
        assert_eq!(run.code, 0, "{subject}: {run:?}");
        let suite = summary(subject, "suite");
        let (kept, seen) = (suite["suite_size"].as_u64().unwrap(), suite["structures_seen"].as_u64().unwrap());
        assert!(kept < seen, "{subject}: the suite keeps {kept} of {seen}");
        let sizes = suite["field_sizes"].as_object().unwrap();
        assert!(fields.iter().all(|f| sizes.contains_key(*f)), "{subject}: {sizes:?}");
        assert!(sizes.keys().all(|f| !f.contains('?') && !f.contains("unnamed")), "{subject}: {sizes:?}");
        eprintln!("{subject}: fet keeps {kept} of {seen} structures");
    }

    // More builders never give fewer structures: from the builders each run
    // chose, through half of the rest, to the whole API; each set counts
    // what the model counts, since the first is sufficient.
    for case in cases() {
        let chosen: Vec<String> = serde_json::from_value(summary(case.subject, "beapi")["builders"].clone()).unwrap();
        let all: Vec<String> = serde_json::from_value(
            summary(case.subject, "beapi")["operations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|op| op["name"].clone())
                .collect(),
        )
        .unwrap();
        let rest: Vec<&String> = all.iter().filter(|op| !chosen.contains(op)).collect();
        let half: Vec<String> =
            chosen.iter().cloned().chain(rest[..rest.len() / 2].iter().map(|s| s.to_string())).collect();
        let mut before = BTreeSet::new();
        for (k, builders) in [chosen.join(","), half.join(","), "all".to_owned()].iter().enumerate() {
            let out = format!("monotone/{}/{k}", case.subject);
            let args =
                ["beapi", case.subject, "--scope", "3", "--builders", builders, "--check", "none", "--out", &out];
            let run = cargo_smallscope(&dir, &args);
            // 1 once the buggy method builds: its failures are found then.
            assert!(run.code == 0 || run.code == 1, "{}: {builders}: {run:?}", case.subject);
            let forms = canonical_forms(&dir.join(&out));
            assert_eq!(forms.len(), case.structures, "{}: {builders}", case.subject);
            assert!(before.is_subset(&forms), "{}: {builders} lost structures", case.subject);
            before = forms;
        }
    }
}
