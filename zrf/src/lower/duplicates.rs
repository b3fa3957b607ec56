//! A piece defined twice: the same definition again is dropped with a note naming both places;
//! two different definitions of one name stay an error, which names the first.
use super::{Lowerer, ZrfNote};
use crate::reader::{line_col, Sexp, SexpKind, ZrfError};

/// Whether two forms are written the same (atoms and strings equal, lists item by item),
/// wherever they stand in the file.
fn same_form(a: &Sexp, b: &Sexp) -> bool {
    match (&a.kind, &b.kind) {
        (SexpKind::Atom(x), SexpKind::Atom(y)) | (SexpKind::Str(x), SexpKind::Str(y)) => x == y,
        (SexpKind::List(x), SexpKind::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_form(p, q)),
        _ => false,
    }
}

/// Where a form stands in the file: for a form a macro wrote, the outermost use of the macro.
fn place(node: &Sexp) -> std::ops::Range<usize> {
    let mut at = node.span.clone();
    let mut expansion = node.expanded_from.as_deref();
    while let Some(e) = expansion {
        at = e.use_span.clone();
        expansion = e.parent.as_deref();
    }
    at
}

/// The name node of a `(piece (name N) ...)` form, when it has one.
fn name_node(piece: &Sexp) -> Option<&Sexp> {
    piece.tail().iter().find(|item| item.is_form("name")).and_then(|n| n.tail().first())
}

impl Lowerer<'_> {
    /// The pieces without the repeated definitions: a later definition written exactly as an
    /// earlier one of the same name is left out, with a note giving both places; a different
    /// definition of a name already defined is an error at its name, giving the first place.
    /// Names are compared as piece names are looked up (ignoring ASCII case).
    pub(crate) fn drop_repeated_pieces<'s>(&mut self, pieces: Vec<&'s Sexp>) -> Result<Vec<&'s Sexp>, ZrfError> {
        let mut kept: Vec<&Sexp> = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let name = name_node(piece).and_then(Sexp::as_atom);
            let earlier = name.and_then(|name| {
                kept.iter().find(|k| name_node(k).and_then(Sexp::as_atom).is_some_and(|n| n.eq_ignore_ascii_case(name)))
            });
            let (Some(name), Some(&earlier)) = (name, earlier) else {
                kept.push(piece);
                continue;
            };
            let (line, col) = line_col(self.text, place(earlier).start);
            let at = name_node(piece).unwrap_or(piece);
            if !same_form(earlier, piece) {
                return Err(self.err(
                    format!("piece '{name}' is defined twice, differently (first at line {line}, column {col})"),
                    at,
                    "a second definition of this piece",
                ));
            }
            let (here_line, here_col) = line_col(self.text, place(piece).start);
            self.notes.push(ZrfNote {
                message: format!(
                    "piece '{name}' is defined twice, identically, at line {line}, column {col} and at line {here_line}, column {here_col}: the second definition is ignored"
                ),
                span: place(piece),
            });
        }
        Ok(kept)
    }
}
