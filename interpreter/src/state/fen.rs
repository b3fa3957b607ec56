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

pub use crate::counters::MAX_CLOCK;
use crate::ir::{CellId, PlayerId};
use crate::position::{Position, UNLIMITED};
pub use crate::position_error::PositionError;
use crate::rules::{Piece, Rules};

mod read;
pub(crate) mod rights;
mod rows;
use rights::derived_rights;
use rows::implied_owner;

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
        let rights =
            rules.gates.text(rules.player_count(), self.st.rights.castling, &|p| derived_rights(self, PlayerId(p)));
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        out.push(' ');
        // A running count stands in the en-passant field, its progress in the clock's, as
        // Fairy-Stockfish writes makruk's counting.
        let count = self.count().filter(|_| self.st.rights.ep.is_none());
        match (self.st.rights.ep, count) {
            (Some(ep), _) => {
                let names: Vec<&str> = ep.passed().iter().map(|c| rules.cell_name(*c)).collect();
                out.push_str(&names.join(","));
            }
            (None, Some((limit, _))) => out.push_str(&limit.to_string()),
            (None, None) => out.push('-'),
        }
        let clock = count.map_or(self.st.clocks.halfmove, |(_, ply)| ply);
        out.push_str(&format!(" {clock} {}", self.st.clocks.fullmove));
        let cells = |marks: &[CellId]| -> String {
            if marks.is_empty() {
                "-".to_string()
            } else {
                marks.iter().map(|c| rules.cell_name(*c)).collect::<Vec<_>>().join(",")
            }
        };
        if rules.variant.squares.is_some() {
            let reserves: Vec<String> = self.st.squares.reserve.iter().map(|n| n.to_string()).collect();
            let unlimited = self.st.squares.reserve.iter().all(|n| *n == UNLIMITED);
            out.push(' ');
            out.push_str(&if unlimited { "-".to_string() } else { reserves.join(",") });
            out.push(' ');
            out.push_str(&cells(self.st.squares.frozen.cells()));
        }
        if rules.squares.slots.len() > 1 {
            out.push_str(&format!(" {} {}", self.st.slot + 1, cells(self.st.squares.touched.cells())));
        }
        out.push_str(&self.program_fields());
        out.push_str(&self.phase_field());
        out.push_str(&self.choice_field());
        out.push_str(&self.out_field());
        out
    }
}
