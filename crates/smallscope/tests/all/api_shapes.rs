//! The parameter and return shapes `#[smallscope::api]` accepts: what it
//! records for each, and what a call through the operation gives.

// The types here are written as users write theirs, lints and all.
#![allow(clippy::len_without_is_empty, clippy::result_unit_err, clippy::new_without_default)]

use smallscope::api::{Arg, IntKind, ListForm, ParamKind, ReturnKind, Returned, Subject};
use smallscope::sequence::{Call, Literal, Operand, Program};
use smallscope::{Beapi, Heap};

/// A value without `Debug`: calls returning it run, but are not observed.
pub struct Opaque(#[allow(dead_code)] u8);

#[derive(Heap, Clone, Debug, Default)]
pub struct Shapes {
    values: Vec<u8>,
}

#[smallscope::api(name = "test-shapes")]
impl Shapes {
    pub fn new() -> Self {
        Shapes::default()
    }
    pub fn push_maybe(&mut self, value: Option<u8>) {
        self.values.extend(value);
    }
    pub fn extend_slice(&mut self, values: &[u8]) {
        self.values.extend_from_slice(values);
    }
    pub fn extend_vec(&mut self, values: Vec<i16>) {
        self.values.extend(values.into_iter().map(|v| v as u8));
    }
    pub fn extend_vec_ref(&mut self, values: &Vec<u8>) {
        self.values.extend(values);
    }
    pub fn len(&self) -> usize {
        self.values.len()
    }
    pub fn last(&self) -> Option<&u8> {
        self.values.last()
    }
    pub fn last_copied(&self) -> Option<u8> {
        self.values.last().copied()
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.values
    }
    pub fn name(&self) -> Result<String, ()> {
        Ok("shapes".into())
    }
    pub fn maybe_name(&self) -> Option<String> {
        Some("shapes".into())
    }
    pub fn label(&self) -> &str {
        "shapes"
    }
    pub fn opaque(&self) -> Opaque {
        Opaque(1)
    }
    pub fn evens(&self) -> impl Iterator<Item = &u8> + '_ {
        self.values.iter().filter(|v| *v % 2 == 0)
    }
}

fn operation(name: &str) -> smallscope::api::Operation<Shapes> {
    Shapes::operations().into_iter().find(|op| op.name == name).unwrap_or_else(|| panic!("no operation {name}"))
}

#[test]
fn parameters_are_classified_by_type() {
    let kinds = |name: &str| operation(name).params[1];
    assert_eq!(kinds("push_maybe"), ParamKind::OptionInt(IntKind::U8));
    assert_eq!(kinds("extend_slice"), ParamKind::IntList(IntKind::U8, ListForm::Slice));
    assert_eq!(kinds("extend_vec"), ParamKind::IntList(IntKind::I16, ListForm::Vec));
    assert_eq!(kinds("extend_vec_ref"), ParamKind::IntList(IntKind::U8, ListForm::VecRef));
}

#[test]
fn only_types_equal_to_their_rendering_as_a_literal_are_asserted_as_literals() {
    let literal = |name: &str| operation(name).returns_literal;
    for name in ["len", "last_copied", "name", "label"] {
        assert!(literal(name), "{name}");
    }
    // References, `Option<String>` (`Some("a")` reads as `Option<&str>`), and types without `Debug`.
    for name in ["last", "as_slice", "maybe_name", "opaque", "evens", "push_maybe"] {
        assert!(!literal(name), "{name}");
    }
}

/// Calls `name` on a bag holding `values`, asking for the rendering.
fn call(name: &str, values: &[u8], args: Vec<Arg<Shapes>>) -> (Returned<Shapes>, Vec<u8>) {
    let op = operation(name);
    let mut slots = vec![Arg::Subject(Shapes { values: values.to_vec() })];
    slots.extend(args);
    let returned = (op.invoke)(&mut slots, true);
    (returned, slots[0].subject_ref().values.clone())
}

fn rendered(returned: Returned<Shapes>) -> Option<String> {
    match returned {
        Returned::Value { rendered, .. } => rendered,
        other => panic!("a value, not {other:?}"),
    }
}

#[test]
fn arguments_reach_the_method_as_their_types() {
    let literal = |l: Literal| l.to_arg::<Shapes>();
    assert_eq!(call("push_maybe", &[1], vec![literal(Literal::OptionInt(Some(7)))]).1, [1, 7]);
    assert_eq!(call("push_maybe", &[1], vec![literal(Literal::OptionInt(None))]).1, [1]);
    let list = || Literal::IntList(vec![2, 3].into());
    assert_eq!(call("extend_slice", &[1], vec![literal(list())]).1, [1, 2, 3]);
    assert_eq!(call("extend_vec", &[1], vec![literal(list())]).1, [1, 2, 3]);
    assert_eq!(call("extend_vec_ref", &[], vec![literal(Literal::IntList(Vec::new().into()))]).1, Vec::<u8>::new());
}

#[test]
fn values_without_debug_are_called_but_not_rendered() {
    assert_eq!(rendered(call("last", &[4, 5], Vec::new()).0).as_deref(), Some("Some(5)"));
    assert_eq!(rendered(call("as_slice", &[4, 5], Vec::new()).0).as_deref(), Some("[4, 5]"));
    assert_eq!(operation("opaque").returns, ReturnKind::Value);
    assert_eq!(rendered(call("opaque", &[4], Vec::new()).0), None);
    assert_eq!(rendered(call("evens", &[4], Vec::new()).0), None);
}

#[test]
fn literals_are_written_for_their_parameter() {
    let ops: Vec<_> = Shapes::operations().iter().map(|op| op.info()).collect();
    let index = |name: &str| ops.iter().position(|op| op.name == name).unwrap() as u16;
    let with = |name: &str, literal: Literal| Call {
        op: index(name),
        operands: vec![Operand::Var(0), Operand::Literal(literal)],
        binds: None,
    };
    let calls = vec![
        Call { op: index("new"), operands: Vec::new(), binds: Some(0) },
        with("push_maybe", Literal::OptionInt(Some(3))),
        with("push_maybe", Literal::OptionInt(None)),
        with("extend_slice", Literal::IntList(vec![1, 2].into())),
        with("extend_vec", Literal::IntList(vec![-1].into())),
        with("extend_vec_ref", Literal::IntList(Vec::new().into())),
        Call { op: index("last"), operands: vec![Operand::Var(0)], binds: None },
        Call { op: index("len"), operands: vec![Operand::Var(0)], binds: None },
    ];
    let program = Program { calls, result: None };
    let observed = [None, None, None, None, None, None, Some("Some(2)".to_owned()), Some("4".to_owned())];
    let lines = program.to_rust_observed(&ops, "Shapes", &observed);
    assert_eq!(
        lines,
        [
            "let mut s0 = Shapes::new();",
            "s0.push_maybe(Some(3));",
            "s0.push_maybe(None);",
            "s0.extend_slice(&[1, 2]);",
            "s0.extend_vec(vec![-1]);",
            "s0.extend_vec_ref(&vec![]);",
            "assert_eq!(format!(\"{:?}\", s0.last()), \"Some(2)\");",
            "assert_eq!(s0.len(), 4);",
        ]
    );
}

#[test]
fn every_bag_of_short_lists_is_reached() {
    // From `new`, `extend_slice` reaches each list of at most 2 values of 0..2
    // in one call (1 + 2 + 4 bags), and longer ones in more calls.
    let report = Beapi::<Shapes>::new()
        .scope(2)
        .builders(smallscope::beapi::Builders::Named(vec!["new".into(), "extend_slice".into()]))
        .max_length(2)
        .run()
        .unwrap();
    assert_eq!(report.structure_count(), 1 + 2 + 4);
}

/// A lifetime-only generic impl is the type at `'static`; no `register` needed.
#[derive(Heap, Clone, Debug)]
pub struct Tagged<'a> {
    count: u8,
    #[heap(skip)]
    tag: &'a str,
}

#[smallscope::api(name = "test-tagged")]
impl<'a> Tagged<'a> {
    pub fn new() -> Self {
        Tagged { count: 0, tag: "t" }
    }
    pub fn bump(&mut self, by: Option<u8>) {
        self.count = self.count.saturating_add(by.unwrap_or(1));
    }
    pub fn tag(&self) -> &'a str {
        self.tag
    }
}

#[test]
fn a_lifetime_only_impl_is_its_type_at_static() {
    let names: Vec<_> = Tagged::<'static>::operations().iter().map(|op| op.name).collect();
    assert_eq!(names, ["new", "bump", "tag"]);
    // `new`, then `bump` by `None` (1) or 0..2: each call adds at most 1, so
    // sequences of at most L calls reach the counts 0..L.
    for length in 1..=4 {
        let report = Beapi::<Tagged<'static>>::new().scope(2).max_length(length).run().unwrap();
        assert_eq!(report.structure_count(), length as usize);
    }
    assert!(smallscope::api::find_subject("test-tagged").is_some());
}

/// A slot arena whose `insert` hands out keys that `remove` and `get` take.
#[derive(Heap, Clone, Debug, Default)]
pub struct Slots {
    values: Vec<Option<u8>>,
}

/// A key `Slots` hands out: its API's handle type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(usize);

#[smallscope::api(name = "api-shapes-slots")]
impl Slots {
    pub fn new() -> Self {
        Slots::default()
    }
    pub fn insert(&mut self, value: u8) -> Key {
        self.values.push(Some(value));
        Key(self.values.len() - 1)
    }
    pub fn remove(&mut self, key: Key) -> Option<u8> {
        self.values.get_mut(key.0)?.take()
    }
    pub fn get(&self, key: &Key) -> Option<u8> {
        self.values.get(key.0).copied().flatten()
    }
    /// Not a handle: no operation returns a `usize`-like key type here.
    pub fn len(&self) -> usize {
        self.values.len()
    }
}

#[test]
fn a_type_one_operation_returns_and_another_takes_is_a_handle() {
    let ops = Slots::operations();
    let op = |name: &str| ops.iter().find(|op| op.name == name).unwrap();
    assert_eq!(op("insert").returns_handle, Some(0));
    assert_eq!(op("remove").params[1], ParamKind::Handle { kind: 0, by_ref: false });
    assert_eq!(op("get").params[1], ParamKind::Handle { kind: 0, by_ref: true });
    assert_eq!((op("len").returns_handle, op("remove").returns_handle), (None, None));
    // The value `insert` returned goes to `get` and `remove`, by reference and by value.
    let mut args = vec![Arg::Subject(Slots::new()), Literal::Int(7).to_arg()];
    let Returned::Value { handle: Some(key), .. } = op("insert").call(&mut args, false) else { panic!("a handle") };
    let slots = args.swap_remove(0);
    let mut args = vec![slots, Arg::Handle(key.clone())];
    let Returned::Value { int, .. } = op("get").call(&mut args, true) else { panic!() };
    assert_eq!(int, None, "Option<u8> is no integer");
    let Returned::Value { rendered, .. } = op("remove").call(&mut args, true) else { panic!() };
    assert_eq!(rendered.as_deref(), Some("Some(7)"));
    let Returned::Value { rendered, .. } = op("remove").call(&mut args, true) else { panic!() };
    assert_eq!(rendered.as_deref(), Some("None"), "a second remove of the same key");
}
