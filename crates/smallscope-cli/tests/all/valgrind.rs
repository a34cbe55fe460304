//! Under valgrind the supervisor is slow and `/proc/self/exe` is valgrind's
//! own tool: an isolated run must still start its workers (this program)
//! and count right, not end at once with nothing found.

use crate::common;

use std::process::Command;

use common::*;

#[test]
fn an_isolated_korat_run_under_callgrind_counts_every_tree() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null", "-q"])
        .arg(env!("CARGO_BIN_EXE_smallscope"))
        .args(["korat", "binary-tree", "--scope", "8", "--format", "json"])
        .current_dir(dir.path())
        .output()
        .expect("valgrind is on the PATH (.ci/run installs it)");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(summary["structures"], catalan(8), "{summary:#}");
    assert_eq!(summary["stop"], "complete", "{summary:#}");
    assert_eq!(summary["restarts"], 0, "{summary:#}");
}
