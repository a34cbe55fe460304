//! `smallscope bench cluster`: a run on one process against the same run
//! on several over localhost (`--hostfile` of free ports), whole commands
//! timed by the wall clock, the modes alternated, medians reported; the
//! counts of both (structures, sequences) must agree.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context as _};
use smallscope_args::bench::ClusterBench;

pub fn run(bench: &ClusterBench) -> anyhow::Result<()> {
    if bench.runs == 0 || bench.processes < 2 {
        bail!(crate::BadInput("--runs must be at least 1 and --processes at least 2".into()));
    }
    println!(
        "Cluster mode: whole commands on 1 process and on {} over localhost (one worker each), {} runs per mode, \
         alternated; median wall seconds",
        bench.processes, bench.runs
    );
    println!("{:<44} {:>12} {:>12} {:>10} {:>12}", "command", "1 process s", "cluster s", "speed-up", "count");
    let streams = bench.processes.to_string();
    let mut commands = Vec::new();
    for item in &bench.korat {
        let (subject, scope) =
            item.split_once(':').ok_or_else(|| crate::BadInput(format!("--korat {item}: expected subject:scope")))?;
        commands.push((vec!["korat", subject, "--scope", scope], "/structures"));
    }
    for item in &bench.random {
        let (subject, sequences) = item
            .split_once(':')
            .ok_or_else(|| crate::BadInput(format!("--random {item}: expected subject:sequences")))?;
        commands.push((vec!["random", subject, "--sequences", sequences, "--streams", &streams], "/sequences"));
    }
    for (args, count) in commands {
        let label = args.join(" ");
        let (mut one, mut many) = (Vec::new(), Vec::new());
        let mut counts = Vec::new();
        for _ in 0..bench.runs {
            let (seconds, found) = timed(&args, 1, count)?;
            one.push(seconds);
            counts.push(found);
            let (seconds, found) = timed(&args, bench.processes, count)?;
            many.push(seconds);
            counts.push(found);
        }
        if counts.windows(2).any(|pair| pair[0] != pair[1]) {
            bail!("{label}: counts differ between modes: {counts:?}");
        }
        let (one, many) = (median(&mut one), median(&mut many));
        println!("{label:<44} {one:>12.3} {many:>12.3} {:>9.2}x {:>12}", one / many, counts[0]);
    }
    println!("\nBEAPI: no cluster mode yet.");
    Ok(())
}

/// Wall seconds of `args` run as a cluster of `processes` (1: a plain run),
/// and the count at `count` (a JSON pointer) in process 0's summary.
fn timed(args: &[&str], processes: usize, count: &str) -> anyhow::Result<(f64, u64)> {
    let exe = std::env::current_exe().context("finding the smallscope binary")?;
    let dir = tempfile::tempdir()?;
    let hosts = (processes > 1).then(|| hostfile(dir.path(), processes)).transpose()?;
    let started = Instant::now();
    let children = (0..processes)
        .map(|index| {
            let mut command = Command::new(&exe);
            command.args(args).args(["--format", "json"]).stdout(Stdio::piped()).stderr(Stdio::null());
            if let Some(hosts) = &hosts {
                command.arg("--hostfile").arg(hosts).args(["--process", &index.to_string()]);
            }
            command.spawn().context("starting a process")
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut outputs = Vec::new();
    for child in children {
        outputs.push(child.wait_with_output()?);
    }
    let seconds = started.elapsed().as_secs_f64();
    // Exit 1 is a run that found failures: measured all the same.
    if let Some(failed) = outputs.iter().position(|o| !matches!(o.status.code(), Some(0 | 1))) {
        bail!("{args:?}: process {failed} of {processes} exited with {}", outputs[failed].status);
    }
    let summary: serde_json::Value = serde_json::from_slice(&outputs[0].stdout).context("process 0's summary")?;
    let found = summary.pointer(count).and_then(serde_json::Value::as_u64);
    Ok((seconds, found.with_context(|| format!("{count} in process 0's summary"))?))
}

/// A hostfile of `count` localhost ports free a moment ago.
fn hostfile(dir: &Path, count: usize) -> anyhow::Result<std::path::PathBuf> {
    let listeners = (0..count).map(|_| std::net::TcpListener::bind("127.0.0.1:0")).collect::<Result<Vec<_>, _>>()?;
    let mut text = String::new();
    for listener in &listeners {
        text.push_str(&format!("{}\n", listener.local_addr()?));
    }
    let path = dir.join("hosts");
    std::fs::write(&path, text)?;
    Ok(path)
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
