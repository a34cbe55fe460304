//! The fixture's harness: the smallscope command line with the built-in
//! subjects and this crate's linked in, as a user's harness links theirs.

fn main() -> std::process::ExitCode {
    smallscope_subjects::ensure_linked();
    smallscope_fixture::link();
    smallscope_cli::main()
}
