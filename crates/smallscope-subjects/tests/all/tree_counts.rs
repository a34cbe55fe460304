//! Structure counts of the tree subjects (`bst`, `avl`, `rbt`, `binheap`)
//! against facts computed independently here: closed forms or brute-force
//! counters that never look at the engine's output.
//!
//! Scope n: at most n nodes, keys drawn from `0..n`.

use smallscope::{Beapi, BeapiReport, Builders, Subject};
use smallscope_subjects::avl::AvlTree;
use smallscope_subjects::binheap::BinomialHeap;
use smallscope_subjects::bst::BinarySearchTree;
use smallscope_subjects::rbt::{Correct, FixupBug, RedBlackTree};

fn run<T: Subject + smallscope::api::StdTraits>(n: u32, builders: Builders) -> BeapiReport {
    let report = Beapi::<T>::new().scope(n).builders(builders).run().expect("valid configuration");
    assert!(!report.stopped_early(), "scope {n} stopped early");
    report
}

fn run_ok<T: Subject + smallscope::api::StdTraits>(n: u32, builders: Builders) -> usize {
    let report = run::<T>(n, builders);
    assert!(report.failures.is_empty(), "scope {n}: {:?}", report.failures);
    report.structure_count()
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn catalan(k: u64) -> u64 {
    binomial(2 * k, k) / (k + 1)
}

/// Trees over a subset of `n` keys, given the number of shapes of each size.
fn trees_over_subsets(n: u64, shapes: impl Fn(u64) -> u64) -> u64 {
    (0..=n).map(|k| binomial(n, k) * shapes(k)).sum()
}

/// Number of AVL tree shapes with `size` nodes, by (size, height) recursion:
/// a tree of height h has subtrees of heights (h-1, h-1), (h-1, h-2) or (h-2, h-1).
fn avl_shapes(size: u64) -> u64 {
    fn count(size: i64, height: i64, memo: &mut Vec<Vec<Option<u64>>>) -> u64 {
        if size < 0 || height < 0 {
            return 0;
        }
        if height == 0 {
            return u64::from(size == 0);
        }
        if let Some(c) = memo[size as usize][height as usize] {
            return c;
        }
        let mut total = 0;
        for left in 0..size {
            let right = size - 1 - left;
            for (hl, hr) in [(height - 1, height - 1), (height - 1, height - 2), (height - 2, height - 1)] {
                total += count(left, hl, memo) * count(right, hr, memo);
            }
        }
        memo[size as usize][height as usize] = Some(total);
        total
    }
    let size = size as i64;
    let mut memo = vec![vec![None; size as usize + 2]; size as usize + 1];
    (0..=size + 1).map(|h| count(size, h, &mut memo)).sum()
}

/// Heap-ordered labellings (parent <= child, keys in `0..n`) of all binomial
/// heaps with at most `n` nodes. For a size s the shape is fixed: one binomial
/// tree B_d per set bit d of s; the trees are labelled independently.
fn binheap_labellings(n: u64) -> u64 {
    // below[d][v]: labellings of B_d whose root key is >= v.
    // B_d = root with children B_{d-1}, .., B_0, each child's root >= the root.
    let max_degree = 64 - n.leading_zeros() as usize;
    let mut exact = vec![vec![0u64; n as usize]; max_degree + 1]; // root key == v
    let mut at_least = vec![vec![0u64; n as usize + 1]; max_degree + 1];
    for d in 0..=max_degree {
        for v in 0..n as usize {
            exact[d][v] = (0..d).map(|c| at_least[c][v]).product();
        }
        for v in (0..n as usize).rev() {
            at_least[d][v] = at_least[d][v + 1] + exact[d][v];
        }
    }
    (0..=n).map(|s| (0..=max_degree).filter(|d| s >> d & 1 == 1).map(|d| at_least[d][0]).product::<u64>()).sum()
}

#[test]
fn independent_facts_are_right() {
    assert_eq!((0..8).map(catalan).collect::<Vec<_>>(), [1, 1, 2, 5, 14, 42, 132, 429]);
    assert_eq!(trees_over_subsets(6, catalan), 731);
    assert_eq!(trees_over_subsets(7, catalan), 2950);
    // OEIS A006265: AVL trees with n nodes.
    assert_eq!((0..10).map(avl_shapes).collect::<Vec<_>>(), [1, 1, 2, 1, 4, 6, 4, 17, 32, 44]);
    // Scope 3 by hand: 1 empty + 3 singletons + 6 (p <= c) pairs + 3 * 6 (B0 next to a B1).
    assert_eq!(binheap_labellings(3), 28);
}

#[test]
fn bst_counts() {
    for n in 1..=7u32 {
        let expected = trees_over_subsets(n.into(), catalan) as usize;
        assert_eq!(run_ok::<BinarySearchTree>(n, Builders::All), expected, "scope {n}");
    }
}

#[test]
fn avl_counts() {
    for n in 1..=7u32 {
        let expected = trees_over_subsets(n.into(), avl_shapes) as usize;
        assert_eq!(run_ok::<AvlTree>(n, Builders::All), expected, "scope {n}");
    }
}

#[test]
fn avl_add_alone_builds_every_tree() {
    let builders = Builders::Named(vec!["new".into(), "add".into()]);
    assert_eq!(run_ok::<AvlTree>(5, builders), trees_over_subsets(5, avl_shapes) as usize);
}

#[test]
fn binheap_counts() {
    // Scope 5 with every builder takes ~8 s in debug (`union` pairs up every
    // two stored heaps), so it is checked below with `insert` alone.
    for n in 1..=4u32 {
        let expected = binheap_labellings(n.into()) as usize;
        assert_eq!(run_ok::<BinomialHeap>(n, Builders::All), expected, "scope {n}");
    }
}

#[test]
fn binheap_insert_alone_builds_every_heap() {
    // At these scopes every heap-ordered labelling is reachable by inserts alone
    // (ties in BINOMIAL-LINK lose nothing: the subtrees can be built in either order).
    let builders = Builders::Named(vec!["new".into(), "insert".into()]);
    for n in 1..=5u32 {
        assert_eq!(run_ok::<BinomialHeap>(n, builders.clone()), binheap_labellings(n.into()) as usize, "scope {n}");
    }
}

/// Brute force, separate from the engine: breadth-first over calls of the
/// given mutators with keys `0..n`, trees told apart by [`RedBlackTree::shape`],
/// keeping trees of at most `n` nodes.
fn rbt_reachable(n: i32, removals: bool) -> usize {
    use std::collections::HashSet;
    let mut seen = HashSet::new();
    let start = RedBlackTree::<Correct>::new();
    seen.insert(start.shape());
    let mut frontier = vec![start];
    while let Some(t) = frontier.pop() {
        let mut next = Vec::new();
        for k in 0..n {
            let mut a = t.clone();
            a.add(k);
            next.push(a);
            if removals {
                let mut r = t.clone();
                r.remove(k);
                next.push(r);
            }
        }
        if removals {
            let mut c = t.clone();
            c.clear();
            next.push(c);
            for poll_first in [true, false] {
                let mut p = t.clone();
                let _ = if poll_first { p.poll_first() } else { p.poll_last() };
                next.push(p);
            }
        }
        for u in next {
            assert!(u.rep_ok());
            if u.size() <= n as usize && seen.insert(u.shape()) {
                frontier.push(u);
            }
        }
    }
    seen.len()
}

#[test]
fn rbt_counts() {
    let add_only = || Builders::Named(vec!["new".into(), "add".into()]);
    let add_remove = || Builders::Named(vec!["new".into(), "add".into(), "remove".into()]);
    for n in 1..=5u32 {
        let expected_add = rbt_reachable(n as i32, false);
        let expected_all = rbt_reachable(n as i32, true);
        assert_eq!(run_ok::<RedBlackTree<Correct>>(n, add_only()), expected_add, "scope {n}, add only");
        assert_eq!(run_ok::<RedBlackTree<Correct>>(n, add_remove()), expected_all, "scope {n}, add + remove");
        assert_eq!(run_ok::<RedBlackTree<Correct>>(n, Builders::All), expected_all, "scope {n}, all");
    }
}

#[test]
fn rbt_remove_is_a_builder() {
    // As BEAPI reports for TreeMap: some colourings are reachable only through
    // removals (e.g. three black nodes: add 0..4, remove 3).
    let add_only = run_ok::<RedBlackTree<Correct>>(5, Builders::Named(vec!["new".into(), "add".into()]));
    let with_remove =
        run_ok::<RedBlackTree<Correct>>(5, Builders::Named(vec!["new".into(), "add".into(), "remove".into()]));
    assert!(add_only < with_remove, "{add_only} !< {with_remove}");
    // Red-black trees are some of the BSTs over the same keys, coloured.
    assert!(with_remove < trees_over_subsets(5, catalan) as usize);
}

#[test]
fn rbt_fixup_bug_is_found() {
    // The shortest trigger is `new` + four adds + a remove: level 6.
    let report = run::<RedBlackTree<FixupBug>>(4, Builders::All);
    assert_eq!(report.failures.iter().filter_map(|f| f.level()).min(), Some(6), "{:?}", report.failures);
    // At scope 3 no tree is big enough.
    assert!(run::<RedBlackTree<FixupBug>>(3, Builders::All).failures.is_empty());
}
