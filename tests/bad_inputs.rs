//! Every file in `tests/bad/` is a small variant with one defect: `varia check` must reject it
//! with exit code 1 and a located, readable error (snapshotted), and never panic.

use std::path::Path;
use std::process::Command;

/// Whether `stderr` names `path:LINE:COL` somewhere.
fn has_location(stderr: &str, path: &str) -> bool {
    let prefix = format!("{path}:");
    stderr.match_indices(&prefix).any(|(i, _)| {
        let rest = &stderr[i + prefix.len()..];
        let mut parts = rest.splitn(3, ':');
        let line = parts.next().unwrap_or("");
        let col = parts.next().unwrap_or("");
        !line.is_empty()
            && line.chars().all(|c| c.is_ascii_digit())
            && !col.is_empty()
            && col.chars().all(|c| c.is_ascii_digit())
            && parts.next().is_some()
    })
}

#[test]
fn every_bad_input_is_rejected_with_a_located_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("tests/bad"))
        .expect("tests/bad exists")
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".var"))
        .collect();
    files.sort();
    assert!(files.len() >= 18, "expected at least 18 bad inputs, found {}", files.len());
    for file in files {
        let path = format!("tests/bad/{file}");
        let out = Command::new(env!("CARGO_BIN_EXE_varia"))
            .args(["check", &path])
            .current_dir(root)
            .output()
            .expect("run varia");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{path}: exit status {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status
        );
        assert!(!stderr.contains("panicked"), "{path}: varia panicked:\n{stderr}");
        assert!(stderr.contains(&format!("{path}:")), "{path}: the error does not name the file:\n{stderr}");
        assert!(has_location(&stderr, &path), "{path}: the error has no `{path}:LINE:COL` location:\n{stderr}");
        assert!(stdout.is_empty(), "{path}: unexpected output on stdout:\n{stdout}");
        let name = file.trim_end_matches(".var");
        insta::assert_snapshot!(name, stderr);
    }
}
