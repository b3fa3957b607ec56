//! The docs name files that exist: every `path.rs` (and `.py`, `.var`, `.toml`, `.md`, ...) in
//! backticks in README.md and docs/ is a file of the repository (a bare name, somewhere in it),
//! so that the map in docs/architecture.md cannot go stale when files move.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

mod common;

/// Files a page names that the repository does not hold by design: written by the program or
/// by the reader.
const WRITTEN_ELSEWHERE: [&str; 3] = ["maximal-captures.js", "target/fuzz/differential-SEED.var", "test.py"];

fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            walk(&path, root, out);
        } else {
            out.push(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The file names in backticks on a line of a page.
fn named_files(line: &str) -> Vec<String> {
    let extensions = [".rs", ".py", ".var", ".toml", ".md", ".pest", ".js", ".mjs", ".sh"];
    line.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            extensions.iter().any(|e| t.ends_with(e))
                && t.chars().all(|c| c.is_alphanumeric() || "_./-".contains(c))
                && !t.starts_with("../")
                // A bare extension (`.var`) or a dot file names no file of the tree.
                && !t.starts_with('.')
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn the_docs_name_files_that_exist() {
    let root = common::root();
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    let names: BTreeSet<&str> = files.iter().map(|f| f.rsplit('/').next().unwrap()).collect();
    let mut pages: Vec<PathBuf> = vec![root.join("README.md")];
    for entry in fs::read_dir(root.join("docs")).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            pages.extend(fs::read_dir(&path).unwrap().flatten().map(|e| e.path()));
        } else {
            pages.push(path);
        }
    }
    let mut missing = Vec::new();
    for page in pages.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        for (n, line) in fs::read_to_string(page).unwrap().lines().enumerate() {
            for named in named_files(line) {
                let found = if named.contains('/') {
                    files.iter().any(|f| *f == named || f.ends_with(&format!("/{named}")))
                } else {
                    names.contains(named.as_str())
                };
                if !found && !WRITTEN_ELSEWHERE.contains(&named.as_str()) {
                    missing.push(format!("{}:{}: `{named}`", page.strip_prefix(&root).unwrap().display(), n + 1));
                }
            }
        }
    }
    assert!(missing.is_empty(), "files the docs name that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn file_names_are_read_from_backticks() {
    assert_eq!(named_files("see `moves/legal.rs` and `x` and `rules/paths.rs`."), ["moves/legal.rs", "rules/paths.rs"]);
    assert!(named_files("`../shared/rules/README.md` `a b.rs` `.var`").is_empty());
}
