//! The standard traits as operations: `clone`, `==` and `cmp` join the
//! subject's API, as `clone`, `equals` and `compareTo` are part of every
//! Java class Randoop tests. They put two values in one sequence, where the
//! pair contracts can compare them, and they print as ordinary method calls.

use crate::api::{Access, Arg, Operation, ParamKind, ReturnKind, Returned, StdTraits};

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

/// The operations `T`'s standard traits give, leaving out names the API
/// already uses.
pub fn std_operations<T: StdTraits>(taken: &[&str]) -> Vec<Operation<T>> {
    let table = T::std_traits();
    let by_ref = ParamKind::Subject(Access::Ref);
    let mut ops = Vec::new();
    if table.clone.is_some() {
        ops.push(Operation {
            name: "clone",
            receiver: true,
            params: vec![by_ref],
            returns: ReturnKind::Subject,
            fallible: false,
            invoke: invoke_clone::<T>,
        });
    }
    if table.partial_eq.is_some() {
        ops.push(Operation {
            name: "eq",
            receiver: true,
            params: vec![by_ref, by_ref],
            returns: ReturnKind::Value,
            fallible: false,
            invoke: invoke_eq::<T>,
        });
    }
    if table.ord.is_some() {
        ops.push(Operation {
            name: "cmp",
            receiver: true,
            params: vec![by_ref, by_ref],
            returns: ReturnKind::Value,
            fallible: false,
            invoke: invoke_cmp::<T>,
        });
    }
    ops.retain(|op| !taken.contains(&op.name));
    ops
}
