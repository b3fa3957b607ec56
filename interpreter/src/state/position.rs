//! The game state (pieces, squares, hands, rights, clocks, phases, the turn) and its accessors, and the undo records of moves made.

use std::sync::Arc;

use crate::bitset::CellSet;
use crate::ir::{CellId, Condition, MoveTypeId, PieceTypeId, PlayerId};
pub(crate) use crate::move_types::SquareUndo;
pub use crate::move_types::{EnPassant, Move, MoveKind, SquareMarks};
use crate::rules::{Piece, Rules};

/// In `State::anchor`: no piece covers the cell from between cells.
pub(crate) const NO_ANCHOR: CellId = CellId(u16::MAX);

/// Everything needed to take a move back. The board changes of a move made by the general
/// path are in `State::log` from `log` on; a move of the plain path (a board without stacks,
/// squares or attributes) records its one capture here.
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
    /// Made by the general path: unmade from the log.
    pub(crate) general: bool,
    /// Length of `State::log` before the move.
    pub(crate) log: u32,
    pub(crate) piece_count: u32,
    pub(crate) side: PlayerId,
    pub(crate) fullmove: u32,
    pub(crate) turn: u32,
    pub(crate) slot: u8,
    pub(crate) partial: Option<(CellId, Option<MoveTypeId>)>,
    pub(crate) parts: u8,
    /// The variant's `before(...)` tests in the position before the move, one bit per (test,
    /// player).
    pub(crate) before: u64,
    /// The players out of the game before the move.
    pub(crate) out: u32,
}

/// One board change of the general path, with what unmaking it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Logged {
    /// A piece was put on the cell; the cell's attributes before.
    Put(CellId, Piece, u64),
    /// A piece was taken off the cell, with its attributes; `true`: it was captured.
    Took(CellId, Piece, u64, bool),
    /// The square's owner before (0: none, else 1 + player).
    Owner(CellId, u8),
    /// The location had a square before (`true`) or not.
    Square(CellId, bool),
    /// The attributes of the piece on the cell before.
    Attrs(CellId, u64),
    /// A hand count (index player * types + type) before.
    Hand(u32, u32),
    /// A player's reserve of squares before.
    Reserve(PlayerId, u32),
    /// A choice slot (choice × players + player) before: 0 for not made, else 1 + option.
    Choice(u16, u8),
    /// A blast begins: what follows it in the move's log is the blast's work.
    Blast,
}

/// A position of a variant: the board, whose turn it is, rights, clocks and history.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) rules: Arc<Rules>,
    pub(crate) st: State,
    /// Legal moves walked and tested one by one, never made from the ray masks (a cross-check
    /// for tests, see [`Position::legal_moves_by_walk`]).
    pub(crate) walk_only: bool,
    /// A drop that must not checkmate is taken as illegal without asking whether it mates:
    /// set while looking for a reply that needs no such question (see `Position::checkmates`).
    pub(crate) mate_tests_deferred: bool,
    /// What was last learnt of the side to move's royal pieces, for the position it was
    /// learnt in (see [`Position::in_check_learnt`]).
    pub(crate) royal_memo: crate::royal_memo::RoyalMemo,
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
    /// The castling and en passant rights.
    pub(crate) rights: Rights,
    /// The move clocks, and the checks given and the running count of a counting rule.
    pub(crate) clocks: Clocks,
    /// Bit i: phase i has begun.
    pub(crate) phases: u32,
    pub(crate) hash: u64,
    /// Number of pieces on the board.
    pub(crate) piece_count: u32,
    /// On a stacking board, per cell: the pieces there, kept sorted by code (a stack has no
    /// order in the game, so equal stacks compare and hash equal); `cells` then holds the
    /// first of them. Empty on other boards.
    pub(crate) stacks: Vec<Vec<Piece>>,
    /// On a stacking board, the cells of two pieces or more (read by the count's masks).
    pub(crate) crowds: CellSet,
    /// On a board with locations between cells, per cell: the location of the piece covering
    /// it ([`NO_ANCHOR`] when none). `cells` holds that piece on each covered cell too, so that
    /// it blocks, is captured and attacks there; `occupied` and the hash count it once, at its
    /// location. Empty on other boards.
    pub(crate) anchor: Vec<CellId>,
    pub(crate) history: Vec<Undo>,
    /// Hashes of earlier positions, for repetition.
    pub(crate) hashes: Vec<u64>,
    /// Board changes of the moves of `history` made by the general path.
    pub(crate) log: Vec<Logged>,
    /// Square play: owners, reserves, the marks of touched squares and their history.
    pub(crate) squares: SquareState,
    /// The action slot of the turn the next action fills (0 at the start of a turn).
    pub(crate) slot: u8,
    /// Per cell: the attribute bits of the piece there (empty without attributes).
    pub(crate) attrs: Vec<u64>,
    /// Per (player, piece type): pieces in hand.
    pub(crate) hand: Vec<u32>,
    /// Turns completed since the start (indexes the turn order).
    pub(crate) turn: u32,
    /// In the middle of a partial move: the piece that goes on and the type of move it
    /// continues with.
    pub(crate) partial: Option<(CellId, Option<MoveTypeId>)>,
    /// With a partial move going on: the actions its turn has had (at most
    /// [`crate::limits::TURN_PARTS`]); 0 otherwise.
    pub(crate) parts: u8,
    /// The move made before the first of `history`, as a position string gives it (`last=`).
    pub(crate) prior: Option<Move>,
    /// The locations without a square (where `cells` holds [`Piece::HOLE`]), for the counts
    /// by bit sets, where they block rays as pieces do.
    pub(crate) no_square: CellSet,
    /// Answers kept for the position they were computed in.
    pub(crate) memos: Memos,
    /// Per (choice, player): 0 while the choice is not made, else 1 + the option (empty in
    /// games without choices).
    pub(crate) choices: Vec<u8>,
    /// In a game of more than two players, bit p: player p has lost and is out of the game.
    pub(crate) out: u32,
    /// The evaluation's piece-square sums, where a search attached its table.
    pub(crate) tally: Option<Box<Tally>>,
    /// A player's moves are being generated only to see what they take (the plain reference's
    /// replies, attacks found by generation): `if in-check` (on move-only powers, which take
    /// nothing) is not asked, which would ask for that player's attackers in turn.
    pub(crate) judging_replies: bool,
}

/// The rights a move may end: castlings still allowed and the en passant chance.
#[derive(Clone, Debug)]
pub(crate) struct Rights {
    /// Bit i: castling i is still allowed.
    pub(crate) castling: u32,
    pub(crate) ep: Option<EnPassant>,
}

/// The clocks and counts the end of the game reads: the move clocks, the checks given and a
/// counting rule's running count.
#[derive(Clone, Debug)]
pub(crate) struct Clocks {
    /// Half-moves (turns, where a turn has several actions) since the last capture or
    /// clock-resetting move.
    pub(crate) halfmove: u32,
    /// Full-move number, starting at 1.
    pub(crate) fullmove: u32,
    /// Per player: checks given, where a goal counts them (empty otherwise).
    pub(crate) checks: Vec<u32>,
    /// A running count of a counting rule, in half-moves: its limit (0: none runs) and how
    /// far it has gone; with the counts before each move made (`counters.rs`).
    pub(crate) count: (u32, u32),
    pub(crate) count_history: Vec<(u32, u32)>,
}

/// Square play: who owns each square, the reserves of squares, and the marks of squares
/// touched.
#[derive(Clone, Debug)]
pub(crate) struct SquareState {
    /// With owned squares, per cell: 0 for an unowned square (or none), else 1 + the owner.
    pub(crate) owner: Vec<u8>,
    /// Per player: squares in reserve ([`UNLIMITED`] for an endless supply).
    pub(crate) reserve: Vec<u32>,
    /// Squares the side to move may not move (touched by the opponent's last turn).
    pub(crate) frozen: SquareMarks,
    /// Squares the side to move has touched this turn (untouchable for the next player).
    pub(crate) touched: SquareMarks,
    /// Square play: the squares' marks before each move.
    pub(crate) square_history: Vec<SquareUndo>,
}

/// Answers computed for one position, kept with what identifies it.
#[derive(Clone, Debug)]
pub(crate) struct Memos {
    /// The `before(...)` and `streak(...)` test values last computed, with the hash of their
    /// position and the values kept with the move that led to it (only where the tests read
    /// nothing else, see `goals.rs`).
    pub(crate) before_cache: Option<(u64, u64, u64)>,
    /// The last [`State::openings_to_royals`] with its position's hash, moves made and side:
    /// the make of an action that may end a turn asks it, then the count or the generation at
    /// the position made.
    pub(crate) openings_memo: Option<(u64, u32, PlayerId, Option<crate::royal_memo::Pins>)>,
}

/// A piece-square table attached by a search: per (piece code, cell), a piece's [middle game,
/// end game, material, key low, key high] terms there, and per player their sums over its
/// pieces on the board (wrapping), kept as pieces come and go (`board.rs`) so that the
/// evaluation need not visit every piece. The key words sum to a key of the pieces the table
/// gives keys (the evaluation's promoting pieces), which its cache of their terms reads.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    pub(crate) table: Arc<Vec<[i32; TALLIED]>>,
    pub(crate) sums: Vec<[i32; TALLIED]>,
}

/// The entries of a [`Tally`] table per (piece code, cell).
pub(crate) const TALLIED: usize = 5;

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
            rights: Rights { castling: 0, ep: None },
            clocks: Clocks {
                halfmove: 0,
                fullmove: 1,
                checks: if rules.ends.counts_checks { vec![0; players] } else { Vec::new() },
                count: (0, 0),
                count_history: Vec::new(),
            },
            phases: 0,
            hash: 0,
            piece_count: 0,
            stacks: if rules.has_stacks() { vec![Vec::new(); n] } else { Vec::new() },
            crowds: CellSet::new(n),
            anchor: if rules.has_between() { vec![NO_ANCHOR; n] } else { Vec::new() },
            history: Vec::with_capacity(256),
            hashes: Vec::with_capacity(256),
            log: Vec::new(),
            squares: SquareState {
                owner: if rules.squares.owned { vec![0; n] } else { Vec::new() },
                reserve: match &rules.variant.squares {
                    Some(sq) => vec![sq.reserve.unwrap_or(UNLIMITED); players],
                    None => vec![0; players],
                },
                frozen: SquareMarks::default(),
                touched: SquareMarks::default(),
                square_history: Vec::new(),
            },
            slot: 0,
            attrs: if rules.attributes() > 0 { vec![0; n] } else { Vec::new() },
            hand: vec![0; players * rules.variant.pieces.len()],
            turn: 0,
            partial: None,
            parts: 0,
            prior: None,
            no_square: {
                let mut set = CellSet::new(n);
                for c in &rules.variant.board.initially_empty_locations {
                    set.insert(*c);
                }
                set
            },
            memos: Memos { before_cache: None, openings_memo: None },
            choices: vec![0; rules.variant.choices.len() * players],
            out: 0,
            tally: None,
            judging_replies: false,
        };
        let mut pos = Position {
            rules,
            st,
            walk_only: false,
            mate_tests_deferred: false,
            royal_memo: crate::royal_memo::RoyalMemo::NONE,
        };
        pos.st.side = pos.st.turn_player(&pos.rules, 0);
        pos.st.hash = pos.st.compute_hash(&pos.rules);
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
        match self.st.squares.owner.get(cell.0 as usize) {
            Some(&o) if o > 0 && self.has_square(cell) => Some(PlayerId(o - 1)),
            _ => None,
        }
    }

    /// Squares a player holds in reserve (`None`: an unlimited supply).
    pub fn reserve(&self, player: PlayerId) -> Option<u32> {
        let n = self.st.squares.reserve[player.0 as usize];
        (n != UNLIMITED).then_some(n)
    }

    /// Squares the side to move may not move (touched by the opponent's last turn).
    pub fn untouchable_squares(&self) -> &[CellId] {
        self.st.squares.frozen.cells()
    }

    /// Squares the side to move has touched so far this turn.
    pub fn touched_squares(&self) -> &[CellId] {
        self.st.squares.touched.cells()
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
        self.st.rights.ep
    }

    /// The castling rights still held, as a bit set over the variant's castlings.
    pub fn castling_rights(&self) -> u32 {
        self.st.rights.castling
    }

    /// Half-moves since the last capture or clock-resetting move.
    pub fn halfmove_clock(&self) -> u32 {
        self.st.clocks.halfmove
    }

    /// The full-move number.
    pub fn fullmove_number(&self) -> u32 {
        self.st.clocks.fullmove
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
        let window = self.repetition_window();
        let h = self.st.hash;
        self.st.hashes.iter().rev().take(window).filter(|x| **x == h).count() as u32
    }

    /// How many earlier positions a repetition may look back on: those since the last capture
    /// or clock-resetting move, or every one where captured pieces go to hand (a capture is
    /// then no step that cannot be undone).
    pub(crate) fn repetition_window(&self) -> usize {
        if self.rules.captures_to_hand {
            self.st.hashes.len()
        } else {
            self.st.clocks.halfmove as usize
        }
    }

    /// Number of moves made since this position was set up.
    pub fn ply(&self) -> usize {
        self.st.history.len()
    }

    /// The moves made since this position was set up, oldest first.
    pub fn moves_made(&self) -> impl Iterator<Item = Move> + '_ {
        self.st.history.iter().map(|u| u.mv)
    }

    /// Turns completed since the position was set up (with the number given by a position
    /// string's `turn=`).
    pub fn turn_number(&self) -> u32 {
        self.st.turn
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
        self.st.no_square.insert(cell);
    }

    /// Sets the owner of a square (setup only).
    pub(crate) fn set_owner(&mut self, cell: CellId, player: Option<PlayerId>) {
        if let Some(o) = self.st.squares.owner.get_mut(cell.0 as usize) {
            *o = player.map(|p| p.0 + 1).unwrap_or(0);
        }
    }

    /// Sets the square-play state (setup only; [`Position::set_state`] rehashes).
    pub(crate) fn set_square_state(&mut self, reserve: Vec<u32>, frozen: SquareMarks, slot: u8, touched: SquareMarks) {
        self.st.squares.reserve = reserve;
        self.st.squares.frozen = frozen;
        self.st.slot = slot;
        self.st.squares.touched = touched;
    }

    /// Sets rights and clocks, then derives phases and the hash (setup only).
    pub(crate) fn set_state(&mut self, castling: u32, ep: Option<EnPassant>, halfmove: u32, fullmove: u32) {
        self.st.rights.castling = castling;
        self.st.rights.ep = ep;
        self.st.clocks.halfmove = halfmove;
        self.st.clocks.fullmove = fullmove;
        self.st.phases = 0;
        self.st.update_phases(&self.rules);
        self.st.hash = self.st.compute_hash(&self.rules);
    }

    /// Attaches a piece-square table (see [`Tally`]): from now on the board keeps its sums.
    pub(crate) fn attach_tally(&mut self, table: Arc<Vec<[i32; TALLIED]>>) {
        let sums = self.tally_from_scratch(&table);
        self.st.tally = Some(Box::new(Tally { table, sums }));
    }

    /// Detaches the piece-square table.
    pub(crate) fn detach_tally(&mut self) {
        self.st.tally = None;
    }

    /// The per-player sums of `table` where it is the one attached.
    #[inline]
    pub(crate) fn tally_sums(&self, table: &Arc<Vec<[i32; TALLIED]>>) -> Option<&[[i32; TALLIED]]> {
        self.st.tally.as_deref().filter(|t| Arc::ptr_eq(&t.table, table)).map(|t| t.sums.as_slice())
    }

    /// The per-player sums of a piece-square table over the pieces on the board.
    fn tally_from_scratch(&self, table: &[[i32; TALLIED]]) -> Vec<[i32; TALLIED]> {
        (0..self.rules.player_count()).map(|p| self.tally_of(table, PlayerId(p as u8))).collect()
    }

    /// One player's sums of a piece-square table (per piece code and cell) over its pieces on
    /// the board, each visited.
    pub(crate) fn tally_of(&self, table: &[[i32; TALLIED]], player: PlayerId) -> [i32; TALLIED] {
        let r = &*self.rules;
        let mut sum = [0i32; TALLIED];
        for c in self.st.occupied[player.0 as usize].iter() {
            for &q in self.st.pieces_at(r, c) {
                if r.owner(q) == player {
                    let e = table.get(q.0 as usize * r.cells + c.0 as usize).copied().unwrap_or_default();
                    for k in 0..TALLIED {
                        sum[k] = sum[k].wrapping_add(e[k]);
                    }
                }
            }
        }
        sum
    }

    /// Whether the attached piece-square sums differ from those computed from scratch (they
    /// never should; for tests). `false` without a table.
    #[cfg(feature = "test-hooks")]
    pub fn piece_square_drift(&self) -> bool {
        self.st.tally.as_deref().is_some_and(|t| self.tally_from_scratch(&t.table) != t.sums)
    }

    /// Computes the hash from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        self.st.compute_hash(&self.rules)
    }

    /// Plays a move without checking that it is legal. Take it back with [`Position::unmake`].
    pub fn make(&mut self, mv: Move) {
        self.make_with(mv, true);
    }

    /// [`Position::make`]; `count`: false where the move is only being judged (legality,
    /// check) and is taken back at once, so a counting rule's count need not move.
    pub(crate) fn make_with(&mut self, mv: Move, count: bool) {
        let before = if self.rules.ends.before_tests.is_empty() { 0 } else { self.before_bits_cached() };
        self.st.make(&self.rules, mv);
        if self.rules.eliminating() {
            self.eliminate_losers();
        }
        if before != 0 {
            if let Some(u) = self.st.history.last_mut() {
                u.before = before;
            }
        }
        if self.rules.ends.counts_checks {
            self.count_check();
        }
        if count && self.rules.ends.counting {
            self.update_count();
        }
    }

    /// Takes back the last move made with [`Position::make`].
    pub fn unmake(&mut self) {
        self.unmake_with(true);
    }

    /// Takes back a move made by [`Position::make_with`] with the same `count`.
    pub(crate) fn unmake_with(&mut self, count: bool) {
        if count && self.rules.ends.counting {
            self.st.clocks.count = self.st.clocks.count_history.pop().unwrap_or_default();
        }
        if self.rules.ends.counts_checks {
            self.uncount_check();
        }
        self.st.unmake(&self.rules);
    }

    /// The cells holding pieces of `player`.
    pub fn occupied_by(&self, player: PlayerId) -> &CellSet {
        &self.st.occupied[player.0 as usize]
    }

    /// The cells of a player's royal pieces.
    pub fn royal_cells(&self, player: PlayerId) -> impl Iterator<Item = CellId> + '_ {
        self.st.royal_cells(player)
    }

    /// Check decided by move generation alone: can a pseudo-legal move of a player other than
    /// `victim` capture a royal piece of `victim`? Slower than
    /// [`Position::in_check`], which uses attack tables; kept as an independent cross-check.
    #[cfg(feature = "test-hooks")]
    pub fn royal_capturable_by_generation(&self, victim: PlayerId) -> bool {
        let side = victim;
        let r = &*self.rules;
        let mut probe = self.st.clone();
        let mut moves = Vec::new();
        for p in (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, side)) {
            probe.side = p;
            probe.partial = None;
            moves.clear();
            probe.pseudo_moves(r, p, &mut moves);
            let hit = moves.iter().any(|m| {
                let at = if m.kind == MoveKind::EnPassant { CellId(m.extra) } else { m.to };
                let royal_here = |q: &Piece| r.owner(*q) == side && r.pieces.royal_code[q.0 as usize];
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

    /// The player who made the last move, if any.
    pub fn last_mover(&self) -> Option<PlayerId> {
        self.st.history.last().map(|u| u.side)
    }

    /// The pieces the last move captured.
    pub fn last_captured(&self) -> Vec<Piece> {
        self.st.last_captured()
    }

    /// Pieces of a type a player holds in hand.
    pub fn in_hand(&self, player: PlayerId, ty: PieceTypeId) -> u32 {
        self.st.hand.get(player.0 as usize * self.rules.variant.pieces.len() + ty.0 as usize).copied().unwrap_or(0)
    }

    /// The piece types a player holds in hand, each with how many, in declaration order.
    pub fn hand(&self, player: PlayerId) -> impl Iterator<Item = (PieceTypeId, u32)> + '_ {
        (0..self.rules.variant.pieces.len())
            .map(move |t| (PieceTypeId(t as u8), self.in_hand(player, PieceTypeId(t as u8))))
            .filter(|(_, n)| *n > 0)
    }

    /// The attribute bits of the piece on a cell.
    pub fn attributes_at(&self, cell: CellId) -> u64 {
        self.st.attr_of(cell)
    }

    /// In the middle of a partial move: the cell of the piece that goes on.
    pub fn partial_move(&self) -> Option<CellId> {
        self.st.partial.map(|(c, _)| c)
    }

    /// In the middle of a partial move: the actions its turn has had (0 otherwise).
    pub fn turn_parts(&self) -> u8 {
        self.st.parts
    }
}
