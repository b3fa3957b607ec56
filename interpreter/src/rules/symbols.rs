//! How pieces are written in position strings: a letter in its player's case, or, in games of more than two players, a player prefix and the letter.
use crate::ir::{PieceTypeId, PlayerId};
use crate::rules::{Piece, Rules};

impl Rules {
    /// In a game of more than two players, each player's prefix in position strings: the
    /// lower-case initial of the player's name where the initials differ (`s w n e` for South,
    /// West, North, East), else `a`, `b`, `c`, ... in player order; `None` for two players
    /// (their pieces differ by case).
    pub fn player_prefix(&self, player: PlayerId) -> Option<char> {
        if self.players <= 2 {
            return None;
        }
        let initials: Vec<char> = self
            .variant
            .players
            .iter()
            .map(|p| p.name.chars().next().map_or('?', |c| c.to_ascii_lowercase()))
            .collect();
        let distinct = initials.iter().enumerate().all(|(i, c)| c.is_ascii_lowercase() && !initials[..i].contains(c));
        Some(if distinct { initials[player.0 as usize] } else { (b'a' + player.0) as char })
    }

    /// The player a prefix names.
    fn player_of_prefix(&self, ch: char) -> Option<PlayerId> {
        (0..self.players as u8).map(PlayerId).find(|p| self.player_prefix(*p) == Some(ch))
    }

    /// The notation letter of a piece: upper case for player 0, lower case for player 1 (Greek
    /// letters too: Zillions games of more than 26 piece types use them); upper case in games
    /// of more than two players, where a prefix tells the players apart.
    pub fn piece_letter(&self, piece: Piece) -> char {
        let t = &self.variant.pieces[self.type_of(piece).0 as usize];
        if self.owner(piece).0 == 0 || self.players > 2 {
            upper(t.letter)
        } else {
            lower(t.letter)
        }
    }

    /// The position-string symbol of a piece: its letter in the player's case, with the type's
    /// mark (`Q~`, `+P`); with more than two players, after the player's prefix (`sR`, `n+P`).
    pub fn piece_symbol(&self, piece: Piece) -> String {
        let mut s = String::with_capacity(3);
        self.push_piece_symbol(piece, &mut s);
        s
    }

    /// Appends [`Rules::piece_symbol`] to `out`.
    pub fn push_piece_symbol(&self, piece: Piece, out: &mut String) {
        if let Some(prefix) = self.player_prefix(self.owner(piece)) {
            out.push(prefix);
        }
        let mark = self.variant.pieces[self.type_of(piece).0 as usize].mark;
        if mark == Some('+') {
            out.push('+');
        }
        out.push(self.piece_letter(piece));
        if mark == Some('~') {
            out.push('~');
        }
    }

    /// Looks up a piece code by its position-string letter (of a type without a mark) in a
    /// game of two players.
    pub fn piece_by_letter(&self, ch: char) -> Option<Piece> {
        self.piece_by_symbol(ch, None)
    }

    /// Looks up a piece code by its position-string letter and mark (`+`, `~` or none), in a
    /// game of two players (the letter's case gives the player).
    pub fn piece_by_symbol(&self, ch: char, mark: Option<char>) -> Option<Piece> {
        if self.players > 2 {
            return None;
        }
        let player = if ch.is_uppercase() { 0 } else { 1 };
        if player >= self.players {
            return None;
        }
        self.piece_of(PlayerId(player as u8), ch, mark)
    }

    /// The piece of `player` whose type has this letter (in either case) and mark.
    fn piece_of(&self, player: PlayerId, ch: char, mark: Option<char>) -> Option<Piece> {
        let t = self.variant.pieces.iter().position(|p| lower(p.letter) == lower(ch) && p.mark == mark)?;
        Some(self.piece(player, PieceTypeId(t as u8)))
    }

    /// Reads a piece symbol at the start of `text` (`Q`, `q~`, `+P`; `sQ`, `n+P` with more than
    /// two players): the piece and how many bytes it takes. `plus`: a `+` may mark a piece
    /// (not where it marks an owned square).
    pub fn read_piece_symbol(&self, text: &str, plus: bool) -> Option<(Piece, usize)> {
        let (player, skip) = if self.players > 2 {
            let prefix = text.chars().next()?;
            (Some(self.player_of_prefix(prefix)?), prefix.len_utf8())
        } else {
            (None, 0)
        };
        let find = |ch: char, mark: Option<char>| match player {
            Some(p) if ch.is_uppercase() => self.piece_of(p, ch, mark),
            Some(_) => None,
            None => self.piece_by_symbol(ch, mark),
        };
        let mut chars = text[skip..].chars();
        let first = chars.next()?;
        if first == '+' && (plus || player.is_some()) {
            let ch = chars.next()?;
            return find(ch, Some('+')).map(|p| (p, skip + 1 + ch.len_utf8()));
        }
        if chars.next() == Some('~') {
            if let Some(p) = find(first, Some('~')) {
                return Some((p, skip + first.len_utf8() + 1));
            }
        }
        find(first, None).map(|p| (p, skip + first.len_utf8()))
    }
}

/// A letter in upper case, where it has exactly one upper-case letter.
pub(crate) fn upper(c: char) -> char {
    let mut u = c.to_uppercase();
    match (u.next(), u.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// A letter in lower case, where it has exactly one lower-case letter.
pub(crate) fn lower(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}
