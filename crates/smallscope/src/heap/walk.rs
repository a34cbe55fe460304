//! What a canonical walk of a heap tells as it goes: the [`Sink`] each of
//! its outputs implements (tokens for fingerprints, canonical text, object
//! graphs), and how it writes a primitive.

use super::{Class, Prim};

/// Writes the events of a canonical walk somewhere.
pub(super) trait Sink {
    fn begin_object(&mut self, id: u32, class: &'static Class);
    fn end_object(&mut self);
    fn begin_inline(&mut self, class: &'static Class);
    fn end_inline(&mut self);
    fn field(&mut self, class: &'static Class, index: usize);
    fn back_ref(&mut self, id: u32);
    fn null(&mut self);
    fn some(&mut self);
    fn dangling(&mut self, index: usize);
    fn prim(&mut self, value: Prim<'_>);
    fn variant(&mut self, class: Option<&'static Class>, index: u32);
    fn seq_begin(&mut self, len: usize);
    fn seq_end(&mut self);
    fn tuple_begin(&mut self);
    fn tuple_end(&mut self);
}

/// A primitive as the canonical text writes it.
pub(super) fn prim_text(value: Prim<'_>) -> String {
    match value {
        Prim::Int(v) => v.to_string(),
        Prim::Uint(v) => v.to_string(),
        Prim::Bool(v) => v.to_string(),
        Prim::Char(v) => format!("{v:?}"),
        Prim::Str(v) => format!("{v:?}"),
        Prim::Float(bits) => format!("{:?}", f64::from_bits(bits)),
    }
}
