//! The engine's layers: every module of `src/` sits in one layer folder, and a layer imports only
//! from the layers below it (read from the `crate::` paths of each file, tests left out).
//!
//! The layers, from the bottom: `model` (IR, board graph, move tables), `rules` (the compiled
//! rules and the one derivation of the fast paths), `state` (position, make/unmake, hash,
//! position strings), `moves` (generation, legality, counting, the reference, perft), `game`
//! (end, goals, notation, PGN) and `search` (evaluation, ordering, table, search). `lib.rs`
//! re-exports each layer's modules under their own names (`crate::position`), so a path names a
//! module and the re-export says its layer.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

const LAYERS: [&str; 6] = ["model", "rules", "state", "moves", "game", "search"];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == layer)
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its unit tests.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The first segment of every `crate::` path in the code, with `use crate::{a, b::c}` groups
/// read item by item.
fn crate_heads(code: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 1;
            let mut item_start = true;
            let mut word = String::new();
            for ch in group.chars() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => word.push(c),
                    _ if item_start && !word.is_empty() => {
                        heads.push(std::mem::take(&mut word));
                        item_start = false;
                    }
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
        } else {
            let word: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            heads.push(word);
        }
        rest = after;
    }
    heads
}

/// Each name `lib.rs` re-exports (`pub use state::{fen, position};`, `pub use position::Move;`)
/// with the layer it comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    // Modules first (their lines name a layer), then the items re-exported from them.
    for pass in 0..2 {
        for line in lib.lines() {
            let line = line.trim();
            let Some(path) = line.strip_prefix("pub use ").or_else(|| line.strip_prefix("pub(crate) use ")) else {
                continue;
            };
            let (head, names) = path.split_once("::").unwrap_or((path, ""));
            let layer = match rank(head) {
                Some(_) if pass == 0 => head.to_string(),
                None if pass == 1 => match map.get(head) {
                    Some(layer) => layer.clone(),
                    None => continue,
                },
                _ => continue,
            };
            let names = names.trim_end_matches(';');
            let names = names.strip_prefix('{').and_then(|n| n.strip_suffix('}')).unwrap_or(names);
            for name in names.split(',') {
                let name = name.rsplit("::").next().unwrap_or(name).trim();
                if !name.is_empty() {
                    map.entry(name.to_string()).or_insert_with(|| layer.clone());
                }
            }
        }
    }
    map
}

#[test]
fn every_layer_imports_only_from_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let modules = reexports(&lib);
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut outside = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        if relative == Path::new("lib.rs") {
            continue;
        }
        let layer = relative.components().next().unwrap().as_os_str().to_string_lossy().to_string();
        let Some(own) = rank(&layer) else {
            outside.push(relative.display().to_string());
            continue;
        };
        for head in crate_heads(&code_of(&fs::read_to_string(file).unwrap())) {
            let target = if rank(&head).is_some() { Some(head.clone()) } else { modules.get(&head).cloned() };
            if let Some(target) = target {
                if rank(&target).unwrap() > own {
                    upward.push(format!("{} ({layer}) uses crate::{head} ({target})", relative.display()));
                }
            }
        }
    }
    assert!(outside.is_empty(), "modules outside the layer folders: {outside:?}");
    upward.sort();
    upward.dedup();
    assert!(upward.is_empty(), "imports that run up a layer:\n{}", upward.join("\n"));
    assert!(files.len() > 60, "the scan found only {} files", files.len());
}

#[test]
fn the_scan_reads_paths_and_groups() {
    let code = "use crate::ir::{A, B};\nuse crate::{position::Position, rules::{Piece, Rules}};\nfn f() { crate::search::x(); }";
    assert_eq!(crate_heads(code), ["ir", "position", "rules", "search"]);
    let lib = "pub use position::{Move, Position};\npub use state::{fen, position};\npub(crate) use moves::legal;\npub use rules::{Piece, Rules};";
    let map = reexports(lib);
    assert_eq!(map.get("fen").map(String::as_str), Some("state"));
    assert_eq!(map.get("legal").map(String::as_str), Some("moves"));
    assert_eq!(map.get("Piece").map(String::as_str), Some("rules"));
    assert_eq!(map.get("Move").map(String::as_str), Some("state"));
}
