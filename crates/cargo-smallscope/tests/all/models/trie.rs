//! `everyday::trie::Trie` (`byte-trie`): the root `TrieNode` is stored by
//! value in `Trie` (so it is part of the root object, not an object of its
//! own), every other node is a `Box<TrieNode>` in its parent's
//! `children: BTreeMap<u8, Box<TrieNode>>`, and each node has a walked
//! `terminal` flag. `len` is `#[heap(omit)]` and derivable (the number of
//! terminal nodes), so it adds no states.
//!
//! Since removal prunes every node that leads to no word, the nodes are
//! exactly the non-empty prefixes of the words, and the visible state is
//! the set of words (the empty word is the root's flag). In bounds: at most
//! `scope` boxed nodes, i.e. at most `scope` distinct non-empty prefixes
//! (each map then has at most `scope` entries too). The node count only
//! grows with the set, so every set within bounds is reachable by
//! inserting its words in any order.
//!
//! Operations that change the state: `insert(word)` and `remove(word)`,
//! with every word of length 0 to 2 over `0..scope`.
//!
//! Planted bug: `remove(word)` prunes only the node where the word ends
//! (if it has no children), never the nodes above it; it fires when that
//! leaves a node that the correct removal prunes, i.e. the removed word has
//! two or more bytes, is a leaf, and its parent prefix is then neither a
//! word nor the prefix of another word. `rep_ok` reports the empty node.

use std::collections::BTreeSet;

use super::{lists, search as bfs, Search};

type State = BTreeSet<Vec<u8>>;

/// The boxed nodes: every non-empty prefix of a word.
fn nodes(words: &State) -> BTreeSet<Vec<u8>> {
    words.iter().flat_map(|word| (1..=word.len()).map(|end| word[..end].to_vec())).collect()
}

/// The most children any node has (the root's map included).
fn widest(words: &State) -> usize {
    let nodes = nodes(words);
    let mut parents: Vec<Vec<u8>> = nodes.iter().map(|node| node[..node.len() - 1].to_vec()).collect();
    parents.sort();
    parents.chunk_by(|a, b| a == b).map(<[_]>::len).max().unwrap_or(0)
}

/// The nodes the buggy `remove(word)` leaves, for a word in the set.
fn nodes_after_buggy_remove(words: &State, word: &[u8]) -> BTreeSet<Vec<u8>> {
    let mut nodes = nodes(words);
    let is_leaf = !nodes.iter().any(|node| node.len() > word.len() && node.starts_with(word));
    if !word.is_empty() && is_leaf {
        nodes.remove(word);
    }
    nodes
}

pub fn search(scope: usize) -> Search {
    let lists = lists(scope);
    bfs(
        State::new(),
        |words| {
            lists
                .iter()
                .flat_map(|word| {
                    let (mut with, mut without) = (words.clone(), words.clone());
                    with.insert(word.clone());
                    without.remove(word);
                    [with, without]
                })
                .collect()
        },
        |words| nodes(words).len() <= scope && widest(words) <= scope,
        |words| {
            lists.iter().filter(|word| words.contains(*word)).any(|word| {
                let mut without = words.clone();
                without.remove(word);
                nodes_after_buggy_remove(words, word) != nodes(&without)
            })
        },
    )
}

pub fn structures(scope: usize) -> usize {
    search(scope).states
}

pub fn shortest_bug(scope: usize) -> usize {
    search(scope).shortest_bug.expect("the bug shows within the scope")
}
