//! The board's primitive changes: pieces on and off cells (stacks and locations between cells included), the change log of the general path, the hash from scratch.

use crate::ir::{CellId, PlayerId};
use crate::position::{Logged, State, NO_ANCHOR};
use crate::rules::{Piece, Rules};

impl State {
    pub(crate) fn compute_hash(&self, r: &Rules) -> u64 {
        let codes = r.players * r.types + 1;
        let mut h = r.keys.side[self.side.0 as usize];
        for (p, key) in r.keys.out.iter().enumerate() {
            if self.out & (1 << p) != 0 {
                h ^= key;
            }
        }
        for (i, p) in self.cells.iter().enumerate() {
            if r.between.on && self.anchor[i] != NO_ANCHOR {
                // A covering piece is hashed once, at its location.
                continue;
            }
            if *p == Piece::HOLE {
                h ^= r.keys.piece[i * codes];
            } else if r.stacks.on && r.is_stack_cell(CellId(i as u16)) {
                let stack = &self.stacks[i];
                for (k, q) in stack.iter().enumerate() {
                    let same_before = stack[..k].iter().filter(|x| *x == q).count();
                    h ^= r.zkey(CellId(i as u16), *q, same_before);
                }
            } else if *p != Piece::EMPTY {
                h ^= r.keys.piece[i * codes + p.0 as usize];
            }
        }
        for (i, key) in r.keys.castle.iter().enumerate() {
            if self.rights.castling & (1 << i) != 0 {
                h ^= key;
            }
        }
        if let Some(ep) = self.rights.ep {
            for c in ep.passed() {
                h ^= r.keys.ep[c.0 as usize];
            }
        }
        for i in 0..r.variant.phases.len() {
            if self.phases & (1 << i) != 0 {
                h ^= r.keys.phase[i];
            }
        }
        if r.squares.play {
            for (i, o) in self.squares.owner.iter().enumerate() {
                if *o > 0 && self.cells[i] != Piece::HOLE {
                    h ^= r.keys.owner[i * r.players + *o as usize - 1];
                }
            }
            for (p, n) in self.squares.reserve.iter().enumerate() {
                h ^= r.zreserve(PlayerId(p as u8), *n);
            }
            for c in self.squares.frozen.cells() {
                h ^= r.keys.frozen[c.0 as usize];
            }
            for c in self.squares.touched.cells() {
                h ^= r.keys.touched[c.0 as usize];
            }
            h ^= r.keys.slot[self.slot as usize];
        }
        for (p, n) in self.clocks.checks.iter().enumerate() {
            h ^= crate::counters::check_key(PlayerId(p as u8), *n);
        }
        for (i, v) in self.choices.iter().enumerate() {
            h ^= crate::choices::choice_key(i, *v);
        }
        if let Some(pr) = r.program.as_deref() {
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
            h ^= pr.z_turn[crate::rules::players::turn_slot(r, self.turn)];
            h ^= self.partial_key(r, pr);
        }
        h
    }

    /// The pieces on a cell: its stack, or the single piece of a plain cell.
    pub(crate) fn pieces_at<'a>(&'a self, r: &Rules, cell: CellId) -> &'a [Piece] {
        let i = cell.0 as usize;
        if r.stacks.on && r.is_stack_cell(cell) {
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
        } else if r.stacks.on && r.is_stack_cell(cell) {
            self.stacks[cell.0 as usize].len()
        } else {
            1
        }
    }

    /// Adds a piece to a cell (on top of a stack cell's pieces, kept in code order).
    pub(crate) fn add(&mut self, r: &Rules, cell: CellId, p: Piece) {
        let i = cell.0 as usize;
        if !(r.stacks.on && r.is_stack_cell(cell)) {
            self.put_on(r, cell, p);
            return;
        }
        let stack = &mut self.stacks[i];
        let at = stack.partition_point(|q| q.0 <= p.0);
        let same = stack[..at].iter().rev().take_while(|q| **q == p).count();
        stack.insert(at, p);
        if stack.len() == 2 {
            self.crowds.insert(cell);
        }
        self.cells[i] = stack[0];
        self.hash ^= r.zkey(cell, p, same);
        self.tally(r, cell, p, 1);
        let owner = r.owner(p).0 as usize;
        self.occupied[owner].insert(cell);
        if r.pieces.royal_code[p.0 as usize] {
            self.royals[owner].insert(cell);
        }
    }

    /// Removes one piece of the given code from a cell.
    pub(crate) fn remove(&mut self, r: &Rules, cell: CellId, p: Piece) {
        let i = cell.0 as usize;
        if !(r.stacks.on && r.is_stack_cell(cell)) {
            self.take_off(r, cell);
            return;
        }
        let stack = &mut self.stacks[i];
        let Some(at) = stack.iter().rposition(|q| *q == p) else { return };
        stack.remove(at);
        if stack.len() == 1 {
            self.crowds.remove(cell);
        }
        let same = stack.iter().filter(|q| **q == p).count();
        self.cells[i] = stack.first().copied().unwrap_or(Piece::EMPTY);
        self.hash ^= r.zkey(cell, p, same);
        let owner = r.owner(p);
        if !stack.iter().any(|q| r.owner(*q) == owner) {
            self.occupied[owner.0 as usize].remove(cell);
        }
        if r.pieces.royal_code[p.0 as usize]
            && !stack.iter().any(|q| r.owner(*q) == owner && r.pieces.royal_code[q.0 as usize])
        {
            self.royals[owner.0 as usize].remove(cell);
        }
        self.tally(r, cell, p, -1);
    }

    /// Where the piece on `cell` stands: the cell, or the between location covering it.
    #[inline]
    pub(crate) fn standing_at(&self, cell: CellId) -> CellId {
        match self.anchor.get(cell.0 as usize) {
            Some(&a) if a != NO_ANCHOR => a,
            _ => cell,
        }
    }

    /// Whether a new piece may be put on the location without taking anything: any location
    /// but one between cells whose covered cells hold a piece (a drop there would have to take
    /// pieces it does not stand on, so it is not made; see docs/language.md, drops).
    #[inline]
    pub(crate) fn covered_empty(&self, r: &Rules, cell: CellId) -> bool {
        !r.is_between(cell) || r.covers(cell).iter().all(|c| self.cells[c.0 as usize].is_empty())
    }

    /// Puts a piece on a location and, for a location between cells, on every cell it covers.
    #[inline]
    pub(crate) fn put_on(&mut self, r: &Rules, cell: CellId, p: Piece) {
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
    pub(crate) fn take_off(&mut self, r: &Rules, cell: CellId) -> Piece {
        if r.is_between(cell) {
            for &c in r.covers(cell) {
                self.cells[c.0 as usize] = Piece::EMPTY;
                self.anchor[c.0 as usize] = NO_ANCHOR;
            }
        }
        self.lift(r, cell)
    }

    #[inline(always)]
    pub(crate) fn lift(&mut self, r: &Rules, cell: CellId) -> Piece {
        let p = self.cells[cell.0 as usize];
        self.cells[cell.0 as usize] = Piece::EMPTY;
        let owner = r.owner(p).0 as usize;
        self.occupied[owner].remove(cell);
        if r.pieces.royal_code[p.0 as usize] {
            self.royals[owner].remove(cell);
        }
        self.hash ^= r.zkey(cell, p, 0);
        self.tally(r, cell, p, -1);
        p
    }

    #[inline(always)]
    pub(crate) fn drop_on(&mut self, r: &Rules, cell: CellId, p: Piece) {
        self.cells[cell.0 as usize] = p;
        let owner = r.owner(p).0 as usize;
        self.occupied[owner].insert(cell);
        if r.pieces.royal_code[p.0 as usize] {
            self.royals[owner].insert(cell);
        }
        self.hash ^= r.zkey(cell, p, 0);
        self.tally(r, cell, p, 1);
    }

    /// Adds (`sign` 1) or takes away (-1) a piece's piece-square terms on a cell to or from
    /// its owner's sums, where a search attached a table.
    #[inline(always)]
    fn tally(&mut self, r: &Rules, cell: CellId, p: Piece, sign: i32) {
        if let Some(t) = self.tally.as_deref_mut() {
            let e = t.table.get(p.0 as usize * r.cells + cell.0 as usize).copied().unwrap_or_default();
            if let Some(s) = t.sums.get_mut(r.owner(p).0 as usize) {
                for k in 0..super::position::TALLIED {
                    s[k] = s[k].wrapping_add(sign.wrapping_mul(e[k]));
                }
            }
        }
    }

    /// The attribute bits of the piece on a cell.
    #[inline]
    pub(crate) fn attr_of(&self, c: CellId) -> u64 {
        self.attrs.get(c.0 as usize).copied().unwrap_or(0)
    }

    /// Sets the attributes of a cell's piece, keeping the hash.
    pub(crate) fn set_attrs(&mut self, r: &Rules, c: CellId, new: u64) {
        let Some(pr) = r.program.as_deref() else { return };
        if pr.attributes == 0 {
            return;
        }
        let old = self.attrs[c.0 as usize];
        let mut diff = old ^ new;
        while diff != 0 {
            let a = diff.trailing_zeros() as usize;
            diff &= diff - 1;
            self.hash ^= pr.z_attr[c.0 as usize * pr.attributes + a];
        }
        self.attrs[c.0 as usize] = new;
    }

    /// Puts a piece on a cell (joining a stack there), with attributes, logging the change.
    pub(crate) fn put_logged(&mut self, r: &Rules, cell: CellId, p: Piece, attrs: u64) {
        let before = self.attr_of(cell);
        self.log.push(Logged::Put(cell, p, before));
        self.add(r, cell, p);
        self.piece_count += 1;
        if !self.attrs.is_empty() {
            self.set_attrs(r, cell, attrs);
        }
    }

    /// Takes one piece of code `p` off a cell, logging the change (`captured`: it is captured);
    /// returns its attributes.
    pub(crate) fn take_logged(&mut self, r: &Rules, cell: CellId, p: Piece, captured: bool) -> u64 {
        let attrs = self.attr_of(cell);
        self.log.push(Logged::Took(cell, p, attrs, captured));
        self.remove(r, cell, p);
        self.piece_count -= 1;
        if !self.attrs.is_empty() && self.count(r, cell) == 0 {
            self.set_attrs(r, cell, 0);
        }
        attrs
    }

    /// Takes every piece off a cell (the whole stack), logging it; returns the attributes.
    pub(crate) fn clear_logged(&mut self, r: &Rules, cell: CellId, captured: bool) -> u64 {
        let mut attrs = 0;
        loop {
            let p = self.cells[cell.0 as usize];
            if p.is_empty() || p == Piece::HOLE {
                return attrs;
            }
            attrs = self.take_logged(r, cell, p, captured);
        }
    }

    /// Sets a square's owner (0: none, else 1 + player), logging the change.
    pub(crate) fn own_logged(&mut self, r: &Rules, cell: CellId, owner: u8) {
        let i = cell.0 as usize;
        let old = self.squares.owner[i];
        if old == owner {
            return;
        }
        self.log.push(Logged::Owner(cell, old));
        self.hash ^= r.zowner(cell, old) ^ r.zowner(cell, owner);
        self.squares.owner[i] = owner;
    }

    /// Puts a square on a location without one, or takes the (empty) square off it, logging it.
    pub(crate) fn square_logged(&mut self, r: &Rules, cell: CellId, present: bool) {
        let was = self.cells[cell.0 as usize] != Piece::HOLE;
        self.log.push(Logged::Square(cell, was));
        self.cells[cell.0 as usize] = if present { Piece::EMPTY } else { Piece::HOLE };
        if present {
            self.no_square.remove(cell);
        } else {
            self.no_square.insert(cell);
        }
        self.hash ^= r.zhole(cell);
    }

    /// Sets a player's reserve of squares, logging it.
    pub(crate) fn reserve_logged(&mut self, r: &Rules, player: PlayerId, n: u32) {
        let i = player.0 as usize;
        self.log.push(Logged::Reserve(player, self.squares.reserve[i]));
        self.hash ^= r.zreserve(player, self.squares.reserve[i]) ^ r.zreserve(player, n);
        self.squares.reserve[i] = n;
    }

    /// Sets a hand count, logging it.
    pub(crate) fn hand_logged(&mut self, r: &Rules, i: usize, n: u32) {
        if r.program.is_none() {
            return;
        }
        self.log.push(Logged::Hand(i as u32, self.hand[i]));
        self.set_hand(r, i, n);
    }

    /// Sets a hand count, keeping the hash (unlogged: the plain make's undo takes it back).
    #[inline]
    pub(crate) fn set_hand(&mut self, r: &Rules, i: usize, n: u32) {
        let Some(pr) = r.program.as_deref() else { return };
        self.hash ^= pr.z_hand[i * 65 + self.hand[i].min(64) as usize];
        self.hand[i] = n;
        self.hash ^= pr.z_hand[i * 65 + n.min(64) as usize];
    }

    /// Sets the attributes of a cell's piece, logging it.
    pub(crate) fn attrs_logged(&mut self, r: &Rules, c: CellId, new: u64) {
        let old = self.attr_of(c);
        if old != new {
            self.log.push(Logged::Attrs(c, old));
            self.set_attrs(r, c, new);
        }
    }

    /// Takes back the logged changes past `len`, newest first (the hash and the piece count are
    /// restored by the caller from the undo record).
    pub(crate) fn unlog(&mut self, r: &Rules, len: usize) {
        while self.log.len() > len {
            let Some(entry) = self.log.pop() else { break };
            match entry {
                Logged::Put(c, p, attrs) => {
                    self.remove(r, c, p);
                    if !self.attrs.is_empty() {
                        self.attrs[c.0 as usize] = attrs;
                    }
                }
                Logged::Took(c, p, attrs, _) => {
                    self.add(r, c, p);
                    if !self.attrs.is_empty() {
                        self.attrs[c.0 as usize] = attrs;
                    }
                }
                Logged::Owner(c, o) => self.squares.owner[c.0 as usize] = o,
                Logged::Square(c, present) => {
                    self.cells[c.0 as usize] = if present { Piece::EMPTY } else { Piece::HOLE };
                    if present {
                        self.no_square.remove(c);
                    } else {
                        self.no_square.insert(c);
                    }
                }
                Logged::Attrs(c, a) => self.attrs[c.0 as usize] = a,
                Logged::Hand(i, n) => self.hand[i as usize] = n,
                Logged::Reserve(p, n) => self.squares.reserve[p.0 as usize] = n,
                Logged::Choice(i, v) => self.choices[i as usize] = v,
                Logged::Blast => {}
            }
        }
    }
}
