//! Move notation: long algebraic (`Ng1-f3`, `e7xd8=Q`, `O-O`) for output; long, short (SAN-like) and coordinate forms for input.

use crate::position::{Move, MoveKind, Position};

/// A move text that names no legal move, or several.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move of any form Varia reads.
    #[error("`{0}` is not a move here: no legal move is written that way")]
    NoMatch(String),
    /// An action on squares that the rules do not allow here, and why.
    #[error("`{text}` is not a move here: {reason}")]
    Illegal {
        /// The text given.
        text: String,
        /// Which rule forbids it.
        reason: String,
    },
    /// The text fits several legal moves.
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(", "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// The long forms of the moves it fits.
        candidates: Vec<String>,
    },
}

impl Position {
    fn letter_of(&self, mv: Move) -> Option<char> {
        let ty = &self.rules.variant.pieces[self.rules.type_of(mv.piece).0 as usize];
        (!ty.san_without_letter).then(|| ty.letter.to_ascii_uppercase())
    }

    fn is_capture(&self, mv: Move) -> bool {
        mv.kind != MoveKind::Castle && mv.is_capture()
    }

    /// The letter of the piece a capture takes, where the mover chooses it: a capture of one
    /// piece on a cell holding several (`Nf3xBe5` takes the bishop of a crowded `e5`).
    fn taken_letter(&self, mv: Move) -> Option<char> {
        if mv.kind != MoveKind::Normal || mv.take.is_empty() || mv.take == crate::rules::Piece::ALL {
            return None;
        }
        if self.pieces_at(mv.to).len() < 2 {
            return None;
        }
        let ty = &self.rules.variant.pieces[self.rules.type_of(mv.take).0 as usize];
        Some(ty.letter.to_ascii_uppercase())
    }

    fn promotion_suffix(&self, mv: Move) -> String {
        match mv.promotion() {
            // A type marked `+` keeps its mark (`=+R`): a trailing `+` reads as check.
            Some(t) => {
                let p = &self.rules.variant.pieces[t.0 as usize];
                format!("={}{}", if p.mark == Some('+') { "+" } else { "" }, p.letter.to_ascii_uppercase())
            }
            None => String::new(),
        }
    }

    /// A gated move's suffix: `/H` (the hawk put on the cell the move leaves); on a castling,
    /// with the cell, `/He1` or `/Hh1`.
    fn gate_suffix(&self, mv: Move) -> String {
        let Some((cell, ty)) = crate::gating::gate_of(&self.rules, mv) else { return String::new() };
        let letter = self.rules.variant.pieces[ty.0 as usize].letter.to_ascii_uppercase();
        if mv.kind == MoveKind::Castle {
            format!("/{letter}{}", self.rules.cell_name(cell))
        } else {
            format!("/{letter}")
        }
    }

    /// A walled move's suffix: `,*d5` (the cell it walls up).
    fn wall_suffix(&self, mv: Move) -> String {
        match mv.wall() {
            Some(c) => format!(",*{}", self.rules.cell_name(c)),
            None => String::new(),
        }
    }

    /// The long algebraic form: piece letter (unless the type omits it), from, `-` or `x`, to,
    /// promotion, gate; castling by its declared notation.
    pub fn long_notation(&self, mv: Move) -> String {
        if let Some(s) = self.square_notation(mv) {
            return s;
        }
        if mv.kind == MoveKind::Castle {
            return format!(
                "{}{}{}",
                self.rules.castling(mv.extra).notation,
                self.gate_suffix(mv),
                self.wall_suffix(mv)
            );
        }
        let mut s = String::new();
        if let Some(l) = self.letter_of(mv) {
            s.push(l);
        }
        s.push_str(self.rules.cell_name(mv.from));
        s.push(if self.is_capture(mv) { 'x' } else { '-' });
        s.extend(self.taken_letter(mv));
        s.push_str(self.rules.cell_name(mv.to));
        s.push_str(&self.promotion_suffix(mv));
        s.push_str(&self.gate_suffix(mv));
        s.push_str(&self.effects_suffix(mv));
        s.push_str(&self.wall_suffix(mv));
        s
    }

    /// What a program move or drop does beyond moving its piece from `from` to `to` and taking
    /// there, so that moves differing only in their side effects are written apart: captures
    /// elsewhere (`xd5`), a copy left behind (`,copy`), other pieces moving (`,h1-f1`), new pieces
    /// (`,+Q@a1`), changes of type (`=Q`, `,c3=Q`) and of owner (`,~c3`), and a turn that goes
    /// on with the same piece (a partial move: `,then`, or `,then:TYPE` when the piece goes on
    /// with moves of one type), so that a step that ends the turn and the same step that
    /// goes on are two texts. Attribute changes are not written.
    fn effects_suffix(&self, mv: Move) -> String {
        use crate::program::run::Change;
        if !matches!(mv.kind, MoveKind::Program | MoveKind::Drop) {
            return String::new();
        }
        let Some((changes, partial)) = self.st.program_changes(&self.rules, mv) else { return String::new() };
        let r = &self.rules;
        let letter = |t: crate::ir::PieceTypeId| r.variant.pieces[t.0 as usize].letter.to_ascii_uppercase();
        let mut s = String::new();
        let mut main_seen = false;
        // Captures, movements, the mover's change of type (as a promotion), new pieces, other
        // changes of type and owner.
        for rank in 0..5 {
            for &ch in &changes {
                match ch {
                    Change::Capture(c) if rank == 0 && c != mv.to => {
                        s.push('x');
                        s.push_str(r.cell_name(c));
                    }
                    Change::Go { from, to, piece, copy, .. } if rank == 1 => {
                        if !main_seen && from == mv.from && to == mv.to && piece == mv.piece {
                            main_seen = true;
                            if copy {
                                s.push_str(",copy");
                            }
                            continue;
                        }
                        s.push(',');
                        s.push_str(r.cell_name(from));
                        s.push_str(if copy { "+" } else { "-" });
                        s.push_str(r.cell_name(to));
                    }
                    Change::Create(c, _, t) if rank == 3 => s.push_str(&format!(",+{}@{}", letter(t), r.cell_name(c))),
                    Change::Retype(c, t) if rank == 2 && c == mv.to => s.push_str(&format!("={}", letter(t))),
                    Change::Retype(c, t) if rank == 4 && c != mv.to => {
                        s.push_str(&format!(",{}={}", r.cell_name(c), letter(t)))
                    }
                    Change::Reown(c, _) if rank == 4 => s.push_str(&format!(",~{}", r.cell_name(c))),
                    _ => {}
                }
            }
        }
        match partial {
            Some(Some(t)) => {
                s.push_str(",then:");
                s.push_str(r.variant.move_types.get(t.0 as usize).map_or("?", String::as_str));
            }
            Some(None) => s.push_str(",then"),
            None => {}
        }
        s
    }

    /// The long form without what [`Self::effects_suffix`] adds.
    fn plain_long_notation(&self, mv: Move) -> String {
        let long = self.long_notation(mv);
        let suffix = self.effects_suffix(mv);
        long.strip_suffix(suffix.as_str()).map(str::to_string).unwrap_or(long)
    }

    /// The notation of an action on squares, as Betza writes them: `@@f3` places a square,
    /// `@g8-e6` moves one (with the piece on it, if any: `@g7-g8=Q`); `end` ends a turn early.
    fn square_notation(&self, mv: Move) -> Option<String> {
        let cell = |c| self.rules.cell_name(c);
        Some(match mv.kind {
            MoveKind::PlaceSquare => format!("@@{}", cell(mv.to)),
            MoveKind::MoveSquare | MoveKind::CarrySquare => {
                format!("@{}-{}{}", cell(mv.from), cell(mv.to), self.promotion_suffix(mv))
            }
            MoveKind::EndTurn => "end".to_string(),
            MoveKind::Choose => self.choice_text(mv),
            MoveKind::Drop => {
                let ty = &self.rules.variant.pieces[self.rules.type_of(mv.piece).0 as usize];
                format!(
                    "{}@{}{}{}{}",
                    ty.letter.to_ascii_uppercase(),
                    cell(mv.to),
                    self.promotion_suffix(mv),
                    self.effects_suffix(mv),
                    self.wall_suffix(mv)
                )
            }
            _ => return None,
        })
    }

    /// The short (SAN-like) form, disambiguated among `legal` as little as needed.
    pub fn short_notation(&self, mv: Move, legal: &[Move]) -> String {
        let keys: Vec<String> = legal.iter().map(|o| self.target_key(*o)).collect();
        let rivals = |n: &str| -> Vec<Move> {
            legal.iter().zip(&keys).filter(|(_, k)| n.contains(k.as_str())).map(|(o, _)| *o).collect()
        };
        self.short_form(mv, &rivals)
    }

    /// The short form of every move of `legal`, each as [`Self::short_notation`] writes it, in
    /// time about proportional to the list: a move is weighed only against the moves to the
    /// cells its text names, found by name (telling each from the whole list was quadratic: 2,400
    /// queen moves took 134 ms, where writing their long forms takes 8).
    pub fn short_notations(&self, legal: &[Move]) -> Vec<String> {
        let mut by_target: std::collections::HashMap<String, Vec<Move>> = std::collections::HashMap::new();
        for m in legal {
            by_target.entry(self.target_key(*m)).or_default().push(*m);
        }
        // The moves to every cell whose name is part of the text (a name that normalises to
        // nothing is part of every text).
        let rivals = |n: &str| -> Vec<Move> {
            let bounds: Vec<usize> = n.char_indices().map(|(i, _)| i).chain([n.len()]).collect();
            let mut out: Vec<Move> = by_target.get("").cloned().unwrap_or_default();
            for (k, &i) in bounds.iter().enumerate() {
                for &j in &bounds[k + 1..] {
                    out.extend(by_target.get(&n[i..j]).into_iter().flatten());
                }
            }
            out
        };
        legal.iter().map(|&mv| self.short_form(mv, &rivals)).collect()
    }

    /// The name of `mv`'s destination as normalised texts hold it (`x1` is `1` there).
    fn target_key(&self, mv: Move) -> String {
        self.rules.cell_name(mv.to).replace([':', 'x', '-'], "")
    }

    /// The short form of `mv`, told apart from the moves `rivals` gives for a normalised text
    /// (those to the cells it names, which every other move reading the same way goes to).
    fn short_form(&self, mv: Move, rivals: &dyn Fn(&str) -> Vec<Move>) -> String {
        // A drop is always written with its `@` (`P@e4`), so it never reads as a piece's move.
        if matches!(mv.kind, MoveKind::Castle | MoveKind::Drop) || !mv.kind.is_piece_move() {
            return self.long_notation(mv);
        }
        let rules = &self.rules;
        // A pawn's capture names its file (`exd5`); other moves start with no start cell.
        let min_level = |m: &Move| usize::from(self.letter_of(*m).is_none() && self.is_capture(*m));
        let mut level = min_level(&mv);
        // As SAN, name the start's file, else its rank, else the whole cell, until no other legal
        // move reads the same way at any level: rivals for the same target share the bare form,
        // and where cell names run together (`Rcd2`: the rook on c2 to d2, or to cd2?) a looser
        // form of another move may read the same too.
        let written = |m: &Move, level: usize| {
            let from = rules.cell_name(m.from);
            let (file, rank) = split_cell_name(from);
            let mut s = String::new();
            s.extend(self.letter_of(*m));
            s.push_str(["", file, rank, from][level]);
            if self.is_capture(*m) {
                s.push('x');
            }
            s.extend(self.taken_letter(*m));
            s.push_str(rules.cell_name(m.to));
            s.push_str(&self.promotion_suffix(*m));
            s.push_str(&self.gate_suffix(*m));
            s.push_str(&self.effects_suffix(*m));
            s.push_str(&self.wall_suffix(*m));
            s
        };
        while level <= 3 {
            let s = written(&mv, level);
            let n = normalise(&s);
            let clash = rivals(&n)
                .iter()
                .filter(|o| **o != mv && !matches!(o.kind, MoveKind::Castle | MoveKind::Drop) && o.kind.is_piece_move())
                .any(|o| (min_level(o)..=3).any(|l| normalise(&written(o, l)) == n));
            if !clash {
                return s;
            }
            level += 1;
        }
        self.long_notation(mv)
    }

    /// Reads a move in any accepted form against the legal moves of this position.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        // A shogi promotion in UCI (`e4e5+`, a drop promoted side up `+P@b2` as Fairy-Stockfish
        // writes it, or `P@b2+` as Varia once wrote it): its `+` is not a check sign; nor is the
        // `-` of a promoted piece turning back (`a1a2-`). But where the plain drop gives check,
        // a `+` after it is the check sign SAN writes (`B@c5+`; the promoted drop is `B@c5=+B+`).
        let trimmed = text.trim();
        let checking_drop = trimmed.strip_suffix('+').is_some_and(|p| p.contains('@') && self.drop_checks(&legal, p));
        let signed = (trimmed.strip_prefix('+').filter(|p| p.contains('@')))
            .or_else(|| trimmed.strip_suffix('+').filter(|_| !checking_drop))
            .map(|p| (p, "+"))
            .or_else(|| trimmed.strip_suffix('-').map(|p| (p, "-")));
        if let Some((plain, sign)) = signed {
            let mut promoting = legal.iter().filter(|m| {
                let marked =
                    m.promotion().is_some_and(|t| self.rules.uci_promotion(self.rules.type_of(m.piece), t) == sign);
                if m.kind == MoveKind::Drop {
                    // The drop's long form up to its promotion: `P@b2` of `P@b2=+P`.
                    marked && self.long_notation(**m).split('=').next().is_some_and(|d| d.eq_ignore_ascii_case(plain))
                } else {
                    m.kind.is_piece_move()
                        && m.kind != MoveKind::Castle
                        && marked
                        && plain == format!("{}{}", self.rules.cell_name(m.from), self.rules.cell_name(m.to))
                }
            });
            if let (Some(&mv), None) = (promoting.next(), promoting.next()) {
                return Ok(mv);
            }
        }
        if let Some(mv) = self.wall_form(&legal, trimmed) {
            return Ok(mv);
        }
        let wanted = normalise(text);
        // Every form of a piece's move or a drop names its destination: the moves to cells the
        // text does not name are passed over before anything is written (a position of 20,000
        // drops reads one as fast as it lists them).
        let candidates: Vec<Move> = legal.iter().copied().filter(|m| self.may_name(*m, &wanted)).collect();
        // The long form Varia writes, as written, names one move (each move's long form is its
        // own): found without the costlier short forms. Then as normalised, which may read two
        // alike where a cell's name holds an `x` (`Qx1-x11` and `Qx11-x1` are both `Q111`).
        let written = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let mut as_written = candidates.iter().filter(|m| self.long_notation(**m) == written);
        if let (Some(&mv), None) = (as_written.next(), as_written.next()) {
            return Ok(mv);
        }
        let mut by_long = candidates.iter().filter(|m| normalise(&self.long_notation(**m)) == wanted);
        if let (Some(&mv), None) = (by_long.next(), by_long.next()) {
            return Ok(mv);
        }
        let mut found: Vec<Move> = Vec::new();
        // Exactly the long or short form Varia writes: that move, even if a looser form of
        // another move reads the same (`d4-d5` is the pawn's move when a king shares d4).
        let mut exact: Vec<Move> = Vec::new();
        // The short form Varia writes, as written (told apart from every other move's form).
        let mut short_as_written: Vec<Move> = Vec::new();
        // Next, the coordinates the protocols write (`P15Q15`, the pawn's move from P15, where
        // cells are named in capitals): that move, even if another reads the same by a looser
        // form (the pawn of rank 15 going to Q15, `P15Q15` as an over-specified short form).
        let mut coordinates: Vec<Move> = Vec::new();
        for &mv in &candidates {
            // Short forms are told apart from every legal move, not only the candidates.
            let forms = self.forms(mv, &legal, &wanted);
            if forms[1] == written && !short_as_written.contains(&mv) {
                short_as_written.push(mv);
            }
            if forms[..2].iter().any(|f| normalise(f) == wanted) && !exact.contains(&mv) {
                exact.push(mv);
            }
            if self.coordinate_form(mv).is_some_and(|f| normalise(&f) == wanted) && !coordinates.contains(&mv) {
                coordinates.push(mv);
            }
            if forms.iter().any(|f| normalise(f) == wanted) && !found.contains(&mv) {
                found.push(mv);
            }
        }
        if short_as_written.len() == 1 {
            return Ok(short_as_written[0]);
        }
        if exact.len() == 1 {
            return Ok(exact[0]);
        }
        if exact.is_empty() && coordinates.len() == 1 {
            return Ok(coordinates[0]);
        }
        if found.is_empty() {
            // A move that places a wall names it (`R@i1,*h2`): the text without it may name one
            // move, or several to choose among.
            let walled: Vec<Move> = (candidates.iter().copied())
                .filter(|m| m.wall().is_some())
                .filter(|m| self.long_notation(*m).split_once(",*").is_some_and(|(head, _)| normalise(head) == wanted))
                .collect();
            found = walled;
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(match self.why_not_square_action(&wanted) {
                Some(reason) => MoveError::Illegal { text: text.trim().to_string(), reason },
                None => MoveError::NoMatch(text.trim().to_string()),
            }),
            _ => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: found.iter().map(|m| self.long_notation(*m)).collect(),
            }),
        }
    }

    /// Whether the legal drop written `plain` (`B@c5`, no promotion) gives check.
    fn drop_checks(&mut self, legal: &[Move], plain: &str) -> bool {
        let drop = legal.iter().find(|m| {
            m.kind == MoveKind::Drop && m.promotion().is_none() && self.long_notation(**m).eq_ignore_ascii_case(plain)
        });
        let Some(&mv) = drop else { return false };
        self.make(mv);
        let check = self.in_check();
        self.unmake();
        check
    }

    /// Fairy-Stockfish's form of a move that leaves a wall (`a1a2,a2a1`: the piece's move in
    /// coordinates, then its destination and the cell that loses its square): the one legal
    /// piece move so written after which that cell, which had a square, has none.
    fn wall_form(&mut self, legal: &[Move], text: &str) -> Option<Move> {
        let (moving, wall) = text.split_once(',')?;
        let rules = self.rules.clone();
        let mut found = None;
        for &mv in legal.iter().filter(|m| m.kind.is_piece_move() && m.kind != MoveKind::Castle) {
            if mv.kind == MoveKind::Drop {
                continue;
            }
            let promo = mv.promotion().map(|t| rules.uci_promotion(rules.type_of(mv.piece), t)).unwrap_or_default();
            let (from, to) = (rules.cell_name(mv.from), rules.cell_name(mv.to));
            let gate = self.gate_suffix(mv).to_lowercase();
            if format!("{from}{to}{promo}{}", gate.trim_start_matches('/')) != moving {
                continue;
            }
            let Some(cell) = wall.strip_prefix(to).and_then(|w| rules.cell_by_name(w)) else { continue };
            if !self.has_square(cell) {
                continue;
            }
            // A move that carries its wall names it; another (a square vacated) is made to see.
            let walled = match mv.wall() {
                Some(c) => c == cell,
                None => {
                    self.make(mv);
                    let walled = !self.has_square(cell);
                    self.unmake();
                    walled
                }
            };
            if walled {
                if found.is_some() {
                    return None;
                }
                found = Some(mv);
            }
        }
        found
    }

    /// Whether a normalised move text may name `mv`: every form of a piece's move (castling
    /// aside) and of a drop contains its destination's name, so a text without it names
    /// another move. (A name that normalising could shorten at the end of a text is never
    /// ruled out.)
    fn may_name(&self, mv: Move, wanted: &str) -> bool {
        if !(mv.kind == MoveKind::Drop || mv.kind.is_piece_move() && mv.kind != MoveKind::Castle) {
            return true;
        }
        let to = self.rules.cell_name(mv.to);
        if to.ends_with(['+', '#', '!', '?']) || to.ends_with("ep") || to.ends_with("e.p.") {
            return true;
        }
        wanted.contains(&to.replace([':', 'x', '-'], ""))
    }

    /// For a square action written `@@X` or `@A-B` that is not legal: the rule it breaks.
    fn why_not_square_action(&mut self, wanted: &str) -> Option<String> {
        let rules = self.rules.clone();
        let sq = rules.variant.squares.as_ref()?;
        let cell = |name: &str| rules.cell_by_name(name);
        let side = self.side_to_move();
        let mine = |p: crate::ir::PlayerId| p == side;
        let mut pseudo = Vec::new();
        self.pseudo_square_actions(&mut pseudo);
        let slots = &rules.variant.turn.actions[self.action_index()..];
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        // A kind is due when some legal action is of it, or when the turn's order reaches it
        // past actions that may be left out (an action skipped only when impossible counts as
        // due while it is possible).
        let allowed_now = |kind: crate::ir::ActionKind| {
            if legal.iter().any(|m| crate::ir::ActionKind::of(m.kind) == Some(kind)) {
                return true;
            }
            for slot in slots {
                if slot.kinds.contains(&kind) {
                    return true;
                }
                if !slot.optional {
                    return false;
                }
            }
            false
        };
        if let Some(to) = wanted.strip_prefix("@@") {
            let to = cell(to)?;
            let name = rules.cell_name(to);
            return Some(if self.has_square(to) {
                format!("{name} already has a square")
            } else if self.reserve(side) == Some(0) {
                "no squares are left in reserve".to_string()
            } else if !allowed_now(crate::ir::ActionKind::PlaceSquare) {
                "placing a square is not an action allowed at this point of the turn".to_string()
            } else if sq.place_zone.is_some() && !pseudo.iter().any(|m| m.to == to) {
                format!("squares may not be placed on {name}")
            } else {
                "it would leave the royal piece attacked".to_string()
            });
        }
        let body = wanted.strip_prefix('@')?;
        let body = body.split('=').next()?;
        let (from, to) = (0..=body.len()).filter(|i| body.is_char_boundary(*i)).find_map(|i| {
            let (a, b) = body.split_at(i);
            Some((cell(a)?, cell(b)?))
        })?;
        let (fname, tname) = (rules.cell_name(from), rules.cell_name(to));
        let occupied = self.piece_at(from);
        Some(if !self.has_square(from) {
            format!("there is no square on {fname}")
        } else if self.has_square(to) {
            format!("{tname} already has a square: a square moves only to a location without one")
        } else if !allowed_now(crate::ir::ActionKind::MoveSquare) {
            "moving a square is not an action allowed at this point of the turn".to_string()
        } else if self.untouchable_squares().contains(&from) {
            format!("the square on {fname} was just moved by the opponent and is untouchable this turn")
        } else if occupied.is_some_and(|p| !mine(rules.owner(p))) {
            format!("the square on {fname} holds an enemy piece")
        } else if occupied.is_some() && sq.carries.is_empty() {
            format!("the square on {fname} holds a piece: only empty squares move")
        } else if occupied.is_some_and(|p| !sq.carry_royal && rules.pieces.royal_code[p.0 as usize]) {
            format!("the square on {fname} holds the royal piece, which is never carried")
        } else if occupied.is_none() && self.square_owner(from).is_some_and(|o| !mine(o)) {
            format!("the square on {fname} is the opponent's")
        } else if !pseudo.iter().any(|m| m.from == from && m.to == to) {
            format!("a square on {fname} cannot move to {tname}")
        } else {
            "it would leave the royal piece attacked".to_string()
        })
    }

    /// Every written form that names this move (the short form only when `wanted`, normalised,
    /// names the move's destination, as every short form does).
    /// Where Fairy-Stockfish's coordinates put a pass (`e2e2`, the single royal piece to its
    /// own cell): the cell of the mover's royal piece, when `mv` passes at the start of a turn
    /// and the mover has exactly one; without a royal piece, its piece that comes first from
    /// a1 along the ranks (`a7a7` with pieces on a7 and c7 only), as Fairy-Stockfish picks it.
    pub fn pass_cell(&self, mv: Move) -> Option<crate::ir::CellId> {
        if mv.kind != MoveKind::EndTurn || self.st.partial.is_some() || self.st.slot != 0 {
            return None;
        }
        let mut royals = self.st.royal_cells(self.st.side);
        match (royals.next(), royals.next()) {
            (Some(c), None) => Some(c),
            (None, _) => {
                let cells = &self.rules.variant.board.cells;
                self.occupied_by(self.st.side).iter().min_by_key(|c| {
                    let cell = &cells[c.0 as usize];
                    (cell.layer, cell.y, cell.x)
                })
            }
            _ => None,
        }
    }

    /// A piece's move (castling aside) in coordinates, as UCI writes it (`e2e4`, `e7e8q`, a gate's
    /// letter after: `b1c3h`); none for a promotion written with a sign (`e4e5+`, `a1a2-`),
    /// which normalising would strip: those are read before normalising.
    fn coordinate_form(&self, mv: Move) -> Option<String> {
        if !mv.kind.is_piece_move() || mv.kind == MoveKind::Castle {
            return None;
        }
        let promo =
            mv.promotion().map(|t| self.rules.uci_promotion(self.rules.type_of(mv.piece), t)).unwrap_or_default();
        if promo == "+" || promo == "-" {
            return None;
        }
        let gate = self.gate_suffix(mv).to_lowercase();
        let (from, to) = (self.rules.cell_name(mv.from), self.rules.cell_name(mv.to));
        Some(format!("{from}{to}{promo}{}", gate.trim_start_matches('/')))
    }

    fn forms(&self, mv: Move, legal: &[Move], wanted: &str) -> Vec<String> {
        let long = self.long_notation(mv);
        let short = if wanted.contains(self.rules.cell_name(mv.to)) || mv.kind == MoveKind::Castle {
            self.short_notation(mv, legal)
        } else {
            long.clone()
        };
        let mut forms = vec![long.clone(), short];
        if matches!(mv.kind, MoveKind::Program | MoveKind::Drop) {
            // Without its side effects, or without saying that the turn goes on, a move is
            // still named when no other move reads the same.
            forms.push(self.plain_long_notation(mv));
            if let Some((written, _)) = long.split_once(",then") {
                forms.push(written.to_string());
            }
        }
        if let Some(c) = self.pass_cell(mv) {
            let name = self.rules.cell_name(c);
            forms.push(format!("{name}{name}"));
        }
        if mv.kind == MoveKind::Choose {
            // The option's name alone names it too (`fides` for `army=fides`).
            let c = &self.rules.variant.choices[mv.seq as usize];
            forms.push(c.options[mv.extra as usize].name.clone());
        }
        if !mv.kind.is_piece_move() {
            return forms;
        }
        if mv.kind != MoveKind::Castle {
            let from = self.rules.cell_name(mv.from);
            let to = self.rules.cell_name(mv.to);
            // Coordinate form, and the long form with or without letter.
            forms.extend(self.coordinate_form(mv));
            let bare: String = long.trim_start_matches(|c: char| c.is_ascii_uppercase()).to_string();
            forms.push(bare.clone());
            {
                let letter = self.rules.variant.pieces[self.rules.type_of(mv.piece).0 as usize].letter;
                forms.push(format!("{}{}", letter.to_ascii_uppercase(), bare));
                // The short form without disambiguation, so that an under-specified move is
                // reported as ambiguous rather than unknown.
                // Over-specified forms (`Ngf3`, `N1f3`) name the move too.
                if let Some(l) = self.letter_of(mv) {
                    let promo = format!("{}{}", self.promotion_suffix(mv), self.gate_suffix(mv));
                    let (file, rank) = split_cell_name(from);
                    forms.push(format!("{l}{to}{promo}"));
                    forms.push(format!("{l}{file}{to}{promo}"));
                    forms.push(format!("{l}{rank}{to}{promo}"));
                }
            }
        } else {
            forms.push(long.replace('O', "0"));
            // Coordinates as Fairy-Stockfish writes them: the king's move (`e1g1`), with a gated
            // piece's letter (`e1g1h`), or from the partner's cell to the king's when the gate is
            // on the partner's (`h1e1h`).
            let c = &self.rules.castling(mv.extra);
            let name = |x| self.rules.cell_name(x);
            match crate::gating::gate_of(&self.rules, mv) {
                Some((cell, t)) => {
                    let l = self.rules.variant.pieces[t.0 as usize].letter.to_ascii_lowercase();
                    if cell == c.partner_from {
                        forms.push(format!("{}{}{l}", name(c.partner_from), name(c.king_from)));
                    } else {
                        forms.push(format!("{}{}{l}", name(c.king_from), name(c.king_to)));
                    }
                }
                None => {
                    forms.push(format!("{}{}", name(c.king_from), name(c.king_to)));
                    // The king taking its partner, as Chess960 GUIs write castling (`e1h1`).
                    forms.push(format!("{}{}", name(c.king_from), name(c.partner_from)));
                }
            }
        }
        forms
    }
}

/// A cell name's file part and rank part: `e4` is `e` and `4`, `Ac1` is `Ac` and `1`, the
/// between locations `a1.5` and `ab1` are `a`, `1.5` and `ab`, `1`.
fn split_cell_name(name: &str) -> (&str, &str) {
    let mut rest = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if let Some(whole) = rest.strip_suffix('.') {
        let before = whole.trim_end_matches(|c: char| c.is_ascii_digit());
        if before.len() < whole.len() {
            rest = before;
        }
    }
    name.split_at(rest.len())
}

/// Drops decorations that do not change which move is meant: check marks, annotations, `e.p.`,
/// and the separators `-`, `x` and `:` (so `Ng1f3`, `Nxf3` and `e2xe4` are read by their cells).
fn normalise(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let t = t.trim_end_matches("e.p.").trim_end_matches("ep").trim();
    t.trim_end_matches(['+', '#', '!', '?']).replace([':', 'x', '-'], "")
}
