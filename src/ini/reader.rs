//! Reads the text of a Fairy-Stockfish `variants.ini` into sections of keyed values, each with its byte span.

use std::ops::Range;

use super::IniError;

/// One `key = value` line.
#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    pub key_span: Range<usize>,
    /// The value with surrounding blanks removed (Fairy-Stockfish keeps trailing ones, which no
    /// option reads).
    pub value: String,
    pub value_span: Range<usize>,
}

/// One `[name]` or `[name:parent]` section and its entries in file order.
#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub name_span: Range<usize>,
    pub parent: Option<(String, Range<usize>)>,
    pub entries: Vec<Entry>,
}

impl Section {
    /// The entry a key last received (a later line wins, as in Fairy-Stockfish).
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key == key)
    }
}

/// Whether a name may name a section (letters, digits, `-`, `_`, `.` and `+`).
fn good_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
}

/// Trims blanks from both ends of `text[range]`, returning the narrowed range.
fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    let start = range.start + (s.len() - s.trim_start().len());
    let end = range.end - (s.len() - s.trim_end().len());
    start..end.max(start)
}

/// Reads a section header line (`[name]` or `[name:parent]`) starting at `at`.
fn header(text: &str, line: Range<usize>) -> Result<Section, IniError> {
    let s = &text[line.clone()];
    let Some(close) = s.find(']') else {
        return Err(IniError::new(line, "a section header must end with `]`", "expected `[name]` or `[name:parent]`"));
    };
    let rest = trim(text, line.start + close + 1..line.end);
    if !rest.is_empty() {
        return Err(IniError::new(rest, "text after a section header", "expected the end of the line after `]`"));
    }
    let inner = line.start + 1..line.start + close;
    let (name_span, parent_span) = match text[inner.clone()].find(':') {
        Some(colon) => (inner.start..inner.start + colon, Some(inner.start + colon + 1..inner.end)),
        None => (inner.clone(), None),
    };
    let name_span = trim(text, name_span);
    let name = text[name_span.clone()].to_string();
    if !good_name(&name) {
        let at = if name.is_empty() { line.start..line.start + close + 1 } else { name_span };
        return Err(IniError::new(
            at,
            "a section needs a name",
            "expected a name of letters, digits, `-`, `_`, `.` or `+`",
        ));
    }
    let parent = match parent_span {
        None => None,
        Some(span) => {
            let span = trim(text, span);
            let parent = text[span.clone()].to_string();
            if !good_name(&parent) {
                let at = if parent.is_empty() { inner.end..inner.end + 1 } else { span };
                return Err(IniError::new(
                    at,
                    "a parent must be named after `:`",
                    "expected the name of a variant to inherit from",
                ));
            }
            Some((parent, span))
        }
    };
    Ok(Section { name, name_span, parent, entries: Vec::new() })
}

/// Reads the whole file: text before the first section is ignored, as Fairy-Stockfish does;
/// lines starting with `#` or `;` are comments; every other non-blank line is `key = value`.
pub fn read(text: &str) -> Result<Vec<Section>, Vec<IniError>> {
    let mut sections: Vec<Section> = Vec::new();
    let mut errors = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = trim(text, start..start + raw.trim_end_matches(['\n', '\r']).len());
        let s = &text[line.clone()];
        if s.is_empty() || s.starts_with('#') || s.starts_with(';') {
            continue;
        }
        if s.starts_with('[') {
            match header(text, line) {
                Ok(section) => {
                    if let Some(first) = sections.iter().find(|o| o.name == section.name) {
                        let (l, _) = varia_grammar::line_col(text, first.name_span.start);
                        errors.push(IniError::new(
                            section.name_span.clone(),
                            &format!("section `{}` is defined twice", section.name),
                            &format!("first defined on line {l}"),
                        ));
                    }
                    sections.push(section);
                }
                Err(e) => errors.push(e),
            }
            continue;
        }
        let Some(section) = sections.last_mut() else {
            continue;
        };
        let Some(eq) = s.find('=') else {
            errors.push(IniError::new(
                line,
                "a line that is not `key = value`",
                "expected `key = value`, a comment or a `[section]`",
            ));
            continue;
        };
        let key_span = trim(text, line.start..line.start + eq);
        if key_span.is_empty() {
            errors.push(IniError::new(
                line.start..line.start + eq + 1,
                "a value without a key",
                "expected `key = value`",
            ));
            continue;
        }
        let value_span = trim(text, line.start + eq + 1..line.end);
        section.entries.push(Entry {
            key: text[key_span.clone()].to_string(),
            key_span,
            value: text[value_span.clone()].to_string(),
            value_span,
        });
    }
    if errors.is_empty() {
        Ok(sections)
    } else {
        Err(errors)
    }
}
