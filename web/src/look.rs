//! How each piece type moves, in Betza's notation, found by trying it on an empty board: what the page picks a piece's picture by.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, Weak};

use varia_interpreter::ir::{CellId, Geometry, PieceTypeId, PlayerId};
use varia_interpreter::{MoveKind, Position, Rules};

/// A displacement in display coordinates, forward being the first player's (+y).
type Vector = (i32, i32);

/// The eight king steps: the units of slides and hops.
const UNITS: [Vector; 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Most cells a piece is tried alone from (spread over the board: every cell of a board of up
/// to this many), bounding the trials' cost on large boards.
const TRIALS: usize = 256;

/// Most cells a piece is tried behind a screen from.
const SCREEN_TRIALS: usize = 48;

/// A slide is told from steps and leaps when it reaches this far along one line.
const RIDE: i32 = 3;

/// A displacement the piece makes from fewer than this share of the cells where its most
/// frequent one is made is left out: a power confined to a small zone (a palace's diagonals)
/// does not decide what the piece looks like.
const RARE: f64 = 0.25;

/// Per piece type, how it moves in Betza's notation (`R`, `N`, `fsW`, `RpR`, `K`); empty for a
/// piece that makes no move on an empty board.
pub fn signatures(rules: &Arc<Rules>) -> Vec<String> {
    let board = Board::of(rules);
    (0..rules.variant.pieces.len()).map(|t| signature(rules, &board, PieceTypeId(t as u8))).collect()
}

/// Signatures found, with the rules they were found for (held weakly: dropped rules leave).
type Found = (Weak<Rules>, Arc<Vec<String>>);

/// [`signatures`] of rules, found once while the rules live (the view of every request needs
/// them; the trials cost a move generation per cell and piece type).
pub fn cached(rules: &Arc<Rules>) -> Arc<Vec<String>> {
    static FOUND: Mutex<Vec<Found>> = Mutex::new(Vec::new());
    let find = |found: &mut Vec<Found>| {
        found.retain(|(w, _)| w.strong_count() > 0);
        found.iter().find(|(w, _)| std::ptr::eq(w.as_ptr(), Arc::as_ptr(rules))).map(|(_, s)| s.clone())
    };
    if let Some(s) = FOUND.lock().ok().and_then(|mut f| find(&mut f)) {
        return s;
    }
    // Found outside the lock: other requests need not wait for these trials.
    let s = Arc::new(signatures(rules));
    if let Ok(mut found) = FOUND.lock() {
        if find(&mut found).is_none() {
            found.push((Arc::downgrade(rules), s.clone()));
        }
    }
    s
}

/// The cells the trials use: squares of the board (not locations between them).
struct Board {
    cells: Vec<CellId>,
    at: HashMap<(i32, i32, i32), CellId>,
}

impl Board {
    fn of(rules: &Rules) -> Board {
        let cells: Vec<CellId> =
            (0..rules.cell_count()).map(|i| CellId(i as u16)).filter(|c| !rules.is_between(*c)).collect();
        let at = cells.iter().map(|&c| (xyl(rules, c), c)).collect();
        Board { cells, at }
    }

    fn step(&self, rules: &Rules, c: CellId, v: Vector) -> Option<CellId> {
        let (x, y, l) = xyl(rules, c);
        self.at.get(&(x + v.0, y + v.1, l)).copied()
    }
}

fn xyl(rules: &Rules, c: CellId) -> (i32, i32, i32) {
    let cell = &rules.variant.board.cells[c.0 as usize];
    (cell.x, cell.y, cell.layer)
}

/// Where the piece on `from` goes in `pos`, as displacements on its own board.
fn reach(rules: &Rules, pos: &Position, from: CellId, buf: &mut Vec<varia_interpreter::Move>) -> Vec<Vector> {
    pos.pseudo_legal_moves(buf);
    let (x, y, l) = xyl(rules, from);
    buf.iter()
        .filter(|m| m.from == from && m.to != from && m.kind.is_piece_move() && m.kind != MoveKind::Drop)
        .filter(|m| !rules.is_between(m.to))
        .filter_map(|m| {
            let (tx, ty, tl) = xyl(rules, m.to);
            (tl == l).then_some((tx - x, ty - y))
        })
        .collect()
}

fn signature(rules: &Arc<Rules>, board: &Board, t: PieceTypeId) -> String {
    let piece = rules.piece(PlayerId(0), t);
    let mut buf = Vec::new();
    // From how many cells each displacement is made, the piece alone on the board.
    let mut seen: BTreeMap<Vector, usize> = BTreeMap::new();
    let stride = board.cells.len().div_ceil(TRIALS).max(1);
    for &c in board.cells.iter().step_by(stride) {
        let pos = Position::lone_piece(rules.clone(), c, piece);
        let mut here: Vec<Vector> = reach(rules, &pos, c, &mut buf);
        here.sort();
        here.dedup();
        for v in here {
            *seen.entry(v).or_default() += 1;
        }
    }
    let hops = hop_units(rules, board, t, &seen, &mut buf);
    write(&seen, &hops)
}

/// The units along which the piece hops: its `hop` powers, and lines along which it goes past
/// a screen where alone it does not go (hops written as programs).
fn hop_units(
    rules: &Arc<Rules>,
    board: &Board,
    t: PieceTypeId,
    alone: &BTreeMap<Vector, usize>,
    buf: &mut Vec<varia_interpreter::Move>,
) -> BTreeSet<Vector> {
    // From how many cells the piece hops along each unit (its `hop` powers: from all).
    let mut units: BTreeMap<Vector, usize> = BTreeMap::new();
    let v = &rules.variant;
    for rule in &v.pieces[t.0 as usize].moves {
        if let Geometry::Hop { dirs, .. } = &rule.geometry {
            for link in v.board.links.iter().filter(|l| dirs.contains(&l.dir)) {
                let ((x0, y0, _), (x1, y1, _)) = (xyl(rules, link.from), xyl(rules, link.to));
                units.insert(((x1 - x0).signum(), (y1 - y0).signum()), usize::MAX);
            }
        }
    }
    // The screen: an enemy piece of another type, not royal if one may be had.
    let others: Vec<usize> = (0..v.pieces.len()).filter(|&o| o != t.0 as usize).collect();
    let Some(&other) = others.iter().find(|&&o| !v.pieces[o].royal).or(others.first()) else {
        return units.into_keys().collect();
    };
    let players = rules.player_count();
    let screen = rules.piece(PlayerId((players > 1) as u8), PieceTypeId(other as u8));
    let piece = rules.piece(PlayerId(0), t);
    let stride = board.cells.len().div_ceil(SCREEN_TRIALS).max(1);
    for &c in board.cells.iter().step_by(stride) {
        for u in UNITS {
            let Some(at) = board.step(rules, c, u) else { continue };
            let pos = Position::lone_piece_beside(rules.clone(), c, piece, at, screen);
            let past = reach(rules, &pos, c, buf)
                .into_iter()
                .any(|d| !alone.contains_key(&d) && (2..=64).any(|k| d == (k * u.0, k * u.1)));
            if past {
                let n = units.entry(u).or_default();
                *n = n.saturating_add(1);
            }
        }
    }
    // Hops made from a few cells only (a palace's diagonals) are left out, as rare moves are.
    let most = units.values().copied().max().unwrap_or(0);
    units.into_iter().filter(|(_, n)| *n as f64 >= RARE * most as f64).map(|(u, _)| u).collect()
}

/// Betza's letter of a leap, larger coordinate second.
fn atom(a: i32, b: i32) -> Option<char> {
    Some(match (a, b) {
        (0, 1) => 'W',
        (1, 1) => 'F',
        (0, 2) => 'D',
        (1, 2) => 'N',
        (2, 2) => 'A',
        (0, 3) => 'H',
        (1, 3) => 'C',
        (2, 3) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

/// Betza's direction letters for some of an atom's vectors: none for all of them.
fn directions(vs: &BTreeSet<Vector>, all: usize) -> String {
    if vs.len() == all {
        return String::new();
    }
    let forward = vs.iter().any(|v| v.1 > 0);
    let back = vs.iter().any(|v| v.1 < 0);
    let side = vs.iter().any(|v| v.1 == 0);
    let mut out = String::new();
    if forward {
        out.push('f');
    }
    if back {
        out.push('b');
    }
    if side {
        out.push('s');
    }
    out
}

/// The piece's Betza description from the displacements it makes (and from how many cells) and
/// the units it hops along.
fn write(seen: &BTreeMap<Vector, usize>, hops: &BTreeSet<Vector>) -> String {
    // Slides: lines along which every cell up to RIDE is reached.
    let rides: BTreeSet<Vector> =
        UNITS.into_iter().filter(|u| (1..=RIDE).all(|k| seen.contains_key(&(k * u.0, k * u.1)))).collect();
    let on_ride = |v: &Vector| rides.iter().any(|u| (1..=64).any(|k| *v == (k * u.0, k * u.1)));
    let most = seen.values().copied().max().unwrap_or(0);
    // Leaps and steps, grouped by atom, the rare ones left out.
    let mut atoms: BTreeMap<usize, (char, BTreeSet<Vector>)> = BTreeMap::new();
    const ORDER: &str = "WFDNAHCZG";
    for (v, n) in seen {
        if on_ride(v) || (*n as f64) < RARE * most as f64 {
            continue;
        }
        let (a, b) = (v.0.abs().min(v.1.abs()), v.0.abs().max(v.1.abs()));
        if let Some(letter) = atom(a, b) {
            let entry = atoms.entry(ORDER.find(letter).unwrap_or(0)).or_insert((letter, BTreeSet::new()));
            entry.1.insert(*v);
        }
    }
    let mut out = String::new();
    let orthogonal = |u: &Vector| u.0 == 0 || u.1 == 0;
    let (straight, slant): (BTreeSet<Vector>, BTreeSet<Vector>) = rides.iter().partition(|u| orthogonal(u));
    if straight.len() == 4 && slant.len() == 4 {
        out.push('Q');
    } else {
        for (units, letter) in [(&straight, 'R'), (&slant, 'B')] {
            if !units.is_empty() {
                out.push_str(&directions(units, 4));
                out.push(letter);
            }
        }
    }
    let full = |letter: char| atoms.values().any(|(l, vs)| *l == letter && vs.len() == 4);
    let king = full('W') && full('F');
    if king {
        out.push('K');
    }
    for (letter, vs) in atoms.values() {
        if king && (*letter == 'W' || *letter == 'F') {
            continue;
        }
        let all = if matches!(letter, 'N' | 'C' | 'Z') { 8 } else { 4 };
        out.push_str(&directions(vs, all));
        out.push(*letter);
    }
    let (straight, slant): (BTreeSet<Vector>, BTreeSet<Vector>) = hops.iter().partition(|u| orthogonal(u));
    for (units, letter) in [(&straight, 'R'), (&slant, 'B')] {
        if !units.is_empty() {
            out.push('p');
            out.push_str(&directions(units, 4));
            out.push(letter);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(file: &str) -> Arc<Rules> {
        let path = format!("{}/../variants/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("a bundled variant");
        Arc::new(Rules::new(varia_grammar::load(&text).expect("it loads")))
    }

    /// Each piece's name and signature.
    fn named(file: &str) -> Vec<(String, String)> {
        let r = rules(file);
        r.variant.pieces.iter().map(|p| p.name.clone()).zip(signatures(&r)).collect()
    }

    #[test]
    fn chess_pieces_move_as_their_betza_letters() {
        let got = named("chess.var");
        let want = [("Pawn", "fW"), ("Knight", "N"), ("Bishop", "B"), ("Rook", "R"), ("Queen", "Q"), ("King", "K")];
        for (name, sig) in want {
            assert!(got.contains(&(name.to_string(), sig.to_string())), "{name}: {got:?}");
        }
    }

    #[test]
    fn xiangqi_and_janggi_pieces_are_told_by_how_they_move() {
        let got = named("xiangqi.var");
        let want = [
            ("General", "W"),
            ("Advisor", "F"),
            ("Elephant", "A"),
            ("Horse", "N"),
            ("Chariot", "R"),
            ("Cannon", "RpR"),
            ("Soldier", "fsW"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
        let got = named("janggi.var");
        // The chariot's diagonal moves in the palace are too rare to count; the cannon hops by a
        // program, found behind a screen; the elephant is a lame (2, 3) leaper.
        let want = [
            ("General", "K"),
            ("Guard", "K"),
            ("Elephant", "Z"),
            ("Horse", "N"),
            ("Chariot", "R"),
            ("Cannon", "pR"),
            ("Soldier", "fsW"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn shogi_promoted_pieces_show_their_compound_moves() {
        let got = named("shogi.var");
        assert!(got.contains(&("Horse".into(), "BW".into())), "{got:?}");
        assert!(got.contains(&("Dragon".into(), "RF".into())), "{got:?}");
        assert!(got.contains(&("Knight".into(), "fN".into())), "{got:?}");
    }
}

#[cfg(test)]
mod large {
    use super::*;

    #[test]
    fn a_large_board_is_tried_on_a_sample_of_its_cells() {
        let text = "variant \"Big\"\nboard { grid 26 x 99 }\nplayer white\nplayer black\n\
                    piece King K { royal step all }\npiece Queen Q { slide all }\npiece Knight N { leap 2 1 }\n\
                    setup { white: K a1 black: K z99 }\n";
        let rules = Arc::new(Rules::new(varia_grammar::load(text).expect("it loads")));
        let started = std::time::Instant::now();
        assert_eq!(*signatures(&rules), ["K", "Q", "N"]);
        println!("26 x 99 board: {:?}", started.elapsed());
    }
}
