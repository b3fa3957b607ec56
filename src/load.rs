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

/// The `--variant` choice for Zillions files.
static VARIANT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();

/// Records the `--variant` option (which variant of a `.zrf` file to load).
pub fn choose_variant(choice: Option<String>) {
    let _ = VARIANT.set(choice);
}

/// The `--seed` choice for shuffled setups.
static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// Records the `--seed` option (how a shuffled setup is drawn).
pub fn choose_seed(seed: Option<u64>) {
    let _ = SEED.set(seed.unwrap_or(0));
}

/// The variant's start position, its shuffles drawn with the `--seed` given (0 if none).
pub fn start(rules: &Arc<Rules>) -> Position {
    Position::start_seeded(rules.clone(), SEED.get().copied().unwrap_or(0))
}

/// The `--variant` option given, if any.
pub fn chosen_variant() -> Option<String> {
    VARIANT.get().cloned().flatten()
}

/// Whether a path names a Zillions rule file.
pub fn is_zrf(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("zrf"))
}

/// Reads a rule file as UTF-8 text, at most [`varia_zrf::MAX_FILE_BYTES`]; errors come back
/// rendered.
fn read_text(path: &Path) -> Result<String, String> {
    let name = path.display().to_string();
    let bytes = varia_zrf::read_rule_file(path).map_err(|e| format!("error: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        render(&name, &text, "the file is not valid UTF-8", at..at + 1, "expected UTF-8 text")
    })
}

/// A rule file's text: the file at `path` when there is one (a path wins over a name), else
/// the bundled variant the path names (`chess`, `chess.var`, `variants/chess.var`), compiled
/// into the binary so that it plays from any folder.
pub fn rule_text(path: &Path) -> Result<String, String> {
    if !path.exists() {
        if let Some(b) = path.to_str().and_then(varia_variants::find) {
            return Ok(b.source.to_string());
        }
    }
    read_text(path).map_err(|e| {
        if path.exists() || path.to_str().is_none() {
            return e;
        }
        let names: Vec<&str> = varia_variants::all().iter().map(|b| b.name()).collect();
        format!("{e} (nor is it a bundled variant: {})", names.join(", "))
    })
}

/// Reads and lowers a rule file (`.var`, or `.zrf` through the Zillions import) into the IR;
/// errors come back rendered, and notes on what a `.zrf` import ignored go to standard error.
pub fn variant(path: &Path) -> Result<varia_interpreter::ir::Variant, String> {
    let name = path.display().to_string();
    if is_zrf(path) {
        // Zillions files are read as Zillions does: Windows-1252 unless valid UTF-8, with
        // `(include ...)` resolved beside the file.
        let choice = VARIANT.get().cloned().flatten();
        return match varia_zrf::load_file(path, choice.as_deref()) {
            Err((text, e)) if text.is_empty() => Err(format!("error: {}", e.message)),
            Err((text, e)) => Err(render(&name, &text, &e.message, e.span.clone(), &e.label)),
            Ok((text, game)) => {
                for note in &game.notes {
                    let (line, col) = varia_grammar::line_col(&text, note.span.start);
                    eprintln!("note: {name}:{line}:{col}: {}", note.message);
                }
                Ok(game.variant)
            }
        };
    }
    if crate::ini::is_ini(path) {
        return ini_variant(path, &name);
    }
    let text = rule_text(path)?;
    match varia_grammar::load(&text) {
        Ok(variant) => Ok(variant),
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

/// Renders a list of `variants.ini` errors with the file's name and text.
fn render_ini(name: &str, text: &str, errors: &[crate::ini::IniError]) -> String {
    let mut out = String::new();
    for e in errors {
        out.push_str(&render(name, text, &e.message, e.span.clone(), &e.label));
    }
    out.push_str(&format!("{name}: {} error(s)\n", errors.len()));
    out
}

/// The `.var` text of the `--variant` section of a Fairy-Stockfish `variants.ini` file.
pub fn ini_var_text(path: &Path) -> Result<String, String> {
    let name = path.display().to_string();
    let text = read_text(path)?;
    let sections = crate::ini::sections(&text).map_err(|e| render_ini(&name, &text, &e))?;
    let Some(choice) = VARIANT.get().cloned().flatten() else {
        return Err(format!(
            "error: {name} is a variants.ini file: choose a section with --variant NAME (its sections: {})",
            sections.join(", ")
        ));
    };
    crate::ini::convert(&text, &choice).map_err(|e| render_ini(&name, &text, &e))
}

/// Loads the `--variant` section of a `variants.ini` file through its `.var` text.
fn ini_variant(path: &Path, name: &str) -> Result<varia_interpreter::ir::Variant, String> {
    let var = ini_var_text(path)?;
    varia_grammar::load(&var)
        .map_err(|d| format!("error: {name}: the imported section does not load: {}", d[0].message))
}

/// Reads a rule file and compiles its rules; errors come back rendered.
pub fn rules(path: &Path) -> Result<Arc<Rules>, String> {
    Ok(Arc::new(Rules::new(variant(path)?)))
}

/// The rules of a file for the plain reference (`reference`), or with the named fast paths
/// switched off; an unknown name is an error listing the paths.
pub fn rules_with(path: &Path, reference: bool, without: &[String]) -> Result<Arc<Rules>, String> {
    use varia_interpreter::paths::Path as FastPath;
    let variant = variant(path)?;
    if reference {
        return Ok(Arc::new(Rules::reference(variant)));
    }
    let mut off = Vec::new();
    for name in without {
        let Some(p) = FastPath::ALL.into_iter().find(|p| format!("{p:?}") == *name) else {
            let names: Vec<String> = FastPath::ALL.iter().map(|p| format!("{p:?}")).collect();
            return Err(format!("error: no fast path is named `{name}`; the paths: {}", names.join(", ")));
        };
        off.push(p);
    }
    Ok(Arc::new(Rules::without(variant, &off)))
}

/// A rule file written as `.var` text, headed by where it came from.
pub fn convert(path: &Path) -> Result<String, String> {
    if crate::ini::is_ini(path) {
        // The import's own text, which keeps its comments and zone names.
        return ini_var_text(path);
    }
    let v = variant(path)?;
    let body = varia_grammar::write::write_variant(&v)
        .map_err(|e| format!("error: {}: cannot be written as a .var file: {e}", path.display()))?;
    let source = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let choice = VARIANT.get().cloned().flatten().map(|c| format!(" (variant {c})")).unwrap_or_default();
    Ok(format!("// Converted by `varia convert` from {source}{choice}.\n{body}"))
}

/// The variant's start position, or the given position string.
pub fn position(rules: &Arc<Rules>, text: Option<&str>) -> Result<Position, String> {
    match text {
        None => Ok(start(rules)),
        Some(t) => Position::from_position_string(rules.clone(), t)
            .map_err(|e| render("<position>", t, &e.message, e.offset..e.offset + e.len, &e.message)),
    }
}

/// The rules of the bundled variant a name means (`chess`), for protocols that pick by name.
pub fn bundled_rules(name: &str) -> Option<Result<Arc<Rules>, String>> {
    let b = varia_variants::find(name)?;
    Some(match varia_grammar::load(b.source) {
        Ok(v) => Ok(Arc::new(Rules::new(v))),
        Err(d) => Err(format!("error: bundled variant {}: {} error(s)", b.file, d.len())),
    })
}
