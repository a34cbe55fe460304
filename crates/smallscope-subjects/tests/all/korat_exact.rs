//! Korat ports whose counts are checked exactly: `SearchTree`, `HeapArray`,
//! `SortedList` (found and explored), `SinglyLinkedList` and
//! `DoublyLinkedList` (found; explored is this port's own, printed).
//!
//! References: Korat 1.0's exploration tests (HeapArray(6) 13 139 / 64 533,
//! HeapArray(7) 117 562 / 519 968, SortedList(11, 11, 12, 11) 352 716 /
//! 3 880 154, BinaryTree(8) 1 430 / 54 418), its README (SearchTree(3) 5,
//! SinglyLinkedList(3) 5, DoublyLinkedList(3) 10), closed forms, and
//! brute-force counts computed here without the engine.

use smallscope::korat::{self, KoratReport, Model};
use smallscope_subjects::korat::binary_tree::{self, BinaryTree};
use smallscope_subjects::korat::doubly_linked_list::{self, DoublyLinkedList};
use smallscope_subjects::korat::heap_array::{self, HeapArray};
use smallscope_subjects::korat::search_tree::{self, SearchTree};
use smallscope_subjects::korat::singly_linked_list::{self, SinglyLinkedList};
use smallscope_subjects::korat::sorted_list::{self, SortedList};

fn run<T: Model>(n: i64, rep_ok: for<'c> fn(T::View<'c>) -> bool) -> KoratReport {
    korat::run::<T>(n, korat::from_fn::<T>(rep_ok)).unwrap()
}

fn catalan(n: u64) -> u64 {
    (0..n).fold(1, |c, i| c * 2 * (2 * i + 1) / (i + 2))
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// Bell numbers by the Bell triangle.
fn bell(n: usize) -> u64 {
    let mut row = vec![1u64];
    for _ in 0..n {
        let mut next = vec![*row.last().unwrap()];
        for &x in &row {
            next.push(next.last().unwrap() + x);
        }
        row = next;
    }
    row[0]
}

// ---------------------------------------------------------------- SearchTree

/// A binary tree shape: for each node in pre-order, its ancestors and
/// whether the node lies in their left subtree.
type Shape = Vec<Vec<(usize, bool)>>;

fn shapes(n: usize) -> Vec<Shape> {
    /// Shapes of `n` nodes whose root gets pre-order index `first`, below
    /// the ancestors `above`.
    fn build(n: usize, first: usize, above: &[(usize, bool)]) -> Vec<Shape> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for left_size in 0..n {
            let left_above: Vec<_> = above.iter().copied().chain([(first, true)]).collect();
            let right_above: Vec<_> = above.iter().copied().chain([(first, false)]).collect();
            for left in build(left_size, first + 1, &left_above) {
                for right in build(n - 1 - left_size, first + 1 + left_size, &right_above) {
                    let mut shape = vec![above.to_vec()];
                    shape.extend(left.iter().cloned());
                    shape.extend(right);
                    out.push(shape);
                }
            }
        }
        out
    }
    build(n, 0, &[])
}

/// Korat's runs over the keys of one shape, read in pre-order with keys in
/// `0..n`, each run stopping at the first key out of its bounds:
/// `n * (V0 + .. + V(m-1)) - (V1 + .. + V(m-1))`, `Vk` being the number of
/// key prefixes of length k within bounds.
fn key_runs(shape: &Shape, n: i64) -> (u64, u64) {
    let mut valid_prefixes = vec![0u64; shape.len() + 1];
    let mut keys = Vec::new();
    fn extend(shape: &Shape, n: i64, keys: &mut Vec<i64>, counts: &mut [u64]) {
        counts[keys.len()] += 1;
        if keys.len() == shape.len() {
            return;
        }
        for key in 0..n {
            let ok = shape[keys.len()].iter().all(|&(a, left)| if left { key < keys[a] } else { key > keys[a] });
            if ok {
                keys.push(key);
                extend(shape, n, keys, counts);
                keys.pop();
            }
        }
    }
    extend(shape, n, &mut keys, &mut valid_prefixes);
    let m = shape.len();
    if m == 0 {
        return (1, 1); // the empty tree: one run, valid
    }
    let runs = n as u64 * valid_prefixes[..m].iter().sum::<u64>() - valid_prefixes[1..m].iter().sum::<u64>();
    (runs, valid_prefixes[m])
}

/// SearchTree's search is BinaryTree's, each tree it finds replaced by the
/// search over that tree's keys.
fn expected_search_tree(n: i64, binary_tree_explored: u64) -> (u64, u64) {
    let trees = shapes(n as usize);
    assert_eq!(trees.len() as u64, catalan(n as u64));
    let (runs, found) = trees.iter().map(|s| key_runs(s, n)).fold((0, 0), |(r, f), (a, b)| (r + a, f + b));
    (found, binary_tree_explored - trees.len() as u64 + runs)
}

#[test]
fn search_trees_match_catalan_and_binary_tree_walk() {
    for n in 0..=7 {
        let stats = run::<SearchTree>(n, search_tree::rep_ok);
        let binary = run::<BinaryTree>(n, binary_tree::rep_ok);
        assert_eq!(stats.found, catalan(n as u64), "n = {n}");
        assert_eq!((stats.found, stats.explored), expected_search_tree(n, binary.explored), "n = {n}");
        if n == 3 {
            assert_eq!(stats.found, 5, "Korat's README: SearchTree(3) generates 5");
        }
        println!("SearchTree({n}): {} found, {} explored", stats.found, stats.explored);
    }
}

#[test]
#[ignore = "slow in debug; run with --release --ignored"]
fn search_tree_8_against_korat_binary_tree_8() {
    let stats = run::<SearchTree>(8, search_tree::rep_ok);
    // Korat 1.0, BinaryTree(8): 54 418 explored.
    assert_eq!((stats.found, stats.explored), expected_search_tree(8, 54418));
    println!("SearchTree(8): {} found, {} explored", stats.found, stats.explored);
}

// ----------------------------------------------------------------- HeapArray

/// Valid heaps counted over the whole space (no isomorphism to break).
fn brute_force_heaps(n: i64) -> u64 {
    let mut count = 0;
    for len in 0..=n as usize {
        let mut array = vec![-1i64; len];
        loop {
            let heap = (0..=len).filter(|&size| {
                (0..size).all(|i| array[i] != -1 && (i == 0 || array[i] <= array[(i - 1) / 2]))
                    && array[size..].iter().all(|&e| e == -1)
            });
            count += heap.count() as u64;
            // Odometer over -1..=n.
            let Some(i) = array.iter().rposition(|&e| e < n) else { break };
            array[i] += 1;
            array[i + 1..].iter_mut().for_each(|e| *e = -1);
        }
    }
    count
}

#[test]
fn heap_arrays_match_korat() {
    for n in 0..=6 {
        let stats = run::<HeapArray>(n, heap_array::rep_ok);
        if n <= 5 {
            assert_eq!(stats.found, brute_force_heaps(n), "n = {n}");
        }
        println!("HeapArray({n}): {} found, {} explored", stats.found, stats.explored);
        if n == 6 {
            // Korat 1.0, HeapArray(6): 13 139 found, 64 533 explored.
            assert_eq!((stats.found, stats.explored), (13139, 64533));
        }
    }
}

#[test]
#[ignore = "slow in debug; run with --release --ignored"]
fn heap_array_7_matches_korat() {
    let stats = run::<HeapArray>(7, heap_array::rep_ok);
    // Korat 1.0, HeapArray(7): 117 562 found, 519 968 explored.
    assert_eq!((stats.found, stats.explored), (117562, 519968));
}

// ---------------------------------------------------------------- SortedList

#[test]
fn sorted_lists_match_binomial() {
    for n in 0..=6 {
        let stats = run::<SortedList>(n, sorted_list::rep_ok);
        let expected = if n == 0 { 1 } else { binomial(2 * n as u64 - 1, n as u64) };
        assert_eq!(stats.found, expected, "n = {n}");
        println!("SortedList({n}): {} found, {} explored", stats.found, stats.explored);
    }
}

#[test]
#[ignore = "slow in debug; run with --release --ignored"]
fn sorted_list_11_matches_korat() {
    let stats = run::<SortedList>(11, sorted_list::rep_ok);
    // Korat 1.0, SortedList(11, 11, 12, 11): 352 716 found, 3 880 154 explored.
    assert_eq!((stats.found, stats.explored), (352716, 3880154));
    assert_eq!(stats.found, binomial(21, 11));
}

// -------------------------------------------------- Singly and doubly linked

/// Element patterns along `len` entries, up to renaming the element
/// objects (`objects` of them, `used` already taken by entries before):
/// sequences over null and object indices where each new object is the
/// lowest one not yet used. With `present`, no entry may be null.
fn element_patterns(len: usize, used: usize, objects: usize, present: bool) -> u64 {
    if len == 0 {
        return 1;
    }
    let null = if present { 0 } else { element_patterns(len - 1, used, objects, present) };
    let old = used as u64 * element_patterns(len - 1, used, objects, present);
    let new = if used < objects { element_patterns(len - 1, used + 1, objects, present) } else { 0 };
    null + old + new
}

/// Stock `fin(n)` counts: singly linked, all `n` elements present; doubly
/// linked, the header's element present (the first object), the `n - 1`
/// others free.
fn list_patterns(n: usize, doubly: bool) -> u64 {
    match (doubly, n) {
        (false, _) => element_patterns(n, 0, n + 1, true),
        (true, 0) => 1,
        (true, _) => element_patterns(n - 1, 1, n + 1, false),
    }
}

/// Non-isomorphic valid lists over the whole space of `fin(n)`: `n + 1`
/// entries and `n + 1` element objects, every field over null and the
/// objects; valid structures are relabelled in discovery order and
/// de-duplicated.
fn brute_force_lists(n: usize, doubly: bool) -> u64 {
    let objects = n + 1;
    let values = objects + 1; // null is 0
    let fields = if doubly { 3 } else { 2 };
    let slots = 1 + objects * fields;
    let mut forms = std::collections::HashSet::new();
    let mut cv = vec![0usize; slots];
    loop {
        let field = |entry: usize, f: usize| cv[1 + (entry - 1) * fields + f];
        let valid = |order: &[usize]| -> bool {
            let header = order[0];
            if !doubly {
                // Null-terminated, no element on the header, one on each other entry.
                field(header, 0) == 0
                    && order[1..].iter().all(|&e| field(e, 0) != 0)
                    && field(*order.last().unwrap(), 1) == 0
                    && order.len() - 1 == n
            } else if field(header, 0) == 0 {
                n == 0 && field(header, 1) == header && field(header, 2) == header
            } else {
                let k = order.len();
                field(order[k - 1], 1) == header && (0..k).all(|i| field(order[(i + 1) % k], 2) == order[i]) && k == n
            }
        };
        if cv[0] != 0 {
            // The entries along `next` from the header, until null or a repeat.
            let mut order = vec![cv[0]];
            let mut repeat = false;
            while let next @ 1.. = field(*order.last().unwrap(), 1) {
                if order.contains(&next) {
                    repeat = next != cv[0] || !doubly;
                    break;
                }
                order.push(next);
            }
            if !repeat && valid(&order) {
                let mut elements = Vec::new();
                let form: Vec<usize> = order
                    .iter()
                    .map(|&e| match field(e, 0) {
                        0 => 0,
                        o => {
                            if !elements.contains(&o) {
                                elements.push(o);
                            }
                            1 + elements.iter().position(|&x| x == o).unwrap()
                        }
                    })
                    .collect();
                forms.insert(form);
            }
        }
        let Some(i) = cv.iter().rposition(|&v| v + 1 < values) else { break };
        cv[i] += 1;
        cv[i + 1..].iter_mut().for_each(|v| *v = 0);
    }
    forms.len() as u64
}

#[test]
fn brute_force_lists_agree_with_patterns() {
    for n in 0..=2 {
        assert_eq!(brute_force_lists(n, false), list_patterns(n, false), "singly, n = {n}");
        assert_eq!(brute_force_lists(n, true), list_patterns(n, true), "doubly, n = {n}");
    }
}

#[test]
fn singly_linked_lists_match_bell() {
    for n in 0..=6 {
        let stats = run::<SinglyLinkedList>(n, singly_linked_list::rep_ok);
        assert_eq!(stats.found, list_patterns(n as usize, false), "n = {n}");
        assert_eq!(stats.found, bell(n as usize), "n = {n}");
        if n == 3 {
            assert_eq!(stats.found, 5, "Korat's README: SinglyLinkedList(3) generates 5");
        }
        println!("SinglyLinkedList({n}): {} found, {} explored", stats.found, stats.explored);
    }
}

#[test]
fn doubly_linked_lists_match_bell_differences() {
    for n in 0..=6 {
        let stats = run::<DoublyLinkedList>(n, doubly_linked_list::rep_ok);
        let n = n as usize;
        assert_eq!(stats.found, list_patterns(n, true), "n = {n}");
        if n > 0 {
            assert_eq!(stats.found, bell(n + 1) - bell(n), "n = {n}");
        }
        if n == 3 {
            assert_eq!(stats.found, 10, "Korat's README: DoublyLinkedList(3) generates 10");
        }
        println!("DoublyLinkedList({n}): {} found, {} explored", stats.found, stats.explored);
    }
}
