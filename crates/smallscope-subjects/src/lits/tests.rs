//! Tests of `lits`.

use super::*;
use crate::testing::{assert_rejects, XorShift};
use smallscope::heap::canonical_text;
use smallscope::{Beapi, Builders};
use std::collections::HashSet;

/// The oracle, as plain values: the watch lists are not stored but
/// derived, each the clauses with its literal in registration order.
#[derive(Clone, Default, Debug)]
struct Model {
    n: usize,
    /// The clauses (DIMACS, the lower variable first), in registration order.
    clauses: Vec<[i32; 2]>,
    /// The trail: each literal with its level and reason.
    trail: Vec<(i32, i32, Option<[i32; 2]>)>,
}

impl Model {
    fn exists(&self, var: i32) -> bool {
        (1..=self.n as i32).contains(&var)
    }

    fn entry(&self, var: i32) -> Option<&(i32, i32, Option<[i32; 2]>)> {
        self.trail.iter().find(|t| t.0.abs() == var)
    }

    fn value(&self, lit: i32) -> Option<bool> {
        self.entry(lit.abs()).map(|t| t.0 == lit)
    }

    fn level(&self) -> i32 {
        self.trail.last().map_or(0, |t| t.1)
    }

    /// The clauses with `lit`, in registration order.
    fn watchers(&self, lit: i32) -> Vec<[i32; 2]> {
        self.clauses.iter().filter(|c| c.contains(&lit)).copied().collect()
    }

    /// For each clause with `lit`, in registration order, its other literal.
    fn others(&self, lit: i32) -> Vec<i32> {
        self.watchers(lit).iter().map(|c| if c[0] == lit { c[1] } else { c[0] }).collect()
    }

    fn ensure_pool(&mut self, n: i32) -> bool {
        let Ok(n) = usize::try_from(n) else { return false };
        self.n = self.n.max(n);
        true
    }

    fn add_clause(&mut self, var: i32, negative: bool, other: i32, other_negative: bool) -> bool {
        if !self.exists(var) || !self.exists(other) || var == other || !self.trail.is_empty() {
            return false;
        }
        let mut clause = [dimacs(var, negative), dimacs(other, other_negative)];
        clause.sort_by_key(|l| l.abs());
        if self.clauses.contains(&clause) {
            return false;
        }
        self.clauses.push(clause);
        true
    }

    /// `None` on misuse.
    fn assume(&mut self, var: i32) -> Option<bool> {
        if !self.exists(var) || self.entry(var).is_some() {
            return None;
        }
        let (start, level) = (self.trail.len(), self.level() + 1);
        self.trail.push((-var, level, None));
        let mut next = start;
        while let Some(&(lit, _, _)) = self.trail.get(next) {
            next += 1;
            for clause in self.watchers(-lit) {
                let other = if clause[0] == -lit { clause[1] } else { clause[0] };
                match self.value(other) {
                    Some(true) => {}
                    Some(false) => {
                        self.trail.truncate(start);
                        return Some(false);
                    }
                    None => self.trail.push((other, level, Some(clause))),
                }
            }
        }
        Some(true)
    }

    fn cancel_until(&mut self, level: i32) -> bool {
        if !(0..=self.level()).contains(&level) {
            return false;
        }
        self.trail.retain(|t| t.1 <= level);
        true
    }

    fn remove(&mut self, var: i32, negative: bool, index: i32) -> bool {
        let Ok(index) = usize::try_from(index) else { return false };
        if !self.exists(var) {
            return false;
        }
        let Some(&clause) = self.watchers(dimacs(var, negative)).get(index) else { return false };
        if self.trail.iter().any(|t| t.2 == Some(clause)) {
            return false;
        }
        self.clauses.retain(|&c| c != clause);
        true
    }

    fn content(&self) -> Vec<VarContent> {
        (1..=self.n as i32)
            .map(|var| {
                let entry = self.entry(var);
                VarContent {
                    value: entry.map(|t| t.0 > 0),
                    level: entry.map(|t| t.1),
                    trail_position: self.trail.iter().position(|t| t.0.abs() == var),
                    reason: entry.and_then(|t| t.2),
                    pos_watches: self.others(var),
                    neg_watches: self.others(-var),
                }
            })
            .collect()
    }
}

/// Checks every observer against the model, and that none changes the heap.
fn check_observers(l: &Lits, m: &Model) {
    let before = canonical_text(l);
    assert_eq!(l.n_vars(), m.n);
    assert_eq!(l.decision_level(), m.level());
    assert_eq!(l.n_constraints(), m.clauses.len());
    assert_eq!(l.trail(), m.trail.iter().map(|t| t.0).collect::<Vec<_>>());
    for var in -1..=m.n as i32 + 1 {
        let exists = m.exists(var).then_some(());
        assert_eq!(l.belongs_to_pool(var), exists.is_some());
        assert_eq!(l.is_unassigned(var).ok(), exists.map(|_| m.entry(var).is_none()));
        assert_eq!(l.get_level(var).ok(), exists.map(|_| m.entry(var).map(|t| t.1)));
        assert_eq!(l.get_reason(var).ok(), exists.map(|_| m.entry(var).and_then(|t| t.2)));
        let position = m.trail.iter().position(|t| t.0.abs() == var);
        assert_eq!(l.get_trail_position(var).ok(), exists.map(|_| position));
        for negative in [false, true] {
            let lit = dimacs(var, negative);
            assert_eq!(l.is_satisfied(var, negative).ok(), exists.map(|_| m.value(lit) == Some(true)));
            assert_eq!(l.is_falsified(var, negative).ok(), exists.map(|_| m.value(lit) == Some(false)));
            assert_eq!(l.watches_len(var, negative).ok(), exists.map(|_| m.others(lit).len()));
            assert_eq!(l.watches(var, negative).ok(), exists.map(|_| m.others(lit)));
        }
    }
    assert_eq!(canonical_text(l), before, "an observer changed the heap");
}

/// One random call on both, with the same verdict; whether it was an
/// `assume` that ran into a conflict.
fn step(l: &mut Lits, m: &mut Model, rng: &mut XorShift) -> bool {
    let mut small = || rng.below(6) as i32 - 1;
    let (var, other, n) = (small(), small(), small());
    let negative = rng.below(2) == 0;
    let other_negative = rng.below(2) == 0;
    match rng.below(20) {
        0..=1 => assert_eq!(l.ensure_pool(n).is_ok(), m.ensure_pool(n)),
        2..=7 => assert_eq!(
            l.add_clause(var, negative, other, other_negative).is_ok(),
            m.add_clause(var, negative, other, other_negative)
        ),
        8..=13 => {
            let verdict = l.assume(var).ok();
            assert_eq!(verdict, m.assume(var));
            return verdict == Some(false);
        }
        14..=16 => assert_eq!(l.cancel_until(n).is_ok(), m.cancel_until(n)),
        17..=18 => assert_eq!(l.remove(var, negative, n).is_ok(), m.remove(var, negative, n)),
        _ => {
            l.reset_pool();
            *m = Model::default();
        }
    }
    false
}

#[test]
fn differential_against_a_model() {
    let mut rng = XorShift(0x1175_5A74_0B5E_55ED);
    let mut conflicts = 0;
    for _ in 0..3000 {
        let mut l = Lits::new();
        let mut m = Model::default();
        for _ in 0..rng.below(40) {
            conflicts += usize::from(step(&mut l, &mut m, &mut rng));
            assert!(l.rep_ok(), "{l:?}");
            assert_eq!(l.content(), m.content());
            check_observers(&l, &m);
            // Removed clauses and watch nodes are recycled.
            assert_eq!(l.constrs.len(), m.clauses.len() + l.free_constrs.len());
            assert_eq!(l.watch_nodes.len(), 2 * m.clauses.len() + l.free_nodes.len());
        }
    }
    assert!(conflicts > 0);
}

#[test]
fn propagation_follows_the_watch_lists() {
    let mut l = Lits::new();
    l.ensure_pool(3).unwrap();
    // 1 ∨ 2, ¬1 ∨ 3, 1 ∨ 3: deciding ¬2 implies 1 by the first, then 3 by the second.
    l.add_clause(2, false, 1, false).unwrap();
    l.add_clause(1, true, 3, false).unwrap();
    l.add_clause(1, false, 3, false).unwrap();
    assert_eq!(l.watches(1, false), Ok(vec![2, 3]));
    assert_eq!(l.watches(3, false), Ok(vec![-1, 1]));
    assert_eq!(l.assume(2), Ok(true));
    assert_eq!(l.trail(), [-2, 1, 3]);
    assert_eq!(l.get_reason(1), Ok(Some([1, 2])));
    assert_eq!(l.get_reason(3), Ok(Some([-1, 3])));
    assert_eq!(l.get_level(3), Ok(Some(1)));
    assert_eq!(l.get_trail_position(3), Ok(Some(2)));
    assert!(l.is_falsified(1, true).unwrap() && l.is_satisfied(2, true).unwrap());
    // The reasons are locked; the third clause is not.
    assert_eq!(l.remove(2, false, 0), Err(LitsError::Locked([1, 2])));
    l.remove(3, false, 1).unwrap();
    assert_eq!(l.watches(1, false), Ok(vec![2]));
    assert!(l.rep_ok());
    l.cancel_until(0).unwrap();
    assert_eq!(l.trail(), [] as [i32; 0]);
    // ¬1 implies 2 by 1 ∨ 2.
    assert_eq!(l.assume(1), Ok(true));
    assert_eq!(l.trail(), [-1, 2]);
    assert_eq!(l.decision_level(), 1);
    l.cancel_until(0).unwrap();
    // ¬3 implies ¬1 by ¬1 ∨ 3, which implies 2 by 1 ∨ 2.
    assert_eq!(l.assume(3), Ok(true));
    assert_eq!(l.trail(), [-3, -1, 2]);
    assert_eq!(l.get_reason(1), Ok(Some([-1, 3])));
    assert_eq!(l.get_reason(2), Ok(Some([1, 2])));
    assert!(l.rep_ok());
}

#[test]
fn a_conflict_cancels_the_decision() {
    let mut l = Lits::new();
    l.ensure_pool(3).unwrap();
    // 1 ∨ 2, 1 ∨ ¬2: deciding ¬1 implies 2, then falsifies the second.
    l.add_clause(1, false, 2, false).unwrap();
    l.add_clause(1, false, 2, true).unwrap();
    l.assume(3).unwrap();
    let before = l.clone();
    assert_eq!(l.assume(1), Ok(false));
    assert_eq!(canonical_text(&l), canonical_text(&before));
    assert_eq!(l.trail(), [-3]);
    // Deciding ¬2 implies 1, at level 2.
    assert_eq!(l.assume(2), Ok(true));
    assert_eq!(l.trail(), [-3, -2, 1]);
    assert_eq!(l.get_level(1), Ok(Some(2)));
    assert!(l.rep_ok());
}

#[test]
fn misuse_is_an_error() {
    let mut l = Lits::new();
    assert_eq!(l.ensure_pool(-1), Err(LitsError::Negative(-1)));
    assert_eq!(l.assume(1), Err(LitsError::NoSuchVar(1)));
    l.ensure_pool(2).unwrap();
    assert_eq!(l.assume(0), Err(LitsError::NoSuchVar(0)));
    assert_eq!(l.add_clause(1, false, 3, false), Err(LitsError::NoSuchVar(3)));
    assert_eq!(l.add_clause(1, false, 1, true), Err(LitsError::SameVar(1)));
    l.add_clause(2, true, 1, false).unwrap();
    assert_eq!(l.add_clause(1, false, 2, true), Err(LitsError::Duplicate([1, -2])));
    assert_eq!(l.remove(1, false, 1), Err(LitsError::NoSuchWatch { lit: 1, index: 1 }));
    assert_eq!(l.remove(1, false, -1), Err(LitsError::Negative(-1)));
    assert_eq!(l.cancel_until(1), Err(LitsError::AboveLevel(1)));
    l.assume(1).unwrap();
    assert_eq!(l.assume(2), Err(LitsError::Assigned(2)));
    assert_eq!(l.add_clause(1, false, 2, false), Err(LitsError::Searching));
    assert_eq!(l.cancel_until(-1), Err(LitsError::Negative(-1)));
    assert_eq!(l.is_unassigned(3), Err(LitsError::NoSuchVar(3)));
    assert!(!l.belongs_to_pool(0));
    // Shrinking is not a thing.
    l.ensure_pool(1).unwrap();
    assert_eq!(l.n_vars(), 2);
    assert!(l.rep_ok());
}

#[test]
fn a_clause_is_one_shared_object() {
    let mut l = Lits::new();
    l.ensure_pool(2).unwrap();
    l.add_clause(2, false, 1, false).unwrap();
    l.assume(1).unwrap();
    assert_eq!(
        canonical_text(&l),
        "Lits#0{vars: [Var{value: false, level: 1, reason: null, \
         pos_watches: WatchNode#1{constr: Constr#2{lits: [1, 2]}, next: null}, neg_watches: null}, \
         Var{value: true, level: 1, reason: @2, \
         pos_watches: WatchNode#3{constr: @2, next: null}, neg_watches: null}], trail: [-1, 2]}"
    );
    let implied = VarContent {
        value: Some(true),
        level: Some(1),
        trail_position: Some(1),
        reason: Some([1, 2]),
        pos_watches: vec![1],
        neg_watches: vec![],
    };
    assert_eq!(l.content()[1], implied);
}

#[test]
fn equality_ignores_the_arenas() {
    let mut a = Lits::new();
    a.ensure_pool(3).unwrap();
    a.add_clause(1, false, 3, false).unwrap();
    let mut b = Lits::new();
    b.ensure_pool(3).unwrap();
    b.add_clause(1, false, 2, false).unwrap();
    b.add_clause(3, false, 1, false).unwrap();
    b.remove(2, false, 0).unwrap();
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
    c.assume(1).unwrap();
    assert_ne!(a, c);
    assert!(a < c);
    assert_eq!(c.clone(), c);
}

/// Clauses 1 ∨ 2, ¬1 ∨ 3 and 1 ∨ 3; ¬2 decided at level 1 implies 1
/// and 3, then ¬4 decided at level 2.
fn sample() -> Lits {
    let mut l = Lits::new();
    l.ensure_pool(4).unwrap();
    l.add_clause(1, false, 2, false).unwrap();
    l.add_clause(1, true, 3, false).unwrap();
    l.add_clause(1, false, 3, false).unwrap();
    l.add_clause(1, false, 4, true).unwrap();
    l.remove(4, true, 0).unwrap();
    assert_eq!(l.assume(2), Ok(true));
    assert_eq!(l.assume(4), Ok(true));
    assert_eq!(l.trail(), [-2, 1, 3, -4]);
    assert!(l.rep_ok());
    l
}

#[test]
fn rep_ok_rejects_wrong_levels() {
    assert_rejects(sample(), |l| l.vars[3].level = Some(1));
    assert_rejects(sample(), |l| l.vars[0].level = Some(2));
    assert_rejects(sample(), |l| l.vars[3].level = None);
}

#[test]
fn rep_ok_rejects_a_wrong_trail() {
    assert_rejects(sample(), |l| l.trail.push(-4));
    assert_rejects(sample(), |l| {
        l.trail.pop();
    });
    assert_rejects(sample(), |l| l.trail[3] = 4);
    assert_rejects(sample(), |l| l.vars[3].value = Some(true));
    // An implied literal first: 1 at level 1 with its reason.
    assert_rejects(sample(), |l| l.trail.swap(0, 1));
}

#[test]
fn rep_ok_rejects_a_positive_decision() {
    assert_rejects(sample(), |l| {
        l.trail[3] = 4;
        l.vars[3].value = Some(true);
    });
}

#[test]
fn rep_ok_rejects_a_wrong_reason() {
    // 3's reason ¬1 ∨ 3 needs ¬1 false earlier: not if 3 comes before 1.
    assert_rejects(sample(), |l| l.trail.swap(1, 2));
    // 1 ∨ 2 does not have 3.
    assert_rejects(sample(), |l| l.vars[2].reason = l.vars[0].reason);
    // A decision with a reason.
    assert_rejects(sample(), |l| l.vars[3].reason = l.vars[0].reason);
    // A reason off the watch lists.
    assert_rejects(sample(), |l| l.vars[2].reason = l.free_constrs.first().copied());
}

#[test]
fn rep_ok_rejects_incomplete_propagation() {
    // Without 3, ¬1 ∨ 3 has ¬1 false and 3 unassigned.
    assert_rejects(sample(), |l| {
        l.trail.retain(|&lit| lit != 3);
        l.vars[2] = Var { pos_watches: l.vars[2].pos_watches, ..Var::default() };
    });
    // ¬1 decided at level 1, then ¬4 at level 2 implying 3 by 3 ∨ 4:
    // 1 ∨ 3, put in afterwards, was unit at level 1.
    let mut l = Lits::new();
    l.ensure_pool(4).unwrap();
    l.add_clause(3, false, 4, false).unwrap();
    l.assume(1).unwrap();
    l.assume(4).unwrap();
    assert_eq!(l.trail(), [-1, -4, 3]);
    assert_rejects(l, |l| {
        let c = l.constrs.len();
        l.constrs.push(Constr { lits: [1, 3] });
        l.append_watch(1, c);
        l.append_watch(3, c);
    });
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
    assert_rejects(sample(), |l| l.vars[3].pos_watches = l.vars[1].pos_watches);
}

#[test]
fn rep_ok_rejects_a_clause_off_a_list() {
    assert_rejects(sample(), |l| l.vars[1].pos_watches = None);
    assert_rejects(sample(), |l| {
        let first = l.vars[0].pos_watches.unwrap();
        l.vars[0].pos_watches = l.watch_nodes[first].next;
    });
}

#[test]
fn rep_ok_rejects_wrong_clauses() {
    // Literals out of order.
    assert_rejects(sample(), |l| {
        let c = l.vars[0].reason.unwrap();
        l.constrs[c].lits.swap(0, 1);
    });
    // The same clause twice.
    assert_rejects(sample(), |l| {
        let c = l.constrs.len();
        l.constrs.push(Constr { lits: [1, 3] });
        l.append_watch(1, c);
        l.append_watch(3, c);
    });
}

#[test]
fn rep_ok_rejects_dangling_links_and_live_free_slots() {
    assert_rejects(sample(), |l| l.vars[0].reason = Some(99));
    assert_rejects(sample(), |l| l.vars[1].neg_watches = Some(99));
    assert_rejects(sample(), |l| {
        let first = l.vars[0].pos_watches.unwrap();
        l.watch_nodes[first].constr = 99;
    });
    assert_rejects(sample(), |l| l.free_nodes.push(l.vars[1].pos_watches.unwrap()));
    assert_rejects(sample(), |l| l.free_constrs.push(l.vars[0].reason.unwrap()));
}

/// Every store the builders' argument (module doc) says is reachable at
/// `scope`, counted on the model, without BEAPI or `Lits`: `n < scope`
/// variables; every registration order of at most `scope / 2` distinct
/// clauses (two watch nodes each); then every sequence of decisions that
/// propagates without a conflict.
fn brute_force(scope: usize) -> usize {
    fn decide(m: &Model, states: &mut HashSet<Vec<VarContent>>) {
        if !states.insert(m.content()) {
            return;
        }
        for var in 1..=m.n as i32 {
            let mut next = m.clone();
            if next.assume(var) == Some(true) {
                decide(&next, states);
            }
        }
    }
    let mut states = HashSet::new();
    for n in 0..scope as i32 {
        let lits: Vec<i32> = (1..=n).flat_map(|v| [v, -v]).collect();
        let clauses: Vec<[i32; 2]> =
            lits.iter().flat_map(|&a| lits.iter().map(move |&b| [a, b])).filter(|[a, b]| a.abs() < b.abs()).collect();
        let mut orders = vec![Vec::new()];
        for k in 0..scope / 2 {
            let longer: Vec<Vec<[i32; 2]>> = orders
                .iter()
                .filter(|o| o.len() == k)
                .flat_map(|o: &Vec<[i32; 2]>| {
                    clauses.iter().filter(|c| !o.contains(c)).map(move |&c| [o.clone(), vec![c]].concat())
                })
                .collect();
            orders.extend(longer);
        }
        for order in orders {
            decide(&Model { n: n as usize, clauses: order, trail: Vec::new() }, &mut states);
        }
    }
    states.len()
}

#[test]
fn the_brute_force_counts_by_hand() {
    // Scope 2: no variable, or one: unassigned or decided false (no
    // clause: it needs two variables).
    assert_eq!(brute_force(2), 1 + 2);
    // Scope 3: up to two variables and one clause. Without a clause, two
    // variables make 1 + 2 + 2 stores (none, one or both decided, in
    // either order). With 1 ∨ 2: none, ¬1 implying 2, ¬2 implying 1.
    // With ¬1 ∨ 2: none, ¬1, ¬1 then ¬2, ¬2 implying ¬1; the same with
    // 1 ∨ ¬2. With ¬1 ∨ ¬2 it never propagates: 5 as without a clause.
    assert_eq!(brute_force(3), 1 + 2 + 5 + (3 + 4 + 4 + 5));
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

const BUILDERS: [&str; 4] = ["new", "ensure_pool", "add_clause", "assume"];

/// Scopes 1 to 5 (to 4 in debug builds).
fn scopes() -> std::ops::RangeInclusive<u32> {
    1..=if cfg!(debug_assertions) { 4 } else { 5 }
}

#[test]
fn structure_counts_builders_match_the_whole_api() {
    for scope in scopes() {
        let expected = brute_force(scope as usize);
        assert_eq!(count(scope, Builders::All), expected, "whole API at scope {scope}");
        assert_eq!(count(scope, named(&BUILDERS)), expected, "builders at scope {scope}");
    }
}

#[test]
fn structure_counts_each_builder_is_needed() {
    let scope = *scopes().end();
    let all = count(scope, named(&BUILDERS));
    // `new`, the only constructor, stays.
    for left_out in &BUILDERS[1..] {
        let fewer: Vec<&str> = BUILDERS.iter().copied().filter(|b| b != left_out).collect();
        assert!(count(scope, named(&fewer)) < all, "{left_out} is not needed");
    }
}

#[test]
#[ignore = "report; run with --release --ignored --nocapture"]
fn structure_counts_report() {
    for scope in 1..=5 {
        let start = std::time::Instant::now();
        let structures = count(scope, Builders::All);
        eprintln!("scope {scope}: {structures} structures in {:.2?}", start.elapsed());
    }
}
