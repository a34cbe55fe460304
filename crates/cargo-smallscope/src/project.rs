//! The user's crate: found as cargo finds it, from `--manifest-path`, `-p`
//! and the current folder.

use std::path::{Path, PathBuf};

use cargo_metadata::{Metadata, MetadataCommand, Package};

use crate::Problem;

/// Options that choose the crate and how it builds, as cargo takes them.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CargoOptions {
    /// The crate's Cargo.toml (default: the one in this folder or above it).
    #[arg(long, value_name = "PATH", global = true)]
    pub manifest_path: Option<PathBuf>,
    /// The package to run on, in a workspace of several.
    #[arg(short = 'p', long = "package", value_name = "SPEC", global = true)]
    pub package: Option<String>,
    /// Features of the crate to turn on, separated by commas (repeatable).
    #[arg(short = 'F', long, value_name = "FEATURES", global = true)]
    pub features: Vec<String>,
    /// Where cargo builds the harness (default: the crate's target folder).
    #[arg(long, value_name = "DIR", global = true)]
    pub target_dir: Option<PathBuf>,
    /// Build the crate under test as plain release does, without overflow
    /// checks and debug assertions: faster, but an overflow then wraps
    /// silently instead of being the panic `cargo test` shows.
    #[arg(long, global = true)]
    pub no_overflow_checks: bool,
    /// Build the crate under test with SanitizerCoverage (a build of its
    /// own, beside the plain one): `list` shows its edges, `random` counts
    /// those it covers.
    #[arg(long, global = true)]
    pub coverage: bool,
}

impl CargoOptions {
    /// The options as words, to repeat them in a printed command.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(path) = &self.manifest_path {
            words.extend(["--manifest-path".to_owned(), path.display().to_string()]);
        }
        if let Some(package) = &self.package {
            words.extend(["-p".to_owned(), package.clone()]);
        }
        for features in &self.features {
            words.extend(["--features".to_owned(), features.clone()]);
        }
        if let Some(dir) = &self.target_dir {
            words.extend(["--target-dir".to_owned(), dir.display().to_string()]);
        }
        if self.no_overflow_checks {
            words.push("--no-overflow-checks".to_owned());
        }
        if self.coverage {
            words.push("--coverage".to_owned());
        }
        words
    }
}

/// The crate smallscope runs on.
#[derive(Debug, Clone)]
pub struct Project {
    /// The package's name, as in its Cargo.toml.
    pub package: String,
    /// Its library's name in Rust code (`my_crate` for `my-crate`).
    pub lib: String,
    /// The folder of its Cargo.toml.
    pub dir: PathBuf,
    /// Where cargo builds (the workspace's target folder, or `--target-dir`).
    pub target_dir: PathBuf,
    /// How the crate depends on smallscope: the harness takes the command
    /// line from the same place, so both see one `smallscope`.
    pub smallscope: Source,
    /// `[package.metadata.smallscope]`, when there is one.
    pub settings: Option<toml::Table>,
}

/// Where the crate's `smallscope` comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A folder holding the `smallscope` crate, a checkout of the workspace.
    Path(PathBuf),
    /// crates.io, with this version requirement.
    Registry(String),
}

impl Project {
    /// The crate `options` name, from the current folder.
    pub fn find(options: &CargoOptions) -> Result<Project, Problem> {
        let (metadata, manifest) = read_metadata(options)?;
        let package = choose_package(&metadata, &manifest, options.package.as_deref())?;
        let lib = package
            .targets
            .iter()
            // A library Rust code can link: `lib`, `rlib` or `dylib`.
            .find(|t| t.kind.iter().any(|k| matches!(k.to_string().as_str(), "lib" | "rlib" | "dylib")))
            .ok_or_else(|| {
                Problem::new(format!(
                    "package `{}` has no library: the harness links the crate's library, where its #[smallscope::api] types live",
                    package.name
                ))
            })?;
        let smallscope = package.dependencies.iter().find(|d| d.name == "smallscope").ok_or_else(|| {
            Problem::new(format!(
                "package `{}` does not depend on smallscope: `cargo smallscope init` adds it; then put #[smallscope::api] on a type",
                package.name
            ))
        })?;
        let smallscope = match &smallscope.path {
            Some(path) => Source::Path(path.clone().into_std_path_buf()),
            None => Source::Registry(smallscope.req.to_string()),
        };
        let settings = match package.metadata.get("smallscope") {
            None => None,
            Some(value) => Some(toml::Table::try_from(value).map_err(|_| {
                Problem::new("[package.metadata.smallscope] in Cargo.toml must be a table of settings")
            })?),
        };
        let dir = package.manifest_path.parent().expect("a manifest is in a folder").as_std_path().to_owned();
        Ok(Project {
            package: package.name.to_string(),
            lib: lib.name.replace('-', "_"),
            dir,
            target_dir: options.target_dir.clone().unwrap_or_else(|| metadata.target_directory.clone().into()),
            smallscope,
            settings,
        })
    }

    /// The harness's folder: `smallscope/` beside the crate's Cargo.toml.
    pub fn harness_dir(&self) -> PathBuf {
        self.dir.join("smallscope")
    }

    /// Where an engine's run on a subject writes its files:
    /// `target/smallscope/<subject>/<engine>/`, so that one engine's run
    /// keeps another's report.
    pub fn out_dir(&self, subject: &str, engine: &str) -> PathBuf {
        self.target_dir.join("smallscope").join(subject).join(engine)
    }

    /// `path` as the user sees it: relative to the crate when inside it.
    pub fn show(&self, path: &Path) -> String {
        let cwd = std::env::current_dir().unwrap_or_default();
        let shown = path.strip_prefix(&cwd).or_else(|_| path.strip_prefix(&self.dir)).unwrap_or(path);
        shown.display().to_string()
    }
}

/// The workspace metadata of the crate `options` name, and the manifest
/// it was read from.
fn read_metadata(options: &CargoOptions) -> Result<(Metadata, PathBuf), Problem> {
    let manifest = match &options.manifest_path {
        Some(path) if path.is_file() => path.clone(),
        Some(path) => return Err(Problem::new(format!("no manifest at {}", path.display()))),
        None => nearest_manifest()?,
    };
    let metadata =
        MetadataCommand::new().manifest_path(&manifest).no_deps().exec().map_err(|e| {
            Problem::new(format!("cargo metadata could not read {}: {}", manifest.display(), one_line(&e)))
        })?;
    Ok((metadata, manifest))
}

/// The `smallscope` crate of the checkout this program was built from
/// (`cargo install --path crates/cargo-smallscope` builds it in place).
pub fn own_smallscope() -> PathBuf {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("a crate is in a folder");
    crates.join("smallscope")
}

/// Makes the crate `options` name depend on `smallscope` when it does not
/// yet: `cargo add` from this program's own checkout. The path it added
/// from, when it did.
pub fn add_dependency(options: &CargoOptions) -> Result<Option<PathBuf>, Problem> {
    let (metadata, manifest) = read_metadata(options)?;
    let package = choose_package(&metadata, &manifest, options.package.as_deref())?;
    if package.dependencies.iter().any(|d| d.name == "smallscope") {
        return Ok(None);
    }
    let source = own_smallscope();
    let gone = || {
        Problem::new(format!(
            "package `{}` does not depend on smallscope, and the checkout cargo-smallscope was installed from ({}) is \
             gone: add it with `cargo add smallscope --path <checkout>/crates/smallscope`",
            package.name,
            source.display()
        ))
    };
    let source = source.canonicalize().map_err(|_| gone())?;
    if !source.join("Cargo.toml").is_file() {
        return Err(gone());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args(["add", "--quiet", "smallscope", "--path"])
        .arg(&source)
        .arg("--manifest-path")
        .arg(package.manifest_path.as_std_path())
        .output()
        .map_err(|e| Problem::new(format!("running cargo add: {e}")))?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let line = said.lines().find(|l| l.starts_with("error")).unwrap_or_else(|| said.trim());
        return Err(Problem::new(format!("cargo add smallscope --path {} failed: {line}", source.display())));
    }
    Ok(Some(source))
}

/// The Cargo.toml in the current folder or the nearest one above it.
fn nearest_manifest() -> Result<PathBuf, Problem> {
    let cwd = std::env::current_dir().map_err(|e| Problem::new(format!("the current folder is unreadable: {e}")))?;
    cwd.ancestors().map(|dir| dir.join("Cargo.toml")).find(|path| path.is_file()).ok_or_else(|| {
        Problem::new(format!(
            "no Cargo.toml in {} or any folder above it: run cargo smallscope inside a crate, or give --manifest-path",
            cwd.display()
        ))
    })
}

/// The package `spec` names, or the one `manifest` is, or the only one.
fn choose_package<'m>(metadata: &'m Metadata, manifest: &Path, spec: Option<&str>) -> Result<&'m Package, Problem> {
    let members: Vec<&Package> = metadata.workspace_packages();
    let names = || members.iter().map(|p| p.name.to_string()).collect::<Vec<_>>().join(", ");
    if let Some(spec) = spec {
        return members
            .iter()
            .find(|p| p.name.as_str() == spec)
            .copied()
            .ok_or_else(|| Problem::new(format!("no package `{spec}` in this workspace; its packages: {}", names())));
    }
    let manifest = manifest.canonicalize().unwrap_or_else(|_| manifest.to_owned());
    if let Some(package) = members.iter().find(|p| p.manifest_path.as_std_path() == manifest) {
        return Ok(package);
    }
    match members.as_slice() {
        [only] => Ok(only),
        _ => Err(Problem::new(format!("this workspace has several packages: choose one with -p ({})", names()))),
    }
}

/// The first line of an error, with its causes.
fn one_line(error: &dyn std::error::Error) -> String {
    let text = error.to_string();
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    first.trim_start_matches("error: ").to_owned()
}
