//! Evaluation weights files: reading them (with located errors), finding the one beside a variant file, and writing what `varia tune` fits.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use varia_interpreter::{Evaluator, Rules, Weights};

/// Most bytes a weights file may have (a few hundred are usual).
const MAX_BYTES: u64 = 1 << 20;

/// The weights file that belongs beside a variant file: `NAME.weights.toml` for `NAME.var`.
pub fn beside(variant: &Path) -> PathBuf {
    let stem = variant.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    variant.with_file_name(format!("{stem}.weights.toml"))
}

/// Reads a weights file (TOML); errors name the file, line and column.
pub fn read(path: &Path) -> Result<Weights, String> {
    let name = path.display().to_string();
    let size = std::fs::metadata(path).map_err(|e| format!("error: cannot read {name}: {e}"))?.len();
    if size > MAX_BYTES {
        return Err(format!("error: {name}: a weights file may have at most {MAX_BYTES} bytes, this one has {size}"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {name}: {e}"))?;
    toml::from_str::<Weights>(&text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        crate::load::render(&name, &text, &format!("bad weights file: {}", e.message()), span, "here")
    })
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

/// Writes weights as TOML with a header comment.
pub fn write(path: &Path, weights: &Weights, header: &str) -> Result<(), String> {
    let body = toml::to_string(weights).map_err(|e| format!("error: cannot write weights: {e}"))?;
    let mut text = String::new();
    for line in header.lines() {
        text.push_str(&format!("# {line}\n"));
    }
    text.push_str(&body);
    std::fs::write(path, text).map_err(|e| format!("error: cannot write {}: {e}", path.display()))
}

/// The weights files of the bundled variants, compiled in (for `varia serve`).
pub fn bundled() -> Vec<Weights> {
    varia_variants::all()
        .iter()
        .filter_map(|b| b.weights)
        .filter_map(|text| toml::from_str::<Weights>(text).ok())
        .collect()
}
