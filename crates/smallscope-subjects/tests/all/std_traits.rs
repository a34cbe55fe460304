//! The std traits of the built-in subjects and their planted bugs, checked
//! against facts computed here, independently of the engines.
//!
//! - `PartialEq`/`Eq`/`Hash`/`PartialOrd`/`Ord` are by abstract content: for a
//!   few hundred values of each correct subject, built through the public API
//!   by a seeded generator, every pair is equal iff the contents are (the
//!   element sequence, the in-order keys, the sorted keys), equal values hash
//!   alike, `cmp` is the contents' lexicographic order, and a clone is equal.
//! - Each planted bug shows on its documented shortest sequence and the
//!   correct variant does not; a brute force over every sequence of calls
//!   (keys and indices in `0..3`) shows that no shorter one triggers it.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};

use smallscope::heap::canonical_text;
use smallscope_subjects::avl::AvlTree;
use smallscope_subjects::binheap::{self, BinomialHeap};
use smallscope_subjects::bst::BinarySearchTree;
use smallscope_subjects::dll::{self, DoublyLinkedList};
use smallscope_subjects::ncl::{self, NodeCachingLinkedList};
use smallscope_subjects::rbt::RedBlackTree;
use smallscope_subjects::sll::SinglyLinkedList;
use smallscope_subjects::sorted_list::SortedList;

/// Marsaglia's xorshift64, seeded per test so that every run builds the same values.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// A small key or index, so that equal contents come up often.
    fn small(&mut self) -> i32 {
        self.below(4) as i32
    }
}

/// Discards a call's answer.
fn ignore<T>(_: T) {}

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

// ---------------------------------------------------------------------------
// Contracts of the std traits on the correct subjects
// ---------------------------------------------------------------------------

/// How many values each subject's check builds.
const VALUES: usize = 300;

/// Builds `VALUES` values, each by `new` and 0 to 7 random calls of `step`.
fn build<T>(seed: u64, new: impl Fn() -> T, step: impl Fn(&mut T, &mut XorShift)) -> Vec<T> {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D ^ seed);
    (0..VALUES)
        .map(|_| {
            let mut value = new();
            for _ in 0..rng.below(8) {
                step(&mut value, &mut rng);
            }
            value
        })
        .collect()
}

/// Checks every pair of `values` against `content`, the abstract value
/// computed through the public API. Returns how many pairs are equal but
/// print differently (`Debug` shows the representation).
fn check_contracts<T: Eq + Hash + Ord + Clone + Debug>(values: &[T], content: impl Fn(&T) -> Vec<i32>) -> usize {
    let contents: Vec<Vec<i32>> = values.iter().map(&content).collect();
    let hashes: Vec<u64> = values.iter().map(hash_of).collect();
    let texts: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    let mut equal_pairs = 0;
    let mut equal_but_different = 0;
    for (i, a) in values.iter().enumerate() {
        let copy = a.clone();
        assert_eq!(copy, *a, "a clone differs");
        assert_eq!(hash_of(&copy), hashes[i], "a clone hashes differently: {a:?}");
        assert_eq!(content(&copy), contents[i]);
        for (j, b) in values.iter().enumerate() {
            let same = contents[i] == contents[j];
            assert_eq!(a == b, same, "== disagrees with the contents: {a:?} vs {b:?}");
            assert_eq!(a != b, !same);
            if same {
                equal_pairs += 1;
                assert_eq!(hashes[i], hashes[j], "equal values hash differently: {a:?} vs {b:?}");
                equal_but_different += usize::from(texts[i] != texts[j]);
            }
            let order = contents[i].cmp(&contents[j]);
            assert_eq!(a.cmp(b), order, "cmp disagrees with the contents: {a:?} vs {b:?}");
            assert_eq!(a.partial_cmp(b), Some(order));
            assert_eq!(b.cmp(a), order.reverse());
        }
    }
    // Enough collisions for the checks to mean something.
    assert!(equal_pairs > 2 * values.len(), "only {equal_pairs} equal pairs");
    equal_but_different
}

#[test]
fn sll_traits_follow_the_element_sequence() {
    let values = build(1, SinglyLinkedList::new, |l, r| {
        let (x, i) = (r.small(), r.small() as usize);
        match r.below(6) {
            0 | 1 => l.add(x),
            2 => l.add_first(x),
            3 => ignore(l.add_at(i, x)),
            4 => ignore(l.remove(x)),
            _ => ignore(l.remove_at(i)),
        }
    });
    check_contracts(&values, SinglyLinkedList::to_vec);
}

#[test]
fn dll_traits_follow_the_element_sequence() {
    let values = build(2, DoublyLinkedList::<dll::Correct>::new, |l, r| {
        let (x, i) = (r.small(), r.small() as usize);
        match r.below(7) {
            0 | 1 => l.add(x),
            2 => l.add_first(x),
            3 => ignore(l.add_at(i, x)),
            4 => ignore(l.remove(x)),
            5 => ignore(l.remove_last()),
            _ => ignore(l.set(i, x)),
        }
    });
    check_contracts(&values, DoublyLinkedList::to_vec);
}

#[test]
fn sorted_list_traits_follow_the_value_sequence() {
    let values = build(3, SortedList::new, |l, r| {
        let x = r.small();
        match r.below(4) {
            0 | 1 => l.insert(x),
            2 => ignore(l.remove(x)),
            _ => ignore(l.pop_min()),
        }
    });
    check_contracts(&values, SortedList::to_vec);
}

#[test]
fn ncl_traits_follow_the_element_sequence_not_the_cache() {
    let values = build(4, NodeCachingLinkedList::<ncl::Correct>::new, |l, r| {
        let (x, i) = (r.small(), r.small() as usize);
        match r.below(7) {
            0 | 1 => l.add(x),
            2 => l.add_first(x),
            3 => ignore(l.remove_first()),
            4 => ignore(l.remove_value(x)),
            5 => ignore(l.remove_at(i)),
            _ => l.clear(),
        }
    });
    // Equal lists with different caches are among the pairs.
    let caches: HashMap<Vec<i32>, Vec<usize>> = values.iter().fold(HashMap::new(), |mut m, l| {
        m.entry(l.to_vec()).or_default().push(l.cache_size());
        m
    });
    assert!(caches.values().any(|c| c.iter().any(|&s| s != c[0])));
    assert!(check_contracts(&values, NodeCachingLinkedList::to_vec) > 0);
}

#[test]
fn bst_traits_follow_the_in_order_keys() {
    let values = build(5, BinarySearchTree::new, |t, r| {
        let x = r.small();
        match r.below(5) {
            0..=2 => ignore(t.add(x)),
            3 => ignore(t.remove(x)),
            _ => ignore(t.remove_min()),
        }
    });
    // Equal trees of different shapes are among the pairs.
    assert!(check_contracts(&values, BinarySearchTree::to_vec) > 0);
}

#[test]
fn avl_traits_follow_the_in_order_keys() {
    let values = build(6, AvlTree::new, |t, r| {
        let x = r.small();
        match r.below(5) {
            0..=2 => ignore(t.add(x)),
            3 => ignore(t.remove(x)),
            _ => ignore(t.remove_max()),
        }
    });
    assert!(check_contracts(&values, AvlTree::to_vec) > 0);
}

#[test]
fn rbt_traits_follow_the_in_order_keys() {
    let values = build(7, RedBlackTree::new, |t: &mut RedBlackTree, r| {
        let x = r.small();
        match r.below(5) {
            0..=2 => ignore(t.add(x)),
            3 => ignore(t.remove(x)),
            _ => ignore(t.poll_first()),
        }
    });
    assert!(check_contracts(&values, RedBlackTree::to_vec) > 0);
}

#[test]
fn binheap_traits_follow_the_sorted_keys() {
    let values = build(8, BinomialHeap::<binheap::Correct>::new, |h, r| {
        let (x, y) = (r.small(), r.small());
        match r.below(6) {
            0..=2 => h.insert(x),
            3 => ignore(h.extract_min()),
            4 => ignore(h.delete(x)),
            _ => ignore(h.decrease_key(x, y)),
        }
    });
    assert!(check_contracts(&values, BinomialHeap::to_sorted_vec) > 0);
}

// ---------------------------------------------------------------------------
// Brute force over call sequences
// ---------------------------------------------------------------------------

/// Keys and indices of the brute force.
const KEYS: std::ops::Range<i32> = 0..3;

/// A call on one value: its text and what it does.
type Call<T> = (String, Box<dyn Fn(&mut T)>);

/// A call that moves a second value into the first, like `BinomialHeap::union`.
type Union<T> = fn(&mut T, T);

/// Every value reachable with at most `max_calls` calls (the constructor
/// included), each first reached by the fewest, with that sequence's text.
/// Values are told apart by `key`. `union`, if given, takes a second value
/// built independently (its calls count too), as a random tester passes one.
/// A call that panics is recorded in `panics` as (calls, text, message).
struct Explored<T> {
    /// `levels[n]`: the values first reached in exactly `n` calls.
    levels: Vec<Vec<(T, String)>>,
    panics: Vec<(usize, String, String)>,
}

fn explore<T: Clone>(
    max_calls: usize,
    new: (&str, fn() -> T),
    calls: &[Call<T>],
    union: Option<(&str, Union<T>)>,
    key: impl Fn(&T) -> String,
) -> Explored<T> {
    let mut seen = std::collections::HashSet::new();
    let mut levels: Vec<Vec<(T, String)>> = vec![Vec::new(); max_calls + 1];
    let mut panics = Vec::new();
    let first = (new.1)();
    seen.insert(key(&first));
    levels[1].push((first, format!("s = {}()", new.0)));
    let mut run = |n: usize, text: String, f: &dyn Fn() -> T, levels: &mut Vec<Vec<(T, String)>>| match catch_unwind(
        AssertUnwindSafe(f),
    ) {
        Ok(value) => {
            if seen.insert(key(&value)) {
                levels[n].push((value, text));
            }
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panics.push((n, text, message));
        }
    };
    for n in 2..=max_calls {
        for i in 0..levels[n - 1].len() {
            for (name, call) in calls {
                let (value, text) = &levels[n - 1][i];
                let text = format!("{text}; s.{name}");
                let (value, call) = (value.clone(), call);
                run(
                    n,
                    text,
                    &move || {
                        let mut value = value.clone();
                        call(&mut value);
                        value
                    },
                    &mut levels,
                );
            }
        }
        if let Some((name, union)) = union {
            // `a.union(b)` with a built in `i` calls and b in `n - 1 - i`.
            for i in 1..n - 1 {
                for a in 0..levels[i].len() {
                    for b in 0..levels[n - 1 - i].len() {
                        let (va, ta) = &levels[i][a];
                        let (vb, tb) = &levels[n - 1 - i][b];
                        let text =
                            format!("{ta}; t = {{ {} }}; s.{name}(t)", tb.replace("s = ", "t = ").replace("s.", "t."));
                        let (va, vb) = (va.clone(), vb.clone());
                        run(
                            n,
                            text,
                            &move || {
                                let mut value = va.clone();
                                union(&mut value, vb.clone());
                                value
                            },
                            &mut levels,
                        );
                    }
                }
            }
        }
    }
    Explored { levels, panics }
}

/// `name(k)` for every key.
fn keyed<T: 'static>(name: &str, f: fn(&mut T, i32)) -> Vec<Call<T>> {
    KEYS.map(|k| (format!("{name}({k})"), Box::new(move |t: &mut T| f(t, k)) as Box<dyn Fn(&mut T)>)).collect()
}

/// `name(a, b)` for every pair of keys.
fn keyed2<T: 'static>(name: &str, f: fn(&mut T, i32, i32)) -> Vec<Call<T>> {
    KEYS.flat_map(|a| KEYS.map(move |b| (a, b)))
        .map(|(a, b)| (format!("{name}({a}, {b})"), Box::new(move |t: &mut T| f(t, a, b)) as Box<dyn Fn(&mut T)>))
        .collect()
}

fn plain<T: 'static>(name: &str, f: fn(&mut T)) -> Vec<Call<T>> {
    vec![(format!("{name}()"), Box::new(f) as Box<dyn Fn(&mut T)>)]
}

// ---------------------------------------------------------------------------
// ncl-bug-hash
// ---------------------------------------------------------------------------

/// The documented trigger: `a = new()` and `b = new(); b.add(0); b.remove_first()`.
fn ncl_hash_pair<V: ncl::Variant>() -> (NodeCachingLinkedList<V>, NodeCachingLinkedList<V>) {
    let a = NodeCachingLinkedList::<V>::new();
    let mut b = NodeCachingLinkedList::<V>::new();
    b.add(0);
    b.remove_first().unwrap();
    (a, b)
}

#[test]
fn ncl_hash_bug_hashes_equal_lists_apart() {
    let (a, b) = ncl_hash_pair::<ncl::HashBug>();
    assert!(a.rep_ok() && b.rep_ok());
    assert_eq!((a.cache_size(), b.cache_size()), (0, 1));
    assert!(a == b);
    assert_ne!(hash_of(&a), hash_of(&b), "the bug must show");
    let (a, b) = ncl_hash_pair::<ncl::Correct>();
    assert!(a == b);
    assert_eq!(hash_of(&a), hash_of(&b));
    // Only `Hash` differs: everything else is the correct list's.
    let (x, y) = ncl_hash_pair::<ncl::HashBug>();
    let same = |bug: &NodeCachingLinkedList<ncl::HashBug>, correct: &NodeCachingLinkedList<ncl::Correct>| {
        assert_eq!(format!("{bug:?}").replace("HashBug", "Correct"), format!("{correct:?}"));
    };
    same(&x, &a);
    same(&y, &b);
}

fn ncl_calls<V: ncl::Variant>() -> Vec<Call<NodeCachingLinkedList<V>>> {
    type L<V> = NodeCachingLinkedList<V>;
    [
        plain::<L<V>>("remove_first", |l| ignore(l.remove_first())),
        plain::<L<V>>("remove_last", |l| ignore(l.remove_last())),
        plain::<L<V>>("clear", L::clear),
        keyed::<L<V>>("add", L::add),
        keyed::<L<V>>("add_first", L::add_first),
        keyed::<L<V>>("remove_value", |l, k| ignore(l.remove_value(k))),
        keyed::<L<V>>("remove_at", |l, i| ignore(l.remove_at(i as usize))),
        keyed2::<L<V>>("add_at", |l, i, k| ignore(l.add_at(i as usize, k))),
        keyed2::<L<V>>("set", |l, i, k| ignore(l.set(i as usize, k))),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Pairs of lists built with `total` calls in all that are equal but hash differently.
fn ncl_hash_witnesses<V: ncl::Variant>(explored: &Explored<NodeCachingLinkedList<V>>, total: usize) -> Vec<String> {
    let mut out = Vec::new();
    for i in 1..total {
        for (a, ta) in &explored.levels[i] {
            for (b, tb) in &explored.levels[total - i] {
                if a == b && hash_of(a) != hash_of(b) {
                    out.push(format!("{{ {ta} }} vs {{ {tb} }}"));
                }
            }
        }
    }
    out
}

#[test]
fn ncl_hash_bug_needs_four_calls() {
    let bug = explore(3, ("new", NodeCachingLinkedList::<ncl::HashBug>::new), &ncl_calls(), None, |l| format!("{l:?}"));
    for total in 2..=3 {
        assert_eq!(ncl_hash_witnesses(&bug, total), Vec::<String>::new(), "{total} calls");
    }
    let witnesses = ncl_hash_witnesses(&bug, 4);
    assert!(
        witnesses.contains(&"{ s = new() } vs { s = new(); s.add(0); s.remove_first() }".to_owned()),
        "{witnesses:?}"
    );
    // Every level's lists agree with themselves; the correct list has no witness.
    let correct =
        explore(3, ("new", NodeCachingLinkedList::<ncl::Correct>::new), &ncl_calls(), None, |l| format!("{l:?}"));
    for total in 2..=4 {
        assert_eq!(ncl_hash_witnesses(&correct, total), Vec::<String>::new());
    }
    assert!(bug.panics.is_empty() && correct.panics.is_empty());
}

// ---------------------------------------------------------------------------
// dll-bug-remove
// ---------------------------------------------------------------------------

#[test]
fn dll_remove_bug_breaks_the_list_and_its_size() {
    fn run<V: dll::Variant>(keys: &[i32], removed: i32) -> DoublyLinkedList<V> {
        let mut list = DoublyLinkedList::<V>::new();
        for &k in keys {
            list.add(k);
        }
        assert!(list.remove(removed));
        list
    }
    // The shortest: new() add(0) remove(0).
    let (bug, correct) = (run::<dll::RemoveBug>(&[0], 0), run::<dll::Correct>(&[0], 0));
    assert!(!bug.rep_ok());
    assert!(correct.rep_ok());
    assert_eq!((bug.size(), correct.size()), (1, 0));
    assert_eq!((bug.is_empty(), correct.is_empty()), (false, true));
    assert_eq!(bug.to_vec(), correct.to_vec());
    // The brief's example: new() add(1) add(2) remove(2).
    let (bug, correct) = (run::<dll::RemoveBug>(&[1, 2], 2), run::<dll::Correct>(&[1, 2], 2));
    assert!(!bug.rep_ok() && correct.rep_ok());
    assert_eq!((bug.size(), correct.size()), (2, 1));
    assert_eq!((bug.get_last(), correct.get_last()), (Ok(1), Ok(1)));
    // Removing an inner element by value is not the bug's path.
    let bug = run::<dll::RemoveBug>(&[1, 2], 1);
    assert!(bug.rep_ok());
    assert_eq!((bug.size(), bug.to_vec()), (1, vec![2]));
}

fn dll_calls<V: dll::Variant>() -> Vec<Call<DoublyLinkedList<V>>> {
    type L<V> = DoublyLinkedList<V>;
    [
        keyed::<L<V>>("add", L::add),
        keyed::<L<V>>("add_first", L::add_first),
        keyed::<L<V>>("remove", |l, k| ignore(l.remove(k))),
        keyed::<L<V>>("remove_last_occurrence", |l, k| ignore(l.remove_last_occurrence(k))),
        keyed::<L<V>>("remove_at", |l, i| ignore(l.remove_at(i as usize))),
        keyed2::<L<V>>("add_at", |l, i, k| ignore(l.add_at(i as usize, k))),
        keyed2::<L<V>>("set", |l, i, k| ignore(l.set(i as usize, k))),
        plain::<L<V>>("remove_first", |l| ignore(l.remove_first())),
        plain::<L<V>>("remove_last", |l| ignore(l.remove_last())),
        plain::<L<V>>("clear", L::clear),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The sequences of `n` calls after which `rep_ok` fails.
fn dll_broken<V: dll::Variant>(explored: &Explored<DoublyLinkedList<V>>, n: usize) -> Vec<String> {
    explored.levels[n].iter().filter(|(l, _)| !l.rep_ok()).map(|(_, t)| t.clone()).collect()
}

#[test]
fn dll_remove_bug_needs_three_calls() {
    let bug = explore(4, ("new", DoublyLinkedList::<dll::RemoveBug>::new), &dll_calls(), None, canonical_text);
    assert!(bug.panics.is_empty(), "{:?}", bug.panics);
    for n in 1..=2 {
        assert_eq!(dll_broken(&bug, n), Vec::<String>::new(), "{n} calls");
    }
    let broken = dll_broken(&bug, 3);
    assert!(broken.contains(&"s = new(); s.add(0); s.remove(0)".to_owned()), "{broken:?}");
    // Only `remove(x)` reaches the bug.
    assert!(broken.iter().all(|t| t.contains(".remove(")), "{broken:?}");
    let correct = explore(4, ("new", DoublyLinkedList::<dll::Correct>::new), &dll_calls(), None, canonical_text);
    assert!(correct.panics.is_empty());
    for n in 1..=4 {
        assert_eq!(dll_broken(&correct, n), Vec::<String>::new());
    }
}

// ---------------------------------------------------------------------------
// binheap-bug-rebalance
// ---------------------------------------------------------------------------

fn binheap_calls<V: binheap::Variant>() -> Vec<Call<BinomialHeap<V>>> {
    type H<V> = BinomialHeap<V>;
    [
        keyed::<H<V>>("insert", H::insert),
        keyed::<H<V>>("delete", |h, k| ignore(h.delete(k))),
        keyed::<H<V>>("contains", |h, k| ignore(h.contains(k))),
        keyed2::<H<V>>("decrease_key", |h, a, b| ignore(h.decrease_key(a, b))),
        plain::<H<V>>("extract_min", |h| ignore(h.extract_min())),
        plain::<H<V>>("minimum", |h| ignore(h.minimum())),
        plain::<H<V>>("clear", H::clear),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn explore_binheap<V: binheap::Variant>(max_calls: usize) -> Explored<BinomialHeap<V>> {
    // `Debug` shows the arena and the free list, on which the bug depends.
    explore(max_calls, ("new", BinomialHeap::<V>::new), &binheap_calls(), Some(("union", BinomialHeap::union)), |h| {
        format!("{h:?}")
    })
}

/// The documented shortest triggers.
const BINHEAP_TRIGGERS: [&str; 2] = [
    "s = new(); s.insert(0); s.insert(1); s.insert(1); s.extract_min()",
    "s = new(); s.insert(1); s.insert(2); s.insert(0); s.delete(2)",
];

/// Runs a documented trigger on variant `V`; `Err` holds the panic message.
fn run_binheap_trigger<V: binheap::Variant>(text: &str) -> Result<BinomialHeap<V>, String> {
    catch_unwind(|| {
        let mut h = BinomialHeap::<V>::new();
        for call in text.split("; ").skip(1) {
            let call = call.strip_prefix("s.").unwrap();
            let (name, arg) = call.trim_end_matches(')').split_once('(').unwrap();
            match (name, arg.parse::<i32>().ok()) {
                ("insert", Some(k)) => h.insert(k),
                ("delete", Some(k)) => h.delete(k).unwrap(),
                ("extract_min", None) => ignore(h.extract_min().unwrap()),
                _ => panic!("unknown call {call}"),
            }
        }
        h
    })
    .map_err(|payload| payload.downcast_ref::<String>().cloned().unwrap_or_default())
}

#[test]
fn binheap_rebalance_bug_panics_on_the_documented_triggers() {
    for text in BINHEAP_TRIGGERS {
        let message = run_binheap_trigger::<binheap::RebalanceBug>(text).err();
        assert!(message.as_deref().is_some_and(|m| m.contains("index out of bounds")), "{text}: {message:?}");
        let heap = run_binheap_trigger::<binheap::Correct>(text).expect("the correct heap does not panic");
        assert!(heap.rep_ok(), "{text}");
    }
    // The same sequence one call short is harmless, and the heap is the correct one's.
    let short = "s = new(); s.insert(0); s.insert(1); s.insert(1)";
    let bug = run_binheap_trigger::<binheap::RebalanceBug>(short).unwrap();
    let correct = run_binheap_trigger::<binheap::Correct>(short).unwrap();
    assert!(bug.rep_ok());
    assert_eq!(format!("{bug:?}").replace("RebalanceBug", "Correct"), format!("{correct:?}"));
}

#[test]
fn binheap_rebalance_bug_needs_five_calls() {
    let bug = explore_binheap::<binheap::RebalanceBug>(5);
    // Nothing shorter than five calls panics, `union` included...
    let shortest = bug.panics.iter().map(|(n, _, _)| *n).min();
    assert_eq!(shortest, Some(5), "{:?}", bug.panics.iter().filter(|p| p.0 < 5).collect::<Vec<_>>());
    // ...and every panic is the planted one, in the rebalance after a root removal.
    assert!(bug.panics.iter().all(|(_, _, m)| m.contains("index out of bounds")), "{:?}", bug.panics);
    assert!(
        bug.panics.iter().all(|(_, t, _)| t.ends_with("extract_min()") || t.contains("delete(")),
        "{:?}",
        bug.panics
    );
    let texts: Vec<&str> = bug.panics.iter().map(|(_, t, _)| t.as_str()).collect();
    for trigger in BINHEAP_TRIGGERS {
        assert!(texts.contains(&trigger), "{trigger} is not among {texts:#?}");
    }
    // Up to four calls the bug variant reaches exactly the correct heaps.
    let correct = explore_binheap::<binheap::Correct>(5);
    assert!(correct.panics.is_empty(), "{:?}", correct.panics);
    for n in 1..=4 {
        let bug_level: Vec<(String, String)> = bug.levels[n]
            .iter()
            .map(|(h, t)| (format!("{h:?}").replace("RebalanceBug", "Correct"), t.clone()))
            .collect();
        let correct_level: Vec<(String, String)> =
            correct.levels[n].iter().map(|(h, t)| (format!("{h:?}"), t.clone())).collect();
        assert_eq!(bug_level, correct_level, "{n} calls");
    }
    for level in &correct.levels {
        assert!(level.iter().all(|(h, _)| h.rep_ok()));
    }
}
