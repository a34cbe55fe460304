//! The enum BST, its `Leaf` marked `#[heap(null)]`, is counted as the
//! built-in struct BST is (`smallscope-subjects/tests/tree_counts.rs`):
//! scope n is at most n objects of a class, keys drawn from `0..n`.
//! The expected structures are computed here, without smallscope.

use std::collections::BTreeSet;

use crate::beapi_forms;

use smallscope::heap::canonical_text;
use smallscope_fixture::enum_bst::Tree;

/// BSTs over a subset of `m` consecutive keys, the empty one included: the
/// empty tree, or a root key `r` with any such tree over the `r` keys below
/// it and any over the `m - 1 - r` above.
fn bsts_over_subsets(m: usize) -> u64 {
    let mut counts = vec![1u64];
    for size in 1..=m {
        let rooted: u64 = (0..size).map(|r| counts[r] * counts[size - 1 - r]).sum();
        counts.push(1 + rooted);
    }
    counts[m]
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn catalan(k: u64) -> u64 {
    binomial(2 * k, k) / (k + 1)
}

/// Every BST whose keys are a subset of `keys` (sorted), built directly.
fn every_bst(keys: &[u8]) -> Vec<Tree> {
    let mut trees = vec![Tree::Leaf];
    for (r, &root) in keys.iter().enumerate() {
        for left in every_bst(&keys[..r]) {
            for right in every_bst(&keys[r + 1..]) {
                trees.push(Tree::Node(Box::new(left.clone()), root, Box::new(right)));
            }
        }
    }
    trees
}

#[test]
fn independent_counts_agree() {
    assert_eq!((1..=6).map(bsts_over_subsets).collect::<Vec<_>>(), [2, 5, 15, 51, 188, 731]);
    for n in 0..=12u64 {
        let closed_form: u64 = (0..=n).map(|k| binomial(n, k) * catalan(k)).sum();
        assert_eq!(bsts_over_subsets(n as usize), closed_form, "n = {n}");
    }
    for n in 0..=6u8 {
        let keys: Vec<u8> = (0..n).collect();
        assert_eq!(every_bst(&keys).len() as u64, bsts_over_subsets(n.into()), "n = {n}");
    }
}

#[test]
fn beapi_builds_every_bst_over_the_keys_and_nothing_else() {
    for n in 1..=6u32 {
        let forms = beapi_forms::counted_forms::<Tree>(n);
        assert_eq!(forms.len() as u64, bsts_over_subsets(n as usize), "scope {n}");

        let keys: Vec<u8> = (0..n as u8).collect();
        let expected: BTreeSet<String> = every_bst(&keys).iter().map(canonical_text).collect();
        let found: BTreeSet<String> = forms.into_iter().collect();
        assert_eq!(found, expected, "scope {n}");
    }
}

/// Without `#[heap(null)]` each boxed `Leaf` would count: a tree of k keys
/// is k objects now, so scope k holds it.
#[test]
fn a_tree_of_n_keys_fits_scope_n() {
    let mut tree = Tree::new();
    for key in [3, 1, 0, 2, 5, 4] {
        assert!(tree.insert(key));
    }
    assert!(tree.rep_ok());
    let mut linearizer = smallscope::heap::Linearizer::new(Some(6));
    assert!(linearizer.linearize(&tree).is_ok());
    let mut smaller = smallscope::heap::Linearizer::new(Some(5));
    assert!(smaller.linearize(&tree).is_err());
}

#[test]
fn the_api_keeps_the_search_tree_order() {
    let mut tree = Tree::new();
    for key in [5, 2, 8, 1, 3, 7, 9, 4] {
        tree.insert(key);
    }
    assert_eq!(tree.len(), 8);
    assert!(!tree.insert(3));
    for key in [5, 2, 9, 1] {
        assert!(tree.remove(key), "{key}");
        assert!(!tree.contains(key));
        assert!(tree.rep_ok());
    }
    assert!(!tree.remove(5));
    assert_eq!(tree.min(), Some(3));
    assert_eq!(tree.len(), 4);
    assert!([3, 4, 7, 8].iter().all(|&k| tree.contains(k)));
    let broken =
        Tree::Node(Box::new(Tree::Node(Box::new(Tree::Leaf), 6, Box::new(Tree::Leaf))), 5, Box::new(Tree::Leaf));
    assert!(!broken.rep_ok());
}
