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

/// The rules of one variant, with Fairy-Stockfish's defaults, grouped by concern: the board and
/// its pieces here, then promotion, pawn steps, castling, drops, the end of the game, extinction
/// and the flag.
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
    pub promotion: Promotion,
    pub pawn_steps: PawnSteps,
    pub castling: Castling,
    pub drops: Drops,
    pub end: End,
    pub extinction: Extinction,
    pub flag: Flag,
    pub checking: bool,
    pub must_capture: bool,
    pub mobility_region: BTreeMap<(usize, usize), Region>,
    /// Options Varia cannot play, by key: their final value and where it was set. Refused at
    /// the end unless a later section set them back to their default.
    pub unsupported: BTreeMap<String, (String, At, &'static str)>,
    /// Where each option was last set, to point at when its use is refused.
    pub origin: BTreeMap<String, At>,
}

/// Promotion: where, which pieces promote, to what, and whether they must
/// (`promotionRegion`, `promotionPawnTypes`, `promotionPieceTypes`, `promotedPieceType`,
/// `mandatoryPawnPromotion`, `mandatoryPiecePromotion`).
#[derive(Clone, Debug)]
pub struct Promotion {
    pub region: [Region; 2],
    pub pawn_types: [u64; 2],
    pub piece_types: [u64; 2],
    pub promoted_piece_type: BTreeMap<usize, usize>,
    pub mandatory_pawn: bool,
    pub mandatory_piece: bool,
}

/// The pawn's double and triple steps and en passant (`doubleStep`, `doubleStepRegion`,
/// `tripleStepRegion`, `enPassantRegion`, `enPassantTypes`).
#[derive(Clone, Debug)]
pub struct PawnSteps {
    pub double_step: bool,
    pub double_step_region: [Region; 2],
    pub triple_step_region: [Region; 2],
    pub en_passant_region: [Region; 2],
    pub en_passant_types: [u64; 2],
}

/// Castling (`castling`, `castlingKingsideFile`, `castlingQueensideFile`, `castlingRank`,
/// `castlingKingFile`, `castlingKingPiece`, `castlingRookPieces`).
#[derive(Clone, Debug)]
pub struct Castling {
    pub allowed: bool,
    pub kingside_file: u8,
    pub queenside_file: u8,
    pub rank: u8,
    pub king_file: u8,
    pub king_piece: [usize; 2],
    pub rook_pieces: [u64; 2],
    /// `castlingDroppedPiece`: a dropped king or rook may gain a castling right.
    pub dropped_piece: bool,
}

/// Drops and the hand (`pieceDrops`, `capturesToHand`, `dropChecks`, `firstRankPawnDrops`,
/// `promotionZonePawnDrops`, `dropRegion`, `dropNoDoubled`, `dropNoDoubledCount`,
/// `shogiPawnDropMateIllegal`).
#[derive(Clone, Debug)]
pub struct Drops {
    pub piece_drops: bool,
    pub captures_to_hand: bool,
    pub drop_checks: bool,
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    pub region: [Region; 2],
    pub no_doubled: Option<usize>,
    pub no_doubled_count: u32,
    pub shogi_pawn_drop_mate_illegal: bool,
    /// `enclosingDrop`: what a drop must do (`reversi`, `ataxx`, ... or `none`).
    pub enclosing: String,
    /// `enclosingDropStart`: while one of these cells is empty, drops go there instead.
    pub enclosing_start: Region,
    /// `flipEnclosedPieces`: which enemy pieces a move turns over (`reversi`, `ataxx`, ... or `none`).
    pub flip: String,
}

/// The end of the game: mate, stalemate, the move and repetition rules, check counting
/// (`checkmateValue`, `stalemateValue`, `stalematePieceCount`, `nMoveRule`, `nMoveRuleTypes`,
/// `nFoldRule`, `nFoldValue`, `perpetualCheckIllegal`, `immobilityIllegal`, `checkCounting`,
/// `moveRepetitionIllegal`).
#[derive(Clone, Debug)]
pub struct End {
    pub checkmate_value: Value,
    pub stalemate_value: Value,
    pub stalemate_piece_count: bool,
    pub n_move_rule: u32,
    pub n_move_rule_types: [u64; 2],
    pub n_fold_rule: u32,
    pub n_fold_value: Value,
    pub perpetual_check_illegal: bool,
    pub immobility_illegal: bool,
    pub move_repetition_illegal: bool,
    pub check_counting: bool,
}

/// Losing by extinction of a set of piece types (`extinctionValue`, `extinctionPseudoRoyal`,
/// `extinctionPieceTypes`, `extinctionPieceCount`, `extinctionOpponentPieceCount`).
#[derive(Clone, Debug)]
pub struct Extinction {
    pub value: Value,
    pub pseudo_royal: bool,
    pub piece_types: u64,
    pub piece_count: u32,
    pub opponent_piece_count: u32,
}

/// Winning by bringing a piece to a region (`flagPiece`, `flagRegion`).
#[derive(Clone, Debug)]
pub struct Flag {
    /// The flag piece of each side (`None`: any piece).
    pub piece: [Option<usize>; 2],
    pub region: [Region; 2],
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
            promotion: Promotion {
                region: [rank_region(7), rank_region(0)],
                pawn_types: [1 << PAWN; 2],
                piece_types: [(1 << 4) | (1 << 3) | (1 << 2) | (1 << 1); 2],
                promoted_piece_type: BTreeMap::new(),
                mandatory_pawn: true,
                mandatory_piece: false,
            },
            pawn_steps: PawnSteps {
                double_step: true,
                double_step_region: [rank_region(1), rank_region(6)],
                triple_step_region: [0, 0],
                en_passant_region: [Region::MAX, Region::MAX],
                en_passant_types: [1 << PAWN; 2],
            },
            castling: Castling {
                allowed: true,
                kingside_file: 6,
                queenside_file: 2,
                rank: 1,
                king_file: 4,
                king_piece: [KING; 2],
                rook_pieces: [1 << 3; 2],
                dropped_piece: false,
            },
            drops: Drops {
                piece_drops: false,
                captures_to_hand: false,
                drop_checks: true,
                first_rank_pawn_drops: false,
                promotion_zone_pawn_drops: false,
                region: [Region::MAX, Region::MAX],
                no_doubled: None,
                no_doubled_count: 1,
                shogi_pawn_drop_mate_illegal: false,
                enclosing: "none".into(),
                enclosing_start: 0,
                flip: "none".into(),
            },
            end: End {
                checkmate_value: Value::Loss,
                stalemate_value: Value::Draw,
                stalemate_piece_count: false,
                n_move_rule: 50,
                n_move_rule_types: [1 << PAWN; 2],
                n_fold_rule: 3,
                n_fold_value: Value::Draw,
                perpetual_check_illegal: false,
                immobility_illegal: false,
                move_repetition_illegal: false,
                check_counting: false,
            },
            extinction: Extinction {
                value: Value::None,
                pseudo_royal: false,
                piece_types: 0,
                piece_count: 0,
                opponent_piece_count: 0,
            },
            flag: Flag { piece: [None; 2], region: [0, 0] },
            checking: true,
            must_capture: false,
            mobility_region: BTreeMap::new(),
            unsupported: BTreeMap::new(),
            origin: BTreeMap::new(),
        };
        if chess_pieces {
            for (slot, letter) in [(0, 'P'), (1, 'N'), (2, 'B'), (3, 'R'), (4, 'Q'), (KING, 'K')] {
                m.letters[slot] = Some(letter);
            }
        } else {
            m.promotion.piece_types = [0; 2];
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
            self.promotion.piece_types[c] &= !(1 << slot);
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
