//! Running a call sequence: each call's arguments made from its operands,
//! the subject's operations called in turn, and the values of other
//! subjects built when an operation reads them.

use crate::api::Operation;
use crate::api::{Arg, HandleValue, OtherArg, Returned, Subject};

use super::{Literal, Operand, Program};

impl Literal {
    pub fn to_arg<T>(&self) -> Arg<T> {
        match self {
            Literal::Int(v) => Arg::Int(*v),
            Literal::Bool(v) => Arg::Bool(*v),
            Literal::Char(v) => Arg::Char(*v),
            Literal::Str(v) => Arg::Str(v.clone()),
            Literal::OptionInt(v) => Arg::OptionInt(*v),
            Literal::IntList(v) => Arg::IntList(v.clone()),
            Literal::Other(v) => Arg::Other(OtherArg::Planned(v.clone())),
        }
    }
}

impl Program {
    /// Runs the calls on `S`'s operations and returns the value in
    /// `result`; `None` when a call misuses the API or a value is missing.
    /// The calls run unwatched: the caller runs this inside watched code.
    pub fn build<S: Subject>(&self) -> Option<S> {
        let mut vars = self.run::<S>(&mut ())?;
        vars.get_mut(self.result? as usize)?.take()
    }

    /// Runs the calls in order with `watch` looking on, and returns the
    /// variables; `None` when a call misused the API, a value was missing,
    /// or `watch` stopped the program.
    pub fn run<S: Subject>(&self, watch: &mut impl CallWatch<S>) -> Option<Vec<Option<S>>> {
        let ops = S::operations();
        let mut vars: Vec<Option<S>> = Vec::new();
        let mut handles: Vec<Option<HandleValue>> = Vec::new();
        for (index, call) in self.calls.iter().enumerate() {
            let op = ops.get(usize::from(call.op))?;
            let mut args = Vec::with_capacity(call.operands.len());
            for operand in &call.operands {
                args.push(match operand {
                    Operand::Var(v) => Arg::Subject(vars.get_mut(*v as usize)?.take()?),
                    Operand::Literal(literal) => literal.to_arg(),
                    Operand::Returned(call) => Arg::Handle(handles.get(*call as usize)?.clone()?),
                });
            }
            watch.before(index, &args);
            let returned = watch.call(index, op, &mut args)?;
            if let Returned::Misuse(_) = returned {
                return None;
            }
            watch.after(index, &args, &returned);
            if let Returned::Value { handle: Some(handle), .. } = &returned {
                handles.resize(index, None);
                handles.push(Some(handle.clone()));
            }
            for (operand, arg) in call.operands.iter().zip(args) {
                if let (Operand::Var(v), Arg::Subject(value)) = (operand, arg) {
                    vars[*v as usize] = Some(value);
                }
            }
            if let (Returned::Subject(value), Some(var)) = (returned, call.binds) {
                let var = var as usize;
                if vars.len() <= var {
                    vars.resize_with(var + 1, || None);
                }
                vars[var] = Some(value);
            }
        }
        Some(vars)
    }
}

/// Looks on as [`Program::run`] makes each call (`()` only runs them).
pub trait CallWatch<S> {
    /// Call `index`'s arguments, before it runs.
    fn before(&mut self, _index: usize, _args: &[Arg<S>]) {}
    /// Runs `op`, call `index`, on `args`; `None` stops the program.
    fn call(&mut self, _index: usize, op: &Operation<S>, args: &mut [Arg<S>]) -> Option<Returned<S>> {
        Some(op.call(args, false))
    }
    /// Call `index`'s arguments as it left them, and what it returned, when it was legal.
    fn after(&mut self, _index: usize, _args: &[Arg<S>], _returned: &Returned<S>) {}
}

impl<S> CallWatch<S> for () {}

impl<T> Arg<T> {
    /// The value of another subject in this slot, built on first use; used by derived code.
    pub fn other_mut<S: Subject>(&mut self) -> &mut S {
        match self {
            Arg::Other(other) => build_in_place(other),
            other => {
                panic!("smallscope: expected a `{}` argument, found {}", std::any::type_name::<S>(), other.describe())
            }
        }
    }
}

/// Builds the planned value of another subject in `arg`, in place, and
/// returns it; used by derived code through [`Arg::other_mut`].
fn build_in_place<S: Subject>(arg: &mut OtherArg) -> &mut S {
    if let OtherArg::Planned(plan) = arg {
        let value: S = plan.program.build().unwrap_or_else(|| {
            panic!("smallscope: the `{}` argument {} could not be built again", plan.type_name, plan.rust)
        });
        *arg = OtherArg::Built(Box::new(value));
    }
    match arg {
        OtherArg::Built(value) => value
            .downcast_mut::<S>()
            .unwrap_or_else(|| panic!("smallscope: an argument of another type than `{}`", std::any::type_name::<S>())),
        OtherArg::Planned(_) => unreachable!("built above"),
    }
}
