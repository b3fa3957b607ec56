//! A piece's Betza moves as Fairy-Stockfish reads them (`varia_grammar::betza`), written as `.var` move powers and, for lame leapers and leaping riders, move programs, in a variants.ini section's terms (its mobility region, initial-move zone, en passant).

use std::collections::BTreeSet;

/// A Betza string that cannot be imported: the byte offset in the string and why.
#[derive(Debug)]
pub struct BetzaError {
    pub offset: usize,
    pub message: String,
}

/// What the written powers need from the variant around the piece.
pub struct Context<'a> {
    /// A zone every destination must lie in (the piece's mobility region), if any.
    pub mobility: Option<&'a str>,
    /// The zone of initial moves (`i`), if the variant has one.
    pub initial: Option<&'a str>,
    /// Whether capture-only moves may take en passant.
    pub en_passant: bool,
    /// Whether double steps mark the cells passed (the variant has an en-passant region).
    pub marks: bool,
}

use varia_grammar::betza::{Kind, Move};

/// Reads a Betza string into Fairy-Stockfish's moves (the grammar's reading, shared with
/// `.var` files).
fn moves(betza: &str) -> Result<BTreeSet<Move>, BetzaError> {
    // Fairy-Stockfish gives a string without an atom no moves, and ignores modifiers after
    // the last atom.
    let betza = betza.trim_end_matches(|c: char| c.is_ascii_lowercase() || c == ' ');
    if betza.is_empty() {
        return Ok(BTreeSet::new());
    }
    varia_grammar::betza::moves(betza)
        .map(|v| v.into_iter().collect())
        .map_err(|(offset, message)| BetzaError { offset, message })
}

/// The compass name of a unit vector.
fn compass(dr: i8, df: i8) -> &'static str {
    match (dr.signum(), df.signum()) {
        (1, 0) => "n",
        (-1, 0) => "s",
        (0, 1) => "e",
        (0, -1) => "w",
        (1, 1) => "ne",
        (1, -1) => "nw",
        (-1, 1) => "se",
        _ => "sw",
    }
}

/// The straight-then-sideways path of a leap, as compass steps.
fn path(dr: i8, df: i8) -> Vec<&'static str> {
    let mut p = vec![compass(dr, 0); dr.unsigned_abs() as usize];
    p.extend(vec![compass(0, df); df.unsigned_abs() as usize]);
    p
}

/// The cells a lame leap passes, in Fairy-Stockfish's order, as compass steps.
fn lame_path(dr: i8, df: i8) -> Vec<&'static str> {
    varia_grammar::betza::lame_steps(dr, df).into_iter().map(|(r, f)| compass(r, f)).collect()
}

fn modality(m: &Move) -> &'static str {
    match (m.quiet, m.capture) {
        (true, false) => " move-only",
        (false, true) => " capture-only",
        _ => "",
    }
}

/// The test a program's landing cell must pass.
fn landing(m: &Move) -> &'static str {
    match (m.quiet, m.capture) {
        (true, false) => "verify empty",
        (false, true) => "verify enemy",
        _ => "verify not friend",
    }
}

/// The `.var` lines of a piece's Betza moves.
pub fn lines(betza: &str, ctx: &Context) -> Result<Vec<String>, BetzaError> {
    let moves = moves(betza)?;
    let mut out = Vec::new();
    let to = ctx.mobility.map(|z| format!(" to {z}")).unwrap_or_default();
    let verify_to = ctx.mobility.map(|z| format!(" verify in({z})")).unwrap_or_default();
    let has_step_forward = moves.iter().any(|m| {
        m.quiet && !m.initial && m.dr == 1 && m.df == 0 && matches!(m.kind, Kind::Leap { .. } | Kind::Ride(_))
    });
    // Group the powers that differ only in direction into one line.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut push = |head: String, item: String| match groups.iter_mut().find(|(h, _)| *h == head) {
        Some((_, items)) => items.push(item),
        None => groups.push((head, vec![item])),
    };
    for m in &moves {
        let from = if m.initial {
            match ctx.initial {
                Some(z) => format!(" from {z}"),
                None => continue,
            }
        } else {
            String::new()
        };
        let unit = m.dr.abs() <= 1 && m.df.abs() <= 1;
        let ep = if ctx.en_passant && m.capture && !m.quiet && !m.initial { " en-passant" } else { "" };
        match m.kind {
            Kind::Leap { lame: true } if m.initial && m.quiet && m.dr == 2 && m.df == 0 => {
                // A pawn's double step: a slide of two that marks the cell it passes.
                if !has_step_forward {
                    return Err(BetzaError {
                        offset: 0,
                        message: "an initial double step without a single step forward is not imported".into(),
                    });
                }
                let marks = if ctx.marks { " marks-en-passant" } else { "" };
                out.push(format!("slide n max 2 move-only{from}{to}{marks}"));
            }
            Kind::Leap { lame } if unit || !lame => {
                let (head, item) = if unit {
                    ("step".to_string(), compass(m.dr, m.df).to_string())
                } else {
                    ("leap".to_string(), format!("({})", path(m.dr, m.df).join(" ")))
                };
                push(format!("{head}\u{0}{}{from}{to}{ep}", modality(m)), item);
            }
            Kind::Leap { .. } => {
                let p = lame_path(m.dr, m.df);
                let (last, way) = p.split_last().expect("a leap has a path");
                let start =
                    if m.initial { format!(" verify in({})", ctx.initial.unwrap_or_default()) } else { String::new() };
                let way: String = way.iter().map(|d| format!(" {d} verify empty")).collect();
                out.push(format!("move {{{start}{way} {last} {}{verify_to} add }}", landing(m)));
            }
            Kind::Ride(max) if unit => {
                let max = if max > 0 { format!(" max {max}") } else { String::new() };
                push(format!("slide\u{0}{max}{}{from}{to}{ep}", modality(m)), compass(m.dr, m.df).to_string());
            }
            Kind::Ride(max) => out.push(rider_program(m, max, &verify_to)),
            Kind::Hop(max) => {
                let max = if max > 0 { format!(" max {max}") } else { String::new() };
                push(format!("hop\u{0}{max}{}{from}{to}", modality(m)), compass(m.dr, m.df).to_string());
            }
        }
    }
    let mut lines: Vec<String> = groups
        .into_iter()
        .map(|(head, items)| {
            let (kind, rest) = head.split_once('\u{0}').expect("a head has a kind");
            format!("{kind} {}{rest}", items.join(" "))
        })
        .collect();
    lines.extend(out);
    Ok(lines)
}

/// A rider of leaps (the nightrider `NN`) as a program: leap after leap over empty cells.
fn rider_program(m: &Move, max: u8, verify_to: &str) -> String {
    let p = path(m.dr, m.df).join(" ");
    // Inside a loop a cell outside the mobility region is passed, not the end of the ride.
    let add = match verify_to.strip_prefix(" verify ") {
        Some(test) => format!("if {test} {{ add }}"),
        None => "add".to_string(),
    };
    if max == 0 {
        return match (m.quiet, m.capture) {
            (true, false) => format!("move {{ {p} while empty {{ {add} {p} }} }}"),
            (false, true) => format!("move {{ {p} while empty {{ {p} }} verify enemy {add} }}"),
            _ => format!("move {{ {p} while empty {{ {add} {p} }} verify enemy {add} }}"),
        };
    }
    let mut body = String::new();
    for _ in 0..max {
        body.push_str(&format!(" {p}"));
        if m.capture {
            body.push_str(&format!(" if enemy {{ {add} }}"));
        }
        body.push_str(" verify empty");
        if m.quiet {
            body.push_str(&format!(" {add}"));
        }
    }
    format!("move {{{body} }}")
}

/// The first leap of every move Fairy-Stockfish counts when it asks whether a piece could
/// move again from a cell (`immobilityIllegal`): its quiet moves on an empty board, so
/// neither captures, nor initial moves, nor hops, which need a screen.
pub fn quiet_vectors(betza: &str) -> Result<Vec<(i8, i8)>, BetzaError> {
    Ok(moves(betza)?
        .into_iter()
        .filter(|m| m.quiet && !m.initial && !matches!(m.kind, Kind::Hop(_)))
        .map(|m| (m.dr, m.df))
        .collect())
}
