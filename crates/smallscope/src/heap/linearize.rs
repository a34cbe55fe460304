//! Linearization (BEAPI paper, Fig. 3): the canonical form of a rooted heap.
//!
//! A depth-first walk from the root numbers objects in the order it first
//! meets them and writes each field, in declaration order, as a token. A
//! pointer to an object met before becomes a back reference to its number, so
//! two heaps have the same token sequence iff they are isomorphic: equal up to
//! where their objects live in memory. The walk stops with [`OutOfScope`] as
//! soon as one class has more objects than the limit.
//!
//! Cost: linear in the number of reachable objects and fields. Objects behind
//! a `Box` skip the identity lookup, because nothing else can point to them.

use rustc_hash::FxHashMap;

use super::extension::{GraphBuilder, ObjectGraph};
use super::walk::{prim_text, Sink};
use super::{Arena, Class, Heap, ObjRef, ObjectId, Prim, StaticVisitor, Visitor};

/// A canonical form: the token sequence of a linearized heap.
pub type Token = u64;

/// A heap passed a bound: more objects of one class than the scope allows,
/// or a collection (a `Vec`, map, set or `String`) longer than its bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfScope {
    pub class: &'static str,
    pub limit: u32,
    /// The field of `class` whose collection passed `limit` elements;
    /// `None` when `class` had more than `limit` objects.
    pub field: Option<&'static str>,
}

impl std::fmt::Display for OutOfScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.field {
            None => write!(f, "more than {} objects of class {}", self.limit, self.class),
            Some(field) => write!(f, "more than {} elements in {}.{field}", self.limit, self.class),
        }
    }
}

impl std::error::Error for OutOfScope {}

/// A field that held a collection during some walk: what a run's
/// collection bound applies to.
#[derive(Debug, Clone, Copy)]
pub struct CollectionField {
    pub class: &'static Class,
    /// The field's index in `class`.
    pub index: usize,
    /// A `String` (bounded in characters), not a collection of elements.
    pub string: bool,
}

impl CollectionField {
    /// `Class.field`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.class.name, self.class.fields[self.index].name)
    }
}

/// An owned canonical form, for storing and comparing.
pub type Canonical = Box<[Token]>;

// Token tags live in the top four bits; payloads in the other sixty.
const TAG_SHIFT: u32 = 60;
const PAYLOAD: u64 = (1 << TAG_SHIFT) - 1;
const NULL: u64 = 0;
const BACK_REF: u64 = 1;
const NEW_OBJECT: u64 = 2;
const INT: u64 = 3;
const WIDE_INT: u64 = 4;
const BOOL: u64 = 5;
const CHAR: u64 = 6;
const STR: u64 = 7;
const FLOAT: u64 = 8;
const VARIANT: u64 = 9;
const SEQ: u64 = 10;
const DANGLING: u64 = 11;
const UINT: u64 = 12;
const SOME: u64 = 13;
const TUPLE: u64 = 14;

fn tag(tag: u64, payload: u64) -> Token {
    (tag << TAG_SHIFT) | (payload & PAYLOAD)
}

/// Linearizes heaps, reusing its buffers from one call to the next.
///
/// ```
/// use smallscope::{heap::Linearizer, Heap};
///
/// #[derive(Heap)]
/// struct Node { next: Option<Box<Node>> }
///
/// let two = Node { next: Some(Box::new(Node { next: None })) };
/// let mut lin = Linearizer::new(Some(1));
/// assert!(lin.linearize(&two).is_err()); // two Nodes, scope 1
/// ```
pub struct Linearizer {
    state: DfsState,
    tokens: Vec<Token>,
}

impl Linearizer {
    /// A linearizer that allows at most `limit` objects of each class (`None`: no limit).
    pub fn new(limit: Option<u32>) -> Self {
        Linearizer { state: DfsState::new(limit.unwrap_or(u32::MAX)), tokens: Vec::with_capacity(256) }
    }

    /// Leaves these `(class, field index)` pairs out of the canonical form.
    pub fn omit(mut self, fields: Vec<(&'static Class, usize)>) -> Self {
        self.state.omitted = fields;
        self
    }

    /// Walks the fields classes `#[heap(omit)]` too: the whole state the
    /// walk can see, which is what state matching keys on (see
    /// [`crate::heap`] on hidden state), rather than the canonical form.
    /// The limits bound that state as they bound the rest: objects reached
    /// through omitted fields count, and so do the lengths of their
    /// collections (a free list that grows with every call would otherwise
    /// give a search without end).
    pub fn every_field(mut self) -> Self {
        self.state.every_field = true;
        self
    }

    /// Allows at most `limit` elements in each collection of values or
    /// objects (`Vec`, `VecDeque`, maps, sets; characters of a `String`),
    /// so that a type whose state is a growing `Vec<u8>` has finitely many
    /// states in scope. Arrays, whose length is their type's, are not bounded.
    pub fn collections(mut self, limit: Option<u32>) -> Self {
        self.state.collection_limit = limit.unwrap_or(u32::MAX);
        self
    }

    /// The collection limit, if one was set.
    pub fn collection_limit(&self) -> Option<u32> {
        (self.state.collection_limit != u32::MAX).then_some(self.state.collection_limit)
    }

    /// Every field that held a collection in some walk so far, in the
    /// order first met.
    pub fn collection_fields(&self) -> &[CollectionField] {
        &self.state.collection_fields
    }

    pub fn limit(&self) -> u32 {
        self.state.limit
    }

    /// The objects the last walk met, the root included.
    pub fn objects(&self) -> u32 {
        self.state.next_id
    }

    /// The canonical token sequence of the heap rooted at `root`.
    pub fn linearize<T: Heap>(&mut self, root: &T) -> Result<&[Token], OutOfScope> {
        self.tokens.clear();
        let mut dfs = Dfs { state: &mut self.state, sink: TokenSink(&mut self.tokens) };
        dfs.run_static(root)?;
        Ok(&self.tokens)
    }

    /// [`Linearizer::linearize`] through `dyn Visitor` calls only, as any
    /// other visitor walks: what the static walk must equal (for tests).
    #[doc(hidden)]
    pub fn linearize_dyn<T: Heap>(&mut self, root: &T) -> Result<&[Token], OutOfScope> {
        self.tokens.clear();
        let mut dfs = Dfs { state: &mut self.state, sink: TokenSink(&mut self.tokens) };
        dfs.run(T::class(), root)?;
        Ok(&self.tokens)
    }

    /// The heap as a graph of objects (see [`ObjectGraph`]), with this
    /// linearizer's omissions and limit.
    pub fn graph<T: Heap>(&mut self, root: &T) -> Result<ObjectGraph, OutOfScope> {
        let mut graph = GraphBuilder::default();
        let mut dfs = Dfs { state: &mut self.state, sink: &mut graph };
        dfs.run_static(root)?;
        Ok(graph.finish())
    }

    /// The canonical form as readable text, with this linearizer's omissions.
    pub fn text<T: Heap>(&mut self, root: &T) -> Result<String, OutOfScope> {
        let mut text = CanonicalText::default();
        let mut dfs = Dfs { state: &mut self.state, sink: &mut text };
        dfs.run_static(root)?;
        Ok(text.out)
    }
}

/// The canonical form of `root` as text, with no object limit: objects are
/// `Class#id{field: value, ..}` in depth-first order, and `@id` refers back.
pub fn canonical_text<T: Heap>(root: &T) -> String {
    Linearizer::new(None).text(root).expect("no limit was set")
}

/// A canonical text's 128-bit xxh3 fingerprint, as 32 hex digits: what a
/// table of generated tests stores for each structure instead of its text.
pub fn canonical_fingerprint(text: &str) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(text.as_bytes()))
}

/// [`canonical_text`] leaving out `Class.field` names, as a run's `omit` does.
/// Generated tests use it to check a rebuilt structure.
pub fn canonical_text_omitting<T: Heap>(root: &T, omit: &[&str]) -> Result<String, crate::ConfigError> {
    let omitted = super::Schema::of::<T>().resolve_fields(omit)?;
    Ok(Linearizer::new(None).omit(omitted).text(root).expect("no limit was set"))
}

struct TokenSink<'a>(&'a mut Vec<Token>);

impl TokenSink<'_> {
    /// A primitive other than a small integer (which `prim` writes): the
    /// rare case, out of line.
    #[inline(never)]
    fn other_prim(&mut self, value: Prim<'_>) {
        let out = &mut *self.0;
        match value {
            Prim::Int(v) => out.extend([tag(WIDE_INT, 0), v as u64]),
            Prim::Uint(v) => out.extend([tag(UINT, 0), v]),
            Prim::Bool(v) => out.push(tag(BOOL, u64::from(v))),
            Prim::Char(v) => out.push(tag(CHAR, u64::from(v))),
            Prim::Float(bits) => out.extend([tag(FLOAT, 0), bits]),
            Prim::Str(s) => {
                out.push(tag(STR, s.len() as u64));
                out.extend(s.as_bytes().chunks(8).map(|chunk| {
                    let mut word = [0u8; 8];
                    word[..chunk.len()].copy_from_slice(chunk);
                    u64::from_le_bytes(word)
                }));
            }
        }
    }
}

impl Sink for TokenSink<'_> {
    #[inline]
    fn begin_object(&mut self, _id: u32, _class: &'static Class) {
        // The id is implied by the order objects are met in.
        self.0.push(tag(NEW_OBJECT, 0));
    }
    #[inline]
    fn end_object(&mut self) {}
    #[inline]
    fn begin_inline(&mut self, _class: &'static Class) {}
    #[inline]
    fn end_inline(&mut self) {}
    #[inline]
    fn field(&mut self, _class: &'static Class, _index: usize) {}
    #[inline]
    fn back_ref(&mut self, id: u32) {
        self.0.push(tag(BACK_REF, u64::from(id)));
    }
    #[inline]
    fn null(&mut self) {
        self.0.push(tag(NULL, 0));
    }
    #[inline]
    fn some(&mut self) {
        self.0.push(tag(SOME, 0));
    }
    #[inline]
    fn dangling(&mut self, index: usize) {
        self.0.push(tag(DANGLING, index as u64));
    }
    #[inline]
    fn prim(&mut self, value: Prim<'_>) {
        match value {
            Prim::Int(v) if (-(1 << 59)..(1 << 59)).contains(&v) => self.0.push(tag(INT, v as u64)),
            value => self.other_prim(value),
        }
    }
    #[inline]
    fn variant(&mut self, _class: Option<&'static Class>, index: u32) {
        self.0.push(tag(VARIANT, u64::from(index)));
    }
    #[inline]
    fn seq_begin(&mut self, len: usize) {
        self.0.push(tag(SEQ, len as u64));
    }
    #[inline]
    fn seq_end(&mut self) {}
    // The arity is fixed by the type, but the token keeps `Some((None,))`
    // apart from `None` in an `Option` of a tuple.
    #[inline]
    fn tuple_begin(&mut self) {
        self.0.push(tag(TUPLE, 0));
    }
    #[inline]
    fn tuple_end(&mut self) {}
}

/// Canonical form as text; see [`canonical_text`].
///
/// Objects print as `Class#id{field: value, ..}`, inline structs as
/// `Class{..}`, enum values as `Variant` or `Variant{field: value}`,
/// sequences as `[a, b]`, tuples and map entries as `(a, b)`, and a pointer
/// to an object met before as `@id`.
#[derive(Default)]
pub struct CanonicalText {
    out: String,
    frames: Vec<Frame>,
    /// The next value follows `field: ` and needs no separator.
    after_field: bool,
}

/// One open object, inline value, enum variant or sequence.
struct Frame {
    /// Something was written inside it already.
    written: bool,
    /// Written when it closes (nothing for an enum's own frame).
    close: Option<char>,
    /// A variant's brace, written only once a field comes.
    lazy_open: bool,
    variant: bool,
}

impl Frame {
    fn new(close: Option<char>) -> Self {
        Frame { written: false, close, lazy_open: false, variant: false }
    }
}

impl CanonicalText {
    /// Writes the separator a new item needs in the innermost frame.
    fn item(&mut self) {
        if std::mem::take(&mut self.after_field) {
            return;
        }
        if let Some(frame) = self.frames.last_mut() {
            if std::mem::replace(&mut frame.written, true) {
                self.out.push_str(", ");
            }
        }
    }

    /// Opens a sequence or tuple: `open` now, `close` when it ends.
    fn open_group(&mut self, open: char, close: char) {
        self.item();
        self.out.push(open);
        self.frames.push(Frame::new(Some(close)));
    }

    /// Closes the frame on top, and the variant frame inside it first.
    fn close(&mut self) {
        if self.frames.last().is_some_and(|f| f.variant) {
            let variant = self.frames.pop().expect("checked");
            if !variant.lazy_open {
                self.out.push('}');
            }
        }
        if let Some(frame) = self.frames.pop() {
            if let Some(c) = frame.close {
                self.out.push(c);
            }
        }
    }
}

impl Sink for &mut CanonicalText {
    fn begin_object(&mut self, id: u32, class: &'static Class) {
        self.item();
        self.out.push_str(&format!("{}#{id}{{", class.name));
        self.frames.push(Frame::new(Some('}')));
    }
    fn end_object(&mut self) {
        self.close();
    }
    fn begin_inline(&mut self, class: &'static Class) {
        self.item();
        if class.variants.is_empty() {
            self.out.push_str(&format!("{}{{", class.name));
            self.frames.push(Frame::new(Some('}')));
        } else {
            // An enum shows as its variant, written by `variant`.
            self.frames.push(Frame::new(None));
        }
    }
    fn end_inline(&mut self) {
        self.close();
    }
    fn field(&mut self, class: &'static Class, index: usize) {
        if let Some(frame) = self.frames.last_mut() {
            if std::mem::take(&mut frame.lazy_open) {
                self.out.push('{');
            }
        }
        self.item();
        let name = class.fields[index].name;
        let name = name.rsplit('.').next().unwrap_or(name);
        self.out.push_str(name);
        self.out.push_str(": ");
        self.after_field = true;
    }
    fn back_ref(&mut self, id: u32) {
        self.item();
        self.out.push_str(&format!("@{id}"));
    }
    fn null(&mut self) {
        self.item();
        self.out.push_str("null");
    }
    fn some(&mut self) {
        self.item();
        self.out.push_str("some ");
        self.after_field = true;
    }
    fn dangling(&mut self, index: usize) {
        self.item();
        self.out.push_str(&format!("dangling({index})"));
    }
    fn prim(&mut self, value: Prim<'_>) {
        self.item();
        self.out.push_str(&prim_text(value));
    }
    fn variant(&mut self, class: Option<&'static Class>, index: u32) {
        self.item();
        match class.and_then(|c| c.variants.get(index as usize)) {
            Some(name) => self.out.push_str(name),
            None => self.out.push_str(&format!("variant{index}")),
        }
        self.frames.push(Frame { written: false, close: Some('}'), lazy_open: true, variant: true });
    }
    fn seq_begin(&mut self, _len: usize) {
        self.open_group('[', ']');
    }
    fn seq_end(&mut self) {
        self.close();
    }
    fn tuple_begin(&mut self) {
        self.open_group('(', ')');
    }
    fn tuple_end(&mut self) {
        self.close();
    }
}

/// Identity and scope bookkeeping shared by every sink.
struct DfsState {
    limit: u32,
    /// Elements allowed in a collection (`u32::MAX`: any number).
    collection_limit: u32,
    omitted: Vec<(&'static Class, usize)>,
    /// Walk `#[heap(omit)]` fields too (a state key, not a canonical form).
    every_field: bool,
    /// The index of the field of the innermost class (`current`) whose
    /// value is being walked, which a collection belongs to; `NO_FIELD`
    /// before the first. (An index only: it is set for every field walked.)
    field_now: u32,
    collection_fields: Vec<CollectionField>,
    /// Object identity → id. Small heaps use the vector; large ones the map.
    ids: Vec<(ObjectId, u32)>,
    id_map: FxHashMap<ObjectId, u32>,
    counts: Vec<(*const Class, u32)>,
    arenas: Vec<(&'static str, *const dyn Arena)>,
    next_id: u32,
    out_of_scope: Option<OutOfScope>,
    /// The class whose fields are being walked, for naming enum variants.
    /// (Kept on the walk's call stack, as `field_now` is: no vector to grow.)
    current: Option<&'static Class>,
}

const SMALL_HEAP: usize = 32;

/// [`DfsState::field_now`] before a class's first field.
const NO_FIELD: u32 = u32::MAX;

impl DfsState {
    fn new(limit: u32) -> Self {
        DfsState {
            limit,
            collection_limit: u32::MAX,
            omitted: Vec::new(),
            every_field: false,
            field_now: NO_FIELD,
            collection_fields: Vec::new(),
            ids: Vec::new(),
            id_map: FxHashMap::default(),
            counts: Vec::new(),
            arenas: Vec::new(),
            next_id: 0,
            out_of_scope: None,
            current: None,
        }
    }

    fn reset(&mut self) {
        self.ids.clear();
        self.id_map.clear();
        self.counts.clear();
        self.arenas.clear();
        self.next_id = 0;
        self.out_of_scope = None;
        self.field_now = NO_FIELD;
        self.current = None;
    }

    fn lookup(&self, addr: ObjectId) -> Option<u32> {
        if self.ids.len() < SMALL_HEAP {
            self.ids.iter().find(|(a, _)| *a == addr).map(|(_, id)| *id)
        } else {
            self.id_map.get(&addr).copied()
        }
    }

    #[inline]
    fn remember(&mut self, addr: ObjectId, id: u32) {
        if self.ids.len() + 1 < SMALL_HEAP {
            self.ids.push((addr, id));
        } else {
            self.remember_in_map(addr, id);
        }
    }

    /// [`DfsState::remember`] once the heap is not small: the rare case, out of line.
    #[inline(never)]
    fn remember_in_map(&mut self, addr: ObjectId, id: u32) {
        if self.id_map.is_empty() {
            self.id_map.extend(self.ids.iter().copied());
        }
        self.ids.push((addr, id));
        self.id_map.insert(addr, id);
    }

    /// Counts one more object of `class`; false once the limit is passed.
    #[inline]
    fn admit(&mut self, class: &'static Class) -> bool {
        let key = class as *const Class;
        // Objects of the classes met after the root are the many: looked at first.
        let count = match self.counts.iter_mut().rev().find(|(c, _)| *c == key) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counts.push((key, 1));
                1
            }
        };
        if count > self.limit {
            self.out_of_scope = Some(OutOfScope { class: class.name, limit: self.limit, field: None });
            false
        } else {
            true
        }
    }

    /// Notes a collection of `len` elements (characters, for a string) in
    /// the field being walked, and passes the scope if it is too long.
    fn collection(&mut self, len: usize, string: bool) {
        let class = self.current;
        let Some((class, index)) = class.filter(|_| self.field_now != NO_FIELD).map(|c| (c, self.field_now as usize))
        else {
            // A hand-written walk that announced no field: bounded all the same.
            if len > self.collection_limit as usize && self.out_of_scope.is_none() {
                let class = self.current.map_or("the root", |c| c.name);
                let limit = self.collection_limit;
                self.out_of_scope = Some(OutOfScope { class, limit, field: Some("(a collection in no field)") });
            }
            return;
        };
        if !self.collection_fields.iter().any(|c| std::ptr::eq(c.class, class) && c.index == index) {
            self.collection_fields.push(CollectionField { class, index, string });
        }
        if len > self.collection_limit as usize && self.out_of_scope.is_none() {
            let field = Some(class.fields[index].name);
            self.out_of_scope = Some(OutOfScope { class: class.name, limit: self.collection_limit, field });
        }
    }

    #[inline]
    fn is_omitted(&self, class: &'static Class, index: usize) -> bool {
        (class.hides_fields && class.fields[index].omit && !self.every_field)
            || (!self.omitted.is_empty() && self.omitted.iter().any(|(c, i)| std::ptr::eq(*c, class) && *i == index))
    }
}

/// The depth-first walk of Fig. 3, writing to a [`Sink`].
struct Dfs<'s, S> {
    state: &'s mut DfsState,
    sink: S,
}

impl<S: Sink> Dfs<'_, S> {
    fn run(&mut self, class: &'static Class, root: &dyn Heap) -> Result<(), OutOfScope> {
        self.run_with(class, ObjectId::of(root), |dfs| root.walk(dfs))
    }

    /// Walks `root` with static calls (see [`StaticVisitor`]).
    fn run_static<T: Heap>(&mut self, root: &T) -> Result<(), OutOfScope> {
        self.run_with(T::class(), ObjectId::of(root), |dfs| root.walk_static(dfs))
    }

    /// Walks the root of `class` at `id` with `walk`.
    #[inline]
    fn run_with(
        &mut self,
        class: &'static Class,
        id: ObjectId,
        walk: impl FnOnce(&mut Self),
    ) -> Result<(), OutOfScope> {
        self.state.reset();
        self.state.admit(class);
        // The heap may point back to its root (a root inside an `Rc`).
        self.state.remember(id, 0);
        self.enter(0, class, walk);
        match self.state.out_of_scope {
            Some(out) => Err(out),
            None => Ok(()),
        }
    }

    /// Walks object `id` of `class`, whose fields `walk` reports.
    #[inline]
    fn enter(&mut self, id: u32, class: &'static Class, walk: impl FnOnce(&mut Self)) {
        self.state.next_id = self.state.next_id.max(id + 1);
        self.sink.begin_object(id, class);
        self.inside(class, walk);
        self.sink.end_object();
    }

    /// Walks the fields of a value of `class` with `walk`: inside the
    /// field that reached it, they are that class's.
    #[inline]
    fn inside(&mut self, class: &'static Class, walk: impl FnOnce(&mut Self)) {
        let outer = self.state.current.replace(class);
        let field = std::mem::replace(&mut self.state.field_now, NO_FIELD);
        walk(self);
        self.state.field_now = field;
        self.state.current = outer;
    }

    /// A pointer to an object of `class` at `addr` (`None`: a `Box`, which
    /// nothing else points to), whose fields `walk` reports.
    #[inline]
    fn object_with(&mut self, addr: Option<ObjectId>, class: &'static Class, walk: impl FnOnce(&mut Self)) {
        if self.state.out_of_scope.is_some() {
            return;
        }
        if let Some(addr) = addr {
            if let Some(id) = self.state.lookup(addr) {
                self.sink.back_ref(id);
                return;
            }
        }
        if !self.state.admit(class) {
            return;
        }
        let id = self.state.next_id;
        if let Some(addr) = addr {
            self.state.remember(addr, id);
        }
        self.enter(id, class, walk);
    }

    /// A value of `class` stored in place, whose fields `walk` reports.
    #[inline]
    fn inline_with(&mut self, class: &'static Class, walk: impl FnOnce(&mut Self)) {
        if self.state.out_of_scope.is_some() {
            return;
        }
        self.sink.begin_inline(class);
        self.inside(class, walk);
        self.sink.end_inline();
    }
}

impl<S: Sink> StaticVisitor for Dfs<'_, S> {
    #[inline]
    fn object_static<T: Heap>(&mut self, addr: Option<ObjectId>, value: &T) {
        self.object_with(addr, T::class(), |dfs| value.walk_static(dfs));
    }

    #[inline]
    fn inline_static<T: Heap>(&mut self, value: &T) {
        self.inline_with(T::class(), |dfs| value.walk_static(dfs));
    }
}

impl<S: Sink> Visitor for Dfs<'_, S> {
    #[inline]
    fn field(&mut self, class: &'static Class, index: usize) -> bool {
        // Past the scope, objects are not entered (`object_with`): the rest
        // of the fields of the ones open cost less than a test per field.
        if self.state.is_omitted(class, index) {
            return false;
        }
        self.state.field_now = index as u32;
        self.sink.field(class, index);
        true
    }

    #[inline]
    fn null(&mut self) {
        self.sink.null();
    }

    #[inline]
    fn some(&mut self) {
        self.sink.some();
    }

    #[inline]
    fn prim(&mut self, value: Prim<'_>) {
        if let Prim::Str(text) = value {
            let long = self.state.collection_limit != u32::MAX && text.len() > self.state.collection_limit as usize;
            self.state.collection(if long { text.chars().count() } else { 0 }, true);
        }
        self.sink.prim(value);
    }

    #[inline]
    fn variant(&mut self, index: u32) {
        let class = self.state.current;
        self.sink.variant(class, index);
    }

    #[inline]
    fn seq_begin(&mut self, len: usize) {
        self.state.collection(len, false);
        self.sink.seq_begin(len);
    }

    #[inline]
    fn array_begin(&mut self, len: usize) {
        self.sink.seq_begin(len);
    }

    #[inline]
    fn seq_end(&mut self) {
        self.sink.seq_end();
    }

    #[inline]
    fn tuple_begin(&mut self, _arity: usize) {
        self.sink.tuple_begin();
    }

    #[inline]
    fn tuple_end(&mut self) {
        self.sink.tuple_end();
    }

    #[inline]
    fn inline(&mut self, class: &'static Class, value: &dyn Heap) {
        self.inline_with(class, |dfs| value.walk(dfs));
    }

    #[inline]
    fn object(&mut self, obj: ObjRef<'_>) {
        self.object_with(obj.addr, obj.class, |dfs| obj.value.walk(dfs));
    }

    fn arena(&mut self, name: &'static str, arena: &dyn Arena, body: &mut dyn FnMut(&mut dyn Visitor)) {
        // SAFETY: the pointer is popped before `arena`'s borrow ends, right
        // after `body` returns, and is only read while `body` runs.
        let erased: &'static dyn Arena = unsafe { std::mem::transmute::<&dyn Arena, &'static dyn Arena>(arena) };
        self.state.arenas.push((name, erased));
        body(self);
        self.state.arenas.pop();
    }

    fn arena_link(&mut self, name: &'static str, index: Option<usize>) {
        let Some(index) = index else {
            self.sink.null();
            return;
        };
        let Some(&(_, arena)) = self.state.arenas.iter().rev().find(|(n, _)| *n == name) else {
            panic!("index link into arena `{name}`, but no enclosing value has a #[heap(arena)] field `{name}`");
        };
        // SAFETY: see `arena`: the pointer is live while it is on the stack.
        let arena = unsafe { &*arena };
        match arena.get(index) {
            None => self.sink.dangling(index),
            Some(value) => {
                let addr = ObjectId::in_arena(arena, index);
                self.object(ObjRef { addr: Some(addr), class: arena.class(), value });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(crate::Heap)]
    enum Color {
        Red,
        Black,
    }

    #[derive(crate::Heap)]
    enum Tree {
        Leaf,
        Node { left: Box<Tree>, key: i32, right: Box<Tree> },
    }

    #[derive(crate::Heap)]
    struct Painted {
        color: Color,
        tree: Option<Box<Tree>>,
        tags: Vec<Option<i32>>,
    }

    fn leaf() -> Box<Tree> {
        Box::new(Tree::Leaf)
    }

    #[test]
    fn text_shows_enums_sequences_and_objects() {
        let value = Painted {
            color: Color::Black,
            tree: Some(Box::new(Tree::Node { left: leaf(), key: 4, right: leaf() })),
            tags: vec![Some(1), None],
        };
        assert_eq!(
            canonical_text(&value),
            "Painted#0{color: Black, tree: Tree#1{Node{left: Tree#2{Leaf}, key: 4, right: Tree#3{Leaf}}}, tags: [1, null]}"
        );
        let red = Painted { color: Color::Red, tree: None, tags: vec![] };
        assert_eq!(canonical_text(&red), "Painted#0{color: Red, tree: null, tags: []}");
    }

    #[derive(crate::Heap)]
    struct Shared {
        first: Option<std::rc::Rc<std::cell::RefCell<Shared>>>,
        second: Option<std::rc::Rc<std::cell::RefCell<Shared>>>,
        back: std::rc::Weak<std::cell::RefCell<Shared>>,
        painted: Painted,
        name: String,
        pair: (u8, Option<bool>),
    }

    /// The linearizer's static walk makes the tokens the `dyn Visitor` walk makes.
    #[test]
    fn the_static_walk_is_the_dynamic_one() {
        use std::{cell::RefCell, rc::Rc};
        let painted = |key| Painted {
            color: Color::Black,
            tree: Some(Box::new(Tree::Node {
                left: leaf(),
                key,
                right: Box::new(Tree::Node { left: leaf(), key: 9, right: leaf() }),
            })),
            tags: vec![Some(key), None],
        };
        let shared = |key, name: &str| Shared {
            first: None,
            second: None,
            back: std::rc::Weak::new(),
            painted: painted(key),
            name: name.into(),
            pair: (7, Some(true)),
        };
        let inner = Rc::new(RefCell::new(shared(1, "inner")));
        let mut outer = shared(2, "outer");
        outer.first = Some(inner.clone());
        outer.second = Some(inner.clone());
        // A cycle through the inner value, and one through a second.
        inner.borrow_mut().first = Some(inner.clone());
        // A weak link back, and one dead.
        inner.borrow_mut().back = Rc::downgrade(&inner);
        let dead = Rc::new(RefCell::new(shared(5, "dead")));
        outer.back = Rc::downgrade(&dead);
        drop(dead);
        for limit in [None, Some(1), Some(2), Some(3)] {
            let mut lin = Linearizer::new(limit).collections(Some(1));
            let walked = lin.linearize(&outer).map(<[Token]>::to_vec);
            let visited = lin.linearize_dyn(&outer).map(<[Token]>::to_vec);
            assert_eq!(walked, visited, "limit {limit:?}");
            let walked = lin.linearize(&painted(3)).map(<[Token]>::to_vec);
            assert_eq!(walked, lin.linearize_dyn(&painted(3)).map(<[Token]>::to_vec));
        }
        inner.borrow_mut().first = None;
    }

    #[test]
    fn variants_and_sequence_lengths_are_tokens() {
        let mut lin = Linearizer::new(None);
        let a = lin.linearize(&Painted { color: Color::Red, tree: None, tags: vec![None] }).unwrap().to_vec();
        let b = lin.linearize(&Painted { color: Color::Black, tree: None, tags: vec![None] }).unwrap().to_vec();
        let c = lin.linearize(&Painted { color: Color::Red, tree: None, tags: vec![None, None] }).unwrap().to_vec();
        assert_ne!(a, b);
        assert_ne!(a, c);
    }
}
