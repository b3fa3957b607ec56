//! The rules a `variants.ini` section describes, held as Fairy-Stockfish holds them (its defaults, piece slots and square sets), before they are written as `.var` text.

use std::collections::BTreeMap;
use std::ops::Range;

/// Fairy-Stockfish's predefined piece types in its own order, with their Betza moves.
pub const BUILTIN_PIECES: [(&str, &str); 36] = [
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

/// Custom piece slots (`customPiece1` to `customPiece25`).
pub const CUSTOM: usize = 25;
/// The slot of the first custom piece.
pub const FIRST_CUSTOM: usize = BUILTIN_PIECES.len();
/// The king's slot, last as in Fairy-Stockfish.
pub const KING: usize = FIRST_CUSTOM + CUSTOM;
/// Number of piece slots.
pub const SLOTS: usize = KING + 1;
/// The bit of a piece set that stands for every type (`*`).
pub const ALL: u64 = 1 << 63;
/// The pawn's slot.
pub const PAWN: usize = 0;
/// Widest and tallest boards Fairy-Stockfish builds (its large-board version).
pub const MAX_FILES: u8 = 12;
pub const MAX_RANKS: u8 = 10;

/// A set of squares on Fairy-Stockfish's fixed 12 x 10 grid (bit `rank * 12 + file`).
pub type Region = u128;

/// The square's bit.
pub fn square(file: u8, rank: u8) -> Region {
    1u128 << (rank as u32 * MAX_FILES as u32 + file as u32)
}

/// Every square of one rank (0-based).
pub fn rank_region(rank: u8) -> Region {
    (0..MAX_FILES).fold(0, |r, f| r | square(f, rank))
}

/// Every square of one file (0-based).
pub fn file_region(file: u8) -> Region {
    (0..MAX_RANKS).fold(0, |r, k| r | square(file, k))
}

/// A game result as an option states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Loss,
    Draw,
    None,
}

impl Value {
    /// The `.var` outcome word.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw | Value::None => "draw",
        }
    }
}

/// Where an option's value came from, for locating what is refused: the span of the text to
/// point at, and the built-in parent that set it, if it was one.
#[derive(Clone, Debug, Default)]
pub struct At {
    pub span: Range<usize>,
    pub via: Option<String>,
}

/// The rules of one variant, with Fairy-Stockfish's defaults.
#[derive(Clone, Debug)]
pub struct Model {
    pub files: u8,
    pub ranks: u8,
    /// Each slot's letter (upper case), if the variant has the piece.
    pub letters: [Option<char>; SLOTS],
    pub custom_betza: [String; CUSTOM],
    /// The king's own moves (`king = k:KN`), else a chess king's.
    pub king_betza: Option<String>,
    pub start_fen: (String, At),
    pub promotion_region: [Region; 2],
    pub promotion_pawn_types: [u64; 2],
    pub promotion_piece_types: [u64; 2],
    pub promoted_piece_type: BTreeMap<usize, usize>,
    pub mandatory_pawn_promotion: bool,
    pub mandatory_piece_promotion: bool,
    pub double_step: bool,
    pub double_step_region: [Region; 2],
    pub triple_step_region: [Region; 2],
    pub en_passant_region: [Region; 2],
    pub en_passant_types: [u64; 2],
    pub castling: bool,
    pub castling_kingside_file: u8,
    pub castling_queenside_file: u8,
    pub castling_rank: u8,
    pub castling_king_file: u8,
    pub castling_king_piece: [usize; 2],
    pub castling_rook_pieces: [u64; 2],
    pub checking: bool,
    pub drop_checks: bool,
    pub piece_drops: bool,
    pub captures_to_hand: bool,
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    pub drop_region: [Region; 2],
    pub drop_no_doubled: Option<usize>,
    pub drop_no_doubled_count: u32,
    pub n_move_rule_types: [u64; 2],
    pub n_move_rule: u32,
    pub n_fold_rule: u32,
    pub n_fold_value: Value,
    pub perpetual_check_illegal: bool,
    pub stalemate_value: Value,
    pub checkmate_value: Value,
    pub shogi_pawn_drop_mate_illegal: bool,
    pub immobility_illegal: bool,
    pub extinction_value: Value,
    pub extinction_pseudo_royal: bool,
    pub extinction_piece_types: u64,
    pub extinction_piece_count: u32,
    pub extinction_opponent_piece_count: u32,
    /// The flag piece of each side (`None`: any piece).
    pub flag_piece: [Option<usize>; 2],
    pub flag_region: [Region; 2],
    pub check_counting: bool,
    pub must_capture: bool,
    pub stalemate_piece_count: bool,
    pub mobility_region: BTreeMap<(usize, usize), Region>,
    /// Options Varia cannot play, by key: their final value and where it was set. Refused at
    /// the end unless a later section set them back to their default.
    pub unsupported: BTreeMap<String, (String, At, &'static str)>,
    /// Where each option was last set, to point at when its use is refused.
    pub origin: BTreeMap<String, At>,
}

impl Model {
    /// Fairy-Stockfish's defaults: chess, with or without the chess pieces.
    pub fn new(chess_pieces: bool) -> Model {
        let mut m = Model {
            files: 8,
            ranks: 8,
            letters: [None; SLOTS],
            custom_betza: Default::default(),
            king_betza: None,
            start_fen: ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(), At::default()),
            promotion_region: [rank_region(7), rank_region(0)],
            promotion_pawn_types: [1 << PAWN; 2],
            promotion_piece_types: [(1 << 4) | (1 << 3) | (1 << 2) | (1 << 1); 2],
            promoted_piece_type: BTreeMap::new(),
            mandatory_pawn_promotion: true,
            mandatory_piece_promotion: false,
            double_step: true,
            double_step_region: [rank_region(1), rank_region(6)],
            triple_step_region: [0, 0],
            en_passant_region: [Region::MAX, Region::MAX],
            en_passant_types: [1 << PAWN; 2],
            castling: true,
            castling_kingside_file: 6,
            castling_queenside_file: 2,
            castling_rank: 1,
            castling_king_file: 4,
            castling_king_piece: [KING; 2],
            castling_rook_pieces: [1 << 3; 2],
            checking: true,
            drop_checks: true,
            piece_drops: false,
            captures_to_hand: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            drop_region: [Region::MAX, Region::MAX],
            drop_no_doubled: None,
            drop_no_doubled_count: 1,
            n_move_rule_types: [1 << PAWN; 2],
            n_move_rule: 50,
            n_fold_rule: 3,
            n_fold_value: Value::Draw,
            perpetual_check_illegal: false,
            stalemate_value: Value::Draw,
            checkmate_value: Value::Loss,
            shogi_pawn_drop_mate_illegal: false,
            immobility_illegal: false,
            extinction_value: Value::None,
            extinction_pseudo_royal: false,
            extinction_piece_types: 0,
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            flag_piece: [None; 2],
            flag_region: [0, 0],
            check_counting: false,
            must_capture: false,
            stalemate_piece_count: false,
            mobility_region: BTreeMap::new(),
            unsupported: BTreeMap::new(),
            origin: BTreeMap::new(),
        };
        if chess_pieces {
            for (slot, letter) in [(0, 'P'), (1, 'N'), (2, 'B'), (3, 'R'), (4, 'Q'), (KING, 'K')] {
                m.letters[slot] = Some(letter);
            }
        } else {
            m.promotion_piece_types = [0; 2];
        }
        m
    }

    /// The slot a letter names (either case), if the variant has such a piece.
    pub fn slot_of(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        (0..SLOTS).find(|&s| self.letters[s] == Some(up))
    }

    /// Gives a slot a letter, removing the piece that had that letter, as Fairy-Stockfish does.
    pub fn add_piece(&mut self, slot: usize, letter: char) {
        if let Some(old) = self.slot_of(letter) {
            self.remove_piece(old);
        }
        self.letters[slot] = Some(letter.to_ascii_uppercase());
    }

    /// Removes a piece, and with it its promotion choices.
    pub fn remove_piece(&mut self, slot: usize) {
        self.letters[slot] = None;
        for c in 0..2 {
            self.promotion_piece_types[c] &= !(1 << slot);
        }
    }

    /// The Betza moves of a slot.
    pub fn betza(&self, slot: usize) -> &str {
        if slot == KING {
            self.king_betza.as_deref().unwrap_or("K")
        } else if slot >= FIRST_CUSTOM {
            &self.custom_betza[slot - FIRST_CUSTOM]
        } else {
            BUILTIN_PIECES[slot].1
        }
    }

    /// Fairy-Stockfish's name of a slot (`pawn`, `customPiece3`, `king`).
    pub fn slot_name(slot: usize) -> String {
        if slot == KING {
            "king".into()
        } else if slot >= FIRST_CUSTOM {
            format!("customPiece{}", slot - FIRST_CUSTOM + 1)
        } else {
            BUILTIN_PIECES[slot].0.into()
        }
    }

    /// The slots the variant has, in Fairy-Stockfish's order.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SLOTS).filter(|&s| self.letters[s].is_some())
    }

    /// The board's squares.
    pub fn board(&self) -> Region {
        (0..self.ranks).fold(0, |r, k| r | (0..self.files).fold(0, |r, f| r | square(f, k)))
    }

    /// Where an option was last set (the section header when it keeps its default).
    pub fn at(&self, key: &str, header: &At) -> At {
        self.origin.get(key).cloned().unwrap_or_else(|| header.clone())
    }
}
