//! Pseudo-legal move generation: every piece's moves from the compiled tables and its programs, castlings and drops, on plain boards, stacks and locations between cells.

use crate::ir::{CaptureRule, CellId, Condition, MoveMode, Occupancy, PieceTypeId, PlayerId, Promotion};
use crate::position::{Move, MoveKind, Position, State};
use crate::rules::programs::Only;
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, EntryKind, NO_MOVE_TYPE, NO_PROMOTION};

thread_local! {
    /// Set while moves are generated to see what they attack (`offered`).
    static ATTACKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every promotion choice offered: moves generated to see what they attack (a
/// capture that must promote attacks even with no choice left).
pub(crate) fn with_every_choice<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the flag back however `f` ends: a panic caught above (a web request's task, the
    /// fuzz's report) must not leave every later generation on this thread offering every choice.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ATTACKS.with(|a| a.set(self.0));
        }
    }
    let _restore = Restore(ATTACKS.with(|a| a.replace(true)));
    f()
}

impl State {
    /// Appends one move, or one per promotion choice when it lands in its promotion zone.
    #[inline(always)]
    pub(crate) fn push(&self, r: &Rules, promo: u16, mv: Move, out: &mut Vec<Move>) {
        debug_assert!(mv.promote == 0 && mv.seq == 0 && mv.gate == 0, "a power's move, not yet promoted");
        if promo == NO_PROMOTION {
            out.push(mv);
        } else {
            // The fields one by one: a move passed whole is written to memory before the branch
            // and the plain path copies it from there (Safety in Numbers perft 6: 5% slower).
            let Move { from, to, kind, extra, piece, take, move_type, .. } = mv;
            self.push_promotion(r, promo, [from, to], kind, extra, [piece, take], move_type, out);
        }
    }

    /// [`State::push`] for a move that may promote.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn push_promotion(
        &self,
        r: &Rules,
        promo: u16,
        [from, to]: [CellId; 2],
        kind: MoveKind,
        extra: u16,
        [piece, take]: [Piece; 2],
        move_type: u8,
        out: &mut Vec<Move>,
    ) {
        let mv = Move::by_power(from, to, piece, move_type, kind, extra, take);
        self.push_promoting(r, Some(&r.tables.promotions[promo as usize]), mv, out);
    }

    /// Whether a promotion on a move to `to` offers the choice `ty` to `player` now: always,
    /// unless it is `captured-only` and the player has as many of that type on the board as it
    /// started with, or `setup-only` and no player started with one. While moves are generated
    /// to see what they attack ([`with_every_choice`]), every such choice is offered: a capture
    /// that would have to promote attacks even when no choice is left (as a pinned piece still
    /// gives check; Fairy-Stockfish alike). On a location between cells (where a move captures
    /// nothing) only a type that may stand there is offered.
    #[inline]
    pub(crate) fn offered(&self, r: &Rules, p: &Promotion, player: PlayerId, ty: PieceTypeId, to: CellId) -> bool {
        (!r.is_between(to) || r.variant.pieces[ty.0 as usize].stands_between())
            && (((!p.captured_only || self.pieces_of(r, player, &[ty]) < self.setup_count(r, player, ty))
                && (!p.setup_only || (0..r.players as u8).any(|q| self.setup_count(r, PlayerId(q), ty) > 0)))
                || ATTACKS.with(std::cell::Cell::get))
    }

    /// Appends a move, or one per choice of the promotion it makes (and the unpromoted move
    /// where promoting is optional there).
    pub(crate) fn push_promoting(&self, r: &Rules, promotion: Option<&Promotion>, mut mv: Move, out: &mut Vec<Move>) {
        let side = self.side_of_move(r, mv);
        let Some(p) = promotion.filter(|p| r.promotes(p, side, mv.from, mv.to)) else {
            out.push(mv);
            return;
        };
        if !r.must_promote(p, side, mv.to) {
            out.push(mv);
        }
        for t in p.choices.iter().filter(|t| self.offered(r, p, side, **t, mv.to)) {
            mv.promote = t.0 + 1;
            out.push(mv);
        }
    }

    #[inline]
    fn side_of_move(&self, r: &Rules, mv: Move) -> PlayerId {
        if mv.piece.is_empty() || mv.piece == Piece::HOLE {
            self.side
        } else {
            r.owner(mv.piece)
        }
    }

    /// Generates the pseudo-legal moves of `side` (legal except for leaving a royal attacked):
    /// in the middle of a partial move only the continuing piece's, else every piece's, the
    /// castlings and the drops.
    pub(crate) fn pseudo_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let start = out.len();
        let shared = r.variant.shared_pieces;
        if let Some((cell, ty)) = self.partial {
            let only = Only::of(ty);
            for &piece in self.pieces_at(r, cell).to_vec().iter().filter(|p| shared || r.owner(**p) == side) {
                self.moves_of(r, side, cell, piece, only, out);
            }
            return;
        }
        if r.stacks.on {
            for from in self.occupied[side.0 as usize].iter() {
                let pieces = self.pieces_at(r, from);
                for (k, &piece) in pieces.iter().enumerate() {
                    // A stack is sorted, so equal pieces are neighbours: each kind moves once.
                    if r.owner(piece) != side || (k > 0 && pieces[k - 1] == piece) {
                        continue;
                    }
                    self.moves_of(r, side, from, piece, Only::ANY, out);
                }
            }
        } else if r.between.on {
            for from in self.occupied[side.0 as usize].iter() {
                self.moves_of(r, side, from, self.cells[from.0 as usize], Only::ANY, out);
            }
        } else {
            self.lone_piece_moves::<false>(r, side, out);
        }
        if shared {
            // Every other player's pieces move too, as the side's own.
            for q in (0..r.players).filter(|q| *q != side.0 as usize) {
                for from in self.occupied[q].iter() {
                    let pieces = self.pieces_at(r, from).to_vec();
                    for (k, &piece) in pieces.iter().enumerate() {
                        if r.owner(piece).0 as usize == q && (k == 0 || pieces[k - 1] != piece) {
                            self.moves_of(r, side, from, piece, Only::ANY, out);
                        }
                    }
                }
            }
        }
        self.castling_moves(r, side, out);
        if !r.variant.gates.is_empty() {
            self.add_gated(r, side, start, out);
        }
        if let Some(pr) = r.program.as_deref() {
            self.drop_moves(r, pr, side, Only::ANY, out);
        }
    }

    /// Where pieces stand alone on cells (no stacks, nothing between cells, no shared pieces,
    /// no gates, no partial move), every pseudo-legal move of `side`'s pieces that may capture
    /// or promote, in the order [`State::pseudo_moves`] gives them (a superset: the caller
    /// keeps the noisy ones), skipping moves to empty cells that can be neither, and the drops
    /// (a drop onto an enemy piece takes it); else `false` and nothing added. Quiescence asks
    /// only for these.
    pub(crate) fn pseudo_noisy_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) -> bool {
        if self.partial.is_some() || !r.paths.allows(crate::paths::Path::NoisyGeneration) {
            return false;
        }
        self.lone_piece_moves::<true>(r, side, out);
        if let Some(pr) = r.program.as_deref() {
            self.drop_moves(r, pr, side, Only::ANY, out);
        }
        true
    }

    /// The moves of `side`'s pieces, each alone on its cell, in cell order (`NOISY`: only those
    /// that may capture or promote, as [`State::pseudo_noisy_moves`]).
    fn lone_piece_moves<const NOISY: bool>(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let words = self.occupied[side.0 as usize].words();
        for (wi, &word) in words.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let from = CellId((wi as u32 * 64 + w.trailing_zeros()) as u16);
                w &= w - 1;
                self.moves_of_lone::<NOISY>(r, side, from, out);
            }
        }
    }

    /// The moves of the piece alone on `from` (no stacks; on a board with locations between
    /// cells, from any cell it covers): by its tables, then by its programs, each move once.
    #[inline]
    pub(crate) fn single_piece_moves(&self, r: &Rules, side: PlayerId, from: CellId, out: &mut Vec<Move>) {
        if r.between.on {
            self.moves_of(r, side, from, self.cells[from.0 as usize], Only::ANY, out);
        } else {
            self.moves_of_lone::<false>(r, side, from, out);
        }
    }

    /// [`State::single_piece_moves`], or (`noisy`) a superset of those that capture or promote
    /// (as [`State::pseudo_noisy_moves`]).
    #[inline]
    pub(crate) fn lone_moves(&self, r: &Rules, side: PlayerId, from: CellId, noisy: bool, out: &mut Vec<Move>) {
        if noisy {
            self.moves_of_lone::<true>(r, side, from, out);
        } else {
            self.moves_of_lone::<false>(r, side, from, out);
        }
    }

    /// [`State::single_piece_moves`], or only those that may capture or promote (`NOISY`).
    #[inline]
    fn moves_of_lone<const NOISY: bool>(&self, r: &Rules, side: PlayerId, from: CellId, out: &mut Vec<Move>) {
        let piece = self.cells[from.0 as usize];
        let first = out.len();
        self.piece_moves::<false, NOISY>(r, side, from, from, piece, Only::ANY, out);
        if r.programmed_types[r.type_of(piece).0 as usize] {
            self.program_moves(r, side, from, piece, Only::ANY, out);
            dedup_from(r, out, first);
        }
    }

    /// The moves of one piece standing on `from`: by its tables, then by its programs.
    pub(crate) fn moves_of(
        &self,
        r: &Rules,
        side: PlayerId,
        from: CellId,
        piece: Piece,
        only: Only,
        out: &mut Vec<Move>,
    ) {
        let first = out.len();
        if r.stacks.on {
            self.piece_moves_stacked(r, side, from, piece, only, out);
        } else if r.is_between(from) {
            // A piece covering several cells moves as if from each of them; every route to
            // one place is one move.
            let first = out.len();
            for &origin in r.covers(from) {
                self.piece_moves::<true, false>(r, side, from, origin, piece, only, out);
            }
            dedup_from(r, out, first);
        } else if r.between.on {
            self.piece_moves::<true, false>(r, side, from, from, piece, only, out);
        } else {
            self.piece_moves::<false, false>(r, side, from, from, piece, only, out);
        }
        if r.programmed_types[r.type_of(piece).0 as usize] {
            self.program_moves(r, side, from, piece, only, out);
            dedup_from(r, out, first);
        }
    }

    /// The moves of a piece's programs that are not atoms.
    pub(crate) fn program_moves(
        &self,
        r: &Rules,
        side: PlayerId,
        from: CellId,
        piece: Piece,
        only: Only,
        out: &mut Vec<Move>,
    ) {
        let Some(pr) = r.program.as_deref() else { return };
        let first = out.len();
        let origins: &[CellId] = if r.is_between(from) { r.covers(from) } else { &[from] };
        // Most calls start no run (each program's start cell or guard fails): told here,
        // before the set-up of the runs.
        let codes = &pr.codes[r.type_of(piece).0 as usize];
        if !codes.iter().any(|(_, code)| origins.iter().any(|&o| self.may_run(r, code, side, o))) {
            return;
        }
        self.program_moves_of(r, pr, side, from, origins, piece, only, out);
        if out.len() > first + 1 {
            dedup_from(r, out, first);
        }
    }

    /// Whether a piece moving from `mover` may stop on the between location `at`: every cell it
    /// covers is empty or the mover's own.
    #[inline(always)]
    pub(crate) fn covers_free(&self, r: &Rules, at: CellId, mover: CellId) -> bool {
        let free = |&c: &CellId| {
            let i = c.0 as usize;
            self.cells[i].is_empty() || c == mover || self.anchor[i] == mover
        };
        // The fixed array walked as one (four tests unrolled): the slice was 4% of Multiple
        // Squares perft.
        match r.between.covers.get(at.0 as usize) {
            Some(cells) => cells.iter().all(free),
            None => r.covers(at).iter().all(free),
        }
    }

    /// Whether the atom of an entry of `side`'s may move to `to` (its conditions decided
    /// during play, as `side` reads them).
    #[inline]
    fn allowed(&self, r: &Rules, e: &Entry, ty: PieceTypeId, side: PlayerId, origin: CellId, to: CellId) -> bool {
        !e.dynamic
            || r.tables.atoms[ty.0 as usize][e.atom as usize]
                .conditions
                .iter()
                .all(|c| self.power_condition_holds(r, c, (origin, to), side))
    }

    /// A power's condition for a move of `side`'s: `in-check` read here, where attacks are
    /// known, the others by the state. `in-check` is refused but on move-only powers, whose
    /// moves take nothing: it is asked only for the player to move, and not where moves are
    /// generated to see what they take (the plain reference's replies, attacks found by
    /// generation), where asking would generate the attackers' attackers, without end.
    fn power_condition_holds(&self, r: &Rules, c: &Condition, mv: (CellId, CellId), side: PlayerId) -> bool {
        match c {
            Condition::InCheck => side == self.side && !self.judging_replies && self.royal_attacked(r, side),
            Condition::Not(inner) => !self.power_condition_holds(r, inner, mv, side),
            c => self.condition_holds_for(r, c, Some(mv), side),
        }
    }

    /// The pseudo-legal moves by its tables of the piece `piece` on `from`, moving as if it
    /// stood on `origin` (the same cell, or one the piece covers from between cells). `COVER`:
    /// the board has locations between cells, which the piece's own covered cells do not block
    /// and where it may stop.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn piece_moves<const COVER: bool, const NOISY: bool>(
        &self,
        r: &Rules,
        side: PlayerId,
        from: CellId,
        origin: CellId,
        piece: Piece,
        only: Only,
        out: &mut Vec<Move>,
    ) {
        let ty = r.type_of(piece);
        let (a, b, dedup) = r.entries_for(side, ty, origin);
        let first = out.len();
        let any = only == Only::ANY;
        let mut mv = Move::by_power(from, from, piece, NO_MOVE_TYPE, MoveKind::Normal, 0, Piece::EMPTY);
        for e in &r.tables.entries[a..b] {
            if !any && !only.allows(e.move_type) {
                continue;
            }
            let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
            mv.move_type = e.move_type;
            mv.take = Piece::EMPTY;
            if e.kind == EntryKind::Lame {
                self.lame_move::<COVER, NOISY>(r, e, ty, side, from, origin, mv, out);
                continue;
            }
            let mut screened = e.kind == EntryKind::Slide;
            let mut past_screen = 0u16;
            for (i, &to) in ray.iter().enumerate() {
                let mut q = self.cells[to.0 as usize];
                if COVER {
                    if r.between.cells[to.0 as usize] {
                        // Stopping between cells never captures and never blocks the way on.
                        if to != from
                            && e.mode != MoveMode::CaptureOnly
                            && self.covers_free(r, to, from)
                            && self.allowed(r, e, ty, side, origin, to)
                        {
                            mv.to = to;
                            mv.kind = MoveKind::Normal;
                            mv.extra = 0;
                            self.push(r, e.promo, mv, out);
                        }
                        continue;
                    }
                    if self.anchor[to.0 as usize] == from {
                        // The piece's own covered cells are left as it moves.
                        q = Piece::EMPTY;
                    }
                }
                if q == Piece::HOLE {
                    break;
                }
                if !screened {
                    // A hop: everything up to the first occupied cell is passed over.
                    if !q.is_empty() {
                        screened = true;
                    }
                    continue;
                }
                if e.kind == EntryKind::Hop {
                    past_screen += 1;
                    if e.hop_max != 0 && past_screen > e.hop_max as u16 {
                        break;
                    }
                }
                mv.to = to;
                if q.is_empty() {
                    // Asked for captures and promotions only: a move to an empty cell that
                    // cannot promote nor take en passant is neither.
                    if NOISY && e.mode != MoveMode::CaptureOnly && e.promo == NO_PROMOTION && !e.captures_ep {
                        continue;
                    }
                    if e.mode != MoveMode::CaptureOnly && self.allowed(r, e, ty, side, origin, to) {
                        mv.kind = MoveKind::Normal;
                        mv.extra = 0;
                        if e.marks_ep && !e.leap && i > 0 {
                            mv.kind = MoveKind::Passage;
                            mv.extra = e.dir.0 as u16;
                        }
                        self.push(r, e.promo, mv, out);
                    } else if e.captures_ep {
                        if let Some(ep) = self.rights.ep {
                            let victim = self.cells[ep.victim.0 as usize];
                            if ep.passed().contains(&to)
                                && !victim.is_empty()
                                && victim != Piece::HOLE
                                && !r.allied(r.owner(victim), side)
                                && self.allowed(r, e, ty, side, origin, to)
                            {
                                mv.kind = MoveKind::EnPassant;
                                mv.extra = ep.victim.0;
                                mv.take = victim;
                                self.push(r, e.promo, mv, out);
                                mv.take = Piece::EMPTY;
                            }
                        }
                    }
                    continue;
                }
                if !r.allied(r.owner(q), side)
                    && e.mode != MoveMode::MoveOnly
                    && self.allowed(r, e, ty, side, origin, to)
                {
                    mv.kind = MoveKind::Normal;
                    mv.extra = 0;
                    mv.take = q;
                    self.push(r, e.promo, mv, out);
                }
                break;
            }
        }
        if dedup {
            dedup_from(r, out, first);
        }
    }

    /// The move of a lame leap: every cell marked on the way must be empty; only the last is a
    /// target.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    fn lame_move<const COVER: bool, const NOISY: bool>(
        &self,
        r: &Rules,
        e: &Entry,
        ty: PieceTypeId,
        side: PlayerId,
        from: CellId,
        origin: CellId,
        mut mv: Move,
        out: &mut Vec<Move>,
    ) {
        let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
        let (last, path) = ray.split_last().expect("a lame leap has cells");
        let blocked = path.iter().enumerate().any(|(i, c)| {
            e.need_empty & (1 << i) != 0 && {
                let q = self.cells[c.0 as usize];
                !(q.is_empty() || (COVER && self.anchor[c.0 as usize] == from))
            }
        });
        if blocked {
            return;
        }
        let mut q = self.cells[last.0 as usize];
        if COVER && self.anchor[last.0 as usize] == from {
            q = Piece::EMPTY;
        }
        mv.to = *last;
        if q.is_empty() {
            if NOISY && e.promo == NO_PROMOTION {
                return;
            }
            if e.mode != MoveMode::CaptureOnly && self.allowed(r, e, ty, side, origin, *last) {
                self.push(r, e.promo, mv, out);
            }
        } else if q != Piece::HOLE
            && !r.allied(r.owner(q), side)
            && e.mode != MoveMode::MoveOnly
            && self.allowed(r, e, ty, side, origin, *last)
        {
            mv.take = q;
            self.push(r, e.promo, mv, out);
        }
    }

    /// The castlings `side` may make (empty cells and rights; safety of the king's path).
    pub(crate) fn castling_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        if self.rights.castling == 0 {
            return;
        }
        // Most nodes hold rights whose castlings are blocked: those are passed over here, not
        // in a call per castling.
        for &i in r.castles.fixed_of.get(side.0 as usize).map_or(&[][..], |v| &v[..]) {
            let c = &r.castles.list[i as usize];
            if self.rights.castling & (1 << r.castles.bit[i as usize]) != 0
                && c.must_be_empty.iter().all(|x| self.cells[x.0 as usize].is_empty())
            {
                self.try_castling(r, side, i as usize, out);
            }
        }
        if self.rights.castling & r.castles.player_bits.get(side.0 as usize).copied().unwrap_or(0) == 0 {
            return;
        }
        // Castlings from the position: the king is the side's castling king on its cells.
        for &k in &r.castles.king_cells[side.0 as usize] {
            let p = self.cells[k.0 as usize];
            if p.is_empty() || p == Piece::HOLE || r.owner(p) != side {
                continue;
            }
            for &i in &r.castles.at[side.0 as usize * r.cells + k.0 as usize] {
                let d = &r.castles.decls[r.castles.decl_of[i as usize] as usize];
                let q = self.cells[r.castles.list[i as usize].partner_from.0 as usize];
                if r.type_of(p) == d.king && !q.is_empty() && q != Piece::HOLE && r.type_of(q) == d.partner {
                    self.try_castling(r, side, i as usize, out);
                }
            }
        }
    }

    /// Castling `i`, if `side` holds its right and may make it.
    fn try_castling(&self, r: &Rules, side: PlayerId, i: usize, out: &mut Vec<Move>) {
        let c = &r.castles.list[i];
        // Most castlings end at a cell that must be empty and is not (or has no square).
        if self.rights.castling & (1 << r.castles.bit[i]) == 0
            || c.player != side
            || c.must_be_empty.iter().any(|x| !self.cells[x.0 as usize].is_empty())
        {
            return;
        }
        let king = self.cells[c.king_from.0 as usize];
        let partner = self.cells[c.partner_from.0 as usize];
        if king.is_empty() || king == Piece::HOLE || r.owner(king) != side {
            return;
        }
        if partner.is_empty() || partner == Piece::HOLE || r.owner(partner) != side {
            return;
        }
        // Attacks matter to a royal king only: one that is not royal castles out of, through
        // and into attacked cells, as any of its moves may (Fairy-Stockfish's giveaway).
        if r.pieces.royal_code[king.0 as usize] && c.must_be_safe.iter().any(|x| self.attacked_as(r, *x, side, king)) {
            return;
        }
        if r.stacks.on && (self.count(r, c.king_from) != 1 || self.count(r, c.partner_from) != 1) {
            return;
        }
        // A piece covering the corner from between cells does not stand on it.
        if r.between.on
            && (self.standing_at(c.king_from) != c.king_from || self.standing_at(c.partner_from) != c.partner_from)
        {
            return;
        }
        out.push(Move::by_power(c.king_from, c.king_to, king, NO_MOVE_TYPE, MoveKind::Castle, i as u16, Piece::EMPTY));
    }

    /// Whether the `n` pieces on `cell` are one lone piece that the cell's rules make inert.
    #[inline]
    pub(crate) fn lone_inert(&self, r: &Rules, cell: CellId, n: usize) -> bool {
        n == 1 && r.stacks.inert_cells.contains(cell) && r.occupancy(cell, self.phases).lone_inert
    }

    /// How a piece of `side` moving by a power of `mode` may land on the occupied stack cell
    /// `to` (every way is one move): capturing one enemy piece (the mover's choice), every
    /// enemy piece ([`Piece::ALL`]), or joining ([`Piece::EMPTY`]). Empty when it may not land.
    pub(crate) fn land_choices(&self, r: &Rules, side: PlayerId, to: CellId, mode: MoveMode) -> Vec<Piece> {
        let mut out = Vec::new();
        let n = self.count(r, to);
        let occ = r.occupancy(to, self.phases);
        let fits = |after: usize| occ.capacity.is_none_or(|c| after <= c as usize);
        if n == 0 || (n == 1 && occ.lone_inert) {
            if mode != MoveMode::CaptureOnly && fits(n + 1) {
                out.push(Piece::EMPTY);
            }
            return out;
        }
        let stack = self.pieces_at(r, to);
        let enemies = stack.iter().filter(|q| !r.allied(r.owner(**q), side)).count();
        if enemies > 0 && mode != MoveMode::MoveOnly && !(occ.crowd_safe && n >= 2) {
            if n >= 2 && occ.capture == CaptureRule::All {
                if fits(n - enemies + 1) {
                    out.push(Piece::ALL);
                }
            } else if fits(n) {
                for (k, &q) in stack.iter().enumerate() {
                    if !r.allied(r.owner(q), side) && (k == 0 || stack[k - 1] != q) {
                        out.push(q);
                    }
                }
            }
        }
        if fits(n + 1) && occ.join_mixed_crowd && n >= 2 && enemies > 0 {
            out.push(Piece::EMPTY);
        }
        out
    }

    /// The moves by its tables of one piece (of code `piece`) from `from`, under the cells'
    /// occupancy rules.
    pub(crate) fn piece_moves_stacked(
        &self,
        r: &Rules,
        side: PlayerId,
        from: CellId,
        piece: Piece,
        only: Only,
        out: &mut Vec<Move>,
    ) {
        let ty = r.type_of(piece);
        let (a, b, dedup) = r.entries_for(side, ty, from);
        let first = out.len();
        // A lone piece on an inert cell may leave it, but not by capturing.
        let inert = self.lone_inert(r, from, self.count(r, from));
        let mover = StackedMover { side, from, piece, ty, inert };
        // Joins onto a lone enemy by a moving power, dropped later if a capture power reaches it.
        let mut joins_by_move: Vec<CellId> = Vec::new();
        for e in &r.tables.entries[a..b] {
            if only.allows(e.move_type) {
                self.ray_moves_stacked(r, mover, e, &mut joins_by_move, out);
            }
        }
        if !joins_by_move.is_empty() {
            drop_beaten_joins(out, first, &joins_by_move);
        }
        // Two rays (or rules) may reach one cell: keep each move once.
        if dedup {
            dedup_from(r, out, first);
        }
    }

    /// The moves of one entry of a piece on a board of stacks, along its ray; the joins onto a
    /// lone enemy by a moving power are noted in `joins_by_move`.
    fn ray_moves_stacked(
        &self,
        r: &Rules,
        m: StackedMover,
        e: &Entry,
        joins_by_move: &mut Vec<CellId>,
        out: &mut Vec<Move>,
    ) {
        let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
        let mv = |to, kind, extra, take| Move::by_power(m.from, to, m.piece, e.move_type, kind, extra, take);
        let mut screened = e.kind == EntryKind::Slide;
        let mut past_screen = 0u16;
        for (i, &to) in ray.iter().enumerate() {
            let q = self.cells[to.0 as usize];
            if q == Piece::HOLE {
                break;
            }
            // An empty cell's rules need no lookup: every capacity is at least one piece.
            let (n, occ) = if q.is_empty() {
                (0, Occupancy::default())
            } else {
                (self.count(r, to), r.occupancy(to, self.phases))
            };
            let see_through = n == 0 || (n == 1 && occ.lone_inert);
            if e.kind == EntryKind::Lame && i + 1 < ray.len() {
                if e.need_empty & (1 << i) != 0 && !see_through {
                    break;
                }
                continue;
            }
            if !screened {
                if !see_through {
                    screened = true;
                }
                continue;
            }
            if e.kind == EntryKind::Hop {
                past_screen += 1;
                if e.hop_max != 0 && past_screen > e.hop_max as u16 {
                    break;
                }
            }
            let fits = |after: usize| occ.capacity.is_none_or(|c| after <= c as usize);
            if see_through {
                if e.mode != MoveMode::CaptureOnly && fits(n + 1) && self.allowed(r, e, m.ty, m.side, m.from, to) {
                    let made = if e.marks_ep && !e.leap && i > 0 {
                        mv(to, MoveKind::Passage, e.dir.0 as u16, Piece::EMPTY)
                    } else {
                        mv(to, MoveKind::Normal, 0, Piece::EMPTY)
                    };
                    self.push(r, e.promo, made, out);
                } else if e.captures_ep && n == 0 && !m.inert {
                    if let Some(ep) = self.rights.ep {
                        if ep.passed().contains(&to)
                            && !r.allied(r.owner(ep.piece), m.side)
                            && self.pieces_at(r, ep.victim).contains(&ep.piece)
                            && self.capturable_on(r, ep.victim, m.side, 0)
                            && self.allowed(r, e, m.ty, m.side, m.from, to)
                        {
                            self.push(r, e.promo, mv(to, MoveKind::EnPassant, ep.victim.0, ep.piece), out);
                        }
                    }
                }
                continue;
            }
            // An occupied cell: capture, join, or nothing; either way the ray ends here.
            let stack = self.pieces_at(r, to);
            let enemies = stack.iter().filter(|q| !r.allied(r.owner(**q), m.side)).count();
            if enemies > 0
                && e.mode != MoveMode::MoveOnly
                && !m.inert
                && !(occ.crowd_safe && n >= 2)
                && self.allowed(r, e, m.ty, m.side, m.from, to)
            {
                if n >= 2 && occ.capture == CaptureRule::All {
                    if fits(n - enemies + 1) {
                        self.push(r, e.promo, mv(to, MoveKind::Normal, 0, Piece::ALL), out);
                    }
                } else if fits(n) {
                    for (k, &q) in stack.iter().enumerate() {
                        if !r.allied(r.owner(q), m.side) && (k == 0 || stack[k - 1] != q) {
                            self.push(r, e.promo, mv(to, MoveKind::Normal, 0, q), out);
                        }
                    }
                }
            }
            let join = mv(to, MoveKind::Normal, 0, Piece::EMPTY);
            if fits(n + 1) && self.allowed(r, e, m.ty, m.side, m.from, to) {
                if occ.join_mixed_crowd && n >= 2 && enemies > 0 {
                    self.push(r, e.promo, join, out);
                } else if occ.join_enemy_by_move && n == 1 && enemies == 1 && e.mode == MoveMode::MoveOnly {
                    joins_by_move.push(to);
                    self.push(r, e.promo, join, out);
                }
            }
            break;
        }
    }
}

impl Position {
    /// The pseudo-legal moves of the side to move's pieces (castlings and drops included;
    /// actions on squares are not pieces' moves: see [`Position::legal_moves`]).
    pub fn pseudo_legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.st.pseudo_moves(&self.rules, self.st.side, out);
    }
}

/// Keeps the first of equal moves among `out[first..]` (moves reaching one place by two routes,
/// or by two powers or programs of different move types). Of the types, the one the move
/// priorities rank best stays (the first among equals): a move is as good as its best way.
pub(crate) fn dedup_from(r: &Rules, out: &mut Vec<Move>, first: usize) {
    let same = |a: &Move, b: &Move| Move { move_type: b.move_type, ..*a } == *b;
    let rank = |t: u8| r.program.as_deref().filter(|p| p.prioritised).map_or(0, |p| p.rank_of(t));
    // The targets met so far (of the first 256 locations): a move to a new one is new.
    let mut met = [0u64; 4];
    let mut kept = first;
    for i in first..out.len() {
        let m = out[i];
        let t = m.to.0 as usize;
        let new = if t < 256 && met[t >> 6] & 1 << (t & 63) == 0 {
            met[t >> 6] |= 1 << (t & 63);
            true
        } else {
            match out[first..kept].iter().position(|k| same(k, &m)) {
                Some(j) => {
                    let kept_type = &mut out[first + j].move_type;
                    if rank(m.move_type) < rank(*kept_type) {
                        *kept_type = m.move_type;
                    }
                    false
                }
                None => true,
            }
        };
        if new {
            out[kept] = m;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// A piece moving on a board of stacks: its side, cell, code and type, and whether it stands
/// alone on an inert cell (then it may leave, but not by capturing).
#[derive(Clone, Copy)]
struct StackedMover {
    side: PlayerId,
    from: CellId,
    piece: Piece,
    ty: PieceTypeId,
    inert: bool,
}

/// Drops the joins by a moving power (onto `joins_by_move`) among the moves from `first` on
/// where the piece may capture on that cell: such a join needs the piece unable to.
fn drop_beaten_joins(out: &mut Vec<Move>, first: usize, joins_by_move: &[CellId]) {
    let mut i = first;
    while i < out.len() {
        let m = out[i];
        let drop = !m.is_capture()
            && joins_by_move.contains(&m.to)
            && out[first..].iter().any(|o| o.to == m.to && o.is_capture());
        if drop {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}
