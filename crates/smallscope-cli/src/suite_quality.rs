//! How good a suite is at finding bugs, measured as the field coverage
//! paper does (its Tables V and VI): run `insert`, `remove` and `contains`
//! with every integer of the scope's range on every structure of the
//! suite, and measure the coverage of those methods and the share of
//! their mutants the runs kill (`cargo-mutants`).
//!
//! Each call is checked against a model: the elements before the call,
//! with the value added or taken out, must be the elements after it; the
//! invariant must hold; the returned value must say whether the value was
//! there. Without such an oracle only mutants that panic would die.
//!
//! The subjects' code is measured as a user's crate: `src` of
//! `smallscope-subjects` is copied into a crate of its own, and the suites
//! become modules of one test target (`tests/suite_quality.rs`), one module
//! per suite. Coverage is smallscope's own, in-process (`suite` in a
//! harness built with coverage, see [`crate::summary::SuiteEdges`]): the
//! edges of the measured methods that building each structure and calling
//! every operation on it with every value take. cargo-mutants builds each
//! mutant once and runs every module, and its log says which modules had a
//! failing test. A mutant that hangs the tests counts as killed by every
//! suite.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};

use crate::summary::SuiteEdges;

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
    /// (closures count with the function they are in; tests do not). The
    /// line tables name a function without its path, a generic one with its
    /// arguments (`height<…::Node>`).
    fn is_measured_fn(&self, demangled: &str) -> bool {
        if demangled.contains("::tests::") {
            return false;
        }
        let path = demangled.split("::{closure").next().unwrap_or(demangled);
        let path = match path.find('<') {
            Some(at) if at > 0 && !path[..at].contains("::") => &path[..at],
            _ => path,
        };
        path.rsplit("::").next().is_some_and(|name| self.measured_names().contains(&name))
    }

    /// The edges of the measured functions a suite's calls took, and all of theirs.
    pub fn coverage(&self, edges: &SuiteEdges) -> (u64, u64) {
        let measured =
            edges.functions.iter().filter(|f| f.file.ends_with(self.file) && self.is_measured_fn(&f.function));
        measured.fold((0, 0), |(taken, all), f| (taken + u64::from(f.suite), all + u64::from(f.edges)))
    }

    /// cargo-mutants' filter: mutants in the measured functions, whose
    /// names read `replace add -> bool with true` or `… in AvlTree::add`.
    fn mutant_filter(&self) -> String {
        format!("(in |replace )(\\w+(<\\w+>)?::)*({})\\b", self.measured_names().join("|"))
    }
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target).with_context(|| format!("copying {}", source.display()))?;
        }
    }
    Ok(())
}

/// `smallscope-subjects` as a user's crate, with a `suite_quality` test
/// target, one module per suite, and a harness built with coverage.
pub struct QualityCrate {
    pub root: PathBuf,
    modules: Vec<(String, String)>,
    checks: BTreeSet<String>,
}

impl QualityCrate {
    /// Copies the subjects of the checkout at `checkout` into `root`, a
    /// crate that depends on the checkout's smallscope, and makes its harness.
    pub fn new(checkout: &Path, root: &Path) -> anyhow::Result<QualityCrate> {
        let subjects = checkout.join("crates/smallscope-subjects");
        if !subjects.join("Cargo.toml").exists() {
            bail!("{} is not a smallscope checkout (give --checkout DIR)", checkout.display());
        }
        let checkout = checkout.canonicalize()?;
        let _ = std::fs::remove_dir_all(root);
        copy_tree(&subjects.join("src"), &root.join("src"))?;
        let manifest = format!(
            "[package]\nname = \"smallscope-subjects\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\nsmallscope = {{ path = {:?} }}\ninventory = \"0.3\"\n\n[dev-dependencies]\nproptest = \"1\"\n",
            checkout.join("crates/smallscope").display().to_string()
        );
        std::fs::write(root.join("Cargo.toml"), manifest)?;
        std::fs::copy(checkout.join("Cargo.lock"), root.join("Cargo.lock"))?;
        let quality = QualityCrate { root: root.to_owned(), modules: Vec::new(), checks: BTreeSet::new() };
        let init = quality.cargo_smallscope()?.arg("init").output()?;
        if !init.status.success() {
            bail!("cargo smallscope init: {}", String::from_utf8_lossy(&init.stderr));
        }
        // The harness builds with the checkout's versions too.
        std::fs::copy(root.join("Cargo.lock"), root.join("smallscope/Cargo.lock"))?;
        Ok(quality)
    }

    /// `cargo smallscope` in the crate: the `cargo-smallscope` built beside this program.
    pub fn cargo_smallscope(&self) -> anyhow::Result<Command> {
        let exe = std::env::current_exe()?;
        let program = exe.with_file_name("cargo-smallscope");
        if !program.exists() {
            bail!("{} is missing: build it (`cargo build --release -p cargo-smallscope`)", program.display());
        }
        let mut command = Command::new(program);
        command.arg("smallscope").current_dir(&self.root);
        Ok(command)
    }

    /// Where a module's file goes.
    pub fn module_file(&self, module: &str) -> PathBuf {
        self.root.join(format!("tests/suite_quality/{module}.rs"))
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
        std::fs::write(self.root.join("tests/suite_quality.rs"), root)?;
        Ok(())
    }

    fn cargo(&self) -> Command {
        let mut command = Command::new("cargo");
        command.current_dir(&self.root);
        command
    }

    /// Runs every module once: they must pass on the code as it is.
    pub fn baseline(&self) -> anyhow::Result<()> {
        let output = self.cargo().args(["test", "--test", "suite_quality"]).output()?;
        if !output.status.success() {
            bail!(
                "the suites fail on the unmutated code:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(())
    }

    /// cargo-mutants on `measured`'s methods: the viable mutants, and for
    /// each module the ones its tests kill.
    pub fn mutation(&self, measured: &Measured) -> anyhow::Result<(u64, BTreeMap<String, u64>)> {
        let out = self.root.join("target/suite-quality-mutants");
        let _ = std::fs::remove_dir_all(&out);
        let output = self
            .cargo()
            .args(["mutants", "--no-shuffle", "--file", measured.file])
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

/// The modules with a failing test in a cargo test log.
fn failed_modules(log: &str) -> BTreeSet<String> {
    log.lines()
        .filter_map(|line| line.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .filter_map(|test| test.split_once("::").map(|(module, _)| module.to_owned()))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_functions_are_recognised_in_both_manglings() {
        let bst = &MEASURED[1];
        assert!(bst.is_measured_fn("smallscope_subjects::bst::BinarySearchTree::add"));
        // As the line tables name them.
        assert!(bst.is_measured_fn("take_min"));
        assert!(!bst.is_measured_fn("{closure#0}"));
        assert!(MEASURED[2].is_measured_fn("height<smallscope_subjects::avl::Node>"));
        assert!(!bst.is_measured_fn("height<smallscope_subjects::bst::Node>"));
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
}
