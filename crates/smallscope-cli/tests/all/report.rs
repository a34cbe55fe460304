//! `report.html` in a real browser: headless Chromium loads the page a run
//! wrote into `--out` and hands back its DOM, which must hold one picture
//! per structure shown, the failure groups with theirs, the plot, and for
//! a comparison both sides' witnesses. Needs `chromium` (Debian's package;
//! `.ci/run` installs it when it is missing).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{catalan, smallscope, stdout};

/// The browser, or a failure that says how to get one.
fn chromium() -> PathBuf {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|name| Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success()))
        .expect("this test needs Chromium: `apt-get install -y chromium` (as .ci/run does)")
}

/// The DOM of `page` once Chromium has loaded it, as HTML.
fn page_dom(page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "chromium: {}", String::from_utf8_lossy(&output.stderr));
    let dom = stdout(&output);
    assert!(dom.contains("</html>"), "no page came back:\n{dom}");
    dom
}

/// The parts of `dom` that open with `<{tag} class="{class}"`, each up to
/// the next one.
fn elements<'d>(dom: &'d str, tag: &str, class: &str) -> Vec<&'d str> {
    let open = format!("<{tag} class=\"{class}\"");
    dom.split(open.as_str()).skip(1).collect()
}

/// The element with `id`, from its opening tag to the end of the page.
fn from_id<'d>(dom: &'d str, id: &str) -> &'d str {
    let at = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no element #{id}"));
    &dom[at..]
}

fn run(args: &[&str], dir: &Path) -> serde_json::Value {
    let output = smallscope(args, dir);
    assert!(output.status.code().unwrap() <= 1, "{}", String::from_utf8_lossy(&output.stderr));
    let out = args.iter().position(|a| *a == "--out").map(|i| dir.join(args[i + 1])).unwrap();
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn a_beapi_report_shows_every_structure_with_its_picture_and_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(&["beapi", "bst", "--scope", "3", "--builders", "new,add", "--out", "bst"], dir.path());
    let dom = page_dom(&dir.path().join("bst/report.html"));
    // Binary search trees of at most 3 nodes over 3 keys: one per shape and
    // choice of keys, Σ_n C(3, n) · Catalan(n).
    let trees: u64 = (0..=3).map(|n| common::binomial(3, n) * catalan(n)).sum();
    assert_eq!(summary["structures"], trees);
    let cards = elements(&dom, "article", "structure-card");
    assert_eq!(cards.len() as u64, trees, "one card per structure");
    for card in &cards {
        assert!(card.contains("<svg") && card.contains("<code>"), "a card without its picture or calls:\n{card}");
    }
    assert!(from_id(&dom, "plot").split("</figure>").next().unwrap().contains("<svg"), "no plot");
    assert!(from_id(&dom, "failures").contains("None found."));
    assert!(dom.contains("All 15 structures"));
}

/// Korat's report draws the structures its search found, as BEAPI's does:
/// the binary trees of 3 nodes are the Catalan(3) shapes, each a box for
/// the tree and one per node, joined by `root` and 2 child edges.
#[test]
fn a_korat_report_draws_every_structure_the_search_found() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(&["korat", "binary-tree", "--scope", "3", "--out", "trees"], dir.path());
    assert_eq!(summary["structures"], catalan(3));
    let dom = page_dom(&dir.path().join("trees/report.html"));
    let cards = elements(&dom, "article", "structure-card");
    assert_eq!(cards.len() as u64, catalan(3), "one card per tree");
    let mut edge_counts = Vec::new();
    for card in &cards {
        let card = card.split("</article>").next().unwrap();
        assert!(card.contains("<svg"), "a card without its picture:\n{card}");
        assert_eq!(card.matches(">Node#").count(), 3, "{card}");
        let count = |label: &str| card.matches(&format!(">{label}</tspan>")).count();
        assert_eq!(count("root"), 1, "{card}");
        edge_counts.push((count("left"), count("right")));
    }
    // Of the five trees of 3 nodes, one goes left twice, one right twice,
    // and three (the full one and two zig-zags) once each way.
    edge_counts.sort_unstable();
    assert_eq!(edge_counts, [(0, 2), (1, 1), (1, 1), (1, 1), (2, 0)]);
    assert!(dom.contains("All 5 structures, in the order the search found them."));
    // The pictures travel in the events, as BEAPI's do.
    let events = std::fs::read_to_string(dir.path().join("trees/events.ndjson")).unwrap();
    assert_eq!(events.matches("\"picture\":").count() as u64, catalan(3));
}

#[test]
fn a_report_shows_each_failure_with_its_witness_and_the_structures_before_and_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(&["beapi", "ncl-bug-cache", "--scope", "3", "--out", "ncl"], dir.path());
    let groups = summary["failure_groups"].as_array().unwrap();
    assert!(!groups.is_empty());
    let dom = page_dom(&dir.path().join("ncl/report.html"));
    let failures = elements(from_id(&dom, "failures"), "article", "failure");
    assert_eq!(failures.len(), groups.len());
    for (failure, group) in failures.iter().zip(groups) {
        // The witness's calls are there as Rust, the last one included
        // (unwrapped when it returns a `Result`).
        let last_call = group["witness"]["text"].as_str().unwrap().rsplit("; ").next().unwrap().to_owned();
        let written = [format!("{last_call};"), format!("{last_call}.unwrap();")];
        assert!(written.iter().any(|call| failure.contains(call)), "{last_call} missing:\n{failure}");
        assert!(failure.contains("<svg") && failure.contains("just before the failing call"), "{failure}");
        // Every group breaks `rep_ok`: the structure the call left is drawn
        // beside, and a broken structure differs from the one before, in red.
        assert_eq!(group["kind"], "rep-ok-false");
        let after = failure.split("What the call left").next().unwrap();
        let after = &after[after.rfind("<figure").expect("a picture of what the call left")..];
        assert!(after.contains("<svg") && after.contains("stroke=\"#ff0000ff\""), "nothing marked:\n{after}");
    }
    // Random testing draws the value its simplified witness's last call ran on.
    let random =
        run(&["random", "dll-bug-remove", "--sequences", "20000", "--seed", "4", "--out", "random"], dir.path());
    let random_groups = random["failure_groups"].as_array().unwrap().len();
    assert!(random_groups > 0);
    let random_dom = page_dom(&dir.path().join("random/report.html"));
    let drawn = elements(from_id(&random_dom, "failures"), "article", "failure");
    assert_eq!(drawn.len(), random_groups);
    assert!(drawn.iter().all(|f| f.contains("<svg")), "a random failure without its picture");
    // Its broken `rep_ok` contract draws what the calls left too.
    assert_eq!(random["failure_groups"][0]["contract"], "rep-ok");
    assert!(drawn[0].contains("What the call left") && drawn[0].contains("stroke=\"#ff0000ff\""), "{}", drawn[0]);
    // A panic draws what its unwinding left of the receiver.
    let panics = run(&["beapi", "binheap-bug-rebalance", "--scope", "3", "--out", "panics"], dir.path());
    assert_eq!(panics["failure_groups"][0]["kind"], "panic");
    let panics_dom = page_dom(&dir.path().join("panics/report.html"));
    let panic = elements(from_id(&panics_dom, "failures"), "article", "failure")[0];
    assert!(panic.contains("What the call left when it panicked"), "{panic}");
    assert!(panic.matches("<svg").count() >= 2, "{panic}");
    // A run drawing fewer structures than it found says so.
    let _ = run(&["beapi", "ncl-bug-cache", "--scope", "3", "--pictures", "4", "--out", "few"], dir.path());
    let few = page_dom(&dir.path().join("few/report.html"));
    assert_eq!(elements(&few, "article", "structure-card").len(), 4);
    assert!(few.contains(&format!("Showing 4 of {}", summary["structures"])), "no count of what is left out");
}

#[test]
fn a_compare_report_shows_both_sides_witnesses_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(&["compare", "rbt", "--scope", "3", "--out", "rbt"], dir.path());
    let dom = page_dom(&dir.path().join("rbt/report.html"));
    let sides = elements(from_id(&dom, "comparison"), "div", "side");
    assert_eq!(sides.len(), 2);
    for (side, key) in sides.iter().zip(["only_api", "only_invariant"]) {
        let shown = summary["witnesses"][key].as_array().unwrap().len();
        let witnesses = elements(side, "article", "witness");
        assert_eq!(witnesses.len(), shown, "{key}");
        for witness in witnesses {
            assert!(witness.contains("<svg"), "a witness without its picture:\n{witness}");
        }
    }
    assert!(summary["only_invariant"].as_u64().unwrap() > 0, "the example needs differences");
}

#[test]
fn a_suite_report_shows_each_field_predicted_and_reached_and_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(
        &["suite", "search-tree", "--engine", "korat", "--criterion", "fbt-a", "--scope", "7", "--out", "st"],
        dir.path(),
    );
    let dom = page_dom(&dir.path().join("st/report.html"));
    let fields = from_id(&dom, "fields");
    let table = &fields[..fields.find("</table>").unwrap()];
    let rows: Vec<&str> = table.split("<td class=\"field\">").skip(1).collect();
    let names: Vec<&str> = rows.iter().map(|row| &row[..row.find('<').unwrap()]).collect();
    let expected: Vec<&String> = summary["field_sizes"].as_object().unwrap().keys().collect();
    assert_eq!(names, expected, "a row per field");
    for (row, field) in rows.iter().zip(&expected) {
        let predicted = summary["predicted_sizes"][field.as_str()].to_string();
        let reached = summary["field_sizes"][field.as_str()].to_string();
        // Scopes 1 to 5, then predicted and reached.
        let cells: Vec<&str> = row.split("<td>").skip(1).map(|c| &c[..c.find('<').unwrap()]).collect();
        assert_eq!(cells.len(), 7, "{row}");
        assert_eq!((cells[5], cells[6]), (predicted.as_str(), reached.as_str()), "{field}");
    }
    let plot = from_id(&dom, "field-plot");
    assert!(plot.contains("<svg") && plot.contains("fbt-a"), "the plot is in the page");
    assert!(dom.contains("predicted-sizes"), "the stop reason is shown");
}
