//! Betza for pieces whose moves are programs, found by trying each piece on an empty board: alone, beside one blocker, and behind one screen.

use std::collections::BTreeSet;
use std::sync::Arc;

use varia_interpreter::ir::CellId;
use varia_interpreter::{Position, Rules};

use crate::xboard_board::{directions, Board};

/// A displacement in XBoard's files and ranks, forward being the first player's.
type Vector = (i32, i32);

/// The eight king steps: the units of slides and hops.
const UNITS: [Vector; 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Trials of one piece type on an empty board of its variant.
struct Probe<'a> {
    rules: &'a Arc<Rules>,
    board: &'a Board,
    /// The piece's letter for the first player, and another type's letter for blockers and
    /// screens (a piece that is no obstacle to some moves, as a cannon to a cannon, would
    /// hide them).
    piece: char,
    other: char,
    /// The start position string without its board: side to move, rights, counters.
    tail: String,
}

impl Probe<'_> {
    /// The displacements of the piece's moves from `at`, with `others` (relative offset, whose)
    /// on the board too; `None` when the board cannot be set up so.
    fn moves(&self, at: CellId, others: &[(Vector, bool)]) -> Option<BTreeSet<(Vector, bool)>> {
        let (f, r) = self.board.coords(at);
        let mut grid = vec![vec!['.'; self.board.width as usize]; self.board.height as usize];
        grid[r as usize][f as usize] = self.piece;
        for &((dx, dy), enemy) in others {
            let c = self.board.at(f + dx, r + dy)?;
            let (x, y) = self.board.coords(c);
            grid[y as usize][x as usize] = if enemy { self.other.to_ascii_lowercase() } else { self.other };
        }
        let rows: Vec<String> = grid
            .iter()
            .rev()
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for &ch in row {
                    if ch == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(ch);
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let text = format!("{} {}", rows.join("/"), self.tail);
        let mut pos = Position::from_position_string(self.rules.clone(), &text).ok()?;
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let out = legal
            .iter()
            .filter(|m| m.kind.is_piece_move() && m.from == at)
            .map(|m| {
                let (x, y) = self.board.coords(m.to);
                ((x - f, y - r), m.is_capture())
            })
            .collect();
        Some(out)
    }
}

/// The farthest a ray along `u` runs on the board from any square.
fn reach(board: &Board, u: Vector) -> i32 {
    (0..board.width)
        .flat_map(|f| (0..board.height).map(move |r| (f, r)))
        .map(|(f, r)| (1..).take_while(|k| board.at(f + k * u.0, r + k * u.1).is_some()).count() as i32)
        .max()
        .unwrap_or(0)
}

/// Betza's letter for a leap, and whether it has eight directions.
fn leap_atom(v: Vector) -> Option<(char, bool)> {
    let (a, b) = (v.0.abs().min(v.1.abs()), v.0.abs().max(v.1.abs()));
    Some(match (a, b) {
        (1, 2) => ('N', true),
        (2, 2) => ('A', false),
        (1, 3) => ('C', true),
        (2, 3) => ('Z', true),
        (0, 2) => ('D', false),
        (0, 3) => ('H', false),
        (3, 3) => ('G', false),
        _ => return None,
    })
}

/// How a leap is blocked, in XBoard's terms: free (`""`), lame at the square half way as
/// XBoard's `n` tests it (the xiangqi horse, `nN`), or stepped through one orthogonal then
/// two diagonal squares (the janggi elephant, XBoard's `mafsmafW`); `None` for other paths.
fn lameness(v: Vector, blockers: &BTreeSet<Vector>) -> Option<&'static str> {
    if blockers.is_empty() {
        return Some("");
    }
    let half = (v.0 / 2, v.1 / 2);
    if blockers.len() == 1 && blockers.contains(&half) && (v.0.abs() + v.1.abs()) == 3 {
        return Some("n");
    }
    let long_y = v.1.abs() > v.0.abs();
    let unit = if long_y { (0, v.1.signum()) } else { (v.0.signum(), 0) };
    let diag = (v.0.signum(), v.1.signum());
    let path: BTreeSet<Vector> = [unit, (unit.0 + diag.0, unit.1 + diag.1)].into();
    (v.0.abs().min(v.1.abs()) == 2 && v.0.abs().max(v.1.abs()) == 3 && *blockers == path).then_some("mafsmaf")
}

/// The first player's moves of piece type `t`, whose powers are programs, in XBoard's Betza:
/// the leaps, slides and hops its program makes on an empty board, lame where one blocker
/// stops a leap, each as far as it goes. What the trials cannot see (which pieces may be
/// jumped or taken) is left out, so the description allows at least every move the program
/// makes. `None` when the piece cannot be tried or makes moves Betza has no letter for.
pub fn program_betza(rules: &Arc<Rules>, board: &Board, t: usize) -> Option<String> {
    let v = &rules.variant;
    let piece = v.pieces[t].letter.to_ascii_uppercase();
    let other = v.pieces.iter().enumerate().find(|(i, p)| *i != t && !p.royal).map(|(_, p)| p.letter)?;
    let start = Position::start(rules.clone()).to_position_string();
    let tail = start.split_once(' ')?.1.to_string();
    let probe = Probe { rules, board, piece, other: other.to_ascii_uppercase(), tail };
    let cells: Vec<CellId> = (0..rules.cell_count()).map(|i| CellId(i as u16)).collect();
    // Alone: leaps, and slides as the furthest step along each unit.
    let mut leaps: BTreeSet<Vector> = BTreeSet::new();
    let mut slides: Vec<(Vector, i32)> = Vec::new();
    let mut hops: Vec<(Vector, i32, bool, bool)> = Vec::new();
    for &c in &cells {
        for ((dx, dy), _) in probe.moves(c, &[])? {
            match UNITS.iter().find(|u| (1..=16).any(|k| (k * u.0, k * u.1) == (dx, dy))) {
                Some(&u) => {
                    let k = dx.abs().max(dy.abs());
                    match slides.iter_mut().find(|(w, _)| *w == u) {
                        Some((_, far)) => *far = (*far).max(k),
                        None => slides.push((u, k)),
                    }
                }
                None => {
                    leaps.insert((dx, dy));
                }
            }
        }
    }
    let lame = leap_paths(&probe, &cells, &leaps)?;
    // Behind one enemy screen: moves beyond it along the screen's line are hops.
    for &c in &cells {
        for u in UNITS {
            for s in 1..16 {
                let screen = ((s * u.0, s * u.1), true);
                let Some(seen) = probe.moves(c, &[screen]) else { break };
                for ((dx, dy), _) in seen {
                    let Some(k) = (s + 1..=16).find(|k| (k * u.0, k * u.1) == (dx, dy)) else { continue };
                    // Where it lands, would it take an enemy standing there?
                    let target = ((k * u.0, k * u.1), true);
                    let capture = probe.moves(c, &[screen, target]).is_some_and(|m| m.contains(&((dx, dy), true)));
                    match hops.iter_mut().find(|h| h.0 == u) {
                        Some(h) => (h.1, h.3) = (h.1.max(k), h.3 || capture),
                        None => hops.push((u, k, true, capture)),
                    }
                }
            }
        }
    }
    write(board, &slides, &lame, &hops)
}

/// The leaps found, each with how it is blocked (see [`lameness`]).
fn leap_paths(probe: &Probe, cells: &[CellId], leaps: &BTreeSet<Vector>) -> Option<Vec<(Vector, &'static str)>> {
    let mut out = Vec::new();
    for &v in leaps {
        let mut blockers: BTreeSet<Vector> = BTreeSet::new();
        let span = v.0.abs().max(v.1.abs());
        let from = cells.iter().copied().find(|c| {
            let (f, r) = probe.board.coords(*c);
            probe.board.at(f + v.0, r + v.1).is_some()
        })?;
        for dx in -span..=span {
            for dy in -span..=span {
                if (dx, dy) == (0, 0) || (dx, dy) == v {
                    continue;
                }
                if let Some(seen) = probe.moves(from, &[((dx, dy), false)]) {
                    if !seen.iter().any(|(w, _)| *w == v) {
                        blockers.insert((dx, dy));
                    }
                }
            }
        }
        out.push((v, lameness(v, &blockers).unwrap_or("")));
    }
    Some(out)
}

/// The Betza text of the slides, leaps and hops found.
fn write(
    board: &Board,
    slides: &[(Vector, i32)],
    leaps: &[(Vector, &str)],
    hops: &[(Vector, i32, bool, bool)],
) -> Option<String> {
    let mut out = String::new();
    let range = |u: Vector, k: i32| match k {
        1 => String::new(),
        k if k >= reach(board, u) => "0".to_string(),
        k => k.to_string(),
    };
    // Slides and hops by unit kind (orthogonal W, diagonal F) and range.
    let mut groups: Vec<(String, char, String, Vec<Vector>)> = Vec::new();
    for &(u, k) in slides {
        let atom = if u.0 == 0 || u.1 == 0 { 'W' } else { 'F' };
        push(&mut groups, String::new(), atom, range(u, k), u);
    }
    for &(u, k, quiet, capture) in hops {
        let atom = if u.0 == 0 || u.1 == 0 { 'W' } else { 'F' };
        let mode = match (quiet, capture) {
            (true, false) => "mp",
            (false, true) => "cp",
            _ => "p",
        };
        push(&mut groups, mode.to_string(), atom, range(u, k), u);
    }
    for (mode, atom, range, vs) in groups {
        for dirs in directions(&vs)? {
            out.push_str(&format!("{dirs}{mode}{atom}{range}"));
        }
    }
    // Leaps by atom and path; an atom missing some of its directions is written whole.
    let mut atoms: Vec<(char, &str)> = Vec::new();
    for &(v, path) in leaps {
        let (a, _) = leap_atom(v)?;
        if !atoms.contains(&(a, path)) {
            atoms.push((a, path));
        }
    }
    for (a, path) in atoms {
        match path {
            "mafsmaf" => out.push_str("mafsmafW"),
            p => out.push_str(&format!("{p}{a}")),
        }
    }
    Some(crate::xboard_board::simplify(&out))
}

/// Adds unit `u` to the group of its mode, atom and range.
fn push(groups: &mut Vec<(String, char, String, Vec<Vector>)>, mode: String, atom: char, range: String, u: Vector) {
    match groups.iter_mut().find(|g| g.0 == mode && g.1 == atom && g.2 == range) {
        Some(g) => g.3.push(u),
        None => groups.push((mode, atom, range, vec![u])),
    }
}
