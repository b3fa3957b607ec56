//! Move notation: long algebraic (`Ng1-f3`, `e7xd8=Q`, `O-O`) for output; long, short (SAN-like) and coordinate forms for input.

use crate::position::{Move, MoveKind, Position};

/// A move text that names no legal move, or several.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move of any form Varia reads.
    #[error("`{0}` is not a move here: no legal move is written that way")]
    NoMatch(String),
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
            Some(t) => format!("={}", self.rules.variant.pieces[t.0 as usize].letter.to_ascii_uppercase()),
            None => String::new(),
        }
    }

    /// The long algebraic form: piece letter (unless the type omits it), from, `-` or `x`, to,
    /// promotion; castling by its declared notation.
    pub fn long_notation(&self, mv: Move) -> String {
        if let Some(s) = self.square_notation(mv) {
            return s;
        }
        if mv.kind == MoveKind::Castle {
            return self.rules.variant.castlings[mv.extra as usize].notation.clone();
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
        s
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
            _ => return None,
        })
    }

    /// The short (SAN-like) form, disambiguated among `legal` as little as needed.
    pub fn short_notation(&self, mv: Move, legal: &[Move]) -> String {
        if mv.kind == MoveKind::Castle || !mv.kind.is_piece_move() {
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
            s
        };
        while level <= 3 {
            let s = written(&mv, level);
            let n = normalise(&s);
            let clash = legal
                .iter()
                .filter(|o| {
                    **o != mv
                        && o.kind != MoveKind::Castle
                        && o.kind.is_piece_move()
                        && n.contains(rules.cell_name(o.to))
                })
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
        let wanted = normalise(text);
        // The long form Varia writes names one move (each move's long form is its own): found
        // without the costlier short forms.
        let mut by_long = legal.iter().filter(|m| normalise(&self.long_notation(**m)) == wanted);
        if let (Some(&mv), None) = (by_long.next(), by_long.next()) {
            return Ok(mv);
        }
        let mut found: Vec<Move> = Vec::new();
        // Exactly the long or short form Varia writes: that move, even if a looser form of
        // another move reads the same (`d4-d5` is the pawn's move when a king shares d4).
        let mut exact: Vec<Move> = Vec::new();
        for &mv in &legal {
            let forms = self.forms(mv, &legal, &wanted);
            if forms[..2].iter().any(|f| normalise(f) == wanted) && !exact.contains(&mv) {
                exact.push(mv);
            }
            if forms.iter().any(|f| normalise(f) == wanted) && !found.contains(&mv) {
                found.push(mv);
            }
        }
        if exact.len() == 1 {
            return Ok(exact[0]);
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::NoMatch(text.trim().to_string())),
            _ => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: found.iter().map(|m| self.long_notation(*m)).collect(),
            }),
        }
    }

    /// Every written form that names this move (the short form only when `wanted`, normalised,
    /// names the move's destination, as every short form does).
    fn forms(&self, mv: Move, legal: &[Move], wanted: &str) -> Vec<String> {
        let long = self.long_notation(mv);
        let short = if wanted.contains(self.rules.cell_name(mv.to)) || mv.kind == MoveKind::Castle {
            self.short_notation(mv, legal)
        } else {
            long.clone()
        };
        let mut forms = vec![long.clone(), short];
        if !mv.kind.is_piece_move() {
            return forms;
        }
        if mv.kind != MoveKind::Castle {
            let from = self.rules.cell_name(mv.from);
            let to = self.rules.cell_name(mv.to);
            let promo = mv
                .promotion()
                .map(|t| self.rules.variant.pieces[t.0 as usize].letter.to_ascii_lowercase().to_string())
                .unwrap_or_default();
            // Coordinate form (as UCI writes it), and the long form with or without letter.
            forms.push(format!("{from}{to}{promo}"));
            let bare: String = long.trim_start_matches(|c: char| c.is_ascii_uppercase()).to_string();
            forms.push(bare.clone());
            {
                let letter = self.rules.variant.pieces[self.rules.type_of(mv.piece).0 as usize].letter;
                forms.push(format!("{}{}", letter.to_ascii_uppercase(), bare));
                // The short form without disambiguation, so that an under-specified move is
                // reported as ambiguous rather than unknown.
                // Over-specified forms (`Ngf3`, `N1f3`) name the move too.
                if let Some(l) = self.letter_of(mv) {
                    let promo = self.promotion_suffix(mv);
                    let (file, rank) = split_cell_name(from);
                    forms.push(format!("{l}{to}{promo}"));
                    forms.push(format!("{l}{file}{to}{promo}"));
                    forms.push(format!("{l}{rank}{to}{promo}"));
                }
            }
        } else {
            forms.push(long.replace('O', "0"));
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
