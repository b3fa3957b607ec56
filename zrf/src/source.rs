//! Rule files as Zillions reads them from disk: bytes to text (UTF-8, else Windows-1252) and `(include ...)`.
use std::path::Path;

use crate::lower::{load_with, Game};
use crate::reader::{parse, Sexp, SexpKind, ZrfError};

/// Deepest chain of files including files (a file including itself stops here, not in a hang).
pub const MAX_INCLUDE_DEPTH: usize = 8;

/// Most bytes all included files of one rule file may hold together.
pub const MAX_INCLUDED_BYTES: usize = 4 << 20;

/// Most bytes a rule file may hold, `.zrf` or `.var` (the largest Zillions game of the corpus
/// has 77 KB): a longer file is refused before it is parsed, so that `/dev/zero` is no hang.
pub const MAX_FILE_BYTES: usize = 4 << 20;

/// The bytes of a rule file, read only up to [`MAX_FILE_BYTES`]; a longer file (or a device
/// that never ends) is an error naming the limit.
pub fn read_rule_file(path: &Path) -> Result<Vec<u8>, String> {
    read_at_most(path, MAX_FILE_BYTES, "a rule file")
}

/// The bytes of a file, at most `limit` of them; a longer file is an error naming the limit
/// and `what` the file is.
fn read_at_most(path: &Path, limit: usize, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() > limit {
        return Err(format!("{}: {what} may hold at most {limit} bytes; this one holds more", path.display()));
    }
    Ok(bytes)
}

/// Windows-1252's characters for the bytes 0x80..=0x9F (the five bytes it leaves undefined
/// map to the control character of the same number, as the WHATWG encoding standard does).
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{2C6}', '\u{2030}',
    '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}',
    '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}',
    '\u{17E}', '\u{178}',
];

/// A rule file's text: UTF-8 when the bytes are valid UTF-8, else Windows-1252, the encoding
/// Zillions' own files were written in (every byte decodes, so reading never fails).
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes
            .iter()
            .map(|&b| match b {
                0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
                _ => char::from(b),
            })
            .collect(),
    }
}

/// Reads, decodes and lowers the rule file at `path`, resolving `(include "NAME")` against
/// the file's folder. The text comes back with the result, for rendering errors and notes.
pub fn load_file(path: &Path, choice: Option<&str>) -> Result<(String, Game), (String, ZrfError)> {
    let bytes = read_rule_file(path).map_err(|e| (String::new(), ZrfError::new(e, 0..0, "the file")))?;
    let text = decode(&bytes);
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut read = |name: &str| -> Result<String, String> {
        let included = folder.join(name);
        // No included file may hold more than all of them together.
        read_at_most(&included, MAX_INCLUDED_BYTES, "an included file").map(|b| decode(&b))
    };
    match load_with(&text, choice, &mut read) {
        Ok(game) => Ok((text, game)),
        Err(e) => Err((text, e)),
    }
}

/// Replaces each top-level `(include "NAME")` by the forms of the file `read` returns for NAME,
/// itself with its includes spliced. Every node from an included file is located at the
/// `(include ...)` that brought it in (the main file's text is the one errors are shown in).
pub(crate) fn splice_includes(
    forms: Vec<Sexp>,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Vec<Sexp>, ZrfError> {
    let mut budget = MAX_INCLUDED_BYTES;
    splice(forms, read, 0, None, &mut budget)
}

fn splice(
    forms: Vec<Sexp>,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
    depth: usize,
    at: Option<&std::ops::Range<usize>>,
    budget: &mut usize,
) -> Result<Vec<Sexp>, ZrfError> {
    let mut out = Vec::with_capacity(forms.len());
    for mut form in forms {
        if let Some(span) = at {
            relocate(&mut form, span);
        }
        if !form.is_form("include") {
            out.push(form);
            continue;
        }
        let span = at.cloned().unwrap_or_else(|| form.span.clone());
        let label = "expected (include \"FILE.zrf\")";
        let [name] = form.tail() else {
            return Err(ZrfError::new("'include' needs one file name", span, label));
        };
        let Some(name) = name.text() else {
            return Err(ZrfError::new("'include' needs a file name in quotes", span, label));
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return Err(ZrfError::new(
                format!("files include each other more than {MAX_INCLUDE_DEPTH} deep (at \"{name}\")"),
                span,
                "an include cycle?",
            ));
        }
        let included = read(name).map_err(|e| ZrfError::new(e, span.clone(), "the file to include"))?;
        if included.len() > *budget {
            return Err(ZrfError::new(
                format!("included files hold more than {MAX_INCLUDED_BYTES} bytes together (at \"{name}\")"),
                span,
                "too much included text",
            ));
        }
        *budget -= included.len();
        let inner = parse(&included).map_err(|e| {
            ZrfError::new(format!("in included file \"{name}\": {}", e.render(&included)), span.clone(), label)
        })?;
        out.extend(splice(inner, read, depth + 1, Some(&span), budget)?);
    }
    Ok(out)
}

/// Gives a node and everything under it the span `span`.
fn relocate(node: &mut Sexp, span: &std::ops::Range<usize>) {
    node.span = span.clone();
    if let SexpKind::List(items) = &mut node.kind {
        for item in items {
            relocate(item, span);
        }
    }
}
