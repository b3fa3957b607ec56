//! The game state (pieces, squares, rights, clocks, phases) and making and unmaking moves.

use std::sync::Arc;

use crate::bitset::CellSet;
use crate::ir::{CellId, Condition, DirId, PieceTypeId, PlayerId};
use crate::rules::{Piece, Rules};

/// In `State::anchor`: no piece covers the cell from between cells.
pub(crate) const NO_ANCHOR: CellId = CellId(u16::MAX);

/// What a move does beyond carrying a piece from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Move (and capture whatever stands on the target).
    Normal,
    /// Move along a ray that marks its passed cells for en passant; `extra` is the direction.
    Passage,
    /// Capture en passant; `extra` is the cell of the captured piece.
    EnPassant,
    /// Castle; `extra` is the castling's index.
    Castle,
    /// Move an empty square from `from` to the location `to`, which has none.
    MoveSquare,
    /// Move the square on `from` with the mover's piece on it to the location `to`.
    CarrySquare,
    /// Place a square from the mover's reserve on the location `to` (`from` is `to`).
    PlaceSquare,
    /// End the turn, leaving its remaining (optional) actions out.
    EndTurn,
    /// A move emitted by a move program: `extra` is the program's index (high byte) and which
    /// of its moves with this destination and promotion it is (low byte).
    Program,
    /// A drop: a new piece of `piece`'s type placed by a drop program run from `from`; `extra`
    /// as for [`MoveKind::Program`].
    Drop,
}

impl MoveKind {
    /// Whether the move moves a piece by its powers (not a square action or the end of a turn).
    #[inline]
    pub fn is_piece_move(self) -> bool {
        matches!(
            self,
            MoveKind::Normal
                | MoveKind::Passage
                | MoveKind::EnPassant
                | MoveKind::Castle
                | MoveKind::Program
                | MoveKind::Drop
        )
    }
}

/// A few squares: those the side to move may not move, or those touched this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SquareMarks {
    cells: [CellId; 8],
    len: u8,
}

impl SquareMarks {
    /// The squares, in the order they were touched.
    pub fn cells(&self) -> &[CellId] {
        &self.cells[..self.len as usize]
    }

    /// Whether the square is among them.
    #[inline]
    pub fn contains(&self, c: CellId) -> bool {
        self.cells().contains(&c)
    }

    pub(crate) fn push(&mut self, c: CellId) {
        if (self.len as usize) < self.cells.len() && !self.contains(c) {
            self.cells[self.len as usize] = c;
            self.len += 1;
        }
    }
}

/// What a move of square play changed beyond [`Undo`]: owners, reserve, the turn's progress.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SquareUndo {
    /// Cells whose owner changed, with the owner before (0: none, else 1 + player).
    pub(crate) owners: [(CellId, u8); 3],
    pub(crate) owners_len: u8,
    pub(crate) reserve: u32,
    pub(crate) frozen: SquareMarks,
    pub(crate) touched: SquareMarks,
    pub(crate) slot: u8,
    pub(crate) side: PlayerId,
    pub(crate) fullmove: u32,
    /// The square the moving piece left was removed.
    pub(crate) vacated: bool,
}

/// A move: small and `Copy`, so move lists never allocate per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the moving piece starts.
    pub from: CellId,
    /// Where it lands.
    pub to: CellId,
    /// What kind of move.
    pub kind: MoveKind,
    /// The piece type promoted to, plus one; 0 when there is no promotion.
    pub promote: u8,
    /// Kind-specific data (see [`MoveKind`]).
    pub extra: u16,
    /// The moving piece (the king for a castling): on a stack it says which piece moves.
    pub piece: Piece,
    /// What the move captures: a piece code, [`Piece::ALL`] for every enemy piece on the
    /// target, or [`Piece::EMPTY`] for none (a move to an empty cell, or joining a stack).
    pub take: Piece,
}

impl Move {
    /// The promotion piece type, if any.
    pub fn promotion(&self) -> Option<PieceTypeId> {
        (self.promote != 0).then(|| PieceTypeId(self.promote - 1))
    }

    /// The piece standing on the target after the move: `moved`, or what it promotes to.
    pub(crate) fn landed(&self, r: &Rules, moved: Piece) -> Piece {
        match self.promotion() {
            Some(t) => r.piece(r.owner(moved), t),
            None => moved,
        }
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.take.is_empty()
    }
}

/// En-passant state: cells just passed by a piece, which may be captured by landing on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The passed cells (up to four).
    pub cells: [CellId; 4],
    /// How many of `cells` are used.
    pub len: u8,
    /// The cell of the piece that passed them.
    pub victim: CellId,
    /// The piece that passed them.
    pub piece: Piece,
}

impl EnPassant {
    /// The passed cells.
    pub fn passed(&self) -> &[CellId] {
        &self.cells[..self.len as usize]
    }
}

/// Everything needed to take a move back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub(crate) mv: Move,
    pub(crate) moved: Piece,
    pub(crate) captured: Piece,
    pub(crate) captured_at: CellId,
    pub(crate) castling: u32,
    pub(crate) ep: Option<EnPassant>,
    pub(crate) halfmove: u32,
    pub(crate) phases: u32,
    pub(crate) hash: u64,
    /// On a stacking board: how many pieces this move pushed onto `State::captured`.
    pub(crate) captured_n: u8,
}

/// A position of a variant: the board, whose turn it is, rights, clocks and history.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) rules: Arc<Rules>,
    pub(crate) st: State,
}

/// The mutable part of a position; methods take the rules explicitly so that making a move
/// borrows them without reference counting.
#[derive(Clone, Debug)]
pub(crate) struct State {
    /// Per cell: the piece there, [`Piece::EMPTY`], or [`Piece::HOLE`] where there is no square.
    pub(crate) cells: Vec<Piece>,
    /// Per player: the cells holding that player's pieces.
    pub(crate) occupied: Vec<CellSet>,
    /// Per player: the cells holding that player's royal pieces.
    pub(crate) royals: Vec<CellSet>,
    pub(crate) side: PlayerId,
    /// Bit i: castling i is still allowed.
    pub(crate) castling: u32,
    pub(crate) ep: Option<EnPassant>,
    /// Half-moves since the last capture or clock-resetting move.
    pub(crate) halfmove: u32,
    /// Full-move number, starting at 1.
    pub(crate) fullmove: u32,
    /// Bit i: phase i has begun.
    pub(crate) phases: u32,
    pub(crate) hash: u64,
    /// Number of pieces on the board.
    pub(crate) piece_count: u32,
    /// On a stacking board, per cell: the pieces there, kept sorted by code (a stack has no
    /// order in the game, so equal stacks compare and hash equal); `cells` then holds the
    /// first of them. Empty on other boards.
    pub(crate) stacks: Vec<Vec<Piece>>,
    /// On a stacking board: pieces captured by the moves of `history`, for unmaking.
    pub(crate) captured: Vec<Piece>,
    /// On a board with locations between cells, per cell: the location of the piece covering
    /// it ([`NO_ANCHOR`] when none). `cells` holds that piece on each covered cell too, so that
    /// it blocks, is captured and attacks there; `occupied` and the hash count it once, at its
    /// location. Empty on other boards.
    pub(crate) anchor: Vec<CellId>,
    pub(crate) history: Vec<Undo>,
    /// Hashes of earlier positions, for repetition.
    pub(crate) hashes: Vec<u64>,
    /// With owned squares, per cell: 0 for an unowned square (or none), else 1 + the owner.
    pub(crate) owner: Vec<u8>,
    /// Per player: squares in reserve ([`UNLIMITED`] for an endless supply).
    pub(crate) reserve: Vec<u32>,
    /// Squares the side to move may not move (touched by the opponent's last turn).
    pub(crate) frozen: SquareMarks,
    /// Squares the side to move has touched this turn (untouchable for the next player).
    pub(crate) touched: SquareMarks,
    /// The action slot of the turn the next action fills (0 at the start of a turn).
    pub(crate) slot: u8,
    /// Square play: the extra undo records, one per move.
    pub(crate) square_history: Vec<SquareUndo>,
    /// Program play, per cell: the attribute bits of the piece there (empty without attributes).
    pub(crate) attrs: Vec<u32>,
    /// Program play, per (player, piece type): pieces in hand.
    pub(crate) hand: Vec<u32>,
    /// Program play: turns completed since the start (indexes the turn order).
    pub(crate) turn: u32,
    /// Program play: in the middle of a partial move, the piece that goes on and the type of
    /// move it continues with.
    pub(crate) partial: Option<(CellId, Option<crate::ir::MoveTypeId>)>,
    /// Program play: (cell, piece before, attributes before) of every cell the moves of
    /// `history` changed, for unmaking.
    pub(crate) prog_changes: Vec<(CellId, Piece, u32)>,
    /// Program play: the pieces the moves of `history` captured.
    pub(crate) prog_captured: Vec<Piece>,
    /// Program play: the extra undo records, one per move.
    pub(crate) prog_history: Vec<crate::program::ProgramUndo>,
}

/// In `State::reserve`: an unlimited supply of squares.
pub const UNLIMITED: u32 = u32::MAX;

impl Position {
    /// An empty board of the variant, player 0 to move.
    pub fn empty(rules: Arc<Rules>) -> Position {
        let n = rules.cell_count();
        let players = rules.player_count();
        let mut cells = vec![Piece::EMPTY; n];
        for c in &rules.variant.board.initially_empty_locations {
            cells[c.0 as usize] = Piece::HOLE;
        }
        let st = State {
            cells,
            occupied: vec![CellSet::new(n); players],
            royals: vec![CellSet::new(n); players],
            side: PlayerId(0),
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            phases: 0,
            hash: 0,
            piece_count: 0,
            stacks: if rules.has_stacks() { vec![Vec::new(); n] } else { Vec::new() },
            captured: Vec::new(),
            anchor: if rules.has_between() { vec![NO_ANCHOR; n] } else { Vec::new() },
            history: Vec::with_capacity(256),
            hashes: Vec::with_capacity(256),
            owner: if rules.owned_squares { vec![0; n] } else { Vec::new() },
            reserve: match &rules.variant.squares {
                Some(sq) => vec![sq.reserve.unwrap_or(UNLIMITED); players],
                None => vec![0; players],
            },
            frozen: SquareMarks::default(),
            touched: SquareMarks::default(),
            slot: 0,
            square_history: Vec::new(),
            attrs: match &rules.program {
                Some(pr) if pr.attributes > 0 => vec![0; n],
                _ => Vec::new(),
            },
            hand: vec![0; players * rules.variant.pieces.len()],
            turn: 0,
            partial: None,
            prog_changes: Vec::new(),
            prog_captured: Vec::new(),
            prog_history: Vec::new(),
        };
        let mut pos = Position { rules, st };
        pos.st.hash = pos.st.compute_hash(&pos.rules);
        pos
    }

    /// The variant's starting position.
    pub fn start(rules: Arc<Rules>) -> Position {
        let mut pos = Position::empty(rules.clone());
        for (cell, stack) in &rules.variant.setup.placements {
            for (player, ty) in stack {
                pos.put(*cell, rules.piece(*player, *ty));
                if let Some(pr) = &rules.program {
                    if pr.attributes > 0 {
                        pos.st.attrs[cell.0 as usize] = pr.attr_defaults[ty.0 as usize];
                    }
                }
            }
        }
        for (player, ty, n) in &rules.variant.setup.hands {
            pos.st.hand[player.0 as usize * rules.variant.pieces.len() + ty.0 as usize] += n;
        }
        pos.st.side = crate::program::turn_player(&rules, 0);
        if rules.owned_squares {
            for (cell, player) in &rules.variant.setup.square_owners {
                pos.st.owner[cell.0 as usize] = player.0 + 1;
            }
        }
        let mut castling = 0;
        for letter in &rules.variant.setup.castling_rights {
            if let Some(i) = rules.variant.castlings.iter().position(|c| c.right == *letter) {
                castling |= 1 << i;
            }
        }
        pos.set_state(castling, None, 0, 1);
        pos
    }

    /// The compiled rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The player to move.
    pub fn side_to_move(&self) -> PlayerId {
        self.st.side
    }

    /// The piece on a cell, if any; on a stack, the first of its pieces (see [`Position::pieces_at`]).
    pub fn piece_at(&self, cell: CellId) -> Option<Piece> {
        let p = self.st.cells[cell.0 as usize];
        (p != Piece::EMPTY && p != Piece::HOLE).then_some(p)
    }

    /// Every piece on a cell, in the stack's canonical order (by piece code).
    pub fn pieces_at(&self, cell: CellId) -> &[Piece] {
        self.st.pieces_at(&self.rules, cell)
    }

    /// Where the piece on `cell` stands: `cell` itself, or the location between cells from
    /// which a piece covers it.
    pub fn standing_at(&self, cell: CellId) -> CellId {
        self.st.standing_at(cell)
    }

    /// Whether the location has a square.
    pub fn has_square(&self, cell: CellId) -> bool {
        self.st.cells[cell.0 as usize] != Piece::HOLE
    }

    /// The owner of the square on a location, where squares are owned.
    pub fn square_owner(&self, cell: CellId) -> Option<PlayerId> {
        match self.st.owner.get(cell.0 as usize) {
            Some(&o) if o > 0 && self.has_square(cell) => Some(PlayerId(o - 1)),
            _ => None,
        }
    }

    /// Squares a player holds in reserve (`None`: an unlimited supply).
    pub fn reserve(&self, player: PlayerId) -> Option<u32> {
        let n = self.st.reserve[player.0 as usize];
        (n != UNLIMITED).then_some(n)
    }

    /// Squares the side to move may not move (touched by the opponent's last turn).
    pub fn untouchable_squares(&self) -> &[CellId] {
        self.st.frozen.cells()
    }

    /// Squares the side to move has touched so far this turn.
    pub fn touched_squares(&self) -> &[CellId] {
        self.st.touched.cells()
    }

    /// The index of the action of the turn that the next move fills (0 at a turn's start).
    pub fn action_index(&self) -> usize {
        self.st.slot as usize
    }

    /// Number of squares on the board.
    pub fn square_count(&self) -> usize {
        self.st.cells.iter().filter(|p| **p != Piece::HOLE).count()
    }

    /// The en-passant state, if a piece just passed cells.
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.st.ep
    }

    /// The castling rights still held, as a bit set over the variant's castlings.
    pub fn castling_rights(&self) -> u32 {
        self.st.castling
    }

    /// Half-moves since the last capture or clock-resetting move.
    pub fn halfmove_clock(&self) -> u32 {
        self.st.halfmove
    }

    /// The full-move number.
    pub fn fullmove_number(&self) -> u32 {
        self.st.fullmove
    }

    /// The Zobrist hash of everything the state holds.
    pub fn hash(&self) -> u64 {
        self.st.hash
    }

    /// Bit set of the phases that have begun.
    pub fn phases(&self) -> u32 {
        self.st.phases
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.st.piece_count
    }

    /// How many times the current position occurred before, since the last irreversible move.
    pub fn repetitions(&self) -> u32 {
        let window = self.st.halfmove as usize;
        let h = self.st.hash;
        self.st.hashes.iter().rev().take(window).filter(|x| **x == h).count() as u32
    }

    /// Number of moves made since this position was set up.
    pub fn ply(&self) -> usize {
        self.st.history.len()
    }

    /// The moves made since this position was set up, oldest first.
    pub fn moves_made(&self) -> impl Iterator<Item = Move> + '_ {
        self.st.history.iter().map(|u| u.mv)
    }

    /// Puts a piece on a cell (setup only; [`Position::set_state`] rehashes).
    pub(crate) fn put(&mut self, cell: CellId, piece: Piece) {
        self.st.add(&self.rules, cell, piece);
        self.st.piece_count += 1;
    }

    pub(crate) fn set_side(&mut self, side: PlayerId) {
        self.st.side = side;
    }

    pub(crate) fn set_hole(&mut self, cell: CellId) {
        self.st.cells[cell.0 as usize] = Piece::HOLE;
    }

    /// Sets the owner of a square (setup only).
    pub(crate) fn set_owner(&mut self, cell: CellId, player: Option<PlayerId>) {
        if let Some(o) = self.st.owner.get_mut(cell.0 as usize) {
            *o = player.map(|p| p.0 + 1).unwrap_or(0);
        }
    }

    /// Sets the square-play state (setup only; [`Position::set_state`] rehashes).
    pub(crate) fn set_square_state(&mut self, reserve: Vec<u32>, frozen: SquareMarks, slot: u8, touched: SquareMarks) {
        self.st.reserve = reserve;
        self.st.frozen = frozen;
        self.st.slot = slot;
        self.st.touched = touched;
    }

    /// Sets rights and clocks, then derives phases and the hash (setup only).
    pub(crate) fn set_state(&mut self, castling: u32, ep: Option<EnPassant>, halfmove: u32, fullmove: u32) {
        self.st.castling = castling;
        self.st.ep = ep;
        self.st.halfmove = halfmove;
        self.st.fullmove = fullmove;
        self.st.phases = 0;
        self.st.update_phases(&self.rules);
        self.st.hash = self.st.compute_hash(&self.rules);
    }

    /// Computes the hash from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        self.st.compute_hash(&self.rules)
    }

    /// Plays a move without checking that it is legal. Take it back with [`Position::unmake`].
    pub fn make(&mut self, mv: Move) {
        self.st.make(&self.rules, mv);
    }

    /// Takes back the last move made with [`Position::make`].
    pub fn unmake(&mut self) {
        self.st.unmake(&self.rules);
    }

    /// The cells holding pieces of `player`.
    pub fn occupied_by(&self, player: PlayerId) -> &CellSet {
        &self.st.occupied[player.0 as usize]
    }

    /// The cells of a player's royal pieces.
    pub fn royal_cells(&self, player: PlayerId) -> impl Iterator<Item = CellId> + '_ {
        self.st.royal_cells(&self.rules, player)
    }

    /// Check decided by move generation alone: can a pseudo-legal move of a player other than
    /// `victim` capture a royal piece of `victim`? Slower than
    /// [`Position::in_check`], which uses attack tables; kept as an independent cross-check.
    #[doc(hidden)]
    pub fn royal_capturable_by_generation(&self, victim: PlayerId) -> bool {
        let side = victim;
        let r = &*self.rules;
        let mut probe = self.st.clone();
        let mut moves = Vec::new();
        for p in (0..r.players as u8).map(PlayerId).filter(|p| *p != side) {
            probe.side = p;
            moves.clear();
            probe.pseudo_moves(r, p, &mut moves);
            let hit = moves.iter().any(|m| {
                let at = if m.kind == MoveKind::EnPassant { CellId(m.extra) } else { m.to };
                let royal_here = |q: &Piece| r.owner(*q) == side && r.royal_code[q.0 as usize];
                m.kind != MoveKind::Castle
                    && ((m.take == Piece::ALL && self.st.pieces_at(r, at).iter().any(royal_here))
                        || (m.take != Piece::ALL && !m.take.is_empty() && royal_here(&m.take)))
            });
            if hit {
                return true;
            }
        }
        false
    }

    /// Evaluates a condition of the language for a move from and to the given cells.
    pub fn condition_holds(&self, cond: &Condition, mv: Option<(CellId, CellId)>) -> bool {
        self.st.condition_holds(&self.rules, cond, mv)
    }
}

impl State {
    pub(crate) fn compute_hash(&self, r: &Rules) -> u64 {
        let codes = r.players * r.types + 1;
        let mut h = r.z_side[self.side.0 as usize];
        for (i, p) in self.cells.iter().enumerate() {
            if r.covering && self.anchor[i] != NO_ANCHOR {
                // A covering piece is hashed once, at its location.
                continue;
            }
            if *p == Piece::HOLE {
                h ^= r.z_piece[i * codes];
            } else if r.stacking && r.is_stack_cell(CellId(i as u16)) {
                let stack = &self.stacks[i];
                for (k, q) in stack.iter().enumerate() {
                    let same_before = stack[..k].iter().filter(|x| *x == q).count();
                    h ^= r.zkey(CellId(i as u16), *q, same_before);
                }
            } else if *p != Piece::EMPTY {
                h ^= r.z_piece[i * codes + p.0 as usize];
            }
        }
        for i in 0..r.variant.castlings.len() {
            if self.castling & (1 << i) != 0 {
                h ^= r.z_castle[i];
            }
        }
        if let Some(ep) = self.ep {
            for c in ep.passed() {
                h ^= r.z_ep[c.0 as usize];
            }
        }
        for i in 0..r.variant.phases.len() {
            if self.phases & (1 << i) != 0 {
                h ^= r.z_phase[i];
            }
        }
        if r.square_play {
            for (i, o) in self.owner.iter().enumerate() {
                if *o > 0 && self.cells[i] != Piece::HOLE {
                    h ^= r.z_owner[i * r.players + *o as usize - 1];
                }
            }
            for (p, n) in self.reserve.iter().enumerate() {
                h ^= r.zreserve(PlayerId(p as u8), *n);
            }
            for c in self.frozen.cells() {
                h ^= r.z_frozen[c.0 as usize];
            }
            for c in self.touched.cells() {
                h ^= r.z_touched[c.0 as usize];
            }
            h ^= r.z_slot[self.slot as usize];
        }
        if let Some(pr) = &r.program {
            for (c, a) in self.attrs.iter().enumerate() {
                for k in 0..pr.attributes {
                    if a & (1 << k) != 0 {
                        h ^= pr.z_attr[c * pr.attributes + k];
                    }
                }
            }
            for (i, n) in self.hand.iter().enumerate() {
                h ^= pr.z_hand[i * 65 + (*n).min(64) as usize];
            }
            h ^= pr.z_turn[crate::program::turn_slot(r, self.turn)];
            if let Some((c, _)) = self.partial {
                h ^= pr.z_partial[c.0 as usize];
            }
        }
        h
    }

    /// The pieces on a cell: its stack, or the single piece of a plain cell.
    pub(crate) fn pieces_at<'a>(&'a self, r: &Rules, cell: CellId) -> &'a [Piece] {
        let i = cell.0 as usize;
        if r.stacking && r.is_stack_cell(cell) {
            return &self.stacks[i];
        }
        let p = &self.cells[i];
        if p.is_empty() || *p == Piece::HOLE {
            &[]
        } else {
            std::slice::from_ref(p)
        }
    }

    /// How many pieces stand on a cell.
    #[inline]
    pub(crate) fn count(&self, r: &Rules, cell: CellId) -> usize {
        let p = self.cells[cell.0 as usize];
        if p.is_empty() || p == Piece::HOLE {
            0
        } else if r.stacking && r.is_stack_cell(cell) {
            self.stacks[cell.0 as usize].len()
        } else {
            1
        }
    }

    /// Adds a piece to a cell (on top of a stack cell's pieces, kept in code order).
    pub(crate) fn add(&mut self, r: &Rules, cell: CellId, p: Piece) {
        let i = cell.0 as usize;
        if !(r.stacking && r.is_stack_cell(cell)) {
            self.put_on(r, cell, p);
            return;
        }
        let stack = &mut self.stacks[i];
        let at = stack.partition_point(|q| q.0 <= p.0);
        let same = stack[..at].iter().rev().take_while(|q| **q == p).count();
        stack.insert(at, p);
        self.cells[i] = stack[0];
        self.hash ^= r.zkey(cell, p, same);
        let owner = r.owner(p).0 as usize;
        self.occupied[owner].insert(cell);
        if r.royal_code[p.0 as usize] {
            self.royals[owner].insert(cell);
        }
    }

    /// Removes one piece of the given code from a cell.
    pub(crate) fn remove(&mut self, r: &Rules, cell: CellId, p: Piece) {
        let i = cell.0 as usize;
        if !(r.stacking && r.is_stack_cell(cell)) {
            self.take_off(r, cell);
            return;
        }
        let stack = &mut self.stacks[i];
        let Some(at) = stack.iter().rposition(|q| *q == p) else { return };
        stack.remove(at);
        let same = stack.iter().filter(|q| **q == p).count();
        self.cells[i] = stack.first().copied().unwrap_or(Piece::EMPTY);
        self.hash ^= r.zkey(cell, p, same);
        let owner = r.owner(p);
        if !stack.iter().any(|q| r.owner(*q) == owner) {
            self.occupied[owner.0 as usize].remove(cell);
        }
        if r.royal_code[p.0 as usize] && !stack.iter().any(|q| r.owner(*q) == owner && r.royal_code[q.0 as usize]) {
            self.royals[owner.0 as usize].remove(cell);
        }
    }

    /// Where the piece on `cell` stands: the cell, or the between location covering it.
    #[inline]
    pub(crate) fn standing_at(&self, cell: CellId) -> CellId {
        match self.anchor.get(cell.0 as usize) {
            Some(&a) if a != NO_ANCHOR => a,
            _ => cell,
        }
    }

    /// Puts a piece on a location and, for a location between cells, on every cell it covers.
    #[inline]
    fn put_on(&mut self, r: &Rules, cell: CellId, p: Piece) {
        self.drop_on(r, cell, p);
        if r.is_between(cell) {
            for &c in r.covers(cell) {
                self.cells[c.0 as usize] = p;
                self.anchor[c.0 as usize] = cell;
            }
        }
    }

    /// Takes the piece off a location and off every cell it covers.
    #[inline]
    fn take_off(&mut self, r: &Rules, cell: CellId) -> Piece {
        if r.is_between(cell) {
            for &c in r.covers(cell) {
                self.cells[c.0 as usize] = Piece::EMPTY;
                self.anchor[c.0 as usize] = NO_ANCHOR;
            }
        }
        self.lift(r, cell)
    }

    #[inline]
    pub(crate) fn lift(&mut self, r: &Rules, cell: CellId) -> Piece {
        let p = self.cells[cell.0 as usize];
        self.cells[cell.0 as usize] = Piece::EMPTY;
        let owner = r.owner(p).0 as usize;
        self.occupied[owner].remove(cell);
        if r.royal_code[p.0 as usize] {
            self.royals[owner].remove(cell);
        }
        self.hash ^= r.zkey(cell, p, 0);
        p
    }

    #[inline]
    pub(crate) fn drop_on(&mut self, r: &Rules, cell: CellId, p: Piece) {
        self.cells[cell.0 as usize] = p;
        let owner = r.owner(p).0 as usize;
        self.occupied[owner].insert(cell);
        if r.royal_code[p.0 as usize] {
            self.royals[owner].insert(cell);
        }
        self.hash ^= r.zkey(cell, p, 0);
    }

    pub(crate) fn make(&mut self, r: &Rules, mv: Move) {
        if r.program.is_some() {
            return self.make_program(r, mv);
        }
        if r.square_play {
            return self.make_square_play(r, mv);
        }
        if r.stacking {
            return self.make_stacked(r, mv);
        }
        let moved = self.cells[mv.from.0 as usize];
        let mut undo = self.begin_move(r, mv, moved);
        if mv.kind == MoveKind::Castle {
            let c = &r.variant.castlings[mv.extra as usize];
            let king = self.lift(r, c.king_from);
            let partner = self.lift(r, c.partner_from);
            self.drop_on(r, c.king_to, king);
            self.drop_on(r, c.partner_to, partner);
        } else if r.covering {
            self.carry::<true>(r, mv, &mut undo);
        } else {
            self.carry::<false>(r, mv, &mut undo);
        }
        self.finish_move(r, mv, undo);
    }

    /// The body of a move (not a castling) on a board without stacks: the capture, then the
    /// piece carried over. A piece standing between cells leaves (or is captured from) every
    /// cell it covers and covers all of its new location's; a move onto one of the mover's own
    /// covered cells captures nothing. `COVER`: the board has locations between cells (compiled
    /// twice so that other boards skip the lookups).
    #[inline]
    pub(crate) fn carry<const COVER: bool>(&mut self, r: &Rules, mv: Move, undo: &mut Undo) {
        let at = match mv.kind {
            MoveKind::EnPassant => CellId(mv.extra),
            _ if COVER => self.standing_at(mv.to),
            _ => mv.to,
        };
        if at != mv.from && !self.cells[at.0 as usize].is_empty() {
            undo.captured = self.leave::<COVER>(r, at);
            undo.captured_at = at;
            self.piece_count -= 1;
            self.halfmove = 0;
        }
        let p = self.leave::<COVER>(r, mv.from);
        let p = mv.landed(r, p);
        self.land::<COVER>(r, mv.to, p);
        if mv.kind == MoveKind::Passage {
            self.mark_passage(r, mv);
        }
    }

    /// Takes back [`State::carry`].
    #[inline]
    pub(crate) fn uncarry<const COVER: bool>(&mut self, r: &Rules, undo: &Undo) {
        self.leave::<COVER>(r, undo.mv.to);
        self.land::<COVER>(r, undo.mv.from, undo.moved);
        if !undo.captured.is_empty() {
            self.land::<COVER>(r, undo.captured_at, undo.captured);
            self.piece_count += 1;
        }
    }

    /// Takes the piece off a location: [`State::take_off`] on a board with locations between
    /// cells, else the plain [`State::lift`].
    #[inline]
    fn leave<const COVER: bool>(&mut self, r: &Rules, cell: CellId) -> Piece {
        if COVER {
            self.take_off(r, cell)
        } else {
            self.lift(r, cell)
        }
    }

    /// Puts a piece on a location: [`State::put_on`] or the plain [`State::drop_on`].
    #[inline]
    fn land<const COVER: bool>(&mut self, r: &Rules, cell: CellId, p: Piece) {
        if COVER {
            self.put_on(r, cell, p)
        } else {
            self.drop_on(r, cell, p)
        }
    }

    /// What unmaking `mv` needs of the state as it is now (nothing captured yet).
    #[inline]
    pub(crate) fn undo_record(&self, mv: Move, moved: Piece) -> Undo {
        Undo {
            mv,
            moved,
            captured: Piece::EMPTY,
            captured_at: mv.to,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            phases: self.phases,
            hash: self.hash,
            captured_n: 0,
        }
    }

    /// The common start of making a move: the undo record, the hash history, en passant
    /// cleared, the move clock.
    #[inline]
    fn begin_move(&mut self, r: &Rules, mv: Move, moved: Piece) -> Undo {
        let undo = self.undo_record(mv, moved);
        self.hashes.push(self.hash);
        self.clear_en_passant(r);
        self.halfmove += 1;
        if r.resets_clock_code[moved.0 as usize] {
            self.halfmove = 0;
        }
        undo
    }

    /// Ends any en-passant chance, keeping the hash.
    #[inline]
    pub(crate) fn clear_en_passant(&mut self, r: &Rules) {
        if let Some(ep) = self.ep.take() {
            for c in ep.passed() {
                self.hash ^= r.z_ep[c.0 as usize];
            }
        }
    }

    /// Drops the castling rights of a move that starts or ends on a castling piece's start cell.
    #[inline]
    pub(crate) fn lose_castling(&mut self, r: &Rules, mv: Move) {
        let keep = r.castle_keep[mv.from.0 as usize] & r.castle_keep[mv.to.0 as usize];
        let lost = self.castling & !keep;
        if lost != 0 {
            for (i, key) in r.z_castle.iter().enumerate() {
                if lost & (1 << i) != 0 {
                    self.hash ^= key;
                }
            }
            self.castling &= keep;
        }
    }

    /// Hands the move to the next player (the full-move number grows after the last player).
    #[inline]
    pub(crate) fn pass_turn(&mut self, r: &Rules) {
        self.hash ^= r.z_side[self.side.0 as usize];
        if self.side.0 as usize + 1 == r.players {
            self.fullmove += 1;
            self.side = PlayerId(0);
        } else {
            self.side = PlayerId(self.side.0 + 1);
        }
        self.hash ^= r.z_side[self.side.0 as usize];
    }

    /// The common end of making a move: castling rights, side to move, phases, history.
    #[inline]
    fn finish_move(&mut self, r: &Rules, mv: Move, undo: Undo) {
        self.lose_castling(r, mv);
        self.pass_turn(r);
        if !r.variant.phases.is_empty() {
            self.update_phases(r);
        }
        self.history.push(undo);
    }

    /// Makes a move on a board with stacks: the move names its piece and what it captures.
    fn make_stacked(&mut self, r: &Rules, mv: Move) {
        let moved = mv.piece;
        let mut undo = self.begin_move(r, mv, moved);
        if mv.kind == MoveKind::Castle {
            let c = &r.variant.castlings[mv.extra as usize];
            let king = self.cells[c.king_from.0 as usize];
            let partner = self.cells[c.partner_from.0 as usize];
            self.remove(r, c.king_from, king);
            self.remove(r, c.partner_from, partner);
            self.add(r, c.king_to, king);
            self.add(r, c.partner_to, partner);
            undo.captured = partner;
        } else {
            let at = if mv.kind == MoveKind::EnPassant { CellId(mv.extra) } else { mv.to };
            undo.captured_at = at;
            if mv.take == Piece::ALL {
                let side = self.side;
                let victims: Vec<Piece> =
                    self.stacks[at.0 as usize].iter().copied().filter(|q| r.owner(*q) != side).collect();
                for v in victims {
                    self.remove(r, at, v);
                    self.captured.push(v);
                    undo.captured_n += 1;
                }
            } else if !mv.take.is_empty() {
                self.remove(r, at, mv.take);
                self.captured.push(mv.take);
                undo.captured_n = 1;
            }
            if undo.captured_n > 0 {
                self.piece_count -= undo.captured_n as u32;
                self.halfmove = 0;
            }
            self.remove(r, mv.from, moved);
            let p = mv.landed(r, moved);
            self.add(r, mv.to, p);
            if mv.kind == MoveKind::Passage {
                self.mark_passage(r, mv);
            }
        }
        self.finish_move(r, mv, undo);
    }

    fn unmake_stacked(&mut self, r: &Rules, undo: Undo) {
        let mv = undo.mv;
        if mv.kind == MoveKind::Castle {
            let c = &r.variant.castlings[mv.extra as usize];
            self.remove(r, c.king_to, undo.moved);
            self.remove(r, c.partner_to, undo.captured);
            self.add(r, c.king_from, undo.moved);
            self.add(r, c.partner_from, undo.captured);
        } else {
            let landed = mv.landed(r, undo.moved);
            self.remove(r, mv.to, landed);
            self.add(r, mv.from, undo.moved);
            for _ in 0..undo.captured_n {
                if let Some(v) = self.captured.pop() {
                    self.add(r, undo.captured_at, v);
                }
            }
            self.piece_count += undo.captured_n as u32;
        }
    }

    /// Records the cells a passage move went over as capturable en passant.
    pub(crate) fn mark_passage(&mut self, r: &Rules, mv: Move) {
        let landed = mv.landed(r, mv.piece);
        let mut ep = EnPassant { cells: [mv.to; 4], len: 0, victim: mv.to, piece: landed };
        let dir = DirId(mv.extra as u8);
        let mut c = mv.from;
        while let Some(&n) = r.graph.step(c, dir).first() {
            if n == mv.to || ep.len as usize == ep.cells.len() {
                break;
            }
            ep.cells[ep.len as usize] = n;
            ep.len += 1;
            c = n;
        }
        if ep.len > 0 {
            for c in ep.passed() {
                self.hash ^= r.z_ep[c.0 as usize];
            }
            self.ep = Some(ep);
        }
    }

    pub(crate) fn unmake(&mut self, r: &Rules) {
        if r.program.is_some() {
            return self.unmake_program(r);
        }
        if r.square_play {
            return self.unmake_square_play(r);
        }
        let Some(undo) = self.history.pop() else { return };
        self.hashes.pop();
        let mv = undo.mv;
        if self.side.0 == 0 {
            self.fullmove -= 1;
            self.side = PlayerId(r.players as u8 - 1);
        } else {
            self.side = PlayerId(self.side.0 - 1);
        }
        if r.stacking {
            self.unmake_stacked(r, undo);
        } else if mv.kind == MoveKind::Castle {
            let c = &r.variant.castlings[mv.extra as usize];
            let king = self.lift(r, c.king_to);
            let partner = self.lift(r, c.partner_to);
            self.drop_on(r, c.king_from, king);
            self.drop_on(r, c.partner_from, partner);
        } else if r.covering {
            self.uncarry::<true>(r, &undo);
        } else {
            self.uncarry::<false>(r, &undo);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.phases = undo.phases;
        self.hash = undo.hash;
    }

    /// Switches on every phase whose condition now holds (phases never switch off).
    pub(crate) fn update_phases(&mut self, r: &Rules) {
        for (i, phase) in r.variant.phases.iter().enumerate() {
            if self.phases & (1 << i) == 0 && self.condition_holds(r, &phase.when, None) {
                self.phases |= 1 << i;
                self.hash ^= r.z_phase[i];
            }
        }
    }

    pub(crate) fn condition_holds(&self, r: &Rules, cond: &Condition, mv: Option<(CellId, CellId)>) -> bool {
        match cond {
            Condition::FromZone(z) => mv.is_some_and(|(f, _)| r.in_zone(*z, self.side, f)),
            Condition::ToZone(z) => mv.is_some_and(|(_, t)| r.in_zone(*z, self.side, t)),
            Condition::InPhase(p) => self.phases & (1 << p.0) != 0,
            Condition::PieceCount(op, n) => op.holds(self.piece_count, *n),
            Condition::TurnNumber(op, n) => op.holds(self.fullmove, *n),
            Condition::Not(inner) => !self.condition_holds(r, inner, mv),
        }
    }

    pub(crate) fn royal_cells<'a>(&'a self, r: &'a Rules, player: PlayerId) -> impl Iterator<Item = CellId> + 'a {
        let _ = r;
        self.royals[player.0 as usize].iter()
    }
}
