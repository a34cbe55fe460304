//! Speed work must not change what a run makes: for fixed scopes and seeds,
//! the structures, test files and counts are byte for byte those the engines
//! made before their hot paths were rewritten (issue 28). The digests below
//! were taken from the code of f5c45d1, before that work began; a change
//! that alters an output on purpose says so and takes new ones.

use std::path::Path;

use super::common::smallscope;

/// A run, the files it writes (relative to its folder), and their digests.
struct Golden {
    name: &'static str,
    args: &'static [&'static str],
    files: &'static [(&'static str, &'static str)],
    /// `explored`/`sequences`, `structures`, `failures` of the summary.
    counts: (u64, u64, u64),
}

const RUNS: &[Golden] = &[
    Golden {
        name: "bst",
        args: &["beapi", "bst", "--scope", "5", "--emit-tests", "bst_tests.rs"],
        files: &[("bst/structures.jsonl", "e08cea53b0a28a21"), ("bst_tests.rs", "e9245e3cbddb4de4")],
        counts: (941, 188, 0),
    },
    Golden {
        name: "ncl",
        args: &["beapi", "ncl", "--scope", "4", "--no-cache", "--emit-tests", "ncl_tests.rs"],
        files: &[("ncl/structures.jsonl", "d64ab9fce1102db9"), ("ncl_tests.rs", "c5a9ea3b1b7530eb")],
        counts: (561, 112, 0),
    },
    Golden {
        name: "rbtbug",
        args: &[
            "beapi",
            "rbt-bug-fixup",
            "--scope",
            "5",
            "--no-cache",
            "--emit-tests",
            "rbtbug_tests.rs",
            "--emit-failing-tests",
            "rbtbug_failing.rs",
        ],
        files: &[
            ("rbtbug/structures.jsonl", "03cf05a633d957ef"),
            ("rbtbug_tests.rs", "d4d27e937e474cc5"),
            ("rbtbug_failing.rs", "5a443b426490b783"),
        ],
        counts: (721, 72, 33),
    },
    Golden {
        name: "korat",
        args: &["korat", "binary-tree", "--scope", "6"],
        files: &[("korat/structures.jsonl", "e897fc2b26fb1cfe")],
        counts: (3653, 132, 0),
    },
    Golden {
        name: "dll",
        args: &[
            "random",
            "dll",
            "--seed",
            "3",
            "--sequences",
            "3000",
            "--emit-tests",
            "dll_tests.rs",
            "--emit-failing-tests",
            "dll_failing.rs",
        ],
        files: &[
            ("dll/regression_tests.rs", "2ddc9bbf65e8f8aa"),
            ("dll/error_tests.rs", "bc278e0d0bfbf7ba"),
            ("dll_tests.rs", "7efd9599c399ffe7"),
            ("dll_failing.rs", "c82d4e926e2615e3"),
        ],
        counts: (3000, 0, 0),
    },
    Golden {
        name: "dllbug",
        args: &[
            "random",
            "dll-bug-remove",
            "--seed",
            "5",
            "--sequences",
            "3000",
            "--emit-failing-tests",
            "dllbug_failing.rs",
        ],
        files: &[
            ("dllbug/regression_tests.rs", "79a0168112a62076"),
            ("dllbug/error_tests.rs", "3f778df431db8130"),
            ("dllbug_failing.rs", "b957340fcc80d546"),
        ],
        counts: (3000, 0, 0),
    },
];

fn digest(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    smallscope::heap::canonical_fingerprint(&text)[..16].to_owned()
}

fn count(summary: &serde_json::Value, keys: &[&str]) -> u64 {
    keys.iter().find_map(|k| summary[k].as_u64()).unwrap_or(0)
}

#[test]
fn fixed_runs_make_the_files_they_made_before() {
    let dir = tempfile::tempdir().unwrap();
    let mut wrong = Vec::new();
    for run in RUNS {
        let mut args = run.args.to_vec();
        args.extend(["--out", run.name, "--format", "json"]);
        let output = smallscope(&args, dir.path());
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}: {}", run.name, String::from_utf8_lossy(&output.stderr)));
        let counts = (
            count(&summary, &["explored", "sequences"]),
            count(&summary, &["structures"]),
            count(&summary, &["failures"]),
        );
        if counts != run.counts {
            wrong.push(format!("{}: counts {counts:?}, were {:?}", run.name, run.counts));
        }
        for (file, was) in run.files {
            let now = digest(&dir.path().join(file));
            if now != *was {
                wrong.push(format!("{file}: digest {now}, was {was}"));
            }
        }
    }
    assert!(wrong.is_empty(), "outputs changed:\n{}", wrong.join("\n"));
}
