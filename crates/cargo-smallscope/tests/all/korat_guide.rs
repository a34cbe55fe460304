//! The Korat guide's example (`docs/korat.md`, `crates/smallscope-example/src/model.rs`)
//! in a crate of its own, run as the guide says: `cargo smallscope init`,
//! then `cargo smallscope korat` on the model whose check calls the buggy
//! `remove`. The bug is found, said on the console, shown in `report.html`
//! with the structure drawn, and the exit code says so.

use crate::common;

use common::{cargo_smallscope, summary, target_dir};
use smallscope_scratch_crate::ScratchCrate;

#[test]
fn the_guide_example_finds_the_planted_remove_bug_end_to_end() {
    let tmp = tempfile::tempdir().unwrap();
    let example = smallscope_scratch_crate::workspace().join("crates/smallscope-example/src");
    let scratch = ScratchCrate::new(tmp.path(), "sorted-set", &["smallscope"]);
    let lib = std::fs::read_to_string(example.join("lib.rs")).unwrap();
    // The README's doc tests are the workspace's, not this copy's.
    let lib = &lib[..lib.find("/// The README's examples").expect("the README doc test is last")];
    scratch.write_lib(lib);
    std::fs::copy(example.join("model.rs"), tmp.path().join("src/model.rs")).unwrap();

    let init = cargo_smallscope(tmp.path(), &["init"]);
    assert_eq!(init.code, 0, "{init:?}");
    std::fs::copy(tmp.path().join("Cargo.lock"), tmp.path().join("smallscope/Cargo.lock")).unwrap();

    let subject = "example-sorted-set-model-bug-remove";
    let run = cargo_smallscope(tmp.path(), &["korat", subject, "--scope", "3"]);
    assert_eq!(run.code, 1, "a bug was found: {run:?}");
    assert!(run.stdout.contains("failure 1: check_buggy broken: remove("), "{}", run.stdout);
    // Every set of 2 or 3 of the keys 0..=3 shows the bug: C(4,2) + C(4,3).
    let found = summary(subject, "korat");
    assert_eq!(found["structures"], 15, "2^4 - 1 sets");
    assert_eq!(found["failures"], 10, "{found}");
    let report =
        std::fs::read_to_string(target_dir().join("smallscope").join(subject).join("korat/report.html")).unwrap();
    assert!(report.contains("<h3>1. check_buggy broken</h3>"), "the report shows the finding");
    assert!(report.contains("remove(1) on [0, 1] returned true"), "the report says what the check saw");
    assert!(report.contains("<title>the structure it failed on</title>"), "the structure is drawn");
    assert!(report.contains("<figcaption>The structure it failed on</figcaption>"), "and said to be what failed");
    assert!(report.contains("<svg") && report.contains("NodeModel#0"), "the report draws the structure checked");

    // The correct `remove` passes the same check on every structure.
    let clean = cargo_smallscope(tmp.path(), &["korat", "example-sorted-set-model", "--scope", "3"]);
    assert_eq!(clean.code, 0, "{clean:?}");
    assert!(clean.stdout.contains("total: 15 structures"), "{}", clean.stdout);
}
