//! The README's first-crate section, pasted line by line into a fresh
//! `cargo new --lib` crate outside the workspace, reaches the bug its
//! `src/lib.rs` plants, and says it as the README shows.

use crate::common;

use std::path::Path;

use common::cargo_smallscope;

/// The section's shell commands (comments dropped), its `src/lib.rs`, and
/// the line it says the run prints.
fn first_crate_section() -> (Vec<String>, String, String) {
    let readme = include_str!("../../../../README.md");
    let section = &readme[readme.find("## Your own crate").expect("the README has a first-crate section")..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |end| end + 3)];
    let block = |fence: &str| {
        let body = &section[section.find(fence).unwrap_or_else(|| panic!("no {fence} block")) + fence.len()..];
        body[..body.find("```").expect("a closed block")].to_owned()
    };
    let commands = block("```sh\n")
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect();
    (commands, block("```rust\n"), block("```text\n").trim().to_owned())
}

#[test]
fn the_readme_first_crate_commands_find_the_bug_they_plant() {
    let (commands, lib, says) = first_crate_section();
    let tmp = tempfile::tempdir().unwrap();
    let mut dir = tmp.path().to_owned();
    let mut run = None;
    for part in commands.iter().flat_map(|command| command.split(" && ")) {
        let words: Vec<&str> = part.split_whitespace().collect();
        match words.as_slice() {
            // The cargo-smallscope this test runs is the one cargo built.
            ["cargo", "install", "--path", "crates/cargo-smallscope"] => {}
            ["cargo", "new", args @ ..] => {
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
                let status = std::process::Command::new(cargo).arg("new").args(args).current_dir(&dir).status();
                assert!(status.unwrap().success(), "{part}");
            }
            ["cd", to] => {
                dir = dir.join(to);
                std::fs::write(dir.join("src/lib.rs"), &lib).unwrap();
            }
            ["cargo", "smallscope", "init"] => {
                let said = cargo_smallscope(&dir, &["init"]);
                assert_eq!(said.code, 0, "{said:?}");
                // The workspace's versions, so that the harness shares the
                // other tests' build (a user's first build takes minutes).
                let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
                std::fs::copy(lock, dir.join("smallscope/Cargo.lock")).unwrap();
            }
            ["cargo", "smallscope", args @ ..] => run = Some(cargo_smallscope(&dir, args)),
            other => panic!("the README's first-crate section has a command this test does not know: {other:?}"),
        }
    }
    let run = run.expect("the section runs an engine");
    assert_eq!(run.code, 1, "a failure was found: {run:?}");
    let printed = format!("{}{}", run.stdout, run.stderr);
    let says = says.replace('…', tmp.path().to_str().unwrap());
    assert!(printed.contains(&says), "the README says\n{says}\nbut the run printed\n{printed}");
    let tests = std::fs::read_to_string(dir.join("tests/smallscope_bag/beapi_failing.rs")).unwrap();
    assert!(tests.contains(".median()"), "the witness is a test: {tests}");
}
