//! Fairy-Stockfish's reading of Betza notation (its atoms, its two-letter directions, hoppers, lame leapers and initial moves), written as `.var` move powers and, for lame leapers and leaping riders, move programs.

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

/// One move of Fairy-Stockfish's move tables: a vector (ranks forward, files right) and how it
/// is made.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Move {
    kind: Kind,
    quiet: bool,
    capture: bool,
    initial: bool,
    dr: i8,
    df: i8,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    /// A leap (or step); lame when the cells on the way must be empty.
    Leap { lame: bool },
    /// A rider, at most this many moves (0: any).
    Ride(u8),
    /// A hopper: at most this many cells beyond the screen (0: any).
    Hop(u8),
}

/// The predicates under which Fairy-Stockfish gives each of the eight orientations of an atom
/// (a ranks, b files): the orientation as a function of (a, b) and the two-letter directions
/// that select it.
/// An orientation's (ranks from a, ranks from b, files from a, files from b) and its selectors.
type Orientation = ((i8, i8, i8, i8), &'static [&'static str]);

const ORIENTATIONS: [Orientation; 8] = [
    ((1, 0, 0, 1), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
    ((-1, 0, 0, -1), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
    ((0, -1, 1, 0), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
    ((0, 1, -1, 0), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
    ((0, 1, 1, 0), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
    ((0, -1, -1, 0), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
    ((-1, 0, 0, 1), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
    ((1, 0, 0, -1), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
];

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// The atoms: their (ranks, files) offsets and whether the letter alone rides; Varia's table
/// with Fairy-Stockfish's other names for two of them (L for C, J for Z).
fn atom(c: char) -> Option<(Vec<(i8, i8)>, bool)> {
    let c = match c {
        'L' => 'C',
        'J' => 'Z',
        c => c,
    };
    let (offsets, rides) = varia_grammar::betza::atom(c)?;
    Some((offsets.iter().map(|&(a, b)| (a as i8, b as i8)).collect(), rides))
}

/// Reads a Betza string into Fairy-Stockfish's moves.
fn moves(betza: &str) -> Result<BTreeSet<Move>, BetzaError> {
    let chars: Vec<(usize, char)> = betza.char_indices().collect();
    let mut out = BTreeSet::new();
    let (mut quiet, mut capture, mut hop, mut grass, mut lame, mut initial) =
        (false, false, false, false, false, false);
    let mut dirs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'p' => hop = true,
            'g' => (hop, grass) = (true, true),
            'n' => lame = true,
            'i' => initial = true,
            // En passant: Fairy-Stockfish reads it from the letter anywhere in the string.
            'e' | ' ' => {}
            c if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                let next = chars.get(i + 1).map(|&(_, n)| n);
                match next {
                    Some(n)
                        if n == c
                            || (VERTICALS.contains(c) && HORIZONTALS.contains(n))
                            || (HORIZONTALS.contains(c) && VERTICALS.contains(n)) =>
                    {
                        dirs.push(format!("{c}{n}"));
                        i += 1;
                    }
                    _ => dirs.push(format!("{c}{c}")),
                }
            }
            c => {
                let Some((atoms, rides)) = atom(c) else {
                    return Err(BetzaError {
                        offset: at,
                        message: format!("`{c}` is not part of the Betza notation Fairy-Stockfish reads"),
                    });
                };
                let mut rider = rides;
                let mut distance: u8 = if grass { 1 } else { 0 };
                if let Some(&(_, n)) = chars.get(i + 1) {
                    if n.is_ascii_digit() || n == c {
                        rider = true;
                        if let Some(d) = n.to_digit(10) {
                            distance = d as u8;
                        }
                        i += 1;
                    }
                }
                let (q, k) = if quiet || capture { (quiet, capture) } else { (true, true) };
                for &(a, b) in &atoms {
                    let mut chosen = dirs.clone();
                    if atoms.len() == 1 && b == 0 {
                        // Fairy-Stockfish splits `fs` on orthogonal atoms into `ff` and `ss`.
                        chosen = dirs
                            .iter()
                            .flat_map(|d| {
                                let (x, y) = (&d[..1], &d[1..]);
                                if x != y {
                                    vec![format!("{x}{x}"), format!("{y}{y}")]
                                } else {
                                    vec![d.clone()]
                                }
                            })
                            .collect();
                    }
                    for ((ra, rb, fa, fb), sel) in ORIENTATIONS {
                        if !chosen.is_empty() && !chosen.iter().any(|d| sel.contains(&d.as_str())) {
                            continue;
                        }
                        let (dr, df) = (ra * a + rb * b, fa * a + fb * b);
                        if hop && !(dr.abs() <= 1 && df.abs() <= 1) {
                            return Err(BetzaError {
                                offset: at,
                                message: "hoppers are read only on orthogonal and diagonal lines (pR, pB, gR, gB)"
                                    .into(),
                            });
                        }
                        let kind = if hop {
                            Kind::Hop(distance)
                        } else if rider {
                            Kind::Ride(distance)
                        } else {
                            Kind::Leap { lame }
                        };
                        // Fairy-Stockfish has no initial captures.
                        let capture = k && !initial;
                        if q || capture {
                            out.insert(Move { kind, quiet: q, capture, initial, dr, df });
                        }
                    }
                }
                (quiet, capture, hop, grass, lame, initial) = (false, false, false, false, false, false);
                dirs.clear();
            }
        }
        i += 1;
    }
    Ok(out)
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

/// The cells a lame leap passes, in Fairy-Stockfish's order: sideways while the files left
/// outnumber the ranks, forwards while the ranks do, diagonally when they are even.
fn lame_path(dr: i8, df: i8) -> Vec<&'static str> {
    let (mut r, mut f) = (dr, df);
    let mut p = Vec::new();
    while r != 0 || f != 0 {
        let diff = f.abs() - r.abs();
        let (sr, sf) = if diff > 0 {
            (0, f.signum())
        } else if diff < 0 {
            (r.signum(), 0)
        } else {
            (r.signum(), f.signum())
        };
        p.push(compass(sr, sf));
        r -= sr;
        f -= sf;
    }
    p
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
