//! The standard traits as operations: `clone`, `==` and `cmp` join the
//! subject's API, as `clone`, `equals` and `compareTo` are part of every
//! Java class Randoop tests. They put two values in one sequence, where the
//! pair contracts can compare them, and they print as ordinary method calls.

use crate::api::{Access, Arg, Invoke, Operation, ParamKind, ReturnKind, Returned, StdTraits};

fn both<T>(args: &[Arg<T>]) -> (&T, &T) {
    (args[0].subject_ref(), args[1].subject_ref())
}

fn invoke_clone<T: StdTraits>(args: &mut [Arg<T>], _render: bool) -> Returned<T> {
    let clone = T::std_traits().clone.expect("listed only for Clone types");
    Returned::Subject(clone(args[0].subject_ref()))
}

fn invoke_eq<T: StdTraits>(args: &mut [Arg<T>], render: bool) -> Returned<T> {
    let eq = T::std_traits().partial_eq.expect("listed only for PartialEq types");
    let (a, b) = both(args);
    Returned::value(&eq(a, b), render, None)
}

fn invoke_cmp<T: StdTraits>(args: &mut [Arg<T>], render: bool) -> Returned<T> {
    let ord = T::std_traits().ord.expect("listed only for Ord types");
    let (a, b) = both(args);
    Returned::value(&ord(a, b), render, None)
}

/// A method on `&self` and `arity - 1` more subject references.
fn by_ref<T>(name: &'static str, arity: usize, returns: ReturnKind, invoke: Invoke<T>) -> Operation<T> {
    let params = vec![ParamKind::Subject(Access::Ref); arity];
    // `eq` returns a `bool`; `cmp` an `Ordering`, which renders as `Less`, not as a literal.
    let returns_literal = name == "eq";
    let others = Vec::new();
    Operation {
        name,
        receiver: true,
        params,
        returns,
        returns_handle: None,
        returns_literal,
        fallible: false,
        invoke,
        others,
    }
}

/// The operations `T`'s standard traits give, leaving out names the API
/// already uses.
pub fn std_operations<T: StdTraits>(taken: &[&str]) -> Vec<Operation<T>> {
    let table = T::std_traits();
    let mut ops = Vec::new();
    if table.clone.is_some() {
        ops.push(by_ref("clone", 1, ReturnKind::Subject, invoke_clone::<T>));
    }
    if table.partial_eq.is_some() {
        ops.push(by_ref("eq", 2, ReturnKind::Value, invoke_eq::<T>));
    }
    if table.ord.is_some() {
        ops.push(by_ref("cmp", 2, ReturnKind::Value, invoke_cmp::<T>));
    }
    ops.retain(|op| !taken.contains(&op.name));
    ops
}
