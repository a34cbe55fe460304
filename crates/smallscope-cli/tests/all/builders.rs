//! `smallscope builders`: identification from the command line, its JSON,
//! and `--builders auto` picking the result up from the cache.

use crate::common;

use common::{refused_in_one_line, smallscope, stderr, stdout};

fn json(args: &[&str], dir: &std::path::Path) -> serde_json::Value {
    let output = smallscope(args, dir);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("one JSON summary")
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value.as_array().expect("a list").iter().map(|v| v.as_str().expect("a string").to_owned()).collect()
}

/// The node-caching list: the GA's set, its observers (written from the
/// API's meaning: these only read the list), evidence for the rest, and a
/// BEAPI run with `--builders auto` that reuses the cached set.
#[test]
fn the_genetic_algorithm_is_cached_and_picked_up_by_auto() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["builders", "ncl", "--method", "ga", "--scope", "5", "--format", "json"];
    let summary = json(&args, dir.path());
    for key in ["subject", "method", "builders", "observers", "fitness", "structures_builders", "structures_api"] {
        assert!(summary.get(key).is_some(), "no `{key}` in {summary}");
    }
    assert_eq!(summary["subject"], "ncl");
    assert_eq!(summary["method"], "ga");
    assert_eq!(summary["from_cache"], false);
    let builders = strings(&summary["builders"]);
    assert_eq!(builders.len(), 3, "{builders:?}");
    assert_eq!(builders[0], "new");
    assert!(["add", "add_first", "add_last"].contains(&builders[1].as_str()), "{builders:?}");
    assert!(["remove_first", "remove_last"].contains(&builders[2].as_str()), "{builders:?}");
    assert_eq!(summary["structures_builders"], summary["structures_api"]);
    let mut observers = strings(&summary["observers"]);
    observers.sort();
    let mut expected = ["get", "get_first", "get_last", "index_of", "last_index_of", "contains", "size", "is_empty"];
    expected.sort();
    assert_eq!(observers, expected);
    // Every non-observer comes with the call that shows it.
    for role in summary["roles"].as_array().unwrap() {
        let method = role["method"].as_str().unwrap();
        match role["role"].as_str().unwrap() {
            "observer" => assert!(expected.contains(&method), "{role}"),
            "mutator" => {
                let calls = strings(&role["calls"]);
                assert!(calls.last().unwrap().contains(&format!("{method}(")), "{role}");
            }
            other => panic!("{method} is {other}: the random run should call every method of ncl"),
        }
    }

    // The same set again, from the cache, whatever the seed's run did.
    let again = json(&args, dir.path());
    assert_eq!(again["from_cache"], true);
    assert_eq!(again["builders"], summary["builders"]);
    // Another seed, cached in its place.
    let seeded = json(&["builders", "ncl", "--method", "ga", "--seed", "3", "--format", "json"], dir.path());
    assert_eq!(seeded["from_cache"], false);
    assert_eq!(seeded["builders"], summary["builders"]);

    // BEAPI at a larger scope, builders auto (hill climbing by default):
    // the GA's cached set is taken, whatever its seed, and said so.
    let beapi = json(&["beapi", "ncl", "--scope", "6", "--format", "json"], dir.path());
    assert_eq!(beapi["builders"], summary["builders"]);
    let notes = strings(&beapi["notes"]);
    // The note names the cache file, so that a wrong one can be found.
    let read = |n: &&String| n.contains("read from the cache (") && n.contains(".ga.json;");
    assert!(notes.iter().filter(read).any(|n| n.contains("identified by the genetic algorithm")), "{notes:?}");
}

/// Hill climbing in text: the builders, the counts and the replay line.
#[test]
fn hill_climbing_prints_builders_observers_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let output = smallscope(&["builders", "bst", "--method", "hc", "--scope", "4", "--no-cache"], dir.path());
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(text.contains("builders: new, add "), "{text}");
    assert!(text.contains("(sufficient at this scope)"), "{text}");
    assert!(text.contains("replay: smallscope builders bst --method hc --scope 4"), "{text}");
    assert!(!dir.path().join(".smallscope").exists(), "--no-cache wrote a cache");
}

#[test]
fn bad_input_is_refused_in_one_line() {
    assert!(refused_in_one_line(&["builders", "no-such-subject"]).contains("unknown subject"));
    assert!(refused_in_one_line(&["builders", "bst", "--scope", "0"]).contains("scope"));
    assert!(refused_in_one_line(&["builders", "bst", "--ints", "5..1"]).contains("5..1"));
}
