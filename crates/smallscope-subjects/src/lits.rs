//! `lits`: Sat4j's `Lits`, the variable store of its CDCL solvers
//! (`org.sat4j.minisat.core.ILits`, implemented by
//! `org.sat4j.minisat.constraints.cnf.Lits`), as in the builders-identification
//! paper's benchmark.
//!
//! Variables are `1..=n_vars()`. Each has a `level`, the decision level it
//! was assigned at (`None` while it is unassigned), a `reason`, the
//! constraint that implied it (`None` for a decision or an unassigned
//! variable), and for each of its two literals (`negative` false: `v`, true:
//! `¬v`) a watch list: the constraints to wake up when that literal becomes
//! false, in the order they registered (Sat4j's `watches(lit)`, an `IVec` of
//! `Propagatable`s that `watch(lit, c)` pushes onto).
//!
//! Heap shape: arena-based. `Lits { constrs: Vec<Constr>, watch_nodes:
//! Vec<WatchNode>, vars: Vec<Var> }`. A `Var { level, reason, pos_watches,
//! neg_watches }` is a record of Sat4j's parallel arrays (`level[]`,
//! `reason[]`, `watches[]`), stored inline; `reason` indexes a `Constr { id
//! }` and the watch heads index `WatchNode { constr, next }`s, each linking
//! to a `Constr`: a constraint a reason and several watch nodes refer to is
//! one shared object. Constraints are named by an integer id; the first
//! reference to an id creates its object. Slots of removed watch nodes go to
//! a `free` list that is not part of the structure; constraints no longer
//! referenced stay in their arena, unreachable, so they are not part of it
//! either. At scope N a structure has at most N constraints and N watch
//! nodes, and `ensure_pool(n)` takes `n < N`, so at most `N - 1` variables.
//!
//! Adaptations:
//! - a literal is a variable and a sign (`var, negative`), not Sat4j's
//!   encoding `2 * var + sign`: BEAPI's integers `0..N` would reach only one
//!   or two variables' literals;
//! - truth values (Sat4j's `falsified` flags, `satisfies`,
//!   `isSatisfied`/`isFalsified`) are not modelled: a variable is assigned
//!   exactly when it has a level, which keeps the product of the variables'
//!   states small enough for scope 3;
//! - there is no `nextFreeVarId`/`new_var`: variables are records, not
//!   objects, so only the integer domain bounds them, through `ensure_pool`;
//! - a constraint watches a literal at most once (Sat4j's `push` does not
//!   check, but its constraints never register twice): `watch` of a
//!   registered pair and `unwatch` of an absent one are misuse;
//! - `reset(var)` acts on the variable, as Sat4j's `reset(lit)` does (it
//!   clears the watches of both literals, the level and the reason); Sat4j's
//!   undo listeners (`undos(lit)`) are left out.
//!
//! Observers: `is_unassigned`, `get_level`, `get_reason`, `watches_len`,
//! `n_vars` and `belongs_to_pool` (they take `&self`). `undo`, `reset` and
//! `unwatch` change the structure but only remove things.
//!
//! A sufficient minimal builder set is `new, ensure_pool, set_level,
//! set_reason, watch`. Every valid store is built by `new`, `ensure_pool(n)`,
//! then for each variable `set_level` and `set_reason` if it has them, and
//! `watch` for each node of each list in order: the objects only grow along
//! the way, so the sequence stays within the store's scope. Each of these is
//! needed: it is the only way to make variables, levels, reasons or watches.
//! The removers are not: whatever they leave is built directly. BEAPI finds
//! 92 stores at scope 2 and 75 180 at scope 3, with these builders as with
//! the whole API, as the closed form in the tests predicts; scope 4 has
//! 222 455 164, too many to enumerate in a test run.
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! variables' contents, `(level, reason id, positive watches' ids, negative
//! watches' ids)` for each variable in order; the arenas play no part.

use smallscope::Heap;

/// A call that Sat4j would answer with an assertion failure or an
/// out-of-bounds access, or that its solvers never make: API misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LitsError {
    /// A variable outside `1..=n_vars()`.
    NoSuchVar(i32),
    /// A negative pool size, level or constraint id.
    Negative(i32),
    /// A reason for a variable without a level.
    Unassigned(i32),
    /// `watch` of a pair already registered.
    AlreadyWatching { var: i32, negative: bool, constr: i32 },
    /// `unwatch` of a pair not registered.
    NotWatching { var: i32, negative: bool, constr: i32 },
}

#[derive(Heap, Clone, Debug, Default)]
pub struct Lits {
    #[heap(arena)]
    constrs: Vec<Constr>,
    #[heap(arena)]
    watch_nodes: Vec<WatchNode>,
    /// `vars[v - 1]` is variable `v`.
    vars: Vec<Var>,
    /// Arena slots of removed watch nodes.
    #[heap(skip)]
    free: Vec<usize>,
}

/// One variable: its entries of Sat4j's `level[]`, `reason[]` and `watches[]`.
#[derive(Heap, Clone, Debug, Default)]
struct Var {
    level: Option<i32>,
    #[heap(index = "constrs")]
    reason: Option<usize>,
    #[heap(index = "watch_nodes")]
    pos_watches: Option<usize>,
    #[heap(index = "watch_nodes")]
    neg_watches: Option<usize>,
}

/// A constraint (a clause), known by its id.
#[derive(Heap, Clone, Debug)]
struct Constr {
    id: i32,
}

/// An entry of a watch list.
#[derive(Heap, Clone, Debug)]
struct WatchNode {
    #[heap(index = "constrs")]
    constr: usize,
    #[heap(index = "watch_nodes")]
    next: Option<usize>,
}

/// The variables' contents: `(level, reason id, positive watches, negative watches)`.
pub type VarContent = (Option<i32>, Option<i32>, Vec<i32>, Vec<i32>);

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

    /// `setLevel`: `var` is assigned at decision level `level` (a new level
    /// replaces the old one, as in chronological backtracking).
    pub fn set_level(&mut self, var: i32, level: i32) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        if level < 0 {
            return Err(LitsError::Negative(level));
        }
        self.vars[v].level = Some(level);
        Ok(())
    }

    /// `setReason`: constraint `constr` implied the assigned `var`.
    pub fn set_reason(&mut self, var: i32, constr: i32) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        if self.vars[v].level.is_none() {
            return Err(LitsError::Unassigned(var));
        }
        let c = self.constr(constr)?;
        self.vars[v].reason = Some(c);
        Ok(())
    }

    /// `watch(lit, c)`: appends `constr` to the watch list of the literal.
    pub fn watch(&mut self, var: i32, negative: bool, constr: i32) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        if self.find_watch(v, negative, constr).is_some() {
            return Err(LitsError::AlreadyWatching { var, negative, constr });
        }
        let c = self.constr(constr)?;
        let node = self.alloc(WatchNode { constr: c, next: None });
        match self.list(v, negative).last() {
            Some(last) => self.watch_nodes[last].next = Some(node),
            None => *self.head_mut(v, negative) = Some(node),
        }
        Ok(())
    }

    /// `watches(lit).remove(c)`: takes `constr` off the literal's watch list.
    pub fn unwatch(&mut self, var: i32, negative: bool, constr: i32) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        let (previous, node) =
            self.find_watch(v, negative, constr).ok_or(LitsError::NotWatching { var, negative, constr })?;
        let next = self.watch_nodes[node].next;
        match previous {
            Some(p) => self.watch_nodes[p].next = next,
            None => *self.head_mut(v, negative) = next,
        }
        self.free.push(node);
        Ok(())
    }

    /// The solver's `undoOne` on `var`: unassigns it, forgetting its level
    /// and reason (nothing to do if it is unassigned).
    pub fn undo(&mut self, var: i32) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        self.vars[v].level = None;
        self.vars[v].reason = None;
        Ok(())
    }

    /// `reset(lit)`: unassigns `var` and clears the watch lists of both its literals.
    pub fn reset(&mut self, var: i32) -> Result<(), LitsError> {
        let v = self.var_index(var)?;
        for negative in [false, true] {
            let nodes: Vec<usize> = self.list(v, negative).collect();
            self.free.extend(nodes);
            *self.head_mut(v, negative) = None;
        }
        self.undo(var)
    }

    /// `isUnassigned`: whether `var` has no level.
    pub fn is_unassigned(&self, var: i32) -> Result<bool, LitsError> {
        Ok(self.vars[self.var_index(var)?].level.is_none())
    }

    /// `getLevel` (Sat4j's `-1` is `None`).
    pub fn get_level(&self, var: i32) -> Result<Option<i32>, LitsError> {
        Ok(self.vars[self.var_index(var)?].level)
    }

    /// `getReason`: the id of the constraint that implied `var`.
    pub fn get_reason(&self, var: i32) -> Result<Option<i32>, LitsError> {
        Ok(self.vars[self.var_index(var)?].reason.map(|c| self.constrs[c].id))
    }

    /// `watches(lit).size()`.
    pub fn watches_len(&self, var: i32, negative: bool) -> Result<usize, LitsError> {
        Ok(self.list(self.var_index(var)?, negative).count())
    }

    /// `nVars`: the highest variable.
    pub fn n_vars(&self) -> usize {
        self.vars.len()
    }

    /// `belongsToPool`: whether `var` is a variable.
    pub fn belongs_to_pool(&self, var: i32) -> bool {
        self.var_index(var).is_ok()
    }

    /// The invariant:
    /// - constraint ids are distinct and non-negative (an id names one object);
    /// - a variable without a level has no reason; levels are non-negative;
    ///   reasons are in bounds;
    /// - each watch list is a `None`-terminated chain through `next` with
    ///   links in bounds, of nodes each linking to a constraint in bounds,
    ///   with no constraint twice; no node is in two lists or twice in one
    ///   (so no list is cyclic);
    /// - (port detail) free slots are in range, distinct and not reachable.
    pub fn rep_ok(&self) -> bool {
        let mut ids: Vec<i32> = self.constrs.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        if ids.first().is_some_and(|&id| id < 0) || ids.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        let len = self.watch_nodes.len();
        let mut seen = vec![false; len];
        for var in &self.vars {
            match var.level {
                None if var.reason.is_some() => return false,
                Some(level) if level < 0 => return false,
                _ => {}
            }
            if var.reason.is_some_and(|c| c >= self.constrs.len()) {
                return false;
            }
            for head in [var.pos_watches, var.neg_watches] {
                let mut constrs = Vec::new();
                let mut link = head;
                while let Some(node) = link {
                    if node >= len || seen[node] {
                        return false;
                    }
                    seen[node] = true;
                    let n = &self.watch_nodes[node];
                    if n.constr >= self.constrs.len() || constrs.contains(&n.constr) {
                        return false;
                    }
                    constrs.push(n.constr);
                    link = n.next;
                }
            }
        }
        for &slot in &self.free {
            if slot >= len || seen[slot] {
                return false;
            }
            seen[slot] = true;
        }
        true
    }
}

impl Lits {
    /// Each variable's `(level, reason id, positive watches, negative watches)`, from variable 1.
    pub fn content(&self) -> Vec<VarContent> {
        (0..self.vars.len())
            .map(|v| {
                let var = &self.vars[v];
                let ids =
                    |negative| self.list(v, negative).map(|n| self.constrs[self.watch_nodes[n].constr].id).collect();
                (var.level, var.reason.map(|c| self.constrs[c].id), ids(false), ids(true))
            })
            .collect()
    }

    /// The ids of the constraints watching the literal, in order (empty for no variable).
    pub fn watches(&self, var: i32, negative: bool) -> Vec<i32> {
        match self.var_index(var) {
            Ok(v) => self.list(v, negative).map(|n| self.constrs[self.watch_nodes[n].constr].id).collect(),
            Err(_) => Vec::new(),
        }
    }

    fn var_index(&self, var: i32) -> Result<usize, LitsError> {
        match usize::try_from(var) {
            Ok(v) if (1..=self.vars.len()).contains(&v) => Ok(v - 1),
            _ => Err(LitsError::NoSuchVar(var)),
        }
    }

    /// The arena slot of constraint `id`, created if absent.
    fn constr(&mut self, id: i32) -> Result<usize, LitsError> {
        if id < 0 {
            return Err(LitsError::Negative(id));
        }
        Ok(match self.constrs.iter().position(|c| c.id == id) {
            Some(c) => c,
            None => {
                self.constrs.push(Constr { id });
                self.constrs.len() - 1
            }
        })
    }

    fn head(&self, v: usize, negative: bool) -> Option<usize> {
        if negative {
            self.vars[v].neg_watches
        } else {
            self.vars[v].pos_watches
        }
    }

    fn head_mut(&mut self, v: usize, negative: bool) -> &mut Option<usize> {
        if negative {
            &mut self.vars[v].neg_watches
        } else {
            &mut self.vars[v].pos_watches
        }
    }

    /// The watch nodes of a literal, first to last.
    fn list(&self, v: usize, negative: bool) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.head(v, negative), |&n| self.watch_nodes[n].next).take(self.watch_nodes.len())
    }

    /// The node of the literal's list that links to constraint `id`, and the node before it.
    fn find_watch(&self, v: usize, negative: bool, id: i32) -> Option<(Option<usize>, usize)> {
        let mut previous = None;
        for node in self.list(v, negative) {
            if self.constrs[self.watch_nodes[node].constr].id == id {
                return Some((previous, node));
            }
            previous = Some(node);
        }
        None
    }

    fn alloc(&mut self, node: WatchNode) -> usize {
        match self.free.pop() {
            Some(slot) => {
                self.watch_nodes[slot] = node;
                slot
            }
            None => {
                self.watch_nodes.push(node);
                self.watch_nodes.len() - 1
            }
        }
    }
}

// Two stores are equal when their variables have the same levels, the same
// reasons and the same watch lists, constraints compared by id
// ([`content`](Lits::content)); the arenas play no part.
compare_by_content!([] Lits, content);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, XorShift};
    use smallscope::heap::canonical_text;
    use smallscope::{Beapi, Builders};

    /// The oracle: each variable's content, as plain values.
    #[derive(Default, Debug)]
    struct Model(Vec<VarContent>);

    impl Model {
        fn var(&mut self, var: i32) -> Option<&mut VarContent> {
            let v = usize::try_from(var).ok()?.checked_sub(1)?;
            self.0.get_mut(v)
        }

        fn list(var: &mut VarContent, negative: bool) -> &mut Vec<i32> {
            if negative {
                &mut var.3
            } else {
                &mut var.2
            }
        }

        fn ensure_pool(&mut self, n: i32) -> bool {
            let Ok(n) = usize::try_from(n) else { return false };
            if self.0.len() < n {
                self.0.resize(n, (None, None, Vec::new(), Vec::new()));
            }
            true
        }

        fn set_level(&mut self, var: i32, level: i32) -> bool {
            match self.var(var) {
                Some(v) if level >= 0 => {
                    v.0 = Some(level);
                    true
                }
                _ => false,
            }
        }

        fn set_reason(&mut self, var: i32, constr: i32) -> bool {
            match self.var(var) {
                Some(v) if v.0.is_some() && constr >= 0 => {
                    v.1 = Some(constr);
                    true
                }
                _ => false,
            }
        }

        fn watch(&mut self, var: i32, negative: bool, constr: i32) -> bool {
            let Some(v) = self.var(var) else { return false };
            let list = Self::list(v, negative);
            if list.contains(&constr) || constr < 0 {
                return false;
            }
            list.push(constr);
            true
        }

        fn unwatch(&mut self, var: i32, negative: bool, constr: i32) -> bool {
            let Some(v) = self.var(var) else { return false };
            let list = Self::list(v, negative);
            let Some(at) = list.iter().position(|&c| c == constr) else { return false };
            list.remove(at);
            true
        }

        fn undo(&mut self, var: i32) -> bool {
            let Some(v) = self.var(var) else { return false };
            v.0 = None;
            v.1 = None;
            true
        }

        fn reset(&mut self, var: i32) -> bool {
            let Some(v) = self.var(var) else { return false };
            *v = (None, None, Vec::new(), Vec::new());
            true
        }
    }

    /// Checks every observer against the model, and that none changes the heap.
    fn check_observers(l: &Lits, m: &Model) {
        let before = canonical_text(l);
        assert_eq!(l.n_vars(), m.0.len());
        for var in -1..=m.0.len() as i32 + 1 {
            let content = usize::try_from(var).ok().and_then(|v| v.checked_sub(1)).and_then(|v| m.0.get(v));
            assert_eq!(l.belongs_to_pool(var), content.is_some());
            assert_eq!(l.is_unassigned(var).ok(), content.map(|c| c.0.is_none()));
            assert_eq!(l.get_level(var).ok(), content.map(|c| c.0));
            assert_eq!(l.get_reason(var).ok(), content.map(|c| c.1));
            assert_eq!(l.watches_len(var, false).ok(), content.map(|c| c.2.len()));
            assert_eq!(l.watches_len(var, true).ok(), content.map(|c| c.3.len()));
        }
        assert_eq!(canonical_text(l), before, "an observer changed the heap");
    }

    /// One random call on both, with the same verdict.
    fn step(l: &mut Lits, m: &mut Model, rng: &mut XorShift) {
        let var = rng.below(5) as i32 - 1;
        let n = rng.below(5) as i32 - 1;
        let constr = rng.below(5) as i32 - 1;
        let negative = rng.below(2) == 0;
        match rng.below(20) {
            0..=1 => assert_eq!(l.ensure_pool(n).is_ok(), m.ensure_pool(n)),
            2..=5 => assert_eq!(l.set_level(var, n).is_ok(), m.set_level(var, n)),
            6..=8 => assert_eq!(l.set_reason(var, constr).is_ok(), m.set_reason(var, constr)),
            9..=13 => assert_eq!(l.watch(var, negative, constr).is_ok(), m.watch(var, negative, constr)),
            14..=16 => assert_eq!(l.unwatch(var, negative, constr).is_ok(), m.unwatch(var, negative, constr)),
            17..=18 => assert_eq!(l.undo(var).is_ok(), m.undo(var)),
            _ => assert_eq!(l.reset(var).is_ok(), m.reset(var)),
        }
    }

    #[test]
    fn differential_against_a_model() {
        let mut rng = XorShift(0x1175_5A74_0B5E_55ED);
        for _ in 0..3000 {
            let mut l = Lits::new();
            let mut m = Model::default();
            for _ in 0..rng.below(40) {
                step(&mut l, &mut m, &mut rng);
                assert!(l.rep_ok(), "{l:?}");
                assert_eq!(l.content(), m.0);
                check_observers(&l, &m);
                // Removed watch nodes are recycled.
                let live: usize = m.0.iter().map(|v| v.2.len() + v.3.len()).sum();
                assert_eq!(l.watch_nodes.len(), live + l.free.len());
            }
        }
    }

    #[test]
    fn misuse_is_an_error() {
        let mut l = Lits::new();
        assert_eq!(l.ensure_pool(-1), Err(LitsError::Negative(-1)));
        assert_eq!(l.set_level(1, 0), Err(LitsError::NoSuchVar(1)));
        l.ensure_pool(2).unwrap();
        assert_eq!(l.set_level(0, 0), Err(LitsError::NoSuchVar(0)));
        assert_eq!(l.set_level(3, 0), Err(LitsError::NoSuchVar(3)));
        assert_eq!(l.set_level(1, -1), Err(LitsError::Negative(-1)));
        assert_eq!(l.set_reason(1, 0), Err(LitsError::Unassigned(1)));
        l.set_level(1, 0).unwrap();
        assert_eq!(l.set_reason(1, -2), Err(LitsError::Negative(-2)));
        l.watch(2, true, 0).unwrap();
        assert_eq!(l.watch(2, true, 0), Err(LitsError::AlreadyWatching { var: 2, negative: true, constr: 0 }));
        assert_eq!(l.unwatch(2, false, 0), Err(LitsError::NotWatching { var: 2, negative: false, constr: 0 }));
        assert_eq!(l.is_unassigned(3), Err(LitsError::NoSuchVar(3)));
        assert!(!l.belongs_to_pool(0));
        // Shrinking is not a thing.
        l.ensure_pool(1).unwrap();
        assert_eq!(l.n_vars(), 2);
        assert!(l.rep_ok());
    }

    #[test]
    fn a_constraint_is_one_shared_object() {
        let mut l = Lits::new();
        l.ensure_pool(1).unwrap();
        l.set_level(1, 2).unwrap();
        l.set_reason(1, 1).unwrap();
        l.watch(1, false, 1).unwrap();
        l.watch(1, false, 0).unwrap();
        l.watch(1, true, 1).unwrap();
        assert_eq!(
            canonical_text(&l),
            "Lits#0{vars: [Var{level: 2, reason: Constr#1{id: 1}, \
             pos_watches: WatchNode#2{constr: @1, next: WatchNode#3{constr: Constr#4{id: 0}, next: null}}, \
             neg_watches: WatchNode#5{constr: @1, next: null}}]}"
        );
        assert_eq!(l.content(), [(Some(2), Some(1), vec![1, 0], vec![1])]);
        l.unwatch(1, false, 1).unwrap();
        assert_eq!(l.watches(1, false), [0]);
        l.reset(1).unwrap();
        assert_eq!(l.content(), [(None, None, vec![], vec![])]);
        assert_eq!(l.free.len(), 3);
        l.watch(1, true, 2).unwrap();
        assert_eq!(l.watch_nodes.len(), 3);
        assert!(l.rep_ok());
    }

    #[test]
    fn equality_ignores_the_arenas() {
        let mut a = Lits::new();
        a.ensure_pool(2).unwrap();
        a.watch(2, false, 1).unwrap();
        let mut b = Lits::new();
        b.ensure_pool(1).unwrap();
        b.set_level(1, 0).unwrap();
        b.set_reason(1, 0).unwrap();
        b.watch(1, true, 2).unwrap();
        b.ensure_pool(2).unwrap();
        b.watch(2, false, 1).unwrap();
        b.reset(1).unwrap();
        assert_eq!(a, b);
        assert_eq!(canonical_text(&a), canonical_text(&b));
        let hash = |l: &Lits| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            l.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&a), hash(&b));
        let mut c = a.clone();
        c.set_level(1, 0).unwrap();
        assert_ne!(a, c);
        assert!(a < c);
        assert_eq!(c.clone(), c);
    }

    /// Variable 1 at level 1 by constraint 0, watched by 0 and 1; variable 2
    /// unassigned, its negative literal watched by 1.
    fn sample() -> Lits {
        let mut l = Lits::new();
        l.ensure_pool(2).unwrap();
        l.set_level(1, 1).unwrap();
        l.set_reason(1, 0).unwrap();
        l.watch(1, false, 0).unwrap();
        l.watch(1, false, 1).unwrap();
        l.watch(2, true, 1).unwrap();
        l.watch(2, true, 2).unwrap();
        l.unwatch(2, true, 2).unwrap();
        assert!(l.rep_ok());
        l
    }

    #[test]
    fn rep_ok_rejects_a_reason_without_a_level() {
        assert_rejects(sample(), |l| l.vars[0].level = None);
    }

    #[test]
    fn rep_ok_rejects_a_negative_level() {
        assert_rejects(sample(), |l| l.vars[0].level = Some(-1));
    }

    #[test]
    fn rep_ok_rejects_duplicate_constraint_ids() {
        assert_rejects(sample(), |l| l.constrs[1].id = 0);
        assert_rejects(sample(), |l| l.constrs[1].id = -1);
    }

    #[test]
    fn rep_ok_rejects_a_cyclic_watch_list() {
        assert_rejects(sample(), |l| {
            let first = l.vars[0].pos_watches.unwrap();
            let second = l.watch_nodes[first].next.unwrap();
            l.watch_nodes[second].next = Some(first);
        });
    }

    #[test]
    fn rep_ok_rejects_shared_watch_nodes() {
        assert_rejects(sample(), |l| l.vars[1].pos_watches = l.vars[0].pos_watches);
    }

    #[test]
    fn rep_ok_rejects_a_constraint_twice_in_a_list() {
        assert_rejects(sample(), |l| {
            let first = l.vars[0].pos_watches.unwrap();
            let second = l.watch_nodes[first].next.unwrap();
            l.watch_nodes[second].constr = l.watch_nodes[first].constr;
        });
    }

    #[test]
    fn rep_ok_rejects_dangling_links_and_live_free_slots() {
        assert_rejects(sample(), |l| l.vars[0].reason = Some(99));
        assert_rejects(sample(), |l| l.vars[1].pos_watches = Some(99));
        assert_rejects(sample(), |l| {
            let first = l.vars[0].pos_watches.unwrap();
            l.watch_nodes[first].constr = 99;
        });
        assert_rejects(sample(), |l| l.free.push(l.vars[1].neg_watches.unwrap()));
    }

    fn count(scope: u32, builders: Builders) -> usize {
        let report = Beapi::<Lits>::new().scope(scope).builders(builders).run().unwrap();
        assert!(!report.stopped_early());
        assert!(report.failures.is_empty(), "scope {scope}: {:?}", report.failures);
        report.structure_count()
    }

    fn named(names: &[&str]) -> Builders {
        Builders::Named(names.iter().map(|n| n.to_string()).collect())
    }

    const BUILDERS: [&str; 5] = ["new", "ensure_pool", "set_level", "set_reason", "watch"];

    /// The number of valid stores at scope `n`, counted here: `v < n`
    /// variables, each unassigned or at one of `n` levels with no reason or
    /// one of `n` constraints, times the ways to fill `2v` watch lists with
    /// at most `n` nodes in all, each list of distinct constraints out of `n`.
    fn closed_form(scope: u32) -> usize {
        let n = scope as usize;
        let arrangements = |k: usize| (n - k + 1..=n).product::<usize>();
        (0..n)
            .map(|vars| {
                // ways[used]: fillings of the lists so far with `used` nodes.
                let mut ways = vec![0usize; n + 1];
                ways[0] = 1;
                for _ in 0..2 * vars {
                    let mut next = vec![0usize; n + 1];
                    for (used, &w) in ways.iter().enumerate() {
                        for k in 0..=n - used {
                            next[used + k] += w * arrangements(k);
                        }
                    }
                    ways = next;
                }
                (1 + n * (n + 1)).pow(vars as u32) * ways.iter().sum::<usize>()
            })
            .sum()
    }

    #[test]
    fn structure_counts_builders_match_the_whole_api() {
        assert_eq!([1, 2, 3, 4].map(closed_form), [1, 92, 75_180, 222_455_164]);
        for scope in [1, 2] {
            assert_eq!(count(scope, Builders::All), closed_form(scope), "scope {scope}");
            assert_eq!(count(scope, named(&BUILDERS)), closed_form(scope), "scope {scope}");
        }
    }

    #[test]
    fn structure_counts_each_builder_is_needed() {
        let all = count(2, named(&BUILDERS));
        // `new`, the only constructor, stays.
        for left_out in &BUILDERS[1..] {
            let fewer: Vec<&str> = BUILDERS.iter().copied().filter(|b| b != left_out).collect();
            assert!(count(2, named(&fewer)) < all, "{left_out} is not needed");
        }
    }
}
