//! Where the values of a parameter that is another registered subject
//! (`&Other`, `&mut Other`) come from: the other subject's own structures,
//! made by BEAPI (see [`crate::api::other`] for what a run does with them).
//!
//! The model names the parameter kind; this layer, above the engines,
//! chooses the engine that fills it, so `api` imports no engine.

use crate::api::{Access, Arg, OtherSubject, ParamKind, Primitive, Subject};

impl<'a, S: Subject> Primitive<'a> for &'a S {
    const KIND: ParamKind = ParamKind::Other(Access::Ref);
    const OTHER: Option<OtherSubject> = Some(OtherSubject::new::<S>(crate::beapi::other_structures::<S>));
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
        arg.other_mut()
    }
}

impl<'a, S: Subject> Primitive<'a> for &'a mut S {
    const KIND: ParamKind = ParamKind::Other(Access::Mut);
    const OTHER: Option<OtherSubject> = Some(OtherSubject::new::<S>(crate::beapi::other_structures::<S>));
    fn from_arg<T>(arg: &'a mut Arg<T>) -> Self {
        arg.other_mut()
    }
}
