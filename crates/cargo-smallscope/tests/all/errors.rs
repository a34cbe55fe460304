//! What `cargo smallscope` says when it cannot run: one line that says
//! what to do, and exit code 2, before anything is built.

use crate::common;

use common::{cargo_smallscope, cargo_smallscope_with, Said};

fn refused(said: &Said, says: &str) {
    assert_eq!(said.code, 2, "{said:?}");
    assert_eq!(said.error_lines().len(), 1, "not one line: {said:?}");
    let line = said.error_lines()[0];
    assert!(line.starts_with("error: ") && line.contains(says), "{line:?} does not say {says:?}");
}

#[test]
fn outside_a_cargo_project_it_says_where_it_looked() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["beapi", "fixture-lru", "--scope", "2"][..], &["init"], &["list"]] {
        refused(&cargo_smallscope(dir.path(), args), "no Cargo.toml in");
    }
}

#[test]
fn before_init_it_says_to_run_init() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = smallscope_scratch_crate::copy_fixture("lru-graph", tmp.path());
    refused(&cargo_smallscope(&dir, &["beapi", "fixture-lru", "--scope", "2"]), "run `cargo smallscope init` first");
    refused(&cargo_smallscope(&dir, &["list"]), "run `cargo smallscope init` first");
}

/// A fresh `cargo new --lib` crate: `init` adds the dependency, from the
/// checkout `cargo-smallscope` was built from; before that, the other
/// commands say to run it.
#[test]
fn init_adds_the_smallscope_dependency_to_a_crate_without_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"plain\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n",
    )
    .unwrap();
    refused(&cargo_smallscope(dir.path(), &["list"]), "does not depend on smallscope: `cargo smallscope init` adds it");
    let said = cargo_smallscope(dir.path(), &["init"]);
    assert_eq!(said.code, 0, "{said:?}");
    assert!(said.stdout.contains("added the smallscope dependency to Cargo.toml"), "{said:?}");
    assert!(said.stdout.contains("created smallscope/Cargo.toml"), "{said:?}");
    let manifest: toml::Table = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap().parse().unwrap();
    let path = manifest["dependencies"]["smallscope"]["path"].as_str().unwrap();
    let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../smallscope").canonicalize().unwrap();
    assert_eq!(dir.path().join(path).canonicalize().unwrap(), checkout, "{path}");
    let again = cargo_smallscope(dir.path(), &["init"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(!again.stdout.contains("added"), "{again:?}");
}

#[test]
fn init_says_what_it_made_and_leaves_an_edited_file_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = smallscope_scratch_crate::copy_fixture("lru-graph", tmp.path());
    let first = cargo_smallscope(&dir, &["init"]);
    assert_eq!(first.code, 0, "{first:?}");
    for file in ["smallscope/Cargo.toml", "smallscope/src/main.rs", "smallscope/.gitignore"] {
        assert!(first.stdout.contains(&format!("created {file}")), "{first:?}");
    }
    let manifest = std::fs::read_to_string(dir.join("smallscope/Cargo.toml")).unwrap();
    assert!(manifest.contains("lru-graph = { path = \"..\" }") && manifest.contains("[workspace]"), "{manifest}");
    std::fs::write(dir.join("smallscope/src/main.rs"), "// mine\nfn main() {}\n").unwrap();
    let again = cargo_smallscope(&dir, &["init"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout.contains("up to date: smallscope/Cargo.toml"), "{again:?}");
    assert!(again.stdout.contains("kept smallscope/src/main.rs"), "{again:?}");
    assert_eq!(std::fs::read_to_string(dir.join("smallscope/src/main.rs")).unwrap(), "// mine\nfn main() {}\n");
}

#[test]
fn bad_commands_and_settings_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = smallscope_scratch_crate::copy_fixture("lru-graph", tmp.path());
    let run = ["beapi", "fixture-lru", "--scope", "2"];
    refused(&cargo_smallscope(&dir, &["frobnicate", "x"]), "no command `frobnicate`");
    refused(
        &cargo_smallscope(&dir, &["beapi", "fixture-lru", "--scope", "2", "--failing-tests", "maybe"]),
        "failing-tests",
    );
    refused(&cargo_smallscope_with(&dir, &run, &[("SMALLSCOPE_SCOP", "3")]), "SMALLSCOPE_SCOP is not a setting");

    std::fs::write(dir.join("smallscope.toml"), "scop = 3\n").unwrap();
    refused(&cargo_smallscope(&dir, &run), "smallscope.toml: `scop` is not a setting");
    std::fs::write(dir.join("smallscope.toml"), "[beapi]\nseed = 3\n").unwrap();
    refused(&cargo_smallscope(&dir, &run), "smallscope.toml [beapi]: `seed` is not a setting of beapi");
    std::fs::write(dir.join("smallscope.toml"), "[subjects.fixture-lru.beapy]\nscope = 3\n").unwrap();
    refused(&cargo_smallscope(&dir, &run), "no engine `beapy`");
    std::fs::write(dir.join("smallscope.toml"), "scope = [\n").unwrap();
    refused(&cargo_smallscope(&dir, &run), "smallscope.toml");
}

/// Every setting is on the one page that documents them.
#[test]
fn docs_configuration_lists_every_setting() {
    let page = std::fs::read_to_string(smallscope_scratch_crate::workspace().join("docs/configuration.md")).unwrap();
    let table = cargo_smallscope::settings_markdown();
    assert!(
        page.contains(&table),
        "docs/configuration.md is out of date: put the output of `cargo run -p cargo-smallscope -- smallscope \
         settings --markdown` in it"
    );
}
