//! Field extensions: which values each field takes over a set of structures.
//!
//! The field-coverage paper (Godio et al., ASE 2019) and the builders paper
//! (Ponzio et al.) both look at a structure as a rooted graph whose edges
//! are labelled with field names. Objects are numbered breadth-first from
//! the root, separately per class, visiting fields in declaration order, so
//! isomorphic structures get the same numbers. The **extension** of a field
//! over a set of structures is the set of `(object number, value)` pairs it
//! takes in them: `null` is a value, a pointer is the number of the object
//! it points to, a primitive is itself.
//!
//! An [`ObjectGraph`] is the engine-neutral form of one structure: a
//! [`Linearizer`](super::Linearizer) makes it from any [`Heap`](super::Heap)
//! value (BEAPI, random), and a Korat [`Space`](crate::korat::Space) from a
//! candidate's fields. [`FieldExtensions`] accumulates the pairs of many
//! graphs and says whether a graph added one, which is what a field
//! coverage criterion keeps a structure for.
//!
//! ```
//! use smallscope::heap::{FieldExtensions, Linearizer};
//! use smallscope::Heap;
//!
//! #[derive(Heap)]
//! struct Node { left: Option<Box<Node>>, right: Option<Box<Node>> }
//! #[derive(Heap)]
//! struct Tree { root: Option<Box<Node>> }
//!
//! let leaf = || Some(Box::new(Node { left: None, right: None }));
//! let mut extensions = FieldExtensions::default();
//! let mut lin = Linearizer::new(None);
//! assert!(extensions.add(&lin.graph(&Tree { root: leaf() }).unwrap()));
//! assert!(extensions.add(&lin.graph(&Tree { root: Some(Box::new(Node { left: leaf(), right: None })) }).unwrap()));
//! // Node#0.left is null or Node#1; Node#1.left is null.
//! assert_eq!(extensions.size("Node.left"), 3);
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::walk::{prim_text, Sink};
use super::{Class, Prim};

/// One structure as a graph of objects: `objects[0]` is the root, the
/// others follow in the order the canonical walk meets them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ObjectGraph {
    pub objects: Vec<GraphObject>,
}

/// An object: its class, and its fields in declaration order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GraphObject {
    pub class: Cow<'static, str>,
    pub fields: Vec<(Cow<'static, str>, GraphValue)>,
    /// Its number among the objects of its class, when it has one of its
    /// own (a Korat candidate's `Node#2`): pictures name it so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
}

/// A field's value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphValue {
    Null,
    /// A pointer to `objects[i]`.
    Object(u32),
    /// A primitive, a dangling index, as the canonical text writes it.
    Prim(String),
    /// A sequence, tuple, inline value or enum variant, and its parts.
    Group(GroupKind, Vec<GraphValue>),
}

/// What a [`GraphValue::Group`] is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupKind {
    Sequence,
    Tuple,
    /// An inline struct or an enum variant, by name; `some` for `Some(None)`.
    Named(String),
}

impl GraphValue {
    /// Every object this value points to, in order.
    fn objects(&self, out: &mut Vec<u32>) {
        match self {
            GraphValue::Object(id) => out.push(*id),
            GraphValue::Group(_, parts) => parts.iter().for_each(|p| p.objects(out)),
            GraphValue::Null | GraphValue::Prim(_) => {}
        }
    }

    /// The value as text, objects written by `label`.
    fn render(&self, label: &dyn Fn(u32, &mut String), out: &mut String) {
        match self {
            GraphValue::Null => out.push_str("null"),
            GraphValue::Object(id) => label(*id, out),
            GraphValue::Prim(text) => out.push_str(text),
            GraphValue::Group(kind, parts) => {
                let close = match kind {
                    GroupKind::Sequence => {
                        out.push('[');
                        "]"
                    }
                    GroupKind::Tuple => {
                        out.push('(');
                        ")"
                    }
                    GroupKind::Named(name) => {
                        out.push_str(name);
                        if parts.is_empty() {
                            return;
                        }
                        out.push('{');
                        "}"
                    }
                };
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    part.render(label, out);
                }
                out.push_str(close);
            }
        }
    }
}

/// The field name an enum object's variant is recorded under.
pub const VARIANT_FIELD: &str = "(variant)";

impl ObjectGraph {
    /// Each object's `(class, number)`: breadth-first from the root,
    /// numbered per class, fields in declaration order.
    pub fn breadth_first_numbers(&self) -> Vec<(&str, u32)> {
        let mut numbers: Vec<Option<u32>> = vec![None; self.objects.len()];
        let mut next: BTreeMap<&str, u32> = BTreeMap::new();
        let mut number = |at: usize| {
            let n = next.entry(self.objects[at].class.as_ref()).or_insert(0);
            *n += 1;
            *n - 1
        };
        let mut queue = std::collections::VecDeque::new();
        if !self.objects.is_empty() {
            numbers[0] = Some(number(0));
            queue.push_back(0usize);
        }
        let mut targets = Vec::new();
        while let Some(at) = queue.pop_front() {
            for (_, value) in &self.objects[at].fields {
                targets.clear();
                value.objects(&mut targets);
                for &target in &targets {
                    let target = target as usize;
                    if numbers[target].is_none() {
                        numbers[target] = Some(number(target));
                        queue.push_back(target);
                    }
                }
            }
        }
        self.objects
            .iter()
            .zip(numbers)
            .map(|(object, n)| (object.class.as_ref(), n.expect("every object of a graph is reachable")))
            .collect()
    }

    /// The structure's pairs: `(Class.field, object number, value)`.
    pub fn pairs(&self) -> Vec<(String, u32, String)> {
        let mut pairs = Vec::new();
        self.for_each_pair(|field, n, value| pairs.push((field.to_owned(), n, value.to_owned())));
        pairs
    }

    /// Calls `f` with each pair, `(Class.field, object number, value)`,
    /// written into buffers reused from one pair to the next: a set that
    /// has the pair already allocates nothing.
    fn for_each_pair(&self, mut f: impl FnMut(&str, u32, &str)) {
        let numbers = self.breadth_first_numbers();
        let label = |id: u32, out: &mut String| {
            let (class, n) = numbers[id as usize];
            let _ = write!(out, "{class}#{n}");
        };
        let (mut field_name, mut text) = (String::new(), String::new());
        for (object, &(class, n)) in self.objects.iter().zip(&numbers) {
            for (field, value) in &object.fields {
                field_name.clear();
                let _ = write!(field_name, "{class}.{field}");
                text.clear();
                match value {
                    // A collection's value is its length and each element
                    // at its position: a suite then needs one structure per
                    // new (position, element), not one per whole collection.
                    GraphValue::Group(GroupKind::Sequence, elements) => {
                        let _ = write!(text, "len {}", elements.len());
                        f(&field_name, n, &text);
                        for (position, element) in elements.iter().enumerate() {
                            text.clear();
                            let _ = write!(text, "[{position}] ");
                            element.render(&label, &mut text);
                            f(&field_name, n, &text);
                        }
                    }
                    _ => {
                        value.render(&label, &mut text);
                        f(&field_name, n, &text);
                    }
                }
            }
        }
    }
}

/// The field extensions of a set of structures: per `Class.field`, the
/// `(object number, value)` pairs seen. A collection field's values are its
/// length (`len 2`) and its elements by position (`[0] 7`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldExtensions {
    fields: BTreeMap<String, BTreeSet<(u32, String)>>,
}

impl FieldExtensions {
    /// Adds a structure's pairs; whether one of them was new.
    pub fn add(&mut self, graph: &ObjectGraph) -> bool {
        let mut added = false;
        // Each structure of a stream meets mostly pairs seen before: look
        // them up borrowed, and own only what is new.
        let mut probe = (0, String::new());
        graph.for_each_pair(|field, object, value| {
            let pairs = match self.fields.get_mut(field) {
                Some(pairs) => pairs,
                None => self.fields.entry(field.to_owned()).or_default(),
            };
            probe.0 = object;
            probe.1.clear();
            probe.1.push_str(value);
            if !pairs.contains(&probe) {
                pairs.insert(std::mem::take(&mut probe));
                added = true;
            }
        });
        added
    }

    /// Pairs of field `Class.field` (0 for a field never seen).
    pub fn size(&self, field: &str) -> usize {
        self.fields.get(field).map_or(0, BTreeSet::len)
    }

    /// Pairs per field, by `Class.field`.
    pub fn sizes(&self) -> BTreeMap<String, usize> {
        self.fields.iter().map(|(field, pairs)| (field.clone(), pairs.len())).collect()
    }

    /// The pairs of one field, as `(object number, value)`.
    pub fn pairs(&self, field: &str) -> impl Iterator<Item = &(u32, String)> {
        self.fields.get(field).into_iter().flatten()
    }

    /// Pairs in all.
    pub fn total(&self) -> usize {
        self.fields.values().map(BTreeSet::len).sum()
    }
}

/// Numbers for pairs, so that many structures' field extensions can be
/// kept as lists of numbers and united fast (builders identification
/// unites them for every candidate set of builders).
#[derive(Debug, Default)]
pub struct PairNumbers {
    numbers: rustc_hash::FxHashMap<(String, u32, String), u32>,
    probe: (String, u32, String),
}

impl PairNumbers {
    /// The numbers of a structure's pairs, sorted, new pairs numbered next.
    pub fn of(&mut self, graph: &ObjectGraph) -> Vec<u32> {
        let mut numbers = Vec::new();
        graph.for_each_pair(|field, object, value| {
            self.probe.0.clear();
            self.probe.0.push_str(field);
            self.probe.1 = object;
            self.probe.2.clear();
            self.probe.2.push_str(value);
            let next = self.numbers.len() as u32;
            let number = match self.numbers.get(&self.probe) {
                Some(&number) => number,
                None => *self.numbers.entry(self.probe.clone()).or_insert(next),
            };
            numbers.push(number);
        });
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    /// Pairs numbered so far.
    pub fn len(&self) -> usize {
        self.numbers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty()
    }
}

/// What an open object, group or `Some` collects while the walk is inside it.
enum Frame {
    /// An object, and the field whose value comes next (a value met
    /// inside that field, in an object of its own, has its own frame).
    Object(u32, Option<&'static str>),
    Group(GroupKind, Vec<GraphValue>),
    /// `Some(..)` of a value that can itself be null: closes after one value.
    Some,
}

/// Builds an [`ObjectGraph`] from the events of a canonical walk.
#[derive(Default)]
pub(super) struct GraphBuilder {
    objects: Vec<GraphObject>,
    frames: Vec<Frame>,
}

impl GraphBuilder {
    pub(super) fn finish(self) -> ObjectGraph {
        ObjectGraph { objects: self.objects }
    }

    /// Hands a finished value to the frame it belongs to.
    fn deliver(&mut self, mut value: GraphValue) {
        loop {
            match self.frames.last_mut() {
                Some(Frame::Object(id, field)) => {
                    let name = field.take().unwrap_or("(unnamed)");
                    self.objects[*id as usize].fields.push((Cow::Borrowed(name), value));
                    return;
                }
                Some(Frame::Group(_, parts)) => {
                    parts.push(value);
                    return;
                }
                Some(Frame::Some) => {
                    self.frames.pop();
                    value = GraphValue::Group(GroupKind::Named("some".into()), vec![value]);
                }
                None => return,
            }
        }
    }

    fn close_group(&mut self) {
        if let Some(Frame::Group(kind, parts)) = self.frames.pop() {
            self.deliver(GraphValue::Group(kind, parts));
        }
    }
}

impl Sink for &mut GraphBuilder {
    fn begin_object(&mut self, id: u32, class: &'static Class) {
        self.deliver(GraphValue::Object(id));
        debug_assert_eq!(id as usize, self.objects.len(), "objects are numbered in the order they are met");
        self.objects.push(GraphObject { class: Cow::Borrowed(class.name), fields: Vec::new(), index: None });
        self.frames.push(Frame::Object(id, None));
    }
    fn end_object(&mut self) {
        self.frames.pop();
    }
    fn begin_inline(&mut self, class: &'static Class) {
        self.frames.push(Frame::Group(GroupKind::Named(class.name.to_owned()), Vec::new()));
    }
    fn end_inline(&mut self) {
        self.close_group();
    }
    fn field(&mut self, class: &'static Class, index: usize) {
        if let Some(Frame::Object(_, field)) = self.frames.last_mut() {
            let name = class.fields[index].name;
            *field = Some(name.rsplit('.').next().unwrap_or(name));
        }
    }
    fn back_ref(&mut self, id: u32) {
        self.deliver(GraphValue::Object(id));
    }
    fn null(&mut self) {
        self.deliver(GraphValue::Null);
    }
    fn some(&mut self) {
        self.frames.push(Frame::Some);
    }
    fn dangling(&mut self, index: usize) {
        self.deliver(GraphValue::Prim(format!("dangling({index})")));
    }
    fn prim(&mut self, value: Prim<'_>) {
        self.deliver(GraphValue::Prim(prim_text(value)));
    }
    fn variant(&mut self, class: Option<&'static Class>, index: u32) {
        let name = match class.and_then(|c| c.variants.get(index as usize)) {
            Some(name) => (*name).to_owned(),
            None => format!("variant{index}"),
        };
        match self.frames.last_mut() {
            // An enum object: its variant is a field of its own.
            Some(Frame::Object(id, _)) => {
                self.objects[*id as usize].fields.push((Cow::Borrowed(VARIANT_FIELD), GraphValue::Prim(name)));
            }
            Some(Frame::Group(kind, _)) => *kind = GroupKind::Named(name),
            Some(Frame::Some) | None => {}
        }
    }
    fn seq_begin(&mut self, _len: usize) {
        self.frames.push(Frame::Group(GroupKind::Sequence, Vec::new()));
    }
    fn seq_end(&mut self) {
        self.close_group();
    }
    fn tuple_begin(&mut self) {
        self.frames.push(Frame::Group(GroupKind::Tuple, Vec::new()));
    }
    fn tuple_end(&mut self) {
        self.close_group();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Linearizer;

    /// The paper's `BinSearchTree`: a root, nodes with `left`, `value`, `right`.
    #[derive(crate::Heap)]
    struct BinSearchTree {
        root: Option<Box<BinSearchTreeNode>>,
    }

    #[derive(crate::Heap)]
    struct BinSearchTreeNode {
        left: Option<Box<BinSearchTreeNode>>,
        right: Option<Box<BinSearchTreeNode>>,
    }

    type Link = Option<Box<BinSearchTreeNode>>;

    fn node(left: Link, right: Link) -> Link {
        Some(Box::new(BinSearchTreeNode { left, right }))
    }

    fn leaf() -> Link {
        node(None, None)
    }

    fn tree(root: Link) -> ObjectGraph {
        Linearizer::new(None).graph(&BinSearchTree { root }).unwrap()
    }

    fn pairs(extensions: &FieldExtensions, field: &str) -> Vec<String> {
        extensions.pairs(field).map(|(n, v)| format!("{n}->{v}")).collect()
    }

    /// Fig. 1: three trees, generated left to right; each adds pairs, and
    /// the union is `root` 1 pair, `left` 4 and `right` 4.
    #[test]
    fn figure_1_three_binary_trees() {
        let trees = [tree(leaf()), tree(node(leaf(), None)), tree(node(leaf(), leaf()))];
        let mut extensions = FieldExtensions::default();
        let added: Vec<bool> = trees.iter().map(|t| extensions.add(t)).collect();
        assert_eq!(added, [true, true, true]);
        assert_eq!(pairs(&extensions, "BinSearchTree.root"), ["0->BinSearchTreeNode#0"]);
        // n0 → null, n0 → n1, n1 → null, n2 → null.
        assert_eq!(
            pairs(&extensions, "BinSearchTreeNode.left"),
            ["0->BinSearchTreeNode#1", "0->null", "1->null", "2->null"]
        );
        assert_eq!(
            pairs(&extensions, "BinSearchTreeNode.right"),
            ["0->BinSearchTreeNode#2", "0->null", "1->null", "2->null"]
        );
        assert_eq!(extensions.total(), 9);
        // The second tree again adds nothing.
        assert!(!extensions.add(&tree(node(leaf(), None))));
    }

    /// Fig. 2: the set S0 (left {n0→n1, n1→n3, n2→n3}, right {n0→n2,
    /// n1→null, n2→n4}, root {t0→n0}) is covered by the three trees, and
    /// still by the last two alone: the first adds nothing S0 needs.
    #[test]
    fn figure_2_suite_covers_s0() {
        let s0: [(&str, &str); 7] = [
            ("BinSearchTreeNode.left", "0->BinSearchTreeNode#1"),
            ("BinSearchTreeNode.left", "1->BinSearchTreeNode#3"),
            ("BinSearchTreeNode.left", "2->BinSearchTreeNode#3"),
            ("BinSearchTreeNode.right", "0->BinSearchTreeNode#2"),
            ("BinSearchTreeNode.right", "1->null"),
            ("BinSearchTreeNode.right", "2->BinSearchTreeNode#4"),
            ("BinSearchTree.root", "0->BinSearchTreeNode#0"),
        ];
        let covers = |graphs: &[ObjectGraph]| {
            let mut extensions = FieldExtensions::default();
            graphs.iter().for_each(|g| {
                extensions.add(g);
            });
            s0.iter().all(|(field, pair)| pairs(&extensions, field).contains(&pair.to_string()))
        };
        let first = tree(leaf());
        // n0 with children n1 (whose left is n3) and n2.
        let second = tree(node(node(leaf(), None), leaf()));
        // n0 with a leaf n1 and n2, whose children are n3 and n4.
        let third = tree(node(leaf(), node(leaf(), leaf())));
        assert!(covers(&[first.clone(), second.clone(), third.clone()]));
        assert!(covers(&[second.clone(), third.clone()]));
        assert!(!covers(&[first, second]), "n2 → n3 and n2 → n4 come from the third tree only");
        // Breadth-first per class: in the third tree n2's children are n3 and n4.
        assert_eq!(
            third.breadth_first_numbers().iter().map(|(_, n)| *n).collect::<Vec<_>>(),
            [0, 0, 1, 2, 3, 4],
            "depth-first order root, n0, n1, n2, n3, n4 happens to be breadth-first here"
        );
    }

    #[derive(crate::Heap)]
    struct Deep {
        first: Option<Box<Chain>>,
        second: Option<Box<Chain>>,
    }

    #[derive(crate::Heap)]
    struct Chain {
        next: Option<Box<Chain>>,
        tags: Vec<(u8, bool)>,
    }

    #[test]
    fn numbers_are_breadth_first_not_depth_first() {
        // Depth first meets first, first.next, then second; breadth first
        // numbers second before first.next.
        let chain = |next, tags| Some(Box::new(Chain { next, tags }));
        let deep = Deep { first: chain(chain(None, vec![]), vec![(1, true)]), second: chain(None, vec![]) };
        let graph = Linearizer::new(None).graph(&deep).unwrap();
        let numbers: Vec<u32> = graph.breadth_first_numbers().iter().map(|(_, n)| *n).collect();
        assert_eq!(numbers, [0, 0, 2, 1]);
        let pairs = graph.pairs();
        assert!(pairs.contains(&("Deep.second".into(), 0, "Chain#1".into())), "{pairs:?}");
        assert!(pairs.contains(&("Chain.next".into(), 0, "Chain#2".into())), "{pairs:?}");
        // A collection's pairs: its length, and each element at its position.
        assert!(pairs.contains(&("Chain.tags".into(), 0, "len 1".into())), "{pairs:?}");
        assert!(pairs.contains(&("Chain.tags".into(), 0, "[0] (1, true)".into())), "{pairs:?}");
    }

    #[derive(crate::Heap)]
    struct TrieNode {
        children: std::collections::BTreeMap<u8, Box<TrieNode>>,
        word: bool,
    }

    #[test]
    fn a_map_of_objects_names_every_field_and_counts_per_entry() {
        let node = |children: Vec<(u8, TrieNode)>, word| TrieNode {
            children: children.into_iter().map(|(k, n)| (k, Box::new(n))).collect(),
            word,
        };
        let leaf = || node(vec![], true);
        let root = node(vec![(0, node(vec![(1, leaf())], false)), (2, leaf())], false);
        let graph = Linearizer::new(None).graph(&root).unwrap();
        let pairs = graph.pairs();
        // Every pair is named for its field, also after a map entry's object.
        assert!(
            pairs.iter().all(|(field, _, _)| field == "TrieNode.children" || field == "TrieNode.word"),
            "{pairs:?}"
        );
        assert!(pairs.contains(&("TrieNode.children".into(), 0, "len 2".into())), "{pairs:?}");
        assert!(pairs.contains(&("TrieNode.children".into(), 0, "[1] (2, TrieNode#2)".into())), "{pairs:?}");
        assert!(pairs.contains(&("TrieNode.word".into(), 0, "false".into())), "{pairs:?}");
        // Two tries that differ in one entry share the other entries' pairs.
        let mut extensions = FieldExtensions::default();
        assert!(extensions.add(&graph));
        let other = node(vec![(0, node(vec![(1, leaf())], false)), (1, leaf())], false);
        let before = extensions.size("TrieNode.children");
        assert!(extensions.add(&Linearizer::new(None).graph(&other).unwrap()));
        assert_eq!(extensions.size("TrieNode.children"), before + 1, "only `[1] (1, TrieNode#2)` is new");
    }

    #[derive(crate::Heap)]
    enum Color {
        Red,
        Black,
    }

    #[derive(crate::Heap)]
    enum Shape {
        Dot,
        Line { color: Color, to: Option<std::rc::Rc<Shape>> },
    }

    #[test]
    fn enums_shared_objects_and_graph_serde() {
        let dot = std::rc::Rc::new(Shape::Dot);
        let line = Shape::Line { color: Color::Black, to: Some(dot.clone()) };
        let graph = Linearizer::new(None).graph(&line).unwrap();
        let pairs = graph.pairs();
        assert!(pairs.contains(&("Shape.color".into(), 0, "Black".into())), "{pairs:?}");
        assert!(pairs.contains(&("Shape.to".into(), 0, "Shape#1".into())), "{pairs:?}");
        assert!(pairs.contains(&("Shape.(variant)".into(), 1, "Dot".into())), "{pairs:?}");
        let _ = Color::Red;
        let text = serde_json::to_string(&graph).unwrap();
        assert_eq!(serde_json::from_str::<ObjectGraph>(&text).unwrap(), graph);
    }
}
