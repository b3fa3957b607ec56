//! Applies one section's options to the rules it inherits, in Fairy-Stockfish's order: the board, the pieces, then every other option; values are checked and options Varia cannot play are set aside to be refused.

use super::model::{
    file_region, rank_region, square, At, Model, Region, Value, ALL, FIRST_CUSTOM, KING, MAX_FILES, MAX_RANKS, SLOTS,
};
use super::reader::{Entry, Section};
use super::IniError;

/// Options Varia cannot play: their default values (which need no refusal) and why.
const UNSUPPORTED: &[(&str, &[&str], &str)] = &[
    ("chess960", &["false"], "Chess960 castling (king and rooks on any files) is not imported"),
    ("twoBoards", &["false"], "pieces coming from a second board (bughouse) need a second game"),
    ("sittuyinPromotion", &["false"], "Sittuyin's promotion in place is not imported (variants/sittuyin.var writes it by hand)"),
    ("promotionLimit", &["", "-"], "a limit on how many pieces of a type promotions may make has no .var form"),
    ("piecePromotionOnCapture", &["false"], "promotions made only by captures are not imported"),
    ("pieceDemotion", &["false"], "demoting promoted pieces by a move (Kyoto shogi) has no .var form"),
    ("blastOnCapture", &["false"], "Fairy-Stockfish's explosions (sparing pawns beside the blast, with their own check rules) are not imported; Varia's own are `explodes` (variants/atomic.var)"),
    ("blastImmuneTypes", &["", "-"], "explosions are not imported"),
    ("mutuallyImmuneTypes", &["", "-"], "pieces that cannot take each other have no .var form"),
    ("petrifyOnCaptureTypes", &["", "-"], "capturers turning into walls are not imported (a `walls` block's `petrify` writes them)"),
    ("petrifyBlastPieces", &["false"], "capturers turning into walls are not imported"),
    ("castlingRookKingsideFile", &["l", "12"], "castling with a rook away from the corner is not imported"),
    ("castlingRookQueensideFile", &["a", "1"], "castling with a rook away from the corner is not imported"),
    ("oppositeCastling", &["false"], "castling that depends on the opponent's castling has no .var form"),
    ("mustDrop", &["false"], "compulsory drops are not imported"),
    ("mustDropType", &["*"], "compulsory drops are not imported"),
    ("dropLoop", &["false"], "promoted pieces kept promoted in hand are not imported"),
    ("sittuyinRookDrop", &["false"], "Sittuyin's setup drops are not imported"),
    ("dropOppositeColoredBishop", &["false"], "bishops dropped on opposite colours are not imported"),
    ("dropPromoted", &["false"], "drops of pieces promoted side up are not imported"),
    ("gating", &["false"], "gating is not imported (variants/seirawan.var writes it by hand)"),
    ("seirawanGating", &["false"], "gating is not imported (variants/seirawan.var writes it by hand)"),
    ("cambodianMoves", &["false"], "Cambodian chess's first moves are not imported"),
    ("wallingRule", &["none"], "placing walls or a duck after a move is not imported (a `walls` block's `place` writes it)"),
    ("wallingRegion", &["", "*1 *2 *3 *4 *5 *6 *7 *8 *9 *10"], "placing walls is not imported"),
    ("wallingRegionWhite", &[""], "placing walls is not imported"),
    ("wallingRegionBlack", &[""], "placing walls is not imported"),
    ("wallOrMove", &["false"], "placing walls is not imported"),
    ("diagonalLines", &["", "-"], "Janggi's palace diagonals are not imported (variants/janggi.var writes them by hand)"),
    ("pass", &["false"], "passing is not imported"),
    ("passWhite", &["false"], "passing is not imported"),
    ("passBlack", &["false"], "passing is not imported"),
    ("passOnStalemate", &["false"], "passing when stalemated is not imported"),
    ("passOnStalemateWhite", &["false"], "passing when stalemated is not imported"),
    ("passOnStalemateBlack", &["false"], "passing when stalemated is not imported"),
    ("makpongRule", &["false"], "Makpong's king that may not leave check has no .var form"),
    ("flyingGeneral", &["false"], "the flying general (facing kings) is not imported (variants/xiangqi.var writes it as a move program)"),
    ("soldierPromotionRank", &["1"], "soldiers that gain sideways steps at a rank are not imported"),
    ("nFoldValueAbsolute", &["false"], "a repetition result from White's point of view is not imported"),
    ("chasingRule", &["none"], "Xiangqi's chasing rules have no .var form"),
    ("shatarMateRule", &["false"], "Shatar's mating rules have no .var form"),
    ("bikjangRule", &["false"], "Janggi's bikjang is not imported (variants/janggi.var writes it by hand)"),
    ("dupleCheck", &["false"], "checks to all pseudo-royal pieces at once are not imported"),
    ("extinctionClaim", &["false"], "claiming extinction only on one's own move is not imported"),
    ("flagPieceCount", &["1"], "a flag goal needing several pieces in the region has no .var form in the import"),
    ("flagPieceBlockedWin", &["false"], "a flag goal needing several pieces in the region has no .var form in the import"),
    ("flagMove", &["false"], "the extra move after reaching the flag region (racing kings) is not imported"),
    ("flagPieceSafe", &["false"], "a flag piece that must be safe to win is not imported"),
    ("connectN", &["0"], "connect-n goals are not imported"),
    ("connectPieceTypes", &["*"], "connect-n goals are not imported"),
    ("connectHorizontal", &["true"], "connect-n goals are not imported"),
    ("connectVertical", &["true"], "connect-n goals are not imported"),
    ("connectDiagonal", &["true"], "connect-n goals are not imported"),
    ("connectRegion1White", &["", "-"], "connection goals are not imported"),
    ("connectRegion2White", &["", "-"], "connection goals are not imported"),
    ("connectRegion1Black", &["", "-"], "connection goals are not imported"),
    ("connectRegion2Black", &["", "-"], "connection goals are not imported"),
    ("connectNxN", &["0"], "connection goals are not imported"),
    ("collinearN", &["0"], "collinear goals are not imported"),
    ("connectValue", &["win"], "connection goals are not imported"),
    ("materialCounting", &["none"], "material counting at the end of the game has no .var form in the import"),
    ("adjudicateFullBoard", &["false"], "material counting at the end of the game has no .var form in the import"),
    ("countingRule", &["none"], "Makruk's counting rules are not imported (variants/ files write them by hand)"),
    ("castlingWins", &["", "-"], "castling as a goal has no .var form"),
    ("promotionRank", &[], "a deprecated option; write promotionRegionWhite and promotionRegionBlack"),
    ("doubleStepRank", &[], "a deprecated option; write doubleStepRegionWhite and doubleStepRegionBlack"),
    ("doubleStepRankMin", &[], "a deprecated option; write doubleStepRegionWhite and doubleStepRegionBlack"),
    ("whiteFlag", &[], "a deprecated option; write flagRegionWhite"),
    ("blackFlag", &[], "a deprecated option; write flagRegionBlack"),
    ("castlingRookPiece", &[], "a deprecated option; write castlingRookPieces"),
    ("whiteDropRegion", &[], "a deprecated option; write dropRegionWhite"),
    ("blackDropRegion", &[], "a deprecated option; write dropRegionBlack"),
    ("dropOnTop", &[], "a deprecated option; drops on top are not imported"),
];

/// Options read for a GUI only: they do not change the rules.
const DISPLAY_ONLY: &[&str] = &["variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueMg", "pieceValueEg"];

/// Every option the rules read, in the order Fairy-Stockfish applies them after the pieces.
const ORDER: &[&str] = &[
    "pawnTypes",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "promotedPieceType",
    "mandatoryPawnPromotion",
    "mandatoryPiecePromotion",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "tripleStepRegionWhite",
    "tripleStepRegionBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "enPassantTypes",
    "enPassantTypesWhite",
    "enPassantTypesBlack",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "castlingKingPiece",
    "castlingKingPieceWhite",
    "castlingKingPieceBlack",
    "castlingRookPieces",
    "castlingRookPiecesWhite",
    "castlingRookPiecesBlack",
    "castlingDroppedPiece",
    "checking",
    "dropChecks",
    "pieceDrops",
    "capturesToHand",
    "firstRankPawnDrops",
    "promotionZonePawnDrops",
    "dropRegionWhite",
    "dropRegionBlack",
    "dropNoDoubled",
    "dropNoDoubledCount",
    "enclosingDrop",
    "enclosingDropStart",
    "flipEnclosedPieces",
    "nMoveRuleTypes",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
    "nMoveRule",
    "nFoldRule",
    "nFoldValue",
    "perpetualCheckIllegal",
    "moveRepetitionIllegal",
    "stalemateValue",
    "checkmateValue",
    "shogiPawnDropMateIllegal",
    "immobilityIllegal",
    "extinctionValue",
    "extinctionPseudoRoyal",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "extinctionOpponentPieceCount",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "checkCounting",
    "mustCapture",
    "stalematePieceCount",
];

/// Reads one section's entries into the model.
pub struct Applier<'a> {
    pub model: &'a mut Model,
    pub section: &'a Section,
    /// The built-in this section is (its options are located at the child's `:parent`).
    pub via: Option<(String, std::ops::Range<usize>)>,
    pub errors: Vec<IniError>,
}

impl Applier<'_> {
    fn at(&self, e: &Entry) -> At {
        match &self.via {
            Some((name, span)) => At { span: span.clone(), via: Some(name.clone()) },
            None => At { span: e.value_span.clone(), via: None },
        }
    }

    fn bad(&mut self, e: &Entry, expected: &str) {
        let at = self.at(e);
        let via = at.via.as_ref().map(|v| format!(" (set by the built-in `{v}`)")).unwrap_or_default();
        self.errors.push(IniError::new(
            if at.via.is_some() { at.span } else { e.value_span.clone() },
            &format!("bad value `{}` for `{}`{via}", e.value, e.key),
            &format!("expected {expected}"),
        ));
    }

    /// Applies every entry; unknown keys are errors.
    pub fn apply(&mut self) {
        let s = self.section;
        for key in ["maxRank", "maxFile"] {
            if let Some(e) = s.get(key) {
                let max = if key == "maxRank" { MAX_RANKS } else { MAX_FILES };
                match parse_line_number(&e.value, key == "maxFile") {
                    Some(n) if (1..=max).contains(&n) => {
                        if key == "maxRank" {
                            self.model.ranks = n
                        } else {
                            self.model.files = n
                        }
                    }
                    _ => self.bad(
                        e,
                        &format!("a number from 1 to {max}{}", if key == "maxFile" { " or a file letter" } else { "" }),
                    ),
                }
            }
        }
        for slot in 0..SLOTS {
            self.piece(slot);
        }
        for &key in ORDER {
            if let Some(e) = s.get(key) {
                self.option(e);
            }
        }
        for e in &s.entries {
            let known = ORDER.contains(&e.key.as_str())
                || DISPLAY_ONLY.contains(&e.key.as_str())
                || ["maxRank", "maxFile"].contains(&e.key.as_str())
                || (0..SLOTS).any(|slot| Model::slot_name(slot) == e.key)
                || mobility_key(&e.key).is_some();
            if let Some((key, defaults, why)) = UNSUPPORTED.iter().find(|(k, _, _)| *k == e.key) {
                // The last line of a key decides; later sections may set it back.
                if s.get(key).is_some_and(|last| std::ptr::eq(last, e)) {
                    if defaults.contains(&e.value.as_str()) {
                        self.model.unsupported.remove(*key);
                    } else {
                        self.model.unsupported.insert(key.to_string(), (e.value.clone(), self.at(e), why));
                    }
                }
            } else if !known {
                self.errors.push(IniError::new(
                    e.key_span.clone(),
                    &format!("unknown option `{}`", e.key),
                    "expected an option of Fairy-Stockfish's variants.ini (its header lists them)",
                ));
            }
        }
    }

    /// A piece slot's letter (and Betza moves), and its mobility regions.
    fn piece(&mut self, slot: usize) {
        let name = Model::slot_name(slot);
        if let Some(e) = self.section.get(&name) {
            let v = e.value.as_str();
            match v.chars().next() {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.model.add_piece(slot, c);
                    let betza = v.get(1..).unwrap_or("");
                    let betza = betza.strip_prefix(':').map(str::trim);
                    if (FIRST_CUSTOM..KING).contains(&slot) {
                        match betza {
                            Some(b) => {
                                self.model.custom_betza[slot - FIRST_CUSTOM] = b.to_string();
                                if b.contains('e') {
                                    for c in 0..2 {
                                        self.model.pawn_steps.en_passant_types[c] |= 1 << slot;
                                    }
                                }
                            }
                            None => self.bad(e, "a letter, `:` and the piece's Betza moves (`c:mWcF`)"),
                        }
                    } else if slot == KING {
                        self.model.king_betza = betza.map(str::to_string);
                    } else if v.len() > 1 {
                        self.bad(e, "one letter (a predefined piece's moves cannot be changed)");
                    }
                    self.model.origin.insert(name.clone(), self.at(e));
                }
                _ if v.is_empty() || v.starts_with('-') => self.model.remove_piece(slot),
                _ => self.bad(e, "a letter, or `-` to remove the piece"),
            }
        }
        let mut capital = name.clone();
        capital[..1].make_ascii_uppercase();
        for (c, color) in ["White", "Black"].iter().enumerate() {
            let key = format!("mobilityRegion{color}{capital}");
            if let Some(e) = self.section.get(&key) {
                match parse_region(&e.value) {
                    Some(r) => {
                        self.model.mobility_region.insert((c, slot), r);
                    }
                    None => self.bad(e, "squares (`d4`), ranks (`*1`) or files (`a*`)"),
                }
            }
        }
    }

    fn set(&mut self, e: &Entry) -> Option<u64> {
        match parse_set(self.model, &e.value) {
            Some(s) => Some(s),
            None => {
                self.bad(e, "piece letters of this variant, `*` or `-`");
                None
            }
        }
    }

    fn option(&mut self, e: &Entry) {
        self.model.origin.insert(e.key.clone(), self.at(e));
        let key = e.key.as_str();
        let color = if key.ends_with("White") {
            Some(0)
        } else if key.ends_with("Black") {
            Some(1)
        } else {
            None
        };
        let both: Vec<usize> = color.map(|c| vec![c]).unwrap_or_else(|| vec![0, 1]);
        let base = key.trim_end_matches("White").trim_end_matches("Black");
        let via = self.at(e).via;
        let m = &mut *self.model;
        match base {
            "startFen" => m.start_fen = (e.value.clone(), At { span: e.value_span.clone(), via }),
            "promotionRegion" | "doubleStepRegion" | "tripleStepRegion" | "enPassantRegion" | "dropRegion"
            | "flagRegion" => {
                let Some(r) = parse_region(&e.value) else {
                    return self.bad(e, "squares (`d4`), ranks (`*1`) or files (`a*`), or `-`");
                };
                let m = &mut *self.model;
                let target = match base {
                    "promotionRegion" => &mut m.promotion.region,
                    "doubleStepRegion" => &mut m.pawn_steps.double_step_region,
                    "tripleStepRegion" => &mut m.pawn_steps.triple_step_region,
                    "enPassantRegion" => &mut m.pawn_steps.en_passant_region,
                    "dropRegion" => &mut m.drops.region,
                    _ => &mut m.flag.region,
                };
                for &c in &both {
                    target[c] = r;
                }
            }
            "pawnTypes"
            | "promotionPawnTypes"
            | "promotionPieceTypes"
            | "enPassantTypes"
            | "castlingRookPieces"
            | "nMoveRuleTypes"
            | "extinctionPieceTypes" => {
                let Some(s) = self.set(e) else { return };
                let m = &mut *self.model;
                if base == "extinctionPieceTypes" {
                    m.extinction.piece_types = s;
                    return;
                }
                for &c in &both {
                    match base {
                        "pawnTypes" => {
                            m.promotion.pawn_types[c] = s;
                            m.pawn_steps.en_passant_types[c] = s;
                            m.end.n_move_rule_types[c] = s;
                        }
                        "promotionPawnTypes" => m.promotion.pawn_types[c] = s,
                        "promotionPieceTypes" => m.promotion.piece_types[c] = s,
                        "enPassantTypes" => m.pawn_steps.en_passant_types[c] = s,
                        "castlingRookPieces" => m.castling.rook_pieces[c] = s,
                        _ => m.end.n_move_rule_types[c] = s,
                    }
                }
            }
            "castlingKingPiece" | "flagPiece" | "dropNoDoubled" => self.piece_type(e, base, &both),
            "promotedPieceType" => self.promoted(e),
            "castlingKingsideFile" | "castlingQueensideFile" | "castlingKingFile" | "castlingRank" => {
                let is_file = base != "castlingRank";
                match parse_line_number(&e.value, is_file) {
                    Some(n) if n >= 1 && n <= if is_file { MAX_FILES } else { MAX_RANKS } => {
                        let m = &mut *self.model;
                        match base {
                            "castlingKingsideFile" => m.castling.kingside_file = n - 1,
                            "castlingQueensideFile" => m.castling.queenside_file = n - 1,
                            "castlingKingFile" => m.castling.king_file = n - 1,
                            _ => m.castling.rank = n,
                        }
                    }
                    _ => self.bad(e, if is_file { "a file letter or number" } else { "a rank number" }),
                }
            }
            "nMoveRule"
            | "nFoldRule"
            | "dropNoDoubledCount"
            | "extinctionPieceCount"
            | "extinctionOpponentPieceCount" => {
                let Ok(n) = e.value.parse::<u32>() else {
                    return self.bad(e, "a whole number");
                };
                match base {
                    "nMoveRule" => m.end.n_move_rule = n,
                    "nFoldRule" => m.end.n_fold_rule = n,
                    "dropNoDoubledCount" => m.drops.no_doubled_count = n,
                    "extinctionPieceCount" => m.extinction.piece_count = n,
                    _ => m.extinction.opponent_piece_count = n,
                }
            }
            "enclosingDrop" | "flipEnclosedPieces" | "enclosingDropStart" => self.enclosing(e, base),
            "nFoldValue" | "stalemateValue" | "checkmateValue" | "extinctionValue" => {
                let v = match e.value.as_str() {
                    "win" => Value::Win,
                    "loss" => Value::Loss,
                    "draw" => Value::Draw,
                    "none" => Value::None,
                    _ => return self.bad(e, "`win`, `loss`, `draw` or `none`"),
                };
                match base {
                    "nFoldValue" => m.end.n_fold_value = v,
                    "stalemateValue" => m.end.stalemate_value = v,
                    "checkmateValue" => m.end.checkmate_value = v,
                    _ => m.extinction.value = v,
                }
            }
            _ => self.flag(e, base),
        }
    }

    /// `enclosingDrop`, `flipEnclosedPieces` (a rule's name) and `enclosingDropStart` (squares).
    fn enclosing(&mut self, e: &Entry, base: &str) {
        let drops = &mut self.model.drops;
        if base == "enclosingDropStart" {
            match parse_region(&e.value) {
                Some(r) => drops.enclosing_start = r,
                None => self.bad(e, "squares (`d4`), ranks (`*1`) or files (`a*`), or `-`"),
            }
        } else if !["reversi", "ataxx", "quadwrangle", "snort", "anyside", "top", "none"].contains(&e.value.as_str()) {
            self.bad(e, "`reversi`, `ataxx`, `quadwrangle`, `snort`, `anyside`, `top` or `none`");
        } else if base == "enclosingDrop" {
            drops.enclosing = e.value.clone();
        } else {
            drops.flip = e.value.clone();
        }
    }

    /// A `true`/`false` option.
    fn flag(&mut self, e: &Entry, base: &str) {
        let v = match e.value.as_str() {
            "true" => true,
            "false" => false,
            _ => return self.bad(e, "`true` or `false`"),
        };
        let m = &mut *self.model;
        let target = match base {
            "mandatoryPawnPromotion" => &mut m.promotion.mandatory_pawn,
            "mandatoryPiecePromotion" => &mut m.promotion.mandatory_piece,
            "doubleStep" => &mut m.pawn_steps.double_step,
            "castling" => &mut m.castling.allowed,
            "castlingDroppedPiece" => &mut m.castling.dropped_piece,
            "checking" => &mut m.checking,
            "dropChecks" => &mut m.drops.drop_checks,
            "pieceDrops" => &mut m.drops.piece_drops,
            "capturesToHand" => &mut m.drops.captures_to_hand,
            "firstRankPawnDrops" => &mut m.drops.first_rank_pawn_drops,
            "promotionZonePawnDrops" => &mut m.drops.promotion_zone_pawn_drops,
            "perpetualCheckIllegal" => &mut m.end.perpetual_check_illegal,
            "shogiPawnDropMateIllegal" => &mut m.drops.shogi_pawn_drop_mate_illegal,
            "immobilityIllegal" => &mut m.end.immobility_illegal,
            "moveRepetitionIllegal" => &mut m.end.move_repetition_illegal,
            "extinctionPseudoRoyal" => &mut m.extinction.pseudo_royal,
            "mustCapture" => &mut m.must_capture,
            "stalematePieceCount" => &mut m.end.stalemate_piece_count,
            _ => &mut m.end.check_counting,
        };
        *target = v;
    }

    /// An option naming one piece type (`*` any, `-` none).
    fn piece_type(&mut self, e: &Entry, base: &str, both: &[usize]) {
        let first = e.value.chars().next();
        let slot = match first {
            Some('*') => None,
            Some('-') if base == "dropNoDoubled" => {
                self.model.drops.no_doubled = None;
                return;
            }
            Some(c) if c.is_ascii_alphabetic() => match self.model.slot_of(c) {
                Some(s) => Some(s),
                None => return self.bad(e, "the letter of one of this variant's pieces"),
            },
            _ => return self.bad(e, "the letter of one of this variant's pieces, or `*`"),
        };
        let m = &mut *self.model;
        match (base, slot) {
            ("flagPiece", _) => both.iter().for_each(|&c| m.flag.piece[c] = slot),
            ("dropNoDoubled", _) => m.drops.no_doubled = slot,
            (_, Some(s)) => both.iter().for_each(|&c| m.castling.king_piece[c] = s),
            (_, None) => self.bad(e, "the letter of one of this variant's pieces"),
        }
    }

    /// `promotedPieceType = p:g s:g` (`-` undoes a promotion).
    fn promoted(&mut self, e: &Entry) {
        for pair in e.value.split_whitespace() {
            let mut chars = pair.chars();
            let (a, colon, b) = (chars.next(), chars.next(), chars.next());
            let from = a.and_then(|a| self.model.slot_of(a));
            let to = match b {
                Some('-') => Some(None),
                Some(b) => self.model.slot_of(b).map(Some),
                None => None,
            };
            match (from, colon, to, chars.next()) {
                (Some(f), Some(':'), Some(t), None) => match t {
                    Some(t) => {
                        self.model.promotion.promoted_piece_type.insert(f, t);
                    }
                    None => {
                        self.model.promotion.promoted_piece_type.remove(&f);
                    }
                },
                _ => return self.bad(e, "pairs of piece letters such as `p:g s:g`"),
            }
        }
    }
}

/// A key `mobilityRegionWhiteRook`: the color and slot.
pub fn mobility_key(key: &str) -> Option<(usize, usize)> {
    let rest = key.strip_prefix("mobilityRegion")?;
    let (c, rest) = match rest.strip_prefix("White") {
        Some(r) => (0, r),
        None => (1, rest.strip_prefix("Black")?),
    };
    (0..SLOTS)
        .find(|&s| {
            let mut n = Model::slot_name(s);
            n[..1].make_ascii_uppercase();
            n == rest
        })
        .map(|s| (c, s))
}

/// A rank number, or a file number or letter.
fn parse_line_number(v: &str, file: bool) -> Option<u8> {
    if file {
        if let [c] = v.as_bytes() {
            if c.is_ascii_lowercase() {
                return Some(c - b'a' + 1);
            }
        }
    }
    v.parse::<u8>().ok()
}

/// A set of squares: `d4`, `*1` (a rank), `a*` (a file), separated by blanks; `-` for none.
pub fn parse_region(v: &str) -> Option<Region> {
    let mut r = 0;
    for token in v.split_whitespace() {
        if token == "-" {
            break;
        }
        let b = token.as_bytes();
        if let Some(rank) = token.strip_prefix('*') {
            let n: u8 = rank.parse().ok()?;
            if !(1..=MAX_RANKS).contains(&n) {
                return None;
            }
            r |= rank_region(n - 1);
        } else if b.len() == 2 && b[1] == b'*' && b[0].is_ascii_lowercase() && b[0] - b'a' < MAX_FILES {
            r |= file_region(b[0] - b'a');
        } else if b.len() >= 2 && b[0].is_ascii_lowercase() && b[0] - b'a' < MAX_FILES {
            let n: u8 = token[1..].parse().ok()?;
            if !(1..=MAX_RANKS).contains(&n) {
                return None;
            }
            r |= square(b[0] - b'a', n - 1);
        } else {
            return None;
        }
    }
    Some(r)
}

/// A set of piece types by letters; `*` is every type, `-` none.
pub fn parse_set(m: &Model, v: &str) -> Option<u64> {
    let mut s = 0;
    for c in v.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '-' => return if s == 0 { Some(0) } else { None },
            '*' => s |= ALL,
            c => s |= 1 << m.slot_of(c)?,
        }
    }
    Some(s)
}
