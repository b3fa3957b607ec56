//! Reads a `startFen` as Fairy-Stockfish writes it (rows, walls `*`, promoted `+X` and `X~`, a hand in brackets, the side, castling rights and remaining checks).

use super::model::Model;

/// A piece of the start position: its slot and how it is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Plain,
    /// `+X`: the piece X promoted (shogi style).
    Plus,
    /// `X~`: a piece promoted from a pawn (crazyhouse style).
    Tilde,
}

/// The start position.
#[derive(Debug, Default)]
pub struct Fen {
    /// (file, rank, white?, slot, mark), files and ranks from 0.
    pub pieces: Vec<(u8, u8, bool, usize, Mark)>,
    pub walls: Vec<(u8, u8)>,
    /// Whether the position has hands (`[...]`), and the pieces in them.
    pub has_hands: bool,
    pub hand: Vec<(bool, usize)>,
    pub white_to_move: bool,
    pub castling: String,
    /// Checks each side still needs (`3+3`), if given.
    pub checks: Option<(u32, u32)>,
}

/// A FEN error: the byte offset in the FEN and what was expected.
pub struct FenError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
}

fn err(offset: usize, len: usize, message: &str) -> FenError {
    FenError { offset, len, message: message.into() }
}

/// Reads the FEN for a board of `m.files` x `m.ranks`.
pub fn read(m: &Model, text: &str) -> Result<Fen, FenError> {
    let mut fen = Fen { white_to_move: true, ..Fen::default() };
    let board_end = text.find(' ').unwrap_or(text.len());
    let board = &text[..board_end];
    let (rows, hand_at) = match board.find('[') {
        Some(i) => (&board[..i], Some(i)),
        None => (board, None),
    };
    let row_texts: Vec<&str> = rows.split('/').collect();
    if row_texts.len() != m.ranks as usize {
        return Err(err(0, rows.len(), &format!("the board has {} ranks, this position {}", m.ranks, row_texts.len())));
    }
    let mut offset = 0;
    for (i, row) in row_texts.iter().enumerate() {
        let rank = m.ranks - 1 - i as u8;
        let mut file: u32 = 0;
        let b = row.as_bytes();
        let mut j = 0;
        while j < b.len() {
            let at = offset + j;
            let c = b[j] as char;
            if c.is_ascii_digit() {
                let start = j;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                file += row[start..j].parse::<u32>().map_err(|_| err(at, j - start, "a bad count of empty squares"))?;
                continue;
            }
            if file >= m.files as u32 {
                return Err(err(at, 1, &format!("too many squares in this rank (the board has {} files)", m.files)));
            }
            if c == '*' {
                fen.walls.push((file as u8, rank));
            } else {
                let (mark, letter, len) = if c == '+' {
                    let l = b.get(j + 1).map(|&l| l as char).unwrap_or(' ');
                    (Mark::Plus, l, 2)
                } else if b.get(j + 1) == Some(&b'~') {
                    (Mark::Tilde, c, 2)
                } else {
                    (Mark::Plain, c, 1)
                };
                let slot = m
                    .slot_of(letter)
                    .filter(|_| letter.is_ascii_alphabetic())
                    .ok_or_else(|| err(at, len, &format!("`{letter}` is not a piece of this variant")))?;
                fen.pieces.push((file as u8, rank, letter.is_ascii_uppercase(), slot, mark));
                j += len - 1;
            }
            file += 1;
            j += 1;
        }
        if file != m.files as u32 {
            return Err(err(offset, row.len(), &format!("this rank has {file} squares, the board {} files", m.files)));
        }
        offset += row.len() + 1;
    }
    if let Some(i) = hand_at {
        fen.has_hands = true;
        let Some(close) = board[i..].find(']') else {
            return Err(err(i, board.len() - i, "a hand must end with `]`"));
        };
        for (k, c) in board[i + 1..i + close].char_indices() {
            if c == '-' {
                continue;
            }
            let slot = m
                .slot_of(c)
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or_else(|| err(i + 1 + k, 1, &format!("`{c}` in the hand is not a piece of this variant")))?;
            fen.hand.push((c.is_ascii_uppercase(), slot));
        }
    }
    let mut fields = text[board_end..].split_whitespace();
    if let Some(side) = fields.next() {
        match side {
            "w" => {}
            "b" => fen.white_to_move = false,
            _ => return Err(err(board_end + 1, side.len(), "expected the side to move, `w` or `b`")),
        }
    }
    for (n, f) in fields.enumerate() {
        if let Some((a, b)) = f.split_once('+') {
            if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                fen.checks = Some((a, b));
                continue;
            }
        }
        if n == 0 && f.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
            fen.castling = f.trim_matches('-').to_string();
        }
    }
    Ok(fen)
}
