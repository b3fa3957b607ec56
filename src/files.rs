//! Files the command line reads and writes: each read only up to a size limit before it is parsed, each written whole or not at all (a temporary file in the same folder, then renamed over the old one).

use std::io::{Read, Write};
use std::path::Path;

/// Most bytes a game file (PGN or a list of moves) may hold: what the PGN reader reads.
pub const MAX_GAME_BYTES: usize = varia_interpreter::pgn::MAX_TEXT;
/// Most bytes a report of `match --json` or `selfplay --json` may hold (about 40,000 games of
/// 300 plies; a larger study is run and merged in shards).
pub const MAX_REPORT_BYTES: usize = 128 << 20;
/// Most bytes a weights file may hold (a few hundred are usual).
pub const MAX_WEIGHTS_BYTES: usize = 1 << 20;

/// The bytes of the file at `path`, read only up to `limit`: a longer file (or a device that
/// never ends, `/dev/zero`) is an error naming the file, `what` it is and the limit.
pub fn read_bytes(path: &Path, limit: usize, what: &str) -> Result<Vec<u8>, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("error: cannot read {name}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(|e| format!("error: cannot read {name}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!("error: {name}: {what} may hold at most {limit} bytes; this one holds more"));
    }
    Ok(bytes)
}

/// The text of the file at `path` (see [`read_bytes`]); bytes that are not UTF-8 are an error
/// at their line and column.
pub fn read_text(path: &Path, limit: usize, what: &str) -> Result<String, String> {
    let bytes = read_bytes(path, limit, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        let name = path.display().to_string();
        crate::load::render(&name, &text, "the file is not valid UTF-8", at..at + 1, "expected UTF-8 text")
    })
}

/// Writes `bytes` to `path` whole or not at all: to a temporary file in the same folder, then
/// renamed over `path`, so that a stop partway (a full disk, Ctrl-C, a killed process) leaves
/// the old file as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("error: cannot write {}: {e}", path.display());
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (part, mut file) = create_part(folder).map_err(|e| fail(&e))?;
    let written = (|| {
        // The temporary file is private (mode 600); the file it replaces keeps its own mode.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0o644);
            file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        drop(file);
        std::fs::rename(&part, path)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&part);
        fail(&e)
    })
}

/// Creates a new file `.varia-PID-N.part` in `folder`, private to its owner, under a name no
/// other file has (created exclusively: a name taken by another writer is skipped).
fn create_part(folder: &Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut tries = 0;
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let part = folder.join(format!(".varia-{}-{n}.part", std::process::id()));
        match options.open(&part) {
            Ok(file) => return Ok((part, file)),
            // Left by an earlier process of the same id, or another writer: try the next name.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 1000 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_limit_is_refused_and_one_within_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        write_atomic(&path, b"12345").unwrap();
        assert_eq!(read_text(&path, 5, "a test file").unwrap(), "12345");
        let e = read_text(&path, 4, "a test file").unwrap_err();
        assert_eq!(e, format!("error: {}: a test file may hold at most 4 bytes; this one holds more", path.display()));
        // Written again, the old text is replaced whole and no temporary file is left.
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A folder cannot be replaced by a file: the rename fails after the text is written.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let e = write_atomic(&dir.path().join("sub"), b"text").unwrap_err();
        assert!(e.starts_with(&format!("error: cannot write {}: ", dir.path().join("sub").display())), "{e}");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["sub"]);
        // A missing folder is reported, nothing is created.
        assert!(write_atomic(&dir.path().join("none/f.txt"), b"x").unwrap_err().contains("none/f.txt"));
    }

    #[cfg(unix)]
    #[test]
    fn a_rewritten_file_keeps_its_mode_and_a_new_one_gets_644() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (old, new) = (dir.path().join("old.txt"), dir.path().join("new.txt"));
        std::fs::write(&old, "a").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&old, b"b").unwrap();
        write_atomic(&new, b"c").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!((mode(&old), mode(&new)), (0o640, 0o644));
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "b");
    }

    #[test]
    fn an_endless_device_is_refused_at_the_limit() {
        let e = read_bytes(Path::new("/dev/zero"), 1000, "a game file").unwrap_err();
        assert_eq!(e, "error: /dev/zero: a game file may hold at most 1000 bytes; this one holds more");
    }
}
