//! Comparisons registered with [`compare_subject!`](crate::compare_subject),
//! found by name, and the helpers a registration's conversion uses.

use super::{CompareError, CompareOptions, Comparison};
use crate::korat::KoratRegistration;

/// A comparison registered for the command line with
/// [`compare_subject!`](crate::compare_subject).
pub struct CompareRegistration {
    /// The name on the command line (usually the BEAPI subject's).
    pub name: &'static str,
    /// The invariants it can compare, by name; the first is the default.
    pub invariants: &'static [&'static str],
    /// How many scopes above the compared one to recheck by default (see
    /// [`CompareOptions::recheck`]).
    pub recheck: u32,
    /// Runs the comparison with the named invariant.
    pub run: fn(u32, &str, &CompareOptions) -> Result<Comparison, CompareError>,
    /// The model as a Korat subject, with the first invariant, converting
    /// its structures to the API's (what `suite --engine korat` runs).
    pub model: crate::korat::KoratRegistration,
}

/// Every registered comparison, sorted by name.
pub fn registered_comparisons() -> Vec<&'static CompareRegistration> {
    let mut all: Vec<_> = inventory::iter::<CompareRegistration>.into_iter().collect();
    all.sort_by_key(|r| r.name);
    all
}

/// The comparison registered as `name`.
pub fn find_comparison(name: &str) -> Option<&'static CompareRegistration> {
    inventory::iter::<CompareRegistration>.into_iter().find(|r| r.name == name)
}

/// The objects reachable from `roots`, numbered breadth first, each once:
/// `links(object)` gives an object's links in field order. A conversion
/// uses it to give a candidate's objects arena slots, then [`index_in`] to
/// turn links into slot indices.
pub fn reachable_in_order<V: Copy + PartialEq>(roots: &[Option<V>], links: impl Fn(V) -> Vec<Option<V>>) -> Vec<V> {
    let mut order: Vec<V> = Vec::new();
    for root in roots.iter().flatten() {
        if !order.contains(root) {
            order.push(*root);
        }
    }
    let mut next = 0;
    while let Some(&object) = order.get(next) {
        for link in links(object).into_iter().flatten() {
            if !order.contains(&link) {
                order.push(link);
            }
        }
        next += 1;
    }
    order
}

/// The position of `object` in an order from [`reachable_in_order`].
pub fn index_in<V: PartialEq>(order: &[V], object: Option<V>) -> Option<usize> {
    object.map(|o| order.iter().position(|x| *x == o).expect("every reachable object is numbered"))
}

/// Every registered Korat subject, sorted by name.
pub fn registered_korat_subjects() -> Vec<&'static KoratRegistration> {
    let own = inventory::iter::<KoratRegistration>.into_iter();
    let pairings = registered_comparisons().into_iter().map(|c| &c.model);
    let mut all: Vec<&KoratRegistration> = own.chain(pairings).collect();
    // Stable: a Korat subject comes before a pairing of the same name.
    all.sort_by_key(|r| (r.name, r.converts));
    all.dedup_by_key(|r| r.name);
    all
}

/// The Korat subject registered as `name`, else the model of the pairing
/// of that name.
pub fn find_korat_subject(name: &str) -> Option<&'static KoratRegistration> {
    inventory::iter::<KoratRegistration>
        .into_iter()
        .find(|r| r.name == name)
        .or_else(|| find_comparison(name).map(|c| &c.model))
}
