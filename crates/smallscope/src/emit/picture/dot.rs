//! The picture as Graphviz DOT: a box per object with its plain fields,
//! an edge per reference, labelled with the field's path.

use crate::heap::{GraphValue, GroupKind, ObjectGraph};
use std::fmt::Write as _;

/// Escapes `text` for a double-quoted DOT string: backslashes stay literal
/// (so `\n` in a value is not read as a line break), quotes are escaped.
pub(super) fn escape(text: &str) -> String {
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
pub(super) struct Node {
    /// `Class#id`, then ` in arena[i]` and ` (Variant)` where they apply.
    pub(super) header: String,
    /// `field: value`, one per field that is not just a reference.
    pub(super) lines: Vec<String>,
    /// Outgoing references: target id and path, in walk order.
    pub(super) edges: Vec<(u32, String)>,
}

/// A walked heap, ready to print.
pub(super) struct Picture {
    /// Indexed by id.
    pub(super) nodes: Vec<Node>,
}
impl Picture {
    pub(super) fn of_graph(graph: &ObjectGraph) -> Self {
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

    pub(super) fn dot(&self, title: &str) -> String {
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
pub(super) fn graph_text(value: &GraphValue) -> String {
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
pub(super) fn graph_edges(value: &GraphValue, path: &str, edges: &mut Vec<(u32, String)>) {
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
