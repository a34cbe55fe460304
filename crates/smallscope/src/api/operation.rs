//! [`Operation`]: one method of a subject's API, ready to call.

use super::other::OtherParam;
use super::{Arg, HandleValue, OperationInfo, ParamKind, ReturnKind};

/// What one call returned.
#[derive(Debug)]
pub enum Returned<T> {
    Unit,
    Subject(T),
    /// Any other value: its `Debug` rendering when rendering was asked
    /// for, the value itself when it is an integer, and when it is a handle
    /// (see [`ParamKind::Handle`]) for later calls to take.
    Value {
        rendered: Option<String>,
        int: Option<i64>,
        handle: Option<HandleValue>,
    },
    /// The method returned `Err(_)`: the caller misused the API.
    Misuse(Option<String>),
}

impl<T> Returned<T> {
    /// Wraps a returned value, rendered when `render` asks (for operations
    /// written by hand; derived code renders only values with `Debug`).
    pub fn value<V: std::fmt::Debug + ?Sized>(value: &V, render: bool, int: Option<i64>) -> Self {
        Returned::Value { rendered: render.then(|| super::debug_text(value)), int, handle: None }
    }

    /// Wraps an `Err`; used by derived code.
    pub fn misuse<E: std::fmt::Debug + ?Sized>(error: &E, render: bool) -> Self {
        Returned::Misuse(render.then(|| super::debug_text(error)))
    }
}

/// Calls an operation on arguments laid out as its parameters, receiver first.
/// The flag asks for returned values to be rendered.
pub type Invoke<T> = fn(&mut [Arg<T>], bool) -> Returned<T>;

/// One method of a subject's API.
pub struct Operation<T> {
    /// The method's name.
    pub name: &'static str,
    /// Whether parameter 0 is `self`.
    pub receiver: bool,
    /// Parameter slots, receiver first.
    pub params: Vec<ParamKind>,
    pub returns: ReturnKind,
    /// The handle type (see [`ParamKind::Handle`]) of the returned value.
    pub returns_handle: Option<u8>,
    /// Whether the returned value (`Ok`'s, for a `Result`) compares equal
    /// to its own `Debug` rendering written as a Rust literal: integers,
    /// floats, `bool`, `char`, `String`, `&str`, and `Option` of these but
    /// `String`. Generated tests assert those as `assert_eq!(call, 3)`, and
    /// any other value (a reference, `Option<&u8>`, a struct) through its
    /// rendering, which compiles whatever the type.
    pub returns_literal: bool,
    /// Whether the method returns a `Result`, whose `Err` is misuse.
    pub fallible: bool,
    pub invoke: Invoke<T>,
    /// The slots of [`ParamKind::Other`] parameters, with their types.
    pub others: Vec<OtherParam>,
}

impl<T> Operation<T> {
    /// The parts of the operation that do not depend on `T`.
    pub fn info(&self) -> OperationInfo {
        OperationInfo {
            name: self.name.to_owned(),
            receiver: self.receiver,
            params: self.params.clone(),
            returns: self.returns,
            returns_handle: self.returns_handle,
            returns_literal: self.returns_literal,
            fallible: self.fallible,
        }
    }

    /// Calls the operation, then drops the arguments of other subjects it
    /// was given, so that their `Drop` is part of the call.
    pub fn call(&self, args: &mut [Arg<T>], render: bool) -> Returned<T> {
        let returned = (self.invoke)(args, render);
        Arg::drop_built_others(args);
        returned
    }

    /// The type a [`ParamKind::Other`] slot takes.
    pub fn other(&self, slot: usize) -> Option<&super::OtherSubject> {
        self.others.iter().find(|p| p.slot == slot).map(|p| &p.subject)
    }

    /// Whether it makes a structure from primitives alone (a constructor).
    pub fn is_constructor(&self) -> bool {
        self.returns == ReturnKind::Subject && !self.params.iter().any(|p| matches!(p, ParamKind::Subject(_)))
    }
}

/// The operations named in `names`, as sorted indices into `ops`: what
/// an engine restricted to builders runs. An unknown name, or no
/// constructor among them, is an error naming the operations there are.
pub fn select_operations<T>(ops: &[Operation<T>], names: &[String]) -> Result<Vec<usize>, crate::ConfigError> {
    let known = || ops.iter().map(|op| op.name).collect::<Vec<_>>().join(", ");
    let mut chosen = Vec::new();
    for name in names {
        let index = ops
            .iter()
            .position(|op| op.name == name)
            .ok_or_else(|| crate::ConfigError::UnknownBuilder { name: name.clone(), known: known() })?;
        if !chosen.contains(&index) {
            chosen.push(index);
        }
    }
    chosen.sort_unstable();
    if !chosen.iter().any(|&i| ops[i].is_constructor()) {
        return Err(crate::ConfigError::NoConstructor(names.to_vec()));
    }
    Ok(chosen)
}

/// An integer type whose values the random engine can reuse as arguments.
pub trait AsInt {
    /// The value, when it fits an `i64`.
    fn as_int(&self) -> Option<i64>;
}

macro_rules! as_int {
    ($($t:ty),*) => {$(
        impl AsInt for $t {
            fn as_int(&self) -> Option<i64> {
                i64::try_from(*self).ok()
            }
        }
    )*};
}
as_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
