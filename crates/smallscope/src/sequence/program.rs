//! A call sequence as data: the literals, steps and calls a structure is
//! made by, and the program they unroll to, printed as Rust or text.

use std::sync::Arc;

use crate::api::{Access, ListForm, OperationInfo, ParamKind};

/// A value of another subject, as an argument: the calls that build it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct OtherValue {
    /// The other subject's Rust type.
    pub type_name: String,
    /// Calls on the other subject's operations (by their index in its API).
    pub program: Program,
    /// The calls as a Rust block whose value is the structure:
    /// `{ let mut s0 = <a::Order>::new(); s0.want(1); s0 }`.
    pub rust: String,
}

/// A primitive argument value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Literal {
    Int(i64),
    Bool(bool),
    Char(char),
    Str(Arc<str>),
    /// For an `Option<u8>` parameter.
    OptionInt(Option<i64>),
    /// For a `Vec<u8>`, `&[u8]` or `&Vec<u8>` parameter.
    IntList(Arc<[i64]>),
    /// For a `&Other` or `&mut Other` parameter: one of its structures.
    Other(Arc<OtherValue>),
}

impl Literal {
    /// The literal as Rust source, for a parameter of `kind`. Integers need
    /// no suffix: the parameter's type decides theirs.
    pub fn rust(&self, kind: ParamKind) -> String {
        match self {
            Literal::Int(v) => v.to_string(),
            Literal::Bool(v) => v.to_string(),
            Literal::Char(v) => format!("{v:?}"),
            // `.into()` fits both `String` and `&str` parameters.
            Literal::Str(v) => format!("{:?}.into()", &**v),
            Literal::OptionInt(Some(v)) => format!("Some({v})"),
            Literal::OptionInt(None) => "None".to_owned(),
            Literal::IntList(values) => {
                let items: Vec<String> = values.iter().map(i64::to_string).collect();
                let items = items.join(", ");
                match kind {
                    ParamKind::IntList(_, ListForm::Slice) => format!("&[{items}]"),
                    ParamKind::IntList(_, ListForm::VecRef) => format!("&vec![{items}]"),
                    _ => format!("vec![{items}]"),
                }
            }
            Literal::Other(value) => match kind {
                ParamKind::Other(Access::Mut) => format!("&mut {}", value.rust),
                _ => format!("&{}", value.rust),
            },
        }
    }

    /// Whether every integer in it fits the parameter `kind` (any literal
    /// fits a parameter that is not an integer's).
    pub fn fits(&self, kind: ParamKind) -> bool {
        match (self, kind) {
            (Literal::Int(v), ParamKind::Int(int)) | (Literal::OptionInt(Some(v)), ParamKind::OptionInt(int)) => {
                int.fits(*v)
            }
            (Literal::IntList(values), ParamKind::IntList(int, _)) => values.iter().all(|&v| int.fits(v)),
            _ => true,
        }
    }
}

/// One argument of a recorded call.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepArg {
    /// The structure with this index, rebuilt by its own sequence.
    Structure(u32),
    Literal(Literal),
    /// The handle that the last call of structure `n` returned (see
    /// [`ParamKind::Handle`]): `n` is on the chain of the call's receiver.
    Handle(u32),
}

impl Step {
    /// The structure this step's output came out of: the one in its output
    /// slot, or for a returned structure the first structure it took. A
    /// handle the parent could take, this step's output can take too.
    pub fn parent(&self) -> Option<u32> {
        let structure = |arg: &StepArg| match arg {
            StepArg::Structure(s) => Some(*s),
            _ => None,
        };
        match self.output {
            Output::Param(p) => self.args.get(usize::from(p)).and_then(structure),
            Output::Result => self.args.iter().find_map(structure),
        }
    }
}

/// Which value of a call is the structure it made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Output {
    /// Parameter slot `n` (0 is the receiver, when there is one), after the call.
    Param(u8),
    /// The returned value.
    Result,
}

/// The last call that made a structure.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// Index of the operation in the subject's API.
    pub op: u16,
    pub args: Vec<StepArg>,
    pub output: Output,
}

/// An operand of a straight-line call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operand {
    /// Variable `n`, holding a structure.
    Var(u32),
    Literal(Literal),
    /// The handle call `n` of the program returned (see [`ParamKind::Handle`]).
    Returned(u32),
}

/// One straight-line call; `binds` names the variable its result goes to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Call {
    pub op: u16,
    pub operands: Vec<Operand>,
    pub binds: Option<u32>,
}

impl Call {
    /// The same call with every variable `v` renamed to `rename(v)`.
    pub fn renamed(&self, rename: impl Fn(u32) -> u32) -> Call {
        self.renumbered(rename, |call| call)
    }

    /// The same call with variables renamed, and the calls whose handles
    /// it takes renumbered by `call_at` (for a call moved in its program).
    pub fn renumbered(&self, rename: impl Fn(u32) -> u32, call_at: impl Fn(u32) -> u32) -> Call {
        Call {
            op: self.op,
            operands: self
                .operands
                .iter()
                .map(|o| match o {
                    Operand::Var(v) => Operand::Var(rename(*v)),
                    Operand::Literal(l) => Operand::Literal(l.clone()),
                    Operand::Returned(call) => Operand::Returned(call_at(*call)),
                })
                .collect(),
            binds: self.binds.map(rename),
        }
    }
}

/// Where [`Program::emit`] is in unrolling a chain of steps.
struct Unrolling<'f, 'a> {
    step_of: &'f dyn Fn(u32) -> &'a Step,
    next_var: u32,
    /// Each structure emitted so far, with the call that made it.
    made: Vec<(u32, u32)>,
}

/// A straight-line program that rebuilds one value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Program {
    pub calls: Vec<Call>,
    /// The variable that holds the value at the end.
    pub result: Option<u32>,
}

impl Program {
    /// Unrolls `step` into calls, after the calls that rebuild its structure
    /// arguments (`step_of` gives each structure's own step).
    pub fn unroll<'a>(step: &'a Step, step_of: &dyn Fn(u32) -> &'a Step) -> Program {
        let mut program = Program::default();
        let result = program.emit(step, None, &mut Unrolling { step_of, next_var: 0, made: Vec::new() });
        program.result = result;
        program
    }

    /// Like [`Program::unroll`], for a failing call: the last call is `op`
    /// on `args`. When `output` names the value that broke, `result` is the
    /// variable holding it; otherwise nothing is bound.
    pub fn unroll_call<'a>(
        op: u16,
        args: &'a [StepArg],
        output: Option<Output>,
        step_of: &dyn Fn(u32) -> &'a Step,
    ) -> Program {
        let step = Step { op, args: args.to_vec(), output: output.unwrap_or(Output::Result) };
        let mut program = Program::default();
        let result = program.emit(&step, None, &mut Unrolling { step_of, next_var: 0, made: Vec::new() });
        if output.is_none() {
            if let Some(last) = program.calls.last_mut() {
                last.binds = None;
            }
        }
        program.result = output.and(result);
        program
    }

    /// Emits the calls that make `step`'s inputs, then `step`'s call, which
    /// made structure `made_structure` when it is one.
    fn emit(&mut self, step: &Step, made_structure: Option<u32>, unrolling: &mut Unrolling<'_, '_>) -> Option<u32> {
        let operands: Vec<Operand> = step
            .args
            .iter()
            .map(|arg| match arg {
                StepArg::Structure(s) => {
                    let var = self
                        .emit((unrolling.step_of)(*s), Some(*s), unrolling)
                        .expect("a structure step yields a variable");
                    Operand::Var(var)
                }
                StepArg::Literal(lit) => Operand::Literal(lit.clone()),
                // Made above: the structure is on the chain of an argument.
                StepArg::Handle(s) => {
                    let made = unrolling.made.iter().rev().find(|(structure, _)| structure == s);
                    Operand::Returned(made.expect("a handle comes from the chain of an argument").1)
                }
            })
            .collect();
        let (binds, result) = match step.output {
            Output::Result => {
                let var = unrolling.next_var;
                unrolling.next_var += 1;
                (Some(var), Some(var))
            }
            Output::Param(p) => match &operands[usize::from(p)] {
                Operand::Var(v) => (None, Some(*v)),
                Operand::Literal(_) | Operand::Returned(_) => (None, None),
            },
        };
        if let Some(structure) = made_structure {
            unrolling.made.push((structure, self.calls.len() as u32));
        }
        self.calls.push(Call { op: step.op, operands, binds });
        result
    }

    /// The program as a Rust block whose value is its result:
    /// `{ let mut s0 = <a::Order>::new(); s0.want(1); s0 }`.
    pub fn to_rust_block(&self, ops: &[OperationInfo], type_path: &str) -> Option<String> {
        let result = self.result?;
        let mut block = String::from("{ ");
        for line in self.to_rust(ops, type_path) {
            block.push_str(&line);
            block.push(' ');
        }
        block.push_str(&format!("s{result} }}"));
        Some(block)
    }

    /// The number of calls.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The program as Rust statements, one per line. `type_path` is the
    /// subject's type as an expression path (e.g. `my_crate::List`).
    pub fn to_rust(&self, ops: &[OperationInfo], type_path: &str) -> Vec<String> {
        self.to_rust_observed(ops, type_path, &[])
    }

    /// Like [`Program::to_rust`], asserting that call `i` returns the value
    /// whose `Debug` rendering is `observed[i]`, where one is given.
    pub fn to_rust_observed(&self, ops: &[OperationInfo], type_path: &str, observed: &[Option<String>]) -> Vec<String> {
        let mutated = self.mutated_vars(ops);
        let kept = self.kept_handles();
        self.calls
            .iter()
            .enumerate()
            .map(|(index, call)| {
                let op = &ops[usize::from(call.op)];
                let expr = self.call_rust(index, ops, type_path, &handle_rust);
                if kept.contains(&(index as u32)) {
                    return format!("let h{index} = {expr};");
                }
                match observed.get(index).and_then(Option::as_deref) {
                    Some(value) if call.binds.is_none() && op.returns != crate::api::ReturnKind::Unit => {
                        assertion(&expr, value, op.returns_literal)
                    }
                    _ => statement(call, op, &expr, call.binds.is_some_and(|v| mutated.contains(&v))),
                }
            })
            .collect()
    }

    /// Call `index` as a Rust expression, unwrapped when the operation is
    /// fallible; `handle(call, by_ref)` writes an argument that is the
    /// handle call `call` returned.
    pub fn call_rust(
        &self,
        index: usize,
        ops: &[OperationInfo],
        type_path: &str,
        handle: &dyn Fn(u32, bool) -> String,
    ) -> String {
        let call = &self.calls[index];
        let op = &ops[usize::from(call.op)];
        let mut expr = call_expr(call, op, &format!("{type_path}::"), handle);
        if op.fallible {
            expr.push_str(".unwrap()");
        }
        expr
    }

    /// Call `index` as text (`s0.add(3)`), with handle arguments written by `handle`.
    pub fn call_text(&self, index: usize, ops: &[OperationInfo], handle: &dyn Fn(u32, bool) -> String) -> String {
        let call = &self.calls[index];
        call_expr(call, &ops[usize::from(call.op)], "", handle)
    }

    /// The calls as one line of text, e.g. `s0 = new(); s0.add(3); s0.add(1)`.
    pub fn to_text(&self, ops: &[OperationInfo]) -> String {
        let kept = self.kept_handles();
        let calls: Vec<String> = self
            .calls
            .iter()
            .enumerate()
            .map(|(index, call)| {
                let text = |call, by_ref| format!("{}h{call}", if by_ref { "&" } else { "" });
                let expr = call_expr(call, &ops[usize::from(call.op)], "", &text);
                match call.binds {
                    Some(v) => format!("s{v} = {expr}"),
                    None if kept.contains(&(index as u32)) => format!("h{index} = {expr}"),
                    None => expr,
                }
            })
            .collect();
        calls.join("; ")
    }

    /// The calls whose returned handles later calls take: their results are bound, `h{n}`.
    fn kept_handles(&self) -> Vec<u32> {
        let mut kept: Vec<u32> = (self.calls.iter().flat_map(|c| &c.operands))
            .filter_map(|o| match o {
                Operand::Returned(call) => Some(*call),
                _ => None,
            })
            .collect();
        kept.sort_unstable();
        kept.dedup();
        kept
    }

    /// The structure the last call takes by `&mut` (its receiver, or the
    /// first such argument): what a panicking call left, were it to return.
    pub fn last_mutated(&self, ops: &[OperationInfo]) -> Option<u32> {
        let call = self.calls.last()?;
        let params = &ops.get(usize::from(call.op))?.params;
        call.operands.iter().zip(params).find_map(|(operand, kind)| match (operand, kind) {
            (Operand::Var(v), ParamKind::Subject(Access::Mut)) => Some(*v),
            _ => None,
        })
    }

    /// Variables later used through `&mut` or as a `&mut self` receiver.
    fn mutated_vars(&self, ops: &[OperationInfo]) -> Vec<u32> {
        let mut out = Vec::new();
        for call in &self.calls {
            let op = &ops[usize::from(call.op)];
            for (operand, kind) in call.operands.iter().zip(&op.params) {
                if let (Operand::Var(v), ParamKind::Subject(Access::Mut)) = (operand, kind) {
                    out.push(*v);
                }
            }
        }
        out
    }
}

/// Methods of traits in the prelude that method-call syntax can pick over
/// an inherent method of the same name: `s0.min()` on a type with an
/// inherent `min(&self)` and a derived `Ord` calls `Ord::min(self, other)`,
/// found first because it takes `self` by value. In Rust code such calls
/// are written `Type::min(&s0)`, which names the inherent method.
const PRELUDE_METHODS: &[&str] = &[
    "min",
    "max",
    "clamp",
    "into",
    "try_into",
    "into_iter",
    "cmp",
    "partial_cmp",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "clone",
    "clone_from",
    "hash",
    "fmt",
    "to_owned",
    "to_string",
    "borrow",
    "borrow_mut",
    "as_ref",
    "as_mut",
];

/// The statement that runs call `call` as `expr`: binding the structure it
/// makes (`mutable` when a later call changes it), or dropping what it returns.
pub fn statement(call: &Call, op: &OperationInfo, expr: &str, mutable: bool) -> String {
    match call.binds {
        Some(v) => format!("let {}s{v} = {expr};", if mutable { "mut " } else { "" }),
        None if op.returns == crate::api::ReturnKind::Unit => format!("{expr};"),
        None => format!("let _ = {expr};"),
    }
}

/// A handle argument in Rust code: it may be taken again, so a call that
/// takes it by value gets a clone.
fn handle_rust(call: u32, by_ref: bool) -> String {
    match by_ref {
        true => format!("&h{call}"),
        false => format!("h{call}.clone()"),
    }
}

/// `s0.add(3)`, `{prefix}min(&s0)` for a name in [`PRELUDE_METHODS`], or
/// `{prefix}new(..)`: one call as an expression, with handle arguments
/// written by `handle`.  (Text, with an empty prefix, always uses method syntax.)
fn call_expr(call: &Call, op: &OperationInfo, prefix: &str, handle: &dyn Fn(u32, bool) -> String) -> String {
    let mut operands = call.operands.iter().zip(&op.params).map(|(operand, kind)| match operand {
        Operand::Literal(lit) => lit.rust(*kind),
        Operand::Returned(call) => handle(*call, matches!(kind, ParamKind::Handle { by_ref: true, .. })),
        Operand::Var(v) => match kind {
            ParamKind::Subject(Access::Ref) => format!("&s{v}"),
            ParamKind::Subject(Access::Mut) => format!("&mut s{v}"),
            _ => format!("s{v}"),
        },
    });
    if op.receiver && (prefix.is_empty() || !PRELUDE_METHODS.contains(&op.name.as_str())) {
        let receiver = match call.operands.first() {
            Some(Operand::Var(v)) => format!("s{v}"),
            _ => unreachable!("a receiver is always a structure"),
        };
        operands.next();
        let rest: Vec<String> = operands.collect();
        format!("{receiver}.{}({})", op.name, rest.join(", "))
    } else {
        let rest: Vec<String> = operands.collect();
        format!("{prefix}{}({})", op.name, rest.join(", "))
    }
}

/// `assert_eq!(expr, value)` when the operation returns a type that
/// compares with its rendering as it is (`literal`: see
/// [`OperationInfo::returns_literal`]) and the rendering is such a literal
/// (numbers, `bool`, `char`, strings, `Some`/`None` of those); otherwise the
/// `Debug` renderings are compared, which compiles for any returned type
/// (`Option<&u8>`, `&[u8]`, a struct).
fn assertion(expr: &str, rendered: &str, literal: bool) -> String {
    static LITERAL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = LITERAL.get_or_init(|| {
        let atom = r#"-?[0-9]+(\.[0-9]+)?|true|false|'[^'\\]'|"[^"\\]*""#;
        regex::Regex::new(&format!(r"^(None|{atom}|Some\(({atom})\))$")).expect("valid regex")
    });
    if literal && pattern.is_match(rendered) {
        format!("assert_eq!({expr}, {rendered});")
    } else {
        format!("assert_eq!(format!(\"{{:?}}\", {expr}), {rendered:?});")
    }
}
