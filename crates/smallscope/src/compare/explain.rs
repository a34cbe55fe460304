//! Why a witness is in one set and not the other: the fields where it
//! differs from the structures of the other set that look most like it.

use super::outcome::Witness;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

/// A canonical text taken apart: its shape (objects and links, values
/// masked) and its values, each with the object it is in.
struct Parsed<'t> {
    shape: String,
    /// The path of fields that reaches each object or inline value, in the
    /// order they open (`""` for the root).
    owners: Vec<String>,
    /// `(owner, field, value)` in text order.
    values: Vec<(u32, &'t str, &'t str)>,
}

impl Parsed<'_> {
    /// `path.field` of value `index`.
    fn path(&self, index: usize) -> String {
        let (owner, field, _) = self.values[index];
        match self.owners[owner as usize].as_str() {
            "" => field.to_owned(),
            owner => format!("{owner}.{field}"),
        }
    }
}

/// Parses `Class#id{field: value, field: Class#id{..}, field: @id}`; values
/// are whatever is not an object, a back reference or a bracket.
fn parse(canonical: &str) -> Parsed<'_> {
    let mut shape = String::with_capacity(canonical.len());
    let mut owners: Vec<String> = Vec::new();
    let mut values = Vec::new();
    // Open objects, as indices into `owners`.
    let mut open: Vec<u32> = Vec::new();
    let bytes = canonical.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let delimiter = matches!(b, b'{' | b'}' | b'[' | b']') || (b == b',' && bytes.get(i + 1) == Some(&b' '));
        if !delimiter {
            i += 1;
            continue;
        }
        let piece = canonical[start..i].trim();
        match b {
            b'{' | b'[' => {
                // An object, an inline value or a sequence opens.
                let (field, head) = match piece.split_once(':') {
                    Some((field, head)) => (field.trim(), head.trim()),
                    None if open.is_empty() => ("", piece),
                    None => ("[]", piece),
                };
                if !field.is_empty() {
                    shape.push_str(field);
                    shape.push(':');
                }
                shape.push_str(head);
                shape.push(b as char);
                let mut path = String::new();
                if let Some(&o) = open.last() {
                    let outer = &owners[o as usize];
                    if !outer.is_empty() {
                        path.reserve(outer.len() + 1 + field.len());
                        path.push_str(outer);
                        path.push('.');
                    }
                }
                path.push_str(field);
                open.push(owners.len() as u32);
                owners.push(path);
            }
            _ => {
                if !piece.is_empty() {
                    let (field, value) = piece.split_once(": ").unwrap_or(("[]", piece));
                    shape.push_str(field);
                    shape.push(':');
                    shape.push_str(if value.starts_with('@') { value } else { "_" });
                    values.push((open.last().copied().unwrap_or(0), field, value));
                }
                if b == b',' {
                    shape.push(',');
                    i += 1;
                } else {
                    shape.push(b as char);
                    open.pop();
                }
            }
        }
        i += 1;
        start = i;
    }
    if owners.is_empty() {
        owners.push(String::new());
    }
    Parsed { shape, owners, values }
}

/// What kind of value a printed value is, for grouping witnesses: `null`, a
/// number, or the text itself (an enum variant, a boolean).
fn value_kind(value: &str) -> &str {
    let number = value.strip_prefix('-').unwrap_or(value);
    let numeric = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if numeric || value.starts_with('"') || value.starts_with('\'') {
        "a value"
    } else {
        value
    }
}

/// Explains each witness against `other` (the other set's canonical texts)
/// and ranks the representatives; see [`Comparison::representatives`].
/// `witnesses` come sorted smallest first.
pub(super) fn explain<'w, 'o>(witnesses: impl Iterator<Item = &'w mut Witness>, other: impl Iterator<Item = &'o str>) {
    // Per shape, per value position: the values the other set has there.
    let mut groups: FxHashMap<String, Vec<FxHashSet<&'o str>>> = FxHashMap::default();
    for text in other {
        let parsed = parse(text);
        let group = groups.entry(parsed.shape).or_insert_with(|| vec![Default::default(); parsed.values.len()]);
        for (slot, (_, _, value)) in group.iter_mut().zip(parsed.values) {
            slot.insert(value);
        }
    }
    let mut witnesses: Vec<&mut Witness> = witnesses.collect();
    let mut signatures: Vec<BTreeSet<String>> = Vec::with_capacity(witnesses.len());
    for witness in &mut witnesses {
        let parsed = parse(&witness.canonical);
        let (same_shape, odd_fields, signature) = match groups.get(&parsed.shape) {
            Some(group) => {
                let odd: Vec<usize> = (0..parsed.values.len())
                    .filter(|&i| group.get(i).is_some_and(|seen| !seen.contains(parsed.values[i].2)))
                    .collect();
                let fields = odd.iter().map(|&i| format!("{} = {}", parsed.path(i), parsed.values[i].2)).collect();
                let signature = if odd.is_empty() {
                    BTreeSet::from([format!("combination in {}", parsed.shape)])
                } else {
                    odd.iter().map(|&i| format!("{} = {}", parsed.path(i), value_kind(parsed.values[i].2))).collect()
                };
                (true, fields, signature)
            }
            None => (false, Vec::new(), BTreeSet::from([format!("shape {}", parsed.shape)])),
        };
        witness.same_shape = same_shape;
        witness.odd_fields = odd_fields;
        signatures.push(signature);
    }
    // Witnesses the API builds at a larger scope last, then fewer odd fields
    // first; the sort is stable, so then smallest first.
    let mut order: Vec<usize> = (0..witnesses.len()).collect();
    order.sort_by_key(|&i| (witnesses[i].api_at_scope.is_some(), signatures[i].len()));
    // Kept signatures: single ones in a set, the others in a list.
    let mut single: FxHashSet<&String> = FxHashSet::default();
    let mut kept: Vec<&BTreeSet<String>> = Vec::new();
    let mut rank = 0;
    for i in order {
        let signature = &signatures[i];
        if signature.iter().any(|s| single.contains(s)) || kept.iter().any(|k| k.is_subset(signature)) {
            continue;
        }
        witnesses[i].representative = Some(rank);
        rank += 1;
        match signature.len() {
            1 => {
                single.extend(signature.iter());
            }
            _ => kept.push(signature),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_parsed_into_shapes_and_values() {
        let a = parse("L#0{head: N#1{key: 7, next: @1}, size: 1, color: Red, tags: [1, null]}");
        let b = parse("L#0{head: N#1{key: 2, next: @1}, size: 1, color: Black, tags: [3, 4]}");
        assert_eq!(a.shape, b.shape);
        assert_eq!(a.shape, "L#0{head:N#1{key:_,next:@1},size:_,color:_,tags:[[]:_,[]:_]}");
        let paths: Vec<String> = (0..a.values.len()).map(|i| format!("{}={}", a.path(i), a.values[i].2)).collect();
        assert_eq!(paths, ["head.key=7", "head.next=@1", "size=1", "color=Red", "tags.[]=1", "tags.[]=null"]);
        assert_ne!(parse("L#0{head: null}").shape, parse("L#0{head: N#1{key: 1, next: null}}").shape);
    }

    #[test]
    fn witnesses_are_explained_and_ranked() {
        let api = ["L#0{head: null, size: 0}", "L#0{head: N#1{key: 1}, size: 1}", "L#0{head: N#1{key: 2}, size: 1}"];
        let mut witnesses: Vec<Witness> = [
            "L#0{head: null, size: 1}",
            "L#0{head: N#1{key: null}, size: 1}",
            "L#0{head: N#1{key: null}, size: 2}",
            "L#0{head: N#1{key: 3}, size: 1}",
            "L#0{head: N#1{key: 1}, tail: null}",
        ]
        .into_iter()
        .map(|t| Witness::new(t.to_owned()))
        .collect();
        explain(witnesses.iter_mut(), api.into_iter());
        assert_eq!(witnesses[0].odd_fields, ["size = 1"]);
        assert_eq!(witnesses[1].odd_fields, ["head.key = null"]);
        // Both odd fields of the third were shown already, one at a time.
        assert_eq!(witnesses[2].odd_fields.len(), 2);
        assert_eq!(witnesses[2].representative, None);
        // A key the API never sets there (3), a shape it never builds.
        assert_eq!(witnesses[3].odd_fields, ["head.key = 3"]);
        assert!(!witnesses[4].same_shape);
        let ranks: Vec<Option<usize>> = witnesses.iter().map(|w| w.representative).collect();
        assert_eq!(ranks, [Some(0), Some(1), None, Some(2), Some(3)]);
    }
}
