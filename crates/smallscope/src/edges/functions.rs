//! Coverage per function: how many of each of the user's functions'
//! edges a set of edges holds, for a table a reader can act on ("`remove`
//! has 3 edges no structure of the suite reaches").

use std::collections::BTreeMap;

use super::guards;

/// One function of the user's crate: its edges, and how many of them were taken.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FunctionEdges {
    pub file: String,
    /// As the line tables name it: without its type or module (so two
    /// functions of one file with one name are one), a closure as
    /// `{closure#0}`, an inlined helper as itself.
    pub function: String,
    pub edges: u32,
    pub taken: u32,
}

/// Every function of the user's crate that has edges, by file and name
/// (an edge counts in the file and function of its line),
/// with how many of its edges `taken` (edge numbers, as
/// [`super::Trace::edges`] holds them) has. Empty before [`super::enable`].
pub fn functions(taken: &[u32]) -> Vec<FunctionEdges> {
    let taken: std::collections::HashSet<u32> = taken.iter().copied().collect();
    let mut by_name: BTreeMap<(&str, &str), (u32, u32)> = BTreeMap::new();
    for (number, site, function) in guards::all_sites() {
        let counts = by_name.entry((site.file.as_str(), function)).or_default();
        counts.0 += 1;
        counts.1 += u32::from(taken.contains(&number));
    }
    by_name
        .into_iter()
        .map(|((file, function), (edges, taken))| FunctionEdges {
            file: file.to_owned(),
            function: match function {
                "" => "(no name in the line tables)".to_owned(),
                named => named.to_owned(),
            },
            edges,
            taken,
        })
        .collect()
}
