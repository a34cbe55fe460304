//! The walk that draws a heap: it numbers objects as the linearizer does,
//! then visits every field, omitted ones too, to fill each object's box.

use super::dot::{Node, Picture};
use crate::heap::{Arena, Class, Heap, ObjRef, ObjectId, Prim, Visitor};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;

impl Picture {
    /// Walks the heap twice: once as the linearizer does, to learn the
    /// canonical ids, then in full (omitted fields too) to draw it.
    pub(super) fn of<T: Heap>(root: &T) -> Self {
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
