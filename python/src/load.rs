//! Loading rule files for Python: a `.var` or `.zrf` file, a bundled variant's name (or Fairy-Stockfish's name for it), or `.var` text, with located errors.

use std::path::Path;

use pyo3::prelude::*;
use varia_interpreter::ir::Variant;

/// Fairy-Stockfish's names of bundled games whose Varia name differs (pyffish's `variant`).
const FSF_NAMES: &[(&str, &str)] = &[("3check", "three-check")];

/// The bundled variant a Fairy-Stockfish name stands for, else the name itself.
pub fn canonical(name: &str) -> &str {
    FSF_NAMES.iter().find(|(fsf, _)| *fsf == name).map_or(name, |(_, varia)| varia)
}

/// A loaded rule file: its rules, the path or name it came from, and notes on what a `.zrf`
/// import ignored.
pub struct Loaded {
    pub variant: Variant,
    pub source: String,
    pub notes: Vec<String>,
}

/// Loads a rule file: a path (`.var`, `.zrf`), else a bundled variant's name; `choice` picks a
/// variant of a `.zrf` file (its title or its number from 1).
pub fn load(source: &str, choice: Option<&str>) -> Result<Loaded, String> {
    let source = canonical(source);
    let path = Path::new(source);
    if varia::load::is_zrf(path) {
        return match varia_zrf::load_file(path, choice) {
            Err((text, e)) if text.is_empty() => Err(format!("error: {}", e.message)),
            Err((text, e)) => Err(varia::load::render(source, &text, &e.message, e.span.clone(), &e.label)),
            Ok((text, game)) => {
                let notes = game
                    .notes
                    .iter()
                    .map(|n| {
                        let (line, col) = varia_grammar::line_col(&text, n.span.start);
                        format!("{source}:{line}:{col}: {}", n.message)
                    })
                    .collect();
                Ok(Loaded { variant: game.variant, source: source.to_string(), notes })
            }
        };
    }
    if choice.is_some() {
        return Err(format!("error: {source}: `variant` chooses among the games of a .zrf file only"));
    }
    let text = varia::load::rule_text(path)?;
    let variant = from_text(&text, source)?;
    Ok(Loaded { variant, source: source.to_string(), notes: Vec::new() })
}

/// Lowers `.var` text; errors are rendered with `name` as the file.
pub fn from_text(text: &str, name: &str) -> Result<Variant, String> {
    varia_grammar::load(text).map_err(|diags| {
        let mut out = String::new();
        for d in &diags {
            out.push_str(&varia::load::render(name, text, &d.message, d.span.clone(), &d.label));
        }
        out.push_str(&format!("{name}: {} error(s)\n", diags.len()));
        out
    })
}

/// The bundled variants: (name, title, one line about it), in catalogue order.
#[pyfunction]
pub fn bundled() -> Vec<(String, String, String)> {
    varia_variants::all().iter().map(|b| (b.name().to_string(), b.title.to_string(), b.about.to_string())).collect()
}
