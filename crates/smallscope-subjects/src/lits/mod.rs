//! `lits`: Sat4j's `Lits`, the variable store of its CDCL solvers
//! (`org.sat4j.minisat.core.ILits`, implemented by
//! `org.sat4j.minisat.constraints.cnf.Lits`), as in the builders-identification
//! paper's benchmark, driven the way Sat4j's `Solver` drives it.
//!
//! Variables are `1..=n_vars()`; a literal is a variable and a sign
//! (`negative` false: `v`, true: `¬v`), written as a DIMACS integer (`v` or
//! `-v`) wherever the store shows one. Each variable has a truth value
//! (Sat4j's `falsified` flags), a decision `level` and a `reason`, the clause
//! that implied it (`None` for a decision), all `None` while it is
//! unassigned; and each literal has a watch list: the clauses to wake up
//! when the literal becomes false, in the order they registered (Sat4j's
//! `watches`, `IVec`s that `watch(lit, c)` pushes onto; Sat4j files a clause
//! under the negation of its literal, here it is under the literal itself).
//!
//! The store holds the solver's trail (Sat4j's `Solver.trail`, which `Lits`
//! sees through `getTrailPosition`): the assigned literals in the order they
//! were assigned. `assume(var)` is a decision: `¬var` becomes true at the
//! next decision level (Sat4j's `assume(p)`), and unit propagation follows
//! (`propagate()`): for each literal on the trail not yet propagated, each
//! clause watching its negation, in watch-list order, looks at its other
//! literal: true, nothing to do; unassigned, it is implied at the same level
//! with that clause as reason and goes on the trail (`enqueue(p, from)`);
//! false, a conflict: the decision is cancelled, the store is as before and
//! `assume` returns `false` (the solver would analyse the conflict). So
//! levels are not free integers: a variable's level is the number of
//! decisions on the trail up to its own assignment, each level starts with
//! its decision, and a reason is only on an implied variable.
//! `cancel_until(level)` backtracks (`cancelUntil`), unassigning the trail
//! above `level` from its end.
//!
//! Constraints are binary clauses (Sat4j's `BinaryClause`), registered at
//! decision level 0 before the search (`add_clause`, `register()`): a binary
//! clause watches both its literals, so it is on exactly two watch lists.
//! `remove` takes a clause off both (`remove()`, as `reduceDB` forgets a
//! learned clause), unless it is the reason of an assignment (`locked()`).
//!
//! Heap shape: arena-based. `Lits { constrs: Vec<Constr>, watch_nodes:
//! Vec<WatchNode>, vars: Vec<Var>, trail: Vec<i32> }`. A `Var { value, level,
//! reason, pos_watches, neg_watches }` is a record of Sat4j's parallel arrays
//! (`falsified[]`, `level[]`, `reason[]`, `watches[]`), stored inline;
//! `reason` indexes a `Constr { lits }` (the clause's two literals, the lower
//! variable's first) and the watch heads index `WatchNode { constr, next }`s,
//! each linking to a `Constr`: a clause is one object that its two watch
//! nodes, and the variable it is the reason of, share. Slots of removed
//! clauses and watch nodes go to free lists that are not part of the
//! structure.
//!
//! Bounds: at scope N a structure has at most N watch nodes, so at most N / 2
//! clauses, and `ensure_pool(n)` takes `n < N` (BEAPI's integers `0..N`), so
//! it has at most `N - 1` variables. BEAPI finds 1, 3, 24, 1 138 and 15 495
//! stores at scopes 1 to 5, with the builders as with the whole API, and so
//! does the brute force in the tests, which enumerates clause sets and
//! decision sequences directly; scope 5 takes about 2 seconds in a release
//! build.
//!
//! Adaptations, to keep the reachable stores few enough for scope 5 (the
//! store as a bag of setters, `set_level(var, any level)` and the like,
//! reached 222 455 164 at scope 4):
//! - the solver's discipline is part of the API: values, levels and reasons
//!   change only through `assume` (with propagation) and `cancel_until`, not
//!   through Sat4j's `satisfies`, `setLevel`, `setReason` and `unassign`,
//!   which the solver calls only in those patterns;
//! - decisions take the phase of Sat4j's `NegativeLiteralSelectionStrategy`
//!   (a decision makes its variable false; the caller picks the variable, as
//!   `IOrder.select()` would): with either phase, scope 5 has 112 369
//!   stores and takes seven times as long;
//! - constraints are binary clauses, which is all a store sees of a
//!   two-watched-literal clause: longer clauses, which move their watches,
//!   are left out, and so are unit clauses (level-0 facts); a clause over one
//!   variable twice, or one already there, is misuse;
//! - clauses are added only while nothing is assigned, their literals in
//!   order, so that a store is its clause set, its watch orders and its trail;
//! - a literal is a variable and a sign, not Sat4j's `2 * var + sign`:
//!   BEAPI's integers `0..N` would reach only one or two variables' literals;
//! - there is no `nextFreeVarId` and no `getFromPool`: `ensure_pool` makes
//!   the variables, records rather than objects; Sat4j's undo listeners
//!   (`undos(lit)`) are left out.
//!
//! Observers (they take `&self`): `n_vars`, `belongs_to_pool`,
//! `decision_level`, `n_constraints`, `is_unassigned`, `is_satisfied`,
//! `is_falsified`, `get_level`, `get_reason`, `get_trail_position`,
//! `watches`, `watches_len`, `trail`. Mutators: `ensure_pool`, `add_clause`,
//! `assume`, `cancel_until`, `remove`, `reset_pool`.
//!
//! A sufficient minimal builder set is `new, ensure_pool, add_clause,
//! assume`. A valid store is built by `new`, `ensure_pool(n)`, `add_clause`
//! for each clause in an order that agrees with every watch list (the lists
//! are registration orders, and removals keep the order of what is left),
//! then `assume` of the trail's decisions in order: propagation is
//! deterministic, so each implies what it implied before, with the same
//! reasons (a removed clause was not a reason, so it never implied anything,
//! and it cannot have found a conflict). The objects only grow along the way.
//! Each builder is needed: it is the only way to make variables, clauses or
//! assignments. `cancel_until` leaves what fewer decisions made, and `remove`
//! and `reset_pool` what fewer registrations make.
//!
//! `rep_ok`: see [`Lits::rep_ok`]; it includes that propagation is complete
//! (a clause with a false literal has its other literal true, from a level
//! no higher).
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! variables' contents ([`VarContent`]: value, level, trail position, reason
//! clause, and the watch lists as the other literals of their clauses) for
//! each variable in order; the arenas play no part.

use smallscope::Heap;

/// A call that Sat4j would answer with an assertion failure or an
/// out-of-bounds access, or that its solver never makes: API misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LitsError {
    /// A variable outside `1..=n_vars()`.
    NoSuchVar(i32),
    /// A negative pool size, level or index.
    Negative(i32),
    /// A clause over one variable twice.
    SameVar(i32),
    /// A clause added while variables are assigned.
    Searching,
    /// A clause registered already (its literals, DIMACS, in order).
    Duplicate([i32; 2]),
    /// `assume` of an assigned variable.
    Assigned(i32),
    /// `cancel_until` above the decision level.
    AboveLevel(i32),
    /// `remove` past the end of the literal's watch list.
    NoSuchWatch { lit: i32, index: i32 },
    /// `remove` of the reason of an assignment.
    Locked([i32; 2]),
}

#[derive(Heap, Clone, Debug, Default)]
pub struct Lits {
    #[heap(arena)]
    constrs: Vec<Constr>,
    #[heap(arena)]
    watch_nodes: Vec<WatchNode>,
    /// `vars[v - 1]` is variable `v`.
    vars: Vec<Var>,
    /// The assigned literals (DIMACS), in the order they were assigned.
    trail: Vec<i32>,
    /// Arena slots of removed clauses.
    #[heap(skip)]
    free_constrs: Vec<usize>,
    /// Arena slots of removed watch nodes.
    #[heap(skip)]
    free_nodes: Vec<usize>,
}

/// One variable: its entries of Sat4j's `falsified[]`, `level[]`, `reason[]`
/// and `watches[]`.
#[derive(Heap, Clone, Debug, Default)]
struct Var {
    /// The variable's truth value: its positive literal is true.
    value: Option<bool>,
    level: Option<i32>,
    #[heap(index = "constrs")]
    reason: Option<usize>,
    #[heap(index = "watch_nodes")]
    pos_watches: Option<usize>,
    #[heap(index = "watch_nodes")]
    neg_watches: Option<usize>,
}

/// A binary clause: its literals (DIMACS), the lower variable's first.
#[derive(Heap, Clone, Debug)]
struct Constr {
    lits: [i32; 2],
}

/// An entry of a watch list.
#[derive(Heap, Clone, Debug)]
struct WatchNode {
    #[heap(index = "constrs")]
    constr: usize,
    #[heap(index = "watch_nodes")]
    next: Option<usize>,
}

/// What a variable holds, as plain values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarContent {
    pub value: Option<bool>,
    pub level: Option<i32>,
    /// Where its literal is on the trail.
    pub trail_position: Option<usize>,
    /// The reason clause's literals (DIMACS), the lower variable's first.
    pub reason: Option<[i32; 2]>,
    /// For each clause watching the positive literal, in order, its other literal.
    pub pos_watches: Vec<i32>,
    /// The same for the negative literal.
    pub neg_watches: Vec<i32>,
}

/// The DIMACS literal of a variable and a sign.
fn dimacs(var: i32, negative: bool) -> i32 {
    if negative {
        -var
    } else {
        var
    }
}

#[smallscope::api(name = "lits", rep_ok = rep_ok)]
impl Lits {
    /// An empty pool.
    pub fn new() -> Self {
        Lits::default()
    }

    /// `ensurePool(howmany)`: variables `1..=n` exist afterwards (new ones
    /// unassigned, with empty watch lists).
    pub fn ensure_pool(&mut self, n: i32) -> Result<(), LitsError> {
        let wanted = usize::try_from(n).map_err(|_| LitsError::Negative(n))?;
        if self.vars.len() < wanted {
            self.vars.resize_with(wanted, Var::default);
        }
        Ok(())
    }

    /// Registers the binary clause of the two literals
    /// (`BinaryClause.register()`): appends it to the watch lists of both.
    /// Only with nothing assigned (decision level 0, before the search); not
    /// twice.
    pub fn add_clause(&mut self, var: i32, negative: bool, other: i32, other_negative: bool) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        let w = self.var_index(other)?;
        if v == w {
            return Err(LitsError::SameVar(var));
        }
        if !self.trail.is_empty() {
            return Err(LitsError::Searching);
        }
        let mut lits = [dimacs(var, negative), dimacs(other, other_negative)];
        lits.sort_unstable_by_key(|lit| lit.abs());
        if self.find_watch(lits[0], |c| c.lits == lits).is_some() {
            return Err(LitsError::Duplicate(lits));
        }
        let c = match self.free_constrs.pop() {
            Some(slot) => {
                self.constrs[slot] = Constr { lits };
                slot
            }
            None => {
                self.constrs.push(Constr { lits });
                self.constrs.len() - 1
            }
        };
        for lit in lits {
            self.append_watch(lit, c);
        }
        Ok(())
    }

    /// A decision on `var` (`assume(p)`, then `propagate()`), in the phase
    /// of Sat4j's `NegativeLiteralSelectionStrategy`: `¬var` becomes true at
    /// the next decision level, then unit propagation. `false` on a
    /// conflict, after which the decision is cancelled and the store is as
    /// before.
    pub fn assume(&mut self, var: i32) -> Result<bool, LitsError> {
        let v = self.var_index(var)?;
        if self.vars[v].value.is_some() {
            return Err(LitsError::Assigned(var));
        }
        let start = self.trail.len();
        let level = self.decision_level() + 1;
        self.assign(-var, level, None);
        let mut next = start;
        while next < self.trail.len() {
            let falsified = -self.trail[next];
            next += 1;
            let nodes: Vec<usize> = self.list(falsified).collect();
            for node in nodes {
                let c = self.watch_nodes[node].constr;
                let lits = self.constrs[c].lits;
                let other = if lits[0] == falsified { lits[1] } else { lits[0] };
                match self.lit_value(other) {
                    Some(true) => {}
                    None => self.assign(other, level, Some(c)),
                    Some(false) => {
                        self.unassign_to(start);
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// `cancelUntil(level)`: unassigns the variables assigned above `level`,
    /// from the end of the trail.
    pub fn cancel_until(&mut self, level: i32) -> Result<(), LitsError> {
        if level < 0 {
            return Err(LitsError::Negative(level));
        }
        if level > self.decision_level() {
            return Err(LitsError::AboveLevel(level));
        }
        let keep = self.trail.iter().take_while(|&&lit| self.var(lit).level <= Some(level)).count();
        self.unassign_to(keep);
        Ok(())
    }

    /// Removes the clause at `index` of the literal's watch list from both
    /// its watch lists, unless it is the reason of an assignment.
    pub fn remove(&mut self, var: i32, negative: bool, index: i32) -> Result<(), LitsError> {
        self.var_index(var)?;
        let at = usize::try_from(index).map_err(|_| LitsError::Negative(index))?;
        let lit = dimacs(var, negative);
        let node = self.list(lit).nth(at).ok_or(LitsError::NoSuchWatch { lit, index })?;
        let c = self.watch_nodes[node].constr;
        let lits = self.constrs[c].lits;
        if self.vars.iter().any(|v| v.reason == Some(c)) {
            return Err(LitsError::Locked(lits));
        }
        for lit in lits {
            self.unlink_watch(lit, c);
        }
        self.free_constrs.push(c);
        Ok(())
    }

    /// `resetPool`: no variables, no clauses.
    pub fn reset_pool(&mut self) {
        *self = Lits::default();
    }

    /// `nVars`: the highest variable.
    pub fn n_vars(&self) -> usize {
        self.vars.len()
    }

    /// `belongsToPool`: whether `var` is a variable.
    pub fn belongs_to_pool(&self, var: i32) -> bool {
        self.var_index(var).is_ok()
    }

    /// The number of decisions on the trail.
    pub fn decision_level(&self) -> i32 {
        self.trail.last().and_then(|&lit| self.var(lit).level).unwrap_or(0)
    }

    /// The number of clauses.
    pub fn n_constraints(&self) -> usize {
        self.constrs.len() - self.free_constrs.len()
    }

    /// `isUnassigned`.
    pub fn is_unassigned(&self, var: i32) -> Result<bool, LitsError> {
        Ok(self.vars[self.var_index(var)?].value.is_none())
    }

    /// `isSatisfied(lit)`: the literal is true.
    pub fn is_satisfied(&self, var: i32, negative: bool) -> Result<bool, LitsError> {
        self.var_index(var)?;
        Ok(self.lit_value(dimacs(var, negative)) == Some(true))
    }

    /// `isFalsified(lit)`: the literal is false.
    pub fn is_falsified(&self, var: i32, negative: bool) -> Result<bool, LitsError> {
        self.var_index(var)?;
        Ok(self.lit_value(dimacs(var, negative)) == Some(false))
    }

    /// `getLevel` (Sat4j's `-1` is `None`).
    pub fn get_level(&self, var: i32) -> Result<Option<i32>, LitsError> {
        Ok(self.vars[self.var_index(var)?].level)
    }

    /// `getReason`: the literals of the clause that implied `var`.
    pub fn get_reason(&self, var: i32) -> Result<Option<[i32; 2]>, LitsError> {
        Ok(self.vars[self.var_index(var)?].reason.map(|c| self.constrs[c].lits))
    }

    /// `getTrailPosition`: where `var`'s literal is on the trail.
    pub fn get_trail_position(&self, var: i32) -> Result<Option<usize>, LitsError> {
        let var = self.var_index(var)? as i32 + 1;
        Ok(self.trail.iter().position(|lit| lit.abs() == var))
    }

    /// `watches(lit)`: for each clause watching the literal, in order, its other literal.
    pub fn watches(&self, var: i32, negative: bool) -> Result<Vec<i32>, LitsError> {
        self.var_index(var)?;
        Ok(self.others(dimacs(var, negative)))
    }

    /// `watches(lit).size()`.
    pub fn watches_len(&self, var: i32, negative: bool) -> Result<usize, LitsError> {
        self.var_index(var)?;
        Ok(self.list(dimacs(var, negative)).count())
    }

    /// The assigned literals (DIMACS), in the order they were assigned.
    pub fn trail(&self) -> Vec<i32> {
        self.trail.clone()
    }

    /// The invariant:
    /// - each watch list is a `None`-terminated chain through `next`, with
    ///   links in bounds, of nodes each linking to a clause in bounds that
    ///   has the list's literal; no node is in two lists or twice in one (so
    ///   no list is cyclic); a clause on some list is on exactly the lists of
    ///   its two literals, once each;
    /// - a clause's literals are of two variables, the lower first; no two
    ///   clauses have the same literals;
    /// - a variable has a value exactly when it has a level, and a reason
    ///   only then; the trail holds the true literal of each assigned
    ///   variable, once; along it, each decision (no reason) is a negative
    ///   literal one level above the entry before it (the first at level 1),
    ///   and each implied variable at that entry's level;
    /// - a reason is a clause on the watch lists that has the variable's true
    ///   literal, and its other literal is false and earlier on the trail;
    /// - propagation is complete: a clause with a false literal has its other
    ///   literal true, at a level no higher (so no clause is false);
    /// - (port detail) free slots are in range, distinct and not reachable.
    pub fn rep_ok(&self) -> bool {
        let (n_constrs, n_nodes) = (self.constrs.len(), self.watch_nodes.len());
        let mut seen = vec![false; n_nodes];
        // on[c][i]: clause `c` is on the list of its literal `i`.
        let mut on = vec![[false; 2]; n_constrs];
        for v in 0..self.vars.len() {
            for negative in [false, true] {
                let lit = dimacs(v as i32 + 1, negative);
                let mut link = self.head(lit);
                while let Some(node) = link {
                    if node >= n_nodes || seen[node] {
                        return false;
                    }
                    seen[node] = true;
                    let WatchNode { constr, next } = self.watch_nodes[node];
                    let Some(at) = self.constrs.get(constr).and_then(|c| c.lits.iter().position(|&l| l == lit)) else {
                        return false;
                    };
                    if on[constr][at] {
                        return false;
                    }
                    on[constr][at] = true;
                    link = next;
                }
            }
        }
        let live = |c: usize| on[c] == [true, true];
        let mut clauses = Vec::new();
        for (c, lits) in on.iter().enumerate() {
            match lits {
                [false, false] => continue,
                [true, true] => {}
                _ => return false,
            }
            let [a, b] = self.constrs[c].lits;
            if a.abs() >= b.abs() || a == 0 {
                return false;
            }
            clauses.push([a, b]);
        }
        clauses.sort_unstable();
        if clauses.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        // The trail and the assignments.
        let mut position = vec![None; self.vars.len()];
        let mut previous = 0;
        for (at, &lit) in self.trail.iter().enumerate() {
            let Some(v) = (lit.unsigned_abs() as usize).checked_sub(1).filter(|&v| v < self.vars.len()) else {
                return false;
            };
            let var = &self.vars[v];
            if position[v].is_some() || var.value != Some(lit > 0) {
                return false;
            }
            position[v] = Some(at);
            let expected = if var.reason.is_none() { previous + 1 } else { previous };
            if var.level != Some(expected) || expected == 0 || (var.reason.is_none() && lit > 0) {
                return false;
            }
            previous = expected;
        }
        for (v, var) in self.vars.iter().enumerate() {
            if var.value.is_some() != position[v].is_some() || var.level.is_some() != position[v].is_some() {
                return false;
            }
            let Some(c) = var.reason else { continue };
            if c >= n_constrs || !live(c) {
                return false;
            }
            let true_lit = dimacs(v as i32 + 1, var.value == Some(false));
            let lits = self.constrs[c].lits;
            let Some(at) = lits.iter().position(|&l| l == true_lit) else { return false };
            let other = lits[1 - at];
            let earlier = position[other.unsigned_abs() as usize - 1].is_some_and(|p| Some(p) < position[v]);
            if self.lit_value(other) != Some(false) || !earlier {
                return false;
            }
        }
        // Propagation is complete.
        for [a, b] in clauses {
            for (falsified, other) in [(a, b), (b, a)] {
                if self.lit_value(falsified) == Some(false)
                    && (self.lit_value(other) != Some(true) || self.var(other).level > self.var(falsified).level)
                {
                    return false;
                }
            }
        }
        for &slot in &self.free_nodes {
            if slot >= n_nodes || seen[slot] {
                return false;
            }
            seen[slot] = true;
        }
        let mut freed = vec![false; n_constrs];
        for &slot in &self.free_constrs {
            if slot >= n_constrs || freed[slot] || on[slot] != [false, false] {
                return false;
            }
            freed[slot] = true;
        }
        true
    }
}

impl Lits {
    /// Each variable's content, from variable 1.
    pub fn content(&self) -> Vec<VarContent> {
        (0..self.vars.len())
            .map(|v| {
                let var = &self.vars[v];
                let id = v as i32 + 1;
                VarContent {
                    value: var.value,
                    level: var.level,
                    trail_position: self.trail.iter().position(|lit| lit.abs() == id),
                    reason: var.reason.map(|c| self.constrs[c].lits),
                    pos_watches: self.others(id),
                    neg_watches: self.others(-id),
                }
            })
            .collect()
    }

    fn var_index(&self, var: i32) -> Result<usize, LitsError> {
        match usize::try_from(var) {
            Ok(v) if (1..=self.vars.len()).contains(&v) => Ok(v - 1),
            _ => Err(LitsError::NoSuchVar(var)),
        }
    }

    /// The variable of a literal (which must exist).
    fn var(&self, lit: i32) -> &Var {
        &self.vars[lit.unsigned_abs() as usize - 1]
    }

    fn var_mut(&mut self, lit: i32) -> &mut Var {
        &mut self.vars[lit.unsigned_abs() as usize - 1]
    }

    /// The literal's truth value.
    fn lit_value(&self, lit: i32) -> Option<bool> {
        self.var(lit).value.map(|value| value == (lit > 0))
    }

    /// Makes `lit` true at `level` and puts it on the trail.
    fn assign(&mut self, lit: i32, level: i32, reason: Option<usize>) {
        let var = self.var_mut(lit);
        (var.value, var.level, var.reason) = (Some(lit > 0), Some(level), reason);
        self.trail.push(lit);
    }

    /// Unassigns the trail from position `keep` on.
    fn unassign_to(&mut self, keep: usize) {
        while self.trail.len() > keep {
            let lit = self.trail.pop().expect("longer than keep");
            let var = self.var_mut(lit);
            (var.value, var.level, var.reason) = (None, None, None);
        }
    }

    fn head(&self, lit: i32) -> Option<usize> {
        let var = self.var(lit);
        if lit < 0 {
            var.neg_watches
        } else {
            var.pos_watches
        }
    }

    fn head_mut(&mut self, lit: i32) -> &mut Option<usize> {
        let negative = lit < 0;
        let var = self.var_mut(lit);
        if negative {
            &mut var.neg_watches
        } else {
            &mut var.pos_watches
        }
    }

    /// The watch nodes of a literal, first to last.
    fn list(&self, lit: i32) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.head(lit), |&n| self.watch_nodes[n].next).take(self.watch_nodes.len())
    }

    /// For each clause watching `lit`, in order, its other literal.
    fn others(&self, lit: i32) -> Vec<i32> {
        self.list(lit)
            .map(|node| {
                let lits = self.constrs[self.watch_nodes[node].constr].lits;
                if lits[0] == lit {
                    lits[1]
                } else {
                    lits[0]
                }
            })
            .collect()
    }

    /// The node of `lit`'s list whose clause passes `test`, and the node before it.
    fn find_watch(&self, lit: i32, test: impl Fn(&Constr) -> bool) -> Option<(Option<usize>, usize)> {
        let mut previous = None;
        for node in self.list(lit) {
            if test(&self.constrs[self.watch_nodes[node].constr]) {
                return Some((previous, node));
            }
            previous = Some(node);
        }
        None
    }

    fn append_watch(&mut self, lit: i32, constr: usize) {
        let node = WatchNode { constr, next: None };
        let node = match self.free_nodes.pop() {
            Some(slot) => {
                self.watch_nodes[slot] = node;
                slot
            }
            None => {
                self.watch_nodes.push(node);
                self.watch_nodes.len() - 1
            }
        };
        match self.list(lit).last() {
            Some(last) => self.watch_nodes[last].next = Some(node),
            None => *self.head_mut(lit) = Some(node),
        }
    }

    fn unlink_watch(&mut self, lit: i32, constr: usize) {
        let lits = self.constrs[constr].lits;
        let (previous, node) = self.find_watch(lit, |c| c.lits == lits).expect("a clause is on its literals' lists");
        let next = self.watch_nodes[node].next;
        match previous {
            Some(p) => self.watch_nodes[p].next = next,
            None => *self.head_mut(lit) = next,
        }
        self.free_nodes.push(node);
    }
}

// Two stores are equal when their variables have the same values, levels,
// trail positions, reasons and watch lists, clauses compared by their
// literals ([`content`](Lits::content)); the arenas play no part.
compare_by_content!([] Lits, content);

#[cfg(test)]
mod tests;
