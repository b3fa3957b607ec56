//! Choices made before the first move (an army each): which are pending, the moves that make them, what making one places, and the setup counts they add to.

use crate::ir::{PieceTypeId, PlayerId};
use crate::position::{Logged, Move, MoveKind, Position, State};
use crate::rules::{Piece, Rules};

/// The hash key of `option` made in the choice slot `slot` (choice × players + player).
pub(crate) fn choice_key(slot: usize, option: u8) -> u64 {
    let mut s = 0x6368_6f69_6365_0000 ^ ((slot as u64) << 8) ^ option as u64;
    crate::rules::keys::splitmix(&mut s)
}

impl State {
    /// The option `player` made in choice `choice`, if any.
    pub(crate) fn chosen(&self, r: &Rules, choice: usize, player: PlayerId) -> Option<usize> {
        let v = *self.choices.get(choice * r.players + player.0 as usize)?;
        (v != 0).then(|| v as usize - 1)
    }

    /// The first choice still to be made, and who makes it: choices in file order, each by
    /// its players in turn order.
    pub(crate) fn pending_choice(&self, r: &Rules) -> Option<(usize, PlayerId)> {
        if self.choices.is_empty() {
            return None;
        }
        r.variant
            .choices
            .iter()
            .enumerate()
            .find_map(|(i, c)| c.choosers.iter().find(|p| self.chosen(r, i, **p).is_none()).map(|p| (i, *p)))
    }

    /// Whether the side to move has a choice to make (then its only moves are the options).
    #[inline]
    pub(crate) fn choosing(&self, r: &Rules) -> bool {
        !self.choices.is_empty() && self.side_choice(r).is_some()
    }

    /// The side to move's first choice still to be made.
    fn side_choice(&self, r: &Rules) -> Option<usize> {
        r.variant
            .choices
            .iter()
            .enumerate()
            .find(|(i, c)| c.choosers.contains(&self.side) && self.chosen(r, *i, self.side).is_none())
            .map(|(i, _)| i)
    }

    /// The moves of the side to move's pending choice: one per option whose cells are free
    /// (locations with a square and no piece).
    pub(crate) fn choice_moves(&self, r: &Rules, out: &mut Vec<Move>) {
        let Some(i) = self.side_choice(r) else { return };
        for (k, o) in r.variant.choices[i].options.iter().enumerate() {
            let g = &o.grants[self.side.0 as usize];
            if g.placements.iter().all(|(c, _)| self.cells[c.0 as usize] == Piece::EMPTY) {
                let mut mv = Move::end_turn();
                mv.kind = MoveKind::Choose;
                mv.seq = i as u16;
                mv.extra = k as u16;
                out.push(mv);
            }
        }
    }

    /// Makes a choice: the option's pieces placed (taking their squares, where squares are
    /// owned), its hand and rights given; then the next player with a choice to make, or the
    /// game's first mover, is to move. Turns, clocks and the move number do not advance.
    pub(crate) fn make_choice(&mut self, r: &Rules, mv: Move) {
        let (i, k, side) = (mv.seq as usize, mv.extra as usize, self.side);
        let g = &r.variant.choices[i].options[k].grants[side.0 as usize];
        for &(c, t) in &g.placements {
            self.put_logged(r, c, r.piece(side, t), r.attr_default(t));
            if r.squares.owned {
                self.own_logged(r, c, side.0 + 1);
            }
        }
        for &(t, n) in &g.hands {
            let h = side.0 as usize * r.types + t.0 as usize;
            self.hand_logged(r, h, self.hand[h].saturating_add(n));
        }
        for &letter in &g.rights {
            let gained = r.gates.read_letter(letter).unwrap_or(0) & !self.rights.castling;
            self.flip_castling(r, gained);
        }
        let slot = i * r.players + side.0 as usize;
        self.log.push(Logged::Choice(slot as u16, self.choices[slot]));
        self.hash ^= choice_key(slot, self.choices[slot]) ^ choice_key(slot, k as u8 + 1);
        self.choices[slot] = k as u8 + 1;
        let next = match self.pending_choice(r) {
            Some((_, p)) => p,
            None => self.turn_player(r, self.turn),
        };
        self.hash ^= r.keys.side[side.0 as usize] ^ r.keys.side[next.0 as usize];
        self.side = next;
    }

    /// How many pieces of a type `player` had at the start: the setup's and those of the
    /// options it chose.
    pub(crate) fn setup_count(&self, r: &Rules, player: PlayerId, ty: PieceTypeId) -> u32 {
        let mut n = r.pieces.setup_counts[player.0 as usize * r.types + ty.0 as usize];
        for (i, c) in r.variant.choices.iter().enumerate() {
            if let Some(k) = self.chosen(r, i, player) {
                n += c.options[k].grants[player.0 as usize].placements.iter().filter(|(_, t)| *t == ty).count() as u32;
            }
        }
        n
    }
}

impl Position {
    /// The first choice still to be made (its index in `Variant::choices`) and its chooser.
    pub fn pending_choice(&self) -> Option<(usize, PlayerId)> {
        self.st.pending_choice(&self.rules)
    }

    /// The option `player` made in choice `choice` (index in `Variant::choices`), if any.
    pub fn chosen(&self, choice: usize, player: PlayerId) -> Option<usize> {
        self.st.chosen(&self.rules, choice, player)
    }

    /// The text of a choice move: `army=fides`.
    pub(crate) fn choice_text(&self, mv: Move) -> String {
        let c = &self.rules.variant.choices[mv.seq as usize];
        format!("{}={}", c.name, c.options[mv.extra as usize].name)
    }
}

impl Position {
    /// The position-string field of choices, with a leading space: for each choice, the
    /// option each player made (`-` for none yet), `choices=army:fides,-`; empty in games
    /// without choices.
    pub(crate) fn choice_field(&self) -> String {
        let r = &*self.rules;
        if r.variant.choices.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = r
            .variant
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let made: Vec<&str> = (0..r.players as u8)
                    .map(|p| self.chosen(i, PlayerId(p)).map_or("-", |k| c.options[k].name.as_str()))
                    .collect();
                format!("{}:{}", c.name, made.join(","))
            })
            .collect();
        format!(" choices={}", parts.join(";"))
    }

    /// Reads the value of a `choices=` field (at offset `at` of the position string): for
    /// each choice named, the option each player made or `-`. Choices it leaves out are not
    /// made. Setting a choice places nothing: the rows hold the pieces.
    pub(crate) fn read_choice_field(&mut self, value: &str, at: usize) -> Result<(), crate::fen::PositionError> {
        let rules = self.rules.clone();
        let r = &*rules;
        let err = |offset: usize, len: usize, message: String| crate::fen::PositionError {
            offset: at + offset,
            len: len.max(1),
            message,
        };
        let mut o = 0;
        for part in value.split(';') {
            let Some((name, made)) = part.split_once(':') else {
                return Err(err(o, part.len(), format!("expected `choice:option,option`, found `{part}`")));
            };
            let Some(i) = r.variant.choices.iter().position(|c| c.name == name) else {
                let names: Vec<&str> = r.variant.choices.iter().map(|c| c.name.as_str()).collect();
                return Err(err(
                    o,
                    name.len(),
                    format!("expected a choice of this game ({}), found `{name}`", names.join(", ")),
                ));
            };
            let c = &r.variant.choices[i];
            let opts: Vec<&str> = made.split(',').collect();
            if opts.len() != r.players {
                return Err(err(
                    o + name.len() + 1,
                    made.len(),
                    format!("expected one option (or `-`) for each of the {} players, found `{made}`", r.players),
                ));
            }
            let mut so = o + name.len() + 1;
            for (p, opt) in opts.iter().enumerate() {
                let slot = i * r.players + p;
                self.st.choices[slot] = if *opt == "-" {
                    0
                } else {
                    let k = c.options.iter().position(|x| x.name == *opt).ok_or_else(|| {
                        let names: Vec<&str> = c.options.iter().map(|x| x.name.as_str()).collect();
                        err(
                            so,
                            opt.len(),
                            format!("expected an option of `{name}` ({}) or `-`, found `{opt}`", names.join(", ")),
                        )
                    })?;
                    if !c.choosers.contains(&PlayerId(p as u8)) {
                        return Err(err(
                            so,
                            opt.len(),
                            format!("player {} makes no choice `{name}`: expected `-`", p + 1),
                        ));
                    }
                    k as u8 + 1
                };
                so += opt.len() + 1;
            }
            o += part.len() + 1;
        }
        Ok(())
    }
}

impl Position {
    /// Why a position read from a string cannot go on: the side to move has a choice to make
    /// and no option's cells are free (a position string of the game under way that does not
    /// say which options were made).
    pub(crate) fn choice_without_room(&self) -> Option<String> {
        let r = &*self.rules;
        let i = self.st.side_choice(r)?;
        let mut moves = Vec::new();
        self.st.choice_moves(r, &mut moves);
        if !moves.is_empty() {
            return None;
        }
        let c = &r.variant.choices[i];
        let side = &r.variant.players[self.st.side.0 as usize].name;
        Some(format!(
            "{side} has the choice `{}` to make, but no option has its cells free: expected a field \
             `choices={}:...` giving the options made (e.g. `choices={}:{}`)",
            c.name,
            c.name,
            c.name,
            vec![c.options[0].name.as_str(); r.players].join(",")
        ))
    }
}
