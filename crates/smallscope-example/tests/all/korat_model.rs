//! Korat on this crate's model of `SortedSet` (`src/model.rs`), with the
//! check of `remove` it runs on every structure, through the public API.

use smallscope::korat;
use smallscope_example::model::{self, SetModel};

/// Subsets of the `n + 1` keys `0..=n` with at most `n` keys, counted one by one.
fn subsets(n: u32, at_least: u32) -> u64 {
    (0u64..1 << (n + 1)).filter(|set| (at_least..=n).contains(&set.count_ones())).count() as u64
}

#[test]
fn the_model_finds_every_small_set_and_the_correct_remove_passes_the_check() {
    for n in 1..=4 {
        let invariants = korat::checked::<SetModel, _>(korat::from_fn::<SetModel>(model::rep_ok), model::check);
        let report = korat::run::<SetModel>(n.into(), invariants).unwrap();
        assert_eq!(report.found, subsets(n, 0), "scope {n}");
        assert!(report.failures.is_empty(), "scope {n}: {:?}", report.failures);
    }
}

#[test]
fn the_check_finds_the_planted_bug_in_remove_on_every_set_of_two_keys_or_more() {
    for n in 1..=4 {
        let invariants = korat::checked::<SetModel, _>(korat::from_fn::<SetModel>(model::rep_ok), model::check_buggy);
        let report = korat::run::<SetModel>(n.into(), invariants).unwrap();
        assert_eq!(report.found, subsets(n, 0), "the check changes no count (scope {n})");
        // The bug: removing the largest key of a set of two or more keys leaves `len` one too high.
        let failing: u64 = report.failures.iter().map(|f| f.count).sum();
        assert_eq!(failing, subsets(n, 2), "scope {n}: {:?}", report.failures);
        // The picture names objects as the witness does: `NodeModel#0.key = 0` is `NodeModel#0`, `key: 0`.
        if let Some(first) = report.failures.first() {
            assert!(first.witness.text.contains("NodeModel#0.key = 0"), "{}", first.witness.text);
            assert!(first.picture.as_deref().unwrap().contains(r"NodeModel#0\nkey: 0\l"), "{first:?}");
        }
        for failure in &report.failures {
            assert_eq!((failure.kind.name(), failure.during.name()), ("contract", "check"), "{failure:?}");
            assert!(failure.message.contains("the model says"), "{}", failure.message);
            assert_eq!(failure.contract.as_deref(), Some("check_buggy"));
            assert!(failure.describe().starts_with("check_buggy broken: remove("), "{}", failure.describe());
            assert!(failure.picture.as_deref().is_some_and(|dot| dot.contains("NodeModel#")), "{failure:?}");
        }
    }
}

#[test]
fn a_panic_in_the_check_is_a_finding_and_the_search_goes_on() {
    fn panicking(set: model::SetModelView<'_>) -> Result<(), String> {
        assert!(set.len() < 2, "a set of {} keys", set.len());
        Ok(())
    }
    let invariants = korat::checked::<SetModel, _>(korat::from_fn::<SetModel>(model::rep_ok), panicking);
    let report = korat::run::<SetModel>(3, invariants).unwrap();
    assert_eq!(report.found, subsets(3, 0));
    let failing: u64 = report.failures.iter().map(|f| f.count).sum();
    assert_eq!(failing, subsets(3, 2), "{:?}", report.failures);
    assert!(report.failures.iter().all(|f| f.kind.name() == "panic" && f.during.name() == "check"));
}

/// The guide's code is this crate's: each line of each Rust block of
/// `docs/korat.md` is a line of `src/model.rs`, in the same order.
#[test]
fn the_guide_shows_the_example_as_it_is() {
    let guide = include_str!("../../../../docs/korat.md");
    let source: Vec<&str> = include_str!("../../src/model.rs").lines().map(str::trim).collect();
    let blocks: Vec<&str> = guide.split("```rust\n").skip(1).map(|b| &b[..b.find("```").unwrap()]).collect();
    assert_eq!(blocks.len(), 5, "model, invariant, conversion, check, registration");
    for block in blocks {
        let mut rest = source.iter();
        for line in block.lines().map(str::trim).filter(|l| !l.is_empty()) {
            assert!(rest.any(|s| *s == line), "the guide's line is not in src/model.rs (in order): {line}");
        }
    }
}
