//! The hostile subjects' harness: the smallscope command line with these
//! subjects, and none of the built-in ones, linked in.

fn main() -> std::process::ExitCode {
    smallscope_hostile::link();
    smallscope_cli::main()
}
