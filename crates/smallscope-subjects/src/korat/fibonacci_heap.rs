//! Korat's `FibonacciHeap` benchmark: a circular doubly linked root list
//! (`left`/`right`) starting at `Nodes`, each node's children a circular list
//! from `child`, with parent links, `degree` equal to the number of
//! children, heap-ordered keys, and `minNode` a root with the least key.
//! The node's `mark` field is outside the finitization and not modelled.
//!
//! Stock finitization `fin(n)`: n nodes; `Nodes`, `minNode`, `parent`,
//! `right`, `left` and `child` range over null and the nodes; `size` is in
//! 0..n; `key` and `degree` in 0..n-1.
//!
//! Read order, as the original's: `Nodes`, `minNode` (and `size` when both
//! are null); then depth first along each circular list: `parent`, `child`
//! (and the child list), `right`, the right node's `left`; `size`; the
//! degrees, each after its node's child list is counted; then the keys, a
//! node's before its children's.

use smallscope::korat::{Korat, Ref};

#[derive(Korat)]
pub struct FibonacciHeap {
    nodes: Option<Ref<Node>>,
    min_node: Option<Ref<Node>>,
    #[korat(ints = 0..=n)]
    size: i64,
}

#[derive(Korat)]
#[korat(objects = n)]
pub struct Node {
    // Java's fin(0) gives {0} rather than an empty set.
    #[korat(ints = 0..n.max(1))]
    key: i64,
    #[korat(ints = 0..n.max(1))]
    degree: i64,
    parent: Option<Ref<Node>>,
    child: Option<Ref<Node>>,
    left: Option<Ref<Node>>,
    right: Option<Ref<Node>>,
}

/// Circular lists linked both ways with right parents, `size` nodes,
/// degrees counting children, keys heap-ordered, `minNode` a least root.
pub fn rep_ok(heap: FibonacciHeapView<'_>) -> bool {
    let (Some(nodes), Some(min_node)) = (heap.nodes(), heap.min_node()) else {
        // Java reads `minNode` right after `Nodes` either way, then `size` if both are null.
        return heap.nodes().is_none() && heap.min_node().is_none() && heap.size() == 0;
    };
    let mut visited = Vec::new();
    if !is_structural(nodes, None, &mut visited) || !ring(nodes).any(|node| node == min_node) {
        return false;
    }
    visited.len() as i64 == heap.size()
        && degrees_ok(nodes)
        && ring(nodes).all(heapified)
        && ring(nodes).map(|node| node.key()).min() == Some(min_node.key())
}

/// `first` and the nodes `right` leads to until it is back at `first`; a
/// node's `right` is read only when the walk moves past it.
fn ring(first: NodeView<'_>) -> Ring<'_> {
    Ring { first, last: None, done: false }
}

struct Ring<'c> {
    first: NodeView<'c>,
    last: Option<NodeView<'c>>,
    done: bool,
}

impl<'c> Iterator for Ring<'c> {
    type Item = NodeView<'c>;
    fn next(&mut self) -> Option<NodeView<'c>> {
        if self.done {
            return None;
        }
        let next = match self.last {
            None => Some(self.first),
            // `right` is non-null on every ring walked after the structure passed.
            Some(last) => last.right().filter(|&right| right != self.first),
        };
        self.done = next.is_none();
        self.last = next;
        next
    }
}

/// Each node of the ring from `first` has parent `parent`, is new, has a
/// structural child ring, and a non-null `right` whose `left` is back.
fn is_structural<'c>(first: NodeView<'c>, parent: Option<NodeView<'c>>, visited: &mut Vec<NodeView<'c>>) -> bool {
    let mut current = first;
    loop {
        if current.parent() != parent || visited.contains(&current) {
            return false;
        }
        visited.push(current);
        if current.child().is_some_and(|child| !is_structural(child, Some(current), visited)) {
            return false;
        }
        let Some(right) = current.right() else {
            return false;
        };
        if right.left() != Some(current) {
            return false;
        }
        if right == first {
            return true;
        }
        current = right;
    }
}

/// Every node's `degree` is the length of its child ring.
fn degrees_ok(first: NodeView<'_>) -> bool {
    ring(first).all(|node| {
        let children = node.child().map_or(0, |child| ring(child).count()) as i64;
        children == node.degree() && node.child().is_none_or(degrees_ok)
    })
}

/// Every child's key is at least its parent's (a node's key is read first).
fn heapified(node: NodeView<'_>) -> bool {
    let key = node.key();
    node.child().is_none_or(|child| ring(child).all(|c| c.key() >= key && heapified(c)))
}

smallscope::korat_subject!("fibonacci-heap", FibonacciHeap, rep_ok = rep_ok);
