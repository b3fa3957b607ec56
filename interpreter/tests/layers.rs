//! The engine's layers: every module of `src/` sits in one layer folder, and a layer imports only
//! from the layers below it (read from the `crate::` paths of each file, tests left out).
//!
//! The layers, from the bottom: `model` (IR, board graph, move tables), `rules` (the compiled
//! rules and the one derivation of the fast paths), `state` (position, make/unmake, hash,
//! position strings), `moves` (generation, legality, counting, the reference, perft), `game`
//! (end, goals, notation, PGN) and `search` (evaluation, ordering, table, search). `lib.rs`
//! re-exports each layer's modules under their own names (`crate::position`), so a path names a
//! module and the re-export says its layer.
//!
//! Within and across layers, no module is on an import circle: an arrow runs from a module to
//! each module a path in its code names (see `arrows`), and no arrow path leads back.

use std::collections::{BTreeMap, BTreeSet};
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

/// Every module of `src/` by its path (`state::position`; `lib.rs` is the empty path), with its
/// code (comments and unit tests left out).
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> =
                relative.components().map(|c| c.as_os_str().to_string_lossy().to_string()).collect();
            if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                parts.pop();
            }
            (parts.join("::"), code_of(&fs::read_to_string(file).unwrap()))
        })
        .collect()
}

/// The code's tokens: words, `::`, and every other character alone; string and character
/// literals are left out (their text is no path).
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
            continue;
        }
        if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 2;
        } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
            while i + 1 < chars.len() && chars[i + 1] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 1;
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
        i += 1;
    }
    out
}

fn is_word(token: &str) -> bool {
    token.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Every path the code names (`a::b::c`, two words at least), each `{..}` group read as one
/// path per item.
fn paths(code: &str) -> Vec<Vec<String>> {
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let starts = is_word(&t[i]) && t.get(i + 1).is_some_and(|n| n == "::") && (i == 0 || t[i - 1] != "::");
        i = if starts { path_at(&t, i, Vec::new(), &mut out) } else { i + 1 };
    }
    out
}

/// Reads the path at token `i` after `prefix` into `out`; returns the index of the token after it.
fn path_at(t: &[String], mut i: usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    loop {
        match t.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                while t.get(i).is_some_and(|n| n != "}") {
                    i = path_at(t, i, prefix.clone(), out);
                    if t.get(i).is_some_and(|n| n == ",") {
                        i += 1;
                    }
                }
                return i + 1;
            }
            Some(w) if is_word(w) => prefix.push(w.to_string()),
            _ => {
                out.push(prefix);
                return i;
            }
        }
        i += 1;
        if t.get(i).is_some_and(|n| n == "::") {
            i += 1;
        } else {
            out.push(prefix);
            return i;
        }
    }
}

/// The module a path in `module` names (the longest start of it that is a module), if any:
/// `crate::`, `super::` and `self::` paths, paths from a child module's name, and the names
/// `lib.rs` re-exports (`crate::position`, `crate::Move`) followed to their modules.
fn named_module(
    all: &BTreeMap<String, String>,
    aliases: &BTreeMap<String, Vec<String>>,
    module: &str,
    path: &[String],
) -> Option<String> {
    let mut here: Vec<String> =
        if module.is_empty() { Vec::new() } else { module.split("::").map(String::from).collect() };
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            here.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                here.pop();
                rest = &rest[1..];
            }
        }
        Some(first) if all.contains_key(&[module, first].join("::")) => {}
        _ => return None,
    }
    let mut full = here;
    full.extend(rest.iter().cloned());
    // A re-exported name at the crate root stands for its path.
    for _ in 0..4 {
        match full.first().and_then(|head| aliases.get(head)) {
            Some(to) if !all.contains_key(&full[0]) => {
                let mut expanded = to.clone();
                expanded.extend(full[1..].iter().cloned());
                full = expanded;
            }
            _ => break,
        }
    }
    (1..=full.len()).rev().map(|k| full[..k].join("::")).find(|m| all.contains_key(m) && m != module)
}

/// The arrows between the engine's modules: A -> B when a path in A names B or an item of B
/// (see [`named_module`]); a module declaring its children (`mod x;`) is no arrow, and the crate
/// root, which only re-exports, is left out.
fn arrows(all: &BTreeMap<String, String>) -> BTreeSet<(String, String)> {
    let lib = &all[""];
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in paths(lib) {
        if let Some(last) = path.last() {
            aliases.entry(last.clone()).or_insert(path);
        }
    }
    let mut out = BTreeSet::new();
    for (module, code) in all.iter().filter(|(m, _)| !m.is_empty()) {
        for path in paths(code) {
            if let Some(target) = named_module(all, &aliases, module, &path).filter(|t| !t.is_empty()) {
                out.insert((module.clone(), target));
            }
        }
    }
    out
}

/// The arrows on a circle: those from a module to one whose arrows lead back to it.
fn on_circles(arrows: &BTreeSet<(String, String)>) -> BTreeSet<(String, String)> {
    let reached_from = |start: &String| {
        let mut seen: BTreeSet<&String> = BTreeSet::new();
        let mut todo = vec![start];
        while let Some(m) = todo.pop() {
            for (_, to) in arrows.range((m.clone(), String::new())..).take_while(|(from, _)| from == m) {
                if seen.insert(to) {
                    todo.push(to);
                }
            }
        }
        seen.into_iter().cloned().collect::<BTreeSet<String>>()
    };
    arrows.iter().filter(|(a, b)| reached_from(b).contains(a)).cloned().collect()
}

#[test]
fn no_module_of_the_engine_is_on_an_import_circle() {
    let all = modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let arrows = arrows(&all);
    assert!(arrows.len() > 200, "the scan found only {} arrows", arrows.len());
    let circled = on_circles(&arrows);
    let listed: Vec<String> = circled.iter().map(|(a, b)| format!("{a} -> {b}")).collect();
    assert!(listed.is_empty(), "arrows on an import circle:\n{}", listed.join("\n"));
}

#[test]
fn the_circle_scan_reads_paths_and_finds_circles() {
    let code =
        "use crate::{position::{Move, Position}, rules};\nuse super::x::*;\nlet s = \"a::b\"; f('{'); Bound::Exact";
    let found: Vec<String> = paths(code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        found,
        ["crate::position::Move", "crate::position::Position", "crate::rules", "super::x", "Bound::Exact"]
    );
    let all: BTreeMap<String, String> = ["", "state", "state::position", "state::fen", "state::fen::rows", "rules"]
        .iter()
        .map(|m| (m.to_string(), String::new()))
        .collect();
    let aliases: BTreeMap<String, Vec<String>> = [("position", "state::position"), ("Move", "position::Move")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.split("::").map(String::from).collect()))
        .collect();
    let named = |module: &str, path: &str| {
        named_module(&all, &aliases, module, &path.split("::").map(String::from).collect::<Vec<_>>())
    };
    assert_eq!(named("state::fen::rows", "super::Error").as_deref(), Some("state::fen"));
    assert_eq!(named("state::fen", "rows::read").as_deref(), Some("state::fen::rows"));
    assert_eq!(named("state::fen", "crate::Move").as_deref(), Some("state::position"));
    assert_eq!(named("state::fen", "crate::rules::Rules").as_deref(), Some("rules"));
    assert_eq!(named("state::fen", "Bound::Exact"), None);
    let arrows: BTreeSet<(String, String)> = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a"), ("c", "e")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let circled: Vec<String> = on_circles(&arrows).iter().map(|(a, b)| format!("{a}{b}")).collect();
    assert_eq!(circled, ["ab", "bc", "ca"]);
}
