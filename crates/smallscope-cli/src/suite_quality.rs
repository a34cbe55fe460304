//! How good a suite is at finding bugs, measured as the field coverage
//! paper does (its Tables V and VI): run `insert`, `remove` and `contains`
//! with every integer of the scope's range on every structure of the
//! suite, and measure the coverage of those methods (`cargo llvm-cov`) and
//! the share of their mutants the runs kill (`cargo-mutants`).
//!
//! Each call is checked against a model: the elements before the call,
//! with the value added or taken out, must be the elements after it; the
//! invariant must hold; the returned value must say whether the value was
//! there. Without such an oracle only mutants that panic would die.
//!
//! The subjects' code is measured where it lives: the checkout is copied,
//! and the suites become modules of one test target of
//! `smallscope-subjects` (`tests/suite_quality.rs`), one module per suite.
//! Coverage is taken per module (a test-name filter); cargo-mutants builds
//! each mutant once and runs every module, and its log says which modules
//! had a failing test. A mutant that hangs the tests counts as killed by
//! every suite. Coverage is of regions: stable Rust gives no branch
//! coverage (`-Z coverage-options=branch` is nightly only).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};

/// A subject whose suites are measured: its type and the methods under test.
pub struct Measured {
    /// The BEAPI subject (`--engine beapi`), or the Korat model whose
    /// candidates become the subject's values.
    pub run: &'static str,
    /// The source file, from `crates/smallscope-subjects`.
    pub file: &'static str,
    /// The type's path and name.
    pub path: &'static str,
    pub name: &'static str,
    pub insert: &'static str,
    pub remove: &'static str,
    pub contains: &'static str,
    /// A method listing the elements (sorted or not).
    pub elements: &'static str,
    /// The private functions of the same file those methods do their work
    /// in (Rust ports split what the Java methods do inline), measured too.
    pub helpers: &'static [&'static str],
    /// A set: inserting a value already there changes nothing.
    pub set: bool,
    /// What `insert` and `remove` return, checked against whether the value
    /// was there (`r` is the result, `was` a bool): `None` for nothing.
    pub insert_returns: Option<&'static str>,
    pub remove_returns: Option<&'static str>,
}

/// The paper's subjects, in BEAPI form: the sorted list, the BST, the AVL
/// tree (a TreeSet) and the binomial heap.
pub const MEASURED: [Measured; 4] = [
    Measured {
        run: "sorted-list",
        file: "src/sorted_list.rs",
        path: "smallscope_subjects::sorted_list::SortedList",
        name: "SortedList",
        insert: "insert",
        remove: "remove",
        contains: "contains",
        elements: "to_vec",
        helpers: &[],
        set: false,
        insert_returns: None,
        remove_returns: Some("r == was"),
    },
    Measured {
        run: "bst",
        file: "src/bst.rs",
        path: "smallscope_subjects::bst::BinarySearchTree",
        name: "BinarySearchTree",
        insert: "add",
        remove: "remove",
        contains: "contains",
        elements: "to_vec",
        helpers: &["unlink", "take_min", "leaf"],
        set: true,
        insert_returns: Some("r != was"),
        remove_returns: Some("r == was"),
    },
    Measured {
        run: "avl",
        file: "src/avl.rs",
        path: "smallscope_subjects::avl::AvlTree",
        name: "AvlTree",
        insert: "add",
        remove: "remove",
        contains: "contains",
        elements: "to_vec",
        helpers: &[
            "insert",
            "delete",
            "remove_min_node",
            "rebalance",
            "rotate_left",
            "rotate_right",
            "update",
            "balance",
            "height",
        ],
        set: true,
        insert_returns: Some("r != was"),
        remove_returns: Some("r == was"),
    },
    Measured {
        run: "binheap",
        file: "src/binheap.rs",
        path: "smallscope_subjects::binheap::BinomialHeap",
        name: "BinomialHeap",
        insert: "insert",
        remove: "delete",
        contains: "contains",
        elements: "to_sorted_vec",
        helpers: &[
            "find",
            "alloc",
            "swap_keys",
            "min_root",
            "remove_root",
            "link",
            "link_later",
            "merge",
            "union_list",
            "rebalance",
            "extract_min",
            "decrease_key",
        ],
        set: false,
        insert_returns: None,
        remove_returns: Some("r.is_ok() == was"),
    },
];

impl Measured {
    /// The check each structure test calls, as Rust: `check_<name>::<N>`.
    fn check_fn(&self) -> String {
        let mut code = String::new();
        let returns = |what: Option<&str>, call: &str| {
            match what {
            Some(expr) => format!(
                "        let r = {call};\n        assert!({expr}, \"{{v}}: returned {{r:?}} (there before: {{was}})\");\n"
            ),
            None => format!("        {call};\n"),
        }
        };
        writeln!(
            code,
            "/// `{}`, `{}` and `{}` with every value below `N`, on a copy.",
            self.insert, self.remove, self.contains
        )
        .unwrap();
        writeln!(code, "pub fn check_{}<const N: i32>(s: &{}) {{", self.run.replace('-', "_"), self.path).unwrap();
        writeln!(code, "    let sorted = |mut v: Vec<i32>| {{ v.sort(); v }};").unwrap();
        writeln!(code, "    let before = sorted(s.{}());", self.elements).unwrap();
        code.push_str("    for v in 0..N {\n");
        code.push_str("        let was = before.contains(&v);\n");
        code.push_str("        let mut t = s.clone();\n");
        code.push_str(&returns(self.insert_returns, &format!("t.{}(v)", self.insert)));
        code.push_str("        let mut expected = before.clone();\n");
        match self.set {
            true => code.push_str("        if !was { expected.push(v); }\n"),
            false => code.push_str("        expected.push(v);\n"),
        }
        writeln!(
            code,
            "        assert_eq!(sorted(t.{}()), sorted(expected), \"{}({{v}})\");",
            self.elements, self.insert
        )
        .unwrap();
        writeln!(code, "        assert!(t.rep_ok(), \"{}({{v}}) broke the invariant\");", self.insert).unwrap();
        code.push_str("        let mut t = s.clone();\n");
        code.push_str(&returns(self.remove_returns, &format!("t.{}(v)", self.remove)));
        code.push_str("        let mut expected = before.clone();\n");
        code.push_str("        if let Some(i) = expected.iter().position(|&x| x == v) { expected.remove(i); }\n");
        writeln!(code, "        assert_eq!(sorted(t.{}()), expected, \"{}({{v}})\");", self.elements, self.remove)
            .unwrap();
        writeln!(code, "        assert!(t.rep_ok(), \"{}({{v}}) broke the invariant\");", self.remove).unwrap();
        writeln!(code, "        assert_eq!(s.{}(v), was, \"{}({{v}})\");", self.contains, self.contains).unwrap();
        code.push_str("    }\n}\n");
        code
    }

    /// The names of the functions measured: the methods and their helpers.
    fn measured_names(&self) -> Vec<&'static str> {
        let mut names = vec![self.insert, self.remove, self.contains];
        names.extend(self.helpers);
        names
    }

    /// Whether a demangled function of the subject's file is measured
    /// (closures count with the function they are in; tests do not).
    fn is_measured_fn(&self, demangled: &str) -> bool {
        if demangled.contains("::tests::") {
            return false;
        }
        let path = demangled.split("::{closure").next().unwrap_or(demangled);
        path.rsplit("::").next().is_some_and(|name| self.measured_names().contains(&name))
    }

    /// cargo-mutants' filter: mutants in the measured functions, whose
    /// names read `replace add -> bool with true` or `… in AvlTree::add`.
    fn mutant_filter(&self) -> String {
        format!("(in |replace )(\\w+(<\\w+>)?::)*({})\\b", self.measured_names().join("|"))
    }
}

/// A copy of the checkout with a `suite_quality` test target in
/// `smallscope-subjects`, one module per suite.
pub struct QualityCrate {
    pub root: PathBuf,
    modules: Vec<(String, String)>,
    checks: BTreeSet<String>,
}

/// Files and folders the copy leaves out.
const NOT_COPIED: [&str; 4] = ["target", ".git", ".smallscope", "mutants.out"];

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        if NOT_COPIED.iter().any(|n| name == *n) {
            continue;
        }
        let (source, target) = (entry.path(), to.join(&name));
        if entry.file_type()?.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target).with_context(|| format!("copying {}", source.display()))?;
        }
    }
    Ok(())
}

impl QualityCrate {
    /// Copies the checkout at `checkout` into `root`.
    pub fn new(checkout: &Path, root: &Path) -> anyhow::Result<QualityCrate> {
        if !checkout.join("crates/smallscope-subjects/Cargo.toml").exists() {
            bail!("{} is not a smallscope checkout (give --checkout DIR)", checkout.display());
        }
        let _ = std::fs::remove_dir_all(root);
        copy_tree(checkout, root)?;
        Ok(QualityCrate { root: root.to_owned(), modules: Vec::new(), checks: BTreeSet::new() })
    }

    fn subjects_dir(&self) -> PathBuf {
        self.root.join("crates/smallscope-subjects")
    }

    /// Where a module's file goes.
    pub fn module_file(&self, module: &str) -> PathBuf {
        self.subjects_dir().join(format!("tests/suite_quality/{module}.rs"))
    }

    /// Adds a module (its file written already) whose tests call `measured`'s check.
    pub fn add_module(&mut self, module: &str, measured: &Measured) {
        self.modules.push((module.to_owned(), measured.run.to_owned()));
        self.checks.insert(measured.check_fn());
    }

    /// Writes the test target's root: the checks, then the modules.
    pub fn write_root(&self) -> anyhow::Result<()> {
        let mut root = String::from("//! Suites of `smallscope bench suites --quality`, one module each.\n\n");
        for check in &self.checks {
            root.push_str(check);
            root.push('\n');
        }
        for (module, _) in &self.modules {
            writeln!(root, "#[path = \"suite_quality/{module}.rs\"]\nmod {module};").unwrap();
        }
        std::fs::write(self.subjects_dir().join("tests/suite_quality.rs"), root)?;
        Ok(())
    }

    fn cargo(&self) -> Command {
        let mut command = Command::new("cargo");
        command.current_dir(&self.root);
        command
    }

    /// Runs every module once, unmeasured: they must pass on the code as it is.
    pub fn baseline(&self) -> anyhow::Result<()> {
        let output = self.cargo().args(["test", "-p", "smallscope-subjects", "--test", "suite_quality"]).output()?;
        if !output.status.success() {
            bail!(
                "the suites fail on the unmutated code:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(())
    }

    /// Builds the test target with coverage instrumentation (`cargo
    /// llvm-cov`) and returns what measures a module's coverage.
    pub fn instrumented(&self) -> anyhow::Result<Instrumented> {
        let output = self
            .cargo()
            .args(["llvm-cov", "--no-report", "-p", "smallscope-subjects", "--test", "suite_quality"])
            .output()
            .context("running cargo llvm-cov (scripts/bench-suites installs it)")?;
        if !output.status.success() {
            bail!("cargo llvm-cov: {}", String::from_utf8_lossy(&output.stderr));
        }
        // The newest `suite_quality-<hash>` executable cargo llvm-cov built.
        let deps = self.root.join("target/llvm-cov-target/debug/deps");
        let mut built: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&deps)
            .with_context(|| format!("reading {}", deps.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.starts_with("suite_quality-") && p.extension().is_none()
            })
            .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
            .collect();
        built.sort();
        let Some((_, binary)) = built.pop() else { bail!("no instrumented suite_quality test in {}", deps.display()) };
        let tool =
            |variable: &str, name: &str| std::env::var_os(variable).map_or_else(|| PathBuf::from(name), PathBuf::from);
        Ok(Instrumented {
            binary,
            crate_dir: self.subjects_dir(),
            profiles: self.root.join("target/suite-quality-profiles"),
            llvm_cov: tool("LLVM_COV", "llvm-cov"),
            llvm_profdata: tool("LLVM_PROFDATA", "llvm-profdata"),
        })
    }

    /// cargo-mutants on `measured`'s methods: the viable mutants, and for
    /// each module the ones its tests kill.
    pub fn mutation(&self, measured: &Measured) -> anyhow::Result<(u64, BTreeMap<String, u64>)> {
        let out = self.root.join("target/suite-quality-mutants");
        let _ = std::fs::remove_dir_all(&out);
        let output = self
            .cargo()
            .args(["mutants", "--package", "smallscope-subjects", "--no-shuffle", "--file"])
            .arg(format!("crates/smallscope-subjects/{}", measured.file))
            .args(["--re", &measured.mutant_filter(), "--output"])
            .arg(&out)
            .args(["--cargo-test-arg=--test", "--cargo-test-arg=suite_quality"])
            .output()
            .context("running cargo mutants (scripts/bench-suites installs it)")?;
        // Exit 2 is "some mutants survived", 3 "some timed out": both are results.
        if !matches!(output.status.code(), Some(0 | 2 | 3)) {
            bail!(
                "cargo mutants: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let outcomes: Outcomes = serde_json::from_slice(&std::fs::read(out.join("mutants.out/outcomes.json"))?)?;
        let modules: Vec<&String> =
            self.modules.iter().filter(|(_, run)| run == measured.run).map(|(m, _)| m).collect();
        let mut viable = 0;
        let mut killed: BTreeMap<String, u64> = modules.iter().map(|m| ((*m).clone(), 0)).collect();
        for outcome in outcomes.outcomes.iter().filter(|o| o.scenario != Scenario::Baseline) {
            match outcome.summary.as_str() {
                "CaughtMutant" => {
                    viable += 1;
                    let log = std::fs::read_to_string(out.join("mutants.out").join(&outcome.log_path))?;
                    for module in failed_modules(&log) {
                        if let Some(count) = killed.get_mut(&module) {
                            *count += 1;
                        }
                    }
                }
                "MissedMutant" => viable += 1,
                "Timeout" => {
                    viable += 1;
                    killed.values_mut().for_each(|count| *count += 1);
                }
                _ => {} // unviable: does not build
            }
        }
        Ok((viable, killed))
    }
}

/// The instrumented test target, run one module at a time.
pub struct Instrumented {
    binary: PathBuf,
    crate_dir: PathBuf,
    profiles: PathBuf,
    llvm_cov: PathBuf,
    llvm_profdata: PathBuf,
}

impl Instrumented {
    /// Region coverage of `measured`'s methods by `module`'s tests:
    /// (covered, regions). Runs the module's tests alone, then reads the
    /// profile of the subject's one source file.
    pub fn coverage(&self, module: &str, measured: &Measured) -> anyhow::Result<(u64, u64)> {
        let _ = std::fs::remove_dir_all(&self.profiles);
        std::fs::create_dir_all(&self.profiles)?;
        let run = Command::new(&self.binary)
            .arg(format!("{module}::"))
            .current_dir(&self.crate_dir)
            .env("LLVM_PROFILE_FILE", self.profiles.join("suite-%p-%m.profraw"))
            .output()?;
        if !run.status.success() {
            bail!("{module} fails: {}", String::from_utf8_lossy(&run.stdout));
        }
        let raw: Vec<PathBuf> = std::fs::read_dir(&self.profiles)?.filter_map(Result::ok).map(|e| e.path()).collect();
        let merged = self.profiles.join("suite.profdata");
        let merge = Command::new(&self.llvm_profdata)
            .args(["merge", "-sparse", "-o"])
            .arg(&merged)
            .args(&raw)
            .output()
            .with_context(|| format!("running {} (set LLVM_PROFDATA)", self.llvm_profdata.display()))?;
        if !merge.status.success() {
            bail!("llvm-profdata: {}", String::from_utf8_lossy(&merge.stderr));
        }
        let export = Command::new(&self.llvm_cov)
            .args(["export", "-format=text"])
            .arg(&self.binary)
            .arg(format!("-instr-profile={}", merged.display()))
            .arg(self.crate_dir.join(measured.file))
            .output()
            .with_context(|| format!("running {} (set LLVM_COV)", self.llvm_cov.display()))?;
        if !export.status.success() {
            bail!("llvm-cov export: {}", String::from_utf8_lossy(&export.stderr));
        }
        let export: CoverageExport = serde_json::from_slice(&export.stdout)?;
        let mut regions = BTreeMap::new();
        for function in export.data.iter().flat_map(|d| &d.functions) {
            let name = format!("{:#}", rustc_demangle::demangle(&function.name));
            if !function.filenames.iter().any(|f| f.ends_with(measured.file)) || !measured.is_measured_fn(&name) {
                continue;
            }
            // A region is [line, column, end line, end column, count, file, expanded file, kind]; kind 0 is code.
            for region in function.regions.iter().filter(|r| r.len() >= 8 && r[7] == 0) {
                let place = (region[0], region[1], region[2], region[3]);
                *regions.entry(place).or_insert(0) += region[4];
            }
        }
        let covered = regions.values().filter(|&&count| count > 0).count() as u64;
        Ok((covered, regions.len() as u64))
    }
}

/// The modules with a failing test in a cargo test log.
fn failed_modules(log: &str) -> BTreeSet<String> {
    log.lines()
        .filter_map(|line| line.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .filter_map(|test| test.split_once("::").map(|(module, _)| module.to_owned()))
        .collect()
}

/// What `cargo llvm-cov --json` exports (the parts read here).
#[derive(serde::Deserialize)]
struct CoverageExport {
    data: Vec<CoverageData>,
}

#[derive(serde::Deserialize)]
struct CoverageData {
    #[serde(default)]
    functions: Vec<CoveredFunction>,
}

#[derive(serde::Deserialize)]
struct CoveredFunction {
    name: String,
    regions: Vec<Vec<u64>>,
    filenames: Vec<String>,
}

/// `mutants.out/outcomes.json` (the parts read here).
#[derive(serde::Deserialize)]
struct Outcomes {
    outcomes: Vec<Outcome>,
}

#[derive(serde::Deserialize)]
struct Outcome {
    scenario: Scenario,
    summary: String,
    log_path: String,
}

#[derive(serde::Deserialize, PartialEq)]
enum Scenario {
    Baseline,
    Mutant(serde_json::Value),
}

/// A Korat `search-tree` candidate (size, fields) as a `BinarySearchTree`
/// built with `from_parts`: the model's nodes are the tree's, in order.
pub fn search_tree_value(size: u32, fields: &[Option<i64>]) -> String {
    let index = |v: Option<i64>| v.map_or("None".to_owned(), |i| format!("Some({i})"));
    // SearchTree.root, SearchTree.size, then per node: left, right, info.
    let nodes: Vec<String> = (0..size as usize)
        .map(|n| {
            let at = 2 + 3 * n;
            format!("({}, {}, {})", fields[at + 2].unwrap_or(0), index(fields[at]), index(fields[at + 1]))
        })
        .collect();
    format!(
        "smallscope_subjects::bst::BinarySearchTree::from_parts(vec![{}], {}, {})",
        nodes.join(", "),
        index(fields[0]),
        fields[1].unwrap_or(0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_functions_are_recognised_in_both_manglings() {
        let bst = &MEASURED[1];
        assert!(bst.is_measured_fn("smallscope_subjects::bst::BinarySearchTree::add"));
        assert!(bst.is_measured_fn("<smallscope_subjects::bst::BinarySearchTree>::remove"));
        assert!(bst.is_measured_fn("smallscope_subjects::bst::BinarySearchTree::unlink::{closure#0}"));
        assert!(!bst.is_measured_fn("smallscope_subjects::bst::BinarySearchTree::size"));
        assert!(!bst.is_measured_fn("smallscope_subjects::bst::tests::sample"));
        let heap = &MEASURED[3];
        assert!(heap.is_measured_fn(
            "<smallscope_subjects::binheap::BinomialHeap<smallscope_subjects::binheap::Correct>>::delete"
        ));
        assert!(heap.is_measured_fn("smallscope_subjects::binheap::BinomialHeap<V>::insert"));
        let filter = regex_lite_match(&MEASURED[2].mutant_filter());
        assert!(filter("replace == with != in AvlTree::add"));
        assert!(filter("replace rotate_left -> Box<Node> with Default::default()"));
        assert!(filter("replace - with + in Node::balance"));
        assert!(!filter("replace AvlTree::remove_min -> Result<i32, NoSuchElement> with Ok(0)"));
    }

    /// The filter's regular expression as cargo-mutants applies it.
    fn regex_lite_match(pattern: &str) -> impl Fn(&str) -> bool {
        let regex = regex::Regex::new(pattern).unwrap();
        move |name| regex.is_match(name)
    }

    #[test]
    fn failed_tests_name_their_modules() {
        let log = "test bst_fet_8::structure_1_built_by_new ... ok\ntest bst_fbt_a_8::structure_2_built_by_new_add ... FAILED\n";
        assert_eq!(failed_modules(log), BTreeSet::from(["bst_fbt_a_8".to_owned()]));
    }

    #[test]
    fn search_tree_candidates_become_trees() {
        // Root node 0 (key 1) with left child node 1 (key 0).
        let fields = [Some(0), Some(2), Some(1), None, Some(1), None, None, Some(0)];
        assert_eq!(
            search_tree_value(2, &fields),
            "smallscope_subjects::bst::BinarySearchTree::from_parts(vec![(1, Some(1), None), (0, None, None)], Some(0), 2)"
        );
    }
}
