//! The `cargo-smallscope` binary: `cargo smallscope …`.

fn main() -> std::process::ExitCode {
    cargo_smallscope::main()
}
