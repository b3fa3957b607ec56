//! Attacks: whether a player could capture on a cell, by reverse probes from the tables, by the entries of slow pieces walked toward the cell, and by the programs whose reach holds it; and the pieces pinned to a royal.

use crate::royal_memo::Pins;

use crate::ir::{CaptureRule, CellId, MoveMode, MoveTypeId, PieceTypeId, PlayerId, RoyalCheck};
use crate::position::{MoveKind, Position, State};
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, EntryKind, Probe};

impl State {
    /// Whether any player other than `side` attacks `cell`, as a royal there would be
    /// attacked: where captures explode, only by captures that spare the attacker's royals.
    pub(crate) fn attacked_by_any_enemy(&self, r: &Rules, cell: CellId, side: PlayerId) -> bool {
        let blast = r.explosions.is_some();
        (0..r.players as u8)
            .map(PlayerId)
            .filter(|p| r.threatens(*p, side))
            .any(|p| self.attacked_by_types(r, cell, p, blast))
    }

    /// Whether an enemy of `side` could capture `piece`, one of `side`'s, were it on `cell`
    /// (castling's path): a program that captures only an enemy it finds there sees the piece,
    /// as the tables read every cell as holding one.
    pub(crate) fn attacked_as(&self, r: &Rules, cell: CellId, side: PlayerId, piece: Piece) -> bool {
        if let Some(attacked) = self.attacked_in_trial(r, cell, side, 0, (0, 0)) {
            return attacked;
        }
        let blast = r.explosions.is_some();
        (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, side)).any(|p| {
            if r.paths.allows(crate::paths::Path::ProbeAttacks) {
                return self.probe_attack(r, cell, p, blast);
            }
            self.attacked_where(r, cell, p, Some(piece), None, 0, blast)
        })
    }

    /// Whether `by` could capture on `cell` (were an enemy piece there).
    #[inline]
    pub(crate) fn attacked(&self, r: &Rules, cell: CellId, by: PlayerId) -> bool {
        self.attacked_by_types(r, cell, by, false)
    }

    /// [`State::attacked`]; with `blast`, only by captures whose blast spares `by`'s royals.
    #[inline]
    pub(crate) fn attacked_by_types(&self, r: &Rules, cell: CellId, by: PlayerId, blast: bool) -> bool {
        if r.paths.allows(crate::paths::Path::ProbeAttacks) {
            return self.probe_attack(r, cell, by, blast);
        }
        self.attacked_where(r, cell, by, None, None, 0, blast)
    }

    /// Whether a capture by `by`'s piece of type `ty` landing on `landing` counts: always,
    /// or with `blast` only when its explosion there spares `by`'s royal pieces.
    #[inline]
    pub(crate) fn counts(&self, r: &Rules, by: PlayerId, ty: PieceTypeId, landing: CellId, blast: bool) -> bool {
        !blast || self.spares_royals(r, by, ty, landing)
    }

    /// Whether `by` could capture on `cell` with some move (of a move type, if given);
    /// `imagined`: the piece a program imagines standing on an empty cell. `depth`: nesting of
    /// `attacked` tests inside programs.
    pub(crate) fn attacked_by(
        &self,
        r: &Rules,
        cell: CellId,
        by: PlayerId,
        imagined: Option<Piece>,
        ty: Option<MoveTypeId>,
        depth: u8,
    ) -> bool {
        self.attacked_where(r, cell, by, imagined, ty, depth, false)
    }

    /// [`State::attacked_by`]; with `blast`, only by captures whose blast (centred where the
    /// capturer lands) spares `by`'s royal pieces.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn attacked_where(
        &self,
        r: &Rules,
        cell: CellId,
        by: PlayerId,
        imagined: Option<Piece>,
        ty: Option<MoveTypeId>,
        depth: u8,
        blast: bool,
    ) -> bool {
        if ty.is_none() {
            let probed = if r.stacks.on {
                self.attacked_stacked(r, cell, by, blast)
            } else {
                self.probe_attack(r, cell, by, blast)
            };
            if probed {
                return true;
            }
        }
        if (r.slow_attacks || ty.is_some()) && self.slow_attack(r, cell, by, ty, blast) {
            return true;
        }
        r.program.is_some() && self.program_attacks(r, cell, by, ty, imagined, depth, blast)
    }

    /// The probe walk: along each reverse ray to its first occupied cell, whose piece attacks
    /// if it is `by`'s and of a type that captures from there.
    #[inline]
    fn probe_attack(&self, r: &Rules, cell: CellId, by: PlayerId, blast: bool) -> bool {
        self.probes_holding(r, cell, by).any(|probe| {
            self.probe_hit(r, probe, by).is_some_and(|k| {
                self.counts(r, by, r.type_of(self.cells[r.tables.probe_cells[k].0 as usize]), cell, blast)
            })
        })
    }

    /// The cells of `by`'s pieces the probe walk finds attacking `cell` (a cell on two probes
    /// may come twice), for static exchange where the probes tell every attack.
    pub(crate) fn probe_attackers(&self, r: &Rules, cell: CellId, by: PlayerId, out: &mut Vec<CellId>) {
        for probe in self.probes_holding(r, cell, by) {
            if let Some(k) = self.probe_hit(r, probe, by) {
                out.push(r.tables.probe_cells[k]);
            }
        }
    }

    /// Where along `probe` (its index in `probe_cells`) a piece of `by`'s attacks: the first
    /// occupied cell, if a piece of `by`'s of a type the probe holds there stands on it.
    #[inline(always)]
    pub(crate) fn probe_hit(&self, r: &Rules, probe: &Probe, by: PlayerId) -> Option<usize> {
        let s = probe.start as usize;
        let end = s + probe.len as usize;
        for k in s..end {
            let q = self.cells[r.tables.probe_cells[k].0 as usize];
            if q.is_empty() {
                continue;
            }
            if q == Piece::HOLE || r.owner(q) != by {
                return None;
            }
            let ty = r.type_of(q);
            if r.probe_has(k, ty) {
                return Some(k);
            }
            return if r.between.on { self.covering_hit(r, k, end, ty) } else { None };
        }
        None
    }

    /// Where along a probe the piece first met at `k`, standing between cells, attacks from
    /// one of its other covered cells further along the probe: its own cells do not block it
    /// (it moves as from each of them), so the probe's first occupied cell may not be the one
    /// it attacks from.
    #[inline(never)]
    fn covering_hit(&self, r: &Rules, k: usize, end: usize, ty: PieceTypeId) -> Option<usize> {
        let at = self.standing_at(r.tables.probe_cells[k]);
        if at == r.tables.probe_cells[k] {
            return None;
        }
        (k + 1..end).take_while(|j| self.standing_at(r.tables.probe_cells[*j]) == at).find(|j| r.probe_has(*j, ty))
    }

    /// Attacks the probes do not hold: the entries of `by`'s slow pieces (hops, lame leaps,
    /// conditional captures; every entry of a move type when one is asked for), each walked
    /// toward `cell` as the generator would walk it with a victim there.
    fn slow_attack(&self, r: &Rules, cell: CellId, by: PlayerId, ty: Option<MoveTypeId>, blast: bool) -> bool {
        if r.stacks.on {
            return self.attacked_by_generation(r, cell, by, ty, blast);
        }
        if let (Some(reach), None) = (&r.slow_reach, ty) {
            let i = by.0 as usize * r.cells + cell.0 as usize;
            return reach.items[reach.index[i] as usize..reach.index[i + 1] as usize].iter().any(|&(from, t, e)| {
                self.cells[from.0 as usize] == r.piece(by, t)
                    && self.counts(r, by, t, cell, blast)
                    && self.entry_captures_at(r, &r.tables.entries[e as usize], t, from, from, cell)
            });
        }
        for from in self.occupied[by.0 as usize].iter() {
            let piece = self.cells[from.0 as usize];
            let t = r.type_of(piece);
            if (ty.is_none() && !r.tables.slow_types[t.0 as usize]) || !self.counts(r, by, t, cell, blast) {
                continue;
            }
            let origins: &[CellId] = if r.is_between(from) { r.covers(from) } else { std::slice::from_ref(&from) };
            for &origin in origins {
                let (a, b, _) = r.entries_for(by, t, origin);
                for e in &r.tables.entries[a..b] {
                    if ty.is_some_and(|m| m.0 != e.move_type) {
                        continue;
                    }
                    if self.entry_captures_at(r, e, t, from, origin, cell) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether an entry of the piece on `from` (moving as from `origin`) captures a piece
    /// standing on `cell`.
    fn entry_captures_at(
        &self,
        r: &Rules,
        e: &Entry,
        ty: PieceTypeId,
        from: CellId,
        origin: CellId,
        cell: CellId,
    ) -> bool {
        if e.mode == MoveMode::MoveOnly {
            return false;
        }
        let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
        // Conditions as the attacker reads them, whoever is to move.
        let by = r.owner(self.cells[from.0 as usize]);
        let allowed = || {
            !e.dynamic
                || r.tables.atoms[ty.0 as usize][e.atom as usize]
                    .conditions
                    .iter()
                    .all(|c| self.condition_holds_for(r, c, Some((origin, cell)), by))
        };
        let occupied = |c: CellId| {
            let q = self.cells[c.0 as usize];
            !(q.is_empty() || (r.between.on && self.anchor.get(c.0 as usize) == Some(&from)))
        };
        match e.kind {
            EntryKind::Lame => {
                let (last, path) = ray.split_last().expect("a lame leap has cells");
                *last == cell
                    && !path.iter().enumerate().any(|(i, c)| e.need_empty & (1 << i) != 0 && occupied(*c))
                    && allowed()
            }
            EntryKind::Slide => {
                for &to in ray {
                    if r.between.on && r.between.cells[to.0 as usize] {
                        continue;
                    }
                    if to == cell {
                        return allowed();
                    }
                    if occupied(to) {
                        return false;
                    }
                }
                false
            }
            EntryKind::Hop => {
                let mut screened = false;
                let mut past = 0u16;
                for &to in ray {
                    if self.cells[to.0 as usize] == Piece::HOLE {
                        return false;
                    }
                    if !screened {
                        // The victim's cell would be the screen.
                        if to == cell {
                            return false;
                        }
                        screened = occupied(to);
                        continue;
                    }
                    past += 1;
                    if e.hop_max != 0 && past > e.hop_max as u16 {
                        return false;
                    }
                    if to == cell {
                        return allowed();
                    }
                    if occupied(to) {
                        return false;
                    }
                }
                false
            }
        }
    }

    /// The cells on the ways of the enemy slow pieces (hops, lame leaps) that could capture on
    /// `royal`, one bit per cell, for the pin shortcut: the cells between each such piece and
    /// the royal, whose contents decide whether it attacks (a screen, a leg, a line). A move
    /// that neither leaves nor lands on them, and captures nothing, leaves those attacks as
    /// they were. `None` where that cannot be told: no index of the slow pieces' entries, an
    /// entry whose conditions change with play, a cell past the 128th.
    pub(crate) fn slow_watch(&self, r: &Rules, royal: CellId, side: PlayerId) -> Option<u128> {
        if !r.slow_attacks {
            return Some(0);
        }
        let reach = r.slow_reach.as_ref()?;
        let mut watch = 0u128;
        for p in (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, side)) {
            let i = p.0 as usize * r.cells + royal.0 as usize;
            for &(from, t, e) in &reach.items[reach.index[i] as usize..reach.index[i + 1] as usize] {
                if self.cells[from.0 as usize] != r.piece(p, t) {
                    continue;
                }
                let e = &r.tables.entries[e as usize];
                if e.dynamic {
                    return None;
                }
                let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
                for &c in ray.iter().take_while(|c| **c != royal) {
                    watch |= 1u128.checked_shl(c.0 as u32)?;
                }
            }
        }
        Some(watch)
    }

    /// Whether `side` has a royal piece under attack (between cells: on any cell it covers).
    pub(crate) fn royal_attacked(&self, r: &Rules, side: PlayerId) -> bool {
        if !r.has_royal {
            return false;
        }
        if r.paths.generated_checks() {
            return self.clone().royal_takeable(r, side);
        }
        match r.variant.royal_check {
            RoyalCheck::Any => self.royal_cells(side).any(|c| self.royal_cell_attacked(r, c, side)),
            rule => {
                let royals = self.royals[side.0 as usize].len();
                let attacked = self.royal_cells(side).filter(|c| self.royal_cell_attacked(r, *c, side)).count();
                rule.in_check(royals, attacked)
            }
        }
    }

    /// Whether an enemy of `side` could capture a royal piece of `side` standing on `c`: on a
    /// location between cells, by landing on any of the cells it covers.
    pub(crate) fn royal_cell_attacked(&self, r: &Rules, c: CellId, side: PlayerId) -> bool {
        if r.is_between(c) {
            r.covers(c).iter().any(|x| self.attacked_by_any_enemy(r, *x, side))
        } else {
            self.attacked_by_any_enemy(r, c, side)
        }
    }

    /// Whether a piece of the defender on `cell` could be captured there by a piece of `by`
    /// landing on it (its occupancy allows a capture there at all); `extra` is 1 when the capturer
    /// lands on the cell, 0 when it does not (en passant).
    pub(crate) fn capturable_on(&self, r: &Rules, cell: CellId, by: PlayerId, extra: usize) -> bool {
        if !r.is_stack_cell(cell) {
            return true;
        }
        let occ = r.occupancy(cell, self.phases);
        let n = self.count(r, cell).max(1);
        if (n == 1 && occ.lone_inert) || (n >= 2 && occ.crowd_safe) {
            return false;
        }
        let taken = if n >= 2 && occ.capture == CaptureRule::All {
            self.pieces_at(r, cell).iter().filter(|q| !r.allied(r.owner(**q), by)).count().max(1)
        } else {
            1
        };
        occ.capacity.is_none_or(|c| n - taken + extra <= c as usize)
    }

    /// The attack test on a board with stacks: could `by` capture a piece of another player on
    /// `cell` (were one there), given the occupancy rules of the cells on the way.
    fn attacked_stacked(&self, r: &Rules, cell: CellId, by: PlayerId, blast: bool) -> bool {
        if !self.capturable_on(r, cell, by, 1) {
            return false;
        }
        for probe in self.probes_holding(r, cell, by) {
            let s = probe.start as usize;
            for k in s..s + probe.len as usize {
                let c = r.tables.probe_cells[k];
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
                if attacker_in(r, stack, by, k, &|t| self.counts(r, by, t, cell, blast)) {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// The reverse probes of `by`'s pieces to `cell`, skipping (where the count's masks hold
    /// the probes' cells) those without a piece of `by`'s.
    #[inline(always)]
    pub(crate) fn probes_holding<'r>(
        &self,
        r: &'r Rules,
        cell: CellId,
        by: PlayerId,
    ) -> impl Iterator<Item = &'r Probe> {
        let i = by.0 as usize * r.cells + cell.0 as usize;
        let (a, b) = (r.tables.probe_index[i] as usize, r.tables.probe_index[i + 1] as usize);
        let (masks, theirs) = self.held_by(r, by);
        let masks = masks.get(a..b).unwrap_or(&[]);
        r.tables.probes[a..b]
            .iter()
            .enumerate()
            .filter(move |(j, _)| masks.get(*j).is_none_or(|m| m & theirs != 0))
            .map(|(_, p)| p)
    }

    /// The general attack test on a board with stacks (hops, conditional captures): generate
    /// `by`'s moves and look for a capture on `cell`, with a stand-in enemy piece there if it
    /// is empty.
    fn attacked_by_generation(
        &self,
        r: &Rules,
        cell: CellId,
        by: PlayerId,
        ty: Option<MoveTypeId>,
        blast: bool,
    ) -> bool {
        let mut probe = self.clone();
        probe.history.clear();
        probe.hashes.clear();
        probe.partial = None;
        if probe.count(r, cell) == 0 {
            let victim = PlayerId(if by.0 == 0 { 1 } else { 0 });
            probe.add(r, cell, r.piece(victim, PieceTypeId(0)));
        }
        probe.side = by;
        // Only captures are looked for: `in-check` (on move-only powers) is not asked.
        probe.judging_replies = true;
        let mut moves = Vec::new();
        for from in probe.occupied[by.0 as usize].iter() {
            for &piece in probe.pieces_at(r, from).to_vec().iter().filter(|p| r.owner(**p) == by) {
                if (ty.is_none() && !r.tables.slow_types[r.type_of(piece).0 as usize])
                    || !self.counts(r, by, r.type_of(piece), cell, blast)
                {
                    continue;
                }
                crate::movegen::with_every_choice(|| {
                    probe.piece_moves_stacked(r, by, from, piece, crate::rules::programs::Only::ANY, &mut moves)
                });
            }
        }
        moves.iter().any(|m| {
            m.to == cell && m.kind == MoveKind::Normal && m.is_capture() && ty.is_none_or(|t| m.move_type == t.0)
        })
    }

    /// The cells of `side`'s pieces pinned to the royal on `royal`: the shield is the only cell
    /// between the royal and an enemy attacker along a probe that blocks, and it holds exactly
    /// one piece, the mover's (a cell of several pieces keeps blocking when one leaves). Lone
    /// inert pieces neither shield nor attack.
    pub(crate) fn pinned(&self, r: &Rules, royal: CellId, side: PlayerId) -> Pins {
        // Without the check asked, the walk always answers (else: every piece pinned).
        self.walk_pins(r, royal, side, false, |_| true).unwrap_or(Pins { overflow: true, ..Pins::NONE })
    }

    /// [`State::royal_attacked`] and [`State::pinned`] in one walk of the probes, on a board
    /// of single pieces where attacks are read from the probes alone (a piece between cells is
    /// one shield however many cells of the line it covers): `None` when an enemy attacks the
    /// royal, else the pinned pieces.
    pub(crate) fn pins_unless_attacked(&self, r: &Rules, royal: CellId, side: PlayerId) -> Option<Pins> {
        self.walk_pins(r, royal, side, true, |_| true)
    }

    /// [`State::pins_unless_attacked`] on a board of stacks, as [`State::attacked_stacked`]
    /// reads attacks: an enemy that could not capture the royal where it stands (in a crowd
    /// that keeps it, on an inert cell) neither checks nor pins; only a move from or onto the
    /// royal's cell changes that, and those are tested.
    pub(crate) fn stacked_pins_unless_check(&self, r: &Rules, royal: CellId, side: PlayerId) -> Option<Pins> {
        self.walk_pins(r, royal, side, true, |p| self.capturable_on(r, royal, p, 1))
    }

    /// The walk of [`State::pinned`] over the players `walked` accepts; with `check`, `None`
    /// as soon as an attacker is met with no shield before it.
    fn walk_pins(
        &self,
        r: &Rules,
        royal: CellId,
        side: PlayerId,
        check: bool,
        walked: impl Fn(PlayerId) -> bool,
    ) -> Option<Pins> {
        let mut pins = Pins::NONE;
        for p in (0..r.players as u8).filter(|p| r.threatens(PlayerId(*p), side) && walked(PlayerId(*p))) {
            for probe in self.probes_holding(r, royal, PlayerId(p)) {
                let s = probe.start as usize;
                let mut shield: Option<CellId> = None;
                for k in s..s + probe.len as usize {
                    let c = r.tables.probe_cells[k];
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
                    let hit = attacker_in(r, stack, PlayerId(p), k, &ANY_TYPE)
                        || (r.between.on
                            && r.owner(q) == PlayerId(p)
                            && self.covering_hit(r, k, s + probe.len as usize, r.type_of(q)).is_some());
                    if hit {
                        match shield {
                            Some(c) => pins.add(c),
                            None if check => return None,
                            None => {}
                        }
                    }
                    break;
                }
            }
        }
        Some(pins)
    }

    /// Whether the `keep-apart` pieces of different players are far enough apart.
    pub(crate) fn kept_apart(&self, r: &Rules) -> bool {
        for (ty, near) in &r.apart {
            let (c0, c1) = (r.piece(PlayerId(0), *ty), r.piece(PlayerId(1), *ty));
            // Royal types are found through the royal cell sets, the others through occupancy.
            let cells = |p: usize, code: Piece| {
                let set = if r.pieces.royal_code[code.0 as usize] { &self.royals[p] } else { &self.occupied[p] };
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

/// Whether a piece of `by` among `stack` attacks from probe cell `k`.
#[inline]
fn attacker_in(r: &Rules, stack: &[Piece], by: PlayerId, k: usize, counts: &impl Fn(PieceTypeId) -> bool) -> bool {
    stack.iter().any(|q| r.owner(*q) == by && r.probe_has(k, r.type_of(*q)) && counts(r.type_of(*q)))
}

/// Every attacker counts.
const ANY_TYPE: fn(PieceTypeId) -> bool = |_| true;

impl Position {
    /// Whether `by` attacks `cell`.
    pub fn is_attacked(&self, cell: CellId, by: PlayerId) -> bool {
        self.st.attacked(&self.rules, cell, by)
    }

    /// Whether `player` has a royal piece under attack, whoever is to move.
    pub fn royal_attacked(&self, player: PlayerId) -> bool {
        self.st.royal_attacked(&self.rules, player)
    }
}
