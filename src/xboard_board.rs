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
        if v.players.len() != 2 || v.pieces.iter().any(|p| !p.drops.is_empty()) || !v.setup.hands.is_empty() {
            return refuse("it is not a game of two players without pieces in hand");
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
        if let Some(k) = v.pieces.iter().position(|p| p.royal) {
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
        Ok(Board { width, height, squares, slots })
    }

    /// A square's name as XBoard writes it: file letter, then rank counted from 1 (from 0 on
    /// boards of exactly ten ranks, as XBoard does).
    pub fn name(&self, cell: CellId) -> String {
        let (f, r) = self.squares[cell.0 as usize];
        let base = if self.height == 10 { 0 } else { 1 };
        format!("{}{}", (b'a' + f as u8) as char, r + base)
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

    /// The `piece` commands for every piece type whose moves differ from what XBoard gives its
    /// image by default (those a Betza string can say; others are left to XBoard).
    pub fn piece_commands(&self, rules: &Rules) -> Vec<String> {
        let v = &rules.variant;
        let mut out = Vec::new();
        for (t, p) in v.pieces.iter().enumerate() {
            let Some(moves) = betza(rules, p) else { continue };
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

/// A piece's moves in Betza's notation as XBoard reads it, or `None` when some power is
/// beyond it (hops of a length, conditions other than a start zone, programs).
pub fn betza(rules: &Rules, piece: &PieceType) -> Option<String> {
    if !piece.programs.is_empty() || piece.moves.iter().any(|m| m.stop_between) {
        return None;
    }
    let map = &rules.variant.players[0].direction_map;
    let mut out = String::new();
    for rule in &piece.moves {
        let initial = match rule.conditions.as_slice() {
            [] => "",
            [Condition::FromZone(_)] => "i",
            _ => return None,
        };
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
                let range = match max {
                    Some(1) => String::new(),
                    Some(n) => n.to_string(),
                    None => "0".to_string(),
                };
                (vs?, range, "")
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
            let prefix = format!("{hop}{mode}");
            let full = if oblique { 8 } else { 4 };
            let mut distinct = vs.clone();
            distinct.sort();
            distinct.dedup();
            if distinct.len() == full {
                out.push_str(&format!("{initial}{prefix}{a}{range}"));
                continue;
            }
            if oblique {
                return None;
            }
            for (dx, dy) in distinct {
                let dir = match (dx.signum(), dy.signum()) {
                    (0, 1) => "f",
                    (0, -1) => "b",
                    (1, 0) => "r",
                    (-1, 0) => "l",
                    (1, 1) => "fr",
                    (-1, 1) => "fl",
                    (1, -1) => "br",
                    (-1, -1) => "bl",
                    _ => return None,
                };
                out.push_str(&format!("{initial}{dir}{prefix}{a}{range}"));
            }
        }
    }
    // Merge the pawn's two diagonal captures, as Betza writes them (`fcF`).
    let out = out.replace("flceFfrceF", "fceF").replace("frceFflceF", "fceF");
    let out = out.replace("flcFfrcF", "fcF").replace("frcFflcF", "fcF");
    Some(simplify(&out))
}

/// Sliders by their usual letters: `W0` is `R`, `F0` is `B`.
fn simplify(betza: &str) -> String {
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
