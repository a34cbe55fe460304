//! The harness: a small crate in `smallscope/` whose `smallscope` binary is
//! the command line with the user's subjects linked in, as `cargo fuzz init`
//! makes `fuzz/`.

use std::io::{BufRead as _, BufReader, IsTerminal as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::project::{CargoOptions, Project, Source};
use crate::Problem;

/// One file `init` writes.
struct HarnessFile {
    /// Relative to the harness folder.
    path: &'static str,
    text: String,
}

/// What `init` did with one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Created,
    UpToDate,
    /// There, with other contents: left alone.
    Kept,
}

/// Writes the harness files that are missing, and says of each what it did.
pub fn init(project: &Project) -> Result<Vec<(PathBuf, Outcome)>, Problem> {
    let dir = project.harness_dir();
    let mut done = Vec::new();
    for file in files(project)? {
        let path = dir.join(file.path);
        let outcome = match std::fs::read_to_string(&path) {
            Ok(text) if text == file.text => Outcome::UpToDate,
            Ok(_) => Outcome::Kept,
            Err(_) => {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| Problem::new(format!("cannot make {}: {e}", parent.display())))?;
                }
                std::fs::write(&path, &file.text)
                    .map_err(|e| Problem::new(format!("cannot write {}: {e}", path.display())))?;
                Outcome::Created
            }
        };
        done.push((path, outcome));
    }
    Ok(done)
}

/// The harness's files for `project`.
fn files(project: &Project) -> Result<Vec<HarnessFile>, Problem> {
    let cli = match &project.smallscope {
        Source::Path(smallscope) => {
            let cli = smallscope.parent().map(|p| p.join("smallscope-cli")).filter(|p| p.join("Cargo.toml").is_file());
            let cli = cli.ok_or_else(|| {
                Problem::new(format!(
                    "{} has no smallscope-cli beside it: the harness needs the command line from the same checkout",
                    smallscope.display()
                ))
            })?;
            let path = relative_if_near(&cli, &project.harness_dir());
            format!("{{ path = {:?}, default-features = false }}", path.display().to_string())
        }
        Source::Registry(req) => format!("{{ version = {req:?}, default-features = false }}"),
    };
    let manifest = format!(
        "# The smallscope harness of `{package}`, made by `cargo smallscope init`.
# `cargo smallscope` builds it and runs its `smallscope` binary: the command
# line with {package}'s subjects linked in.
[package]
name = \"{package}-smallscope\"
version = \"0.0.0\"
edition = \"2021\"
publish = false

[[bin]]
name = \"smallscope\"
path = \"src/main.rs\"
test = false
doc = false
bench = false

[dependencies]
{package} = {{ path = \"..\" }}
smallscope-cli = {cli}

# A workspace of its own, so that it builds apart from the crate's.
[workspace]
members = [\".\"]
",
        package = project.package,
    );
    let main = format!(
        "//! The smallscope command line with `{package}`'s subjects: run it with
//! `cargo smallscope`.

// Links the crate, and with it every subject it registers.
use {lib} as _;

fn main() -> std::process::ExitCode {{
    smallscope_cli::main()
}}
",
        package = project.package,
        lib = project.lib,
    );
    Ok(vec![
        HarnessFile { path: "Cargo.toml", text: manifest },
        HarnessFile { path: "src/main.rs", text: main },
        HarnessFile { path: ".gitignore", text: "/target\n".into() },
    ])
}

/// `path` from `base` when they share a folder below the root (a checkout
/// beside the crate, which moves with it), else `path` itself.
fn relative_if_near(path: &Path, base: &Path) -> PathBuf {
    let shared = path.components().zip(base.components()).take_while(|(a, b)| a == b).count();
    match shared > 1 {
        true => pathdiff::diff_paths(path, base).unwrap_or_else(|| path.to_owned()),
        false => path.to_owned(),
    }
}

/// Builds the harness in release mode, and returns its binary: the crate
/// under test with overflow checks and debug assertions, as `cargo test`
/// builds it (unless `--no-overflow-checks`), the engine without. A
/// terminal sees a spinner with what cargo is compiling; a failed build
/// shows cargo's output.
pub fn build(project: &Project, options: &CargoOptions) -> Result<PathBuf, Problem> {
    let dir = project.harness_dir();
    let manifest = dir.join("Cargo.toml");
    if !manifest.is_file() {
        return Err(Problem::new(format!("no harness in {}: run `cargo smallscope init` first", project.show(&dir))));
    }
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.args(["build", "--release", "--bin", "smallscope", "--manifest-path"]).arg(&manifest);
    command.arg("--target-dir").arg(&project.target_dir);
    if options.coverage {
        crate::coverage::instrument(&mut command, &project.package, &project.lib)
            .map_err(|e| Problem::new(format!("cannot name this program as rustc's wrapper: {e}")))?;
    }
    if !options.no_overflow_checks {
        // A package override: the engine and the rest stay fast.
        for setting in ["overflow-checks", "debug-assertions"] {
            command.arg("--config").arg(format!("profile.release.package.{:?}.{setting}=true", project.package));
        }
    }
    let features: Vec<String> = options
        .features
        .iter()
        .flat_map(|list| list.split([',', ' ']))
        .filter(|f| !f.is_empty())
        .map(|f| if f.contains('/') { f.to_owned() } else { format!("{}/{f}", project.package) })
        .collect();
    if !features.is_empty() {
        command.arg("--features").arg(features.join(","));
    }
    command.stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| Problem::new(format!("cannot run cargo: {e}")))?;
    let started = std::time::Instant::now();
    // Off a terminal, a line when the build starts compiling and one when
    // it ends: the first build takes minutes (an up-to-date one says nothing).
    let plain = !std::io::stderr().is_terminal();
    let mut announced = false;
    let spinner = (!plain).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar.set_message("building the harness");
        bar
    });
    let mut output = Vec::new();
    for line in BufReader::new(child.stderr.take().expect("piped")).lines().map_while(Result::ok) {
        if let (Some(bar), Some(crate_name)) = (&spinner, line.trim_start().strip_prefix("Compiling ")) {
            bar.set_message(format!("building the harness: {crate_name}"));
        }
        if plain && !announced && line.trim_start().starts_with("Compiling ") {
            announced = true;
            eprintln!("building the harness (release; the first build takes a few minutes)");
        }
        output.push(line);
    }
    let status = child.wait().map_err(|e| Problem::new(format!("cargo did not finish: {e}")))?;
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    if announced && status.success() {
        eprintln!("built the harness in {:.0} s", started.elapsed().as_secs_f64());
    }
    if !status.success() {
        for line in &output {
            eprintln!("{line}");
        }
        return Err(Problem::new(format!(
            "the harness in {} did not build (cargo's output above)",
            project.show(&dir)
        )));
    }
    Ok(binary(&project.target_dir))
}

/// The harness binary cargo builds into `target_dir`.
fn binary(target_dir: &Path) -> PathBuf {
    target_dir.join("release").join(format!("smallscope{}", std::env::consts::EXE_SUFFIX))
}
