//! Writing the IR back as `.var` text (the inverse of the lowering), checked by lowering the text again.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

use varia_interpreter::ir::*;

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

/// A copy of the variant whose names are all writable, and the renames made.
fn sanitise(v: &Variant) -> Result<(Variant, Vec<Rename>), WriteError> {
    let mut e = v.clone();
    let mut renames = Vec::new();
    if e.title.contains('"') || e.title.contains('\n') || e.title.contains('\r') {
        let t: String = e
            .title
            .chars()
            .map(|c| {
                if c == '"' {
                    '\''
                } else if c == '\n' || c == '\r' {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        renames.push(Rename { kind: "title", from: e.title.clone(), to: t.clone() });
        e.title = t;
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
    if v.players.len() != 2 {
        return fail(
            "the players",
            format!("the language accepts exactly two players, this variant has {}", v.players.len()),
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
        if !p.letter.is_ascii_alphabetic() || !letters.insert(p.letter.to_ascii_uppercase()) {
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
        ("the phases".into(), same(&e.phases, &got.phases)),
        ("the turn".into(), same(&e.turn, &got.turn)),
        ("the squares rules".into(), same(&e.squares, &got.squares)),
        ("the setup".into(), same(&e.setup, &got.setup)),
        ("the end rules".into(), same(&e.end, &got.end)),
        ("the move types".into(), e.move_types == got.move_types),
        ("the move priorities".into(), e.move_priorities == got.move_priorities),
        ("the attributes".into(), e.attributes == got.attributes),
        ("the flags".into(), e.flags == got.flags),
        ("the turn order".into(), e.turn_order == got.turn_order),
        ("pass-partial".into(), e.pass_partial == got.pass_partial),
    ]);
    match parts.into_iter().find(|(_, ok)| !ok) {
        Some((what, _)) => Err((2, differs(what))),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------- the board as grids

/// A board described as grids and their differences.
struct GridPlan {
    /// Width, height, prefix, layer of each grid, in declaration order.
    grids: Vec<(i32, i32, String, i32)>,
    /// Directions declared by name after the compass (ids 8 ..).
    plain_dirs: Vec<DirId>,
    /// Directions declared by offset, after the plain ones.
    offset_dirs: Vec<(DirId, [i32; 3])>,
    /// Grid cells that do not exist.
    removed: Vec<String>,
    /// Merged cells: the names of the grid cells merged, and the cell they become.
    merges: Vec<(Vec<String>, CellId)>,
    /// Cells that are not grid cells, declared one by one.
    extra_cells: Vec<CellId>,
    /// Links of the grid that the board lacks.
    unlinks: Vec<(CellId, DirId)>,
    /// Links beyond the grid's.
    links: Vec<Link>,
}

fn file_rank(x: i32, y: i32) -> Option<String> {
    ((0..26).contains(&x) && (0..99).contains(&y)).then(|| format!("{}{}", (b'a' + x as u8) as char, y + 1))
}

/// The grid description of the board, if it is made of grids (with the compass first).
fn grid_plan(e: &Variant) -> Option<GridPlan> {
    let b = &e.board;
    if b.directions.len() < 8 || (0..8).any(|i| b.directions[i] != COMPASS[i].0) || b.direction_sets.len() < 3 {
        return None;
    }
    for (i, (name, members)) in GRID_SETS.iter().enumerate() {
        let want: Vec<DirId> = members.iter().map(|&m| DirId(m)).collect();
        if b.direction_sets[i].0 != *name || b.direction_sets[i].1 != want {
            return None;
        }
    }
    // Cells between cells come last (`between` runs after everything else).
    let n = b.cells.iter().position(|c| !c.covers.is_empty()).unwrap_or(b.cells.len());
    if b.cells[n..].iter().any(|c| c.covers.is_empty()) {
        return None;
    }
    let cells = &b.cells[..n];
    // Each layer's prefix, from its first cell named as a grid names it.
    let mut prefixes: HashMap<i32, String> = HashMap::new();
    for c in cells.iter().filter(|c| c.also_at.is_empty()) {
        if let Some(own) = file_rank(c.x, c.y) {
            if let Some(p) = c.name.strip_suffix(&own) {
                prefixes.entry(c.layer).or_insert_with(|| p.to_string());
            }
        }
    }
    let grid_name = |x: i32, y: i32, l: i32| Some(format!("{}{}", prefixes.get(&l)?, file_rank(x, y)?));
    let is_grid = |c: &Cell| {
        if c.also_at.is_empty() {
            grid_name(c.x, c.y, c.layer).as_deref() == Some(c.name.as_str())
        } else {
            std::iter::once((c.x, c.y, c.layer))
                .chain(c.also_at.iter().copied())
                .all(|(x, y, l)| grid_name(x, y, l).is_some())
        }
    };
    let grid_ids: Vec<usize> = (0..n).filter(|&i| is_grid(&cells[i])).collect();
    let extra_cells: Vec<CellId> = (0..n).filter(|&i| !is_grid(&cells[i])).map(|i| CellId(i as u16)).collect();
    if grid_ids.is_empty() {
        return None;
    }
    // Grids in order of their first cell; sizes from the positions they cover.
    let mut layers: Vec<i32> = Vec::new();
    let mut size: HashMap<i32, (i32, i32)> = HashMap::new();
    let mut occupied: HashSet<(i32, i32, i32)> = HashSet::new();
    for &i in &grid_ids {
        let c = &cells[i];
        if !layers.contains(&c.layer) {
            layers.push(c.layer);
        }
        for (x, y, l) in std::iter::once((c.x, c.y, c.layer)).chain(c.also_at.iter().copied()) {
            if !occupied.insert((x, y, l)) {
                return None;
            }
            let s = size.entry(l).or_insert((0, 0));
            *s = (s.0.max(x + 1), s.1.max(y + 1));
        }
    }
    for l in size.keys() {
        if !layers.contains(l) {
            layers.push(*l);
        }
    }
    if layers.iter().any(|l| *l < 0 || !prefixes.contains_key(l)) {
        return None;
    }
    let grids: Vec<(i32, i32, String, i32)> =
        layers.iter().map(|l| (size[l].0, size[l].1, prefixes[l].clone(), *l)).collect();
    // Directions after the compass: plain ones, then those that link by a constant offset.
    let pos = |c: CellId| {
        let c = &b.cells[c.0 as usize];
        (c.x, c.y, c.layer, c.also_at.is_empty())
    };
    let offset_of = |d: usize| -> Option<[i32; 3]> {
        let mut delta = None;
        for l in b.links.iter().filter(|l| l.dir.0 as usize == d) {
            let (a, z) = (pos(l.from), pos(l.to));
            // A merged cell has several positions: its links are checked by the simulation.
            if !a.3 || !z.3 {
                continue;
            }
            let dd = [z.0 - a.0, z.1 - a.1, z.2 - a.2];
            if *delta.get_or_insert(dd) != dd {
                return None;
            }
        }
        delta.filter(|d| d.iter().all(|v| (-16..=16).contains(v)) && *d != [0, 0, 0])
    };
    let mut first_offset = b.directions.len();
    while first_offset > 8 && offset_of(first_offset - 1).is_some() {
        first_offset -= 1;
    }
    for first in [first_offset, b.directions.len()] {
        let offsets: Vec<(DirId, [i32; 3])> =
            (first..b.directions.len()).map(|d| (DirId(d as u8), offset_of(d).unwrap_or_default())).collect();
        if let Some(plan) = simulate(b, n, &grids, &offsets, &extra_cells) {
            let (removed, merges, sim_links) = plan;
            // The board's links: the grid's, less some, plus others.
            let mut unlinks: Vec<(CellId, DirId)> = Vec::new();
            let mut kept: Vec<(CellId, DirId)> = Vec::new();
            let mut i = 0;
            for s in &sim_links {
                match b.links.get(i) {
                    Some(l) if (l.from, l.dir, l.to) == (s.from, s.dir, s.to) => {
                        i += 1;
                        kept.push((s.from, s.dir));
                    }
                    _ => {
                        if !unlinks.contains(&(s.from, s.dir)) {
                            unlinks.push((s.from, s.dir));
                        }
                    }
                }
            }
            if unlinks.iter().any(|u| kept.contains(u)) {
                continue;
            }
            let links = b.links[i..].to_vec();
            let offset_touched = |d: DirId| offsets.iter().any(|(o, _)| *o == d);
            if first < b.directions.len()
                && (unlinks.iter().any(|u| offset_touched(u.1)) || links.iter().any(|l| offset_touched(l.dir)))
            {
                continue;
            }
            return Some(GridPlan {
                grids,
                plain_dirs: (8..first).map(|d| DirId(d as u8)).collect(),
                offset_dirs: offsets,
                removed,
                merges,
                extra_cells,
                unlinks,
                links,
            });
        }
    }
    None
}

type Simulated = (Vec<String>, Vec<(Vec<String>, CellId)>, Vec<Link>);

/// Builds the grids as the lowering does (cells, compass and offset links, removals, merges)
/// and checks the cells come out as the board's first `n` cells (less the extra ones).
/// Returns the removed cells, the merges and the links made.
fn simulate(
    b: &Board,
    n: usize,
    grids: &[(i32, i32, String, i32)],
    offsets: &[(DirId, [i32; 3])],
    extra: &[CellId],
) -> Option<Simulated> {
    struct SimCell {
        name: String,
        pos: (i32, i32, i32),
        also_at: Vec<(i32, i32, i32)>,
    }
    let mut cells: Vec<SimCell> = Vec::new();
    let mut coords: HashMap<(i32, i32, i32), usize> = HashMap::new();
    let mut names = HashSet::new();
    for (w, h, prefix, layer) in grids {
        for y in 0..*h {
            for x in 0..*w {
                let name = format!("{prefix}{}", file_rank(x, y)?);
                if !names.insert(name.clone()) {
                    return None;
                }
                coords.insert((x, y, *layer), cells.len());
                cells.push(SimCell { name, pos: (x, y, *layer), also_at: Vec::new() });
            }
        }
    }
    let grid_cells: Vec<&Cell> = (0..n).filter(|i| !extra.contains(&CellId(*i as u16))).map(|i| &b.cells[i]).collect();
    let mut present: HashSet<(i32, i32, i32)> = HashSet::new();
    for c in &grid_cells {
        present.insert((c.x, c.y, c.layer));
        present.extend(c.also_at.iter().copied());
    }
    let removed_ids: Vec<usize> = (0..cells.len()).filter(|&i| !present.contains(&cells[i].pos)).collect();
    let removed_set: HashSet<usize> = removed_ids.iter().copied().collect();
    let mut links: Vec<(usize, DirId, usize)> = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        if removed_set.contains(&i) {
            continue;
        }
        for (d, (_, dx, dy)) in COMPASS.iter().enumerate() {
            if let Some(&j) = coords.get(&(c.pos.0 + dx, c.pos.1 + dy, c.pos.2)) {
                if !removed_set.contains(&j) {
                    links.push((i, DirId(d as u8), j));
                }
            }
        }
    }
    for (i, c) in cells.iter().enumerate() {
        for (dir, [dx, dy, dl]) in offsets {
            if let Some(&j) = coords.get(&(c.pos.0 + dx, c.pos.1 + dy, c.pos.2 + dl)) {
                if !removed_set.contains(&i) && !removed_set.contains(&j) {
                    links.push((i, *dir, j));
                }
            }
        }
    }
    let removed: Vec<String> = removed_ids.iter().map(|&i| cells[i].name.clone()).collect();
    // Cells as ids into `cells`, after removal.
    let mut alive: Vec<usize> = (0..cells.len()).filter(|i| !removed_set.contains(i)).collect();
    let mut merges = Vec::new();
    for c in grid_cells.iter().filter(|c| !c.also_at.is_empty()) {
        let keep = *coords.get(&(c.x, c.y, c.layer))?;
        let gone: Vec<usize> = c.also_at.iter().map(|p| coords.get(p).copied()).collect::<Option<_>>()?;
        let mut list = vec![cells[keep].name.clone()];
        list.extend(gone.iter().map(|&g| cells[g].name.clone()));
        let at = |x: usize| if gone.contains(&x) { keep } else { x };
        let mut merged: Vec<(usize, DirId, usize)> = Vec::new();
        for &(f, d, t) in &links {
            let l = (at(f), d, at(t));
            if l.0 != l.2 && !merged.contains(&l) {
                merged.push(l);
            }
        }
        links = merged;
        let extra_at: Vec<(i32, i32, i32)> =
            gone.iter().flat_map(|&g| std::iter::once(cells[g].pos).chain(cells[g].also_at.clone())).collect();
        cells[keep].name = c.name.clone();
        cells[keep].also_at.extend(extra_at);
        alive.retain(|x| !gone.contains(x));
        // The final id of `keep` is needed in the text; found below once the order is known.
        merges.push((list, keep));
    }
    if alive.len() != grid_cells.len() {
        return None;
    }
    for (&i, c) in alive.iter().zip(&grid_cells) {
        let s = &cells[i];
        if s.name != c.name || s.pos != (c.x, c.y, c.layer) || s.also_at != c.also_at {
            return None;
        }
    }
    // Map simulated ids to the board's: grid cells are the board's cells less the extra ones.
    let board_ids: Vec<usize> = (0..n).filter(|i| !extra.contains(&CellId(*i as u16))).collect();
    let mut to_board: HashMap<usize, CellId> = HashMap::new();
    for (k, &i) in alive.iter().enumerate() {
        to_board.insert(i, CellId(board_ids[k] as u16));
    }
    let links = links
        .into_iter()
        .map(|(f, d, t)| Some(Link { from: to_board[&f], dir: d, to: *to_board.get(&t)? }))
        .collect::<Option<_>>()?;
    let merges = merges.into_iter().map(|(list, keep)| (list, to_board[&keep])).collect();
    Some((removed, merges, links))
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
        if self.v.pieces.iter().any(|q| q.name == letter) {
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

    // ------------------------------------------------------------ board

    fn grid_board(&self, plan: &GridPlan) -> String {
        let mut lines = Vec::new();
        for (i, (w, h, prefix, layer)) in plan.grids.iter().enumerate() {
            let mut line = format!("grid {w} x {h}");
            if !prefix.is_empty() {
                let _ = write!(line, " prefix \"{prefix}\"");
            }
            if *layer != i as i32 {
                let _ = write!(line, " layer {layer}");
            }
            lines.push(line);
        }
        if !plan.plain_dirs.is_empty() {
            let words: Vec<String> = plan.plain_dirs.iter().map(|d| self.dir(*d).to_string()).collect();
            lines.extend(wrap(&words, 90).into_iter().map(|l| format!("direction {l}")));
        }
        for (d, [dx, dy, dl]) in &plan.offset_dirs {
            lines.push(format!("direction {} offset {dx} {dy} {dl}", self.dir(*d)));
        }
        if !plan.removed.is_empty() {
            lines.extend(wrap(&plan.removed, 90).into_iter().map(|l| format!("remove {l}")));
        }
        for (list, keep) in &plan.merges {
            lines.push(format!("merge {} as {}", list.join(" "), self.cell(*keep)));
        }
        for c in &plan.extra_cells {
            lines.push(self.cell_decl(*c));
        }
        for (c, d) in &plan.unlinks {
            lines.push(format!("unlink {} {}", self.cell(*c), self.dir(*d)));
        }
        lines.extend(self.link_lines(&plan.links));
        self.board_tail(&mut lines, 3);
        lines.join("\n")
    }

    /// `cell NAME at X Y [layer L]`
    fn cell_decl(&self, c: CellId) -> String {
        let cell = &self.v.board.cells[c.0 as usize];
        let mut line = format!("cell {} at {} {}", cell.name, cell.x, cell.y);
        if cell.layer != 0 {
            let _ = write!(line, " layer {}", cell.layer);
        }
        line
    }

    fn link_lines(&self, links: &[Link]) -> Vec<String> {
        links.iter().map(|l| format!("link {} {} {}", self.cell(l.from), self.dir(l.dir), self.cell(l.to))).collect()
    }

    /// Direction sets from `first_set` on, `no-square` and `between`: the same in both forms.
    fn board_tail(&self, lines: &mut Vec<String>, first_set: usize) {
        let b = &self.v.board;
        for (i, (name, members)) in b.direction_sets.iter().enumerate().skip(first_set) {
            lines.push(format!("directions {name} = {}", self.dirs(members, &b.direction_sets[..i])));
        }
        if !b.initially_empty_locations.is_empty() {
            let words = self.cells(&b.initially_empty_locations);
            lines.extend(wrap(&words, 90).into_iter().map(|l| format!("no-square {l}")));
        }
        if let Some(dirs) = self.between_dirs() {
            lines.push(format!("between {}", self.dirs(&dirs, &b.direction_sets)));
        }
    }

    /// The directions whose links make exactly the board's locations between cells.
    fn between_dirs(&self) -> Option<Vec<DirId>> {
        let b = &self.v.board;
        let key = |c: &Cell| {
            let xs = c.covers.iter().map(|k| b.cells[k.0 as usize].x);
            let ys = c.covers.iter().map(|k| b.cells[k.0 as usize].y);
            Some((xs.clone().min()? + xs.max()?, ys.clone().min()? + ys.max()?, c.layer))
        };
        let wanted: HashSet<(i32, i32, i32)> =
            b.cells.iter().filter(|c| !c.covers.is_empty()).filter_map(key).collect();
        if wanted.is_empty() {
            return None;
        }
        let mut dirs = Vec::new();
        let mut made = HashSet::new();
        for d in 0..b.directions.len() {
            let mut keys = Vec::new();
            for l in b.links.iter().filter(|l| l.dir.0 as usize == d) {
                let (a, z) = (&b.cells[l.from.0 as usize], &b.cells[l.to.0 as usize]);
                if a.layer == z.layer && (a.x - z.x).abs() <= 1 && (a.y - z.y).abs() <= 1 {
                    keys.push((a.x + z.x, a.y + z.y, a.layer));
                }
            }
            if !keys.is_empty() && keys.iter().all(|k| wanted.contains(k)) {
                dirs.push(DirId(d as u8));
                made.extend(keys);
            }
        }
        // Without a fit, `between` is left out and the check reports the board.
        (made == wanted).then_some(dirs)
    }

    /// The board as explicit cells and links.
    fn explicit_board(&self) -> Result<String, WriteError> {
        let b = &self.v.board;
        if let Some(c) = b.cells.iter().find(|c| !c.also_at.is_empty()) {
            return fail(
                "the board",
                format!(
                    "cell `{}` lies on several boards (made by `merge`), and the board is not made of grids the \
                     language could merge it from",
                    c.name
                ),
            );
        }
        let n = b.cells.iter().position(|c| !c.covers.is_empty()).unwrap_or(b.cells.len());
        if b.cells[n..].iter().any(|c| c.covers.is_empty()) || (n < b.cells.len() && self.between_dirs().is_none()) {
            return fail("the board", "its locations between cells are not those `between` makes from its links");
        }
        let mut at: HashMap<(i32, i32, i32), &str> = HashMap::new();
        for c in &b.cells[..n] {
            if !is_name(&c.name) {
                return fail("the board", format!("cell `{}` has a name only a grid or `between` can give", c.name));
            }
            if !(-1000..=1000).contains(&c.x) || !(-1000..=1000).contains(&c.y) || !(0..=1000).contains(&c.layer) {
                return fail("the board", format!("cell `{}` lies outside the coordinates a `cell` can have", c.name));
            }
            if let Some(other) = at.insert((c.x, c.y, c.layer), &c.name) {
                return fail("the board", format!("cells `{other}` and `{}` have the same display position", c.name));
            }
        }
        let mut lines = Vec::new();
        let words: Vec<String> = b.directions.clone();
        lines.extend(wrap(&words, 90).into_iter().map(|l| format!("direction {l}")));
        // Cells of one rank of one layer share a line.
        let mut line = String::new();
        let mut last = None;
        for i in 0..n {
            let c = &b.cells[i];
            if last != Some((c.layer, c.y)) || line.len() > 80 {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                last = Some((c.layer, c.y));
            } else {
                line.push_str("  ");
            }
            line.push_str(&self.cell_decl(CellId(i as u16)));
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines.extend(self.link_lines(&b.links));
        self.board_tail(&mut lines, 0);
        Ok(lines.join("\n"))
    }

    // ------------------------------------------------------------ the rest

    fn text(&self, renames: &[Rename], board: &str) -> Result<String, WriteError> {
        let v = self.v;
        let mut out = String::new();
        for r in renames {
            let _ = writeln!(out, "// The {} {:?} is written `{}`.", r.kind, r.from, r.to);
        }
        let _ = writeln!(out, "variant \"{}\"\n", v.title);
        let _ = writeln!(out, "board {{");
        for l in board.lines() {
            let _ = writeln!(out, "  {l}");
        }
        let _ = writeln!(out, "}}\n");
        for p in &v.players {
            out.push_str(&self.player_decl(p)?);
        }
        out.push('\n');
        let lists = [("move-types", &v.move_types), ("attributes", &v.attributes), ("flags", &v.flags)];
        let mut any = false;
        for (word, names) in lists {
            if !names.is_empty() {
                let _ = writeln!(out, "{word} {}", names.join(" "));
                any = true;
            }
        }
        if any {
            out.push('\n');
        }
        for z in &v.zones {
            out.push_str(&self.zone_decl(z)?);
            out.push('\n');
        }
        for p in &v.pieces {
            out.push_str(&self.piece_decl(p)?);
            out.push('\n');
        }
        for c in &v.castlings {
            let _ = writeln!(
                out,
                "castle \"{}\" {} right {} king {} -> {} partner {} -> {}",
                c.notation,
                self.player(c.player),
                c.right,
                self.cell(c.king_from),
                self.cell(c.king_to),
                self.cell(c.partner_from),
                self.cell(c.partner_to)
            );
        }
        if !v.castlings.is_empty() {
            out.push('\n');
        }
        for p in &v.phases {
            let _ = writeln!(out, "phase {} when {}", p.name, self.condition(&p.when, &format!("phase `{}`", p.name))?);
        }
        if !v.phases.is_empty() {
            out.push('\n');
        }
        let mut rules = false;
        if !v.move_priorities.is_empty() {
            let _ = writeln!(out, "priorities {}", join(&v.move_priorities, " ", |t| self.move_type(*t).to_string()));
            rules = true;
        }
        if let Some(order) = &v.turn_order {
            if order.cycle.is_empty() {
                return fail("the turn order", "its cycle is empty");
            }
            let entry = |e: &TurnEntry| match e.move_type {
                Some(t) => format!("{}:{}", self.player(e.player), self.move_type(t)),
                None => self.player(e.player).to_string(),
            };
            let cycle = join(&order.cycle, " ", entry);
            if order.opening.is_empty() {
                let _ = writeln!(out, "turn-order {{ {cycle} }}");
            } else {
                let _ = writeln!(out, "turn-order {{ {} repeat {cycle} }}", join(&order.opening, " ", entry));
            }
            rules = true;
        }
        if v.pass_partial {
            let _ = writeln!(out, "pass-partial");
            rules = true;
        }
        if rules {
            out.push('\n');
        }
        if let Some(s) = &v.squares {
            out.push_str(&self.squares_block(s)?);
            out.push('\n');
        }
        let default_turn = v.turn.actions.len() == 1
            && v.turn.actions[0].kinds == [ActionKind::MovePiece]
            && !v.turn.actions[0].optional
            && v.turn.actions[0].skip_if_none.is_none();
        if !default_turn {
            out.push_str(&self.turn_block(&v.turn)?);
            out.push('\n');
        }
        out.push_str(&self.setup_block(&v.setup)?);
        out.push('\n');
        out.push_str(&self.end_block(&v.end)?);
        Ok(out)
    }

    fn player_decl(&self, p: &Player) -> Result<String, WriteError> {
        let map = &p.direction_map;
        let mut pairs = Vec::new();
        for (a, &b) in map.iter().enumerate() {
            let b = b.0 as usize;
            if b >= map.len() || map[b].0 as usize != a {
                return fail(
                    format!("player `{}`", p.name),
                    "its direction map is not a set of swapped pairs (`swap a <-> b`)",
                );
            }
            if a < b {
                pairs.push(format!("{} <-> {}", self.dir(DirId(a as u8)), self.dir(DirId(b as u8))));
            }
        }
        if pairs.is_empty() {
            return Ok(format!("player {}\n", p.name));
        }
        let lead = format!("player {} swap ", p.name);
        let mut out = lead.clone();
        let mut width = lead.len();
        for (i, pair) in pairs.iter().enumerate() {
            if i > 0 {
                if width + 2 + pair.len() > 100 {
                    out.push('\n');
                    out.push_str(&" ".repeat(lead.len()));
                    width = lead.len();
                } else {
                    out.push_str("  ");
                    width += 2;
                }
            }
            out.push_str(pair);
            width += pair.len();
        }
        out.push('\n');
        Ok(out)
    }

    fn zone_decl(&self, z: &Zone) -> Result<String, WriteError> {
        let what = || format!("zone `{}`", z.name);
        let mut lines = Vec::new();
        if z.cells.len() != self.v.players.len() {
            return fail(what(), "it does not list cells for each player");
        }
        if z.cells.iter().all(|c| *c == z.cells[0]) {
            if !z.cells[0].is_empty() {
                lines.extend(wrap(&self.cells(&z.cells[0]), 90));
            }
        } else {
            for (i, cells) in z.cells.iter().enumerate() {
                if !cells.is_empty() {
                    let words = self.cells(cells);
                    let lead = format!("{}: ", self.player(PlayerId(i as u8)));
                    for (k, l) in wrap(&words, 90).into_iter().enumerate() {
                        lines.push(if k == 0 {
                            format!("{lead}{l}")
                        } else {
                            format!("{}{l}", " ".repeat(lead.len()))
                        });
                    }
                }
            }
        }
        match z.occupancy {
            Some(o) => {
                lines.extend(occupancy_rules(&Occupancy::default(), &o, true));
                for (phase, p) in &z.phase_occupancy {
                    let rules = occupancy_rules(&o, p, false);
                    if rules.is_empty() {
                        lines.push(format!("in-phase {} {{ }}", self.phase(*phase)));
                    } else {
                        lines.push(format!("in-phase {} {{", self.phase(*phase)));
                        lines.extend(rules.into_iter().map(|r| format!("  {r}")));
                        lines.push("}".into());
                    }
                }
            }
            None if !z.phase_occupancy.is_empty() => {
                return fail(what(), "it has occupancy rules for phases but none of its own");
            }
            None => {}
        }
        let short = lines.len() <= 1 && lines.iter().all(|l| l.len() < 60);
        Ok(if lines.is_empty() {
            format!("zone {} {{ }}\n", z.name)
        } else if short {
            format!("zone {} {{ {} }}\n", z.name, lines[0])
        } else {
            format!("zone {} {{\n{}}}\n", z.name, join(lines, "", |l| format!("  {l}\n")))
        })
    }

    fn piece_decl(&self, p: &PieceType) -> Result<String, WriteError> {
        let what = || format!("piece `{}`", p.name);
        let mut lines: Vec<String> = Vec::new();
        if p.royal {
            lines.push("royal".into());
        }
        if let Some(v) = p.value {
            if !(0..=1_000_000).contains(&v) {
                return fail(what(), format!("its value {v} is outside 0 ..= 1000000"));
            }
            lines.push(format!("value {v}"));
        }
        if p.san_without_letter {
            lines.push("san-without-letter".into());
        }
        if p.resets_move_clock {
            lines.push("resets-move-clock".into());
        }
        if let Some(k) = p.keep_apart {
            lines.push(format!("keep-apart {k}"));
        }
        for a in &p.attributes {
            lines.push(format!("attribute {} set", self.attribute(*a)));
        }
        match p.to_hand {
            Some(t) if self.v.pieces[t.0 as usize].name == p.name => lines.push("captured-to-hand".into()),
            Some(t) => lines.push(format!("captured-to-hand as {}", self.piece(t))),
            None => {}
        }
        if p.drop_supply != default_drop_supply() {
            lines.push(match p.drop_supply {
                DropSupply::Hand => "drop-supply hand".into(),
                DropSupply::Unlimited => "drop-supply unlimited".into(),
            });
        }
        for m in &p.moves {
            lines.push(self.move_rule(m, &what())?);
        }
        for (word, programs) in [("move", &p.programs), ("drop", &p.drops)] {
            for prog in programs {
                let head = match prog.move_type {
                    Some(t) => format!("{word} {}", self.move_type(t)),
                    None => word.to_string(),
                };
                lines.extend(self.block(&head, &prog.body, &what())?);
            }
        }
        if let Some(pr) = &p.promotion {
            if pr.choices.is_empty() {
                return fail(what(), "it promotes to no piece type");
            }
            let mut line =
                format!("promote in {} to {}", self.zone(pr.zone), join(&pr.choices, " ", |c| self.piece(*c)));
            if !pr.mandatory {
                line.push_str(" optional");
            }
            lines.push(line);
        }
        Ok(format!(
            "piece {} {} {{\n{}}}\n",
            p.name,
            p.letter.to_ascii_uppercase(),
            join(lines, "", |l| format!("  {}\n", l.replace('\n', "\n  ")))
        ))
    }

    fn geometry(&self, g: &Geometry, what: &str) -> Result<String, WriteError> {
        let sets = &self.v.board.direction_sets;
        let unique = |dirs: &[DirId]| {
            let mut seen = HashSet::new();
            !dirs.is_empty() && dirs.iter().all(|d| seen.insert(*d))
        };
        Ok(match g {
            Geometry::Slide { dirs, max } | Geometry::Hop { dirs, max } => {
                if !unique(dirs) {
                    return fail(what, "a move power lists no direction or one direction twice");
                }
                let hop = matches!(g, Geometry::Hop { .. });
                let d = self.dirs(dirs, sets);
                match (hop, max) {
                    (false, Some(1)) => format!("step {d}"),
                    (false, None) => format!("slide {d}"),
                    (false, Some(m)) => format!("slide {d} max {m}"),
                    (true, None) => format!("hop {d}"),
                    (true, Some(m)) => format!("hop {d} max {m}"),
                }
            }
            Geometry::Leap { paths } => {
                if paths.is_empty() || paths.iter().any(|p| p.is_empty()) {
                    return fail(what, "a leap has no path or an empty one");
                }
                format!("leap {}", self.leap_paths(paths))
            }
        })
    }

    /// Leap paths, as `A B` offsets where a run of them is the lowering's paths for an offset.
    fn leap_paths(&self, paths: &[Vec<DirId>]) -> String {
        let compass: Option<Vec<DirId>> = COMPASS
            .iter()
            .map(|(n, _, _)| self.v.board.directions.iter().position(|d| d == n).map(|i| DirId(i as u8)))
            .collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < paths.len() {
            let mut best: Option<(usize, String)> = None;
            if let Some(compass) = &compass {
                for a in 1..=16 {
                    for b in 0..=a {
                        let o = offset_paths(compass, a, b);
                        if paths[i..].starts_with(&o) && best.as_ref().is_none_or(|x| o.len() > x.0) {
                            best = Some((o.len(), format!("{a} {b}")));
                        }
                    }
                }
            }
            match best {
                Some((len, s)) => {
                    out.push(s);
                    i += len;
                }
                None => {
                    out.push(format!("({})", join(&paths[i], " ", |d| self.dir(*d).to_string())));
                    i += 1;
                }
            }
        }
        // Long lists go on several lines, under the first path.
        wrap(&out, 80).join("\n     ")
    }

    fn move_rule(&self, m: &MoveRule, what: &str) -> Result<String, WriteError> {
        let mut s = self.geometry(&m.geometry, what)?;
        match m.mode {
            MoveMode::MoveOrCapture => {}
            MoveMode::MoveOnly => s.push_str(" move-only"),
            MoveMode::CaptureOnly => s.push_str(" capture-only"),
        }
        for c in &m.conditions {
            match c {
                Condition::FromZone(z) => {
                    let _ = write!(s, " from {}", self.zone(*z));
                }
                Condition::ToZone(z) => {
                    let _ = write!(s, " to {}", self.zone(*z));
                }
                c => {
                    let _ = write!(s, " if {}", self.condition(c, what)?);
                }
            }
        }
        if m.marks_en_passant {
            s.push_str(" marks-en-passant");
        }
        if m.captures_en_passant {
            s.push_str(" en-passant");
        }
        if m.stop_between {
            s.push_str(" stop-between");
        }
        Ok(s)
    }

    fn condition(&self, c: &Condition, what: &str) -> Result<String, WriteError> {
        let op = |o: &Compare| match o {
            Compare::Less => "<",
            Compare::LessEq => "<=",
            Compare::Eq => "==",
            Compare::GreaterEq => ">=",
            Compare::Greater => ">",
        };
        Ok(match c {
            Condition::PieceCount(o, n) => format!("pieces {} {n}", op(o)),
            Condition::TurnNumber(o, n) => format!("turn {} {n}", op(o)),
            Condition::InPhase(p) => format!("phase {}", self.phase(*p)),
            Condition::Not(c) => format!("not {}", self.condition(c, what)?),
            Condition::FromZone(_) | Condition::ToZone(_) => {
                return fail(what, "a zone condition (`from ZONE`, `to ZONE`) can only be a move power's modifier");
            }
        })
    }

    // ------------------------------------------------------------ programs

    fn place(&self, p: &Place) -> &str {
        match p {
            Place::Dir(d) => self.dir(*d),
            Place::Cell(c) => self.cell(*c),
        }
    }

    /// `word` or `word(PLACE)`.
    fn at(&self, word: &str, p: &Option<Place>) -> String {
        match p {
            Some(p) => format!("{word}({})", self.place(p)),
            None => word.to_string(),
        }
    }

    /// `HEAD { ... }` on one line when short and flat, else one line per group of instructions.
    fn block(&self, head: &str, body: &[Instr], what: &str) -> Result<Vec<String>, WriteError> {
        self.block_in(head, body, what, false)
    }

    /// [`Writer::block`], on several lines if `tall` (an `else` after a tall `if`).
    fn block_in(&self, head: &str, body: &[Instr], what: &str, tall: bool) -> Result<Vec<String>, WriteError> {
        let lines = self.instrs(body, what)?;
        let flat = lines.join(" ");
        if !tall && lines.iter().all(|l| !l.contains('{')) && head.len() + flat.len() < 70 {
            return Ok(vec![if flat.is_empty() { format!("{head} {{ }}") } else { format!("{head} {{ {flat} }}") }]);
        }
        let mut out = vec![format!("{head} {{")];
        out.extend(lines.into_iter().map(|l| format!("  {l}")));
        out.push("}".into());
        Ok(out)
    }

    /// Instructions as lines: a new line at each move after something else, and around blocks.
    fn instrs(&self, body: &[Instr], what: &str) -> Result<Vec<String>, WriteError> {
        let mut lines: Vec<String> = Vec::new();
        let mut line: Vec<String> = Vec::new();
        let mut moving = false;
        for i in body {
            let is_move = matches!(i, Instr::Step(_) | Instr::Jump(_) | Instr::Go(_) | Instr::Back);
            match i {
                Instr::If(t, yes, no) => {
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line).join(" "));
                    }
                    let head = format!("if {}", self.test(t, 0, what)?);
                    let mut block = self.block(&head, yes, what)?;
                    if !no.is_empty() {
                        // `else if` for a chain, as a person writes it.
                        let other = match no.as_slice() {
                            [Instr::If(..)] => {
                                let mut chain = self.instrs(no, what)?;
                                chain[0] = format!("else {}", chain[0]);
                                chain
                            }
                            _ => self.block_in("else", no, what, block.len() > 1)?,
                        };
                        let last = block.pop().unwrap_or_default();
                        let mut other = other.into_iter();
                        block.push(format!("{last} {}", other.next().unwrap_or_default()));
                        block.extend(other);
                    }
                    lines.extend(block);
                    moving = false;
                    continue;
                }
                Instr::While(t, body) => {
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line).join(" "));
                    }
                    let head = format!("while {}", self.test(t, 0, what)?);
                    lines.extend(self.block(&head, body, what)?);
                    moving = false;
                    continue;
                }
                _ => {}
            }
            let word = self.instr(i, what)?;
            let width: usize = line.iter().map(|w| w.len() + 1).sum();
            if (is_move && !moving || width + word.len() > 80) && !line.is_empty() {
                lines.push(std::mem::take(&mut line).join(" "));
            }
            moving = is_move;
            line.push(word);
        }
        if !line.is_empty() {
            lines.push(line.join(" "));
        }
        Ok(lines)
    }

    fn instr(&self, i: &Instr, what: &str) -> Result<String, WriteError> {
        let opt = |w: &str, p: &Option<Place>| self.at(w, p);
        Ok(match i {
            Instr::Step(d) => self.dir(*d).to_string(),
            Instr::Jump(c) => self.cell(*c).to_string(),
            Instr::Go(l) => format!(
                "go {}",
                match l {
                    Landmark::From => "from",
                    Landmark::To => "to",
                    Landmark::Mark => "mark",
                    Landmark::LastFrom => "last-from",
                    Landmark::LastTo => "last-to",
                }
            ),
            Instr::Mark(p) => opt("mark", p),
            Instr::Back => "back".into(),
            Instr::Verify(t) => format!("verify {}", self.test(t, 0, what)?),
            Instr::If(..) | Instr::While(..) => unreachable!("blocks are written by `instrs`"),
            Instr::To => "to".into(),
            Instr::From => "from".into(),
            Instr::Cascade => "cascade".into(),
            Instr::Add { kind, promote, then } => {
                let word = match kind {
                    AddKind::Move => "add",
                    AddKind::Copy => "add-copy",
                    AddKind::Partial => "add-partial",
                    AddKind::CopyPartial => "add-copy-partial",
                };
                let mut s = word.to_string();
                if !promote.is_empty() {
                    let _ = write!(s, "({})", join(promote, " ", |t| self.piece(*t)));
                }
                if let Some(t) = then {
                    if matches!(kind, AddKind::Move | AddKind::Copy) {
                        return fail(what, format!("`{word}` with a move type to go on with (`then`) is not partial"));
                    }
                    let _ = write!(s, " then {}", self.move_type(*t));
                }
                s
            }
            Instr::Capture(p) => opt("capture", p),
            Instr::ChangeType(t, p) => match p {
                Some(p) => format!("change-type({}, {})", self.piece(*t), self.place(p)),
                None => format!("change-type({})", self.piece(*t)),
            },
            Instr::ChangeOwner(p) => opt("change-owner", p),
            Instr::Flip(p) => opt("flip", p),
            Instr::Create { owner, piece, at } => {
                let mut keys = Vec::new();
                if let Some(o) = owner {
                    keys.push(format!("owner: {}", self.player(*o)));
                }
                if let Some(t) = piece {
                    keys.push(format!("piece: {}", self.piece(*t)));
                }
                if let Some(p) = at {
                    keys.push(format!("at: {}", self.place(p)));
                }
                if keys.is_empty() {
                    "create".into()
                } else {
                    format!("create({})", keys.join(", "))
                }
            }
            Instr::SetFlag(f, t) => format!("set-flag {} {}", self.flag(*f), self.test(t, 0, what)?),
            Instr::SetCellFlag(f, t, p) => {
                format!("{} {} {}", opt("set-cell-flag", p), self.flag(*f), self.test(t, 0, what)?)
            }
            Instr::SetAttribute(a, t) => format!("set-attribute {} {}", self.attribute(*a), self.test(t, 0, what)?),
        })
    }

    /// A test; at `level` 0 (a whole test) nothing needs brackets, at 2 (an operand of `and`,
    /// `or` or `not`) an `and` or `or` does.
    fn test(&self, t: &Test, level: u8, what: &str) -> Result<String, WriteError> {
        let opt = |w: &str, p: &Option<Place>| self.at(w, p);
        let with = |w: &str, first: &str, p: &Option<Place>| match p {
            Some(p) => format!("{w}({first}, {})", self.place(p)),
            None => format!("{w}({first})"),
        };
        Ok(match t {
            Test::True => "true".into(),
            Test::False => "false".into(),
            Test::Empty(p) => opt("empty", p),
            Test::Friend(p) => opt("friend", p),
            Test::Enemy(p) => opt("enemy", p),
            Test::Piece(ty, p) => with("piece", &self.piece(*ty), p),
            Test::InZone(z, p) => with("in", self.zone(*z), p),
            Test::OnBoard(p) => format!("on-board({})", self.place(p)),
            Test::At(c) => format!("at({})", self.cell(*c)),
            Test::LastFrom(p) => opt("last-from", p),
            Test::LastTo(p) => opt("last-to", p),
            Test::Marked(p) => opt("marked", p),
            Test::Attacked(None, p) => opt("attacked", p),
            Test::Attacked(Some(mt), p) => with("attacked-by", self.move_type(*mt), p),
            Test::Defended(None, p) => opt("defended", p),
            Test::Defended(Some(mt), p) => with("defended-by", self.move_type(*mt), p),
            Test::AdjacentToEnemy(p) => opt("adjacent-to-enemy", p),
            Test::Flag(f) => format!("flag({})", self.flag(*f)),
            Test::CellFlag(f, p) => with("cell-flag", self.flag(*f), p),
            Test::Attribute(a, p) => with("attribute", self.attribute(*a), p),
            Test::Holds(c) => format!("holds({})", self.condition(c, what)?),
            Test::Not(t) => format!("not {}", self.test(t, 2, what)?),
            Test::And(ts) | Test::Or(ts) => {
                let and = matches!(t, Test::And(_));
                if ts.len() < 2 {
                    return fail(what, "an `and` or `or` of fewer than two tests");
                }
                // An `and` inside an `or` needs no brackets, but reads better with them.
                let parts: Vec<String> = ts.iter().map(|x| self.test(x, 2, what)).collect::<Result<_, _>>()?;
                let s = parts.join(if and { " and " } else { " or " });
                if level > 0 {
                    format!("({s})")
                } else {
                    s
                }
            }
        })
    }

    fn goal_test(&self, g: &GoalTest, level: u8) -> Result<String, WriteError> {
        let typed = |w: &str, n: u32, t: &Option<PieceTypeId>| match t {
            Some(t) => format!("{w} {n} {}", self.piece(*t)),
            None => format!("{w} {n}"),
        };
        Ok(match g {
            GoalTest::PiecesRemaining(n, t) => typed("pieces-remaining", *n, t),
            GoalTest::TotalPieces(n, t) => typed("total-pieces", *n, t),
            GoalTest::Captured(t) => format!("captured {}", self.piece(*t)),
            GoalTest::Stalemated => "stalemated".into(),
            GoalTest::ToMove => "to-move".into(),
            GoalTest::ChecksGiven(n) => format!("checks-given {n}"),
            GoalTest::Repetition(n) => format!("repetition {n}"),
            GoalTest::Config(occupiers, groups) => {
                if occupiers.is_empty() || groups.is_empty() {
                    return fail("a goal", "a configuration without occupiers or cells");
                }
                let occ = join(occupiers, ", ", |o| match o {
                    Occupier::Own(t) => format!("own {}", self.piece(*t)),
                    Occupier::Opponent(t) => format!("opponent {}", self.piece(*t)),
                    Occupier::AnyOwner(t) => format!("any {}", self.piece(*t)),
                });
                for g in groups {
                    if let ConfigGroup::Zone(z) = g {
                        if self.v.board.cells.iter().any(|c| c.name == self.zone(*z)) {
                            return fail("a goal", format!("zone `{}` has the name of a cell", self.zone(*z)));
                        }
                    }
                }
                let grp = join(groups, " ", |g| match g {
                    ConfigGroup::Cell(c) => self.cell(*c).to_string(),
                    ConfigGroup::Zone(z) => self.zone(*z).to_string(),
                });
                format!("config({occ} at {grp})")
            }
            GoalTest::Not(g) => format!("not {}", self.goal_test(g, 2)?),
            GoalTest::And(gs) | GoalTest::Or(gs) => {
                let and = matches!(g, GoalTest::And(_));
                if gs.len() < 2 {
                    return fail("a goal", "an `and` or `or` of fewer than two tests");
                }
                let parts: Vec<String> = gs.iter().map(|x| self.goal_test(x, 2)).collect::<Result<_, _>>()?;
                let s = parts.join(if and { " and " } else { " or " });
                if level > 0 {
                    format!("({s})")
                } else {
                    s
                }
            }
        })
    }

    // ------------------------------------------------------------ squares, turn, setup, end

    fn squares_block(&self, s: &SquareRules) -> Result<String, WriteError> {
        let what = "the squares rules";
        let mut lines = vec![if s.owned { "owned".to_string() } else { "neutral".to_string() }];
        match s.reserve {
            Some(0) => {}
            Some(n) => lines.push(format!("reserve {n}")),
            None => lines.push("reserve any".into()),
        }
        for g in &s.moves {
            if matches!(g, Geometry::Hop { .. }) {
                return fail(what, "a square cannot hop");
            }
            lines.push(format!("move {}", self.geometry(g, what)?));
        }
        if s.carries.is_empty() && !s.carry_royal {
            return fail(what, "`except-royal` without a carry power");
        }
        for g in &s.carries {
            if matches!(g, Geometry::Hop { .. }) {
                return fail(what, "a square cannot hop");
            }
            let extra = if s.carry_royal { "" } else { " except-royal" };
            lines.push(format!("carry {}{extra}", self.geometry(g, what)?));
        }
        match s.place_zone {
            Some(z) => lines.push(format!("place in {}", self.zone(z))),
            None => lines.push("place anywhere".into()),
        }
        match s.untouchable {
            Untouchable::Nothing => {}
            Untouchable::Moved => lines.push("untouchable moved".into()),
            Untouchable::Touched => lines.push("untouchable touched".into()),
        }
        match s.vacate.as_deref() {
            None => {}
            Some([]) => lines.push("vacate".into()),
            Some([c]) => lines.push(format!("vacate if {}", self.condition(c, what)?)),
            Some(_) => return fail(what, "`vacate` takes one condition"),
        }
        Ok(format!("squares {{\n{}}}\n", join(lines, "", |l| format!("  {l}\n"))))
    }

    fn turn_block(&self, t: &Turn) -> Result<String, WriteError> {
        let what = "the turn";
        if t.actions.is_empty() {
            return fail(what, "a turn of no action");
        }
        let mut slots = Vec::new();
        for a in &t.actions {
            if a.kinds.is_empty() {
                return fail(what, "an action of no kind");
            }
            let mut s = join(&a.kinds, " | ", |k| {
                match k {
                    ActionKind::MovePiece => "piece",
                    ActionKind::MoveSquare => "move-square",
                    ActionKind::PlaceSquare => "place-square",
                }
                .to_string()
            });
            if a.optional {
                s.push_str(" optional");
            }
            match a.skip_if_none.as_deref() {
                None => {}
                Some([]) => s.push_str(" skip-if-none"),
                Some([c]) => {
                    let _ = write!(s, " skip-if-none if {}", self.condition(c, what)?);
                }
                Some(_) => return fail(what, "`skip-if-none` takes one condition"),
            }
            slots.push(s);
        }
        Ok(if slots.len() == 1 {
            format!("turn {{ {} }}\n", slots[0])
        } else {
            format!("turn {{\n  {}\n}}\n", slots.join("\n  then "))
        })
    }

    fn setup_block(&self, s: &Setup) -> Result<String, WriteError> {
        let mut lines = Vec::new();
        // Stacks are built in the order of the text: level by level, bottom first.
        let depth = s.placements.iter().map(|(_, st)| st.len()).max().unwrap_or(0);
        for level in 0..depth {
            for player in 0..self.v.players.len() {
                let mut groups = Vec::new();
                for t in 0..self.v.pieces.len() {
                    let cells: Vec<CellId> = s
                        .placements
                        .iter()
                        .filter(|(_, st)| st.get(level) == Some(&(PlayerId(player as u8), PieceTypeId(t as u8))))
                        .map(|(c, _)| *c)
                        .collect();
                    if !cells.is_empty() {
                        groups.push(format!("{} {}", self.piece(PieceTypeId(t as u8)), self.cells(&cells).join(" ")));
                    }
                }
                if !groups.is_empty() {
                    lines.push(format!("{}: {}", self.player(PlayerId(player as u8)), groups.join(", ")));
                }
            }
        }
        let mut hands: Vec<(PlayerId, Vec<String>)> = Vec::new();
        for (p, t, n) in &s.hands {
            if !(1..=10_000).contains(n) {
                return fail("the setup", format!("a hand of {n} pieces (the language takes 1 to 10000)"));
            }
            let item = format!("{} {n}", self.piece(*t));
            match hands.last_mut() {
                Some((q, items)) if q == p => items.push(item),
                _ => hands.push((*p, vec![item])),
            }
        }
        for (p, items) in hands {
            lines.push(format!("hand {}: {}", self.player(p), items.join(", ")));
        }
        if !s.castling_rights.is_empty() {
            lines.push(format!("castling {}", join(&s.castling_rights, " ", |c| c.to_string())));
        }
        Ok(format!("setup {{\n{}}}\n", join(lines, "", |l| format!("  {l}\n"))))
    }

    fn end_block(&self, e: &EndRules) -> Result<String, WriteError> {
        let outcome = |o: &Outcome| match o {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        };
        let mut lines =
            vec![format!("checkmate {}", outcome(&e.checkmate)), format!("stalemate {}", outcome(&e.stalemate))];
        if let Some(o) = &e.bare_king {
            lines.push(format!("bare-king {}", outcome(o)));
        }
        if e.move_rule.is_some_and(|n| n > 100_000) || e.repetition.is_some_and(|n| n > 1000) {
            return fail("the end rules", "a move rule above 100000 or a repetition count above 1000");
        }
        if let Some(n) = e.move_rule {
            lines.push(format!("move-rule {n}"));
        }
        if let Some(n) = e.repetition {
            lines.push(format!("repetition {n}"));
        }
        for g in &e.goals {
            if g.players.is_empty() {
                return fail("a goal", "it applies to no player");
            }
            lines.push(format!(
                "goal {} {}: {}",
                join(&g.players, " ", |p| self.player(*p).to_string()),
                outcome(&g.outcome),
                self.goal_test(&g.test, 0)?
            ));
        }
        Ok(format!("end {{\n{}}}\n", join(lines, "", |l| format!("  {l}\n"))))
    }
}

/// The rules that turn occupancy `from` into `to` (all of them when `full`, at least the capacity).
fn occupancy_rules(from: &Occupancy, to: &Occupancy, full: bool) -> Vec<String> {
    let mut out = Vec::new();
    if full || from.capacity != to.capacity {
        out.push(match to.capacity {
            Some(n) => format!("capacity {n}"),
            None => "capacity any".into(),
        });
    }
    let flag = |a: bool, b: bool, yes: &str, no: &str, out: &mut Vec<String>| {
        if a != b {
            out.push(if b { yes } else { no }.to_string());
        }
    };
    flag(from.lone_inert, to.lone_inert, "lone-inert", "lone-active", &mut out);
    flag(from.crowd_safe, to.crowd_safe, "crowd-safe", "crowd-open", &mut out);
    flag(from.capture == CaptureRule::All, to.capture == CaptureRule::All, "capture-all", "capture-one", &mut out);
    let joins_off =
        (from.join_mixed_crowd && !to.join_mixed_crowd) || (from.join_enemy_by_move && !to.join_enemy_by_move);
    let (mixed, by_move) = if joins_off {
        out.push("join-none".into());
        (false, false)
    } else {
        (from.join_mixed_crowd, from.join_enemy_by_move)
    };
    if to.join_mixed_crowd && !mixed {
        out.push("join-mixed-crowd".into());
    }
    if to.join_enemy_by_move && !by_move {
        out.push("join-enemy-by-move".into());
    }
    out
}

/// The paths the lowering gives `leap A B` (`a >= b`), over the compass in [`COMPASS`] order.
fn offset_paths(compass: &[DirId], a: i32, b: i32) -> Vec<Vec<DirId>> {
    let dir = |dx: i32, dy: i32| COMPASS.iter().position(|c| c.1 == dx && c.2 == dy).map(|i| compass[i]);
    let mut out: Vec<(i32, i32, Vec<DirId>)> = Vec::new();
    for (ux, uy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
        for turn in [1, -1] {
            let (vx, vy) = (-uy * turn, ux * turn);
            let (dx, dy) = if b == a { (ux + vx, uy + vy) } else { (ux, uy) };
            let path: Vec<DirId> = if b == a {
                (0..a).filter_map(|_| dir(dx, dy)).collect()
            } else {
                let (first, second) = (dir(ux, uy), dir(vx, vy));
                (0..a).filter_map(|_| first).chain((0..b).filter_map(|_| second)).collect()
            };
            let (tx, ty) = if b == a { (a * dx, a * dy) } else { (a * ux + b * vx, a * uy + b * vy) };
            if !out.iter().any(|(x, y, _)| *x == tx && *y == ty) {
                out.push((tx, ty, path));
            }
        }
    }
    out.into_iter().map(|(_, _, p)| p).collect()
}

/// Where a piece type's drops come from when its declaration does not say (asked of the
/// lowering, so the writer follows the language).
fn default_drop_supply() -> DropSupply {
    static DEFAULT: OnceLock<DropSupply> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let text =
            "variant \"x\" board { grid 1 x 2 } player a player b piece K K { step n } setup { a: K a1 b: K a2 }";
        crate::load(text).ok().and_then(|v| v.pieces.first().map(|p| p.drop_supply)).unwrap_or(DropSupply::Hand)
    })
}
