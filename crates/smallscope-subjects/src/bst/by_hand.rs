//! BEAPI over `bst` with the builders `new` and `add`, written by hand: the
//! floor `smallscope bench beapi --instructions` measures the engine
//! against, not a way to run BEAPI.
//!
//! It does what the engine must do for each explored sequence and nothing
//! else: clone a structure of the last level, call `add` on the clone with
//! one key of `0..scope`, write the canonical form (the engine's tokens, by
//! a walk that knows the two types), take its 128-bit xxh3 fingerprint
//! (the engine's function), and keep the clone, after `rep_ok`, if the
//! fingerprint is new. The subject's own `Clone`, `add`, `rep_ok` and
//! `Drop` run, in the engine's order, so the counts are the engine's.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::{BinarySearchTree, Node};

/// Fingerprints are hashes already: the set takes their low bits as they are.
#[derive(Default)]
struct PrintHasher(u64);

impl Hasher for PrintHasher {
    fn write(&mut self, _: &[u8]) {
        unreachable!("only fingerprints are hashed");
    }
    fn write_u128(&mut self, print: u128) {
        self.0 = print as u64;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// What the search counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Calls made: `new` once, then `add` on every kept structure with every key.
    pub explored: u64,
    pub structures: u64,
}

// The engine's token tags (top four bits): null, a new object, an integer.
const NULL: u64 = 0;
const NEW_OBJECT: u64 = 2 << 60;
const INT: u64 = 3 << 60;
const PAYLOAD: u64 = (1 << 60) - 1;

fn node_tokens(node: &Option<Box<Node>>, tokens: &mut Vec<u64>) {
    match node {
        None => tokens.push(NULL),
        Some(node) => {
            tokens.extend([NEW_OBJECT, INT | (i64::from(node.key) as u64 & PAYLOAD)]);
            node_tokens(&node.left, tokens);
            node_tokens(&node.right, tokens);
        }
    }
}

fn fingerprint(tree: &BinarySearchTree, tokens: &mut Vec<u64>) -> u128 {
    tokens.clear();
    tokens.push(NEW_OBJECT);
    node_tokens(&tree.root, tokens);
    tokens.push(INT | (tree.size as u64 & PAYLOAD));
    smallscope::beapi::fingerprint(tokens)
}

/// Every structure of `bst` at `scope` (at most `scope` nodes, keys `0..scope`).
pub fn search(scope: u32) -> Counts {
    let keys = 0..scope as i32;
    let mut seen: HashSet<u128, BuildHasherDefault<PrintHasher>> = HashSet::default();
    let mut tokens = Vec::with_capacity(64);
    let empty = BinarySearchTree::new();
    seen.insert(fingerprint(&empty, &mut tokens));
    let mut counts = Counts { explored: 1, structures: 1 };
    let mut frontier = vec![empty];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for tree in &frontier {
            for key in keys.clone() {
                counts.explored += 1;
                let mut grown = tree.clone();
                grown.add(key);
                // No tree passes the scope: a full tree has every key already.
                if seen.insert(fingerprint(&grown, &mut tokens)) {
                    assert!(grown.rep_ok(), "add broke the tree");
                    counts.structures += 1;
                    next.push(grown);
                }
            }
        }
        frontier = next;
    }
    counts
}

#[cfg(test)]
mod tests {
    /// The closed form of the module docs: sum over k of C(n, k) Catalan(k).
    #[test]
    fn counts_every_search_tree_of_a_subset_of_the_keys() {
        let binomial = |n: u64, k: u64| (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1));
        let catalan = |k: u64| (0..k).fold(1, |c, i| c * 2 * (2 * i + 1) / (i + 2));
        for n in 1..=7u64 {
            let structures: u64 = (0..=n).map(|k| binomial(n, k) * catalan(k)).sum();
            let counts = super::search(n as u32);
            assert_eq!(counts.structures, structures, "scope {n}");
            // `new`, then every key on every structure.
            assert_eq!(counts.explored, 1 + structures * n, "scope {n}");
        }
    }
}
