//! Reads the Lisp-like text of a Zillions rule file into a syntax tree with byte spans.
//!
//! The lexical rules, as decided from the real files and the sources listed in `SEMANTICS.md`:
//!
//! - Whitespace is every byte from `0x00` to `0x20`; a UTF-8 byte-order mark at the very start is
//!   skipped.
//! - `;` starts a comment that runs to the end of the line (`\n` or `\r`), wherever it appears
//!   outside a string, also straight after an atom (`add;comment` is the atom `add`).
//! - A string runs from `"` to the next `"`, may span lines and has no escapes: a backslash is
//!   an ordinary character (`"Audio\Pickup.wav"`). In Zillions a `\` inside a *displayed* text
//!   means a line break and `` ` `` stands for a double quote; that is display formatting and is
//!   left to later layers, the reader keeps the text as written.
//! - An atom is a maximal run of other bytes: `a/b/c`, `$1`, `empty?`, `-1`, `D$1`, `O-O-O`.
//! - `(` and `)` delimit lists.
//!
//! Keywords are compared without regard to ASCII case by [`eq_keyword`] (whether Zillions itself
//! is case-insensitive could not be confirmed; the reader never changes the original text).
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// Deepest list nesting the reader accepts; the real files nest about a dozen levels, and a
/// bound keeps every later recursive walk (display, expansion, drop) far from stack overflow.
pub const MAX_NESTING: usize = 200;

/// A reading or macro-expansion error, located by a byte span in the source text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ZrfError {
    /// The whole message, one line, without a location prefix.
    pub message: String,
    /// Byte range of the offending text in the source.
    pub span: Range<usize>,
    /// A short note to print under the span (like a caret label).
    pub label: String,
}

impl ZrfError {
    /// Builds an error from its three parts.
    pub fn new(message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Self {
        ZrfError { message: message.into(), span, label: label.into() }
    }

    /// The 1-based line and column (in characters) where the error starts.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        line_col(text, self.span.start)
    }

    /// A one-line rendering `LINE:COL: message (label)`, for logs and test assertions.
    pub fn render(&self, text: &str) -> String {
        let (line, col) = self.line_col(text);
        if self.label.is_empty() {
            format!("{line}:{col}: {}", self.message)
        } else {
            format!("{line}:{col}: {} ({})", self.message, self.label)
        }
    }
}

/// The 1-based line and column of a byte offset; the column counts characters, not bytes.
///
/// An offset past the end is clamped to the end, and an offset inside a multi-byte character
/// is moved back to that character's start, so any offset is accepted.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = text.get(..offset).unwrap_or("");
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

/// Compares two keywords or names without regard to ASCII case (`Add` matches `add`).
pub fn eq_keyword(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Where a node produced by macro expansion came from: which macro, used where.
///
/// Expansions nest: a macro used inside another macro's body has the outer expansion as its
/// `parent`, so the whole chain of uses can be reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expansion {
    /// The macro's name as written at the use.
    pub macro_name: String,
    /// Byte span of the whole use, e.g. `(slide n)`.
    pub use_span: Range<usize>,
    /// The expansion the use itself came from, if it was written inside a macro body.
    pub parent: Option<Arc<Expansion>>,
}

impl Expansion {
    /// Describes the chain of uses, innermost first: `in macro 'a' used at 3:5, in macro 'b'
    /// used at 9:1`.
    pub fn describe(&self, text: &str) -> String {
        let mut parts = Vec::new();
        let mut cur = Some(self);
        while let Some(exp) = cur {
            let (line, col) = line_col(text, exp.use_span.start);
            parts.push(format!("in macro '{}' used at {line}:{col}", exp.macro_name));
            cur = exp.parent.as_deref();
        }
        parts.join(", ")
    }
}

/// One node of the syntax tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sexp {
    /// What the node is.
    pub kind: SexpKind,
    /// Byte span in the source text: for a node copied from a macro body, the span in the body.
    pub span: Range<usize>,
    /// For a node that came out of a macro body: the use that produced it. `None` for text
    /// written directly (including macro arguments, which keep their own spans and origin).
    pub expanded_from: Option<Arc<Expansion>>,
}

/// The three kinds of node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SexpKind {
    /// A bare word such as `add`, `a1`, `$1`, `-1`.
    Atom(String),
    /// A double-quoted string, without the quotes.
    Str(String),
    /// A parenthesised list.
    List(Vec<Sexp>),
}

impl Sexp {
    /// An atom node written directly in the source.
    pub fn atom(text: impl Into<String>, span: Range<usize>) -> Self {
        Sexp { kind: SexpKind::Atom(text.into()), span, expanded_from: None }
    }

    /// A string node written directly in the source.
    pub fn string(text: impl Into<String>, span: Range<usize>) -> Self {
        Sexp { kind: SexpKind::Str(text.into()), span, expanded_from: None }
    }

    /// A list node written directly in the source.
    pub fn list(items: Vec<Sexp>, span: Range<usize>) -> Self {
        Sexp { kind: SexpKind::List(items), span, expanded_from: None }
    }

    /// The text of an atom, or `None`.
    pub fn as_atom(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Atom(text) => Some(text),
            _ => None,
        }
    }

    /// The contents of a string, or `None`.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The text of an atom or a string, or `None` for a list.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Atom(text) | SexpKind::Str(text) => Some(text),
            SexpKind::List(_) => None,
        }
    }

    /// The items of a list, or `None`.
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match &self.kind {
            SexpKind::List(items) => Some(items),
            _ => None,
        }
    }

    /// The first item of a list when it is an atom: the keyword of a form like `(moves ...)`.
    pub fn head(&self) -> Option<&str> {
        self.as_list()?.first()?.as_atom()
    }

    /// True when this is a list whose head is `keyword`, ignoring ASCII case.
    pub fn is_form(&self, keyword: &str) -> bool {
        self.head().is_some_and(|head| eq_keyword(head, keyword))
    }

    /// True when this is an atom equal to `word`, ignoring ASCII case.
    pub fn is_atom(&self, word: &str) -> bool {
        self.as_atom().is_some_and(|atom| eq_keyword(atom, word))
    }

    /// The items after the head of a list; empty for atoms, strings and empty lists.
    pub fn tail(&self) -> &[Sexp] {
        self.as_list().and_then(|items| items.get(1..)).unwrap_or(&[])
    }

    /// Every list in this subtree, this node included, whose head is `keyword` (ignoring case).
    pub fn find_forms<'a>(&'a self, keyword: &str) -> Vec<&'a Sexp> {
        let mut found = Vec::new();
        self.walk(&mut |node| {
            if node.is_form(keyword) {
                found.push(node);
            }
        });
        found
    }

    /// Calls `visit` on this node and every node below it, parents before children.
    pub fn walk<'a>(&'a self, visit: &mut impl FnMut(&'a Sexp)) {
        visit(self);
        if let Some(items) = self.as_list() {
            for item in items {
                item.walk(visit);
            }
        }
    }

    /// Number of nodes in this subtree, this node included.
    pub fn node_count(&self) -> usize {
        let mut count = 0;
        self.walk(&mut |_| count += 1);
        count
    }

    /// The text laid out over several lines: a list that fits in `width` columns stays on one
    /// line, a longer one puts each item on its own line, indented by two spaces.
    pub fn pretty(&self, width: usize) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, 0, width);
        out
    }

    fn write_pretty(&self, out: &mut String, indent: usize, width: usize) {
        let flat = self.to_string();
        let items = match &self.kind {
            SexpKind::List(items) if indent + flat.len() > width && !items.is_empty() => items,
            _ => {
                out.push_str(&flat);
                return;
            }
        };
        out.push('(');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push('\n');
                out.push_str(&" ".repeat(indent + 2));
            }
            item.write_pretty(out, indent + 2, width);
        }
        out.push(')');
    }
}

/// Prints the node back as compact one-line text: `(slide n)`, `"a/b"`, `add`.
impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SexpKind::Atom(text) => f.write_str(text),
            SexpKind::Str(text) => write!(f, "\"{text}\""),
            SexpKind::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Reads every top-level form of `text`, without expanding macros.
pub fn parse(text: &str) -> Result<Vec<Sexp>, ZrfError> {
    let bytes = text.as_bytes();
    let mut pos = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    // Open lists as (start offset, items so far); an explicit stack so deep input cannot
    // overflow the call stack while reading.
    let mut open: Vec<(usize, Vec<Sexp>)> = Vec::new();
    let mut top: Vec<Sexp> = Vec::new();

    while let Some(&byte) = bytes.get(pos) {
        match byte {
            0..=b' ' => pos += 1,
            b';' => {
                while bytes.get(pos).is_some_and(|&b| b != b'\n' && b != b'\r') {
                    pos += 1;
                }
            }
            b'(' => {
                if open.len() >= MAX_NESTING {
                    return Err(ZrfError::new(
                        format!("lists nested deeper than {MAX_NESTING} levels"),
                        pos..pos + 1,
                        "this '(' is too deep",
                    ));
                }
                open.push((pos, Vec::new()));
                pos += 1;
            }
            b')' => {
                let Some((start, items)) = open.pop() else {
                    return Err(ZrfError::new("unexpected ')'", pos..pos + 1, "no '(' is open here"));
                };
                pos += 1;
                push_node(&mut open, &mut top, Sexp::list(items, start..pos));
            }
            b'"' => {
                let start = pos;
                let content_start = pos + 1;
                let Some(len) = bytes.get(content_start..).and_then(|rest| rest.iter().position(|&b| b == b'"')) else {
                    return Err(ZrfError::new("unterminated string", start..start + 1, "this string is never closed"));
                };
                let content_end = content_start + len;
                let content = text.get(content_start..content_end).unwrap_or("");
                pos = content_end + 1;
                push_node(&mut open, &mut top, Sexp::string(content, start..pos));
            }
            _ => {
                let start = pos;
                while bytes.get(pos).is_some_and(|&b| !ends_atom(b)) {
                    pos += 1;
                }
                let atom = text.get(start..pos).unwrap_or("");
                push_node(&mut open, &mut top, Sexp::atom(atom, start..pos));
            }
        }
    }

    if let Some((start, _)) = open.last() {
        let unclosed = open.len();
        let message = if unclosed == 1 {
            "unbalanced parentheses: a '(' is never closed".to_string()
        } else {
            format!("unbalanced parentheses: {unclosed} '(' are never closed")
        };
        return Err(ZrfError::new(message, *start..*start + 1, "the innermost unclosed '(' opens here"));
    }
    Ok(top)
}

/// Bytes that end an atom: whitespace, parentheses, a quote or a comment start. All are ASCII,
/// so atom boundaries always fall on UTF-8 character boundaries.
fn ends_atom(byte: u8) -> bool {
    byte <= b' ' || matches!(byte, b'(' | b')' | b'"' | b';')
}

fn push_node(open: &mut [(usize, Vec<Sexp>)], top: &mut Vec<Sexp>, node: Sexp) {
    match open.last_mut() {
        Some((_, items)) => items.push(node),
        None => top.push(node),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> String {
        parse(text).expect("parses").iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" | ")
    }

    fn error(text: &str) -> String {
        parse(text).expect_err("fails").render(text)
    }

    #[test]
    fn atoms_of_every_shape() {
        let forms = parse("a/b/c $1 empty? -1 not-friend? D$1 O-O-O 8/7/6").expect("parses");
        let atoms: Vec<_> = forms.iter().map(|s| s.as_atom().expect("atom")).collect();
        assert_eq!(atoms, ["a/b/c", "$1", "empty?", "-1", "not-friend?", "D$1", "O-O-O", "8/7/6"]);
    }

    #[test]
    fn strings_keep_backslashes_and_span_lines() {
        let text = "(move-sound \"Audio\\Pickup.wav\")\n(description \"one\n  two\")";
        let forms = parse(text).expect("parses");
        assert_eq!(forms[0].tail()[0].as_str(), Some("Audio\\Pickup.wav"));
        assert_eq!(forms[1].tail()[0].as_str(), Some("one\n  two"));
        let start = text.find("\"one").expect("present");
        assert_eq!(forms[1].tail()[0].span, start..start + 11);
        assert_eq!(&text[forms[1].tail()[0].span.clone()], "\"one\n  two\"");
    }

    #[test]
    fn empty_string_and_string_glued_to_atoms() {
        assert_eq!(show("(capture-sound \"\")"), "(capture-sound \"\")");
        assert_eq!(show("ab\"cd\"ef"), "ab | \"cd\" | ef");
    }

    #[test]
    fn comments_run_to_end_of_line() {
        assert_eq!(show("(a ; comment ( ) \"\n b) ; tail"), "(a b)");
        assert_eq!(show("(add;glued comment\n)"), "(add)");
        assert_eq!(show("(a \"; not a comment\")"), "(a \"; not a comment\")");
        assert_eq!(show("; only a comment"), "");
        assert_eq!(show("(x ; old mac line end\rb)"), "(x b)");
    }

    #[test]
    fn nested_lists_and_spans() {
        let text = "(game\n  (piece (name Pawn)))";
        let forms = parse(text).expect("parses");
        assert_eq!(forms.len(), 1);
        let game = &forms[0];
        assert_eq!(game.span, 0..text.len());
        assert_eq!(game.head(), Some("game"));
        let piece = &game.tail()[0];
        assert_eq!(&text[piece.span.clone()], "(piece (name Pawn))");
        let name = &piece.tail()[0];
        assert_eq!(&text[name.span.clone()], "(name Pawn)");
        assert_eq!(&text[name.tail()[0].span.clone()], "Pawn");
        assert_eq!(line_col(text, piece.span.start), (2, 3));
    }

    #[test]
    fn empty_list_and_list_headed_by_list() {
        let forms = parse("() ((a) b)").expect("parses");
        assert_eq!(forms[0].as_list().map(<[Sexp]>::len), Some(0));
        assert_eq!(forms[0].head(), None);
        assert_eq!(forms[1].head(), None);
        assert!(forms[1].tail()[0].is_atom("B"));
    }

    #[test]
    fn helpers_ignore_keyword_case() {
        let forms = parse("(Moves (STEP n))").expect("parses");
        assert!(forms[0].is_form("moves"));
        assert!(forms[0].tail()[0].is_form("step"));
        assert!(eq_keyword("Add-Partial", "add-partial"));
        assert!(!eq_keyword("add", "add-copy"));
        assert_eq!(forms[0].find_forms("step").len(), 1);
    }

    #[test]
    fn byte_order_mark_and_unicode_atoms() {
        let text = "\u{feff}(title Échecs) (é ü)";
        let forms = parse(text).expect("parses");
        assert_eq!(forms[0].to_string(), "(title Échecs)");
        assert_eq!(forms[0].span.start, 3);
        assert_eq!(line_col(text, forms[1].span.start), (1, 17));
    }

    #[test]
    fn line_col_counts_characters_and_clamps() {
        let text = "ab\nçd\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 5), (2, 2)); // after the two-byte ç
        assert_eq!(line_col(text, 4), (2, 1)); // inside ç: moved back to its start
        assert_eq!(line_col(text, 999), (3, 1));
        assert_eq!(line_col("", 5), (1, 1));
    }

    #[test]
    fn stray_close_paren() {
        assert_eq!(error("(a b))"), "1:6: unexpected ')' (no '(' is open here)");
        assert_eq!(error("\n  )"), "2:3: unexpected ')' (no '(' is open here)");
    }

    #[test]
    fn unclosed_parens_point_at_innermost() {
        assert_eq!(
            error("(game\n  (piece (name P)\n"),
            "2:3: unbalanced parentheses: 2 '(' are never closed (the innermost unclosed '(' opens here)"
        );
        assert_eq!(
            error("(a (b) (c)"),
            "1:1: unbalanced parentheses: a '(' is never closed (the innermost unclosed '(' opens here)"
        );
    }

    #[test]
    fn unterminated_string() {
        assert_eq!(error("(title \"Chess)\n(x)"), "1:8: unterminated string (this string is never closed)");
    }

    #[test]
    fn nesting_limit_is_an_error_not_a_crash() {
        let deep = "(".repeat(100_000);
        let err = parse(&deep).expect_err("too deep");
        assert_eq!(err.message, "lists nested deeper than 200 levels");
        assert_eq!(err.span, 200..201);
        let ok = format!("{}{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn display_round_trips_compactly() {
        let text = "(define slide ( $1 (while empty? add $1)\n (verify not-friend?) add ))";
        let forms = parse(text).expect("parses");
        assert_eq!(forms[0].to_string(), "(define slide ($1 (while empty? add $1) (verify not-friend?) add))");
        let again = parse(&forms[0].to_string()).expect("reparses");
        assert_eq!(again[0].to_string(), forms[0].to_string());
    }

    #[test]
    fn pretty_breaks_long_lists() {
        let forms = parse("(piece (name Rook) (moves (slide n) (slide s) (slide e) (slide w)))").expect("parses");
        assert_eq!(
            forms[0].pretty(30),
            "(piece\n  (name Rook)\n  (moves\n    (slide n)\n    (slide s)\n    (slide e)\n    (slide w)))"
        );
        assert_eq!(forms[0].pretty(200), forms[0].to_string());
    }
}
