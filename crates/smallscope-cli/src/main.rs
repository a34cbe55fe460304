//! The `smallscope` binary: the command line with the built-in subjects.

fn main() -> std::process::ExitCode {
    smallscope_subjects::ensure_linked();
    smallscope_cli::main()
}
