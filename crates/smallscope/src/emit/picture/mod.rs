//! Heap pictures: a rooted heap drawn as a graph, for a person to look at.
//!
//! [`to_dot`] writes a Graphviz DOT graph and [`to_svg`] lays the same graph
//! out and draws it as SVG in pure Rust (with the `layout-rs` crate, no
//! Graphviz installation needed). A picture shows:
//!
//! - **one box per object** (a value behind a `Box`, an `Rc`, an `Rc<RefCell>`,
//!   a live `Weak`, or an arena element reached through an index link),
//!   labelled `Class#id`. Ids are the canonical ones: the order in which the
//!   linearizer's depth-first walk from the root first meets each object, the
//!   root being `#0`, so `#3` in a picture is `#3` in
//!   [`canonical_text`](crate::heap::canonical_text). An object of an enum
//!   class adds its variant, `Tree#1 (Node)`; an arena element adds where it
//!   lives, `Node#2 in nodes[5]` (this index is not part of the canonical form);
//! - **one line per field that holds data**, in declaration order:
//!   primitives (`key: 3`, `name: "ab"`, `c: 'x'`), null references and null
//!   options (`next: null`), dangling arena links (`next: dangling(7)`), and
//!   values that belong to their owner, written as in the canonical text:
//!   sequences (`tags: [1, 2]`), enums stored by value (`color: Red`,
//!   `shape: Circle{r: 2}`) and structs stored by value (`span: Span{lo: 0, hi: 4}`);
//! - **one edge per non-null reference**, labelled with the path of the
//!   reference inside its owner: `next`, `items[0]`, `slot.target`, `pair.1`,
//!   and a map's value by its key, `children['a']`. A field that
//!   is just a reference is drawn only as its edge; a reference inside a
//!   sequence or inline value also shows in the label as `#id`
//!   (`items: [#1, null]`). A pointer to an object met before is an edge
//!   back to its box, so sharing and cycles are visible.
//!
//! Unlike the canonical form, a picture shows `#[heap(omit)]` fields too
//! (they are only left out of canonical forms). An object that only omitted
//! fields reach has no canonical id: it is numbered after every canonical
//! object, so the canonical ids stay as they are. `#[heap(skip)]` fields are
//! never walked, so they never show. The output is deterministic: it depends
//! on the heap's shape and values only, never on addresses.
//!
//! ```
//! use smallscope::Heap;
//!
//! #[derive(Heap)]
//! struct Node { key: i32, next: Option<Box<Node>> }
//!
//! let list = Node { key: 1, next: Some(Box::new(Node { key: 2, next: None })) };
//! let dot = smallscope::emit::to_dot(&list, "two nodes");
//! assert!(dot.contains(r#"n0 [label="Node#0\nkey: 1\l"];"#));
//! assert!(dot.contains(r#"n0 -> n1 [label="next"];"#));
//! assert!(dot.contains(r#"n1 [label="Node#1\nkey: 2\lnext: null\l"];"#));
//! let svg = smallscope::emit::to_svg(&list, "two nodes").unwrap();
//! assert!(svg.contains("<svg"));
//! ```

use crate::heap::{Heap, ObjectGraph};

mod dot;
mod svg;
mod walk;

pub use svg::PictureError;

use dot::Picture;
use svg::{fit_height, render_svg, with_title};

/// A Graphviz DOT picture of the heap rooted at `root`, nodes numbered in canonical (linearization) order.
///
/// Node `nI` is the object with canonical id `I`. Nodes are listed in id
/// order, each followed by its outgoing edges in field order. `title`, when
/// not empty, becomes the graph's label, drawn at the top.
///
/// # Panics
/// Like the linearizer, when an index link names an arena that no enclosing
/// value declares (`#[heap(index = "nodes")]` without a `#[heap(arena)] nodes`).
pub fn to_dot<T: Heap>(root: &T, title: &str) -> String {
    Picture::of(root).dot(title)
}

/// A DOT picture of an [`ObjectGraph`] (a Korat candidate's objects, say),
/// drawn as [`to_dot`] draws a heap: a box per object, `Class#i` with `i`
/// its number in its class when it has one (a Korat candidate's objects do)
/// or else its place in the graph, a line per field that is not just a reference,
/// an edge per reference labelled with its path (`left`, `items[1]`).
///
/// ```
/// use smallscope::heap::{GraphObject, GraphValue, ObjectGraph};
///
/// let node = |key: &str, next| GraphObject {
///     class: "Node".into(),
///     fields: vec![("key".into(), GraphValue::Prim(key.into())), ("next".into(), next)],
///     index: None,
/// };
/// let graph = ObjectGraph { objects: vec![node("1", GraphValue::Object(1)), node("2", GraphValue::Null)] };
/// let dot = smallscope::emit::graph_to_dot(&graph, "");
/// assert!(dot.contains(r#"n0 [label="Node#0\nkey: 1\l"];"#));
/// assert!(dot.contains(r#"n0 -> n1 [label="next"];"#));
/// assert!(dot.contains(r#"n1 [label="Node#1\nkey: 2\lnext: null\l"];"#));
/// ```
pub fn graph_to_dot(graph: &ObjectGraph, title: &str) -> String {
    Picture::of_graph(graph).dot(title)
}

/// `after`, a picture [`to_dot`] drew of what a call left, with what
/// differs from `before` (drawn of the same structure before the call)
/// drawn red: a box whose canonical id `before` has not, or has with other
/// lines, and an edge `before` has not.
///
/// Ids are canonical, so a call that moves objects around (a rotation)
/// shifts the ids below it, and those boxes are marked too.
///
/// ```
/// use smallscope::Heap;
///
/// #[derive(Heap)]
/// struct Node { key: i32, next: Option<Box<Node>> }
///
/// let one = Node { key: 1, next: None };
/// let two = Node { key: 1, next: Some(Box::new(Node { key: 2, next: None })) };
/// let (before, after) = (smallscope::emit::to_dot(&one, ""), smallscope::emit::to_dot(&two, ""));
/// let marked = smallscope::emit::mark_changes(&before, &after);
/// assert!(marked.contains(r#"n0 [label="Node#0\nkey: 1\l", color="red", penwidth=2];"#)); // lost `next: null`
/// assert!(marked.contains(r#"n0 -> n1 [label="next", color="red", penwidth=2];"#));
/// assert!(marked.contains(r#"n1 [label="Node#1\nkey: 2\lnext: null\l", color="red", penwidth=2];"#));
/// assert_eq!(smallscope::emit::mark_changes(&after, &after), after);
/// ```
pub fn mark_changes(before: &str, after: &str) -> String {
    let drawn: std::collections::HashSet<&str> = before.lines().map(str::trim).collect();
    let mut out = String::with_capacity(after.len() + 64);
    for line in after.lines() {
        let trimmed = line.trim();
        let is_item = trimmed.starts_with('n') && trimmed.ends_with("\"];");
        match (is_item && !drawn.contains(trimmed), line.strip_suffix("];")) {
            (true, Some(open)) => {
                out.push_str(open);
                out.push_str(", color=\"red\", penwidth=2];");
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The same heap as `to_dot`, rendered to SVG in pure Rust.
///
/// The graph is laid out top to bottom by `layout-rs`. The title is the
/// SVG's `<title>` element (`layout-rs` does not draw graph labels).
pub fn to_svg<T: Heap>(root: &T, title: &str) -> Result<String, PictureError> {
    dot_to_svg(&to_dot(root, title), title)
}

/// A DOT graph made by [`to_dot`] (kept in an event, say), drawn as SVG,
/// with `title` as its `<title>`.
pub fn dot_to_svg(dot: &str, title: &str) -> Result<String, PictureError> {
    Ok(with_title(fit_height(render_svg(dot)?), title))
}
