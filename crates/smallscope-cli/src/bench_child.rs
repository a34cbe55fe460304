//! A benchmark's runs in child processes: each has its memory measured
//! alone, and a runaway run cannot take the others down.

use std::process::Command;

use anyhow::{bail, Context as _};

use crate::summary::BeapiSummary;

/// What one child run reported.
pub(crate) struct Measured {
    pub seconds: f64,
    pub structures: u64,
    /// Levels that made new structures: the longest sequence needed.
    pub levels: u32,
    pub peak_bytes: Option<u64>,
    pub finished: bool,
}

/// A BEAPI run of `subject` at `scope` in a child process, under the
/// limits: generation alone (`--check none`), as the Java BEAPI measures it.
pub(crate) fn measure(
    subject: &str,
    scope: u32,
    extra: &[String],
    limit: f64,
    memory_mb: u64,
) -> anyhow::Result<Measured> {
    let mut args: Vec<String> =
        ["beapi", subject, "--scope", &scope.to_string(), "--format", "json", "--check", "none"]
            .into_iter()
            .chain(["--time-limit", &limit.to_string(), "--memory-limit-mb", &memory_mb.to_string()])
            .map(str::to_owned)
            .collect();
    args.extend_from_slice(extra);
    let summary: BeapiSummary = child_summary(&args, &[])?;
    Ok(Measured {
        seconds: summary.report.seconds,
        structures: summary.structures as u64,
        levels: summary.report.levels.iter().filter(|l| l.structures > 0).count() as u32,
        peak_bytes: summary.run.peak_memory_bytes,
        finished: !summary.run.stop.is_early(),
    })
}

/// Runs this binary with `args` (and `env`) in a child process, and reads
/// the JSON summary it prints. Exit code 1 (failures found) still prints one.
pub(crate) fn child_summary<S: serde::de::DeserializeOwned>(
    args: &[String],
    env: &[(&str, &str)],
) -> anyhow::Result<S> {
    let exe = std::env::current_exe().context("finding the smallscope binary")?;
    let output = Command::new(exe).args(args).envs(env.iter().copied()).output().context("running smallscope")?;
    if output.status.code().is_none_or(|c| c > 1) {
        bail!("smallscope {} failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim());
    }
    serde_json::from_slice(&output.stdout)
        .with_context(|| format!("reading the summary of smallscope {}", args.join(" ")))
}
