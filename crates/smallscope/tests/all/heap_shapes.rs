//! Heap shapes users reach for: standard collections and tuples, fields
//! walked `with` a module, hand-written `Heap` impls, generic types, and
//! enums whose unit variant is the heap's null.
//!
//! Distinctness is checked against facts computed here (how many different
//! values an enumeration made), never against the library's own output alone.

use std::cell::RefCell;
use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;
use std::rc::Rc;

use smallscope::heap::{canonical_text, Class, Field, HeapValue, Linearizer, Schema, Token, Visitor};
use smallscope::Heap;

/// The unlimited token sequence of `root`, owned.
fn tokens_of<T: Heap>(root: &T) -> Vec<Token> {
    Linearizer::new(None).linearize(root).expect("no limit").to_vec()
}

fn class_names(schema: &Schema) -> Vec<&'static str> {
    schema.classes().iter().map(|c| c.name).collect()
}

/// Asserts that `values` have equal token sequences exactly when they are equal.
fn assert_tokens_agree_with_eq<T: PartialEq + std::fmt::Debug>(values: &[T], tokens: impl Fn(&T) -> Vec<Token>) {
    let all: Vec<Vec<Token>> = values.iter().map(&tokens).collect();
    for (i, a) in values.iter().enumerate() {
        for (j, b) in values.iter().enumerate() {
            assert_eq!(all[i] == all[j], a == b, "{a:?} vs {b:?}");
        }
    }
}

// ===========================================================================
// 1. Collections and tuples.
// ===========================================================================

#[derive(Heap, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Tag {
    id: u8,
}

#[derive(Heap)]
struct Collections {
    queue: VecDeque<u8>,
    sorted: BTreeMap<u8, char>,
    hashed: HashMap<String, Vec<u8>>,
    members: BTreeSet<i32>,
    tags: HashSet<Tag>,
    pair: (u8, bool),
    single: (u8,),
    six: (u8, u8, u8, u8, u8, u8),
}

fn collections() -> Collections {
    let mut queue = VecDeque::new();
    queue.push_back(2);
    queue.push_front(1);
    queue.push_back(3);
    Collections {
        queue,
        sorted: BTreeMap::from([(9, 'z'), (1, 'a')]),
        hashed: HashMap::from([("b".to_owned(), vec![2]), ("a".to_owned(), vec![])]),
        members: BTreeSet::from([5, -1]),
        tags: HashSet::from([Tag { id: 7 }, Tag { id: 3 }]),
        pair: (4, true),
        single: (0,),
        six: (1, 2, 3, 4, 5, 6),
    }
}

#[test]
fn collections_and_tuples_have_readable_canonical_text() {
    assert_eq!(
        canonical_text(&collections()),
        "Collections#0{queue: [1, 2, 3], sorted: [(1, 'a'), (9, 'z')], hashed: [(\"a\", []), (\"b\", [2])], \
         members: [-1, 5], tags: [Tag{id: 3}, Tag{id: 7}], pair: (4, true), single: (0), six: (1, 2, 3, 4, 5, 6)}"
    );
}

/// A deterministic shuffle (xorshift), so the test needs no randomness crate.
fn shuffled(mut keys: Vec<u16>, mut seed: u64) -> Vec<u16> {
    for i in (1..keys.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        keys.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    keys
}

#[derive(Heap)]
struct Hashed {
    map: HashMap<u16, u16>,
    set: HashSet<u16>,
}

#[derive(Heap)]
struct Sorted {
    map: BTreeMap<u16, u16>,
    set: BTreeSet<u16>,
}

/// Every insertion order, and every hasher, gives one canonical form: the
/// one of the `BTreeMap` and `BTreeSet` with the same contents (which iterate
/// in key order by construction).
#[test]
fn hash_containers_have_one_form_whatever_the_insertion_order() {
    let keys: Vec<u16> = (0..200).map(|k| k * 7 % 1000).collect();
    let sorted = Sorted { map: keys.iter().map(|&k| (k, k / 3)).collect(), set: keys.iter().copied().collect() };
    let expected_text = canonical_text(&sorted).replacen("Sorted", "Hashed", 1);
    let expected_tokens = tokens_of(&sorted);
    let mut iteration_orders = HashSet::new();
    for seed in 1..=8 {
        let order = shuffled(keys.clone(), seed);
        let mut map = HashMap::with_hasher(RandomState::new());
        let mut set = HashSet::with_hasher(RandomState::new());
        // Extra keys inserted and removed again leave different bucket histories.
        for &k in order.iter().chain(&[5000, 6000]) {
            map.insert(k, k / 3);
            set.insert(k);
        }
        map.remove(&5000);
        map.remove(&6000);
        set.remove(&5000);
        set.remove(&6000);
        iteration_orders.insert(map.keys().copied().collect::<Vec<_>>());
        let hashed = Hashed { map, set };
        assert_eq!(canonical_text(&hashed), expected_text, "seed {seed}");
        assert_eq!(tokens_of(&hashed), expected_tokens, "seed {seed}");
    }
    // The test means something only if the maps did iterate differently.
    assert!(iteration_orders.len() > 1, "every map iterated in one order");
}

/// All maps from keys `0..3` to `Option<u8>` values in `{None, Some(0), Some(1)}`:
/// each key is absent or has one of 3 values, so 4^3 = 64 maps, and their
/// forms are equal exactly when the maps are.
#[test]
fn maps_with_different_contents_have_different_forms() {
    let choices = [None, Some(None), Some(Some(0u8)), Some(Some(1u8))];
    let mut maps: Vec<HashMap<u8, Option<u8>>> = Vec::new();
    for a in choices {
        for b in choices {
            for c in choices {
                let entries = [(0u8, a), (1, b), (2, c)];
                maps.push(entries.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect());
            }
        }
    }
    assert_eq!(maps.len(), 64);
    #[derive(Heap)]
    struct Holder {
        map: HashMap<u8, Option<u8>>,
    }
    let distinct: HashSet<Vec<Token>> = maps.iter().map(|m| tokens_of(&Holder { map: m.clone() })).collect();
    assert_eq!(distinct.len(), 64);
    assert_tokens_agree_with_eq(&maps, |m| tokens_of(&Holder { map: m.clone() }));
}

/// Keys and values of variable length: a key's sequence never runs into its
/// value, nor an entry into the next. Maps over keys `[]`, `[0]`, `[0, 0]`
/// with values in `[]`, `[1]`: each key absent or one of 2 values, 3^3 = 27.
#[test]
fn maps_of_sequences_keep_entry_boundaries() {
    let keys: [Vec<u8>; 3] = [vec![], vec![0], vec![0, 0]];
    let values: [Option<Vec<u8>>; 3] = [None, Some(vec![]), Some(vec![1])];
    let mut maps: Vec<BTreeMap<Vec<u8>, Vec<u8>>> = Vec::new();
    for a in &values {
        for b in &values {
            for c in &values {
                let chosen = [a, b, c];
                maps.push(
                    keys.iter().zip(chosen).filter_map(|(k, v)| v.as_ref().map(|v| (k.clone(), v.clone()))).collect(),
                );
            }
        }
    }
    #[derive(Heap)]
    struct Holder {
        map: BTreeMap<Vec<u8>, Vec<u8>>,
    }
    let distinct: HashSet<Vec<Token>> = maps.iter().map(|m| tokens_of(&Holder { map: m.clone() })).collect();
    assert_eq!(distinct.len(), 27);
    assert_tokens_agree_with_eq(&maps, |m| tokens_of(&Holder { map: m.clone() }));
}

/// All subsets of `{0, 1} × {0, 1}` as a `HashSet` of tuples: 2^4 = 16.
#[test]
fn sets_of_tuples_with_different_contents_have_different_forms() {
    let pairs = [(0u8, 0u8), (0, 1), (1, 0), (1, 1)];
    let sets: Vec<HashSet<(u8, u8)>> = (0..16u32)
        .map(|mask| pairs.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, p)| *p).collect())
        .collect();
    #[derive(Heap)]
    struct Holder {
        set: HashSet<(u8, u8)>,
    }
    let distinct: HashSet<Vec<Token>> = sets.iter().map(|s| tokens_of(&Holder { set: s.clone() })).collect();
    assert_eq!(distinct.len(), 16);
    assert_tokens_agree_with_eq(&sets, |s| tokens_of(&Holder { set: s.clone() }));
}

/// A tuple whose first element can be null must not read like `None`.
#[test]
fn option_of_a_tuple_keeps_some_apart_from_none() {
    #[derive(Heap)]
    struct Holder {
        value: Option<(Option<u8>,)>,
    }
    let none = Holder { value: None };
    let some_none = Holder { value: Some((None,)) };
    assert_ne!(tokens_of(&none), tokens_of(&some_none));
    assert_eq!(canonical_text(&some_none), "Holder#0{value: (null)}");
}

#[derive(Heap)]
struct Member {
    key: u8,
}

#[derive(Heap)]
struct Shared {
    key: u8,
}

#[derive(Heap)]
struct Queued {
    next: Option<Box<Queued>>,
}

#[derive(Heap)]
struct Paired {
    key: u8,
}

#[derive(Heap)]
struct Reach {
    by_key: HashMap<u8, Box<Member>>,
    shared: BTreeMap<u8, Rc<Shared>>,
    queue: VecDeque<Queued>,
    pair: (u8, Option<Box<Paired>>),
    tags: HashSet<Tag>,
}

#[test]
fn collect_classes_reaches_classes_inside_collections() {
    let schema = Schema::of::<Reach>();
    assert_eq!(class_names(&schema), ["Reach", "Member", "Shared", "Queued", "Paired", "Tag"]);
    assert_eq!(
        schema.field_names(),
        [
            "Reach.by_key",
            "Reach.shared",
            "Reach.queue",
            "Reach.pair",
            "Reach.tags",
            "Member.key",
            "Shared.key",
            "Queued.next",
            "Paired.key",
            "Tag.id"
        ]
    );
}

/// Objects inside map values are objects: counted by the scope, and an `Rc`
/// reached from two entries is one object.
#[test]
fn objects_in_map_values_are_counted_and_shared() {
    let one = Rc::new(Shared { key: 1 });
    let reach = Reach {
        by_key: HashMap::from([(2, Box::new(Member { key: 20 })), (1, Box::new(Member { key: 10 }))]),
        shared: BTreeMap::from([(0, one.clone()), (1, one), (2, Rc::new(Shared { key: 1 }))]),
        queue: VecDeque::new(),
        pair: (0, None),
        tags: HashSet::new(),
    };
    assert_eq!(
        canonical_text(&reach),
        "Reach#0{by_key: [(1, Member#1{key: 10}), (2, Member#2{key: 20})], \
         shared: [(0, Shared#3{key: 1}), (1, @3), (2, Shared#4{key: 1})], queue: [], pair: (0, null), tags: []}"
    );
    assert!(Linearizer::new(Some(2)).linearize(&reach).is_ok());
    let err = Linearizer::new(Some(1)).linearize(&reach).unwrap_err();
    assert_eq!(err.class, "Member");
}

#[derive(Heap)]
struct Pool {
    live: u8,
    #[heap(omit)]
    free: Vec<(u8, u8, u8)>,
    #[heap(omit)]
    spare: HashMap<u8, u8>,
}

/// A collection (here omitted) may hold at most the collection limit's
/// elements; a tuple's arity (3 here) and a map entry's two halves are not
/// collection lengths.
#[test]
fn omitted_tuples_and_map_entries_are_not_bounded_as_sequences() {
    let state = |free: usize, spare: usize| {
        let pool = Pool {
            live: 0,
            free: (0..free as u8).map(|i| (i, i, i)).collect(),
            spare: (0..spare as u8).map(|i| (i, i)).collect(),
        };
        Linearizer::new(Some(1)).collections(Some(1)).every_field().linearize(&pool).map(|t| t.to_vec())
    };
    assert!(state(1, 1).is_ok());
    assert!(state(2, 0).is_err());
    assert!(state(0, 2).is_err());
    // The omitted fields are part of the state key, not the canonical form.
    assert_ne!(state(1, 0).unwrap(), state(0, 1).unwrap());
    let form = |pool: &Pool| Linearizer::new(Some(1)).linearize(pool).unwrap().to_vec();
    let empty = Pool { live: 0, free: vec![], spare: HashMap::new() };
    let full = Pool { live: 0, free: vec![(1, 2, 3)], spare: HashMap::from([(4, 5)]) };
    assert_eq!(form(&empty), form(&full));
}

// ===========================================================================
// 2. `#[heap(with = module)]` and hand-written impls.
// ===========================================================================

#[derive(Heap)]
struct Item {
    key: u8,
}

/// Walks a `LinkedList` (which has no `HeapValue`) front to back.
mod linked_list_shape {
    use std::collections::LinkedList;

    use smallscope::heap::{HeapValue, Schema, Visitor};

    use super::Item;

    pub fn visit(list: &LinkedList<Box<Item>>, visitor: &mut dyn Visitor) {
        visitor.seq_begin(list.len());
        for item in list {
            item.visit(visitor);
        }
        visitor.seq_end();
    }

    pub fn collect_classes(schema: &mut Schema) {
        schema.add::<Item>();
    }
}

/// Walks a `Range` as its two ends.
mod range_shape {
    use std::ops::Range;

    use smallscope::heap::{HeapValue, Schema, Visitor};

    pub fn visit(range: &Range<u8>, visitor: &mut dyn Visitor) {
        (range.start, range.end).visit(visitor);
    }

    pub fn collect_classes(_schema: &mut Schema) {}
}

#[derive(Heap)]
struct Foreign {
    #[heap(with = linked_list_shape)]
    items: LinkedList<Box<Item>>,
    #[heap(with = "range_shape")]
    window: std::ops::Range<u8>,
    #[heap(with = range_shape, omit)]
    history: std::ops::Range<u8>,
}

#[derive(Heap)]
enum Slot {
    Empty,
    Span(#[heap(with = range_shape)] std::ops::Range<u8>),
}

#[test]
fn with_fields_are_walked_by_their_module() {
    let foreign = |history: std::ops::Range<u8>| Foreign {
        items: LinkedList::from([Box::new(Item { key: 1 }), Box::new(Item { key: 2 })]),
        window: 3..5,
        history,
    };
    assert_eq!(canonical_text(&foreign(0..9)), "Foreign#0{items: [Item#1{key: 1}, Item#2{key: 2}], window: (3, 5)}");
    assert_eq!(Linearizer::new(Some(1)).linearize(&foreign(0..9)).unwrap_err().class, "Item");
    // Omitted: out of the canonical form, in the state key.
    assert_eq!(tokens_of(&foreign(0..9)), tokens_of(&foreign(1..9)));
    let key = |f: &Foreign| Linearizer::new(None).every_field().linearize(f).unwrap().to_vec();
    assert_ne!(key(&foreign(0..9)), key(&foreign(1..9)));

    let schema = Schema::of::<Foreign>();
    assert_eq!(class_names(&schema), ["Foreign", "Item"]);
    assert_eq!(schema.field_names(), ["Foreign.items", "Foreign.window", "Foreign.history", "Item.key"]);

    #[derive(Heap)]
    struct Slots {
        slots: Vec<Slot>,
    }
    assert_eq!(
        canonical_text(&Slots { slots: vec![Slot::Span(1..2), Slot::Empty] }),
        "Slots#0{slots: [Span{0: (1, 2)}, Empty]}"
    );
}

/// Only the first `len` slots hold keys; the others keep stale ones. Its
/// `Heap` impl is written by hand, as the module docs show.
struct SmallSet {
    len: usize,
    slots: [u8; 4],
}

impl Heap for SmallSet {
    fn class() -> &'static Class {
        static CLASS: Class = Class {
            name: "SmallSet",
            fields: &[Field { name: "keys", omit: false }],
            variants: &[],
            hides_fields: false,
            skipped: &[],
            null_variant: None,
        };
        &CLASS
    }
    fn walk(&self, visitor: &mut dyn Visitor) {
        if visitor.field(Self::class(), 0) {
            self.slots[..self.len].visit(visitor);
        }
    }
    fn collect_classes(_schema: &mut Schema) {}
}

impl HeapValue for SmallSet {
    fn visit(&self, visitor: &mut dyn Visitor) {
        visitor.inline(Self::class(), self);
    }
    fn collect_classes(schema: &mut Schema) {
        schema.add::<Self>();
    }
}

#[derive(Heap)]
struct Sets {
    inline: SmallSet,
    boxed: Box<SmallSet>,
}

#[test]
fn hand_written_impls_are_walked_inline_and_as_objects() {
    let sets =
        Sets { inline: SmallSet { len: 2, slots: [1, 2, 7, 7] }, boxed: Box::new(SmallSet { len: 0, slots: [9; 4] }) };
    assert_eq!(canonical_text(&sets), "Sets#0{inline: SmallSet{keys: [1, 2]}, boxed: SmallSet#1{keys: []}}");
    let fresh =
        Sets { inline: SmallSet { len: 2, slots: [1, 2, 0, 0] }, boxed: Box::new(SmallSet { len: 0, slots: [0; 4] }) };
    assert_eq!(tokens_of(&sets), tokens_of(&fresh), "stale slots are not state");
    assert_eq!(class_names(&Schema::of::<Sets>()), ["Sets", "SmallSet"]);
}

/// A cons list written by hand, with `Nil` as the heap's null, and the same
/// list derived: both walks must give one canonical form.
mod cons {
    use smallscope::heap::{Class, Field, HeapValue, Schema, Visitor};
    use smallscope::Heap;

    pub enum Hand {
        Nil,
        Cons(u8, Box<Hand>),
    }

    impl Heap for Hand {
        fn class() -> &'static Class {
            static CLASS: Class = Class {
                name: "List",
                fields: &[Field { name: "Cons.0", omit: false }, Field { name: "Cons.1", omit: false }],
                variants: &["Nil", "Cons"],
                hides_fields: false,
                skipped: &[],
                null_variant: Some(0),
            };
            &CLASS
        }
        fn is_null(&self) -> bool {
            matches!(self, Hand::Nil)
        }
        fn walk(&self, visitor: &mut dyn Visitor) {
            let class = Self::class();
            match self {
                Hand::Nil => visitor.variant(0),
                Hand::Cons(key, next) => {
                    visitor.variant(1);
                    if visitor.field(class, 0) {
                        key.visit(visitor);
                    }
                    if visitor.field(class, 1) {
                        next.visit(visitor);
                    }
                }
            }
        }
        fn collect_classes(schema: &mut Schema) {
            schema.add::<Hand>();
        }
    }

    #[derive(Heap)]
    pub enum Derived {
        #[heap(null)]
        Nil,
        Cons(u8, Box<Derived>),
    }

    #[derive(Heap)]
    pub struct HandRoot {
        pub list: Option<Box<Hand>>,
    }

    #[derive(Heap)]
    pub struct DerivedRoot {
        pub list: Option<Box<Derived>>,
    }
}

#[test]
fn a_hand_written_null_variant_walks_like_a_derived_one() {
    fn hand(keys: &[u8]) -> Box<cons::Hand> {
        keys.iter().rev().fold(Box::new(cons::Hand::Nil), |next, &k| Box::new(cons::Hand::Cons(k, next)))
    }
    fn derived(keys: &[u8]) -> Box<cons::Derived> {
        keys.iter().rev().fold(Box::new(cons::Derived::Nil), |next, &k| Box::new(cons::Derived::Cons(k, next)))
    }
    for keys in [&[][..], &[1], &[1, 2], &[2, 1, 2]] {
        let h = cons::HandRoot { list: Some(hand(keys)) };
        let d = cons::DerivedRoot { list: Some(derived(keys)) };
        assert_eq!(tokens_of(&h), tokens_of(&d), "{keys:?}");
    }
    // `Some(Nil)` is not `None`.
    assert_ne!(tokens_of(&cons::HandRoot { list: None }), tokens_of(&cons::HandRoot { list: Some(hand(&[])) }));
    assert_eq!(
        canonical_text(&cons::HandRoot { list: Some(hand(&[4])) }),
        "HandRoot#0{list: some List#1{Cons{0: 4, 1: null}}}"
    );
}

// ===========================================================================
// 3. Generic types.
// ===========================================================================

#[derive(Heap)]
struct Stack<T> {
    items: Vec<T>,
}

#[derive(Heap)]
struct KeyNode<K> {
    key: K,
    left: Option<Box<KeyNode<K>>>,
    right: Option<Box<KeyNode<K>>>,
}

#[derive(Heap)]
struct KeyTree<K: Clone>
where
    K: Ord,
{
    root: Option<Box<KeyNode<K>>>,
}

/// A type with no `HeapValue`: only fields that never walk it may name it.
#[derive(Clone, Debug)]
struct NotAHeap;

#[derive(Heap)]
struct Unwalked<T, U> {
    count: u8,
    #[heap(skip)]
    _skipped: Vec<T>,
    marker: PhantomData<U>,
}

#[derive(Heap)]
struct ArenaOf<T> {
    #[heap(arena)]
    nodes: Vec<ArenaNode<T>>,
    #[heap(index = "nodes")]
    first: Option<usize>,
}

#[derive(Heap)]
struct ArenaNode<T> {
    value: T,
    #[heap(index = "nodes")]
    next: Option<usize>,
}

/// A foreign wrapper walked by a generic module function.
struct Opaque<T>(Vec<T>);

mod opaque_shape {
    use smallscope::heap::{HeapValue, Schema, Visitor};

    use super::Opaque;

    /// Only the length is state.
    pub fn visit<T>(value: &Opaque<T>, visitor: &mut dyn Visitor) {
        value.0.len().visit(visitor);
    }

    pub fn collect_classes(_schema: &mut Schema) {}
}

#[derive(Heap)]
struct WithGeneric<T> {
    #[heap(with = opaque_shape)]
    opaque: Opaque<T>,
}

#[derive(Heap)]
enum Maybe<T> {
    #[heap(null)]
    Nothing,
    Just(T),
}

#[test]
fn generic_types_walk_their_parameters() {
    assert_eq!(canonical_text(&Stack { items: vec![1u8, 2] }), "Stack#0{items: [1, 2]}");
    assert_eq!(canonical_text(&Stack { items: vec!['x'] }), "Stack#0{items: ['x']}");
    assert_eq!(
        canonical_text(&Stack { items: vec![Stack { items: vec![true] }] }),
        "Stack#0{items: [Stack{items: [true]}]}"
    );
    // One class for every instance.
    assert!(std::ptr::eq(<Stack<u8> as Heap>::class(), <Stack<char> as Heap>::class()));

    let tree = KeyTree {
        root: Some(Box::new(KeyNode {
            key: "m".to_owned(),
            left: Some(Box::new(KeyNode { key: "a".to_owned(), left: None, right: None })),
            right: None,
        })),
    };
    assert_eq!(
        canonical_text(&tree),
        "KeyTree#0{root: KeyNode#1{key: \"m\", left: KeyNode#2{key: \"a\", left: null, right: null}, right: null}}"
    );
    assert_eq!(class_names(&Schema::of::<KeyTree<u8>>()), ["KeyTree", "KeyNode"]);

    let unwalked = Unwalked::<NotAHeap, NotAHeap> { count: 3, _skipped: vec![NotAHeap], marker: PhantomData };
    assert_eq!(canonical_text(&unwalked), "Unwalked#0{count: 3, marker: }");

    let arena = ArenaOf {
        nodes: vec![ArenaNode { value: 'b', next: None }, ArenaNode { value: 'a', next: Some(0) }],
        first: Some(1),
    };
    assert_eq!(
        canonical_text(&arena),
        "ArenaOf#0{first: ArenaNode#1{value: 'a', next: ArenaNode#2{value: 'b', next: null}}}"
    );

    assert_eq!(canonical_text(&WithGeneric { opaque: Opaque(vec![NotAHeap, NotAHeap]) }), "WithGeneric#0{opaque: 2}");

    #[derive(Heap)]
    struct Maybes {
        items: Vec<Maybe<u8>>,
        boxed: Option<Box<Maybe<Stack<u8>>>>,
    }
    let maybes = Maybes { items: vec![Maybe::Just(1), Maybe::Nothing], boxed: Some(Box::new(Maybe::Nothing)) };
    assert_eq!(canonical_text(&maybes), "Maybes#0{items: [Just{0: 1}, null], boxed: some null}");
}

// ===========================================================================
// 4. Null variants.
// ===========================================================================

/// A BST as users write it: the empty tree is `Leaf`.
#[derive(Heap, Clone, Debug)]
enum Tree {
    #[heap(null)]
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

/// The same tree without the attribute: every `Leaf` is an object.
#[derive(Heap, Clone, Debug)]
enum LeafyTree {
    Leaf,
    Node(Box<LeafyTree>, u8, Box<LeafyTree>),
}

#[derive(Heap)]
struct Set {
    root: Tree,
}

#[derive(Heap)]
struct LeafySet {
    root: LeafyTree,
}

/// The tree holding `keys` inserted in order, as a `Tree` and as a `LeafyTree`.
fn trees(keys: &[u8]) -> (Tree, LeafyTree) {
    fn insert(tree: &mut Tree, key: u8) {
        match tree {
            Tree::Leaf => *tree = Tree::Node(Box::new(Tree::Leaf), key, Box::new(Tree::Leaf)),
            Tree::Node(left, k, right) => match key.cmp(k) {
                std::cmp::Ordering::Less => insert(left, key),
                std::cmp::Ordering::Greater => insert(right, key),
                std::cmp::Ordering::Equal => {}
            },
        }
    }
    fn leafy(tree: &Tree) -> LeafyTree {
        match tree {
            Tree::Leaf => LeafyTree::Leaf,
            Tree::Node(l, k, r) => LeafyTree::Node(Box::new(leafy(l)), *k, Box::new(leafy(r))),
        }
    }
    let mut tree = Tree::Leaf;
    for &k in keys {
        insert(&mut tree, k);
    }
    let copy = leafy(&tree);
    (tree, copy)
}

#[test]
fn a_null_variant_is_null_behind_every_pointer_and_inline() {
    let (tree, _) = trees(&[2, 1]);
    assert_eq!(
        canonical_text(&Set { root: tree }),
        "Set#0{root: Node{0: Tree#1{Node{0: null, 1: 1, 2: null}}, 1: 2, 2: null}}"
    );
    assert_eq!(canonical_text(&Set { root: Tree::Leaf }), "Set#0{root: null}");

    #[derive(Heap)]
    struct Pointers {
        boxed: Box<Tree>,
        rc: Rc<Tree>,
        cell: Rc<RefCell<Tree>>,
        weak: std::rc::Weak<Tree>,
        maybe: Option<Box<Tree>>,
        absent: Option<Box<Tree>>,
        inline: Vec<Tree>,
    }
    let rc = Rc::new(Tree::Leaf);
    let pointers = Pointers {
        boxed: Box::new(Tree::Leaf),
        rc: rc.clone(),
        cell: Rc::new(RefCell::new(Tree::Leaf)),
        weak: Rc::downgrade(&rc),
        maybe: Some(Box::new(Tree::Leaf)),
        absent: None,
        inline: vec![Tree::Leaf, Tree::Node(Box::new(Tree::Leaf), 0, Box::new(Tree::Leaf))],
    };
    assert_eq!(
        canonical_text(&pointers),
        "Pointers#0{boxed: null, rc: null, cell: null, weak: null, maybe: some null, absent: null, \
         inline: [null, Node{0: null, 1: 0, 2: null}]}"
    );
    assert!(Linearizer::new(Some(1)).linearize(&pointers).is_ok(), "no Tree is an object");

    // The root is walked whatever it is.
    assert_eq!(canonical_text(&Tree::Leaf), "Tree#0{Leaf}");
    assert_eq!(<Tree as Heap>::class().null_variant, Some(0));
    assert_eq!(<LeafyTree as Heap>::class().null_variant, None);
}

/// A tree of `k` nodes held inline by its root has `k - 1` boxed `Tree`
/// objects with the null variant; without it, `2k` (its `k + 1` leaves too).
#[test]
fn null_variants_are_not_counted_by_the_scope() {
    for keys in [&[][..], &[0], &[1, 0], &[1, 0, 2], &[3, 1, 0, 2, 5, 4]] {
        let (tree, leafy) = trees(keys);
        let k = keys.len() as u32;
        let fits = |limit: u32| Linearizer::new(Some(limit.max(1))).linearize(&Set { root: tree.clone() }).is_ok();
        let leafy_fits =
            |limit: u32| Linearizer::new(Some(limit.max(1))).linearize(&LeafySet { root: leafy.clone() }).is_ok();
        assert!(fits(k.saturating_sub(1)), "{keys:?}");
        if k >= 3 {
            assert!(!fits(k - 2), "{keys:?}");
        }
        if k > 0 {
            assert!(leafy_fits(2 * k) && !leafy_fits(2 * k - 1), "{keys:?}");
        }
    }
}

/// Every tree shape with at most 4 nodes, all keys 0: the forms are
/// distinct, and as many as the shapes (1 + 1 + 2 + 5 + 14 = 23, Catalan).
#[test]
fn distinct_enum_trees_have_distinct_forms() {
    fn shapes(size: usize) -> Vec<Tree> {
        if size == 0 {
            return vec![Tree::Leaf];
        }
        let mut all = Vec::new();
        for left in 0..size {
            for l in shapes(left) {
                for r in shapes(size - 1 - left) {
                    all.push(Tree::Node(Box::new(l.clone()), 0, Box::new(r)));
                }
            }
        }
        all
    }
    let all: Vec<Tree> = (0..=4).flat_map(shapes).collect();
    assert_eq!(all.len(), 23);
    let distinct: HashSet<Vec<Token>> = all.iter().map(|t| tokens_of(&Set { root: t.clone() })).collect();
    assert_eq!(distinct.len(), 23);
}
