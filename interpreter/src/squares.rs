//! Square play: squares as game objects (moved, carried, placed, owned, removed) and turns of several actions.
//!
//! A location's square is in the cell array (`Piece::HOLE` where there is none), owners and
//! reserves are per-cell and per-player arrays, and a turn is a sequence of action slots; each
//! action is one move (one ply), and the side to move changes when the turn's last action is made.

use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{ActionKind, CellId, DirId, Geometry, PlayerId, Variant};
use crate::position::{Move, MoveKind, Position, State};
use crate::rules::{Piece, Rules};
use crate::tables::NO_MOVE_TYPE;

/// Rays per (player, cell) for the moves of squares: each ray is walked through locations
/// without a square, every one of them a target.
#[derive(Debug, Default)]
pub(crate) struct RayTable {
    /// Per (player, cell): range into `rays`.
    index: Vec<u32>,
    /// (start, len) into `cells`.
    rays: Vec<(u32, u16)>,
    cells: Vec<CellId>,
}

impl RayTable {
    pub(crate) fn build(variant: &Variant, graph: &Graph, geometries: &[Geometry]) -> RayTable {
        let mut t = RayTable { index: vec![0], ..RayTable::default() };
        for p in &variant.players {
            let map = &p.direction_map;
            for c in 0..graph.cell_count() {
                let cell = CellId(c as u16);
                let mut rays: Vec<Vec<CellId>> = Vec::new();
                for g in geometries {
                    match g {
                        Geometry::Slide { dirs, max } => {
                            let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                            for d in dirs {
                                rays.extend(graph.rays(cell, map[d.0 as usize], max, false));
                            }
                        }
                        Geometry::Leap { paths } => {
                            for path in paths {
                                let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                rays.extend(graph.follow(cell, &mapped, false).into_iter().map(|t| vec![t]));
                            }
                        }
                        Geometry::Hop { .. } => {}
                    }
                }
                let mut seen = Vec::new();
                for ray in rays {
                    if ray.len() == 1 && seen.contains(&ray[0]) {
                        continue;
                    }
                    if ray.len() == 1 {
                        seen.push(ray[0]);
                    }
                    t.rays.push((t.cells.len() as u32, ray.len() as u16));
                    t.cells.extend(ray);
                }
                t.index.push(t.rays.len() as u32);
            }
        }
        t
    }

    /// The rays from a cell for a player.
    #[inline]
    pub(crate) fn rays(&self, cells: usize, player: PlayerId, cell: CellId) -> impl Iterator<Item = &[CellId]> + '_ {
        let i = player.0 as usize * cells + cell.0 as usize;
        self.rays[self.index[i] as usize..self.index[i + 1] as usize]
            .iter()
            .map(|&(s, n)| &self.cells[s as usize..s as usize + n as usize])
    }
}

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

impl State {
    /// Pseudo-legal square moves of `side`: empty squares by the square moves, squares holding
    /// one of its pieces by the carry moves, each to a location without a square.
    pub(crate) fn square_moves(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let Some(sq) = r.variant.squares.as_ref() else { return };
        for c in 0..r.cells {
            let from = CellId(c as u16);
            let p = self.cells[c];
            if p == Piece::HOLE || self.frozen.contains(from) {
                continue;
            }
            let (table, kind) = if p.is_empty() {
                // With owned squares, only one's own empty squares move.
                if r.owned_squares && self.owner[c] != side.0 + 1 {
                    continue;
                }
                (&r.square_moves, MoveKind::MoveSquare)
            } else {
                if r.owner(p) != side || (!sq.carry_royal && r.royal_code[p.0 as usize]) {
                    continue;
                }
                // A square carries the one piece standing on it (not a stack, nor a piece
                // covering it from between cells).
                if (r.stacking && self.count(r, from) != 1) || self.standing_at(from) != from {
                    continue;
                }
                (&r.square_carries, MoveKind::CarrySquare)
            };
            let mut mv = Move {
                from,
                to: from,
                kind,
                promote: 0,
                extra: 0,
                piece: p,
                take: Piece::EMPTY,
                seq: 0,
                move_type: NO_MOVE_TYPE,
                gate: 0,
            };
            for ray in table.rays(r.cells, side, from) {
                for &to in ray {
                    if self.cells[to.0 as usize] != Piece::HOLE {
                        break;
                    }
                    mv.to = to;
                    if kind == MoveKind::CarrySquare {
                        self.push_promoting(r, r.variant.pieces[r.type_of(p).0 as usize].promotion.as_ref(), mv, out);
                    } else {
                        out.push(mv);
                    }
                }
            }
        }
    }

    /// Pseudo-legal placements of `side`: a square from reserve on any location without one
    /// (in the placement zone, if the game names one).
    pub(crate) fn square_placements(&self, r: &Rules, side: PlayerId, out: &mut Vec<Move>) {
        let Some(sq) = r.variant.squares.as_ref() else { return };
        if self.reserve[side.0 as usize] == 0 {
            return;
        }
        for c in 0..r.cells {
            let to = CellId(c as u16);
            if self.cells[c] == Piece::HOLE && sq.place_zone.is_none_or(|z| r.in_zone(z, side, to)) {
                out.push(Move {
                    from: to,
                    to,
                    kind: MoveKind::PlaceSquare,
                    promote: 0,
                    extra: 0,
                    piece: Piece::EMPTY,
                    take: Piece::EMPTY,
                    seq: 0,
                    move_type: NO_MOVE_TYPE,
                    gate: 0,
                });
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
        let mut buf = Vec::new();
        for slot in &r.slots[self.slot as usize..] {
            for kind in &slot.kinds {
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

    /// Whether every action still due in the turn may be left out.
    pub(crate) fn rest_optional(&self, r: &Rules) -> bool {
        r.slots[self.slot as usize..].iter().all(|s| s.optional)
    }
}

impl Position {
    /// Whether a square action leaves the mover's royal pieces safe. Attacks depend on the cells
    /// alone, so an empty square's move or placement is tried in the cell array only; a carry
    /// (which moves a piece) is made and unmade.
    fn square_action_legal(&mut self, mv: Move) -> bool {
        let r = &*self.rules;
        if mv.kind == MoveKind::CarrySquare || !r.light_legality() {
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
        for slot in &r.slots[self.st.slot as usize..] {
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
        let rules = self.rules.clone();
        let r = &*rules;
        let side = self.st.side;
        let mut done = 0u8;
        let mut s = self.st.slot as usize;
        loop {
            let slot = &r.slots[s];
            let first = out.len();
            for &kind in &slot.kinds {
                if done & kind.bit() != 0 {
                    continue;
                }
                done |= kind.bit();
                // Generate this kind's pseudo-legal actions after the others, then keep the legal.
                let start = out.len();
                match kind {
                    ActionKind::MovePiece => {
                        self.legal_piece_moves_into(out);
                        continue;
                    }
                    ActionKind::MoveSquare => self.st.square_moves(r, side, out),
                    ActionKind::PlaceSquare => self.st.square_placements(r, side, out),
                }
                let lines = if start < out.len() { self.st.lines_to_safe_royals(r, side) } else { None };
                let mut kept = start;
                for i in start..out.len() {
                    let mv = out[i];
                    // A square that no probe from a royal crosses opens no line to it.
                    let clear = lines.as_ref().is_some_and(|l| mv.kind != MoveKind::CarrySquare && !l.contains(mv.to));
                    if clear || self.square_action_legal(mv) {
                        out[kept] = mv;
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
            let none = out.len() == first;
            let skip = slot.optional
                || (none
                    && slot
                        .skip_if_none
                        .as_ref()
                        .is_some_and(|conds| conds.iter().all(|c| self.st.condition_holds(r, c, None))));
            if !skip {
                break;
            }
            s += 1;
            if s == r.slots.len() {
                // Every remaining action may be left out: the turn may end here, once something
                // has been done in it.
                if self.st.slot > 0 {
                    out.push(Move::end_turn());
                }
                break;
            }
        }
    }
}

impl State {
    /// When attacks are read from the probes alone and no royal of `side` is attacked: every
    /// cell the probes from its royals cross. An empty square moved or placed elsewhere leaves
    /// every probe walk as it was, except that the square it leaves (now without one) may
    /// stop a walk sooner: it cannot expose a royal.
    fn lines_to_safe_royals(&self, r: &Rules, side: PlayerId) -> Option<CellSet> {
        if !r.probes_only || !r.light_legality() || self.royal_attacked(r, side) {
            return None;
        }
        let mut lines = CellSet::new(r.cells);
        for royal in self.royals[side.0 as usize].iter() {
            for p in (0..r.players).filter(|p| !r.allied(PlayerId(*p as u8), side)) {
                let i = p * r.cells + royal.0 as usize;
                let (a, b) = (r.probe_index[i] as usize, r.probe_index[i + 1] as usize);
                for probe in &r.probes[a..b] {
                    let s = probe.start as usize;
                    for c in &r.probe_cells[s..s + probe.len as usize] {
                        lines.insert(*c);
                    }
                }
            }
        }
        Some(lines)
    }
}
