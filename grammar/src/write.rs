//! Writing the IR back as `.var` text (the inverse of the lowering), checked by lowering the text again.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use varia_interpreter::ir::PgnVariant;
use varia_interpreter::ir::*;

#[path = "write_board.rs"]
mod board;
#[path = "write_grid.rs"]
mod grid;
#[path = "write_programs.rs"]
mod programs;

use grid::*;
use programs::*;

/// Why a variant cannot be written as `.var` text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write {what}: {why}")]
pub struct WriteError {
    /// The part of the variant, e.g. "the board" or "piece `Pawn`".
    pub what: String,
    /// What the language lacks for it.
    pub why: String,
}

fn fail<T>(what: impl Into<String>, why: impl Into<String>) -> Result<T, WriteError> {
    Err(WriteError { what: what.into(), why: why.into() })
}

/// The compass a `grid` declares, in id order, with (dx, dy).
const COMPASS: [(&str, i32, i32); 8] =
    [("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1), ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1)];

/// The direction sets a `grid` declares, as indices into [`COMPASS`].
const GRID_SETS: [(&str, &[u8]); 3] =
    [("orthogonal", &[0, 2, 4, 6]), ("diagonal", &[1, 3, 5, 7]), ("all", &[0, 1, 2, 3, 4, 5, 6, 7])];

/// Words a name may not be besides the grammar's `keyword` list: those that end a list of
/// goal players or pieces, or a turn order's opening.
const MORE_RESERVED: &[&str] = &[
    "not",
    "and",
    "or",
    "win",
    "loss",
    "draw",
    "repeat",
    "stalemated",
    "to-move",
    "checks-given",
    "checkmate",
    "stalemate",
    "bare-king",
    "move-rule",
    "repetition",
    "fewer-pieces",
];

/// The words of a rule of `var.pest` that lists alternatives (`keyword`, `prog_keyword`), so
/// that the writer follows the grammar.
fn pest_words(rule: &str) -> impl Iterator<Item = String> {
    let pest = include_str!("var.pest");
    let body = pest.find(&format!("\n{rule} = _{{")).map_or("", |start| {
        let body = &pest[start..];
        &body[..body.find("\n}").unwrap_or(body.len())]
    });
    body.split('"').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>().into_iter()
}

/// Words no name may be.
fn reserved() -> &'static HashSet<String> {
    static WORDS: OnceLock<HashSet<String>> = OnceLock::new();
    WORDS.get_or_init(|| MORE_RESERVED.iter().map(|s| s.to_string()).chain(pest_words("keyword")).collect())
}

/// Words a direction or cell may not be: a program reads them as instructions.
fn reserved_in_programs() -> &'static HashSet<String> {
    static WORDS: OnceLock<HashSet<String>> = OnceLock::new();
    WORDS.get_or_init(|| pest_words("prog_keyword").collect())
}

/// A `.var` name: a letter or `_`, then letters, digits, `_` and `-`; not a reserved word.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !reserved().contains(s)
}

/// A name that can also stand alone as a step or jump of a program.
fn is_place_name(s: &str) -> bool {
    is_name(s) && !reserved_in_programs().contains(s)
}

/// A cell name: a name, optionally followed by `.5` (locations between ranks).
fn is_cell_name(s: &str) -> bool {
    match s.split_once('.') {
        Some((a, b)) => is_place_name(a) && !b.is_empty() && b.chars().all(|c| c.is_ascii_digit()),
        None => is_place_name(s),
    }
}

/// A valid name made from `s`: other characters become `_`, a leading digit gets a `_`, a
/// reserved word gets a trailing `_`.
fn sanitised(s: &str) -> String {
    let mut out: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if reserved().contains(&out) || reserved_in_programs().contains(&out) {
        out.push('_');
    }
    out
}

/// One renamed name, for the comment at the top of the text.
struct Rename {
    kind: &'static str,
    from: String,
    to: String,
}

/// Gives every name of one kind a valid and unique spelling: names already valid, unique and
/// not in `avoid` stay; the others are sanitised and numbered until unique.
fn rename_all(
    kind: &'static str,
    names: &mut [String],
    valid: fn(&str) -> bool,
    avoid: &HashSet<String>,
    renames: &mut Vec<Rename>,
) {
    let mut taken: HashSet<String> = HashSet::new();
    let mut keep = vec![false; names.len()];
    for (i, n) in names.iter().enumerate() {
        if valid(n) && !avoid.contains(n) && taken.insert(n.clone()) {
            keep[i] = true;
        }
    }
    for (i, n) in names.iter_mut().enumerate() {
        if keep[i] {
            continue;
        }
        let base = sanitised(n);
        let mut candidate = base.clone();
        let mut k = 2;
        while taken.contains(&candidate) || avoid.contains(&candidate) || !valid(&candidate) {
            candidate = format!("{base}-{k}");
            k += 1;
        }
        taken.insert(candidate.clone());
        renames.push(Rename { kind, from: n.clone(), to: candidate.clone() });
        *n = candidate;
    }
}

/// A quoted string's text with `"` and line breaks (which a string cannot hold) replaced, when
/// it has any.
fn writable_string(s: &str) -> Option<String> {
    if !s.contains(['"', '\n', '\r']) {
        return None;
    }
    Some(
        s.chars()
            .map(|c| {
                if c == '"' {
                    '\''
                } else if c == '\n' || c == '\r' {
                    ' '
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// A copy of the variant whose names are all writable, and the renames made.
fn sanitise(v: &Variant) -> Result<(Variant, Vec<Rename>), WriteError> {
    let mut e = v.clone();
    let mut renames = Vec::new();
    if let Some(t) = writable_string(&e.title) {
        renames.push(Rename { kind: "title", from: e.title.clone(), to: t.clone() });
        e.title = t;
    }
    if let PgnVariant::Named(name) = &mut e.pgn_variant {
        if let Some(t) = writable_string(name) {
            renames.push(Rename { kind: "PGN variant name", from: name.clone(), to: t.clone() });
            *name = t;
        }
    }
    let none = HashSet::new();
    let mut dirs: Vec<String> = e.board.directions.clone();
    let mut sets: Vec<String> = e.board.direction_sets.iter().map(|(n, _)| n.clone()).collect();
    rename_all("direction", &mut dirs, is_place_name, &none, &mut renames);
    let mut taken: HashSet<String> = dirs.iter().cloned().collect();
    rename_all("direction set", &mut sets, is_name, &taken, &mut renames);
    // A program's place names a direction or a cell, the direction first (and a set is an
    // error there): cells avoid both.
    taken.extend(sets.iter().cloned());
    let mut cells: Vec<String> = e.board.cells.iter().map(|c| c.name.clone()).collect();
    rename_all("cell", &mut cells, is_cell_name, &taken, &mut renames);
    e.board.directions = dirs;
    for (s, n) in e.board.direction_sets.iter_mut().zip(sets) {
        s.0 = n;
    }
    for (c, n) in e.board.cells.iter_mut().zip(cells) {
        c.name = n;
    }
    macro_rules! names_of {
        ($kind:expr, $list:expr, $get:expr) => {{
            let mut names: Vec<String> = $list.iter().map($get).collect();
            rename_all($kind, &mut names, is_name, &none, &mut renames);
            names
        }};
    }
    let players = names_of!("player", e.players, |p: &Player| p.name.clone());
    for (p, n) in e.players.iter_mut().zip(players) {
        p.name = n;
    }
    let zones = names_of!("zone", e.zones, |z: &Zone| z.name.clone());
    for (z, n) in e.zones.iter_mut().zip(zones) {
        z.name = n;
    }
    let pieces = names_of!("piece", e.pieces, |p: &PieceType| p.name.clone());
    for (p, n) in e.pieces.iter_mut().zip(pieces) {
        p.name = n;
    }
    let phases = names_of!("phase", e.phases, |p: &Phase| p.name.clone());
    for (p, n) in e.phases.iter_mut().zip(phases) {
        p.name = n;
    }
    e.move_types = names_of!("move type", e.move_types, |s: &String| s.clone());
    e.attributes = names_of!("attribute", e.attributes, |s: &String| s.clone());
    e.flags = names_of!("flag", e.flags, |s: &String| s.clone());
    // The lowering writes letters in upper case (the second player's are lower case in play).
    for p in e.pieces.iter_mut().filter(|p| p.letter.is_ascii_lowercase()) {
        let upper = p.letter.to_ascii_uppercase();
        renames.push(Rename { kind: "letter", from: p.letter.to_string(), to: upper.to_string() });
        p.letter = upper;
    }
    for c in &e.castlings {
        if c.notation.contains('"') || c.notation.contains('\n') || c.notation.contains('\r') {
            return fail(format!("castling `{}`", c.notation), "its notation cannot be written as a string");
        }
    }
    Ok((e, renames))
}

// ---------------------------------------------------------------- entry point

/// Writes a variant as `.var` text that lowers back to the same IR (with names that are not
/// valid `.var` names sanitised, consistently, and noted in a comment at the top).
///
/// The text uses the forms a person would write: `grid W x H` with its differences, rank and
/// file terms and ranges in cell lists, direction sets, leap offsets, piece letters. It is
/// lowered again before it is returned and compared with the IR: a text that would mean
/// something else is never returned. When a nicer form does not reproduce the IR, plainer ones
/// are tried (explicit cells and links, plain cell lists); when none does, the error names the
/// part the language cannot express.
pub fn write_variant(v: &Variant) -> Result<String, WriteError> {
    check_shape(v)?;
    let (e, renames) = sanitise(v)?;
    let w = Writer::new(&e);
    // Everything but the board is the same in every attempt.
    let mut boards = Vec::new();
    let mut board_error = None;
    if let Some(plan) = grid_plan(&e) {
        boards.push(w.grid_board(&plan));
    }
    match w.explicit_board() {
        Ok(b) => boards.push(b),
        Err(err) => board_error = Some(err),
    }
    let mut best: Option<(u8, WriteError)> = None;
    let mut note = |rank: u8, err: WriteError| {
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, err));
        }
    };
    if let Some(err) = board_error {
        note(1, err);
    }
    for board in &boards {
        for compact in [true, false] {
            let w = Writer { compact, ..w.clone() };
            let text = w.text(&renames, board)?;
            match check(&e, &text) {
                Ok(()) => return Ok(text),
                Err((rank, err)) => note(rank, err),
            }
        }
    }
    Err(best.map(|(_, e)| e).unwrap_or_else(|| WriteError { what: "the board".into(), why: "no form fits".into() }))
}

/// Checks what the language cannot hold whatever the spelling.
fn check_shape(v: &Variant) -> Result<(), WriteError> {
    let most = varia_interpreter::limits::PLAYERS;
    if !(2..=most).contains(&v.players.len()) {
        return fail(
            "the players",
            format!("the language accepts two to {most} players, this variant has {}", v.players.len()),
        );
    }
    if v.board.cells.is_empty() {
        return fail("the board", "it has no cells");
    }
    for p in &v.players {
        if p.direction_map.len() != v.board.directions.len() {
            return fail(format!("player `{}`", p.name), "its direction map does not cover the board's directions");
        }
    }
    let mut letters = HashSet::new();
    for p in &v.pieces {
        if !p.letter.is_ascii_alphabetic() || !letters.insert((p.letter.to_ascii_uppercase(), p.mark)) {
            return fail(
                format!("piece `{}`", p.name),
                format!("its letter `{}` is not a unique ASCII letter", p.letter),
            );
        }
    }
    for c in &v.castlings {
        if !c.right.is_ascii_alphabetic() {
            return fail(format!("castling `{}`", c.notation), "its right is not an ASCII letter");
        }
    }
    for g in &v.gates {
        if !g.right.is_ascii_alphabetic() || g.cells.is_empty() {
            return fail(format!("gate `{}`", g.right), "its right is not an ASCII letter or it gates no cell");
        }
    }
    Ok(())
}

/// Lowers the text again and compares it with the IR it was written from: `Err` with a rank
/// (how far the text got: 0 it does not load, 1 the board differs, 2 something else does).
fn check(e: &Variant, text: &str) -> Result<(), (u8, WriteError)> {
    let got = match crate::load(text) {
        Ok(v) => v,
        Err(diags) => {
            let d = &diags[0];
            let (line, col) = d.line_col(text);
            let why = format!("the written text does not load: {line}:{col}: {}", d.message);
            return Err((0, WriteError { what: "the variant".into(), why }));
        }
    };
    let same = |a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| format!("{a:?}") == format!("{b:?}");
    let differs = |what: String| WriteError {
        what,
        why: "the language has no text that lowers back to it (the nearest one means something else)".into(),
    };
    if !same(&e.board, &got.board) {
        return Err((1, differs("the board".into())));
    }
    let mut parts: Vec<(String, bool)> =
        vec![("the title".into(), e.title == got.title), ("the players".into(), same(&e.players, &got.players))];
    parts.push(("the PGN variant".into(), e.pgn_variant == got.pgn_variant));
    for (i, z) in e.zones.iter().enumerate() {
        parts.push((format!("zone `{}`", z.name), same(&Some(z), &got.zones.get(i))));
    }
    parts.push(("the zones".into(), e.zones.len() == got.zones.len()));
    for (i, p) in e.pieces.iter().enumerate() {
        parts.push((format!("piece `{}`", p.name), same(&Some(p), &got.pieces.get(i))));
    }
    parts.push(("the pieces".into(), e.pieces.len() == got.pieces.len()));
    for (i, c) in e.castlings.iter().enumerate() {
        parts.push((format!("castling `{}`", c.notation), same(&Some(c), &got.castlings.get(i))));
    }
    parts.extend([
        ("the castlings".into(), e.castlings.len() == got.castlings.len()),
        ("the gates".into(), same(&e.gates, &got.gates)),
        ("the phases".into(), same(&e.phases, &got.phases)),
        ("the turn".into(), same(&e.turn, &got.turn)),
        ("the squares rules".into(), same(&e.squares, &got.squares)),
        ("the walls".into(), same(&e.walls, &got.walls)),
        ("the setup".into(), same(&e.setup, &got.setup)),
        ("the end rules".into(), same(&e.end, &got.end)),
        ("the move types".into(), e.move_types == got.move_types),
        ("the move priorities".into(), e.move_priorities == got.move_priorities),
        ("the attributes".into(), e.attributes == got.attributes),
        ("the flags".into(), e.flags == got.flags),
        ("the turn order".into(), e.turn_order == got.turn_order),
        ("pass-partial".into(), e.play.pass_partial == got.play.pass_partial),
        ("pass-turn".into(), e.play.pass_turn == got.play.pass_turn),
        ("maximal-captures".into(), e.play.maximal_captures == got.play.maximal_captures),
        ("maximal-captures then".into(), e.play.maximal_captures_prefer == got.play.maximal_captures_prefer),
        ("goals-count-hands".into(), e.goals_count_hands == got.goals_count_hands),
        ("shared-pieces".into(), e.shared_pieces == got.shared_pieces),
        ("royal-check".into(), e.royal_check == got.royal_check),
        ("must-capture".into(), e.must_capture == got.must_capture),
        ("castling-notation".into(), e.king_takes_partner == got.king_takes_partner),
        ("the teams".into(), e.teams == got.teams),
        ("the forbid rules".into(), e.forbids == got.forbids),
        ("the choices".into(), e.choices == got.choices),
        ("the display".into(), e.display == got.display),
    ]);
    match parts.into_iter().find(|(_, ok)| !ok) {
        Some((what, _)) => Err((2, differs(what))),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------- text

/// Writes the parts of a variant.
#[derive(Clone)]
struct Writer<'a> {
    v: &'a Variant,
    /// Use rank, file and range terms in cell lists.
    compact: bool,
    /// Cells by display position, as the lowering's ranges find them.
    coords: HashMap<(i32, i32, i32), CellId>,
    /// Cells of each rank and file, in id order, as `rank N` and `file F` find them.
    ranks: HashMap<i32, Vec<CellId>>,
    files: HashMap<i32, Vec<CellId>>,
}

fn join<T>(items: impl IntoIterator<Item = T>, sep: &str, f: impl Fn(T) -> String) -> String {
    items.into_iter().map(f).collect::<Vec<_>>().join(sep)
}

/// Breaks a list of words into lines of at most about `width` characters.
fn wrap(words: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

impl<'a> Writer<'a> {
    fn new(v: &'a Variant) -> Writer<'a> {
        let mut coords = HashMap::new();
        let mut ranks: HashMap<i32, Vec<CellId>> = HashMap::new();
        let mut files: HashMap<i32, Vec<CellId>> = HashMap::new();
        for (i, c) in v.board.cells.iter().enumerate() {
            let id = CellId(i as u16);
            if c.covers.is_empty() {
                coords.insert((c.x, c.y, c.layer), id);
                ranks.entry(c.y).or_default().push(id);
                files.entry(c.x).or_default().push(id);
            }
        }
        Writer { v, compact: true, coords, ranks, files }
    }

    fn cell(&self, c: CellId) -> &str {
        &self.v.board.cells[c.0 as usize].name
    }

    fn dir(&self, d: DirId) -> &str {
        &self.v.board.directions[d.0 as usize]
    }

    fn player(&self, p: PlayerId) -> &str {
        &self.v.players[p.0 as usize].name
    }

    fn zone(&self, z: ZoneId) -> &str {
        &self.v.zones[z.0 as usize].name
    }

    fn phase(&self, p: PhaseId) -> &str {
        &self.v.phases[p.0 as usize].name
    }

    fn move_type(&self, t: MoveTypeId) -> &str {
        &self.v.move_types[t.0 as usize]
    }

    fn attribute(&self, a: AttributeId) -> &str {
        &self.v.attributes[a.0 as usize]
    }

    fn flag(&self, f: FlagId) -> &str {
        &self.v.flags[f.0 as usize]
    }

    /// A piece as setups, promotions and programs name it: its letter, unless another piece
    /// is named like that letter (names are looked up first).
    fn piece(&self, t: PieceTypeId) -> String {
        let p = &self.v.pieces[t.0 as usize];
        let letter = p.letter.to_ascii_uppercase().to_string();
        // A marked type (`Q~`) is named: its letter alone names the unmarked one.
        if p.mark.is_some() || self.v.pieces.iter().any(|q| q.name == letter) {
            p.name.clone()
        } else {
            letter
        }
    }

    /// A list of cells as terms that lower to exactly these cells in this order.
    fn cells(&self, list: &[CellId]) -> Vec<String> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < list.len() {
            let mut best: (usize, String) = (1, self.cell(list[i]).to_string());
            if self.compact && self.v.board.cells[list[i].0 as usize].covers.is_empty() {
                let c = &self.v.board.cells[list[i].0 as usize];
                let rank = &self.ranks[&c.y];
                if (0..1000).contains(&c.y) && rank.len() >= 2 && list[i..].starts_with(rank) && rank.len() > best.0 {
                    best = (rank.len(), format!("rank {}", c.y + 1));
                }
                let file = &self.files[&c.x];
                if (0..26).contains(&c.x) && file.len() >= 2 && list[i..].starts_with(file) && file.len() > best.0 {
                    best = (file.len(), format!("file {}", (b'a' + c.x as u8) as char));
                }
                if let Some((len, term)) = self.range(&list[i..]) {
                    if len > best.0 {
                        best = (len, term);
                    }
                }
            }
            out.push(best.1);
            i += best.0;
        }
        out
    }

    /// The longest rectangle `A..B` (of at least three cells) that lowers to a prefix of `list`.
    fn range(&self, list: &[CellId]) -> Option<(usize, String)> {
        let s = &self.v.board.cells[list[0].0 as usize];
        let (x0, y0, l) = (s.x, s.y, s.layer);
        let max_x = self.coords.keys().filter(|k| k.2 == l).map(|k| k.0).max()?;
        let max_y = self.coords.keys().filter(|k| k.2 == l).map(|k| k.1).max()?;
        let row = |y: i32, x1: i32| -> Vec<CellId> {
            (x0..=x1).filter_map(|x| self.coords.get(&(x, y, l)).copied()).collect()
        };
        let mut best: Option<(usize, String)> = None;
        for x1 in x0..=max_x {
            let first = row(y0, x1);
            if !list.starts_with(&first) {
                break;
            }
            let mut len = first.len();
            let mut y1 = y0;
            while y1 < max_y {
                let next = row(y1 + 1, x1);
                if !list[len..].starts_with(&next) {
                    break;
                }
                len += next.len();
                y1 += 1;
            }
            if len < 3 || best.as_ref().is_some_and(|b| b.0 >= len) {
                continue;
            }
            // Name two opposite corners that exist.
            let corner = |x: i32, y: i32| self.coords.get(&(x, y, l)).map(|c| self.cell(*c).to_string());
            let ends = match (corner(x0, y0), corner(x1, y1)) {
                (Some(a), Some(b)) => Some((a, b)),
                _ => corner(x0, y1).zip(corner(x1, y0)),
            };
            if let Some((a, b)) = ends {
                best = Some((len, format!("{a}..{b}")));
            }
        }
        best
    }

    /// Directions as names and sets: each run of the list that is a set becomes its name.
    fn dirs(&self, dirs: &[DirId], sets: &[(String, Vec<DirId>)]) -> String {
        let mut out = Vec::new();
        let mut i = 0;
        while i < dirs.len() {
            let set = sets
                .iter()
                .filter(|(_, s)| s.len() >= 2 && dirs[i..].starts_with(s))
                .max_by_key(|(_, s)| s.len())
                .filter(|(_, s)| {
                    let mut seen = HashSet::new();
                    s.iter().all(|d| seen.insert(*d))
                });
            match set {
                Some((name, s)) => {
                    out.push(name.clone());
                    i += s.len();
                }
                None => {
                    out.push(self.dir(dirs[i]).to_string());
                    i += 1;
                }
            }
        }
        out.join(" ")
    }
}
