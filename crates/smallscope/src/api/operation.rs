//! [`Operation`]: one method of a subject's API, ready to call.

use super::other::OtherParam;
use super::{Arg, HandleValue};

/// How an operation takes a subject-typed parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// `self` or `other: Self`: moved in, gone afterwards.
    Owned,
    /// `&self` or `other: &Self`.
    Ref,
    /// `&mut self` or `other: &mut Self`.
    Mut,
}

/// The integer type of a parameter, which bounds its domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntKind {
    I8,
    I16,
    I32,
    I64,
    Isize,
    U8,
    U16,
    U32,
    U64,
    Usize,
}

impl IntKind {
    /// Whether `value` fits this type.
    pub fn fits(self, value: i64) -> bool {
        let (min, max): (i128, i128) = match self {
            IntKind::I8 => (i8::MIN.into(), i8::MAX.into()),
            IntKind::I16 => (i16::MIN.into(), i16::MAX.into()),
            IntKind::I32 => (i32::MIN.into(), i32::MAX.into()),
            IntKind::I64 | IntKind::Isize => (i64::MIN.into(), i64::MAX.into()),
            IntKind::U8 => (0, u8::MAX.into()),
            IntKind::U16 => (0, u16::MAX.into()),
            IntKind::U32 => (0, u32::MAX.into()),
            IntKind::U64 | IntKind::Usize => (0, u64::MAX.into()),
        };
        (min..=max).contains(&i128::from(value))
    }

    /// The Rust type's name, for generated code.
    pub fn rust_name(self) -> &'static str {
        match self {
            IntKind::I8 => "i8",
            IntKind::I16 => "i16",
            IntKind::I32 => "i32",
            IntKind::I64 => "i64",
            IntKind::Isize => "isize",
            IntKind::U8 => "u8",
            IntKind::U16 => "u16",
            IntKind::U32 => "u32",
            IntKind::U64 => "u64",
            IntKind::Usize => "usize",
        }
    }
}

/// How a parameter takes a list of integers, which decides how a literal
/// is written in generated code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListForm {
    /// `Vec<u8>`: written `vec![1, 2]`.
    Vec,
    /// `&[u8]`: written `&[1, 2]`.
    Slice,
    /// `&Vec<u8>`: written `&vec![1, 2]`.
    VecRef,
}

/// The kind of one parameter slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    Subject(Access),
    Int(IntKind),
    Bool,
    Char,
    /// `String` or `&str`.
    Str,
    /// `Option<u8>` and the like: `None`, or an integer of the domain.
    OptionInt(IntKind),
    /// `Vec<u8>`, `&[u8]` or `&Vec<u8>`: short lists over the integer domain.
    IntList(IntKind, ListForm),
    /// `&Other` or `&mut Other`, of another subject: its own structures
    /// (see [`crate::api::other`]; the operation's `others` names the type).
    Other(Access),
    /// A value of a type the API hands out (a handle, a key, an id): values
    /// earlier calls of the same sequence returned. `kind` numbers the
    /// subject's handle types; `by_ref` for `&Handle`.
    Handle {
        kind: u8,
        by_ref: bool,
    },
}

impl ParamKind {
    /// How complex the parameter is, for preferring simpler builders:
    /// booleans are simplest, subject-typed parameters the most complex.
    pub fn complexity(self) -> u32 {
        match self {
            ParamKind::Bool => 1,
            ParamKind::Char | ParamKind::Int(_) => 2,
            // One value more than its integer: `None`.
            ParamKind::Str | ParamKind::OptionInt(_) => 3,
            // Lists multiply the integer domain.
            ParamKind::IntList(..) => 4,
            ParamKind::Subject(_) | ParamKind::Other(_) | ParamKind::Handle { .. } => 5,
        }
    }
}

/// What an operation returns, once `Result` is unwrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnKind {
    Unit,
    /// A new value of the subject type.
    Subject,
    /// Any other value, which is rendered with `Debug` when asked.
    Value,
}

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

/// An operation's signature, without its code: for reports and generated tests.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OperationInfo {
    pub name: String,
    pub receiver: bool,
    pub params: Vec<ParamKind>,
    pub returns: ReturnKind,
    /// See [`Operation::returns_handle`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns_handle: Option<u8>,
    /// See [`Operation::returns_literal`].
    #[serde(default)]
    pub returns_literal: bool,
    pub fallible: bool,
}

impl OperationInfo {
    /// Whether it makes a structure from primitives alone.
    pub fn is_constructor(&self) -> bool {
        self.returns == ReturnKind::Subject && !self.params.iter().any(|p| matches!(p, ParamKind::Subject(_)))
    }

    /// Whether it can change or make a structure: observers (`&self` only,
    /// returning no subject) cannot.
    pub fn may_build(&self) -> bool {
        self.returns == ReturnKind::Subject
            || self.params.iter().any(|p| matches!(p, ParamKind::Subject(Access::Mut | Access::Owned)))
    }

    /// Sum of parameter complexities, for tie-breaks between builder sets.
    pub fn complexity(&self) -> u32 {
        let skip = usize::from(self.receiver);
        self.params.iter().skip(skip).map(|p| p.complexity()).sum()
    }
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
