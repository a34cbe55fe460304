//! A directed graph of shared nodes, the way people write one in Rust:
//! `Rc<RefCell<Node>>` owned by the graph, `Weak` edges between nodes, and
//! a derived `Clone`. That `Clone` copies the `Rc` pointers, not the
//! nodes: a clone shares its nodes with the original, so an engine that
//! extends a clone changes the value it stored. smallscope must notice
//! and replay instead, or it reports failures the code does not have.
//!
//! Edges from one node are kept in the order of their targets in the
//! graph, so a set of edges has one shape whatever order it was added in.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use smallscope::Heap;

#[derive(Heap, Debug)]
pub struct Node {
    label: u8,
    /// Targets, in graph order, each once.
    out: Vec<Weak<RefCell<Node>>>,
}

#[derive(Heap, Clone, Debug, Default)]
pub struct Graph {
    nodes: Vec<Rc<RefCell<Node>>>,
}

/// A node index past the end of the graph.
#[derive(Debug)]
pub struct NoSuchNode(pub u8);

#[smallscope::api(name = "fixture-graph", rep_ok = rep_ok)]
impl Graph {
    pub fn new() -> Self {
        Graph::default()
    }

    /// Adds a node and returns its index.
    pub fn add_node(&mut self, label: u8) -> usize {
        self.nodes.push(Rc::new(RefCell::new(Node { label, out: Vec::new() })));
        self.nodes.len() - 1
    }

    /// Adds the edge `from -> to` unless it is there; tells whether it was added.
    pub fn add_edge(&mut self, from: u8, to: u8) -> Result<bool, NoSuchNode> {
        let (source, target) = (self.node(from)?, self.node(to)?);
        let position = self.position(&target);
        let mut source = source.borrow_mut();
        let at = source.out.partition_point(|edge| self.position_of_weak(edge) < position);
        if source.out.get(at).is_some_and(|edge| self.position_of_weak(edge) == position) {
            return Ok(false);
        }
        source.out.insert(at, Rc::downgrade(&target));
        Ok(true)
    }

    /// Removes the edge `from -> to`; tells whether it was there.
    pub fn remove_edge(&mut self, from: u8, to: u8) -> Result<bool, NoSuchNode> {
        let (source, target) = (self.node(from)?, self.node(to)?);
        let mut source = source.borrow_mut();
        let before = source.out.len();
        source.out.retain(|edge| !edge.ptr_eq(&Rc::downgrade(&target)));
        Ok(source.out.len() < before)
    }

    pub fn has_edge(&self, from: u8, to: u8) -> Result<bool, NoSuchNode> {
        let (source, target) = (self.node(from)?, self.node(to)?);
        let found = source.borrow().out.iter().any(|edge| edge.ptr_eq(&Rc::downgrade(&target)));
        Ok(found)
    }

    pub fn label(&self, node: u8) -> Result<u8, NoSuchNode> {
        Ok(self.node(node)?.borrow().label)
    }

    pub fn out_degree(&self, node: u8) -> Result<usize, NoSuchNode> {
        Ok(self.node(node)?.borrow().out.len())
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Every edge leads to a node of this graph, and each node's edges are
    /// in graph order without repeats.
    pub fn rep_ok(&self) -> bool {
        self.nodes.iter().all(|node| {
            let positions: Vec<usize> = node.borrow().out.iter().map(|edge| self.position_of_weak(edge)).collect();
            positions.iter().all(|&p| p < self.nodes.len()) && positions.windows(2).all(|w| w[0] < w[1])
        })
    }
}

impl Graph {
    fn node(&self, index: u8) -> Result<Rc<RefCell<Node>>, NoSuchNode> {
        self.nodes.get(usize::from(index)).cloned().ok_or(NoSuchNode(index))
    }

    fn position(&self, node: &Rc<RefCell<Node>>) -> usize {
        self.nodes.iter().position(|n| Rc::ptr_eq(n, node)).unwrap_or(usize::MAX)
    }

    /// The target's index; past the end for a dead or foreign node.
    fn position_of_weak(&self, edge: &Weak<RefCell<Node>>) -> usize {
        edge.upgrade().map_or(usize::MAX, |node| self.position(&node))
    }
}
