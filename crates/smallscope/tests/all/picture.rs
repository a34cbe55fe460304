//! Tests for heap pictures (`smallscope::emit::{to_dot, to_svg}`).
//!
//! Two DOT pictures are checked character for character; the others by
//! structure: node and edge counts, back edges, and the claim that node `nI`
//! is the object the canonical text calls `#I`.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use smallscope::emit::{to_dot, to_svg};
use smallscope::heap::canonical_text;
use smallscope::Heap;

// ---------------------------------------------------------------------------
// Heaps.
// ---------------------------------------------------------------------------

/// A `Box` list.
#[derive(Heap)]
struct Node {
    key: i32,
    next: Option<Box<Node>>,
}

#[derive(Heap)]
struct List {
    head: Option<Box<Node>>,
    #[heap(omit)]
    len: usize,
    #[heap(skip)]
    #[allow(dead_code)]
    cache: u64,
    name: String,
}

fn list() -> List {
    List {
        head: Some(Box::new(Node { key: 3, next: Some(Box::new(Node { key: 4, next: None })) })),
        len: 2,
        cache: 99,
        name: "a\"b\\c\nd".to_string(),
    }
}

/// An `Rc<RefCell>` ring with `Weak` back pointers.
#[derive(Heap)]
struct Ring {
    key: i32,
    next: Option<Rc<RefCell<Ring>>>,
    prev: Weak<RefCell<Ring>>,
}

/// Two nodes pointing at each other both ways; the first is the root.
fn ring() -> (Rc<RefCell<Ring>>, Rc<RefCell<Ring>>) {
    let a = Rc::new(RefCell::new(Ring { key: 0, next: None, prev: Weak::new() }));
    let b = Rc::new(RefCell::new(Ring { key: 1, next: Some(a.clone()), prev: Rc::downgrade(&a) }));
    a.borrow_mut().next = Some(b.clone());
    a.borrow_mut().prev = Rc::downgrade(&b);
    (a, b)
}

/// An arena with index links.
#[derive(Heap)]
struct Graph {
    #[heap(arena)]
    nodes: Vec<GNode>,
    #[heap(index = "nodes")]
    root: Option<usize>,
}

#[derive(Heap)]
struct GNode {
    val: u8,
    #[heap(index = "nodes")]
    left: Option<usize>,
    #[heap(index = "nodes")]
    right: Option<u32>,
}

fn graph() -> Graph {
    Graph {
        nodes: vec![
            GNode { val: 0, left: None, right: Some(7) },
            GNode { val: 1, left: Some(2), right: Some(0) },
            GNode { val: 2, left: Some(1), right: None },
            GNode { val: 3, left: None, right: None }, // unreachable
        ],
        root: Some(1),
    }
}

/// Enums: as objects (`Box<Tree>`) and stored by value (`Color`, `Kind`).
#[derive(Heap)]
enum Color {
    Red,
    Black,
}

#[derive(Heap)]
enum Tree {
    Leaf,
    Node { left: Box<Tree>, key: i32, color: Color, right: Box<Tree> },
}

#[derive(Heap)]
struct Item {
    c: char,
}

#[derive(Heap)]
enum Kind {
    Empty,
    Link { to: Rc<Item>, w: u8 },
}

#[derive(Heap)]
struct Forest {
    tree: Box<Tree>,
    kinds: [Kind; 2],
}

fn forest() -> Forest {
    let leaf = || Box::new(Tree::Leaf);
    let right = Box::new(Tree::Node { left: leaf(), key: 6, color: Color::Red, right: leaf() });
    Forest {
        tree: Box::new(Tree::Node { left: leaf(), key: 5, color: Color::Black, right }),
        kinds: [Kind::Empty, Kind::Link { to: Rc::new(Item { c: 'k' }), w: 3 }],
    }
}

/// `Vec` fields, inline structs, a reference inside an inline struct, sharing.
#[derive(Heap)]
struct Span {
    lo: u8,
    hi: u8,
}

#[derive(Heap)]
struct Slot {
    label: char,
    target: Option<Rc<Item>>,
}

#[derive(Heap)]
struct Bag {
    tags: Vec<i32>,
    items: Vec<Option<Box<Item>>>,
    span: Span,
    slot: Slot,
    shared: Rc<Item>,
    weight: f64,
    flag: bool,
}

fn bag() -> Bag {
    let shared = Rc::new(Item { c: 'z' });
    Bag {
        tags: vec![1, 2],
        items: vec![Some(Box::new(Item { c: 'a' })), None],
        span: Span { lo: 0, hi: 4 },
        slot: Slot { label: 'q', target: Some(shared.clone()) },
        shared,
        weight: 1.5,
        flag: true,
    }
}

/// Omitted fields holding references: one to an object only they reach, one
/// to an object a later canonical field reaches.
#[derive(Heap)]
struct Hidden {
    h: i32,
}

#[derive(Heap)]
struct Holder {
    #[heap(omit)]
    extra: Option<Box<Hidden>>,
    #[heap(omit)]
    tail: Option<Rc<Item>>,
    first: Option<Rc<Item>>,
    second: Option<Box<Hidden>>,
}

fn holder() -> Holder {
    let item = Rc::new(Item { c: 'i' });
    Holder {
        extra: Some(Box::new(Hidden { h: 9 })),
        tail: Some(item.clone()),
        first: Some(item),
        second: Some(Box::new(Hidden { h: 2 })),
    }
}

// ---------------------------------------------------------------------------
// Reading pictures back.
// ---------------------------------------------------------------------------

/// A node's label lines, DOT escapes undone (`\n` and `\l` end lines).
fn label_lines(escaped: &str) -> Vec<String> {
    let mut lines = vec![String::new()];
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n' | 'l') => lines.push(String::new()),
                Some(other) => lines.last_mut().unwrap().push(other),
                None => panic!("dangling backslash in {escaped}"),
            },
            '"' => panic!("unescaped quote in {escaped}"),
            _ => lines.last_mut().unwrap().push(c),
        }
    }
    if lines.len() > 1 && lines.last().unwrap().is_empty() {
        lines.pop();
    }
    lines
}

/// An edge of a picture: `(from, to, label)`.
type Edge = (usize, usize, String);

/// Nodes (their label lines, checked to be listed as `n0`, `n1`, ..) and
/// edges of a picture.
fn parse(dot: &str) -> (Vec<Vec<String>>, Vec<Edge>) {
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    for line in dot.lines() {
        let Some(stmt) = line.strip_prefix("  n").filter(|s| s.starts_with(|c: char| c.is_ascii_digit())) else {
            continue;
        };
        let (head, rest) = stmt.split_once(" [label=\"").expect("a labelled statement");
        let label = rest.strip_suffix("\"];").expect("statement end");
        match head.split_once(" -> n") {
            Some((from, to)) => {
                edges.push((from.parse().unwrap(), to.parse().unwrap(), label_lines(label).concat()));
            }
            None => {
                assert_eq!(head.parse::<usize>().unwrap(), nodes.len(), "nodes in id order");
                nodes.push(label_lines(label));
            }
        }
    }
    (nodes, edges)
}

/// `(class, id)` of every object the canonical text shows, in its order.
fn canonical_objects(text: &str) -> Vec<(String, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for (at, _) in text.match_indices('#') {
        let start = text[..at].rfind(|c: char| !c.is_alphanumeric() && c != '_').map_or(0, |i| i + 1);
        let end = at + 1 + bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        out.push((text[start..at].to_string(), text[at + 1..end].parse().unwrap()));
    }
    out
}

/// Node `nI` is the object the canonical text calls `Class#I`, for every
/// object the canonical text shows; returns how many it shows.
fn assert_canonical_ids<T: Heap>(root: &T) -> usize {
    let text = canonical_text(root);
    let (nodes, _) = parse(&to_dot(root, ""));
    let objects = canonical_objects(&text);
    for (i, (class, id)) in objects.iter().enumerate() {
        assert_eq!(*id, i, "canonical ids are in first-visit order: {text}");
        let header = &nodes[i][0];
        assert!(
            header.starts_with(&format!("{class}#{id}")),
            "node n{i} is {header}, canonical text says {class}#{id}"
        );
    }
    objects.len()
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

// ---------------------------------------------------------------------------
// DOT.
// ---------------------------------------------------------------------------

#[test]
fn box_list_exact_dot() {
    // `len` is omitted from canonical forms but shown; `cache` is skipped and never walked.
    // The string is quoted as in Rust, then escaped for DOT.
    let expected = r##"digraph heap {
  label="list \"x\"";
  labelloc=t;
  node [shape=box, fontname="monospace"];
  n0 [label="List#0\nlen: 2\lname: \"a\\\"b\\\\c\\nd\"\l"];
  n0 -> n1 [label="head"];
  n1 [label="Node#1\nkey: 3\l"];
  n1 -> n2 [label="next"];
  n2 [label="Node#2\nkey: 4\lnext: null\l"];
}
"##;
    assert_eq!(to_dot(&list(), "list \"x\""), expected);
    let (nodes, _) = parse(expected);
    assert_eq!(nodes[0], ["List#0", "len: 2", r#"name: "a\"b\\c\nd""#]);
}

#[test]
fn vec_and_inline_values_exact_dot() {
    let expected = r##"digraph heap {
  label="bag";
  labelloc=t;
  node [shape=box, fontname="monospace"];
  n0 [label="Bag#0\ntags: [1, 2]\litems: [#1, null]\lspan: Span{lo: 0, hi: 4}\lslot: Slot{label: 'q', target: #2}\lweight: 1.5\lflag: true\l"];
  n0 -> n1 [label="items[0]"];
  n0 -> n2 [label="slot.target"];
  n0 -> n2 [label="shared"];
  n1 [label="Item#1\nc: 'a'\l"];
  n2 [label="Item#2\nc: 'z'\l"];
}
"##;
    assert_eq!(to_dot(&bag(), "bag"), expected);
    assert_eq!(assert_canonical_ids(&bag()), 3);
}

/// The example in the module's documentation, kept in step with it here.
#[test]
fn module_doc_example() {
    let list = Node { key: 1, next: Some(Box::new(Node { key: 2, next: None })) };
    let dot = smallscope::emit::to_dot(&list, "two nodes");
    assert!(dot.contains(r#"n0 [label="Node#0\nkey: 1\l"];"#));
    assert!(dot.contains(r#"n0 -> n1 [label="next"];"#));
    assert!(dot.contains(r#"n1 [label="Node#1\nkey: 2\lnext: null\l"];"#));
    let svg = smallscope::emit::to_svg(&list, "two nodes").unwrap();
    assert!(svg.contains("<svg"));
}

#[test]
fn empty_title_and_no_fields() {
    #[derive(Heap)]
    struct Unit;
    assert_eq!(
        to_dot(&Unit, ""),
        "digraph heap {\n  node [shape=box, fontname=\"monospace\"];\n  n0 [label=\"Unit#0\"];\n}\n"
    );
}

#[test]
fn rc_cycle_has_back_edges_to_the_root() {
    let (a, b) = ring();
    let dot = to_dot(&*a.borrow(), "ring");
    let (nodes, edges) = parse(&dot);
    assert_eq!(nodes, [vec!["Ring#0", "key: 0"], vec!["Ring#1", "key: 1"]]);
    assert_eq!(
        edges,
        [
            (0, 1, "next".to_string()),
            (0, 1, "prev".to_string()),
            (1, 0, "next".to_string()),
            (1, 0, "prev".to_string()),
        ]
    );
    assert!(dot.contains("  n1 -> n0 [label=\"next\"];\n"));
    assert_eq!(assert_canonical_ids(&*a.borrow()), 2);

    // Drawn from the other node, that node is #0.
    let (nodes, _) = parse(&to_dot(&*b.borrow(), ""));
    assert_eq!(nodes[0], ["Ring#0", "key: 1"]);

    // A self loop, and a dead `Weak` shown as null.
    let solo = Rc::new(RefCell::new(Ring { key: 7, next: None, prev: Weak::new() }));
    solo.borrow_mut().next = Some(solo.clone());
    let (nodes, edges) = parse(&to_dot(&*solo.borrow(), ""));
    assert_eq!(nodes, [vec!["Ring#0", "key: 7", "prev: null"]]);
    assert_eq!(edges, [(0, 0, "next".to_string())]);
    solo.borrow_mut().next = None;
    a.borrow_mut().next = None;
}

#[test]
fn arena_links_resolve_like_the_linearizer() {
    let g = graph();
    let dot = to_dot(&g, "");
    let (nodes, edges) = parse(&dot);
    // Element 3 is reached by no link: not drawn.
    assert_eq!(
        nodes,
        [
            vec!["Graph#0"],
            vec!["GNode#1 in nodes[1]", "val: 1"],
            vec!["GNode#2 in nodes[2]", "val: 2", "right: null"],
            vec!["GNode#3 in nodes[0]", "val: 0", "left: null", "right: dangling(7)"],
        ]
    );
    assert_eq!(
        edges,
        [
            (0, 1, "root".to_string()),
            (1, 2, "left".to_string()),
            (1, 3, "right".to_string()),
            (2, 1, "left".to_string()),
        ]
    );
    assert_eq!(assert_canonical_ids(&g), 4);
}

#[test]
fn enums_as_objects_and_inline() {
    let f = forest();
    let (nodes, edges) = parse(&to_dot(&f, ""));
    assert_eq!(nodes.len(), 7);
    assert_eq!(nodes[0], ["Forest#0", "kinds: [Empty, Link{to: #6, w: 3}]"]);
    assert_eq!(nodes[1], ["Tree#1 (Node)", "key: 5", "color: Black"]);
    assert_eq!(nodes[2], ["Tree#2 (Leaf)"]);
    assert_eq!(nodes[3], ["Tree#3 (Node)", "key: 6", "color: Red"]);
    assert_eq!(nodes[6], ["Item#6", "c: 'k'"]);
    assert_eq!(edges.len(), 6);
    assert!(edges.contains(&(0, 6, "kinds[1].to".to_string())));
    assert!(edges.contains(&(1, 3, "right".to_string())));
    assert!(edges.iter().all(|(from, to, _)| from < to), "a tree has no back edges");
    assert_eq!(assert_canonical_ids(&f), 7);
}

#[test]
fn omitted_references_keep_canonical_ids() {
    // The omitted `extra` box is met first, but the canonical form never
    // sees it: it is numbered after every canonical object. The omitted `tail`
    // points to the object `first` reaches, which keeps its canonical id.
    let h = holder();
    assert_eq!(canonical_text(&h), "Holder#0{first: Item#1{c: 'i'}, second: Hidden#2{h: 2}}");
    let expected = r##"digraph heap {
  node [shape=box, fontname="monospace"];
  n0 [label="Holder#0"];
  n0 -> n3 [label="extra"];
  n0 -> n1 [label="tail"];
  n0 -> n1 [label="first"];
  n0 -> n2 [label="second"];
  n1 [label="Item#1\nc: 'i'\l"];
  n2 [label="Hidden#2\nh: 2\l"];
  n3 [label="Hidden#3\nh: 9\l"];
}
"##;
    assert_eq!(to_dot(&h, ""), expected);
    assert_eq!(assert_canonical_ids(&h), 3);
}

#[test]
fn dot_is_deterministic_across_equal_heaps() {
    // Same shapes at different addresses: same pictures.
    assert_eq!(to_dot(&list(), "t"), to_dot(&list(), "t"));
    assert_eq!(to_dot(&bag(), "t"), to_dot(&bag(), "t"));
    let (a1, _b1) = ring();
    let (a2, _b2) = ring();
    assert_eq!(to_dot(&*a1.borrow(), ""), to_dot(&*a2.borrow(), ""));
    a1.borrow_mut().next = None;
    a2.borrow_mut().next = None;
}

// ---------------------------------------------------------------------------
// SVG.
// ---------------------------------------------------------------------------

/// Checks the SVG of `root` against its DOT picture and returns it.
fn check_svg<T: Heap>(root: &T, title: &str) -> String {
    let svg = to_svg(root, title).expect("renders");
    assert!(svg.starts_with("<?xml") || svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"));
    let (nodes, edges) = parse(&to_dot(root, title));
    // One <tspan> per node label line and per edge label.
    let label_lines: usize = nodes.iter().map(Vec::len).sum();
    assert_eq!(svg.matches("<tspan").count(), label_lines + edges.len(), "{svg}");
    for line in nodes.iter().flatten() {
        assert!(svg.contains(&format!(">{}</tspan>", xml_escape(line))), "{line} missing from {svg}");
    }
    for (_, _, label) in &edges {
        assert!(svg.contains(&format!(">{}</tspan>", xml_escape(label))));
    }
    assert_eq!(svg, to_svg(root, title).unwrap(), "deterministic");
    svg
}

#[test]
fn svg_of_every_heap() {
    let svg = check_svg(&list(), "list");
    assert!(svg.contains("List#0") && svg.contains("Node#2"));
    assert!(svg.contains("<title>list</title>"));
    check_svg(&bag(), "bag");
    check_svg(&graph(), "");
    check_svg(&forest(), "forest");
    check_svg(&holder(), "holder");
    let (a, _b) = ring();
    let svg = check_svg(&*a.borrow(), "ring");
    assert!(svg.contains("Ring#1"));
    a.borrow_mut().next = None;
}

#[test]
fn svg_title_is_escaped() {
    let svg = to_svg(&Node { key: 1, next: None }, "a <b> & \"c\"").unwrap();
    assert!(svg.contains("<title>a &lt;b&gt; &amp; \"c\"</title>"), "{svg}");
    let untitled = to_svg(&Node { key: 1, next: None }, "").unwrap();
    assert!(!untitled.contains("<title>"));
}

#[test]
fn svg_of_a_self_loop_and_a_single_node() {
    let solo = Rc::new(RefCell::new(Ring { key: 7, next: None, prev: Weak::new() }));
    check_svg(&*solo.borrow(), "single");
    solo.borrow_mut().next = Some(solo.clone());
    check_svg(&*solo.borrow(), "self loop");
    solo.borrow_mut().next = None;
}

/// A trie node: children in a map, labelled by their key.
#[derive(Heap)]
struct Trie {
    children: std::collections::BTreeMap<char, Box<Trie>>,
    named: std::collections::HashMap<String, (u8, Box<Item>)>,
    pairs: Vec<(u8, Option<Box<Item>>)>,
}

#[test]
fn map_values_are_labelled_by_key_and_tuple_elements_by_position() {
    let leaf = || Trie { children: Default::default(), named: Default::default(), pairs: Vec::new() };
    let mut root = leaf();
    root.children.insert('b', Box::new(leaf()));
    root.children.insert('a', Box::new(leaf()));
    root.named.insert("ab".into(), (7, Box::new(Item { c: 'x' })));
    root.pairs.push((1, None));
    root.pairs.push((2, Some(Box::new(Item { c: 'y' }))));
    let dot = to_dot(&root, "");
    let (_, edges) = parse(&dot);
    let labels: Vec<&str> = edges.iter().filter(|e| e.0 == 0).map(|e| e.2.as_str()).collect();
    assert_eq!(labels, ["children['a']", "children['b']", r#"named["ab"].1"#, "pairs[1].1"]);
    // The text of each line is the canonical text's: entries and tuples as `(..)`.
    assert!(dot.contains(r#"children: [('a', #1), ('b', #2)]\l"#), "{dot}");
    assert!(dot.contains(r#"pairs: [(1, null), (2, #4)]\l"#), "{dot}");
    assert_eq!(assert_canonical_ids(&root), 5);
}
