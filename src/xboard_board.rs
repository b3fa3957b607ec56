//! What XBoard needs to draw a variant: the board as files and ranks, a piece image per piece type (its `setup` command) and Betza descriptions of moves (its `piece` commands).

use varia_interpreter::ir::{CellId, Condition, DirId, Geometry, MoveMode, PieceType};
use varia_interpreter::Rules;

/// Betza's atom letter, whether it is oblique, and the vectors of it a power has.
type AtomGroup = (char, bool, Vec<(i32, i32)>);

/// XBoard's piece types in the order of its piece-to-char table, and the names of Varia
/// piece types each is drawn for (the king's slot is the last and goes to the royal piece).
const SLOTS: [(char, &[&str]); 22] = [
    ('P', &["pawn", "soldier", "peon"]),
    ('N', &["knight", "horse", "springer"]),
    ('B', &["bishop"]),
    ('R', &["rook", "chariot"]),
    ('Q', &["queen"]),
    ('F', &["ferz", "fers", "met", "advisor", "mandarin"]),
    ('E', &["elephant", "alfil"]),
    ('A', &["archbishop", "cardinal", "princess", "janus"]),
    ('C', &["chancellor", "marshal", "marshall", "empress"]),
    ('W', &["wazir"]),
    ('M', &["man", "commoner", "guard"]),
    ('O', &["cannon"]),
    ('H', &["nightrider"]),
    ('I', &[]),
    ('J', &[]),
    ('G', &["general"]),
    ('D', &["dragon"]),
    ('V', &[]),
    ('L', &["lion"]),
    ('S', &["silver"]),
    ('U', &["unicorn"]),
    ('K', &["king"]),
];

/// Moves XBoard gives each of its slots when no `piece` command says otherwise (for the pawn,
/// the chess pawn as Varia's `chess.var` describes it).
const DEFAULT_MOVES: [(char, &str); 14] = [
    ('P', "fmWifmW2fceF"),
    ('N', "N"),
    ('B', "B"),
    ('R', "R"),
    ('Q', "RB"),
    ('F', "F"),
    ('E', "A"),
    ('A', "BN"),
    ('C', "RN"),
    ('W', "W"),
    ('M', "WF"),
    ('O', "mRcpR"),
    ('H', "N0"),
    ('K', "WF"),
];

/// A variant's board as XBoard's rectangle of files and ranks.
pub struct Board {
    /// Files and ranks.
    pub width: i32,
    pub height: i32,
    /// Per cell: its file and rank (0-based).
    squares: Vec<(i32, i32)>,
    /// Per piece type: its XBoard slot.
    slots: Vec<usize>,
    /// Whether XBoard's picture of the moves is exact, so that it may judge check and mate:
    /// only then does the royal piece get XBoard's king.
    pub exact: bool,
}

impl Board {
    /// The layout of a variant XBoard can show, or why it cannot: XBoard draws one rectangular
    /// board of one piece per square, for two players taking turns of one move.
    pub fn new(rules: &Rules) -> Result<Board, String> {
        let v = &rules.variant;
        let cells = &v.board.cells;
        let refuse = |why: &str| Err(format!("XBoard cannot show \"{}\": {why}", v.title));
        if cells.iter().any(|c| c.layer != cells[0].layer || !c.also_at.is_empty()) {
            return refuse("it has several boards");
        }
        if rules.has_between() {
            return refuse("pieces stand between squares");
        }
        if rules.has_stacks() {
            return refuse("squares hold several pieces");
        }
        if rules.has_square_play() || v.turn.actions.len() > 1 {
            return refuse("squares move or are placed, or a turn has several actions");
        }
        if v.players.len() != 2 {
            return refuse("it is not a game of two players");
        }
        if !v.choices.is_empty() {
            return refuse("the players choose before the first move, which XBoard has no move for");
        }
        let (min_x, max_x) =
            (cells.iter().map(|c| c.x).min().unwrap_or(0), cells.iter().map(|c| c.x).max().unwrap_or(0));
        let (min_y, max_y) =
            (cells.iter().map(|c| c.y).min().unwrap_or(0), cells.iter().map(|c| c.y).max().unwrap_or(0));
        let (width, height) = (max_x - min_x + 1, max_y - min_y + 1);
        if width > 16 || height > 16 {
            return refuse("its board is larger than XBoard's 16 x 16");
        }
        if cells.len() as i32 != width * height {
            return refuse("its board is not a full rectangle of squares");
        }
        // Pieces to XBoard's images: by name, the royal piece as the king, the rest on free slots.
        let mut taken = [false; 22];
        let mut slots = vec![usize::MAX; v.pieces.len()];
        // XBoard judges check by the king's image alone: it gets the royal piece only when
        // every piece's description is exact, so that XBoard never sees a check that is none
        // (a janggi cannon screened by a cannon); otherwise XBoard sees no king and leaves
        // check to Varia, which answers an illegal move with `Illegal move`.
        let exact = v.pieces.iter().all(|p| betza(rules, p).is_some() && is_exact(rules, p));
        if let Some(k) = v.pieces.iter().position(|p| p.royal).filter(|_| exact) {
            slots[k] = 21;
            taken[21] = true;
        }
        for (t, p) in v.pieces.iter().enumerate() {
            let name = p.name.to_ascii_lowercase();
            if slots[t] == usize::MAX {
                if let Some(s) = (0..21).find(|s| !taken[*s] && SLOTS[*s].1.contains(&name.as_str())) {
                    slots[t] = s;
                    taken[s] = true;
                }
            }
        }
        for slot in slots.iter_mut().filter(|s| **s == usize::MAX) {
            let free = (13..21).chain(5..13).find(|s| !taken[*s]).ok_or_else(|| {
                format!("XBoard cannot show \"{}\": it has more piece types than XBoard has images", v.title)
            })?;
            *slot = free;
            taken[free] = true;
        }
        let squares = cells.iter().map(|c| (c.x - min_x, c.y - min_y)).collect();
        Ok(Board { width, height, squares, slots, exact })
    }

    /// A square's name as XBoard writes it: file letter, then rank counted from 1 (from 0 on
    /// boards of exactly ten ranks, as XBoard does).
    pub fn name(&self, cell: CellId) -> String {
        let (f, r) = self.squares[cell.0 as usize];
        let base = if self.height == 10 { 0 } else { 1 };
        format!("{}{}", (b'a' + f as u8) as char, r + base)
    }

    /// A cell's file and rank (0-based).
    pub fn coords(&self, cell: CellId) -> (i32, i32) {
        self.squares[cell.0 as usize]
    }

    /// The cell on file `f` and rank `r` (0-based), if the board has one there.
    pub fn at(&self, f: i32, r: i32) -> Option<CellId> {
        self.squares.iter().position(|s| *s == (f, r)).map(|i| CellId(i as u16))
    }

    /// The cell XBoard's square name means.
    pub fn cell(&self, name: &str) -> Option<CellId> {
        (0..self.squares.len()).map(|i| CellId(i as u16)).find(|c| self.name(*c) == name)
    }

    /// The piece-to-char table: each XBoard slot's letter, White's then Black's, each ending
    /// with the king (`.` for slots not used).
    pub fn piece_table(&self, rules: &Rules) -> String {
        let v = &rules.variant;
        let last = self.slots.iter().copied().filter(|s| *s != 21).max().map_or(0, |s| s + 1);
        let letter =
            |slot: usize| self.slots.iter().position(|s| *s == slot).map(|t| v.pieces[t].letter.to_ascii_uppercase());
        let mut white: String = (0..last).map(|s| letter(s).unwrap_or('.')).collect();
        white.push(letter(21).unwrap_or('.'));
        let black = white.to_ascii_lowercase();
        format!("{white}{black}")
    }

    /// Why XBoard cannot be told this game's pieces with `setup` and `piece`, if it cannot:
    /// two types share a letter (as promoted pieces do, which XBoard writes with `+`), or
    /// pieces start in hand (placed before play, which XBoard knows only in its own games).
    pub fn undescribable(rules: &Rules) -> Option<&'static str> {
        let v = &rules.variant;
        let letters: std::collections::BTreeSet<char> =
            v.pieces.iter().map(|p| p.letter.to_ascii_uppercase()).collect();
        if letters.len() < v.pieces.len() {
            return Some("two piece types share a letter (XBoard writes promoted pieces with `+`)");
        }
        (!v.setup.hands.is_empty()).then_some("pieces start in hand, which XBoard knows only in its own games")
    }

    /// How many piece types a player's holdings show (XBoard's `+N` of `setup`): those that
    /// can be dropped or start in hand; 0 in games without hands.
    pub fn holdings(&self, rules: &Rules) -> usize {
        let v = &rules.variant;
        let in_hand = |t: usize| v.setup.hands.iter().any(|(_, k, _)| k.0 as usize == t);
        (0..v.pieces.len()).filter(|&t| !v.pieces[t].drops.is_empty() || in_hand(t)).count()
    }

    /// The `piece` commands for every piece type whose moves differ from what XBoard gives its
    /// image by default (those a Betza string can say; others are left to XBoard).
    pub fn piece_commands(&self, rules: &std::sync::Arc<Rules>) -> Vec<String> {
        let v = &rules.variant;
        let mut out = Vec::new();
        for (t, p) in v.pieces.iter().enumerate() {
            let Some(mut moves) = betza(rules, p) else { continue };
            if !p.programs.is_empty() {
                let Some(more) = crate::xboard_probe::program_betza(rules, self, t) else { continue };
                moves.push_str(&more);
            }
            let slot = SLOTS[self.slots[t]].0;
            let default = DEFAULT_MOVES.iter().find(|(s, _)| *s == slot).map(|(_, m)| *m);
            if default != Some(moves.as_str()) {
                out.push(format!("piece {}& {moves}", p.letter.to_ascii_uppercase()));
            }
        }
        out
    }
}

/// The display vector of a direction for the first player: the most common step along it.
fn vector(rules: &Rules, d: DirId) -> Option<(i32, i32)> {
    let cells = &rules.variant.board.cells;
    let mut counts: Vec<((i32, i32), usize)> = Vec::new();
    for l in rules.variant.board.links.iter().filter(|l| l.dir == d) {
        let (a, b) = (&cells[l.from.0 as usize], &cells[l.to.0 as usize]);
        let v = (b.x - a.x, b.y - a.y);
        match counts.iter_mut().find(|(w, _)| *w == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    counts.into_iter().max_by_key(|(_, n)| *n).map(|(v, _)| v)
}

/// Betza's atom for a leap of (dx, dy), and whether it is an oblique one (eight directions).
fn atom(dx: i32, dy: i32) -> Option<(char, bool)> {
    let (a, b) = (dx.abs().min(dy.abs()), dx.abs().max(dy.abs()));
    Some(match (a, b) {
        (0, 1) => ('W', false),
        (1, 1) => ('F', false),
        (0, 2) => ('D', false),
        (1, 2) => ('N', true),
        (2, 2) => ('A', false),
        (0, 3) => ('H', false),
        (1, 3) => ('C', true),
        (2, 3) => ('Z', true),
        (3, 3) => ('G', false),
        _ => return None,
    })
}

/// The cells of a zone for the first player, when `cond` restricts a move to one.
fn zone_cells<'a>(rules: &'a Rules, cond: &Condition) -> Option<(bool, &'a [CellId])> {
    match cond {
        Condition::FromZone(z) => Some((true, &rules.variant.zones[z.0 as usize].cells[0])),
        Condition::ToZone(z) => Some((false, &rules.variant.zones[z.0 as usize].cells[0])),
        _ => None,
    }
}

/// Whether a move that must start in `zone` is a first move: every piece of this type starts
/// there (a pawn's double step from its rank).
fn is_initial(rules: &Rules, piece: &PieceType, zone: &[CellId]) -> bool {
    let v = &rules.variant;
    let Some(t) = v.pieces.iter().position(|p| std::ptr::eq(p, piece)) else { return false };
    let mut starts = v
        .setup
        .placements
        .iter()
        .filter(|(_, stack)| stack.iter().any(|(owner, kind)| owner.0 == 0 && kind.0 as usize == t));
    let mut any = false;
    let all_in = starts.all(|(c, _)| {
        any = true;
        zone.contains(c)
    });
    any && all_in
}

/// Whether Betza says exactly how the piece moves: no program, and no move confined to zones
/// other than a first move from the type's start zone.
fn is_exact(rules: &Rules, piece: &PieceType) -> bool {
    piece.programs.is_empty()
        && piece.moves.iter().all(|m| match m.conditions.as_slice() {
            [] => true,
            [Condition::FromZone(z)] => is_initial(rules, piece, &rules.variant.zones[z.0 as usize].cells[0]),
            _ => false,
        })
}

/// The longest slide along display vector `v` from a cell of `from` to a cell of `to` (`None`:
/// any cell), each cell on the way on the board: how far a slide confined to zones can go.
fn zone_reach(rules: &Rules, v: (i32, i32), from: Option<&[CellId]>, to: Option<&[CellId]>) -> u8 {
    let cells = &rules.variant.board.cells;
    let at = |x: i32, y: i32| cells.iter().position(|c| c.x == x && c.y == y).map(|i| CellId(i as u16));
    let mut best = 0;
    for (i, a) in cells.iter().enumerate() {
        if from.is_some_and(|f| !f.contains(&CellId(i as u16))) {
            continue;
        }
        let mut k = 1;
        while let Some(c) = at(a.x + k * v.0, a.y + k * v.1) {
            if to.is_none_or(|t| t.contains(&c)) {
                best = best.max(k);
            }
            k += 1;
        }
    }
    best.min(u8::MAX as i32) as u8
}

/// A piece's moves in Betza's notation as XBoard reads it, or `None` when some power is
/// beyond it (hops of a length, programs: see `xboard_probe`). A move confined to zones,
/// which Betza cannot say, is written as the move anywhere, a slide no longer than the zones
/// allow (the palace's diagonal `F2`); a move from a zone where all the type's pieces start is
/// a first move (`i`).
pub fn betza(rules: &Rules, piece: &PieceType) -> Option<String> {
    if piece.moves.iter().any(|m| m.stop_between) {
        return None;
    }
    let map = &rules.variant.players[0].direction_map;
    let mut out = String::new();
    for rule in &piece.moves {
        let zones: Option<Vec<(bool, &[CellId])>> = rule.conditions.iter().map(|c| zone_cells(rules, c)).collect();
        let zones = zones?;
        let from = zones.iter().find(|(f, _)| *f).map(|(_, z)| *z);
        let to = zones.iter().find(|(f, _)| !*f).map(|(_, z)| *z);
        let initial = match (from, to) {
            (Some(z), None) if zones.len() == 1 && is_initial(rules, piece, z) => "i",
            _ => "",
        };
        let confined = !zones.is_empty() && initial.is_empty();
        let mode = match rule.mode {
            MoveMode::MoveOrCapture => "",
            MoveMode::MoveOnly => "m",
            MoveMode::CaptureOnly if rule.captures_en_passant => "ce",
            MoveMode::CaptureOnly => "c",
        };
        // Each direction's vector and the suffix or prefix saying how far it goes.
        let (vectors, range, hop) = match &rule.geometry {
            Geometry::Slide { dirs, max } => {
                let vs: Option<Vec<_>> = dirs.iter().map(|d| vector(rules, map[d.0 as usize])).collect();
                let vs = vs?;
                let mut max = *max;
                if confined && max != Some(1) {
                    let reach = vs.iter().map(|v| zone_reach(rules, *v, from, to)).max().unwrap_or(0);
                    max = Some(max.map_or(reach, |m| m.min(reach)).max(1));
                }
                let range = match max {
                    Some(1) => String::new(),
                    Some(n) => n.to_string(),
                    None => "0".to_string(),
                };
                (vs, range, "")
            }
            Geometry::Leap { paths } => {
                let vs: Option<Vec<_>> = paths
                    .iter()
                    .map(|p| {
                        p.iter()
                            .try_fold((0, 0), |(x, y), d| vector(rules, map[d.0 as usize]).map(|(a, b)| (x + a, y + b)))
                    })
                    .collect();
                (vs?, String::new(), "")
            }
            Geometry::Hop { dirs, max: None } => {
                let vs: Option<Vec<_>> = dirs.iter().map(|d| vector(rules, map[d.0 as usize])).collect();
                (vs?, "0".to_string(), "p")
            }
            Geometry::Hop { dirs, max: Some(1) } => {
                let vs: Option<Vec<_>> = dirs.iter().map(|d| vector(rules, map[d.0 as usize])).collect();
                (vs?, "0".to_string(), "g")
            }
            Geometry::Hop { .. } => return None,
        };
        // Group by atom; a full set of its directions needs no direction letters.
        let mut atoms: Vec<AtomGroup> = Vec::new();
        for (dx, dy) in vectors {
            let (a, oblique) = atom(dx, dy)?;
            match atoms.iter_mut().find(|(b, _, _)| *b == a) {
                Some((_, _, vs)) => vs.push((dx, dy)),
                None => atoms.push((a, oblique, vec![(dx, dy)])),
            }
        }
        for (a, oblique, vs) in atoms {
            // XBoard reads the mode before the hop (`mpR`, `cpR`).
            let prefix = format!("{mode}{hop}");
            if oblique {
                // Betza's direction letters for oblique atoms are beyond this writer.
                full_set(&vs, 8).then_some(())?;
                out.push_str(&format!("{initial}{prefix}{a}{range}"));
                continue;
            }
            for dirs in directions(&vs)? {
                out.push_str(&format!("{initial}{dirs}{prefix}{a}{range}"));
            }
        }
    }
    Some(simplify(&out))
}

/// Whether there are `n` different vectors.
fn full_set(vs: &[(i32, i32)], n: usize) -> bool {
    let mut d: Vec<(i32, i32)> = vs.to_vec();
    d.sort();
    d.dedup();
    d.len() == n
}

/// The direction letters of a non-oblique atom's vectors, one group per atom to write
/// (forward and both sideways: `f`, `s`, written `fWsW`); one empty group when it goes every
/// way; `None` for an oblique atom short of its eight directions.
pub fn directions(vs: &[(i32, i32)]) -> Option<Vec<&'static str>> {
    let mut d: Vec<(i32, i32)> = vs.iter().map(|(x, y)| (x.signum(), y.signum())).collect();
    d.sort();
    d.dedup();
    let has = |v: (i32, i32)| d.contains(&v);
    let orthogonal = d.iter().all(|(x, y)| *x == 0 || *y == 0);
    let diagonal = d.iter().all(|(x, y)| *x != 0 && *y != 0);
    if d.len() == 4 && (orthogonal || diagonal) || d.len() == 8 {
        return Some(vec![""]);
    }
    // Each group: its letters and the directions it covers, pairs before singles.
    let groups: &[(&str, &[(i32, i32)])] = if orthogonal {
        &[
            ("v", &[(0, 1), (0, -1)]),
            ("f", &[(0, 1)]),
            ("b", &[(0, -1)]),
            ("s", &[(1, 0), (-1, 0)]),
            ("r", &[(1, 0)]),
            ("l", &[(-1, 0)]),
        ]
    } else if diagonal {
        &[
            ("f", &[(-1, 1), (1, 1)]),
            ("b", &[(-1, -1), (1, -1)]),
            ("fl", &[(-1, 1)]),
            ("fr", &[(1, 1)]),
            ("bl", &[(-1, -1)]),
            ("br", &[(1, -1)]),
        ]
    } else {
        return None;
    };
    let mut covered: Vec<(i32, i32)> = Vec::new();
    let mut out = Vec::new();
    for (letters, dirs) in groups {
        if dirs.iter().all(|v| has(*v) && !covered.contains(v)) {
            covered.extend_from_slice(dirs);
            out.push(*letters);
        }
    }
    Some(out)
}

/// Sliders by their usual letters: `W0` is `R`, `F0` is `B`.
pub fn simplify(betza: &str) -> String {
    let mut s = String::new();
    let chars: Vec<char> = betza.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after = chars.get(i + 2).copied();
        let rider = next == Some('0') && !after.is_some_and(|a| a.is_ascii_digit());
        match c {
            'W' if rider => {
                s.push('R');
                i += 2;
            }
            'F' if rider => {
                s.push('B');
                i += 2;
            }
            _ => {
                s.push(c);
                i += 1;
            }
        }
    }
    s
}
