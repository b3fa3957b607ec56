//! The compiled, immutable rules of a variant: the `Rules` that `compile.rs` derives from the IR, feature by feature, and the look-ups the engine makes in its hot loops.

pub(crate) mod castles;
pub(crate) mod compile;
pub(crate) mod count_tables;
pub(crate) mod counting;
pub(crate) mod explosions;
pub(crate) mod gates;
pub(crate) mod keys;
pub(crate) mod mask_tables;
pub(crate) mod masks;
pub mod paths;
pub(crate) mod piece;
pub(crate) mod players;
pub(crate) mod programs;
pub(crate) mod sides;
pub(crate) mod slow_reach;
pub(crate) mod squares;
pub(crate) mod stacks;
pub(crate) mod symbols;
pub(crate) mod threats;

use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{CellId, Occupancy, PieceTypeId, PlayerId, Variant, ZoneId};
use crate::rules::programs::ProgramRules;
use crate::tables::MoveTables;
use squares::SquarePlay;
use stacks::{Between, Stacks};

pub use crate::tables::EntryKind;
pub use piece::Piece;

/// The compiled, immutable rules of a variant, shared by every position of it.
#[derive(Debug)]
pub struct Rules {
    /// The variant these rules were compiled from.
    pub variant: Variant,
    /// The board graph.
    pub graph: Graph,
    pub(crate) players: usize,
    pub(crate) types: usize,
    pub(crate) cells: usize,
    /// The move tables (rays per player, type and cell) and the reverse probes of attacks, from
    /// declarative powers and recognised programs.
    pub(crate) tables: MoveTables,
    /// Some piece type is slow (see `slow_types`).
    pub(crate) slow_attacks: bool,
    /// Per (zone, player): membership.
    pub(crate) zone_sets: Vec<CellSet>,
    /// Some piece type is royal.
    pub(crate) has_royal: bool,
    /// The hash keys of everything a position holds but programs' fields.
    pub(crate) keys: keys::Keys,
    /// Castling: per cell, the rights lost when a move starts or ends there.
    pub(crate) castle_keep: Vec<u32>,
    /// The castlings played: the fixed ones, then those derived from start cells taken from
    /// the position (`Move::extra` of a castling indexes these).
    pub(crate) castles: crate::rules::castles::CastleRules,
    /// Per piece code and per piece type: what the hot loops look up of a piece.
    pub(crate) pieces: Pieces,
    /// Who plays: teams, players with turns.
    pub(crate) sides: sides::Sides,
    /// Piece types that keep apart, with, per cell, the cells within their distance.
    pub(crate) apart: Vec<(PieceTypeId, Vec<CellSet>)>,
    /// Cells that hold stacks, with their occupancy rules.
    pub(crate) stacks: Stacks,
    /// Locations between cells, and the cells each covers.
    pub(crate) between: Between,
    /// Squares as game objects and turns of several actions.
    pub(crate) squares: SquarePlay,
    /// Programs that are not atoms, drops, attributes, hands, goals, a turn order or
    /// priorities.
    pub(crate) program: Option<Box<ProgramRules>>,
    /// Per piece type: it has programs that are not atoms.
    pub(crate) programmed_types: Vec<bool>,
    /// The fast paths these rules allow (`paths.rs`).
    pub(crate) paths: crate::paths::Paths,
    /// Captures that explode, if any type's do (then every make takes the general path and
    /// legality is tested by making the move).
    pub(crate) explosions: Option<crate::rules::explosions::Explosions>,
    /// The castling and gating rights (bits of `State::castling`) and the cells gates serve.
    pub(crate) gates: crate::rules::gates::GateRules,
    /// Whether and how the last perft ply is counted by ray walks (`count.rs`).
    pub(crate) count: counting::CountRules,
    /// Per (attacking player, cell): the slow pieces' entries whose rays hold the cell (none
    /// where stacks, covering pieces or the index's size rule it out).
    pub(crate) slow_reach: Option<slow_reach::SlowReach>,
    /// What the end rules read of a position beyond its moves: checks, counts, `before` tests.
    pub(crate) ends: Ends,
    /// Some piece type goes to the capturer's hand when captured (`captured-to-hand`).
    pub(crate) captures_to_hand: bool,
    /// Every move of the game captures (see [`Rules::every_move_captures`]).
    pub(crate) every_move_captures: bool,
}

impl Rules {
    /// Whether these are the reference's rules (see [`Rules::reference`]).
    pub fn is_reference(&self) -> bool {
        self.paths.generated_checks()
    }

    /// The names of the fast paths these rules allow, for reports and tests.
    pub fn fast_paths(&self) -> Vec<String> {
        self.paths.allowed().map(|p| format!("{p:?}")).collect()
    }

    /// The piece code of a player's piece type.
    #[inline]
    pub fn piece(&self, player: PlayerId, ty: PieceTypeId) -> Piece {
        Piece(1 + ty.0 as u16 * self.players as u16 + player.0 as u16)
    }

    /// The owner of a (non-empty) piece code.
    #[inline]
    pub fn owner(&self, piece: Piece) -> PlayerId {
        PlayerId(self.pieces.owner_of[piece.0 as usize])
    }

    /// The type of a (non-empty) piece code.
    #[inline]
    pub fn type_of(&self, piece: Piece) -> PieceTypeId {
        PieceTypeId(self.pieces.type_of[piece.0 as usize])
    }

    /// Whether `cell` is in `zone` for `player`.
    #[inline]
    pub fn in_zone(&self, zone: ZoneId, player: PlayerId, cell: CellId) -> bool {
        self.zone_sets[zone.0 as usize * self.players + player.0 as usize].contains(cell)
    }

    /// The `promote` rule that applies to a piece: its type's first that reaches its owner.
    pub(crate) fn promotion_of(&self, piece: Piece) -> Option<&crate::ir::Promotion> {
        self.variant.pieces[self.type_of(piece).0 as usize].promotion_for(&self.variant.zones, self.owner(piece))
    }

    /// Whether a move of `player` from `from` to `to` may promote by this promotion: it ends in
    /// the zone, or starts in its `from` zone.
    #[inline]
    pub fn promotes(&self, p: &crate::ir::Promotion, player: PlayerId, from: CellId, to: CellId) -> bool {
        self.in_zone(p.zone, player, to) || p.from_zone.is_some_and(|z| self.in_zone(z, player, from))
    }

    /// Whether a move of a piece of type `ty` by the entry's promotion `promo` may land as a
    /// type that is royal where `ty` is not, or the other way: its safety is the landed piece's,
    /// so such moves are tried, never counted as an unpinned piece's.
    pub(crate) fn crowns_or_uncrowns(&self, ty: usize, promo: u16) -> bool {
        let royal = |t: usize| self.variant.pieces[t].royal;
        promo != crate::tables::NO_PROMOTION
            && self.tables.promotions[promo as usize].choices.iter().any(|c| royal(c.0 as usize) != royal(ty))
    }

    /// Whether a promoting move of `player` to `to` must promote (no unpromoted choice).
    #[inline]
    pub fn must_promote(&self, p: &crate::ir::Promotion, player: PlayerId, to: CellId) -> bool {
        p.mandatory || p.forced_zone.is_some_and(|z| self.in_zone(z, player, to))
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells
    }

    /// Number of piece attributes.
    pub fn attributes(&self) -> usize {
        self.program.as_ref().map_or(0, |p| p.attributes)
    }

    /// The attribute bits a new piece of the type carries.
    #[inline]
    pub(crate) fn attr_default(&self, ty: PieceTypeId) -> u64 {
        self.pieces.attr_defaults.get(ty.0 as usize).copied().unwrap_or(0)
    }

    /// A castling by its index (`Move::extra` of a castling move).
    pub fn castling(&self, i: u16) -> &crate::ir::Castling {
        &self.castles.list[i as usize]
    }

    /// The name of a cell.
    pub fn cell_name(&self, cell: CellId) -> &str {
        &self.variant.board.cells[cell.0 as usize].name
    }

    /// Looks up a cell by name.
    pub fn cell_by_name(&self, name: &str) -> Option<CellId> {
        self.variant.board.cells.iter().position(|c| c.name == name).map(|i| CellId(i as u16))
    }

    /// Players have hands: pieces are dropped, captured to hand or given in hand at the start.
    pub fn has_hands(&self) -> bool {
        let v = &self.variant;
        self.program.is_some()
            && (v.pieces.iter().any(|p| !p.drops.is_empty() || p.to_hand.is_some()) || !v.setup.hands.is_empty())
    }

    /// How UCI (as Fairy-Stockfish writes it) names a promotion of a piece of type `mover` to
    /// type `t`: `+` for a type marked `+` (shogi's `e4e5+`), `-` for a piece marked `+` turning
    /// into an unmarked type (kyotoshogi's `a1a2-`), else the letter in lower case (`e7e8q`).
    pub fn uci_promotion(&self, mover: PieceTypeId, t: PieceTypeId) -> String {
        let p = &self.variant.pieces[t.0 as usize];
        let from = &self.variant.pieces[mover.0 as usize];
        if p.mark == Some('+') {
            "+".to_string()
        } else if from.mark == Some('+') {
            "-".to_string()
        } else {
            p.letter.to_ascii_lowercase().to_string()
        }
    }

    /// Some piece type is marked `+` or `~` (position strings then read symbols, not letters).
    pub fn has_marks(&self) -> bool {
        self.variant.pieces.iter().any(|p| p.mark.is_some())
    }

    /// The occupancy rules of a cell while the given phases are on.
    #[inline]
    pub fn occupancy(&self, cell: CellId, phases: u32) -> Occupancy {
        let k = self.stacks.kind[cell.0 as usize];
        if k == 0 {
            return Occupancy::default();
        }
        let (base, by_phase) = &self.stacks.occupancies[k as usize - 1];
        let mut o = *base;
        for (p, x) in by_phase {
            if phases & (1 << p.0) != 0 {
                o = *x;
            }
        }
        o
    }

    /// The most pieces a cell may ever hold, in any phase (`None`: no limit).
    pub fn most_pieces(&self, cell: CellId) -> Option<u8> {
        let k = self.stacks.kind[cell.0 as usize];
        if k == 0 {
            return Some(1);
        }
        let (base, by_phase) = &self.stacks.occupancies[k as usize - 1];
        let mut most = base.capacity;
        for (_, o) in by_phase {
            most = match (most, o.capacity) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
        most
    }

    /// Whether the cell keeps a stack (its zone has occupancy rules).
    #[inline]
    pub fn is_stack_cell(&self, cell: CellId) -> bool {
        self.stacks.kind[cell.0 as usize] != 0
    }

    /// The cells a location between cells covers (empty for an ordinary cell).
    #[inline]
    pub fn covers(&self, cell: CellId) -> &[CellId] {
        &self.variant.board.cells[cell.0 as usize].covers
    }

    /// The cells a location between cells covers, from the fixed arrays where they are built
    /// (possibly with the first repeated: for tests of every cell, not for counting them).
    #[inline(always)]
    pub(crate) fn covered_cells(&self, cell: CellId) -> &[CellId] {
        self.between.covers.get(cell.0 as usize).map_or(self.covers(cell), |c| &c[..])
    }

    /// Whether the location stands between cells (a piece there covers several).
    #[inline]
    pub fn is_between(&self, cell: CellId) -> bool {
        self.between.on && self.between.cells[cell.0 as usize]
    }

    /// Whether any location of the variant stands between cells.
    pub fn has_between(&self) -> bool {
        self.between.on
    }

    /// Whether squares are game objects here, or turns have several actions.
    pub fn has_square_play(&self) -> bool {
        self.squares.play
    }

    /// Whether any cell of the variant may hold several pieces.
    pub fn has_stacks(&self) -> bool {
        self.stacks.on
    }

    /// Whether the last ply's count reads this board of stacks from the ray masks (for tests).
    #[cfg(feature = "test-hooks")]
    pub fn counts_stacks(&self) -> bool {
        self.count.stacked
    }

    /// Whether every move of the game captures: each piece power is `capture-only`, and there
    /// are no programs, drops, hands, castlings, gates, square actions or passes that could
    /// make a quiet move. The search reads it to bound its quiescence, which follows captures
    /// and would otherwise search the whole tree.
    pub fn every_move_captures(&self) -> bool {
        self.every_move_captures
    }

    /// How many of the piece types' programs run as compiled atoms, and how many are run
    /// instruction by instruction (for reports and benchmarks).
    pub fn program_counts(&self) -> (usize, usize) {
        let total: usize = self.variant.pieces.iter().map(|p| p.programs.len()).sum();
        let interpreted = self.program.as_ref().map_or(0, |p| p.codes.iter().map(|c| c.len()).sum());
        (total - interpreted, interpreted)
    }

    /// Whether the analysis of where move programs may capture ran out of its budget
    /// (a million abstract states for the variant): the programs left are then
    /// run from every cell holding their piece in every attack test, which is slower (`varia
    /// check` warns of it).
    pub fn program_reach_cut(&self) -> bool {
        self.program.as_ref().is_some_and(|p| p.reach_cut)
    }

    /// The hash key of a player's reserve size (none for an unlimited supply).
    #[inline]
    pub(crate) fn zreserve(&self, player: PlayerId, n: u32) -> u64 {
        if n == u32::MAX {
            return 0;
        }
        self.keys.reserve[player.0 as usize * 65 + n.min(64) as usize]
    }

    /// The hash key of a location without a square.
    #[inline]
    pub(crate) fn zhole(&self, cell: CellId) -> u64 {
        self.keys.piece[cell.0 as usize * (self.players * self.types + 1)]
    }

    /// The hash key of a square's owner.
    #[inline]
    pub(crate) fn zowner(&self, cell: CellId, owner: u8) -> u64 {
        if owner == 0 {
            return 0;
        }
        self.keys.owner[cell.0 as usize * self.players + owner as usize - 1]
    }

    /// The hash key of the `k`-th piece of one code on a cell (k = 0 for the first).
    #[inline]
    pub(crate) fn zkey(&self, cell: CellId, piece: Piece, k: usize) -> u64 {
        let codes = self.players * self.types + 1;
        let base = self.keys.piece[cell.0 as usize * codes + piece.0 as usize];
        if k == 0 {
            return base;
        }
        let mut s = base ^ (k as u64).wrapping_mul(0xA24B_AED4_963E_E407);
        keys::splitmix(&mut s)
    }

    #[inline]
    pub(crate) fn entries_for(&self, player: PlayerId, ty: PieceTypeId, cell: CellId) -> (usize, usize, bool) {
        let i = (player.0 as usize * self.types + ty.0 as usize) * self.cells + cell.0 as usize;
        (self.tables.entry_index[i] as usize, self.tables.entry_index[i + 1] as usize, self.tables.entry_dedup[i])
    }

    /// Whether a piece of type `ty` attacks from probe cell `k`.
    #[inline]
    pub(crate) fn probe_has(&self, k: usize, ty: PieceTypeId) -> bool {
        let t = ty.0 as usize;
        self.tables.probe_masks[k * self.tables.type_words + (t >> 6)] & (1 << (t & 63)) != 0
    }
}

/// Per piece code and per piece type: what the hot loops look up of a piece.
#[derive(Debug)]
pub(crate) struct Pieces {
    /// Per piece code: owner and type (lookups instead of divisions in the hot loops).
    pub(crate) owner_of: Vec<u8>,
    pub(crate) type_of: Vec<u8>,
    /// Per piece code: the piece is royal.
    pub(crate) royal_code: Vec<bool>,
    /// Per piece code: moving it resets the move clock.
    pub(crate) resets_clock_code: Vec<bool>,
    /// Per piece type: a drop of it may not checkmate.
    pub(crate) no_drop_checkmate: Vec<bool>,
    /// Some piece type is `held-by-check`.
    pub(crate) held_by_check: bool,
    /// Per piece type, which of its actions may not give check (`no-check`, ir bits); empty
    /// when no piece has the rule.
    pub(crate) no_check: Vec<u8>,
    /// Per (player, piece type): the pieces the setup gives (for `captured-only` promotions).
    pub(crate) setup_counts: Vec<u32>,
    /// Per piece type: the attribute bits a new piece carries.
    pub(crate) attr_defaults: Vec<u64>,
}

/// What the end rules read of a position beyond its moves.
#[derive(Debug)]
pub(crate) struct Ends {
    /// A goal counts the checks each player gives (`checks-given`).
    pub(crate) counts_checks: bool,
    /// The variant has counting rules (`counting N: ...`).
    pub(crate) counting: bool,
    /// The `before(...)` tests of goals and `forbid` rules (see `game/goals.rs`).
    pub(crate) before_tests: Vec<(u8, crate::ir::GoalTest)>,
    /// The `before(...)` tests read only what a position's hash covers, and the `streak(...)`
    /// tests only that and the values kept with the last move (their values may be kept by
    /// hash and those values).
    pub(crate) before_cacheable: bool,
}
