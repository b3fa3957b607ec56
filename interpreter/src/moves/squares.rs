//! Square play: squares as game objects (moved, carried, placed, owned, removed) and turns of several actions.
//!
//! A location's square is in the cell array (`Piece::HOLE` where there is none), owners and
//! reserves are per-cell and per-player arrays, and a turn is a sequence of action slots; each
//! action is one move (one ply), and the side to move changes when the turn's last action is made.

use crate::ir::{ActionKind, CellId, PlayerId};
use crate::position::{Move, MoveKind, Position, State};
use crate::royal_memo::Pins;
use crate::rules::masks::Bits;
use crate::rules::{Piece, Rules};
use crate::tables::NO_MOVE_TYPE;

impl ActionKind {
    fn bit(self) -> u8 {
        match self {
            ActionKind::MovePiece => 1,
            ActionKind::MoveSquare => 2,
            ActionKind::PlaceSquare => 4,
        }
    }

    /// The kind of action a move is (`None` for the end of a turn).
    pub fn of(kind: MoveKind) -> Option<ActionKind> {
        match kind {
            MoveKind::MoveSquare | MoveKind::CarrySquare => Some(ActionKind::MoveSquare),
            MoveKind::PlaceSquare => Some(ActionKind::PlaceSquare),
            MoveKind::EndTurn => None,
            _ => Some(ActionKind::MovePiece),
        }
    }
}

impl Move {
    /// A square action: an empty square placed (`from` = `to`) or moved, or one carrying `piece`.
    fn square_action(kind: MoveKind, from: CellId, to: CellId, piece: Piece) -> Move {
        Move::by_power(from, to, piece, NO_MOVE_TYPE, kind, 0, Piece::EMPTY)
    }
}

impl State {
    /// Pseudo-legal square moves of `side`: empty squares by the square moves, squares holding
    /// one of its pieces by the carry moves, each to a location without a square.
    pub(crate) fn square_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        self.any_square_move(r, side, false, |mv| {
            if mv.kind == MoveKind::CarrySquare {
                self.push_promoting(r, r.promotion_of(mv.piece), mv, out);
            } else {
                out.push(mv);
            }
            false
        });
    }

    /// Calls `visit` with each pseudo-legal square move of `side` (a carry before its
    /// promotion choices; only the carries with `carries_only`) until it returns true; returns
    /// whether it did.
    fn any_square_move(
        &self,
        r: &Rules,
        side: PlayerId,
        carries_only: bool,
        mut visit: impl FnMut(Move) -> bool,
    ) -> bool {
        let Some(sq) = r.variant.squares.as_ref() else { return false };
        for c in 0..r.cells {
            let from = CellId(c as u16);
            let p = self.cells[c];
            if p == Piece::HOLE || self.squares.frozen.contains(from) {
                continue;
            }
            let (table, kind) = if p.is_empty() {
                // With owned squares, only one's own empty squares move.
                if carries_only || (r.squares.owned && self.squares.owner[c] != side.0 + 1) {
                    continue;
                }
                (&r.squares.moves, MoveKind::MoveSquare)
            } else {
                if r.owner(p) != side || (!sq.carry_royal && r.pieces.royal_code[p.0 as usize]) {
                    continue;
                }
                // A square carries the one piece standing on it (not a stack, nor a piece
                // covering it from between cells).
                if (r.stacks.on && self.count(r, from) != 1) || self.standing_at(from) != from {
                    continue;
                }
                (&r.squares.carries, MoveKind::CarrySquare)
            };
            let mut mv = Move::square_action(kind, from, from, p);
            for ray in table.rays(r.cells, side, from) {
                for &to in ray {
                    if self.cells[to.0 as usize] != Piece::HOLE {
                        break;
                    }
                    mv.to = to;
                    if visit(mv) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Pseudo-legal placements of `side`: a square from reserve on any location without one
    /// (in the placement zone, if the game names one).
    pub(crate) fn square_placements(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let Some(sq) = r.variant.squares.as_ref() else { return };
        if self.squares.reserve[side.0 as usize] == 0 {
            return;
        }
        for c in 0..r.cells {
            let to = CellId(c as u16);
            if self.cells[c] == Piece::HOLE && sq.place_zone.is_none_or(|z| r.in_zone(z, side, to)) {
                out.push(Move::square_action(MoveKind::PlaceSquare, to, to, Piece::EMPTY));
            }
        }
    }
}

impl State {
    /// Whether the side to move can still act in this turn: some action of the slots due is
    /// legal. A turn whose remaining actions may all be left out ends by itself when none is
    /// possible.
    pub(crate) fn can_act(&mut self, r: &Rules) -> bool {
        let side = self.side;
        // Square actions off every line that could open to a royal need no trial.
        let open = self.openings_to_royals(r, side);
        let mut buf = Vec::new();
        for slot in &r.squares.slots[self.slot as usize..] {
            for kind in &slot.kinds {
                if open.as_ref().is_some_and(|o| self.safe_square_action_exists(r, side, *kind, o)) {
                    return true;
                }
                buf.clear();
                match kind {
                    ActionKind::MovePiece => self.pseudo_moves(r, side, &mut buf),
                    ActionKind::MoveSquare => self.square_moves(r, side, &mut buf),
                    ActionKind::PlaceSquare => self.square_placements(r, side, &mut buf),
                }
                for &mv in &buf {
                    self.make(r, mv);
                    let ok = !self.royal_attacked(r, side) && self.kept_apart(r);
                    self.unmake(r);
                    if ok {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `side` has a square action of this kind that is legal without a trial (see
    /// [`State::square_action_safe`]; a carry that may promote is left to the trial).
    fn safe_square_action_exists(&self, r: &Rules, side: PlayerId, kind: ActionKind, open: &Pins) -> bool {
        match kind {
            ActionKind::MovePiece => false,
            ActionKind::MoveSquare => self.any_square_move(r, side, false, |mv| {
                (mv.kind != MoveKind::CarrySquare || r.promotion_of(mv.piece).is_none())
                    && self.square_action_safe(r, mv, open)
            }),
            ActionKind::PlaceSquare => {
                let zone = r.variant.squares.as_ref().and_then(|s| s.place_zone);
                self.squares.reserve[side.0 as usize] > 0
                    && self.no_square.iter().any(|c| zone.is_none_or(|z| r.in_zone(z, side, c)) && !open.holds(c))
            }
        }
    }

    /// The square actions of one kind of the side to move that need no trial, counted from
    /// bit sets (no royal attacked; `open` names the few locations where a square could open a
    /// line to one): those that do, and the carries, are pushed on `buf` to be tried. `None`
    /// where the sets do not apply (past 128 cells, square moves that are not leaps, too many
    /// such locations).
    fn count_safe_square_actions(&self, r: &Rules, kind: ActionKind, open: &Pins, buf: &mut Vec<Move>) -> Option<u64> {
        let sq = r.variant.squares.as_ref()?;
        if r.cells > 128 || open.overflow {
            return None;
        }
        let side = self.side;
        let holes = <u128 as Bits>::from_words(self.no_square.words());
        let opening = open.cells[..open.len as usize].iter().fold(0u128, |m, c| m | 1 << c.0);
        // The actions onto an opening, to be tried: one per target, from `from` (a placement's
        // `from` is its location).
        let trials = |kind: MoveKind, from: Option<CellId>, mut targets: u128, buf: &mut Vec<Move>| {
            while targets != 0 {
                let to = CellId(targets.trailing_zeros() as u16);
                targets &= targets - 1;
                buf.push(Move::square_action(kind, from.unwrap_or(to), to, Piece::EMPTY));
            }
        };
        match kind {
            ActionKind::MovePiece => None,
            ActionKind::PlaceSquare => {
                if self.squares.reserve[side.0 as usize] == 0 {
                    return Some(0);
                }
                let zone = sq.place_zone.map_or(!0u128, |z| {
                    <u128 as Bits>::from_words(r.zone_sets[z.0 as usize * r.players + side.0 as usize].words())
                });
                let places = holes & zone;
                trials(MoveKind::PlaceSquare, None, places & opening, buf);
                Some(u64::from((places & !opening).count_ones()))
            }
            ActionKind::MoveSquare => {
                if r.squares.moves.leaps.is_empty() && !r.squares.moves.rays.is_empty() {
                    return None;
                }
                let pieces = self.occupied.iter().fold(0u128, |m, o| m | <u128 as Bits>::from_words(o.words()));
                let board = if r.cells == 128 { !0 } else { (1u128 << r.cells) - 1 };
                let mut empty = board & !holes & !pieces;
                let mut n = 0;
                while empty != 0 {
                    let c = empty.trailing_zeros() as usize;
                    empty &= empty - 1;
                    let from = CellId(c as u16);
                    if self.squares.frozen.contains(from) || (r.squares.owned && self.squares.owner[c] != side.0 + 1) {
                        continue;
                    }
                    let targets = r.squares.moves.leaps.get(side.0 as usize * r.cells + c).map_or(0, |t| t & holes);
                    n += u64::from((targets & !opening).count_ones());
                    trials(MoveKind::MoveSquare, Some(from), targets & opening, buf);
                }
                // Carries are generated (their promotions) and tried.
                if !r.squares.carries.rays.is_empty() {
                    self.any_square_move(r, side, true, |m| {
                        self.push_promoting(r, r.promotion_of(m.piece), m, buf);
                        false
                    });
                }
                Some(n)
            }
        }
    }

    /// Whether every action still due in the turn may be left out.
    pub(crate) fn rest_optional(&self, r: &Rules) -> bool {
        r.squares.slots[self.slot as usize..].iter().all(|s| s.optional)
    }
}

impl Position {
    /// Whether a square action leaves the mover's royal pieces safe. Attacks depend on the cells
    /// alone, so an empty square's move or placement is tried in the cell array only; a carry
    /// (which moves a piece) is made and unmade.
    fn square_action_legal(&mut self, mv: Move) -> bool {
        let r = &*self.rules;
        if mv.kind == MoveKind::CarrySquare || !r.paths.allows(crate::paths::Path::LightTrial) {
            return self.is_legal(mv);
        }
        let st = &mut self.st;
        let (from, to) = (mv.from.0 as usize, mv.to.0 as usize);
        let was = (st.cells[from], st.cells[to]);
        if mv.kind == MoveKind::MoveSquare {
            st.cells[from] = Piece::HOLE;
        }
        st.cells[to] = Piece::EMPTY;
        let ok = !st.royal_attacked(r, st.side);
        st.cells[to] = was.1;
        st.cells[from] = was.0;
        ok
    }

    /// The square actions (moves, carries, placements) the rules offer at this point of the
    /// turn, before the test of the royal piece's safety.
    pub(crate) fn pseudo_square_actions(&self, out: &mut Vec<Move>) {
        let r = &*self.rules;
        let side = self.st.side;
        for slot in &r.squares.slots[self.st.slot as usize..] {
            for kind in &slot.kinds {
                match kind {
                    ActionKind::MoveSquare => self.st.square_moves(r, side, out),
                    ActionKind::PlaceSquare => self.st.square_placements(r, side, out),
                    ActionKind::MovePiece => {}
                }
            }
            if !slot.optional && slot.skip_if_none.is_none() {
                break;
            }
        }
    }

    /// The legal actions of square play: those of the current slot of the turn, and of later
    /// slots where the earlier ones may be skipped (by choice, or because none is legal), plus
    /// the end of the turn when every remaining slot may be left out.
    pub(crate) fn legal_square_play(&mut self, out: &mut Vec<Move>) {
        let end = self.walk_slots(|pos, kind| {
            let start = out.len();
            match kind {
                ActionKind::MovePiece => pos.legal_piece_moves_into(out),
                _ => {
                    pos.pseudo_square_kind(kind, out);
                    pos.keep_legal_square_actions(out, start);
                }
            }
            (out.len() - start) as u64
        });
        if end {
            out.push(Move::end_turn());
        }
    }

    /// The number of legal actions [`Position::legal_square_play`] makes, counted without
    /// storing them where a test is not needed (`buf`: scratch space).
    pub(crate) fn count_square_play(&mut self, buf: &mut Vec<Move>) -> u64 {
        let mut n = 0;
        let end = self.walk_slots(|pos, kind| {
            let found = match kind {
                ActionKind::MovePiece => pos.count_piece_moves(buf),
                _ => pos.count_square_actions(kind, buf),
            };
            n += found;
            found
        });
        n + u64::from(end)
    }

    /// Walks the slots of the turn from the current one: `act` gives each action kind due its
    /// turn (once) and returns how many legal actions it has; later slots are reached where
    /// the earlier ones may be skipped. Returns whether the turn may end here.
    pub(crate) fn walk_slots(&mut self, mut act: impl FnMut(&mut Position, ActionKind) -> u64) -> bool {
        let mut done = 0u8;
        let mut s = self.st.slot as usize;
        loop {
            // The kinds read by index: `act` takes the position whole (no reference count of
            // the rules held across it, a cost at every count).
            let mut found = 0;
            for k in 0..self.rules.squares.slots[s].kinds.len() {
                let kind = self.rules.squares.slots[s].kinds[k];
                if done & kind.bit() != 0 {
                    continue;
                }
                done |= kind.bit();
                found += act(self, kind);
            }
            let r = &*self.rules;
            let slot = &r.squares.slots[s];
            let skip = slot.optional
                || (found == 0
                    && slot
                        .skip_if_none
                        .as_ref()
                        .is_some_and(|conds| conds.iter().all(|c| self.st.condition_holds(r, c, None))));
            if !skip {
                return false;
            }
            s += 1;
            if s == r.squares.slots.len() {
                // Every remaining action may be left out: the turn may end here, once something
                // has been done in it.
                return self.st.slot > 0;
            }
        }
    }

    /// Appends the pseudo-legal square actions of one kind.
    pub(crate) fn pseudo_square_kind(&self, kind: ActionKind, out: &mut Vec<Move>) {
        let r = &*self.rules;
        match kind {
            ActionKind::MoveSquare => self.st.square_moves(r, self.st.side, out),
            ActionKind::PlaceSquare => self.st.square_placements(r, self.st.side, out),
            ActionKind::MovePiece => {}
        }
    }

    /// Keeps the legal square actions of `out` from `start` on.
    fn keep_legal_square_actions(&mut self, out: &mut Vec<Move>, start: usize) {
        let open = if start < out.len() { self.st.openings_to_royals(&self.rules, self.st.side) } else { None };
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            if self.square_action_clear(mv, &open) || self.square_action_legal(mv) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// The legal square actions of one kind, counted: from bit sets where the square moves are
    /// leaps and no line to a royal could open at more than a few locations, else one by one.
    fn count_square_actions(&mut self, kind: ActionKind, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        let side = self.st.side;
        let open = self.st.openings_to_royals(&self.rules, side);
        let counted = open.as_ref().and_then(|o| self.st.count_safe_square_actions(&self.rules, kind, o, buf));
        if counted.is_none() {
            buf.clear();
            self.pseudo_square_kind(kind, buf);
        }
        // The actions left in `buf` are tried one by one.
        let mut n = counted.unwrap_or(0);
        for &mv in buf.iter() {
            if self.square_action_clear(mv, &open) || self.square_action_legal(mv) {
                n += 1;
            }
        }
        n
    }

    /// Whether a square action is legal without a trial (see [`State::square_action_safe`]).
    #[inline]
    fn square_action_clear(&self, mv: Move, open: &Option<Pins>) -> bool {
        open.as_ref().is_some_and(|o| self.st.square_action_safe(&self.rules, mv, o))
    }
}

impl State {
    /// Whether a square action is legal without a trial when no royal of the mover is
    /// attacked (`open`: [`State::openings_to_royals`]): it moves or places an empty square on
    /// a location that opens no line to a royal, or carries a piece that is not royal (the
    /// location it leaves loses its square and the one it reaches is occupied: every probe
    /// walk stops where it stopped, on no enemy).
    #[inline]
    fn square_action_safe(&self, r: &Rules, mv: Move, open: &Pins) -> bool {
        if mv.kind == MoveKind::CarrySquare {
            !r.pieces.royal_code[mv.piece.0 as usize]
        } else {
            !open.holds(mv.to)
        }
    }

    /// When attacks are read from the probes alone and no royal of `side` is attacked: the
    /// locations without a square where a square, moved or placed there, would open a line
    /// from an enemy piece to a royal (the first hole of a probe walk that reaches an attacker
    /// past it); `None` when a royal is attacked or the probes do not tell. A square put
    /// anywhere else is safe: the location it leaves (now without one) can only stop a walk
    /// sooner.
    pub(crate) fn openings_to_royals(&mut self, r: &Rules, side: PlayerId) -> Option<Pins> {
        if !r.paths.allows(crate::paths::Path::SquareOpenings) {
            return None;
        }
        let (hash, ply) = (self.hash, self.history.len() as u32);
        if let Some((h, p, s, open)) = self.memos.openings_memo {
            if (h, p, s) == (hash, ply, side) {
                return open;
            }
        }
        let open = self.find_openings(r, side);
        self.memos.openings_memo = Some((hash, ply, side, open));
        open
    }

    /// [`State::openings_to_royals`] found.
    fn find_openings(&self, r: &Rules, side: PlayerId) -> Option<Pins> {
        let mut open = Pins::NONE;
        // With ray masks, a probe without an enemy piece on it is skipped.
        let masks = &r.count.masks.probes;
        let enemies = (!masks.is_empty()).then(|| self.enemy_cells(r, side));
        // One royal, with the threats' bit sets: a hole alone between it and an attacker.
        let mut royals = self.royals[side.0 as usize].iter();
        if let (Some(royal), None, Some(e), true) = (royals.next(), royals.next(), enemies, r.count.threats.built()) {
            let holes = <u128 as Bits>::from_words(self.no_square.words());
            let all = self.occupancy::<u128>(side).all;
            match self.lines_to(r, royal, holes, all, e, 0, &mut open) {
                Some(true) => return None,
                Some(false) => return Some(open),
                None => (open.len, open.overflow) = (0, false),
            }
        }
        for royal in self.royals[side.0 as usize].iter() {
            for p in (0..r.players as u8).filter(|p| r.threatens(PlayerId(*p), side)) {
                let i = p as usize * r.cells + royal.0 as usize;
                let (a, b) = (r.tables.probe_index[i] as usize, r.tables.probe_index[i + 1] as usize);
                for (j, probe) in r.tables.probes[a..b].iter().enumerate() {
                    if enemies.is_some_and(|e| masks[a + j] & e == 0) {
                        continue;
                    }
                    let s = probe.start as usize;
                    let mut hole = None;
                    for k in s..s + probe.len as usize {
                        let c = r.tables.probe_cells[k];
                        let q = self.cells[c.0 as usize];
                        if q.is_empty() {
                            continue;
                        }
                        if q == Piece::HOLE {
                            // Past a second hole, one square cannot open the line.
                            if hole.is_some() {
                                break;
                            }
                            hole = Some(c);
                            continue;
                        }
                        if r.owner(q).0 == p && r.probe_has(k, r.type_of(q)) {
                            match hole {
                                None => return None,
                                Some(h) => open.add(h),
                            }
                        }
                        break;
                    }
                }
            }
        }
        Some(open)
    }
}
