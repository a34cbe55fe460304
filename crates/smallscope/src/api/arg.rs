//! [`Arg`]: one argument value in a parameter slot.

use std::sync::Arc;

use super::{IntKind, ParamKind};

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

    fn describe(&self) -> &'static str {
        match self {
            Arg::Subject(_) => "a subject",
            Arg::Taken => "a moved subject",
            Arg::Int(_) => "an integer",
            Arg::Bool(_) => "a bool",
            Arg::Char(_) => "a char",
            Arg::Str(_) => "a string",
        }
    }
}

/// A primitive parameter type: its kind, and how to read it from an [`Arg`].
pub trait Primitive<'a>: Sized {
    const KIND: ParamKind;
    fn from_arg<T>(arg: &'a Arg<T>) -> Self;
}

macro_rules! int_primitive {
    ($($t:ty => $kind:ident),*) => {$(
        impl<'a> Primitive<'a> for $t {
            const KIND: ParamKind = ParamKind::Int(IntKind::$kind);
            fn from_arg<T>(arg: &'a Arg<T>) -> Self {
                match arg {
                    // The engines only pass values that fit (`IntKind::fits`).
                    Arg::Int(v) => *v as $t,
                    other => panic!("smallscope: expected an integer argument, found {}", other.describe()),
                }
            }
        }
    )*};
}
int_primitive!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, isize => Isize,
               u8 => U8, u16 => U16, u32 => U32, u64 => U64, usize => Usize);

impl<'a> Primitive<'a> for bool {
    const KIND: ParamKind = ParamKind::Bool;
    fn from_arg<T>(arg: &'a Arg<T>) -> Self {
        match arg {
            Arg::Bool(v) => *v,
            other => panic!("smallscope: expected a bool argument, found {}", other.describe()),
        }
    }
}

impl<'a> Primitive<'a> for char {
    const KIND: ParamKind = ParamKind::Char;
    fn from_arg<T>(arg: &'a Arg<T>) -> Self {
        match arg {
            Arg::Char(v) => *v,
            other => panic!("smallscope: expected a char argument, found {}", other.describe()),
        }
    }
}

impl<'a> Primitive<'a> for &'a str {
    const KIND: ParamKind = ParamKind::Str;
    fn from_arg<T>(arg: &'a Arg<T>) -> Self {
        match arg {
            Arg::Str(v) => v,
            other => panic!("smallscope: expected a string argument, found {}", other.describe()),
        }
    }
}

impl<'a> Primitive<'a> for String {
    const KIND: ParamKind = ParamKind::Str;
    fn from_arg<T>(arg: &'a Arg<T>) -> Self {
        <&str>::from_arg(arg).to_owned()
    }
}
