//! Telling when state matching merged states that differ in a
//! `#[heap(skip)]` field.
//!
//! A skipped field is in no state key, so two values that differ only
//! there are one state: the search keeps the first and drops the other,
//! and if the API's behaviour depends on the field, what only the dropped
//! one leads to is never made (see [`crate::heap`] on hidden state). The
//! walk cannot see the field, but `Debug` usually can: for each kept state
//! the audit remembers a hash of each skipped field's values in the
//! value's `Debug` text, and when a call makes a known state whose hashes
//! differ, it names the field and the call once.
//!
//! Cost: one `Debug` rendering per output while some skipped field has
//! not been caught merging, for subjects with skipped fields only, and
//! only until the search has kept [`AUDITED_STATES`] states: merges show
//! in small structures, and a large run should not pay for the audit. (A
//! bound on states kept, not on renderings, so that a run resumed after a
//! restart audits what an uninterrupted one does.) With 4 096 states, the
//! audit is an eighth of the instructions of `ncl` at scope 6 (11 196
//! states); with 65 536, it was half.

use std::hash::{BuildHasher as _, Hash as _, Hasher as _};

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::api::Subject;
use crate::events::During;
use crate::heap::Schema;
use crate::runner::{run_captured, UserCode};

/// The audit stops once the search has kept this many states.
pub const AUDITED_STATES: usize = 1 << 12;

/// `Debug` for the subject type, writing into any `fmt::Write`.
pub(super) type DebugFn<T> = fn(&T, &mut dyn std::fmt::Write) -> std::fmt::Result;

/// The skipped fields' values of every kept state, as hashes.
pub(super) struct SkipAudit<T> {
    debug: DebugFn<T>,
    /// `Class.field`, and the field's name as `Debug` writes it.
    fields: Vec<(String, &'static str)>,
    /// Per kept state, by its key's fingerprint: a hash per skipped field.
    kept: FxHashMap<u128, Box<[u64]>>,
    /// The fields a note named already.
    pub noted: Vec<String>,
    text: String,
}

impl<T: Subject> SkipAudit<T> {
    /// An audit of `T`'s skipped fields, if it has any.
    pub fn new(debug: DebugFn<T>) -> Option<Self> {
        let schema = Schema::of::<T>();
        let fields: Vec<(String, &'static str)> = (schema.classes().iter())
            .flat_map(|class| class.skipped.iter().map(move |f| (format!("{}.{f}", class.name), *f)))
            .map(|(name, field)| (name, field.rsplit('.').next().unwrap_or(field)))
            .collect();
        (!fields.is_empty()).then(|| SkipAudit {
            debug,
            fields,
            kept: FxHashMap::default(),
            noted: Vec::new(),
            text: String::new(),
        })
    }

    /// Whether the audit is over when the search has kept `states`
    /// states: past [`AUDITED_STATES`], or every skipped field caught.
    pub fn done(&self, states: usize) -> bool {
        states >= AUDITED_STATES || self.fields.iter().all(|(name, _)| self.noted.contains(name))
    }

    /// Remembers the skipped fields of a kept state.
    pub fn keep(&mut self, key: u128, value: &T, op: u16) {
        if let Some(prints) = self.prints(value, op) {
            self.kept.insert(key, prints);
        }
    }

    /// The skipped fields, not named before, in which `value` differs from
    /// the kept state of the same key: they are named now.
    pub fn merged(&mut self, key: u128, value: &T, op: u16) -> Vec<String> {
        let Some(prints) = self.prints(value, op) else { return Vec::new() };
        let Some(kept) = self.kept.get(&key) else { return Vec::new() };
        let differ: Vec<String> = (self.fields.iter().zip(prints.iter().zip(kept.iter())))
            .filter(|(_, (a, b))| a != b)
            .map(|((name, _), _)| name.clone())
            .filter(|name| !self.noted.contains(name))
            .collect();
        self.noted.extend(differ.iter().cloned());
        differ
    }

    /// A hash of each skipped field's values in `value`'s `Debug` text;
    /// `None` when `Debug` panicked (the audit then learns nothing).
    fn prints(&mut self, value: &T, op: u16) -> Option<Box<[u64]>> {
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        let debug = self.debug;
        let written = run_captured(UserCode::new(During::Check, op), || debug(value, &mut text).is_ok());
        let prints = matches!(written, Ok(true))
            .then(|| self.fields.iter().map(|(_, field)| field_hash(&text, field)).collect());
        self.text = text;
        prints
    }
}

/// A hash of every value written after `field: ` in a derived `Debug` text,
/// in order.
fn field_hash(text: &str, field: &str) -> u64 {
    let mut hasher = FxBuildHasher.build_hasher();
    let needle = format!("{field}: ");
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let starts_word = at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        rest = &rest[at + needle.len()..];
        if starts_word {
            let end = value_end(rest);
            rest[..end].hash(&mut hasher);
            rest = &rest[end..];
        }
    }
    hasher.finish()
}

/// Where the value at the start of `text` ends: at a `,` or a closing
/// bracket outside brackets and strings.
fn value_end(text: &str) -> usize {
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for (i, c) in text.char_indices() {
        if quoted {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return i,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return i,
            _ => {}
        }
    }
    text.len()
}

/// The note for a merge found in `field` by a call of `op`.
pub(super) fn merge_note(field: &str, op: &str) -> String {
    format!(
        "field `{field}` is #[heap(skip)], and `{op}` made a state that differs from a kept one only there: \
         the search merged them, so behaviour that depends on the field may be missed; #[heap(omit)] keeps \
         them apart"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_s_values_are_read_from_derived_debug_text() {
        let text = "List { slots: [Slot { value: Some(1), generation: 3 }, Slot { value: None, generation: 0 }], \
                    len: 1, name: \"a, generation: 9\" }";
        let other = text.replace("generation: 3", "generation: 4");
        assert_ne!(field_hash(text, "generation"), field_hash(&other, "generation"));
        assert_eq!(field_hash(text, "value"), field_hash(&other, "value"));
        // A field whose name ends another's is not it.
        assert_eq!(field_hash("A { len: 1 }", "en"), field_hash("A { len: 2 }", "en"));
        assert_eq!(value_end("Some((1, 2)), next: None"), 12);
        assert_eq!(value_end("\"x, }\" }"), 7);
    }
}
