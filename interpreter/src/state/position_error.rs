//! A position string that could not be read: where the offending text is and what was expected.

/// A position string that could not be read; `offset..offset+len` is the offending text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PositionError {
    /// Byte offset of the offending text.
    pub offset: usize,
    /// Its length in bytes (at least 1 when the text is non-empty).
    pub len: usize,
    /// What was wrong and what was expected.
    pub message: String,
}
