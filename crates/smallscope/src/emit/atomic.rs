//! Files written whole or not at all: to a temporary name in the same
//! folder, then renamed into place. A kill or a full disk leaves the old
//! file (or none), never half of a new one.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file being written; it appears at its path only on [`AtomicFile::commit`].
pub struct AtomicFile {
    temp: tempfile::NamedTempFile,
    path: PathBuf,
}

impl AtomicFile {
    /// Starts writing `path` (its folder must exist).
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temp = tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".tmp").tempfile_in(dir)?;
        Ok(AtomicFile { temp, path: path.to_owned() })
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(self) -> std::io::Result<()> {
        let mut temp = self.temp;
        temp.flush()?;
        // A temporary file is private; the file it becomes is an ordinary one.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            temp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
        }
        temp.as_file().sync_all()?;
        temp.persist(&self.path).map(|_| ()).map_err(|e| e.error)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.temp.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.temp.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        file.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        // An abandoned write leaves nothing behind.
        let abandoned = AtomicFile::create(&path).unwrap();
        drop(abandoned);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
