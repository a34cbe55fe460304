//! [`Arg`]: one argument value in a parameter slot.

use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;

use super::other::{OtherArg, OtherSubject};
use super::{IntKind, ListForm, ParamKind};

/// An argument, in the slot of the parameter it is for.
#[derive(Debug)]
pub enum Arg<T> {
    Subject(T),
    /// A subject that the call moved out (`self` or `other: Self`).
    Taken,
    Int(i64),
    Bool(bool),
    Char(char),
    Str(Arc<str>),
    OptionInt(Option<i64>),
    IntList(Arc<[i64]>),
    /// An [`Arg::IntList`] converted in place to its parameter's element
    /// type, for a `&[u8]` or `&Vec<u8>` parameter to borrow.
    TypedList(TypedInts),
    /// For a `&Other` or `&mut Other` parameter.
    Other(OtherArg),
    /// For a handle parameter: a value an earlier call returned.
    Handle(HandleValue),
}

/// A value an operation returned, of one of the subject's handle types
/// ([`ParamKind::Handle`]), kept for later calls to take. Cloning it is
/// cheap; a call that takes it by value gets a `Clone` of the value.
#[derive(Clone)]
pub struct HandleValue {
    pub kind: u8,
    value: Rc<dyn Any>,
}

impl HandleValue {
    /// Keeps `value`, of handle type `kind`; used by derived code.
    pub fn new<H: Clone + 'static>(kind: u8, value: H) -> Self {
        HandleValue { kind, value: Rc::new(value) }
    }

    fn get<H: 'static>(&self) -> &H {
        self.value.downcast_ref().unwrap_or_else(|| {
            panic!("smallscope: a handle of kind {} is not a `{}`", self.kind, std::any::type_name::<H>())
        })
    }
}

impl std::fmt::Debug for HandleValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HandleValue({})", self.kind)
    }
}

/// A list of integers of one Rust type.
#[derive(Debug)]
pub enum TypedInts {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    Isize(Vec<isize>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Usize(Vec<usize>),
}

impl<T> Arg<T> {
    /// The subject in this slot; used by derived code.
    pub fn subject_ref(&self) -> &T {
        match self {
            Arg::Subject(s) => s,
            other => panic!("smallscope: expected a subject argument, found {}", other.describe()),
        }
    }

    /// The subject in this slot, mutably; used by derived code.
    pub fn subject_mut(&mut self) -> &mut T {
        match self {
            Arg::Subject(s) => s,
            other => panic!("smallscope: expected a subject argument, found {}", other.describe()),
        }
    }

    /// Moves the subject out of this slot; used by derived code.
    pub fn take_subject(&mut self) -> T {
        match std::mem::replace(self, Arg::Taken) {
            Arg::Subject(s) => s,
            other => panic!("smallscope: expected a subject argument, found {}", other.describe()),
        }
    }

    /// A copy of the handle in this slot; used by derived code.
    pub fn handle<H: Clone + 'static>(&self) -> H {
        match self {
            Arg::Handle(handle) => handle.get::<H>().clone(),
            other => panic!("smallscope: expected a handle argument, found {}", other.describe()),
        }
    }

    /// The handle in this slot, borrowed; used by derived code.
    pub fn handle_ref<H: 'static>(&self) -> &H {
        match self {
            Arg::Handle(handle) => handle.get::<H>(),
            other => panic!("smallscope: expected a handle argument, found {}", other.describe()),
        }
    }

    /// Drops the values of other subjects built for a call, so that their
    /// `Drop` runs where the call's code is watched.
    pub fn drop_built_others(args: &mut [Arg<T>]) {
        for arg in args {
            if let Arg::Other(OtherArg::Built(_)) = arg {
                *arg = Arg::Taken;
            }
        }
    }

    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Arg::Subject(_) => "a subject",
            Arg::Taken => "a moved subject",
            Arg::Int(_) => "an integer",
            Arg::Bool(_) => "a bool",
            Arg::Char(_) => "a char",
            Arg::Str(_) => "a string",
            Arg::OptionInt(_) => "an optional integer",
            Arg::IntList(_) | Arg::TypedList(_) => "a list of integers",
            Arg::Other(_) => "a value of another subject",
            Arg::Handle(_) => "a handle",
        }
    }
}

/// A parameter type other than the subject's: its kind, and how to read it
/// from an [`Arg`]. The slot is mutable so that a borrowed parameter
/// (`&[u8]`) can borrow a value converted in place.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a parameter type #[smallscope::api] supports",
    label = "unsupported parameter type",
    note = "parameters may be integers, `bool`, `char`, `String`, `&str`, `Option<integer>`, `Vec<integer>`, \
            `&[integer]`, `&Vec<integer>`, the subject type (`Self`, `&Self`, `&mut Self`), a reference to \
            another type with #[smallscope::api] (`&Other`, `&mut Other`), or a handle: a `Clone` type that an \
            operation of the same block returns (`insert(..) -> Key`, then `remove(key: Key)`)",
    note = "leave the method out of the API with #[smallscope(skip)]"
)]
pub trait Primitive<'a>: Sized {
    const KIND: ParamKind;
    /// For a reference to another subject: where its values come from.
    const OTHER: Option<OtherSubject> = None;
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self;
}

macro_rules! int_primitive {
    ($($t:ty => $kind:ident),*) => {$(
        impl<'a> Primitive<'a> for $t {
            const KIND: ParamKind = ParamKind::Int(IntKind::$kind);
            fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
                match arg {
                    // The engines only pass values that fit (`IntKind::fits`).
                    Arg::Int(v) => *v as $t,
                    other => panic!("smallscope: expected an integer argument, found {}", other.describe()),
                }
            }
        }

        impl<'a> Primitive<'a> for Option<$t> {
            const KIND: ParamKind = ParamKind::OptionInt(IntKind::$kind);
            fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
                match arg {
                    Arg::OptionInt(v) => v.map(|v| v as $t),
                    other => panic!("smallscope: expected an optional integer argument, found {}", other.describe()),
                }
            }
        }

        impl<'a> Primitive<'a> for Vec<$t> {
            const KIND: ParamKind = ParamKind::IntList(IntKind::$kind, ListForm::Vec);
            fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
                match arg {
                    Arg::IntList(values) => values.iter().map(|&v| v as $t).collect(),
                    other => panic!("smallscope: expected a list argument, found {}", other.describe()),
                }
            }
        }

        impl<'a> Primitive<'a> for &'a [$t] {
            const KIND: ParamKind = ParamKind::IntList(IntKind::$kind, ListForm::Slice);
            fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
                <&Vec<$t>>::from_arg(arg)
            }
        }

        impl<'a> Primitive<'a> for &'a Vec<$t> {
            const KIND: ParamKind = ParamKind::IntList(IntKind::$kind, ListForm::VecRef);
            fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
                if let Arg::IntList(values) = arg {
                    let typed = values.iter().map(|&v| v as $t).collect();
                    *arg = Arg::TypedList(TypedInts::$kind(typed));
                }
                match arg {
                    Arg::TypedList(TypedInts::$kind(values)) => values,
                    other => panic!("smallscope: expected a list argument, found {}", other.describe()),
                }
            }
        }
    )*};
}
int_primitive!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, isize => Isize,
               u8 => U8, u16 => U16, u32 => U32, u64 => U64, usize => Usize);

impl<'a> Primitive<'a> for bool {
    const KIND: ParamKind = ParamKind::Bool;
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
        match arg {
            Arg::Bool(v) => *v,
            other => panic!("smallscope: expected a bool argument, found {}", other.describe()),
        }
    }
}

impl<'a> Primitive<'a> for char {
    const KIND: ParamKind = ParamKind::Char;
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
        match arg {
            Arg::Char(v) => *v,
            other => panic!("smallscope: expected a char argument, found {}", other.describe()),
        }
    }
}

impl<'a> Primitive<'a> for &'a str {
    const KIND: ParamKind = ParamKind::Str;
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
        match arg {
            Arg::Str(v) => v,
            other => panic!("smallscope: expected a string argument, found {}", other.describe()),
        }
    }
}

impl<'a> Primitive<'a> for String {
    const KIND: ParamKind = ParamKind::Str;
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
        <&str>::from_arg(arg).to_owned()
    }
}
