//! An operation's signature without its code: the kinds of its parameters
//! and of what it returns ([`OperationInfo`]). What reports, call sequences
//! and generated tests need of an API, with nothing to call.

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

/// An operation's signature, without its code: for reports and generated tests.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OperationInfo {
    pub name: String,
    pub receiver: bool,
    pub params: Vec<ParamKind>,
    pub returns: ReturnKind,
    /// See [`Operation::returns_handle`](super::Operation::returns_handle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns_handle: Option<u8>,
    /// See [`Operation::returns_literal`](super::Operation::returns_literal).
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
