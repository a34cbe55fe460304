//! What a comparison answers: the [`Verdict`], the [`Comparison`] with its
//! counts, and the [`Witness`]es of structures in one set and not the other.

/// Which way the sets differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// SA = SR.
    #[default]
    Equal,
    /// SA ⊂ SR: the invariant admits structures the API does not build.
    InvariantTooWeak,
    /// SR ⊂ SA: the API builds structures the invariant rejects.
    InvariantTooStrong,
    /// Each set has structures the other lacks.
    Differ,
}

impl Verdict {
    pub(super) fn of(only_api: usize, only_invariant: usize) -> Self {
        match (only_api, only_invariant) {
            (0, 0) => Verdict::Equal,
            (0, _) => Verdict::InvariantTooWeak,
            (_, 0) => Verdict::InvariantTooStrong,
            _ => Verdict::Differ,
        }
    }

    /// The relation as symbols: `SA = SR`, `SA ⊂ SR`, `SR ⊂ SA`, `SA ≠ SR`.
    pub fn relation(self) -> &'static str {
        match self {
            Verdict::Equal => "SA = SR",
            Verdict::InvariantTooWeak => "SA ⊂ SR",
            Verdict::InvariantTooStrong => "SR ⊂ SA",
            Verdict::Differ => "SA ≠ SR",
        }
    }
}

/// Which set a structure is in, and not the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// SA \ SR: the API builds it, the invariant rejects it.
    OnlyApi,
    /// SR \ SA: the invariant admits it, the API does not build it.
    OnlyInvariant,
}

/// One structure in one set and not the other, as an event.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Difference {
    pub side: Side,
    /// Its position on its side, smallest first.
    pub position: usize,
    pub witness: Witness,
}

/// One structure in one set and not the other.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Witness {
    /// Its canonical text (the BEAPI engine's linearization).
    pub canonical: String,
    /// Objects in it (the root included).
    pub objects: usize,
    /// Where it differs from the other set's structures of the same shape
    /// (same objects and links): `path.field = value` for each field holding
    /// a value no such structure has there. Empty when no structure of the
    /// other set has its shape, or when each of its values occurs in one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub odd_fields: Vec<String>,
    /// Whether the other set has a structure of the same shape.
    pub same_shape: bool,
    /// Its rank among the witnesses worth showing first (see
    /// [`Comparison::representatives`]); `None` for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub representative: Option<usize>,
    /// Calls that build it through the API: for an API-only witness, the
    /// shortest BEAPI found; for an invariant-only one, the one found at the
    /// larger recheck scope, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<usize>,
    /// For an invariant-only witness: the larger scope at which BEAPI built
    /// it, so a scope artifact rather than an invariant flaw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_at_scope: Option<u32>,
    /// Graphviz DOT picture (representatives, up to [`CompareOptions::pictures`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dot: Option<String>,
    /// SVG picture, as DOT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    /// Why the SVG could not be drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture_error: Option<String>,
}

impl Witness {
    pub(super) fn new(canonical: String) -> Self {
        Witness {
            objects: count_objects(&canonical),
            canonical,
            odd_fields: Vec::new(),
            same_shape: false,
            representative: None,
            program: None,
            calls: None,
            api_at_scope: None,
            dot: None,
            svg: None,
            picture_error: None,
        }
    }
}

/// The result of comparing SA (from the API) with SR (from an invariant).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Comparison {
    /// The API's Rust type.
    pub subject: String,
    pub scope: u32,
    /// The invariant's name, as registered; from [`compare`] called
    /// directly, `rep_ok over <model type>`.
    pub invariant: String,
    /// |SA|: structures BEAPI built.
    pub api_structures: usize,
    /// |SR|: distinct canonical forms of the candidates the invariant admits.
    pub invariant_structures: usize,
    /// |SA ∩ SR|.
    pub both: usize,
    /// SA \ SR, smallest first (fewest objects, then text).
    #[serde(default)]
    pub only_api: Vec<Witness>,
    /// SR \ SA, smallest first.
    #[serde(default)]
    pub only_invariant: Vec<Witness>,
    pub verdict: Verdict,
    /// BEAPI's builders.
    pub builders: Vec<String>,
    /// Valid candidates Korat found (more than `invariant_structures` if two
    /// candidates materialize to one value) and candidates it explored.
    pub korat_found: u64,
    pub korat_explored: u64,
    pub beapi_seconds: f64,
    pub korat_seconds: f64,
    pub seconds: f64,
    /// The largest recheck scope BEAPI ran at, if it ran again to explain
    /// invariant-only witnesses.
    pub recheck_scope: Option<u32>,
    /// Invariant-only witnesses the API built at a recheck scope.
    pub scope_artifacts: usize,
    /// BEAPI stopped early (time limit): SA may be incomplete.
    pub incomplete: bool,
    pub notes: Vec<String>,
}

impl Comparison {
    /// One line: the relation, what it may mean, and how many structures differ.
    pub fn verdict_line(&self) -> String {
        let relation = self.verdict.relation();
        let (a, r) = (self.only_api.len(), self.only_invariant.len());
        match self.verdict {
            Verdict::Equal => format!("{relation}: the invariant admits exactly the structures the API builds"),
            Verdict::InvariantTooWeak => {
                format!("{relation}: the invariant may be too weak ({r} structures only it admits)")
            }
            Verdict::InvariantTooStrong => {
                format!("{relation}: the invariant may be too strong ({a} structures the API builds fail it)")
            }
            Verdict::Differ => format!(
                "{relation}: the invariant and the API disagree both ways ({r} structures only the invariant \
                 admits, {a} only the API builds)"
            ),
        }
    }

    /// The first `k` witnesses of one side worth showing, with their index.
    ///
    /// Each witness is explained against the other set: the fields where it
    /// holds what no structure of the same shape there holds (its odd
    /// fields), or its shape when the other set has none like it. A witness
    /// is a representative if no witness with fewer odd fields, or as few
    /// and fewer objects, has a subset of its odd fields: so a list whose
    /// header *and* cache node hold values is not shown once one whose header
    /// alone does is.
    pub fn representatives(witnesses: &[Witness], k: usize) -> Vec<(usize, &Witness)> {
        let mut shown: Vec<(usize, &Witness)> =
            witnesses.iter().enumerate().filter(|(_, w)| w.representative.is_some()).collect();
        shown.sort_by_key(|(_, w)| w.representative);
        shown.truncate(k);
        shown
    }

    /// How many representatives a side has: distinct kinds of difference.
    pub fn kinds(witnesses: &[Witness]) -> usize {
        witnesses.iter().filter(|w| w.representative.is_some()).count()
    }
}

/// Objects in a canonical text: each prints as `Class#id{`.
pub fn count_objects(canonical: &str) -> usize {
    let bytes = canonical.as_bytes();
    let mut count = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'#' || i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let digits = bytes[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && bytes.get(i + 1 + digits) == Some(&b'{') {
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_counted_from_the_text() {
        assert_eq!(count_objects("List#0{head: Node#1{key: 7, next: Node#2{key: 1, next: @1}}}"), 3);
        assert_eq!(count_objects("List#0{head: null}"), 1);
    }

    #[test]
    fn verdicts() {
        assert_eq!(Verdict::of(0, 0), Verdict::Equal);
        assert_eq!(Verdict::of(0, 2), Verdict::InvariantTooWeak);
        assert_eq!(Verdict::of(1, 0), Verdict::InvariantTooStrong);
        assert_eq!(Verdict::of(1, 2), Verdict::Differ);
    }
}
