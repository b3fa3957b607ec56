//! Fairy-Stockfish's `variants.ini` format: sections read with inheritance from other sections and from the built-in variants Varia knows, then written as `.var` text, which loads through the ordinary grammar.

mod apply;
mod betza;
mod fen;
mod immobile;
mod model;
mod reader;
mod shuttle;
mod write;

use std::ops::Range;

use model::{At, Model};
use reader::Section;

/// The built-in variants a section may inherit from, as `variants.ini` sections over chess.
const BUILTINS: &str = include_str!("builtins.ini");

/// An error in a `variants.ini` file, at a byte span of it.
#[derive(Clone, Debug)]
pub struct IniError {
    pub span: Range<usize>,
    pub message: String,
    pub label: String,
}

impl IniError {
    pub fn new(span: Range<usize>, message: &str, label: &str) -> IniError {
        IniError { span, message: message.to_string(), label: label.to_string() }
    }
}

/// Whether a path names a `variants.ini` file.
pub fn is_ini(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ini"))
}

/// The names of a file's sections, in file order.
pub fn sections(text: &str) -> Result<Vec<String>, Vec<IniError>> {
    Ok(reader::read(text)?.into_iter().map(|s| s.name).collect())
}

/// The built-in sections, read once.
fn builtins() -> Vec<Section> {
    reader::read(BUILTINS).expect("the built-in variants are well formed")
}

/// The names of the built-in variants a section may inherit from.
pub fn builtin_names() -> Vec<String> {
    builtins().into_iter().map(|s| s.name).collect()
}

/// A built-in parent's name and the span of the `:parent` that brought it in.
type Via = (String, Range<usize>);

/// The rules of one section of `text`, with everything it inherits applied.
fn resolve(text: &str, name: &str) -> Result<(Model, At), Vec<IniError>> {
    let sections = reader::read(text)?;
    let builtins = builtins();
    let Some(target) = sections.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = sections.iter().map(|s| s.name.as_str()).collect();
        return Err(vec![IniError::new(
            0..0,
            &format!("no section is named `{name}`"),
            &format!("expected one of: {}", names.join(", ")),
        )]);
    };
    // The chain from the section up to its root, in the file or among the built-ins.
    let mut chain: Vec<(&Section, Option<Via>)> = vec![(target, None)];
    let mut via: Option<Via> = None;
    let mut current = target;
    while let Some((parent, span)) = &current.parent {
        let in_file = via.is_none().then(|| sections.iter().find(|s| &s.name == parent)).flatten();
        let next = match in_file {
            // A section may only inherit from one defined above it, as Fairy-Stockfish reads
            // the file in order.
            Some(p) if p.name_span.start < current.name_span.start => p,
            _ => match builtins.iter().find(|s| &s.name == parent) {
                Some(b) => {
                    if via.is_none() {
                        via = Some((parent.clone(), span.clone()));
                    }
                    b
                }
                None => {
                    let span = if via.is_some() { via.clone().map(|v| v.1).unwrap_or_default() } else { span.clone() };
                    let message = match in_file {
                        Some(_) => format!(
                            "parent `{parent}` is defined below this section (or the inheritance runs in a cycle)"
                        ),
                        None => format!("unknown parent `{parent}`"),
                    };
                    return Err(vec![IniError::new(
                        span,
                        &message,
                        &format!(
                            "expected a section defined above, or a built-in Varia knows: {}",
                            builtin_names().join(", ")
                        ),
                    )]);
                }
            },
        };
        chain.push((next, via.clone()));
        current = next;
    }
    let root_is_builtin = via.is_some();
    let mut model = Model::new(root_is_builtin);
    let mut errors = Vec::new();
    for (section, via) in chain.into_iter().rev() {
        let mut a = apply::Applier { model: &mut model, section, via, errors: Vec::new() };
        a.apply();
        errors.extend(a.errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((model, At { span: target.name_span.clone(), via: None }))
}

/// The `.var` text of one section.
pub fn convert(text: &str, name: &str) -> Result<String, Vec<IniError>> {
    let (model, header) = resolve(text, name)?;
    let writer = write::Writer::new(&model, name, header.clone()).map_err(|e| vec![e])?;
    let var = writer.write()?;
    // The text is Varia's own: an error in it is the import's fault, reported at the section.
    if let Err(diags) = varia_grammar::load(&var) {
        let d = &diags[0];
        let (line, col) = varia_grammar::line_col(&var, d.span.start);
        let src = var.lines().nth(line - 1).unwrap_or("");
        return Err(vec![IniError::new(
            header.span,
            &format!("the section's .var text does not load (line {line}:{col} `{src}`): {}", d.message),
            "Varia cannot play this section",
        )]);
    }
    Ok(var)
}
