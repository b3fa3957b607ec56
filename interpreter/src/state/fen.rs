//! Position strings: a FEN-like text for any board the model holds, reading standard FEN for chess.
//!
//! `<rows> <side> <castling> <en-passant> <halfmove> <fullmove>`. Rows list cells by display
//! coordinates: layers from the lowest, each layer's rows from the highest `y`, each row by
//! increasing `x`; rows are separated by `/` and layers by `|`. A piece is its letter (upper
//! case for the first player), a digit run counts empty squares, and `*` is a location with no
//! square. Pieces standing between cells follow the rows in braces, `{Ra1.5,bef3.5}`; the
//! cells they cover are written empty in the rows.
//!
//! Where squares are game objects, an empty square owned by the first player is `+` and by the
//! second `-` (an occupied square whose owner its pieces do not tell is a stack ending with the
//! mark, `(pG+)`), and two fields follow the move number: the squares in reserve (`3,3`, or `-` for
//! an unlimited supply) and the untouchable squares (`e6` or `-`). Where a turn has several
//! actions, two more: the number of the action due (1 at the start of a turn) and the squares
//! touched so far this turn (`-` or a list).

use std::sync::Arc;

pub use crate::counters::MAX_CLOCK;
use crate::ir::{CellId, Geometry, PlayerId};
use crate::position::{EnPassant, Position, SquareMarks, UNLIMITED};
pub use crate::position_error::PositionError;
use crate::rules::{Piece, Rules};

mod rows;
use rows::{implied_owner, read_between, read_row};

/// The cells in position-string order, grouped into layers of rows.
pub fn layout(rules: &Rules) -> Vec<Vec<Vec<CellId>>> {
    let cells = &rules.variant.board.cells;
    let mut order: Vec<CellId> =
        (0..cells.len()).map(|i| CellId(i as u16)).filter(|c| cells[c.0 as usize].covers.is_empty()).collect();
    order.sort_by_key(|c| {
        let cell = &cells[c.0 as usize];
        (cell.layer, -cell.y, cell.x)
    });
    let mut layers: Vec<Vec<Vec<CellId>>> = Vec::new();
    let mut last: Option<(i32, i32)> = None;
    for c in order {
        let cell = &cells[c.0 as usize];
        match last {
            Some((l, _)) if l != cell.layer => layers.push(vec![vec![c]]),
            Some((_, y)) if y != cell.y => layers.last_mut().expect("a layer").push(vec![c]),
            Some(_) => layers.last_mut().expect("a layer").last_mut().expect("a row").push(c),
            None => layers.push(vec![vec![c]]),
        }
        last = Some((cell.layer, cell.y));
    }
    layers
}

fn side_token(rules: &Rules, p: PlayerId) -> String {
    let names: Vec<&str> = rules.variant.players.iter().map(|p| p.name.as_str()).collect();
    let name = names[p.0 as usize];
    let initial = &name[..name.chars().next().map(|c| c.len_utf8()).unwrap_or(0)];
    let unique = names.iter().filter(|n| n.starts_with(initial)).count() == 1;
    if unique {
        initial.to_lowercase()
    } else {
        name.to_string()
    }
}

/// The largest count limit a position string may give, in half-moves (twice the largest
/// `counting N` a variant may declare).
pub const MAX_COUNT: u32 = 20_000;

impl Position {
    /// Where squares are owned, the owner of an occupied square when it is not the one its
    /// pieces give (the one player whose pieces stand there; none under both players'): a
    /// piece joining a stack takes the square, and a piece left behind stands on it. A square
    /// under pieces is never unowned (a piece landing takes it, the setup gives it).
    fn owner_mark(&self, cell: CellId) -> Option<char> {
        let owner = self.square_owner(cell).filter(|_| self.rules.squares.owned)?;
        let implied = implied_owner(&self.rules, self.pieces_at(cell));
        (implied != Some(owner)).then_some(if owner == PlayerId(0) { '+' } else { '-' })
    }

    /// Writes the position string.
    pub fn to_position_string(&self) -> String {
        let rules = &self.rules;
        let mut out = String::new();
        for (li, layer) in layout(rules).iter().enumerate() {
            if li > 0 {
                out.push('|');
            }
            for (ri, row) in layer.iter().enumerate() {
                if ri > 0 {
                    out.push('/');
                }
                let mut empty = 0;
                for c in row {
                    let p = self.st.cells[c.0 as usize];
                    let owned = p.is_empty() && self.square_owner(*c).is_some();
                    if (p.is_empty() && !owned) || self.standing_at(*c) != *c {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let stack = self.pieces_at(*c);
                    if p == Piece::HOLE {
                        out.push('*');
                    } else if owned {
                        out.push(if self.square_owner(*c) == Some(PlayerId(0)) { '+' } else { '-' });
                    } else {
                        // A stack: its pieces in parentheses, in the stack's canonical order,
                        // then the square's owner where the pieces do not tell it.
                        let mark = self.owner_mark(*c);
                        if stack.len() > 1 || mark.is_some() {
                            out.push('(');
                            for q in stack.iter() {
                                rules.push_piece_symbol(*q, &mut out);
                            }
                            out.extend(mark);
                            out.push(')');
                        } else {
                            rules.push_piece_symbol(p, &mut out);
                        }
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
            }
        }
        let between: Vec<String> = (0..rules.cell_count())
            .map(|i| CellId(i as u16))
            .filter(|c| rules.is_between(*c))
            .filter_map(|c| self.piece_at(c).map(|p| format!("{}{}", rules.piece_symbol(p), rules.cell_name(c))))
            .collect();
        if !between.is_empty() {
            out.push('{');
            out.push_str(&between.join(","));
            out.push('}');
        }
        out.push_str(&self.hand_text());
        out.push(' ');
        out.push_str(&side_token(rules, self.st.side));
        out.push(' ');
        // Castling rights, then gating rights, player by player (`KQBCDFGkqbcdfg`).
        let rights = rules.gates.text(rules.player_count(), self.st.castling, &|p| derived_rights(self, PlayerId(p)));
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        out.push(' ');
        // A running count stands in the en-passant field, its progress in the clock's, as
        // Fairy-Stockfish writes makruk's counting.
        let count = self.count().filter(|_| self.st.ep.is_none());
        match (self.st.ep, count) {
            (Some(ep), _) => {
                let names: Vec<&str> = ep.passed().iter().map(|c| rules.cell_name(*c)).collect();
                out.push_str(&names.join(","));
            }
            (None, Some((limit, _))) => out.push_str(&limit.to_string()),
            (None, None) => out.push('-'),
        }
        let clock = count.map_or(self.st.halfmove, |(_, ply)| ply);
        out.push_str(&format!(" {clock} {}", self.st.fullmove));
        let cells = |marks: &[CellId]| -> String {
            if marks.is_empty() {
                "-".to_string()
            } else {
                marks.iter().map(|c| rules.cell_name(*c)).collect::<Vec<_>>().join(",")
            }
        };
        if rules.variant.squares.is_some() {
            let reserves: Vec<String> = self.st.reserve.iter().map(|n| n.to_string()).collect();
            let unlimited = self.st.reserve.iter().all(|n| *n == UNLIMITED);
            out.push(' ');
            out.push_str(&if unlimited { "-".to_string() } else { reserves.join(",") });
            out.push(' ');
            out.push_str(&cells(self.st.frozen.cells()));
        }
        if rules.squares.slots.len() > 1 {
            out.push_str(&format!(" {} {}", self.st.slot + 1, cells(self.st.touched.cells())));
        }
        out.push_str(&self.program_fields());
        out.push_str(&self.phase_field());
        out.push_str(&self.choice_field());
        out.push_str(&self.out_field());
        out
    }

    /// Reads a position string of this variant.
    pub fn from_position_string(rules: Arc<Rules>, text: &str) -> Result<Position, PositionError> {
        let mut pos = Position::empty(rules.clone());
        for c in &rules.variant.board.initially_empty_locations {
            pos.st.cells[c.0 as usize] = Piece::EMPTY;
            pos.st.no_square.remove(*c);
        }
        let mut fields: Vec<(usize, &str)> = split_fields(text);
        // Fairy-Stockfish's shogi form leaves out castling and en passant (`... w 0 1`): a
        // number where the castling rights stand means both are `-`.
        if fields.get(2).is_some_and(|(_, s)| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())) {
            let at = fields[2].0;
            fields.splice(2..2, [(at, "-"), (at, "-")]);
        }
        // Fairy-Stockfish's checks still needed (`3+3`) after the en-passant field.
        crate::counters::read_checks_remaining(&mut pos, &mut fields)?;
        let err = |offset: usize, len: usize, message: String| PositionError { offset, len: len.max(1), message };
        let Some(&(board_at, board)) = fields.first() else {
            return Err(err(0, 0, "expected a position string, found nothing".into()));
        };
        let layers = layout(&rules);
        // Pieces in hand in Fairy-Stockfish's form, after the rows in brackets.
        let (board, hand) = crate::to_hand::split_hand(board, board_at);
        // Pieces between cells, after the rows in braces.
        let (board, between) = match board.find('{') {
            Some(i) => (&board[..i], Some((board_at + i, &board[i..]))),
            None => (board, None),
        };
        let layer_texts: Vec<&str> = board.split('|').collect();
        if layer_texts.len() != layers.len() {
            return Err(err(
                board_at,
                board.len(),
                format!("expected {} board layer(s) separated by `|`, found {}", layers.len(), layer_texts.len()),
            ));
        }
        let mut at = board_at;
        for (layer, ltext) in layers.iter().zip(&layer_texts) {
            let rows: Vec<&str> = ltext.split('/').collect();
            if rows.len() != layer.len() {
                return Err(err(
                    at,
                    ltext.len(),
                    format!("expected {} rows separated by `/`, found {}", layer.len(), rows.len()),
                ));
            }
            for (row, rtext) in layer.iter().zip(&rows) {
                read_row(&mut pos, row, rtext, at)?;
                at += rtext.len() + 1;
            }
        }
        if let Some((o, text)) = between {
            read_between(&mut pos, text, o)?;
        }
        if let Some((o, text)) = hand {
            crate::to_hand::read_hand(&mut pos, text, o)?;
        }
        let field = |i: usize| fields.get(i).copied();
        let side = match field(1) {
            None => PlayerId(0),
            Some((o, s)) => (0..rules.player_count())
                .map(|p| PlayerId(p as u8))
                .find(|p| side_token(&rules, *p) == s || rules.variant.players[p.0 as usize].name == s)
                .ok_or_else(|| {
                    let expected: Vec<String> = (0..rules.player_count())
                        .map(|p| format!("`{}`", side_token(&rules, PlayerId(p as u8))))
                        .collect();
                    err(o, s.len(), format!("expected the side to move ({}), found `{s}`", expected.join(" or ")))
                })?,
        };
        pos.set_side(side);
        let mut castling = 0;
        if let Some((o, s)) = field(2) {
            if s != "-" {
                for (k, ch) in s.char_indices() {
                    if let Some(found) = alias_right(&pos, ch) {
                        castling |= 1 << found.map_err(|why| err(o + k, ch.len_utf8(), why))?;
                        continue;
                    }
                    let i = rules.gates.bit(ch).ok_or_else(|| {
                        err(
                            o + k,
                            ch.len_utf8(),
                            format!("expected a castling or gating right of this variant or `-`, found `{ch}`"),
                        )
                    })?;
                    let derived =
                        i >= rules.castles.first_bit && i < rules.castles.first_bit + rules.castles.letters.len();
                    let why = if derived {
                        derived_mismatch(&pos, i)
                    } else if i < rules.castles.fixed {
                        castling_mismatch(&pos, &rules.castles.list[i])
                    } else {
                        gate_mismatch(&pos, ch)
                    };
                    if let Some(why) = why {
                        return Err(err(o + k, ch.len_utf8(), why));
                    }
                    castling |= rules.gates.read_letter(ch).unwrap_or(1 << i);
                }
            }
        }
        let mut ep = None;
        let mut count_limit = 0;
        if let Some((o, s)) = field(3) {
            if rules.ends.counting && s.starts_with(|c: char| c.is_ascii_digit()) {
                count_limit = match s.parse::<u32>() {
                    Ok(n) if (1..=MAX_COUNT).contains(&n) => n,
                    _ => {
                        let what = format!("expected a count's limit in half-moves, 1 to {MAX_COUNT}, found `{s}`");
                        return Err(err(o, s.len(), what));
                    }
                };
            } else if s != "-" {
                ep = Some(read_en_passant(&pos, s, o)?);
            }
        }
        let number = |i: usize, default: u32, min: u32| -> Result<u32, PositionError> {
            match field(i) {
                None => Ok(default),
                Some((o, s)) => match s.parse::<u32>() {
                    Ok(n) if n >= min && n <= MAX_CLOCK => Ok(n),
                    _ => Err(err(o, s.len(), format!("expected a number from {min} to {MAX_CLOCK}, found `{s}`"))),
                },
            }
        };
        let halfmove = number(4, 0, 0)?;
        let fullmove = number(5, 1, 1)?;
        let mut next = 6;
        if rules.variant.squares.is_some() {
            let mut reserve = pos.st.reserve.clone();
            if let Some((o, s)) = field(next) {
                reserve = read_reserves(&rules, s, o)?;
            }
            let frozen = match field(next + 1) {
                Some((o, s)) => read_marks(&rules, s, o, "an untouchable")?,
                None => SquareMarks::default(),
            };
            pos.set_square_state(reserve, frozen, 0, SquareMarks::default());
            next += 2;
        }
        if rules.squares.slots.len() > 1 {
            let slot = number(next, 1, 1)?;
            if slot as usize > rules.squares.slots.len() {
                let (o, s) = field(next).expect("a number was read");
                return Err(err(
                    o,
                    s.len(),
                    format!("expected the number of the action due, 1 to {}, found `{s}`", rules.squares.slots.len()),
                ));
            }
            let touched = match field(next + 1) {
                Some((o, s)) => read_marks(&rules, s, o, "a touched")?,
                None => SquareMarks::default(),
            };
            pos.st.slot = (slot - 1) as u8;
            pos.st.touched = touched;
            next += 2;
        }
        let mut phases = None;
        let keyed = !rules.variant.phases.is_empty() || !rules.variant.choices.is_empty() || rules.eliminating();
        if rules.program.is_some() || keyed {
            // New pieces carry their type's attributes unless an `attrs=` field says otherwise.
            if !pos.st.attrs.is_empty() {
                for c in 0..rules.cell_count() {
                    if let Some(p) = pos.piece_at(CellId(c as u16)) {
                        pos.st.attrs[c] = rules.attr_default(rules.type_of(p));
                    }
                }
            }
            let mut turn_given = false;
            let mut out_at = None;
            while let Some((o, s)) = field(next) {
                turn_given |= s.starts_with("turn=");
                if let (Some(v), true) = (s.strip_prefix("out="), rules.eliminating()) {
                    pos.read_out_field(v, o + 4)?;
                    out_at = Some((o, s.len()));
                    next += 1;
                    continue;
                }
                if let (Some(v), false) = (s.strip_prefix("phases="), rules.variant.phases.is_empty()) {
                    phases = Some(Position::read_phase_field(&rules, v, o + 7)?);
                    next += 1;
                    continue;
                }
                match s.strip_prefix("choices=") {
                    Some(v) if !rules.variant.choices.is_empty() => pos.read_choice_field(v, o + 8)?,
                    _ if rules.program.is_some() => crate::program_fields::read_program_field(&mut pos, s, o)?,
                    _ => {
                        return Err(err(
                            o,
                            s.len(),
                            format!("expected `choices=...` or the end of the position string, found `{s}`"),
                        ))
                    }
                }
                next += 1;
            }
            // Nobody goes out before the choices are all made.
            if let (Some((o, len)), Some(_)) = (out_at, pos.st.pending_choice(&rules)) {
                return Err(err(o, len, "a choice is still to be made: no player is out yet".into()));
            }
            if !turn_given && rules.program.is_some() {
                // Without `turn=`, the first turn of the order in which the side moves.
                pos.st.turn = crate::program_fields::first_turn_of(&rules, side, fullmove);
            }
        }
        if let Some((o, s)) = field(next) {
            return Err(err(o, s.len(), format!("expected the end of the position string, found `{s}`")));
        }
        if let Some(message) = pos.choice_without_room() {
            return Err(err(text.trim_end().len(), 0, message));
        }
        if count_limit > 0 {
            // The clock's field holds the count's progress; the clock itself starts at 0.
            pos.set_state(castling, ep, 0, fullmove);
            pos.st.count = (count_limit, halfmove);
        } else {
            pos.set_state(castling, ep, halfmove, fullmove);
        }
        if let Some(begun) = phases {
            pos.st.phases = begun;
            pos.st.hash = pos.st.compute_hash(&rules);
        }
        Ok(pos)
    }
}

/// Why a gating right of its own cannot be held in this position, if it cannot: it needs a
/// piece of its player on one of its cells.
fn gate_mismatch(pos: &Position, letter: char) -> Option<String> {
    let r = pos.rules();
    let gates: Vec<&crate::ir::Gate> = r.variant.gates.iter().filter(|g| g.right == letter).collect();
    let player = gates.first()?.player;
    let held =
        gates.iter().flat_map(|g| g.cells.iter()).any(|c| pos.pieces_at(*c).iter().any(|q| r.owner(*q) == player));
    if held {
        return None;
    }
    let cells: Vec<&str> = gates.iter().flat_map(|g| g.cells.iter()).map(|c| r.cell_name(*c)).collect();
    Some(format!(
        "gating right `{letter}` needs a piece of {}'s on {}",
        r.variant.players[player.0 as usize].name,
        cells.join(" or ")
    ))
}

/// The king cell and the partner cells on its side of a castling taken from the position, the
/// outermost first: the player's pieces of the declaration's types on its cells.
fn free_pieces(pos: &Position, d: &crate::rules::castles::FreeDecl) -> Option<(CellId, Vec<CellId>)> {
    let r = &pos.rules;
    let of = |c: CellId, ty| pos.piece_at(c).is_some_and(|p| r.owner(p) == d.player && r.type_of(p) == ty);
    let k = d.cells.iter().position(|c| of(*c, d.king))?;
    let mut partners: Vec<CellId> = (0..d.cells.len())
        .filter(|i| (*i as i32 - k as i32).signum() == d.side && of(d.cells[*i], d.partner))
        .map(|i| d.cells[i])
        .collect();
    if d.side > 0 {
        partners.reverse();
    }
    Some((d.cells[k], partners))
}

/// The rights bit an X-FEN letter (`K`, `Q`: a castling's own letter, for the outermost
/// partner on its side) stands for in this position: `None` if no castling taken from the
/// position has that letter, an error if it has but the position has no such partner.
pub(crate) fn alias_right(pos: &Position, letter: char) -> Option<Result<usize, String>> {
    let r = &pos.rules;
    let d = r.castles.decls.iter().find(|d| d.alias == letter)?;
    let player = &r.variant.players[d.player.0 as usize].name;
    let found = free_pieces(pos, d).and_then(|(_, partners)| partners.first().copied());
    Some(match found.and_then(|c| r.castles.bit_of(d.player, c)) {
        Some(bit) => Ok(bit),
        None => Err(format!(
            "castling right `{letter}` needs {player}'s {} on its castling cells with a {} on the castling's side",
            r.variant.pieces[d.king.0 as usize].name.to_lowercase(),
            r.variant.pieces[d.partner.0 as usize].name.to_lowercase()
        )),
    })
}

/// The bit of an X-FEN letter, if the position gives it one (for the setup's rights).
pub(crate) fn alias_bit(pos: &Position, letter: char) -> Option<usize> {
    alias_right(pos, letter).and_then(|r| r.ok())
}

/// Why a right named by its partner's file cannot be held, if it cannot: the partner and the
/// king of some castling taken from the position must stand there, the partner on its side.
fn derived_mismatch(pos: &Position, bit: usize) -> Option<String> {
    let r = &pos.rules;
    let (player, cell, letter) = r.castles.letters[bit - r.castles.first_bit];
    let fits = r
        .castles
        .decls
        .iter()
        .filter(|d| d.player == player)
        .any(|d| free_pieces(pos, d).is_some_and(|(_, partners)| partners.contains(&cell)));
    (!fits).then(|| {
        format!(
            "castling right `{letter}` needs {}'s castling king on its castling cells and a castling partner on {} beside it",
            r.variant.players[player.0 as usize].name,
            r.cell_name(cell)
        )
    })
}

/// The rights held of the castlings taken from the position, for one player: the castling's
/// own letter for the outermost partner on its side (X-FEN), else the partner's file letter;
/// always the file letter with `castling-notation king-takes-partner` (Shredder-FEN).
fn derived_rights(pos: &Position, player: PlayerId) -> String {
    let r = &pos.rules;
    let mut out = String::new();
    for d in r.castles.decls.iter().filter(|d| d.player == player) {
        let Some((_, partners)) = free_pieces(pos, d) else { continue };
        for (i, c) in partners.iter().enumerate() {
            let Some(bit) = r.castles.bit_of(player, *c) else { continue };
            if pos.st.castling & (1 << bit) == 0 {
                continue;
            }
            let letter = r.castles.letters[bit - r.castles.first_bit].2;
            out.push(if i == 0 && !r.variant.king_takes_partner { d.alias } else { letter });
        }
    }
    out
}

/// Why a castling right cannot be held in this position, if it cannot: its royal piece and its
/// partner must stand on their start cells, each of the type the setup puts there (any royal
/// piece, and any other piece of the player, where the setup puts nothing).
fn castling_mismatch(pos: &Position, c: &crate::ir::Castling) -> Option<String> {
    let r = &pos.rules;
    let v = &r.variant;
    let set_up = |cell: CellId| {
        v.setup
            .placements
            .iter()
            .find(|(x, _)| *x == cell)
            .and_then(|(_, stack)| stack.last().copied())
            .filter(|(owner, _)| *owner == c.player)
            .map(|(_, t)| t)
    };
    let type_name = |t: crate::ir::PieceTypeId| v.pieces[t.0 as usize].name.to_lowercase();
    let check = |cell: CellId, royal: bool| -> Option<String> {
        let wanted = set_up(cell);
        let fits = pos.piece_at(cell).is_some_and(|p| {
            r.owner(p) == c.player
                && match wanted {
                    Some(t) => r.type_of(p) == t,
                    None => v.pieces[r.type_of(p).0 as usize].royal == royal,
                }
        });
        if fits {
            return None;
        }
        let what = match (wanted, royal) {
            (Some(t), _) => type_name(t),
            (None, true) => "royal piece".to_string(),
            (None, false) => "castling partner".to_string(),
        };
        let found = match pos.piece_at(cell) {
            None => "it is empty".to_string(),
            Some(p) => format!("it holds {}'s {}", v.players[r.owner(p).0 as usize].name, type_name(r.type_of(p))),
        };
        Some(format!("{what} on {}, but {found}", r.cell_name(cell)))
    };
    let missing = check(c.king_from, true).or_else(|| check(c.partner_from, false))?;
    Some(format!(
        "castling right `{}` ({} {}) needs {}'s {missing}",
        c.right, v.players[c.player.0 as usize].name, c.notation, v.players[c.player.0 as usize].name
    ))
}

fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Reads the reserves field: a count per player, or `-` for an unlimited supply.
fn read_reserves(rules: &Rules, text: &str, at: usize) -> Result<Vec<u32>, PositionError> {
    let players = rules.player_count();
    let unlimited = rules.variant.squares.as_ref().is_some_and(|s| s.reserve.is_none());
    if unlimited {
        if text == "-" {
            return Ok(vec![UNLIMITED; players]);
        }
        return Err(PositionError {
            offset: at,
            len: text.len(),
            message: format!("expected `-`: reserves are unlimited in this game, found `{text}`"),
        });
    }
    let parts: Vec<&str> = text.split(',').collect();
    let mut out = Vec::new();
    let mut offset = at;
    for part in &parts {
        match part.parse::<u32>() {
            Ok(n) if n < UNLIMITED => out.push(n),
            _ => {
                return Err(PositionError {
                    offset,
                    len: part.len().max(1),
                    message: format!("expected the number of squares in reserve, found `{part}`"),
                })
            }
        }
        offset += part.len() + 1;
    }
    if out.len() != players {
        return Err(PositionError {
            offset: at,
            len: text.len(),
            message: format!("expected {players} reserve counts separated by `,` (like `3,3`), found `{text}`"),
        });
    }
    Ok(out)
}

/// Reads a list of squares (`d5,e6`, or `-` for none).
fn read_marks(rules: &Rules, text: &str, at: usize, what: &str) -> Result<SquareMarks, PositionError> {
    let mut marks = SquareMarks::default();
    if text == "-" {
        return Ok(marks);
    }
    let mut offset = at;
    for name in text.split(',') {
        let cell = rules.cell_by_name(name).ok_or_else(|| PositionError {
            offset,
            len: name.len().max(1),
            message: format!("expected the name of {what} square or `-`, found `{name}`"),
        })?;
        if marks.cells().len() == 8 {
            return Err(PositionError {
                offset,
                len: name.len(),
                message: "at most 8 squares in this list".to_string(),
            });
        }
        marks.push(cell);
        offset += name.len() + 1;
    }
    Ok(marks)
}

/// Splits cell names written without separators (`f3f4`, `a9a10`) into at most 5 names (one
/// more than the field holds, so that a fifth is refused by count): the first split, trying
/// longer names first, that leaves nothing over. Only names as long as a cell's are tried and
/// dead ends are remembered, so a long text costs no more than a short one.
fn run_together<'a>(rules: &Rules, text: &'a str) -> Option<Vec<&'a str>> {
    fn split<'a>(
        rules: &Rules,
        text: &'a str,
        from: usize,
        out: &mut Vec<&'a str>,
        dead: &mut std::collections::HashSet<(usize, usize)>,
    ) -> bool {
        if from == text.len() {
            return true;
        }
        if out.len() == 5 || dead.contains(&(from, out.len())) {
            return false;
        }
        let rest = &text[from..];
        let longest = rules.variant.board.cells.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let ends: Vec<usize> =
            rest.char_indices().map(|(i, c)| i + c.len_utf8()).take_while(|&e| e <= longest).collect();
        for &end in ends.iter().rev() {
            if rules.cell_by_name(&rest[..end]).is_some() {
                out.push(&rest[..end]);
                if split(rules, text, from + end, out, dead) {
                    return true;
                }
                out.pop();
            }
        }
        dead.insert((from, out.len()));
        false
    }
    let mut out = Vec::new();
    split(rules, text, 0, &mut out, &mut Default::default()).then_some(out)
}

/// Reads the en-passant field: passed cells; the victim is found next to the last one, as the
/// previous player's piece whose passage power points there.
fn read_en_passant(pos: &Position, text: &str, at: usize) -> Result<EnPassant, PositionError> {
    let rules = &pos.rules;
    let mut ep = EnPassant { cells: [CellId(0); 4], len: 0, victim: CellId(0), piece: Piece::EMPTY };
    let mut offset = at;
    // Fairy-Stockfish runs the cells together (`f3f4`); Varia separates them with commas.
    let names: Vec<&str> = match text.contains(',') {
        false if rules.cell_by_name(text).is_none() => run_together(rules, text).unwrap_or(vec![text]),
        _ => text.split(',').collect(),
    };
    let sep = usize::from(names.len() > 1 && text.contains(','));
    for name in names {
        let cell = rules.cell_by_name(name).ok_or_else(|| PositionError {
            offset,
            len: name.len(),
            message: format!("expected an en-passant cell name or `-`, found `{name}`"),
        })?;
        if ep.len as usize == ep.cells.len() {
            return Err(PositionError { offset, len: name.len(), message: "at most 4 en-passant cells".into() });
        }
        ep.cells[ep.len as usize] = cell;
        ep.len += 1;
        offset += name.len() + sep;
    }
    let players = rules.player_count() as u8;
    let last = ep.cells[ep.len as usize - 1];
    // The previous player passed the cells, or, in a turn of several actions, the side to move.
    let previous = (pos.st.side.0 + players - 1) % players;
    for mover in (0..players).map(|k| PlayerId((previous + k) % players)) {
        let map = &rules.variant.players[mover.0 as usize].direction_map;
        // Under `shared-pieces` the mover may have moved any player's piece (its own first).
        let owners: Vec<PlayerId> = if rules.variant.shared_pieces {
            (0..players).map(|k| PlayerId((mover.0 + k) % players)).collect()
        } else {
            vec![mover]
        };
        for (t, piece) in rules.variant.pieces.iter().enumerate() {
            for rule in piece.moves.iter().filter(|r| r.marks_en_passant) {
                let Geometry::Slide { dirs, .. } = &rule.geometry else { continue };
                for d in dirs {
                    for v in rules.graph.step(last, map[d.0 as usize]) {
                        let here = pos.pieces_at(*v);
                        let found = owners
                            .iter()
                            .map(|o| rules.piece(*o, crate::ir::PieceTypeId(t as u8)))
                            .find(|code| here.contains(code));
                        if let Some(code) = found {
                            ep.victim = *v;
                            ep.piece = code;
                            return Ok(ep);
                        }
                    }
                }
            }
        }
    }
    Err(PositionError {
        offset: at,
        len: text.len(),
        message: format!("no piece that just passed `{text}` stands next to it"),
    })
}
