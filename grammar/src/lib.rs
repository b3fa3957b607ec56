//! The `.var` language: the pest grammar, its spanned syntax tree, diagnostics, and the lowering into Varia's IR.
//!
//! ```
//! let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/chess.var")).unwrap();
//! let variant = varia_grammar::load(&text).expect("chess.var is valid");
//! let rules = std::sync::Arc::new(varia_interpreter::Rules::new(variant));
//! let mut pos = varia_interpreter::Position::start(rules);
//! assert_eq!(varia_interpreter::perft(&mut pos, 3), 8_902);
//! ```

pub mod betza;
mod diagnostic;
mod lower;
mod syntax;
pub mod write;

pub use diagnostic::{line_col, Diagnostic};
pub use syntax::{parse, Rule, SyntaxTree, MAX_NESTING};

use varia_interpreter::ir::Variant;

/// Parses and lowers a `.var` text into the IR, or returns every error found.
pub fn load(text: &str) -> Result<Variant, Vec<Diagnostic>> {
    let tree = parse(text).map_err(|d| vec![d])?;
    lower::lower(tree)
}
