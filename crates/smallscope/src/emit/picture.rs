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

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rustc_hash::FxHashMap;

use crate::heap::{Arena, Class, GraphValue, GroupKind, Heap, ObjRef, ObjectGraph, ObjectId, Prim, Visitor};

/// Rendering a picture failed.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The SVG renderer could not read the DOT text (a construct it does not support).
    #[error("the SVG renderer could not parse the picture's DOT text: {0}")]
    Parse(String),
    /// The SVG renderer failed (panicked) while laying out or drawing the graph.
    #[error("the SVG renderer failed: {0}")]
    Render(String),
}

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

/// `svg` as tall as what it draws. `layout-rs` sizes its canvas for the
/// layout's rank grid, often twice the drawing's height or more: the
/// lowest box, label line or edge point, plus a margin, sets the height.
fn fit_height(svg: String) -> String {
    use std::sync::LazyLock;
    static RECT: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r#"<rect [^>]*?y="([0-9.]+)"[^>]*?height="([0-9.]+)""#).unwrap());
    static TEXT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"<text [^>]*?y="([0-9.]+)"[^>]*>((?:<tspan[^>]*>[^<]*</tspan>)*)"#).unwrap()
    });
    static PATH: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r#" d="([^"]*)""#).unwrap());
    static SIZE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"<svg width="([0-9.]+)" height="([0-9.]+)" viewBox="0 0 ([0-9.]+) ([0-9.]+)""#).unwrap()
    });
    let number = |text: &str| text.parse::<f64>().unwrap_or(0.0);
    let mut bottom: f64 = 0.0;
    for c in RECT.captures_iter(&svg) {
        bottom = bottom.max(number(&c[1]) + number(&c[2]));
    }
    for c in TEXT.captures_iter(&svg) {
        let lines = c[2].matches("<tspan").count().max(1) as f64;
        bottom = bottom.max(number(&c[1]) + 16.0 * (lines + 1.0));
    }
    for c in PATH.captures_iter(&svg) {
        // Points are `x y` pairs after the commands: every second number.
        let numbers: Vec<f64> = c[1].split([' ', ',']).filter_map(|t| t.parse().ok()).collect();
        for y in numbers.iter().skip(1).step_by(2) {
            bottom = bottom.max(*y);
        }
    }
    let Some(size) = SIZE.captures(&svg) else { return svg };
    let height = number(&size[2]);
    let fitted = (bottom + 20.0).ceil();
    if bottom <= 0.0 || fitted >= height {
        return svg;
    }
    let (width, view_width) = (size[1].to_owned(), size[3].to_owned());
    SIZE.replace(&svg, format!(r#"<svg width="{width}" height="{fitted}" viewBox="0 0 {view_width} {fitted}""#))
        .into_owned()
}

/// Lays out and draws a DOT graph with `layout-rs`.
fn render_svg(dot: &str) -> Result<String, PictureError> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};

    let ast = DotParser::new(dot).process().map_err(PictureError::Parse)?;
    // `layout-rs` asserts its invariants with panics: report one as an error.
    catch_unwind(AssertUnwindSafe(|| {
        let mut builder = GraphBuilder::new();
        builder.visit_graph(&ast);
        let mut graph = builder.get();
        let mut svg = SVGWriter::new();
        graph.do_it(false, false, false, &mut svg);
        svg.finalize()
    }))
    .map_err(|panic| {
        let message = match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
            (Some(s), _) => (*s).to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic with a non-text payload".to_string(),
        };
        PictureError::Render(message)
    })
}

/// `svg` with a `<title>` element right after its opening `<svg ..>` tag.
fn with_title(mut svg: String, title: &str) -> String {
    if title.is_empty() {
        return svg;
    }
    let Some(open) = svg.find("<svg") else { return svg };
    let Some(end) = svg[open..].find('>') else { return svg };
    let mut element = String::from("<title>");
    for c in title.chars() {
        match c {
            '&' => element.push_str("&amp;"),
            '<' => element.push_str("&lt;"),
            '>' => element.push_str("&gt;"),
            _ => element.push(c),
        }
    }
    element.push_str("</title>\n");
    let at = open + end + 1;
    // Keep the newline that follows the tag in front of the title.
    let at = if svg[at..].starts_with('\n') { at + 1 } else { at };
    svg.insert_str(at, &element);
    svg
}

/// Escapes `text` for a double-quoted DOT string: backslashes stay literal
/// (so `\n` in a value is not read as a line break), quotes are escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// One box of the picture.
struct Node {
    /// `Class#id`, then ` in arena[i]` and ` (Variant)` where they apply.
    header: String,
    /// `field: value`, one per field that is not just a reference.
    lines: Vec<String>,
    /// Outgoing references: target id and path, in walk order.
    edges: Vec<(u32, String)>,
}

/// A walked heap, ready to print.
struct Picture {
    /// Indexed by id.
    nodes: Vec<Node>,
}

impl Picture {
    /// Walks the heap twice: once as the linearizer does, to learn the
    /// canonical ids, then in full (omitted fields too) to draw it.
    fn of<T: Heap>(root: &T) -> Self {
        let root_addr = ObjectId::of(root);
        let mut numbering = Numbering { ids: FxHashMap::default(), next: 1, arenas: Vec::new() };
        // The heap may point back to its root (a root inside an `Rc`).
        numbering.ids.insert(root_addr, 0);
        root.walk(&mut numbering);

        let mut state = State {
            nodes: Vec::new(),
            canonical: numbering.ids,
            entered: FxHashMap::default(),
            next_canonical: 1,
            next_extra: numbering.next,
            open: Vec::new(),
        };
        state.entered.insert(root_addr, 0);
        Walk { state: &mut state, arenas: Vec::new() }.enter(0, T::class(), root, None, false);
        debug_assert_eq!(state.next_canonical, numbering.next, "the drawing walk met the canonical objects");
        let nodes = state.nodes.into_iter().map(|node| node.expect("ids are contiguous")).collect();
        Picture { nodes }
    }

    fn of_graph(graph: &ObjectGraph) -> Self {
        let nodes = graph
            .objects
            .iter()
            .enumerate()
            .map(|(id, object)| {
                let number = object.index.unwrap_or(id as u32);
                let mut node =
                    Node { header: format!("{}#{number}", object.class), lines: Vec::new(), edges: Vec::new() };
                for (name, value) in &object.fields {
                    match value {
                        GraphValue::Object(to) => node.edges.push((*to, name.to_string())),
                        value => {
                            graph_edges(value, name, &mut node.edges);
                            node.lines.push(format!("{name}: {}", graph_text(value)));
                        }
                    }
                }
                node
            })
            .collect();
        Picture { nodes }
    }

    fn dot(&self, title: &str) -> String {
        let mut out = String::from("digraph heap {\n");
        if !title.is_empty() {
            let _ = writeln!(out, "  label=\"{}\";\n  labelloc=t;", escape(title));
        }
        out.push_str("  node [shape=box, fontname=\"monospace\"];\n");
        for (id, node) in self.nodes.iter().enumerate() {
            // The header is centred (`\n`); field lines are left-aligned (`\l`).
            let mut label = escape(&node.header);
            if !node.lines.is_empty() {
                label.push_str("\\n");
            }
            for line in &node.lines {
                label.push_str(&escape(line));
                label.push_str("\\l");
            }
            let _ = writeln!(out, "  n{id} [label=\"{label}\"];");
            for (to, path) in &node.edges {
                let _ = writeln!(out, "  n{id} -> n{to} [label=\"{}\"];", escape(path));
            }
        }
        out.push_str("}\n");
        out
    }
}

/// A field value of an [`ObjectGraph`] as a picture's line writes it:
/// references inside a group as `#id`.
fn graph_text(value: &GraphValue) -> String {
    match value {
        GraphValue::Null => "null".into(),
        GraphValue::Object(id) => format!("#{id}"),
        GraphValue::Prim(text) => text.clone(),
        GraphValue::Group(kind, parts) => {
            let parts: Vec<String> = parts.iter().map(graph_text).collect();
            match kind {
                GroupKind::Sequence => format!("[{}]", parts.join(", ")),
                GroupKind::Tuple => format!("({})", parts.join(", ")),
                GroupKind::Named(name) => format!("{name}{{{}}}", parts.join(", ")),
            }
        }
    }
}

/// The references inside a group, each with its path from the field
/// (`items[1]`, `pair.0`).
fn graph_edges(value: &GraphValue, path: &str, edges: &mut Vec<(u32, String)>) {
    match value {
        GraphValue::Object(id) => edges.push((*id, path.to_owned())),
        GraphValue::Group(kind, parts) => {
            for (i, part) in parts.iter().enumerate() {
                let inner = match kind {
                    GroupKind::Sequence => format!("{path}[{i}]"),
                    _ => format!("{path}.{i}"),
                };
                graph_edges(part, &inner, edges);
            }
        }
        GraphValue::Null | GraphValue::Prim(_) => {}
    }
}

/// Whether the linearizer leaves field `index` of `class` out (as `DfsState::is_omitted`
/// does with no run-time omissions).
fn is_omitted(class: &'static Class, index: usize) -> bool {
    class.hides_fields && class.fields[index].omit
}

/// The arena called `name`, innermost first, as the linearizer resolves links.
fn find_arena<'a>(arenas: &[(&'static str, &'a dyn Arena)], name: &'static str) -> &'a dyn Arena {
    match arenas.iter().rev().find(|(n, _)| *n == name) {
        Some(&(_, arena)) => arena,
        None => panic!("index link into arena `{name}`, but no enclosing value has a #[heap(arena)] field `{name}`"),
    }
}

/// Pass one: the linearizer's walk, ids only. Omitted fields are not walked,
/// so objects behind them get no canonical id. Only objects with an identity
/// are recorded; boxes are numbered again, in the same order, by pass two.
struct Numbering<'a> {
    ids: FxHashMap<ObjectId, u32>,
    next: u32,
    arenas: Vec<(&'static str, &'a dyn Arena)>,
}

impl Visitor for Numbering<'_> {
    fn field(&mut self, class: &'static Class, index: usize) -> bool {
        !is_omitted(class, index)
    }
    fn null(&mut self) {}
    fn some(&mut self) {}
    fn prim(&mut self, _value: Prim<'_>) {}
    fn variant(&mut self, _index: u32) {}
    fn seq_begin(&mut self, _len: usize) {}
    fn seq_end(&mut self) {}
    fn inline(&mut self, _class: &'static Class, value: &dyn Heap) {
        value.walk(self);
    }
    fn object(&mut self, obj: ObjRef<'_>) {
        if let Some(addr) = obj.addr {
            if self.ids.contains_key(&addr) {
                return;
            }
            self.ids.insert(addr, self.next);
        }
        self.next += 1;
        obj.value.walk(self);
    }
    fn arena(&mut self, name: &'static str, arena: &dyn Arena, body: &mut dyn FnMut(&mut dyn Visitor)) {
        let mut arenas = self.arenas.clone();
        arenas.push((name, arena));
        let mut inner = Numbering { ids: std::mem::take(&mut self.ids), next: self.next, arenas };
        body(&mut inner);
        self.ids = inner.ids;
        self.next = inner.next;
    }
    fn arena_link(&mut self, name: &'static str, index: Option<usize>) {
        let Some(index) = index else { return };
        let arena = find_arena(&self.arenas, name);
        if let Some(value) = arena.get(index) {
            let addr = ObjectId::in_arena(arena, index);
            self.object(ObjRef { addr: Some(addr), class: arena.class(), value });
        }
    }
}

/// Pass two's bookkeeping: ids and the boxes made so far.
struct State {
    /// Indexed by id; filled as objects are entered.
    nodes: Vec<Option<Node>>,
    /// Canonical ids of the objects with an identity, from pass one.
    canonical: FxHashMap<ObjectId, u32>,
    /// Objects with an identity that already have their box.
    entered: FxHashMap<ObjectId, u32>,
    /// The canonical id of the next object entered outside omitted fields.
    next_canonical: u32,
    /// The id of the next object only reachable through omitted fields:
    /// these come after every canonical id.
    next_extra: u32,
    /// The objects being walked, innermost last.
    open: Vec<Open>,
}

impl State {
    fn top(&mut self) -> &mut Open {
        self.open.last_mut().expect("values are only walked inside an object")
    }
}

/// Where a value sits inside its enclosing frame, for edge labels.
#[derive(Clone)]
enum Seg {
    None,
    Field(&'static str),
    /// An element of a sequence: `[1]`.
    Index(usize),
    /// An element of a tuple: `.1`.
    Element(usize),
    /// A map entry's key: `.key` after the entry's index.
    EntryKey,
    /// A map entry's value, named by its key's text: `["ab"]`, in place of the entry's index.
    Key(String),
}

/// How a frame numbers what is inside it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    /// A variant or inline value: its fields name themselves.
    Fields,
    Sequence,
    Tuple,
    /// A map entry: its key, then its value.
    Entry,
}

/// One open sequence, inline value or enum variant inside a field's value.
struct Frame {
    /// Something was written inside it already.
    written: bool,
    /// Written when it closes (nothing for an inline enum's own frame).
    close: Option<char>,
    /// A variant's brace, written only once a field comes.
    lazy_open: bool,
    variant: bool,
    /// How elements are numbered for paths.
    group: Group,
    /// Elements met so far, for a sequence, tuple or entry.
    items: usize,
    /// For an entry: where its key's text starts.
    key_start: usize,
    /// The field or element being written.
    seg: Seg,
    /// The field being written is `#[heap(omit)]`.
    hidden: bool,
    /// For an inline value's own frame, its class (names an enum's variants).
    class: Option<&'static Class>,
}

impl Frame {
    fn new(close: Option<char>) -> Self {
        Frame {
            written: false,
            close,
            lazy_open: false,
            variant: false,
            group: Group::Fields,
            items: 0,
            key_start: 0,
            seg: Seg::None,
            hidden: false,
            class: None,
        }
    }
}

/// An object being walked: its finished lines and the field in progress.
struct Open {
    id: u32,
    class: &'static Class,
    /// Reached only through omitted fields: the linearizer never sees it.
    hidden: bool,
    lines: Vec<String>,
    edges: Vec<(u32, String)>,
    /// The field in progress, whether it is omitted, and its value text so far.
    field: Option<&'static str>,
    field_hidden: bool,
    text: String,
    /// The field was announced and nothing of its value came yet.
    fresh: bool,
    /// The field's whole value is one reference: it is drawn as an edge only.
    edge_only: bool,
    /// The next value follows `field: ` or `some ` and needs no separator.
    after_field: bool,
    frames: Vec<Frame>,
}

impl Open {
    fn new(id: u32, class: &'static Class, hidden: bool) -> Self {
        Open {
            id,
            class,
            hidden,
            lines: Vec::new(),
            edges: Vec::new(),
            field: None,
            field_hidden: false,
            text: String::new(),
            fresh: false,
            edge_only: false,
            after_field: false,
            frames: Vec::new(),
        }
    }

    /// Ends the field in progress, keeping its line unless it was only a reference.
    fn flush(&mut self) {
        if let Some(name) = self.field.take() {
            if !self.edge_only {
                self.lines.push(format!("{name}: {}", self.text));
            }
        }
        self.text.clear();
        self.frames.clear();
        self.fresh = false;
        self.edge_only = false;
        self.after_field = false;
        self.field_hidden = false;
    }

    /// Starts a value: writes the separator it needs and numbers sequence elements.
    fn item(&mut self) {
        self.fresh = false;
        if std::mem::take(&mut self.after_field) {
            return;
        }
        if let Some(frame) = self.frames.last_mut() {
            let item = frame.items;
            frame.items += 1;
            // Read before the separator: the key is all that the entry wrote so far.
            let key = (frame.group == Group::Entry && item == 1).then(|| self.text[frame.key_start..].to_owned());
            if std::mem::replace(&mut frame.written, true) {
                self.text.push_str(", ");
            }
            match frame.group {
                Group::Fields => {}
                Group::Sequence => frame.seg = Seg::Index(item),
                Group::Tuple => frame.seg = Seg::Element(item),
                Group::Entry => match key {
                    None => {
                        frame.key_start = self.text.len();
                        frame.seg = Seg::EntryKey;
                    }
                    Some(key) => frame.seg = Seg::Key(key),
                },
            }
        }
    }

    /// Closes the frame on top, and the variant frame inside it first.
    fn close(&mut self) {
        if self.frames.last().is_some_and(|f| f.variant) {
            let variant = self.frames.pop().expect("checked");
            if !variant.lazy_open {
                self.text.push('}');
            }
        }
        if let Some(frame) = self.frames.pop() {
            if let Some(c) = frame.close {
                self.text.push(c);
            }
        }
    }

    /// Whether the value being written is out of the linearizer's sight.
    fn hidden_here(&self) -> bool {
        self.hidden || self.field_hidden || self.frames.iter().any(|f| f.hidden)
    }

    /// The path of the value being written: `next`, `items[0]`, `span.lo`,
    /// `pair.1`, and for a map entry's value its key, `children['a']`.
    fn path(&self) -> String {
        let mut path = String::from(self.field.unwrap_or(""));
        for (i, frame) in self.frames.iter().enumerate() {
            // A map's value is named by its key, not by the entry's position.
            let keyed = self.frames.get(i + 1).is_some_and(|next| matches!(next.seg, Seg::Key(_)));
            match &frame.seg {
                Seg::None => {}
                Seg::Index(_) if keyed => {}
                Seg::Field(name) => {
                    path.push('.');
                    path.push_str(name);
                }
                Seg::Index(i) => {
                    let _ = write!(path, "[{i}]");
                }
                Seg::Element(i) => {
                    let _ = write!(path, ".{i}");
                }
                Seg::EntryKey => path.push_str(".key"),
                Seg::Key(key) => {
                    let _ = write!(path, "[{key}]");
                }
            }
        }
        path
    }
}

/// The field's own name: variant fields are declared as `Variant.field`.
fn field_name(class: &'static Class, index: usize) -> &'static str {
    let name = class.fields[index].name;
    name.rsplit('.').next().unwrap_or(name)
}

/// Pass two: the full depth-first walk that draws. Outside omitted fields it
/// meets objects in the linearizer's order, so they get its ids. Arenas in
/// scope are held by reference: a nested arena gets a nested `Walk` that
/// borrows it, so no lifetime needs erasing.
struct Walk<'a> {
    state: &'a mut State,
    /// Arenas that index links may name, innermost last.
    arenas: Vec<(&'static str, &'a dyn Arena)>,
}

impl Walk<'_> {
    fn enter(&mut self, id: u32, class: &'static Class, value: &dyn Heap, place: Option<(&str, usize)>, hidden: bool) {
        let mut header = format!("{}#{id}", class.name);
        if let Some((arena, index)) = place {
            let _ = write!(header, " in {arena}[{index}]");
        }
        let slot = id as usize;
        if self.state.nodes.len() <= slot {
            self.state.nodes.resize_with(slot + 1, || None);
        }
        self.state.nodes[slot] = Some(Node { header, lines: Vec::new(), edges: Vec::new() });
        self.state.open.push(Open::new(id, class, hidden));
        value.walk(self);
        let mut open = self.state.open.pop().expect("pushed above");
        open.flush();
        let node = self.state.nodes[slot].as_mut().expect("made above");
        node.lines = open.lines;
        node.edges = open.edges;
    }

    /// Opens a tuple or a map entry, written `(..)` as in the canonical text.
    fn group_begin(&mut self, group: Group) {
        let open = self.state.top();
        open.item();
        open.text.push('(');
        let mut frame = Frame::new(Some(')'));
        frame.group = group;
        open.frames.push(frame);
    }

    /// A pointer to `obj`: an edge, and a walk of `obj` if it has no box yet.
    fn reach(&mut self, obj: ObjRef<'_>, place: Option<(&str, usize)>) {
        let state = &mut *self.state;
        let hidden = state.top().hidden_here();
        // The target's id, and whether to walk it now.
        let (id, walk) = match obj.addr {
            Some(addr) => match (state.entered.get(&addr), state.canonical.get(&addr)) {
                (Some(&id), _) => (id, false),
                // A canonical object met through an omitted field: it gets its
                // box where the linearizer meets it.
                (None, Some(&id)) if hidden => (id, false),
                (None, Some(&id)) => {
                    debug_assert_eq!(id, state.next_canonical);
                    state.next_canonical += 1;
                    (id, true)
                }
                (None, None) => {
                    state.next_extra += 1;
                    (state.next_extra - 1, true)
                }
            },
            None if hidden => {
                state.next_extra += 1;
                (state.next_extra - 1, true)
            }
            None => {
                state.next_canonical += 1;
                (state.next_canonical - 1, true)
            }
        };
        if let (Some(addr), true) = (obj.addr, walk) {
            state.entered.insert(addr, id);
        }

        let open = state.top();
        if open.frames.is_empty() && open.fresh {
            // The field is this reference: the edge says it all.
            open.edge_only = true;
            open.fresh = false;
            open.after_field = false;
        } else {
            // Numbers a sequence element before its path is taken.
            open.item();
            let _ = write!(open.text, "#{id}");
        }
        let path = open.path();
        open.edges.push((id, path));
        if walk {
            // Everything behind an object the linearizer does not see is hidden too.
            self.enter(id, obj.class, obj.value, place, hidden);
        }
    }
}

impl Visitor for Walk<'_> {
    fn field(&mut self, class: &'static Class, index: usize) -> bool {
        // Omitted fields are drawn too: they are only left out of canonical forms.
        let name = field_name(class, index);
        let hidden = is_omitted(class, index);
        let open = self.state.top();
        if open.frames.is_empty() {
            open.flush();
            open.field = Some(name);
            open.field_hidden = hidden;
            open.fresh = true;
        } else {
            if let Some(frame) = open.frames.last_mut() {
                if std::mem::take(&mut frame.lazy_open) {
                    open.text.push('{');
                }
            }
            open.item();
            if let Some(frame) = open.frames.last_mut() {
                frame.seg = Seg::Field(name);
                frame.hidden = hidden;
            }
            open.text.push_str(name);
            open.text.push_str(": ");
        }
        open.after_field = true;
        true
    }

    fn null(&mut self) {
        let open = self.state.top();
        open.item();
        open.text.push_str("null");
    }

    fn some(&mut self) {
        let open = self.state.top();
        open.item();
        open.text.push_str("some ");
        open.after_field = true;
    }

    fn prim(&mut self, value: Prim<'_>) {
        let open = self.state.top();
        open.item();
        let _ = match value {
            Prim::Int(v) => write!(open.text, "{v}"),
            Prim::Uint(v) => write!(open.text, "{v}"),
            Prim::Bool(v) => write!(open.text, "{v}"),
            Prim::Char(v) => write!(open.text, "{v:?}"),
            Prim::Str(v) => write!(open.text, "{v:?}"),
            Prim::Float(bits) => write!(open.text, "{:?}", f64::from_bits(bits)),
        };
    }

    fn variant(&mut self, index: u32) {
        let open = self.state.top();
        // The class that emitted the variant: the inline enum on top, or the object itself.
        let class = match open.frames.last() {
            Some(frame) => frame.class,
            None => Some(open.class),
        };
        let name = match class.and_then(|c| c.variants.get(index as usize)) {
            Some(name) => (*name).to_string(),
            None => format!("variant{index}"),
        };
        if open.frames.is_empty() {
            // The object's own variant: part of its header.
            let id = open.id as usize;
            if let Some(node) = self.state.nodes[id].as_mut() {
                let _ = write!(node.header, " ({name})");
            }
        } else {
            open.item();
            open.text.push_str(&name);
            let mut frame = Frame::new(Some('}'));
            frame.lazy_open = true;
            frame.variant = true;
            open.frames.push(frame);
        }
    }

    fn seq_begin(&mut self, _len: usize) {
        let open = self.state.top();
        open.item();
        open.text.push('[');
        let mut frame = Frame::new(Some(']'));
        frame.group = Group::Sequence;
        open.frames.push(frame);
    }

    fn seq_end(&mut self) {
        self.state.top().close();
    }

    fn tuple_begin(&mut self, _arity: usize) {
        self.group_begin(Group::Tuple);
    }

    fn tuple_end(&mut self) {
        self.state.top().close();
    }

    fn entry_begin(&mut self) {
        self.group_begin(Group::Entry);
    }

    fn entry_end(&mut self) {
        self.state.top().close();
    }

    fn inline(&mut self, class: &'static Class, value: &dyn Heap) {
        let open = self.state.top();
        open.item();
        let mut frame = if class.variants.is_empty() {
            open.text.push_str(class.name);
            open.text.push('{');
            Frame::new(Some('}'))
        } else {
            // An enum shows as its variant, written by `variant`.
            Frame::new(None)
        };
        frame.class = Some(class);
        open.frames.push(frame);
        value.walk(self);
        self.state.top().close();
    }

    fn object(&mut self, obj: ObjRef<'_>) {
        self.reach(obj, None);
    }

    fn arena(&mut self, name: &'static str, arena: &dyn Arena, body: &mut dyn FnMut(&mut dyn Visitor)) {
        let mut arenas = self.arenas.clone();
        arenas.push((name, arena));
        body(&mut Walk { state: &mut *self.state, arenas });
    }

    fn arena_link(&mut self, name: &'static str, index: Option<usize>) {
        let Some(index) = index else {
            self.null();
            return;
        };
        let arena = find_arena(&self.arenas, name);
        match arena.get(index) {
            None => {
                let open = self.state.top();
                open.item();
                let _ = write!(open.text, "dangling({index})");
            }
            Some(value) => {
                let addr = ObjectId::in_arena(arena, index);
                self.reach(ObjRef { addr: Some(addr), class: arena.class(), value }, Some((name, index)));
            }
        }
    }
}
