//! `--emit-tests` and `--emit-failing-tests`: the Rust test files a run
//! writes, the same three options for every engine that makes tests
//! (their flags are `smallscope_args::test_files::TestFiles`).

use smallscope::events::Stop;
use smallscope_args::test_files::TestFiles;

/// Refuses, before the run, a test file path that is there and is not
/// a file (a FIFO, a device, a folder): the tests would replace it.
pub fn check(files: &TestFiles) -> Result<(), crate::BadInput> {
    for (flag, path) in [("--emit-tests", &files.emit_tests), ("--emit-failing-tests", &files.emit_failing_tests)] {
        let Some(path) = path else { continue };
        // A symbolic link is followed: the tests go where it points.
        if let Ok(metadata) = std::fs::metadata(path) {
            if !metadata.is_file() {
                return Err(crate::BadInput(format!(
                    "{flag} {}: there is something there that is not a file ({}); give a file's path",
                    path.display(),
                    kind_of(&metadata.file_type())
                )));
            }
        }
    }
    Ok(())
}

/// The command that regenerates the files: the run's `replay` with
/// these options. Under `cargo smallscope`, which chooses the files
/// itself, the replay alone.
///
/// [`implied_by_front_end`] tells these options apart in a command line.
pub fn regenerate(files: &TestFiles, replay: &str) -> String {
    if crate::files_implied() {
        return replay.to_owned();
    }
    let mut command = replay.to_owned();
    for (flag, path) in [("--emit-tests", &files.emit_tests), ("--emit-failing-tests", &files.emit_failing_tests)] {
        if let Some(path) = path {
            command.push_str(&format!(" {flag} {}", path.display()));
        }
    }
    if files.ignore_failing_tests {
        command.push_str(" --ignore-failing-tests");
    }
    command
}

/// Whether `arg` is one of these options that a front end such as
/// `cargo smallscope` chose and passes itself (so a command it is to
/// run again leaves it out).
pub fn implied_by_front_end(arg: &str) -> bool {
    const FLAGS: [&str; 3] = ["--emit-tests", "--emit-failing-tests", "--ignore-failing-tests"];
    crate::files_implied() && FLAGS.iter().any(|flag| arg.split('=').next() == Some(*flag))
}

/// Writes each file asked for, atomically: `passing` and `failing` make
/// their text only when their file is wanted. A run stopped by Ctrl-C or
/// SIGTERM writes none: its tests would replace a whole run's with part
/// of them (the run's `--resume`, or running it again, writes them).
pub fn write(
    files: &TestFiles,
    stop: Stop,
    passing: impl FnOnce() -> String,
    failing: impl FnOnce() -> String,
) -> anyhow::Result<()> {
    if stop == Stop::Interrupted {
        if files.any() {
            eprintln!("note: no test files written: the run was interrupted, and they would hold part of it");
        }
        return Ok(());
    }
    if let Some(path) = &files.emit_tests {
        write_test_file(path, &passing())?;
    }
    if let Some(path) = &files.emit_failing_tests {
        write_test_file(path, &failing())?;
    }
    Ok(())
}

/// What a file type is, in words.
fn kind_of(file_type: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    match file_type {
        t if t.is_dir() => "a folder",
        t if t.is_fifo() => "a FIFO",
        t if t.is_char_device() || t.is_block_device() => "a device",
        t if t.is_socket() => "a socket",
        _ => "not a regular file",
    }
}

/// Writes a test file atomically, making its folder when needed; through
/// a symbolic link, the file it points to is written (the link stays).
pub fn write_test_file(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let resolved = match linked {
        true => std::fs::canonicalize(path).map_err(|e| anyhow::anyhow!("following {}: {e}", path.display()))?,
        false => path.to_owned(),
    };
    let path = resolved.as_path();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| anyhow::anyhow!("making {}: {e}", parent.display()))?;
    }
    smallscope::emit::write_atomically(path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))
}
