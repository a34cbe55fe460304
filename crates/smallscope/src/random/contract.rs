//! Contracts: properties every value must keep, checked after every call.
//!
//! A [`Contract`] looks at one value, a pair or a triple of the subject
//! values a sequence holds. The built-in ones ([`std_contracts`]) are the
//! laws of Rust's standard traits, translated from Randoop's defaults
//! (thesis, Fig. 7-3), plus the subject's `rep_ok`. Users add their own:
//!
//! ```
//! use smallscope::random::{Contract, Random};
//! use smallscope::Heap;
//!
//! #[derive(Heap, Clone, Debug, Default)]
//! pub struct Meter { readings: Vec<u8> }
//!
//! #[smallscope::api(name = "doc-meter")]
//! impl Meter {
//!     pub fn new() -> Self { Meter::default() }
//!     pub fn record(&mut self, x: u8) { self.readings.push(x) }
//!     pub fn clear(&mut self) { self.readings.pop(); } // a bug: keeps all but one
//! }
//!
//! /// At most 3 readings after any call: a property of this application.
//! #[derive(Default)]
//! struct FewReadings;
//!
//! impl Contract<Meter> for FewReadings {
//!     fn name(&self) -> &str { "few-readings" }
//!     fn check_value(&self, m: &Meter) -> Result<(), String> {
//!         if m.readings.len() <= 3 { Ok(()) } else { Err(format!("{} readings", m.readings.len())) }
//!     }
//! }
//!
//! let report = Random::<Meter>::new().sequences(2_000).seed(1).contract(FewReadings).run().unwrap();
//! assert_eq!(report.failure_groups[0].contract.as_deref(), Some("few-readings"));
//! ```

use std::cmp::Ordering;

use crate::api::{StdTraitTable, StdTraits, Subject};

/// A property of subject values. Each check returns `Err(why)` when the
/// property is broken; a panic inside a check counts as broken too.
pub trait Contract<T>: Send + Sync {
    /// A short kebab-case name; failures are grouped by it.
    fn name(&self) -> &str;

    /// Checked on every value a call touched.
    fn check_value(&self, _value: &T) -> Result<(), String> {
        Ok(())
    }

    /// Checked on every pair of values in a sequence, one of them touched.
    fn check_pair(&self, _a: &T, _b: &T) -> Result<(), String> {
        Ok(())
    }

    /// Checked on every ordered triple of distinct values, one of them touched.
    fn check_triple(&self, _a: &T, _b: &T, _c: &T) -> Result<(), String> {
        Ok(())
    }

    /// Rust statements for a generated test that fail when the contract is
    /// broken on the variables `vars` (as many as the check that failed took).
    ///
    /// The default calls the contract itself through
    /// [`assert_contract`]: it needs the contract type to be `Default` and
    /// reachable at the path `std::any::type_name` gives. Override it to
    /// write plain assertions instead.
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        let refs: Vec<String> = vars.iter().map(|v| format!("&{v}")).collect();
        vec![format!(
            "smallscope::random::assert_contract(&<{}>::default(), &[{}]);",
            std::any::type_name::<Self>(),
            refs.join(", ")
        )]
    }
}

/// Panics unless `contract` holds on `values` (one, two or three of them);
/// generated tests call it for user contracts.
pub fn assert_contract<T, C: Contract<T>>(contract: &C, values: &[&T]) {
    let verdict = match values {
        [a] => contract.check_value(a),
        [a, b] => contract.check_pair(a, b),
        [a, b, c] => contract.check_triple(a, b, c),
        _ => panic!("assert_contract takes one, two or three values, not {}", values.len()),
    };
    if let Err(why) = verdict {
        panic!("contract `{}` is broken: {why}", contract.name());
    }
}

/// `rep_ok` holds after every call.
pub struct RepOk;

impl<T: Subject> Contract<T> for RepOk {
    fn name(&self) -> &str {
        "rep-ok"
    }
    fn check_value(&self, value: &T) -> Result<(), String> {
        match value.rep_ok() {
            Some(false) => Err("rep_ok returned false".into()),
            _ => Ok(()),
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        vec![crate::emit::rep_ok_holds(vars[0])]
    }
}

/// `Debug` formatting does not panic.
pub struct DebugDoesNotPanic<T>(fn(&T, &mut dyn std::fmt::Write) -> std::fmt::Result);

impl<T> Contract<T> for DebugDoesNotPanic<T> {
    fn name(&self) -> &str {
        "debug-does-not-panic"
    }
    fn check_value(&self, value: &T) -> Result<(), String> {
        // Counted, not kept: formatting without allocating, and stopped
        // once no small value could have written that much.
        let mut out = crate::api::Bounded::counting(crate::api::CONTRACT_LIMIT);
        match ((self.0)(value, &mut out), out.cut) {
            (Ok(()), _) => Ok(()),
            (Err(_), true) => Err(format!(
                "`Debug` wrote more than {} MiB (does it follow a cycle?)",
                crate::api::CONTRACT_LIMIT >> 20
            )),
            (Err(_), false) => Err("`Debug` returned an error".to_owned()),
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        vec![format!("let _ = format!(\"{{:?}}\", {});", vars[0])]
    }
}

/// `a == a` for an `Eq` type.
pub struct EqReflexive<T>(fn(&T, &T) -> bool);

impl<T> Contract<T> for EqReflexive<T> {
    fn name(&self) -> &str {
        "eq-reflexive"
    }
    fn check_value(&self, value: &T) -> Result<(), String> {
        if (self.0)(value, value) {
            Ok(())
        } else {
            Err("a value of an `Eq` type is not equal to itself".into())
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        vec![format!("assert!({0} == {0}, \"== is not reflexive\");", vars[0])]
    }
}

/// `a == b` exactly when `b == a`.
pub struct EqSymmetric<T>(fn(&T, &T) -> bool);

impl<T> Contract<T> for EqSymmetric<T> {
    fn name(&self) -> &str {
        "eq-symmetric"
    }
    fn check_pair(&self, a: &T, b: &T) -> Result<(), String> {
        let (ab, ba) = ((self.0)(a, b), (self.0)(b, a));
        if ab == ba {
            Ok(())
        } else {
            Err(format!("a == b is {ab} but b == a is {ba}"))
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        vec![format!("assert_eq!({0} == {1}, {1} == {0}, \"== is not symmetric\");", vars[0], vars[1])]
    }
}

/// Equal values have equal hashes.
pub struct HashAgreesWithEq<T> {
    eq: fn(&T, &T) -> bool,
    hash: fn(&T) -> u64,
}

impl<T> Contract<T> for HashAgreesWithEq<T> {
    fn name(&self) -> &str {
        "hash-agrees-with-eq"
    }
    fn check_pair(&self, a: &T, b: &T) -> Result<(), String> {
        if (self.eq)(a, b) && (self.hash)(a) != (self.hash)(b) {
            Err("two equal values hash differently".into())
        } else {
            Ok(())
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        vec![
            format!("assert!({} == {});", vars[0], vars[1]),
            format!("assert_eq!(hash_of(&{}), hash_of(&{}), \"equal values hash differently\");", vars[0], vars[1]),
        ]
    }
}

/// `Clone` gives an equal value.
pub struct CloneIsEqual<T> {
    clone: fn(&T) -> T,
    eq: fn(&T, &T) -> bool,
}

impl<T> Contract<T> for CloneIsEqual<T> {
    fn name(&self) -> &str {
        "clone-is-equal"
    }
    fn check_value(&self, value: &T) -> Result<(), String> {
        if (self.eq)(&(self.clone)(value), value) {
            Ok(())
        } else {
            Err("a clone is not equal to its original".into())
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        vec![format!("assert!({0}.clone() == {0}, \"a clone differs from its original\");", vars[0])]
    }
}

/// `Ord` agrees with `PartialOrd` and `Eq`, and is antisymmetric.
pub struct OrdConsistent<T> {
    ord: fn(&T, &T) -> Ordering,
    partial_ord: Option<fn(&T, &T) -> Option<Ordering>>,
    eq: Option<fn(&T, &T) -> bool>,
}

impl<T> Contract<T> for OrdConsistent<T> {
    fn name(&self) -> &str {
        "ord-consistent"
    }
    fn check_pair(&self, a: &T, b: &T) -> Result<(), String> {
        let (ab, ba) = ((self.ord)(a, b), (self.ord)(b, a));
        if ab != ba.reverse() {
            return Err(format!("a.cmp(b) is {ab:?} but b.cmp(a) is {ba:?}"));
        }
        if let Some(partial) = self.partial_ord {
            let p = partial(a, b);
            if p != Some(ab) {
                return Err(format!("a.cmp(b) is {ab:?} but a.partial_cmp(b) is {p:?}"));
            }
        }
        if let Some(eq) = self.eq {
            if (ab == Ordering::Equal) != eq(a, b) {
                return Err(format!("a.cmp(b) is {ab:?} but a == b is {}", eq(a, b)));
            }
        }
        Ok(())
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        let (a, b) = (vars[0], vars[1]);
        vec![
            format!("assert_eq!({a}.cmp(&{b}), {b}.cmp(&{a}).reverse());"),
            format!("assert_eq!({a}.partial_cmp(&{b}), Some({a}.cmp(&{b})));"),
            format!("assert_eq!({a}.cmp(&{b}).is_eq(), {a} == {b});"),
        ]
    }
}

/// `a <= b` and `b <= c` give `a <= c`.
pub struct OrdTransitive<T>(fn(&T, &T) -> Ordering);

impl<T> Contract<T> for OrdTransitive<T> {
    fn name(&self) -> &str {
        "ord-transitive"
    }
    fn check_triple(&self, a: &T, b: &T, c: &T) -> Result<(), String> {
        let le = |x: &T, y: &T| (self.0)(x, y) != Ordering::Greater;
        if le(a, b) && le(b, c) && !le(a, c) {
            Err("a <= b and b <= c, but a > c".into())
        } else {
            Ok(())
        }
    }
    fn assertion(&self, vars: &[&str]) -> Vec<String> {
        let (a, b, c) = (vars[0], vars[1], vars[2]);
        vec![format!("assert!(!({a} <= {b} && {b} <= {c}) || {a} <= {c}, \"<= is not transitive\");")]
    }
}

/// The contracts that `T`'s standard traits and `rep_ok` imply.
pub fn std_contracts<T: Subject + StdTraits>() -> Vec<Box<dyn Contract<T>>> {
    let table: StdTraitTable<T> = T::std_traits();
    let mut out: Vec<Box<dyn Contract<T>>> = Vec::new();
    if T::HAS_REP_OK {
        out.push(Box::new(RepOk));
    }
    if let Some(debug) = table.debug {
        out.push(Box::new(DebugDoesNotPanic(debug)));
    }
    if let Some(eq) = table.partial_eq {
        if table.is_eq {
            out.push(Box::new(EqReflexive(eq)));
        }
        out.push(Box::new(EqSymmetric(eq)));
        if let Some(hash) = table.hash {
            out.push(Box::new(HashAgreesWithEq { eq, hash }));
        }
        if let Some(clone) = table.clone {
            out.push(Box::new(CloneIsEqual { clone, eq }));
        }
    }
    if let Some(ord) = table.ord {
        out.push(Box::new(OrdConsistent { ord, partial_ord: table.partial_ord, eq: table.partial_eq }));
        out.push(Box::new(OrdTransitive(ord)));
    }
    out
}
