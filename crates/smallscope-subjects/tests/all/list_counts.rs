//! Structure counts of the list subjects (`sll`, `dll`, `sorted-list`, `ncl`)
//! against facts computed independently here: a brute-force enumerator of
//! value sequences, filtered, and the matching closed form. Neither looks at
//! the engine's output.
//!
//! Scope n: at most n objects of each class (header and cache nodes count),
//! values drawn from `0..n`.

use smallscope::{Beapi, BeapiReport, Builders, Subject};
use smallscope_subjects::dll::DoublyLinkedList;
use smallscope_subjects::ncl::{CacheBug, Correct, NodeCachingLinkedList};
use smallscope_subjects::sll::SinglyLinkedList;
use smallscope_subjects::sorted_list::SortedList;

const SCOPES: std::ops::RangeInclusive<u32> = 1..=5;

fn run<T: Subject + smallscope::api::StdTraits>(n: u32, builders: Builders) -> BeapiReport {
    let report = Beapi::<T>::new().scope(n).builders(builders).run().expect("valid configuration");
    assert!(!report.stopped_early(), "scope {n} stopped early");
    report
}

fn run_ok<T: Subject + smallscope::api::StdTraits>(n: u32) -> usize {
    let report = run::<T>(n, Builders::All);
    assert!(report.failures.is_empty(), "scope {n}: {:?}", report.failures);
    report.structure_count()
}

/// Every sequence over `0..values` of length at most `max_len`, by counting
/// in base `values` (an odometer per length).
fn sequences(values: u32, max_len: u32) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    for len in 0..=max_len {
        let mut digits = vec![0u32; len as usize];
        loop {
            all.push(digits.clone());
            // Increment the odometer; stop when it wraps around.
            let mut pos = 0;
            while pos < digits.len() && digits[pos] + 1 == values {
                digits[pos] = 0;
                pos += 1;
            }
            if pos == digits.len() {
                break;
            }
            digits[pos] += 1;
        }
    }
    all
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// A list with a header entry: up to n-1 elements, any sequence.
fn header_list_count(n: u32) -> usize {
    let brute = sequences(n, n - 1).len();
    let closed: u64 = (0..n).map(|k| u64::from(n).pow(k)).sum();
    assert_eq!(brute as u64, closed, "enumerator and closed form disagree at {n}");
    brute
}

/// A sorted list without header: non-decreasing sequences of length at most n.
fn sorted_list_count(n: u32) -> usize {
    let brute = sequences(n, n).iter().filter(|s| s.windows(2).all(|w| w[0] <= w[1])).count();
    assert_eq!(brute as u64, binomial(2 * u64::from(n), u64::from(n)), "enumerator and C(2n, n) disagree at {n}");
    brute
}

/// NodeCachingLinkedList: a main list of k values and a cache of c valueless
/// nodes, with header + k + c <= n nodes and c <= 20.
fn ncl_count(n: u32) -> usize {
    let mut brute = 0;
    for seq in sequences(n, n - 1) {
        let k = seq.len() as u32;
        brute += (0..=20u32).filter(|c| 1 + k + c <= n).count();
    }
    let mut closed = 0u64;
    for k in 0..n {
        for c in 0..=20u32 {
            if 1 + k + c <= n {
                closed += u64::from(n).pow(k);
            }
        }
    }
    assert_eq!(brute as u64, closed, "enumerator and closed form disagree at {n}");
    brute
}

#[test]
fn enumerator_small_cases() {
    assert_eq!(sequences(2, 2), [vec![], vec![0], vec![1], vec![0, 0], vec![1, 0], vec![0, 1], vec![1, 1]]);
    assert_eq!(header_list_count(3), 1 + 3 + 9);
    assert_eq!(sorted_list_count(2), 6); // [], [0], [1], [0,0], [0,1], [1,1]
    assert_eq!(ncl_count(3), 1 + 1 + 3 + 1 + 3 + 9); // (k, c) = (0,0), (0,1), (1,0), (0,2), (1,1), (2,0)
}

#[test]
fn sll_counts() {
    for n in SCOPES {
        assert_eq!(run_ok::<SinglyLinkedList>(n), header_list_count(n), "sll at scope {n}");
    }
}

#[test]
fn dll_counts() {
    for n in SCOPES {
        assert_eq!(run_ok::<DoublyLinkedList>(n), header_list_count(n), "dll at scope {n}");
    }
}

#[test]
fn sorted_list_counts() {
    for n in SCOPES {
        assert_eq!(run_ok::<SortedList>(n), sorted_list_count(n), "sorted-list at scope {n}");
    }
}

#[test]
fn ncl_counts() {
    for n in SCOPES {
        assert_eq!(run_ok::<NodeCachingLinkedList<Correct>>(n), ncl_count(n), "ncl at scope {n}");
    }
}

/// The planted bug needs add, remove, add: one cache node, so scope 2.
#[test]
fn ncl_cache_bug_is_found() {
    let clean = run::<NodeCachingLinkedList<CacheBug>>(1, Builders::All);
    assert!(clean.failures.is_empty(), "scope 1 cannot reach the bug: {:?}", clean.failures);
    let report = run::<NodeCachingLinkedList<CacheBug>>(2, Builders::All);
    assert!(
        report.failures.iter().any(|f| f.kind == smallscope::events::FailureKind::RepOkFalse),
        "{:?}",
        report.failures
    );
}
