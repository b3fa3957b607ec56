//! Reading Zillions-of-Games rule files: the S-expression reader, macro expansion and lowering.
//!
//! [`read`] turns the text of a `.zrf` file into its top-level forms with every `(define ...)`
//! macro expanded; [`reader::parse`] reads without expanding; [`load`] lowers a game (or one of
//! its variants) into Varia's IR. `SEMANTICS.md` next to this crate summarises what the forms
//! mean when a game is played.
pub mod lower;
pub mod macros;
pub mod reader;
pub mod source;

pub use lower::{load, load_with, variant_titles, Game, ZrfNote, MAX_PIECE_TYPES, MAX_POSITIONS};
pub use macros::{
    expand, read, Macro, ZrfFile, MAX_EXPANDED_BYTES, MAX_EXPANDED_NESTING, MAX_EXPANDED_NODES, MAX_EXPANSION_DEPTH,
};
pub use reader::{eq_keyword, line_col, parse, Expansion, Sexp, SexpKind, ZrfError, MAX_NESTING};
pub use source::{decode, load_file, read_rule_file, MAX_FILE_BYTES, MAX_INCLUDED_BYTES, MAX_INCLUDE_DEPTH};
