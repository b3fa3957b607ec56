//! Evaluation weights files: reading them (with located errors), finding the one beside a variant file, and writing what `varia tune` fits.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use varia_interpreter::{Evaluator, Rules, Weights};

/// The weights file that belongs beside a variant file: `NAME.weights.toml` for `NAME.var`.
pub fn beside(variant: &Path) -> PathBuf {
    let stem = variant.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    variant.with_file_name(format!("{stem}.weights.toml"))
}

/// Reads a weights file (TOML, at most [`crate::files::MAX_WEIGHTS_BYTES`]); errors name the
/// file, line and column. A file that says how many entries it holds (`entries = N`, as `varia
/// tune` writes) must hold them all: one cut short is refused at its end.
pub fn read(path: &Path) -> Result<Weights, String> {
    let name = path.display().to_string();
    let text = crate::files::read_text(path, crate::files::MAX_WEIGHTS_BYTES, "a weights file")?;
    let weights = toml::from_str::<Weights>(&text).map_err(|e| {
        // A missing key is an error of the whole file: shown at its end, where it was expected.
        if e.message().starts_with("missing field") {
            let message =
                format!("bad weights file: {}: expected it before the end (was the file cut short?)", e.message());
            return crate::load::render(&name, &text, &message, text.len()..text.len(), "the file ends here");
        }
        crate::load::render(
            &name,
            &text,
            &format!("bad weights file: {}", e.message()),
            e.span().unwrap_or(0..0),
            "here",
        )
    })?;
    let found = weights.pieces.len() + weights.terms.len();
    match weights.entries {
        Some(n) if n != found => {
            let end = text.len();
            let message = format!(
                "the file holds {found} weights, but its `entries = {n}` says {n}: expected {}",
                if found < n {
                    "the rest of the file (was it cut short?)"
                } else {
                    "as many weights as `entries` says"
                }
            );
            Err(crate::load::render(&name, &text, &message, end..end, "the file ends here"))
        }
        _ => Ok(weights),
    }
}

/// The evaluation for a variant: the weights of `explicit` if given, else those of the file
/// beside the variant file if there is one, else the defaults. Weights that name a piece or
/// term the variant lacks are an error naming the file.
pub fn evaluator(
    rules: &Arc<Rules>,
    variant_file: Option<&Path>,
    explicit: Option<&Path>,
) -> Result<Evaluator, String> {
    let path = match (explicit, variant_file) {
        (Some(p), _) => Some(p.to_path_buf()),
        (None, Some(v)) => Some(beside(v)).filter(|p| p.is_file()),
        _ => None,
    };
    // A bundled variant named without its file carries its weights file compiled in.
    let embedded = match (explicit, variant_file) {
        (None, Some(v)) if !v.is_file() => varia_variants::find(&v.to_string_lossy()).and_then(|b| b.weights),
        _ => None,
    };
    if let (None, Some(text)) = (&path, embedded) {
        let w: Weights = toml::from_str(text).map_err(|e| format!("error: bundled weights: {}", e.message()))?;
        return Evaluator::with_weights(rules, &w).map_err(|e| format!("error: bundled weights: {e}"));
    }
    match path {
        None => Ok(Evaluator::new(rules)),
        Some(p) => {
            let w = read(&p)?;
            Evaluator::with_weights(rules, &w).map_err(|e| format!("error: {}: {e}", p.display()))
        }
    }
}

/// Writes weights as TOML with a header comment, whole or not at all, with the number of their
/// entries first (see [`read`]).
pub fn write(path: &Path, weights: &Weights, header: &str) -> Result<(), String> {
    let mut weights = weights.clone();
    weights.entries = Some(weights.pieces.len() + weights.terms.len());
    let body = toml::to_string(&weights).map_err(|e| format!("error: cannot write weights: {e}"))?;
    let mut text = String::new();
    for line in header.lines() {
        text.push_str(&format!("# {line}\n"));
    }
    text.push_str(&body);
    crate::files::write_atomic(path, text.as_bytes())
}

/// The weights files of the bundled variants, compiled in (for `varia serve`).
pub fn bundled() -> Vec<Weights> {
    varia_variants::all()
        .iter()
        .filter_map(|b| b.weights)
        .filter_map(|text| toml::from_str::<Weights>(text).ok())
        .collect()
}
