//! The shape of the workspace's code: no struct of its Rust sources has more than 30 fields
//! (a bigger one is split by concern into named parts) and no function more than 120 lines,
//! save those the allow-lists name with their reason.

use std::fs;
use std::path::{Path, PathBuf};

/// The most fields a struct may have.
const MAX_FIELDS: usize = 30;

/// Structs allowed more fields, by file and name, each with its reason. Empty: none is.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// The most lines a function may span, from its `fn` to its closing brace.
const MAX_LINES: usize = 120;

/// Functions allowed more lines, by file and name, each with its reason. Empty: none is.
const ALLOWED_FUNCTIONS: &[(&str, &str, &str)] = &[];

/// Every `.rs` file under `dir`, build output and hidden folders left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if !name.starts_with('.') && !name.starts_with("target") && name != "node_modules" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The code's tokens: words, `::`, `->`, and every other character alone; comments, string
/// and character literals left out, a lifetime's quote dropped.
fn tokens(code: &str) -> Vec<String> {
    tokens_on_lines(code).into_iter().map(|(t, _)| t).collect()
}

/// [`tokens`], each with the line it starts on (from 1).
fn tokens_on_lines(code: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let line: Vec<usize> = chars
        .iter()
        .scan(1, |n, c| {
            let here = *n;
            *n += (*c == '\n') as usize;
            Some(here)
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == 'r' && matches!(next, Some('"' | '#')) && (i == 0 || !chars[i - 1].is_alphanumeric()) {
            // A raw string: `r"..."`, `r#"..."#`, closed by a quote and as many hashes.
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) == Some(&'"') {
                let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                i += 2 + hashes;
                while i < chars.len() && !chars[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                continue;
            }
        }
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((chars[start..i].iter().collect(), line[start]));
            continue;
        }
        match (c, next) {
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 1;
            }
            ('"', _) => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            ('\'', Some('\\')) => {
                while i + 1 < chars.len() && chars[i + 1] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            ('\'', _) if chars.get(i + 2) == Some(&'\'') => i += 2,
            (':', Some(':')) | ('-', Some('>')) => {
                out.push(([c, next.unwrap()].iter().collect(), line[i]));
                i += 1;
            }
            _ if !c.is_whitespace() && c != '\'' => out.push((c.to_string(), line[i])),
            _ => {}
        }
        i += 1;
    }
    out
}

fn opens(t: &str) -> bool {
    matches!(t, "(" | "[" | "{" | "<")
}

fn closes(t: &str) -> bool {
    matches!(t, ")" | "]" | "}" | ">")
}

/// Each struct with named fields in the code, with the number of its fields: the parts of its
/// body between commas outside any bracket that hold a name and a single colon.
fn structs(code: &str) -> Vec<(String, usize)> {
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < t.len() {
        if t[i] != "struct" || !t[i + 1].chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
            i += 1;
            continue;
        }
        let name = t[i + 1].clone();
        // The body's `{`, past any generics; a tuple or unit struct has none.
        let mut j = i + 2;
        let mut depth = 0;
        while j < t.len() && !(depth == 0 && matches!(t[j].as_str(), "{" | "(" | ";")) {
            depth += opens(&t[j]) as i32 - closes(&t[j]) as i32;
            j += 1;
        }
        if t.get(j).map(String::as_str) != Some("{") {
            i = j;
            continue;
        }
        let (mut fields, mut depth, mut named) = (0, 0, false);
        j += 1;
        while j < t.len() && !(depth == 0 && t[j] == "}") {
            let tok = t[j].as_str();
            if depth == 0 && tok == ":" && t[j - 1].chars().all(|c| c.is_alphanumeric() || c == '_') {
                named = true;
            }
            if depth == 0 && tok == "," {
                fields += named as usize;
                named = false;
            }
            depth += opens(tok) as i32 - closes(tok) as i32;
            j += 1;
        }
        out.push((name, fields + named as usize));
        i = j;
    }
    out
}

/// Each function with a body in the code, with the lines it spans from its `fn` to its
/// closing brace (a function inside another counts in both).
fn functions(code: &str) -> Vec<(String, usize)> {
    let t = tokens_on_lines(code);
    let mut out = Vec::new();
    for i in 0..t.len().saturating_sub(1) {
        if t[i].0 != "fn" || !t[i + 1].0.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
            continue;
        }
        // The body's `{` past the generics, parameters and return type; a declaration has none.
        let mut j = i + 2;
        let mut depth = 0;
        while j < t.len() && !(depth == 0 && matches!(t[j].0.as_str(), "{" | ";")) {
            depth += opens(&t[j].0) as i32 - closes(&t[j].0) as i32;
            j += 1;
        }
        if t.get(j).map(|t| t.0.as_str()) != Some("{") {
            continue;
        }
        let mut braces = 0;
        while j < t.len() {
            braces += (t[j].0 == "{") as i32 - (t[j].0 == "}") as i32;
            if braces == 0 {
                break;
            }
            j += 1;
        }
        let end = t.get(j).map_or(t[i].1, |t| t.1);
        out.push((t[i + 1].0.clone(), end - t[i].1 + 1));
    }
    out
}

#[test]
fn the_line_count_reads_bodies_strings_and_declarations() {
    let code = r###"
        trait T { fn declared(&self) -> u8; }
        pub(crate) fn outer<F: Fn(u8) -> u8>(f: F) -> Vec<u8>
        where
            F: Copy,
        {
            let s = "} not a brace {";
            let c = '}';
            fn inner() {}
            vec![f(1)]
        }
        const P: fn(u8) -> u8 = |x| x;
        fn last() { /* } */ }
    "###;
    assert_eq!(functions(code), [("outer".to_string(), 9), ("inner".to_string(), 1), ("last".to_string(), 1)]);
}

#[test]
fn no_function_is_over_120_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(root, &mut files);
    files.sort();
    let (mut seen, mut longest, mut over) = (0, 0, Vec::new());
    for file in &files {
        let relative = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let Ok(code) = fs::read_to_string(file) else { continue };
        for (name, lines) in functions(&code) {
            seen += 1;
            longest = longest.max(lines);
            let allowed = ALLOWED_FUNCTIONS.iter().any(|(f, n, _)| *f == relative && *n == name);
            if lines > MAX_LINES && !allowed {
                over.push(format!("{relative}: fn {name} spans {lines} lines"));
            }
        }
    }
    // The scan reads the engine's sources: thousands of functions, the longest near the limit.
    assert!(seen > 2000, "the scan found only {seen} functions in {} files", files.len());
    assert!(longest > 60, "the longest function found spans {longest} lines");
    assert!(over.is_empty(), "functions over {MAX_LINES} lines (split them by concern):\n{}", over.join("\n"));
}

#[test]
fn the_field_count_reads_attributes_generics_and_comments() {
    let code = r###"
        /// A doc comment with a struct Fake { a: u8 } in it.
        #[derive(Clone)]
        pub(crate) struct Shape<'a, T: Copy + 'a> where T: Default {
            #[serde(skip_serializing_if = "Vec::is_empty")]
            pub a: Vec<(u8, &'a str)>,
            b: std::collections::BTreeMap<String, (String, char, &'static str)>,
            /// c's doc: "x, y: z"
            pub(crate) c: [Option<T>; 3],
            d: Box<dyn Fn(u32, u32) -> u32>,
            e: char // the last one, no comma
        }
        struct Tuple(u8, u16);
        struct Unit;
        struct Empty {}
        fn f() -> char { let x = '{'; let y = '\''; x }
        struct After { one: u8, two: u8, }
        const RAW: &str = r##"struct Hidden { a: u8 }"##;
    "###;
    assert_eq!(structs(code), [("Shape".to_string(), 5), ("Empty".to_string(), 0), ("After".to_string(), 2)]);
}

#[test]
fn no_struct_has_more_than_30_fields() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(root, &mut files);
    files.sort();
    let mut seen = 0;
    let mut largest = 0;
    let mut over = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let Ok(code) = fs::read_to_string(file) else { continue };
        for (name, fields) in structs(&code) {
            seen += 1;
            largest = largest.max(fields);
            let allowed = ALLOWED.iter().any(|(f, n, _)| *f == relative && *n == name);
            if fields > MAX_FIELDS && !allowed {
                over.push(format!("{relative}: struct {name} has {fields} fields"));
            }
        }
    }
    // The scan reads the engine's sources: hundreds of structs, the biggest near the limit.
    assert!(seen > 200, "the scan found only {seen} structs in {} files", files.len());
    assert!(largest > 20, "the biggest struct found has {largest} fields");
    assert!(over.is_empty(), "structs over {MAX_FIELDS} fields (split them by concern):\n{}", over.join("\n"));
}
