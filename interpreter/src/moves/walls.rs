//! Walls: the cell each piece move walls up (arrow, past, anywhere, duck), and pieces that turn into walls when they capture.
//!
//! A wall is a location without a square, as `no-square` makes: nothing stands on it, slides
//! stop before it, leaps do not land on it, position strings write it `*`. A move that places
//! a wall carries its cell (`Move::wall`); the generator adds the walled forms of every piece
//! move, each judged by making it whole (the wall may block a line), so the fast paths that
//! try a move without making it are off where walls are (`SquareFeatures::walls`).

use crate::ir::{CellId, WallPlace};
use crate::position::{Move, MoveKind, Position, State};
use crate::rules::programs::Only;
use crate::rules::{Piece, Rules};

impl Position {
    /// Replaces the moves in `out[start..]` by their walled forms: one per cell the move may
    /// wall up (none: the move is not made). A move that is not a piece's (a square action, the
    /// end of a turn) and a drop under `past` (it leaves no cell) place no wall.
    pub(crate) fn add_walls(&mut self, out: &mut Vec<Move>, start: usize) {
        let Some(place) = self.rules.variant.walls.as_ref().and_then(|w| w.place) else { return };
        let base: Vec<Move> = out.drain(start..).collect();
        for mv in base {
            if !mv.kind.is_piece_move() || (place == WallPlace::Past && mv.kind == MoveKind::Drop) {
                out.push(mv);
                continue;
            }
            for cell in self.wall_cells(mv, place) {
                out.push(Move { wall: cell.0 + 1, ..mv });
            }
        }
    }

    /// The cells a piece move may wall up, read on the board after the move: cells with a
    /// square and no piece (in the mover's cells of the walls' zone, if one is named), and of
    /// those the cell the piece left (`past`) or those its piece could move to from where it
    /// landed without capturing (`arrow`).
    fn wall_cells(&mut self, mv: Move, place: WallPlace) -> Vec<CellId> {
        let rules = self.rules.clone();
        let r = &*rules;
        let side = self.st.side;
        let zone = r.variant.walls.as_ref().and_then(|w| w.zone);
        let landing = match mv.kind {
            MoveKind::Castle => r.castling(mv.extra).king_to,
            _ => mv.to,
        };
        // The arrow flies from where the piece landed, also when it turned to stone there.
        let shooter = mv.landed(r, mv.piece);
        self.make_with(Move { wall: 0, ..mv }, false);
        let st = &self.st;
        let open = |c: CellId| st.cells[c.0 as usize] == Piece::EMPTY && zone.is_none_or(|z| r.in_zone(z, side, c));
        let cells: Vec<CellId> = match place {
            WallPlace::Past => [mv.from].into_iter().filter(|c| open(*c)).collect(),
            WallPlace::Anywhere | WallPlace::Duck => {
                (0..r.cells).map(|c| CellId(c as u16)).filter(|c| open(*c)).collect()
            }
            WallPlace::Arrow => arrow_cells(st, r, side, landing, shooter).into_iter().filter(|c| open(*c)).collect(),
        };
        self.unmake_with(false);
        cells
    }
}

/// The cells the mover's `piece`, standing on `landing`, could move to without capturing, in
/// generation order, each once.
fn arrow_cells(st: &State, r: &Rules, side: crate::ir::PlayerId, landing: CellId, piece: Piece) -> Vec<CellId> {
    if piece.is_empty() || piece == Piece::HOLE || r.owner(piece) != side {
        return Vec::new();
    }
    let mut moves = Vec::new();
    st.moves_of(r, side, landing, piece, Only::ANY, &mut moves);
    let mut cells: Vec<CellId> = Vec::new();
    for m in moves {
        if m.kind.is_piece_move() && m.take.is_empty() && m.from == landing && !cells.contains(&m.to) {
            cells.push(m.to);
        }
    }
    cells
}

impl State {
    /// After a piece move's own changes: a capturing piece of a petrifying type turns into a
    /// wall where it landed, then the move's wall goes up (under `duck`, once the walls placed
    /// before are lifted). Every change is logged, so the move is taken back as any other.
    pub(crate) fn build_walls(&mut self, r: &Rules, mv: Move, log: usize) {
        let Some(walls) = r.variant.walls.as_ref() else { return };
        if !walls.petrify.is_empty() && !mv.piece.is_empty() && mv.piece != Piece::HOLE {
            let captured = self.log[log..].iter().any(|e| matches!(e, crate::position::Logged::Took(_, _, _, true)));
            if captured && walls.petrify.contains(&r.type_of(mv.piece)) {
                let stone = mv.landed(r, mv.piece);
                if self.pieces_at(r, mv.to).contains(&stone) {
                    self.take_logged(r, mv.to, stone, false);
                    if self.pieces_at(r, mv.to).is_empty() {
                        self.wall_up(r, mv.to);
                    }
                }
            }
        }
        let Some(cell) = mv.wall() else { return };
        if walls.place == Some(WallPlace::Duck) {
            let fixed = &r.variant.board.initially_empty_locations;
            let lifted: Vec<CellId> = self.no_square.iter().filter(|c| !fixed.contains(c)).collect();
            for c in lifted {
                self.square_logged(r, c, true);
            }
        }
        self.wall_up(r, cell);
    }

    /// A cell loses its square, and with it its owner (an owned square's owner goes with it).
    fn wall_up(&mut self, r: &Rules, cell: CellId) {
        self.square_logged(r, cell, false);
        if r.squares.owned {
            self.own_logged(r, cell, 0);
        }
    }
}
