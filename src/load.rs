//! Loading variant files and position strings, and rendering their errors with source snippets.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use ariadne::{Config, Label, Report, ReportKind, Source};

use varia_interpreter::{Position, Rules};

/// Renders one error as `error: message`, then the location, source line and caret.
pub fn render(name: &str, text: &str, message: &str, span: Range<usize>, label: &str) -> String {
    let (line, col) = varia_grammar::line_col(text, span.start);
    // Spans are in bytes; widen them to whole characters so no slice splits a character.
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let mut out = Vec::new();
    let report = Report::build(ReportKind::Error, (name, start..end))
        .with_config(Config::default().with_color(false).with_index_type(ariadne::IndexType::Byte))
        .with_message(format!("{name}:{line}:{col}: {message}"))
        .with_label(Label::new((name, start..end)).with_message(label))
        .finish();
    if report.write((name, Source::from(text)), &mut out).is_err() {
        return format!("error: {name}:{line}:{col}: {message}\n");
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads and lowers a variant file, compiling its rules; errors come back rendered.
pub fn rules(path: &Path) -> Result<Arc<Rules>, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("error: cannot read {name}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        render(&name, &text, "the file is not valid UTF-8", at..at + 1, "expected UTF-8 text")
    })?;
    match varia_grammar::load(&text) {
        Ok(variant) => Ok(Arc::new(Rules::new(variant))),
        Err(diags) => {
            let mut out = String::new();
            for d in &diags {
                out.push_str(&render(&name, &text, &d.message, d.span.clone(), &d.label));
            }
            out.push_str(&format!("{name}: {} error(s)\n", diags.len()));
            Err(out)
        }
    }
}

/// The variant's start position, or the given position string.
pub fn position(rules: &Arc<Rules>, text: Option<&str>) -> Result<Position, String> {
    match text {
        None => Ok(Position::start(rules.clone())),
        Some(t) => Position::from_position_string(rules.clone(), t)
            .map_err(|e| render("<position>", t, &e.message, e.offset..e.offset + e.len, &e.message)),
    }
}

#[derive(serde::Deserialize)]
struct Catalogue {
    variant: Vec<Entry>,
}

#[derive(serde::Deserialize)]
struct Entry {
    file: String,
    title: String,
    about: String,
}

/// Prints the bundled variants listed in `variants/catalogue.toml`.
pub fn list() -> Result<(), String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/catalogue.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    let cat: Catalogue = toml::from_str(&text).map_err(|e| format!("error: {}: {e}", path.display()))?;
    // Columns as wide as their longest entry.
    let file_w = cat.variant.iter().map(|v| v.file.len() + "variants/".len()).max().unwrap_or(0);
    let title_w = cat.variant.iter().map(|v| v.title.len()).max().unwrap_or(0);
    for v in cat.variant {
        println!("{:<file_w$}  {:<title_w$}  {}", format!("variants/{}", v.file), v.title, v.about);
    }
    Ok(())
}

/// The bundled variants' file names, in catalogue order.
pub fn catalogue_files() -> Result<Vec<String>, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/catalogue.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    let cat: Catalogue = toml::from_str(&text).map_err(|e| format!("error: {}: {e}", path.display()))?;
    Ok(cat.variant.into_iter().map(|v| v.file).collect())
}

/// The path of a bundled variant file.
pub fn bundled(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(file)
}
