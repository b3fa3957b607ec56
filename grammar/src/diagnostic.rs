//! Diagnostics: located errors as plain data (rendering is the CLI's job).

use std::ops::Range;

/// One error in a source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, in one line.
    pub message: String,
    /// Byte range of the offending text.
    pub span: Range<usize>,
    /// A short label for the span: what was expected there.
    pub label: String,
}

impl Diagnostic {
    /// A diagnostic at `span`.
    pub fn new(message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Diagnostic {
        Diagnostic { message: message.into(), span, label: label.into() }
    }

    /// The 1-based line and column of the start of the span in `text`.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        line_col(text, self.span.start)
    }
}

/// The 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, col)
}
