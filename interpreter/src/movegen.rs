//! Move generation: pseudo-legal moves from the compiled tables, attack tests, and the legality filter.

use crate::ir::{CaptureRule, CellId, MoveMode, PieceTypeId, PlayerId};
use crate::position::{Move, MoveKind, Position, State};
use crate::rules::{EntryKind, Piece, Rules};

/// Pieces pinned to the royal piece, found once per position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pins {
    cells: [CellId; 16],
    len: u8,
    overflow: bool,
}

impl Pins {
    /// Records a pinned cell (past the array's room, only that there were more).
    #[inline]
    fn add(&mut self, c: CellId) {
        if (self.len as usize) < self.cells.len() {
            self.cells[self.len as usize] = c;
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }
}

impl State {
    /// Appends one move, or one per promotion choice when the piece promotes on arrival.
    #[inline]
    pub(crate) fn push(&self, r: &Rules, ty: PieceTypeId, mut mv: Move, out: &mut Vec<Move>) {
        if !r.promotes[ty.0 as usize] {
            out.push(mv);
            return;
        }
        if let Some(promo) = &r.variant.pieces[ty.0 as usize].promotion {
            if r.in_zone(promo.zone, self.side, mv.to) {
                if !promo.mandatory {
                    out.push(mv);
                }
                for t in &promo.choices {
                    mv.promote = t.0 + 1;
                    out.push(mv);
                }
                return;
            }
        }
        out.push(mv);
    }

    /// Generates the pseudo-legal moves of `side` (legal except for leaving a royal attacked).
    pub(crate) fn pseudo_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        if r.program.is_some() {
            self.program_moves(r, side, out);
            return;
        }
        if r.stacking {
            self.pseudo_moves_stacked(r, side, out);
            return;
        }
        if r.covering {
            self.pseudo_moves_covering(r, side, out);
            return;
        }
        let words = self.occupied[side.0 as usize].words();
        for (wi, &word) in words.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let from = CellId((wi as u32 * 64 + w.trailing_zeros()) as u16);
                w &= w - 1;
                self.piece_moves::<false>(r, side, from, from, out);
            }
        }
        self.castling_moves(r, side, out);
    }

    /// Pseudo-legal moves on a board with locations between cells: a piece covering several
    /// cells moves as if from each of them, every route to one place being one move.
    fn pseudo_moves_covering(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        for from in self.occupied[side.0 as usize].iter() {
            if !r.is_between(from) {
                self.piece_moves::<true>(r, side, from, from, out);
                continue;
            }
            let first = out.len();
            for &origin in r.covers(from) {
                self.piece_moves::<true>(r, side, from, origin, out);
            }
            dedup_from(out, first);
        }
        self.castling_moves(r, side, out);
    }

    /// Whether a piece moving from `mover` may stop on the between location `at`: every cell it
    /// covers is empty or the mover's own.
    fn covers_free(&self, r: &Rules, at: CellId, mover: CellId) -> bool {
        r.covers(at).iter().all(|&c| {
            let i = c.0 as usize;
            self.cells[i].is_empty() || c == mover || self.anchor[i] == mover
        })
    }

    /// The pseudo-legal moves of the piece on `from`, moving as if it stood on `origin` (the same
    /// cell, or one the piece covers from between cells). `COVER`: the board has locations
    /// between cells, which the piece's own covered cells do not block and where it may stop.
    fn piece_moves<const COVER: bool>(
        &self,
        r: &Rules,
        side: PlayerId,
        from: CellId,
        origin: CellId,
        out: &mut Vec<Move>,
    ) {
        let piece = self.cells[from.0 as usize];
        let ty = r.type_of(piece);
        let (a, b, dedup) = r.entries_for(side, ty, origin);
        let first = out.len();
        for e in &r.entries[a..b] {
            let ray = &r.ray_cells[e.start as usize..e.start as usize + e.len as usize];
            let rule = &r.variant.pieces[ty.0 as usize].moves[e.rule as usize];
            let allowed = |to: CellId| {
                !e.dynamic || rule.conditions.iter().all(|c| self.condition_holds(r, c, Some((origin, to))))
            };
            let mut mv =
                Move { from, to: from, kind: MoveKind::Normal, promote: 0, extra: 0, piece, take: Piece::EMPTY };
            let mut screened = e.kind == EntryKind::Slide;
            let mut past_screen = 0u16;
            for (i, &to) in ray.iter().enumerate() {
                let mut q = self.cells[to.0 as usize];
                if COVER {
                    if r.between_cell[to.0 as usize] {
                        // Stopping between cells never captures and never blocks the way on.
                        if to != from && e.mode != MoveMode::CaptureOnly && self.covers_free(r, to, from) && allowed(to)
                        {
                            mv.to = to;
                            mv.kind = MoveKind::Normal;
                            mv.extra = 0;
                            self.push(r, ty, mv, out);
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
                    if e.mode != MoveMode::CaptureOnly && allowed(to) {
                        mv.kind = MoveKind::Normal;
                        mv.extra = 0;
                        if e.marks_ep && !e.leap && i > 0 {
                            mv.kind = MoveKind::Passage;
                            mv.extra = e.dir.0 as u16;
                        }
                        self.push(r, ty, mv, out);
                    } else if e.captures_ep {
                        if let Some(ep) = self.ep {
                            let victim = self.cells[ep.victim.0 as usize];
                            if ep.passed().contains(&to)
                                && !victim.is_empty()
                                && victim != Piece::HOLE
                                && r.owner(victim) != side
                                && allowed(to)
                            {
                                mv.kind = MoveKind::EnPassant;
                                mv.extra = ep.victim.0;
                                mv.take = victim;
                                self.push(r, ty, mv, out);
                                mv.take = Piece::EMPTY;
                            }
                        }
                    }
                    continue;
                }
                if r.owner(q) != side && e.mode != MoveMode::MoveOnly && allowed(to) {
                    mv.kind = MoveKind::Normal;
                    mv.extra = 0;
                    mv.take = q;
                    self.push(r, ty, mv, out);
                }
                break;
            }
        }
        if dedup {
            dedup_from(out, first);
        }
    }

    fn castling_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        if self.castling == 0 {
            return;
        }
        for (i, c) in r.variant.castlings.iter().enumerate() {
            if self.castling & (1 << i) == 0 || c.player != side {
                continue;
            }
            let king = self.cells[c.king_from.0 as usize];
            let partner = self.cells[c.partner_from.0 as usize];
            if king.is_empty() || king == Piece::HOLE || r.owner(king) != side {
                continue;
            }
            if partner.is_empty() || partner == Piece::HOLE || r.owner(partner) != side {
                continue;
            }
            if c.must_be_empty.iter().any(|x| !self.cells[x.0 as usize].is_empty()) {
                continue;
            }
            if c.must_be_safe.iter().any(|x| self.attacked_by_any_enemy(r, *x, side)) {
                continue;
            }
            if r.stacking && (self.count(r, c.king_from) != 1 || self.count(r, c.partner_from) != 1) {
                continue;
            }
            // A piece covering the corner from between cells does not stand on it.
            if r.covering
                && (self.standing_at(c.king_from) != c.king_from || self.standing_at(c.partner_from) != c.partner_from)
            {
                continue;
            }
            out.push(Move {
                from: c.king_from,
                to: c.king_to,
                kind: MoveKind::Castle,
                promote: 0,
                extra: i as u16,
                piece: king,
                take: Piece::EMPTY,
            });
        }
    }

    /// Whether any player other than `side` attacks `cell`.
    pub(crate) fn attacked_by_any_enemy(&self, r: &Rules, cell: CellId, side: PlayerId) -> bool {
        (0..r.players as u8).any(|p| p != side.0 && self.attacked(r, cell, PlayerId(p)))
    }

    /// Whether `by` could capture on `cell` (were an enemy piece there).
    pub(crate) fn attacked(&self, r: &Rules, cell: CellId, by: PlayerId) -> bool {
        if r.program.is_some() {
            return self.program_attacks(r, cell, by, None, None, 0);
        }
        if r.stacking {
            return self.attacked_stacked(r, cell, by);
        }
        if r.slow_attacks {
            return self.attacked_by_generation(r, cell, by);
        }
        let i = by.0 as usize * r.cells + cell.0 as usize;
        for probe in &r.probes[r.probe_index[i] as usize..r.probe_index[i + 1] as usize] {
            let s = probe.start as usize;
            for k in s..s + probe.len as usize {
                let q = self.cells[r.probe_cells[k].0 as usize];
                if q.is_empty() {
                    continue;
                }
                if q != Piece::HOLE && r.owner(q) == by && r.probe_masks[k] & (1 << r.type_of(q).0) != 0 {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// Whether `side` has a royal piece under attack (between cells: on any cell it covers).
    pub(crate) fn royal_attacked(&self, r: &Rules, side: PlayerId) -> bool {
        if r.royal_mask == 0 {
            return false;
        }
        self.royal_cells(r, side).any(|c| {
            if r.is_between(c) {
                r.covers(c).iter().any(|x| self.attacked_by_any_enemy(r, *x, side))
            } else {
                self.attacked_by_any_enemy(r, c, side)
            }
        })
    }

    /// A plain move of an unpinned, non-royal piece cannot expose the royal (when not in check).
    #[inline]
    fn surely_legal(&self, r: &Rules, mv: Move, safe: &Option<(CellId, Pins)>) -> bool {
        let Some((royal, pins)) = safe else { return false };
        if mv.kind != MoveKind::Normal && mv.kind != MoveKind::Passage {
            return false;
        }
        // On a stacking board, a move onto the royal's cell changes its safety, and a move from
        // or to an inert cell can wake a piece or open a line through the cell.
        if r.stacking && (mv.to == *royal || r.inert_cells.contains(mv.from) || r.inert_cells.contains(mv.to)) {
            return false;
        }
        // Capturing a piece that stands between cells clears cells off the capturer's path.
        if r.covering && mv.is_capture() && self.standing_at(mv.to) != mv.to {
            return false;
        }
        // A phase that this move may begin can change the occupancy rules of every cell.
        if r.occupancy_phases & !self.phases != 0 && (!r.occupancy_phases_on_capture || mv.is_capture()) {
            return false;
        }
        mv.from != *royal && !pins.overflow && !pins.cells[..pins.len as usize].contains(&mv.from)
    }
}

impl Position {
    /// The pseudo-legal moves of the side to move's pieces (castlings included; actions on
    /// squares are not pieces' moves: see [`Position::legal_moves`]).
    pub fn pseudo_legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.st.pseudo_moves(&self.rules, self.st.side, out);
    }

    /// Whether `by` attacks `cell`.
    pub fn is_attacked(&self, cell: CellId, by: PlayerId) -> bool {
        self.st.attacked(&self.rules, cell, by)
    }

    /// Whether the side to move has a royal piece under attack.
    pub fn in_check(&self) -> bool {
        self.st.royal_attacked(&self.rules, self.st.side)
    }

    /// Whether a pseudo-legal move leaves the mover's royals safe.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        let side = self.st.side;
        if self.rules.program.is_some() {
            // Royals must be safe when the turn passes to another player, not in between.
            self.make(mv);
            let ok = self.st.side == side || !self.st.royal_attacked(&self.rules, side);
            self.unmake();
            return ok;
        }
        self.make(mv);
        let ok = !self.st.royal_attacked(&self.rules, side) && self.st.kept_apart(&self.rules);
        self.unmake();
        ok
    }

    /// Legality without a full make: lift the mover onto its target in the cell array only and
    /// ask whether a royal is attacked. Valid with the table-driven attack test.
    fn legal_light(&mut self, mv: Move) -> bool {
        let r = &*self.rules;
        let st = &mut self.st;
        let side = st.side;
        let from = mv.from.0 as usize;
        let to = mv.to.0 as usize;
        let moving = st.cells[from];
        let target = st.cells[to];
        let victim_at = if mv.kind == MoveKind::EnPassant { Some(mv.extra as usize) } else { None };
        let victim = victim_at.map(|v| st.cells[v]);
        st.cells[from] = Piece::EMPTY;
        st.cells[to] = moving;
        if let Some(v) = victim_at {
            st.cells[v] = Piece::EMPTY;
        }
        let ok = if r.royal_code[moving.0 as usize] {
            // The royal moved: its own cell is the target; others stay where they are.
            !st.attacked_by_any_enemy(r, mv.to, side)
                && st.royals[side.0 as usize].iter().all(|c| c == mv.from || !st.attacked_by_any_enemy(r, c, side))
        } else {
            !st.royals[side.0 as usize].iter().any(|c| st.attacked_by_any_enemy(r, c, side))
        };
        if let (Some(v), Some(p)) = (victim_at, victim) {
            st.cells[v] = p;
        }
        st.cells[to] = target;
        st.cells[from] = moving;
        ok
    }

    /// Whether a pseudo-legal move is legal, by the cheapest sound test.
    #[inline]
    pub(crate) fn legal_fast(&mut self, mv: Move, royal: &Option<(CellId, Pins)>) -> bool {
        if self.st.surely_legal(&self.rules, mv, royal) {
            return true;
        }
        if !self.rules.slow_attacks
            && !self.rules.stacking
            && self.rules.apart.is_empty()
            && mv.kind != MoveKind::Castle
            && !self.rules.vacates
            && (!self.rules.covering || self.st.square_to_square(&self.rules, mv))
        {
            return self.legal_light(mv);
        }
        self.is_legal(mv)
    }

    /// The single royal cell when the fast legality shortcut applies (not in check, plain
    /// attacks, exactly one royal piece).
    pub(crate) fn shortcut_royal(&self) -> Option<(CellId, Pins)> {
        if self.rules.slow_attacks || self.rules.royal_mask == 0 || !self.rules.apart_all_royal {
            return None;
        }
        let mut royals = self.st.royal_cells(&self.rules, self.st.side);
        let royal = royals.next()?;
        if self.rules.is_between(royal) {
            return None;
        }
        if royals.next().is_some() || self.st.attacked_by_any_enemy(&self.rules, royal, self.st.side) {
            return None;
        }
        Some((royal, self.st.pinned(&self.rules, royal, self.st.side)))
    }

    /// The legal moves of the side to move, in generation order. Where squares are game
    /// objects or turns have several actions, these are the legal actions at this point of the
    /// turn (piece moves, square moves, placements, the end of the turn).
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        if self.rules.program.is_some() {
            self.legal_program_moves(out);
            return;
        }
        if self.rules.square_play {
            self.legal_square_play(out);
            return;
        }
        self.legal_piece_moves(out);
    }

    /// The legal moves of pieces by their powers (and castlings).
    pub(crate) fn legal_piece_moves(&mut self, out: &mut Vec<Move>) {
        self.pseudo_legal_moves(out);
        let royal = self.shortcut_royal();
        let mut kept = 0;
        for i in 0..out.len() {
            let mv = out[i];
            if self.legal_fast(mv, &royal) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Counts the legal moves, using `buf` as scratch space.
    pub fn count_legal(&mut self, buf: &mut Vec<Move>) -> u64 {
        if self.rules.program.is_some() {
            self.legal_program_moves(buf);
            return buf.len() as u64;
        }
        if self.rules.square_play {
            self.legal_square_play(buf);
            return buf.len() as u64;
        }
        self.pseudo_legal_moves(buf);
        let royal = self.shortcut_royal();
        let mut n = 0;
        for &mv in buf.iter() {
            if self.legal_fast(mv, &royal) {
                n += 1;
            }
        }
        n
    }
}

impl State {
    /// Pseudo-legal moves on a board with stacks: every piece of `side` on every cell moves.
    fn pseudo_moves_stacked(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        for from in self.occupied[side.0 as usize].iter() {
            let pieces = self.pieces_at(r, from);
            for (k, &piece) in pieces.iter().enumerate() {
                // A stack is sorted, so equal pieces are neighbours: each kind moves once.
                if r.owner(piece) != side || (k > 0 && pieces[k - 1] == piece) {
                    continue;
                }
                self.piece_moves_stacked(r, side, from, piece, out);
            }
        }
        self.castling_moves(r, side, out);
    }

    /// Whether the `n` pieces on `cell` are one lone piece that the cell's rules make inert.
    #[inline]
    fn lone_inert(&self, r: &Rules, cell: CellId, n: usize) -> bool {
        n == 1 && r.is_stack_cell(cell) && r.occupancy(cell, self.phases).lone_inert
    }

    /// The moves of one piece (of code `piece`) from `from`, under the cells' occupancy rules.
    fn piece_moves_stacked(&self, r: &Rules, side: PlayerId, from: CellId, piece: Piece, out: &mut Vec<Move>) {
        let ty = r.type_of(piece);
        let (a, b, dedup) = r.entries_for(side, ty, from);
        let first = out.len();
        // A lone piece on an inert cell may leave it, but not by capturing.
        let inert = self.lone_inert(r, from, self.count(r, from));
        // Joins onto a lone enemy by a moving power, dropped later if a capture power reaches it.
        let mut joins_by_move: Vec<CellId> = Vec::new();
        for e in &r.entries[a..b] {
            let ray = &r.ray_cells[e.start as usize..e.start as usize + e.len as usize];
            let rule = &r.variant.pieces[ty.0 as usize].moves[e.rule as usize];
            let allowed =
                |to: CellId| !e.dynamic || rule.conditions.iter().all(|c| self.condition_holds(r, c, Some((from, to))));
            let mut mv =
                Move { from, to: from, kind: MoveKind::Normal, promote: 0, extra: 0, piece, take: Piece::EMPTY };
            let mut screened = e.kind == EntryKind::Slide;
            let mut past_screen = 0u16;
            for (i, &to) in ray.iter().enumerate() {
                if self.cells[to.0 as usize] == Piece::HOLE {
                    break;
                }
                let n = self.count(r, to);
                let occ = r.occupancy(to, self.phases);
                let see_through = n == 0 || (n == 1 && occ.lone_inert);
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
                mv.to = to;
                mv.take = Piece::EMPTY;
                let fits = |after: usize| occ.capacity.is_none_or(|c| after <= c as usize);
                if see_through {
                    if e.mode != MoveMode::CaptureOnly && fits(n + 1) && allowed(to) {
                        mv.kind = MoveKind::Normal;
                        mv.extra = 0;
                        if e.marks_ep && !e.leap && i > 0 {
                            mv.kind = MoveKind::Passage;
                            mv.extra = e.dir.0 as u16;
                        }
                        self.push(r, ty, mv, out);
                    } else if e.captures_ep && n == 0 && !inert {
                        if let Some(ep) = self.ep {
                            if ep.passed().contains(&to)
                                && r.owner(ep.piece) != side
                                && self.pieces_at(r, ep.victim).contains(&ep.piece)
                                && self.capturable_on(r, ep.victim, side, 0)
                                && allowed(to)
                            {
                                mv.kind = MoveKind::EnPassant;
                                mv.extra = ep.victim.0;
                                mv.take = ep.piece;
                                self.push(r, ty, mv, out);
                            }
                        }
                    }
                    continue;
                }
                // An occupied cell: capture, join, or nothing; either way the ray ends here.
                mv.kind = MoveKind::Normal;
                mv.extra = 0;
                let stack = self.pieces_at(r, to);
                let enemies = stack.iter().filter(|q| r.owner(**q) != side).count();
                if enemies > 0 && e.mode != MoveMode::MoveOnly && !inert && !(occ.crowd_safe && n >= 2) && allowed(to) {
                    if n >= 2 && occ.capture == CaptureRule::All {
                        if fits(n - enemies + 1) {
                            mv.take = Piece::ALL;
                            self.push(r, ty, mv, out);
                        }
                    } else if fits(n) {
                        for (k, &q) in stack.iter().enumerate() {
                            if r.owner(q) != side && (k == 0 || stack[k - 1] != q) {
                                mv.take = q;
                                self.push(r, ty, mv, out);
                            }
                        }
                    }
                }
                mv.take = Piece::EMPTY;
                if fits(n + 1) && allowed(to) {
                    if occ.join_mixed_crowd && n >= 2 && enemies > 0 {
                        self.push(r, ty, mv, out);
                    } else if occ.join_enemy_by_move && n == 1 && enemies == 1 && e.mode == MoveMode::MoveOnly {
                        joins_by_move.push(to);
                        self.push(r, ty, mv, out);
                    }
                }
                break;
            }
        }
        if !joins_by_move.is_empty() {
            // A join by a moving power needs the piece unable to capture on that cell.
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
        // Two rays (or rules) may reach one cell: keep each move once.
        if dedup {
            dedup_from(out, first);
        }
    }

    /// Whether a move goes from a cell to a cell, neither between cells nor covered from there
    /// (the light legality test, which moves one cell's piece, is then sound).
    #[inline]
    fn square_to_square(&self, r: &Rules, mv: Move) -> bool {
        !r.is_between(mv.from) && !r.is_between(mv.to) && self.standing_at(mv.to) == mv.to
    }

    /// Whether a piece of the defender on `cell` could be captured there by a piece of `by`
    /// landing on it (its occupancy allows a capture there at all); `extra` is 1 when the capturer
    /// lands on the cell, 0 when it does not (en passant).
    fn capturable_on(&self, r: &Rules, cell: CellId, by: PlayerId, extra: usize) -> bool {
        if !r.is_stack_cell(cell) {
            return true;
        }
        let occ = r.occupancy(cell, self.phases);
        let n = self.count(r, cell).max(1);
        if (n == 1 && occ.lone_inert) || (n >= 2 && occ.crowd_safe) {
            return false;
        }
        let taken = if n >= 2 && occ.capture == CaptureRule::All {
            self.pieces_at(r, cell).iter().filter(|q| r.owner(**q) != by).count().max(1)
        } else {
            1
        };
        occ.capacity.is_none_or(|c| n - taken + extra <= c as usize)
    }

    /// The attack test on a board with stacks: could `by` capture a piece of another player on
    /// `cell` (were one there), given the occupancy rules of the cells on the way.
    fn attacked_stacked(&self, r: &Rules, cell: CellId, by: PlayerId) -> bool {
        if !self.capturable_on(r, cell, by, 1) {
            return false;
        }
        if r.slow_attacks {
            return self.attacked_by_generation(r, cell, by);
        }
        let i = by.0 as usize * r.cells + cell.0 as usize;
        for probe in &r.probes[r.probe_index[i] as usize..r.probe_index[i + 1] as usize] {
            let s = probe.start as usize;
            for k in s..s + probe.len as usize {
                let c = r.probe_cells[k];
                let q = self.cells[c.0 as usize];
                if q.is_empty() {
                    continue;
                }
                if q == Piece::HOLE {
                    break;
                }
                let stack = self.pieces_at(r, c);
                if self.lone_inert(r, c, stack.len()) {
                    // A lone inert piece neither blocks nor attacks.
                    continue;
                }
                if attacker_in(r, stack, by, r.probe_masks[k]) {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// The general attack test (hops, conditional captures): generate `by`'s moves and look
    /// for a capture on `cell`, with a stand-in enemy piece there if it is empty.
    fn attacked_by_generation(&self, r: &Rules, cell: CellId, by: PlayerId) -> bool {
        let mut probe = self.clone();
        probe.history.clear();
        probe.hashes.clear();
        if probe.count(r, cell) == 0 {
            let victim = PlayerId(if by.0 == 0 { 1 } else { 0 });
            probe.add(r, cell, r.piece(victim, PieceTypeId(0)));
        }
        probe.side = by;
        let mut moves = Vec::new();
        probe.pseudo_moves(r, by, &mut moves);
        moves.iter().any(|m| m.to == cell && m.kind == MoveKind::Normal && m.is_capture())
    }

    /// The cells of `side`'s pieces pinned to the royal on `royal`: the shield is the only cell
    /// between the royal and an enemy attacker along a probe that blocks, and it holds exactly
    /// one piece, the mover's (a cell of several pieces keeps blocking when one leaves). Lone
    /// inert pieces neither shield nor attack.
    fn pinned(&self, r: &Rules, royal: CellId, side: PlayerId) -> Pins {
        let mut pins = Pins { cells: [CellId(0); 16], len: 0, overflow: false };
        for p in 0..r.players as u8 {
            if p == side.0 {
                continue;
            }
            let i = p as usize * r.cells + royal.0 as usize;
            for probe in &r.probes[r.probe_index[i] as usize..r.probe_index[i + 1] as usize] {
                let s = probe.start as usize;
                let mut shield: Option<CellId> = None;
                for k in s..s + probe.len as usize {
                    let c = r.probe_cells[k];
                    let q = self.cells[c.0 as usize];
                    if q.is_empty() {
                        continue;
                    }
                    if q == Piece::HOLE {
                        break;
                    }
                    let stack = self.pieces_at(r, c);
                    if self.lone_inert(r, c, stack.len()) {
                        continue;
                    }
                    // A piece between cells is one shield however many of its cells the line crosses.
                    let at = self.standing_at(c);
                    if shield == Some(at) {
                        continue;
                    }
                    if shield.is_none() && stack.len() == 1 && r.owner(q) == side {
                        shield = Some(at);
                        continue;
                    }
                    if let Some(c) = shield {
                        if attacker_in(r, stack, PlayerId(p), r.probe_masks[k]) {
                            pins.add(c);
                        }
                    }
                    break;
                }
            }
        }
        pins
    }

    /// Whether the `keep-apart` pieces of different players are far enough apart.
    pub(crate) fn kept_apart(&self, r: &Rules) -> bool {
        for (ty, near) in &r.apart {
            let (c0, c1) = (r.piece(PlayerId(0), *ty), r.piece(PlayerId(1), *ty));
            // Royal types are found through the royal cell sets, the others through occupancy.
            let cells = |p: usize, code: Piece| {
                let set = if r.royal_code[code.0 as usize] { &self.royals[p] } else { &self.occupied[p] };
                set.iter().filter(move |c| self.pieces_at(r, *c).contains(&code))
            };
            for a in cells(0, c0) {
                if cells(1, c1).any(|b| near[a.0 as usize].contains(b)) {
                    return false;
                }
            }
        }
        true
    }
}

/// Keeps the first of equal moves among `out[first..]` (moves reaching one place by two routes).
fn dedup_from(out: &mut Vec<Move>, first: usize) {
    let mut i = first;
    while i < out.len() {
        if out[first..i].contains(&out[i]) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Whether a piece of `by` among `stack` is of a type in the probe's `mask` (attacks from there).
#[inline]
fn attacker_in(r: &Rules, stack: &[Piece], by: PlayerId, mask: u32) -> bool {
    stack.iter().any(|q| r.owner(*q) == by && mask & (1 << r.type_of(*q).0) != 0)
}
