//! The fixture's harness: the smallscope command line with the built-in
//! subjects and this crate's linked in, as a user's harness links theirs.

// Links the crate of the LRU cache and the graph, which `link` re-exports.
use lru_graph as _;

fn main() -> std::process::ExitCode {
    smallscope_subjects::ensure_linked();
    smallscope_fixture::link();
    smallscope_cli::main()
}
