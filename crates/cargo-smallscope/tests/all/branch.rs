//! `cargo smallscope branch`: branch-directed generation on a user's crate.
//! Random runs first, then the sequences that reached each branch it left
//! half-taken are changed until the other side is taken.

use std::path::Path;

use crate::common;

use common::{cargo_smallscope, initialized, summary, target_dir};

/// The frontier branches a correct crate has inputs for (a call reached
/// them, not the invariant's, not a side that only panics), and those flipped.
fn expected_and_flipped(branching: &serde_json::Value) -> (Vec<&serde_json::Value>, Vec<&serde_json::Value>) {
    let tried = branching["branches"].as_array().expect("the branches tried");
    let expected: Vec<&serde_json::Value> = tried
        .iter()
        .filter(|t| t["witnesses"].as_u64() > Some(0) && t["invariant"] == false && t["branch"]["to_panic"] == false)
        .collect();
    let flipped = expected.iter().copied().filter(|t| !t["flip"].is_null()).collect();
    (expected, flipped)
}

/// With its defaults, `branch` on `fixtures/branchy` (a magic key, a
/// checksum no call returns, a 500-line page: branches plain random testing
/// does not take, see `coverage.rs`) flips at least 80% of the frontier,
/// each flip confirmed in a fresh worker, and finds the bug behind the key
/// with its two-call witness, in under 30 s.
#[test]
fn branch_flips_the_rare_branches_and_finds_the_bug_behind_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = initialized("branchy", tmp.path());
    let said = cargo_smallscope(&dir, &["branch", "branchy"]);
    // Exit status 1: a failure was found.
    assert_eq!(said.code, 1, "{said:?}");
    let summary = summary("branchy", "branch");
    // The run's own clock: from the harness's start (after its build, which
    // other tests sharing the target folder may make again) to the run's end.
    let seconds = summary["wall_seconds"].as_f64().unwrap();
    assert!(seconds < 30.0, "{seconds} s");

    let groups = summary["failure_groups"].as_array().unwrap();
    let bug = groups.iter().find(|g| g["operation"] == "admin").unwrap_or_else(|| panic!("{summary:#}"));
    assert_eq!(bug["kind"], "panic", "{bug:#}");
    assert_eq!(bug["witness"]["text"], "s0 = new(); s0.admin(7919)", "{bug:#}");

    let branching = &summary["branching"];
    let (expected, flipped) = expected_and_flipped(branching);
    assert!(expected.len() >= 5 && flipped.len() * 5 >= expected.len() * 4, "{branching:#}");
    // The three rare conditions, found in the source, are flipped.
    let source = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let line_of = |code: &str| 1 + source.lines().position(|line| line.contains(code)).expect(code) as u64;
    for code in ["match usize::from(len).cmp(&PAGE)", "if code == self.stamp", "if key == MASTER_KEY"] {
        let line = line_of(code);
        assert!(flipped.iter().any(|t| t["branch"]["at"]["line"] == line), "{code}: {branching:#}");
    }
    // The full page, which only the exact length takes.
    let texts: Vec<&str> = flipped.iter().map(|t| t["flip"]["witness"]["text"].as_str().unwrap()).collect();
    assert!(texts.contains(&"s0 = new(); s0.statement(500)"), "{texts:?}");
    for tried in branching["branches"].as_array().unwrap().iter().filter(|t| !t["flip"].is_null()) {
        assert_eq!(tried["flip"]["confirmed"], true, "{tried:#}");
    }
    // Edges before and after: the phase took new ones, and the run's count is the after.
    let (before, after) = (branching["edges_before"].as_u64().unwrap(), branching["edges_after"].as_u64().unwrap());
    assert!(after > before, "{branching:#}");
    assert_eq!(summary["edges_covered"].as_u64(), Some(after), "{summary:#}");
    assert!(said.stdout.contains(&format!("edges: {before} before the phase, {after} after")), "{}", said.stdout);

    let out = target_dir().join("smallscope/branchy/branch");
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    let section = &report[report.find("id=\"branching\"").expect("a branch phase section")..];
    assert!(section.contains("statement(500)") && report.contains("after the branch phase"), "{section}");
    // The flips are regression tests too.
    let tests = std::fs::read_to_string(dir.join("tests/smallscope_branchy/branch.rs")).unwrap();
    assert!(tests.contains(".statement(500)") && tests.contains(".audit(5381)"), "{tests}");
}

/// A copy of `crates/smallscope-subjects` in `tmp` as a user's crate, with
/// `cargo smallscope init` run in it.
fn subjects_crate(tmp: &Path) -> std::path::PathBuf {
    let workspace = smallscope_scratch_crate::workspace();
    let root = tmp.join("subjects");
    smallscope_scratch_crate::copy_folder(&workspace.join("crates/smallscope-subjects/src"), &root.join("src"));
    let manifest = format!(
        "[package]\nname = \"smallscope-subjects\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n\
         smallscope = {{ path = \"{}\" }}\ninventory = \"0.3\"\n",
        workspace.join("crates/smallscope").display()
    );
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    let said = cargo_smallscope(&root, &["init"]);
    assert_eq!(said.code, 0, "{said:?}");
    std::fs::copy(root.join("Cargo.lock"), root.join("smallscope/Cargo.lock")).unwrap();
    root
}

/// On the built-in subjects, through a harness of their crate, every flip
/// `branch` reports was run again from scratch in a fresh worker and took
/// the side it claims.
#[test]
fn branch_confirms_every_flip_on_the_builtin_subjects() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = subjects_crate(tmp.path());
    let mut flips = 0;
    for subject in ["rbt", "lits"] {
        let out = format!("out-{subject}");
        let said = cargo_smallscope(&dir, &["branch", subject, "--sequences", "20000", "--out", &out]);
        assert!(said.code == 0 || said.code == 1, "{said:?}");
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&out).join("summary.json")).unwrap()).unwrap();
        let tried = summary["branching"]["branches"].as_array().unwrap_or_else(|| panic!("{summary:#}"));
        for flip in tried.iter().map(|t| &t["flip"]).filter(|f| !f.is_null()) {
            assert_eq!(flip["confirmed"], true, "{subject}: {flip:#}");
            flips += 1;
        }
        assert!(!said.stdout.contains("NOT confirmed"), "{}", said.stdout);
    }
    // Not a vacuous check: these subjects have branches the phase flips.
    assert!(flips >= 2, "{flips} flips");
}
