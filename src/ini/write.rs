//! Writes the rules of a `variants.ini` section as `.var` text: board, players, zones, pieces (with their promotions and drops), castling, setup and end rules; what cannot be written is refused with the option that asks for it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::betza::{self, Context};
use super::fen::{self, Fen, Mark};
use super::model::{square, At, Model, Region, Value, ALL, FIRST_CUSTOM, KING, PAWN, SLOTS};
use super::IniError;

mod castles;
mod enclosing;

/// A `.var` piece: its name, its symbol and the lines of its body.
struct Piece {
    name: String,
    symbol: String,
    body: Vec<String>,
}

/// The writer's state for one section.
pub struct Writer<'a> {
    m: &'a Model,
    name: &'a str,
    header: At,
    fen: Fen,
    /// Zones by name: the cells of each player.
    zones: BTreeMap<String, [Region; 2]>,
    pub errors: Vec<IniError>,
    /// The `royal-check` line pseudo-royal pieces need, if any.
    royal_check: Option<&'static str>,
}

/// The `.var` name of a slot: `Pawn`, `CustomPiece3`, `King`.
fn type_name(slot: usize) -> String {
    let mut n = Model::slot_name(slot);
    n[..1].make_ascii_uppercase();
    n
}

fn cell(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

impl<'a> Writer<'a> {
    /// Reads the start position; a bad one is an error at `startFen`.
    pub fn new(m: &'a Model, name: &'a str, header: At) -> Result<Writer<'a>, IniError> {
        let (text, at) = &m.start_fen;
        let fen = fen::read(m, text).map_err(|e| {
            let span = if at.via.is_some() || at.span.is_empty() {
                header.span.clone()
            } else {
                at.span.start + e.offset..at.span.start + e.offset + e.len.max(1)
            };
            IniError::new(
                span,
                &format!("bad startFen `{text}`: {}", e.message),
                "expected a position for this board and these pieces",
            )
        })?;
        Ok(Writer { m, name, header, fen, zones: BTreeMap::new(), errors: Vec::new(), royal_check: None })
    }

    /// Refuses an option: located where it was set, naming it and why.
    fn refuse(&mut self, key: &str, why: &str) {
        let at = self.m.at(key, &self.header);
        let via = at.via.as_ref().map(|v| format!(" (set by the built-in `{v}`)")).unwrap_or_default();
        self.errors.push(IniError::new(at.span, &format!("`{key}`{via}: {why}"), "Varia refuses this option"));
    }

    /// Refuses a piece's Betza string, pointing at the offending character where the file
    /// wrote it.
    fn refuse_betza(&mut self, slot: usize, e: betza::BetzaError) {
        let key = Model::slot_name(slot);
        let at = self.m.at(&key, &self.header);
        if at.via.is_some() || at.span == self.header.span {
            return self.refuse(&key, &format!("Betza `{}`: {}", self.m.betza(slot), e.message));
        }
        // The value is `x:BETZA`: the string starts two bytes in.
        let start = at.span.start + 2 + e.offset;
        self.errors.push(IniError::new(
            start..start + 1,
            &format!("`{key}`: bad Betza `{}`: {}", self.m.betza(slot), e.message),
            "Varia refuses this piece",
        ));
    }

    /// A zone of the cells of the board in each player's region; `None` when it holds the
    /// whole board for both (no zone needed). Equal zones share a name.
    fn zone(&mut self, name: &str, regions: [Region; 2]) -> Option<String> {
        let board = self.m.board();
        let r = [regions[0] & board, regions[1] & board];
        if r == [board, board] || r == [0, 0] {
            // No zone: the whole board, or nowhere (callers that care test `empty` first).
            return None;
        }
        if let Some((n, _)) = self.zones.iter().find(|(_, z)| **z == r) {
            return Some(n.clone());
        }
        self.zones.insert(name.to_string(), r);
        Some(name.to_string())
    }

    fn cells(&self, r: Region) -> String {
        let mut out = Vec::new();
        for rank in 0..self.m.ranks {
            for file in 0..self.m.files {
                if r & square(file, rank) != 0 {
                    out.push(cell(file, rank));
                }
            }
        }
        out.join(" ")
    }

    /// The cells from which a slot could never move again, where `immobilityIllegal` bars it.
    fn dead(&self, slot: usize) -> [Region; 2] {
        if !self.m.end.immobility_illegal {
            return [0, 0];
        }
        super::immobile::dead(self.m, slot).unwrap_or([0, 0])
    }

    /// The mobility region of a slot, if it has one.
    /// A pawn that must promote but has nothing to promote to may not enter its promotion
    /// zone, as in Fairy-Stockfish.
    fn mobility(&mut self, slot: usize) -> Option<String> {
        let m = self.m;
        let mut r = [0, 1].map(|c| m.mobility_region.get(&(c, slot)).copied().unwrap_or(Region::MAX));
        for (c, region) in r.iter_mut().enumerate() {
            let choices = m.promotion.piece_types[c] & !super::model::ALL != 0
                || (slot == PAWN && m.promotion.promoted_piece_type.contains_key(&PAWN));
            if m.promotion.pawn_types[c] & (1 << slot) != 0 && m.promotion.mandatory_pawn && !choices {
                *region &= !m.promotion.region[c];
            }
        }
        if r[0] & r[1] & m.board() == 0 && (r[0] | r[1]) & m.board() == 0 {
            self.refuse(&Model::slot_name(slot), "a piece that may land nowhere has no .var form");
            return None;
        }
        self.zone(&format!("mobility-{}", type_name(slot).to_lowercase()), r)
    }

    /// Every `.var` piece the variant needs, clones for promoted pieces included.
    fn pieces(&mut self) -> Vec<Piece> {
        let m = self.m;
        let mut out = Vec::new();
        let double = if m.pawn_steps.double_step
            && (m.pawn_steps.double_step_region[0] | m.pawn_steps.double_step_region[1]) & m.board() != 0
        {
            self.zone("double-step", m.pawn_steps.double_step_region)
        } else {
            None
        };
        let marks = (m.pawn_steps.en_passant_region[0] | m.pawn_steps.en_passant_region[1]) & m.board() != 0;
        if marks && (m.pawn_steps.en_passant_region[0] & m.pawn_steps.en_passant_region[1] & m.board()) != m.board() {
            self.refuse("enPassantRegion", "en passant on only part of the board has no .var form");
        }
        for slot in m.slots().collect::<Vec<_>>() {
            let mob = self.mobility(slot);
            let en_passant =
                (m.pawn_steps.en_passant_types[0] | m.pawn_steps.en_passant_types[1]) & (1 << slot) != 0 && marks;
            let mut body = Vec::new();
            if slot == KING {
                body.push("royal".to_string());
            }
            self.common(slot, &mut body, slot);
            if slot == PAWN {
                let to = mob.as_ref().map(|z| format!(" to {z}")).unwrap_or_default();
                body.push("san-without-letter".into());
                body.push(format!("step n move-only{to}"));
                if let Some(z) = &double {
                    let mk = if marks { " marks-en-passant" } else { "" };
                    body.push(format!("slide n max 2 move-only from {z}{to}{mk}"));
                    if (m.pawn_steps.triple_step_region[0] | m.pawn_steps.triple_step_region[1]) & m.board() != 0 {
                        if let Some(t) = self.zone("triple-step", m.pawn_steps.triple_step_region) {
                            body.push(format!("slide n max 3 move-only from {t}{to}{mk}"));
                        }
                    }
                } else if (m.pawn_steps.triple_step_region[0] | m.pawn_steps.triple_step_region[1]) & m.board() != 0 {
                    self.refuse("tripleStepRegionWhite", "triple steps without double steps are not imported");
                }
                let ep = if en_passant { " en-passant" } else { "" };
                body.push(format!("step ne nw capture-only{to}{ep}"));
            } else if slot == 27 {
                self.refuse(
                    &Model::slot_name(slot),
                    "the janggi cannon's own rules (no cannon as a screen or a prey) are not imported",
                );
            } else {
                let ctx = Context { mobility: mob.as_deref(), initial: double.as_deref(), en_passant, marks };
                match betza::lines(m.betza(slot), &ctx) {
                    Ok(lines) => body.extend(lines),
                    Err(e) => self.refuse_betza(slot, e),
                }
            }
            self.promotion(slot, &mut body);
            self.drop(slot, mob.as_deref(), &mut body);
            out.push(Piece { name: type_name(slot), symbol: m.letters[slot].unwrap_or('?').to_string(), body });
        }
        out.extend(self.clones());
        out
    }

    /// Flags every piece of a slot carries (also its promoted forms, which act as `moves_as`).
    fn common(&mut self, slot: usize, body: &mut Vec<String>, moves_as: usize) {
        let m = self.m;
        if m.drops.captures_to_hand && slot != KING {
            body.push("captured-to-hand".into());
        }
        if (m.end.n_move_rule_types[0] | m.end.n_move_rule_types[1]) & (1 << slot) != 0 {
            body.push("resets-move-clock".into());
        }
        if !m.checking {
            body.push("no-check moves drops promotions".into());
        } else if !m.drops.drop_checks && m.drops.piece_drops {
            body.push("no-check drops".into());
        }
        if m.drops.shogi_pawn_drop_mate_illegal && slot == 18 && m.drops.piece_drops {
            body.push("no-drop-checkmate".into());
        }
        if m.extinction.pseudo_royal
            && m.extinction.value != Value::None
            && m.extinction.piece_types & (1 << moves_as) != 0
        {
            body.push("royal".into());
        }
    }

    /// The promotion rule of a slot.
    fn promotion(&mut self, slot: usize, body: &mut Vec<String>) {
        let m = self.m;
        let pawn = [0, 1].map(|c| m.promotion.pawn_types[c] & (1 << slot) != 0);
        let shogi = m.promotion.promoted_piece_type.get(&slot).copied().filter(|t| m.letters[*t].is_some());
        if pawn[0] || pawn[1] {
            // One rule for the sides whose lists agree; sides that differ get a rule each, its
            // zone holding that side's cells only.
            let lists = m.promotion.piece_types;
            let groups: Vec<Vec<usize>> = if pawn[0] && pawn[1] && lists[0] != lists[1] {
                vec![vec![0], vec![1]]
            } else {
                vec![(0..2).filter(|&c| pawn[c]).collect()]
            };
            for group in groups {
                if !self.pawn_promotion(slot, &group, shogi, body) {
                    return;
                }
            }
        } else if shogi.is_some() {
            if (m.promotion.region[0] | m.promotion.region[1]) & m.board() == 0 {
                return;
            }
            let Some(zone) = self.zone("promotion", m.promotion.region) else {
                return self.refuse("promotionRegionWhite", "promotion on every square has no .var form");
            };
            let optional = if m.promotion.mandatory_piece { "" } else { " optional" };
            body.push(format!("promote in {zone} or from {zone} to Promoted{}{optional}", type_name(slot)));
        }
    }

    /// The pawn-style `promote` rule of a slot for the sides in `group` (their lists agree);
    /// `false` once the section is refused.
    fn pawn_promotion(&mut self, slot: usize, group: &[usize], shogi: Option<usize>, body: &mut Vec<String>) -> bool {
        let m = self.m;
        let list = m.promotion.piece_types[group[0]];
        let mut to: Vec<String> = (0..SLOTS)
            .filter(|s| list & (1 << s) != 0 && m.letters[*s].is_some())
            .map(|s| if m.drops.captures_to_hand { format!("{}Promoted", type_name(s)) } else { type_name(s) })
            .collect();
        if shogi.is_some() {
            if slot != PAWN && !to.is_empty() {
                self.refuse(
                    "promotedPieceType",
                    "a piece with both pawn-style and shogi-style promotions is not imported",
                );
                return false;
            }
            to.push(format!("Promoted{}", type_name(slot)));
        }
        if to.is_empty() {
            // Without choices it never enters the zone (see `mobility`), or stays a pawn.
            return true;
        }
        let side = match group {
            [0] if m.promotion.pawn_types[1] & (1 << slot) != 0 => "-white",
            [1] if m.promotion.pawn_types[0] & (1 << slot) != 0 => "-black",
            _ => "",
        };
        let regions = [0, 1].map(|c| if group.contains(&c) { m.promotion.region[c] } else { 0 });
        let Some(zone) = self.zone(&format!("promotion-{}{side}", type_name(slot).to_lowercase()), regions) else {
            if regions[0] & m.board() == 0 && regions[1] & m.board() == 0 {
                return true;
            }
            self.refuse("promotionRegionWhite", "promotion on every square has no .var form");
            return false;
        };
        let optional = if m.promotion.mandatory_pawn { "" } else { " optional" };
        body.push(format!("promote in {zone} to {}{optional}", to.join(" ")));
        true
    }

    /// The drop program of a slot.
    fn drop(&mut self, slot: usize, mob: Option<&str>, body: &mut Vec<String>) {
        let m = self.m;
        if !m.drops.piece_drops || slot == KING {
            return;
        }
        let mut region = m.drops.region;
        let dead = self.dead(slot);
        for (c, r) in region.iter_mut().enumerate() {
            // A drop where the piece could never move again is illegal.
            *r &= !dead[c];
            if let Some(mr) = m.mobility_region.get(&(c, slot)) {
                *r &= mr;
            }
            if slot == PAWN {
                if !m.drops.promotion_zone_pawn_drops {
                    *r &= !m.promotion.region[c];
                }
                if !m.drops.first_rank_pawn_drops {
                    *r &= !super::model::rank_region(if c == 0 { 0 } else { m.ranks - 1 });
                }
            }
        }
        let _ = mob;
        let board = m.board();
        if (region[0] | region[1]) & board == 0 {
            return;
        }
        let mut program = vec!["verify empty".to_string()];
        if let Some(z) = self.zone(&format!("drop-{}", type_name(slot).to_lowercase()), region) {
            program.push(format!("verify in({z})"));
        }
        if m.drops.no_doubled == Some(slot) {
            match m.drops.no_doubled_count {
                0 => return,
                1 => {
                    let me = type_name(slot);
                    program.push(format!(
                        "mark while on-board(n) {{ n verify not (friend and piece({me})) }} back \
                         while on-board(s) {{ s verify not (friend and piece({me})) }} back"
                    ));
                }
                _ => return self.refuse("dropNoDoubledCount", "a count above 1 has no .var form in the import"),
            }
        }
        program.extend(self.enclosing());
        program.push("add".into());
        body.push(format!("drop {{ {} }}", program.join(" ")));
    }

    /// Promoted forms: `+X` for shogi-style promotions, `X~` for pieces a pawn became where
    /// captured pieces go to hand (they go back as pawns).
    fn clones(&mut self) -> Vec<Piece> {
        let m = self.m;
        let mut out = Vec::new();
        for (&from, &to) in &m.promotion.promoted_piece_type {
            if m.letters[from].is_none() || m.letters[to].is_none() {
                continue;
            }
            let mob = self.mobility(to);
            let mut body = Vec::new();
            if to == KING {
                body.push("royal".to_string());
            }
            self.common(from, &mut body, to);
            if let Some(b) = body.iter_mut().find(|l| *l == "captured-to-hand") {
                *b = format!("captured-to-hand as {}", type_name(from));
            }
            self.moves_of(to, mob.as_deref(), &mut body);
            out.push(Piece {
                name: format!("Promoted{}", type_name(from)),
                symbol: format!("+{}", m.letters[from].unwrap_or('?')),
                body,
            });
        }
        if m.drops.captures_to_hand {
            let pawns = m.promotion.pawn_types[0] | m.promotion.pawn_types[1];
            let Some(pawn) = (0..SLOTS).find(|s| pawns & (1 << s) != 0 && m.letters[*s].is_some()) else {
                return out;
            };
            let targets = m.promotion.piece_types[0] | m.promotion.piece_types[1];
            for s in (0..SLOTS).filter(|s| targets & (1 << s) != 0 && m.letters[*s].is_some()) {
                let mob = self.mobility(s);
                let mut body = vec![format!("captured-to-hand as {}", type_name(pawn))];
                if s == KING {
                    body.insert(0, "royal".into());
                }
                self.moves_of(s, mob.as_deref(), &mut body);
                out.push(Piece {
                    name: format!("{}Promoted", type_name(s)),
                    symbol: format!("{}~", m.letters[s].unwrap_or('?')),
                    body,
                });
            }
        }
        out
    }

    /// The moves of a slot for a promoted form (no initial moves, no en passant).
    fn moves_of(&mut self, slot: usize, mob: Option<&str>, body: &mut Vec<String>) {
        if slot == PAWN {
            body.push("step n move-only".into());
            body.push("step ne nw capture-only".into());
            return;
        }
        let ctx = Context { mobility: mob, initial: None, en_passant: false, marks: false };
        match betza::lines(self.m.betza(slot), &ctx) {
            Ok(lines) => body.extend(lines),
            Err(e) => self.refuse_betza(slot, e),
        }
    }

    /// The `.var` name of a start-position piece.
    fn piece_name(&self, slot: usize, mark: Mark) -> String {
        match mark {
            Mark::Plain => type_name(slot),
            Mark::Plus => format!("Promoted{}", type_name(slot)),
            Mark::Tilde => format!("{}Promoted", type_name(slot)),
        }
    }

    fn setup(&mut self, rights: &[char]) -> String {
        let mut out = String::from("setup {\n");
        for (white, player) in [(true, "white"), (false, "black")] {
            let mut by: BTreeMap<(usize, Mark), Vec<String>> = BTreeMap::new();
            for &(f, r, w, slot, mark) in &self.fen.pieces {
                if w == white {
                    by.entry((slot, mark)).or_default().push(cell(f, r));
                }
            }
            if !by.is_empty() {
                let parts: Vec<String> = by
                    .iter()
                    .map(|(&(s, mk), cells)| format!("{} {}", self.piece_name(s, mk), cells.join(" ")))
                    .collect();
                let _ = writeln!(out, "  {player}: {}", parts.join(", "));
            }
            let mut hand: BTreeMap<usize, u32> = BTreeMap::new();
            for &(w, slot) in &self.fen.hand {
                if w == white {
                    *hand.entry(slot).or_default() += 1;
                }
            }
            if !hand.is_empty() {
                let parts: Vec<String> = hand.iter().map(|(&s, n)| format!("{} {n}", type_name(s))).collect();
                let _ = writeln!(out, "  hand {player}: {}", parts.join(", "));
            }
        }
        if !rights.is_empty() {
            let r: Vec<String> = rights.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(out, "  castling {}", r.join(" "));
        }
        out.push_str("}\n");
        out
    }

    /// The `.var` names of every form of a slot (itself and the promoted forms that are it).
    fn forms(&self, slot: usize) -> Vec<String> {
        let m = self.m;
        let mut f = vec![type_name(slot)];
        for (&from, &to) in &m.promotion.promoted_piece_type {
            if to == slot && m.letters[from].is_some() {
                f.push(format!("Promoted{}", type_name(from)));
            }
        }
        if m.drops.captures_to_hand && (m.promotion.piece_types[0] | m.promotion.piece_types[1]) & (1 << slot) != 0 {
            f.push(format!("{}Promoted", type_name(slot)));
        }
        f
    }

    /// `forbid` lines for `immobilityIllegal`: no move may leave a piece where it could never
    /// move again. A forbid rather than a `to` zone, so that the piece still attacks those
    /// cells, as in Fairy-Stockfish, and a promoting move there stays legal, the piece being
    /// another then; drops are barred in `drop`.
    fn immobile(&mut self) -> Vec<String> {
        let m = self.m;
        let mut out = Vec::new();
        if !m.end.immobility_illegal {
            return out;
        }
        if let Some(why) = super::immobile::unsupported(m, &self.fen) {
            self.refuse("immobilityIllegal", why);
            return out;
        }
        for slot in m.slots().collect::<Vec<_>>() {
            let zone = self.zone(&format!("immobile-{}", type_name(slot).to_lowercase()), self.dead(slot));
            if let Some(zone) = zone {
                let forms: Vec<String> = self.forms(slot).iter().map(|f| format!("own {f}")).collect();
                out.push(format!("forbid: config({} at {zone})", forms.join(", ")));
            }
        }
        out
    }

    /// The goals and draws of the `end` block.
    fn end(&mut self) -> (String, bool) {
        let m = self.m;
        let mut goals = Vec::new();
        let mut counts_hands = false;
        if m.extinction.value != Value::None && !m.extinction.pseudo_royal {
            if m.extinction.opponent_piece_count > 0 {
                self.refuse(
                    "extinctionOpponentPieceCount",
                    "an extinction that depends on the opponent's count has no .var form",
                );
            }
            let n = m.extinction.piece_count;
            let mut tests = Vec::new();
            if m.extinction.piece_types & ALL != 0 {
                tests.push((0..=n).map(|k| format!("pieces-remaining {k}")).collect::<Vec<_>>().join(" or "));
            }
            for slot in m.slots().filter(|s| m.extinction.piece_types & (1 << s) != 0) {
                let forms = self.forms(slot);
                if forms.len() == 1 {
                    tests.push(
                        (0..=n).map(|k| format!("pieces-remaining {k} {}", forms[0])).collect::<Vec<_>>().join(" or "),
                    );
                } else if n == 0 {
                    tests.push(
                        forms.iter().map(|f| format!("pieces-remaining 0 {f}")).collect::<Vec<_>>().join(" and "),
                    );
                } else {
                    self.refuse(
                        "extinctionPieceCount",
                        "counting a piece together with its promoted forms has no .var form",
                    );
                }
            }
            if !tests.is_empty() {
                let t: Vec<String> = tests.iter().map(|t| format!("({t})")).collect();
                goals.push(format!("goal white black {}: {}", m.extinction.value.word(), t.join(" or ")));
                counts_hands = self.fen.has_hands || m.drops.piece_drops;
            }
        } else if m.extinction.value != Value::None {
            self.royal_check = self.pseudo_royal();
        }
        self.flag_goals(&mut goals);
        if m.end.check_counting {
            match self.fen.checks {
                Some((a, b)) if a == b && a > 0 => goals.push(format!("goal white black win: checks-given {a}")),
                _ => self.refuse(
                    "checkCounting",
                    "the start position must give each side the same number of checks (`3+3`)",
                ),
            }
        }
        let mut out = String::from("end {\n");
        for g in goals {
            let _ = writeln!(out, "  {g}");
        }
        let word = |v: Value| if v == Value::None { "loss" } else { v.word() };
        let _ = writeln!(out, "  checkmate {}", word(m.end.checkmate_value));
        // `materialCounting = blackdrawodds` (whitedrawodds): the draws of the game are that
        // player's wins.
        let odds = self.odds();
        if odds.is_some()
            && (m.end.stalemate_value != Value::Draw
                || m.end.stalemate_piece_count
                || m.end.n_fold_value != Value::Draw)
        {
            self.refuse(
                "materialCounting",
                "draw odds together with a stalemate or repetition that is not a draw are not imported",
            );
        }
        let won = odds.map(|p| format!(" {p} win")).unwrap_or_default();
        if m.end.stalemate_piece_count {
            // The player to move with fewer pieces on the board gets the value, the one with
            // more its opposite, and as many draw.
            let _ = writeln!(out, "  stalemate fewer-pieces {}", word(m.end.stalemate_value));
        } else if odds.is_some() {
            let _ = writeln!(out, "  stalemate{won}");
        } else {
            let _ = writeln!(out, "  stalemate {}", word(m.end.stalemate_value));
        }
        if m.end.n_move_rule > 0 {
            let _ = writeln!(out, "  move-rule {}{won}", m.end.n_move_rule);
        }
        if m.end.n_fold_rule > 0 {
            let perpetual = if m.end.perpetual_check_illegal { " perpetual-check loss" } else { "" };
            match m.end.n_fold_value {
                Value::Draw | Value::None => {
                    let _ = writeln!(out, "  repetition {}{won}{perpetual}", m.end.n_fold_rule);
                }
                v if m.end.perpetual_check_illegal => {
                    let _ = v;
                    self.refuse(
                        "nFoldValue",
                        "a repetition that is won or lost together with perpetualCheckIllegal is not imported",
                    );
                }
                // The value is for the side to move at the repeated position, so the player
                // who just completed it gets the opposite.
                Value::Loss => {
                    let _ = writeln!(out, "  goal white black win: repetition {}", m.end.n_fold_rule);
                }
                Value::Win => {
                    let _ = writeln!(out, "  goal white black loss: repetition {}", m.end.n_fold_rule);
                }
            }
        }
        for g in super::shuttle::goals(m, &|s| self.forms(s)) {
            let _ = writeln!(out, "  {g}");
        }
        out.push_str("}\n");
        (out, counts_hands)
    }

    /// Extinction of pseudo-royal pieces is written as royal pieces where that is the same
    /// game: none in hand and none made by promotion, and either every piece of the types
    /// always pseudo-royal (no more than `extinctionPieceCount` + 1 of a type per side), or
    /// one type counted to 0, whose
    /// pieces become pseudo-royal when one is left (`royal-check last`). Returns the
    /// `royal-check` line the game needs.
    fn pseudo_royal(&mut self) -> Option<&'static str> {
        let m = self.m;
        let types = m.extinction.piece_types;
        let n = m.extinction.piece_count as usize;
        let most = m
            .slots()
            .filter(|s| types & (1 << s) != 0)
            .flat_map(|s| [true, false].map(|w| self.fen.pieces.iter().filter(|p| p.2 == w && p.3 == s).count()))
            .max()
            .unwrap_or(0);
        let promoted = (m.promotion.piece_types[0] | m.promotion.piece_types[1]) & types != 0
            || m.promotion.promoted_piece_type.values().any(|t| types & (1 << t) != 0);
        let in_hand = self.fen.hand.iter().any(|h| types & (1 << h.1) != 0) || m.drops.captures_to_hand;
        let single_type = types.count_ones() == 1;
        let check = if types & ALL != 0 || promoted || in_hand {
            None
        } else if most <= n + 1 {
            Some("")
        } else if n == 0 && single_type {
            Some("royal-check last")
        } else {
            None
        };
        if check.is_none() {
            self.refuse(
                "extinctionPseudoRoyal",
                "pseudo-royal pieces are written as royal ones only with none in hand, none made by promotion, and either at most `extinctionPieceCount` + 1 of each type per side or one type counted to 0",
            );
        }
        check.filter(|c| !c.is_empty())
    }

    /// The player given draw odds by `materialCounting`, if that is what it asks.
    fn odds(&self) -> Option<&'static str> {
        match self.m.unsupported.get("materialCounting")?.0.to_ascii_lowercase().as_str() {
            "blackdrawodds" => Some("black"),
            "whitedrawodds" => Some("white"),
            _ => None,
        }
    }

    /// Capture-the-flag goals: the player who just moved wins with a flag piece in its region.
    fn flag_goals(&mut self, goals: &mut Vec<String>) {
        let m = self.m;
        let board = m.board();
        for (c, player) in ["white", "black"].iter().enumerate() {
            let region = m.flag.region[c] & board;
            if region == 0 {
                continue;
            }
            let mut regions = [0, 0];
            regions[c] = region;
            let Some(zone) = self.zone(&format!("flag-{player}"), regions) else { continue };
            let slots: Vec<usize> = match m.flag.piece[c] {
                Some(s) => vec![s],
                None => m.slots().collect(),
            };
            let occupiers: Vec<String> =
                slots.iter().flat_map(|&s| self.forms(s)).map(|f| format!("own {f}")).collect();
            goals.push(format!("goal {player} win: config({} at {zone}) and not to-move", occupiers.join(", ")));
        }
    }

    /// The whole `.var` text.
    pub fn write(mut self) -> Result<String, Vec<IniError>> {
        let odds = self.odds().is_some();
        for (key, (value, at, why)) in &self.m.unsupported {
            if key == "materialCounting" && odds {
                continue;
            }
            let via = at.via.as_ref().map(|v| format!(" (set by the built-in `{v}`)")).unwrap_or_default();
            self.errors.push(IniError::new(
                at.span.clone(),
                &format!("`{key} = {value}`{via}: {why}"),
                "Varia refuses this option",
            ));
        }
        self.check_enclosing();
        let pieces = self.pieces();
        let (castles, rights) = self.castles();
        let forbids = self.immobile();
        let setup = self.setup(&rights);
        let (end, counts_hands) = self.end();
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        let m = self.m;
        let mut out = String::new();
        let _ = writeln!(out, "// Imported from a Fairy-Stockfish variants.ini section by `varia convert`.");
        let _ = writeln!(out, "variant \"{}\"\n", self.name);
        let _ = writeln!(out, "board {{\n  grid {} x {}", m.files, m.ranks);
        if !self.fen.walls.is_empty() {
            let walls: Vec<String> = self.fen.walls.iter().map(|&(f, r)| cell(f, r)).collect();
            let _ = writeln!(out, "  no-square {}", walls.join(" "));
        }
        out.push_str("}\n\n");
        // Fairy-Stockfish turns the board round for Black: every direction is reversed.
        out.push_str("player white\nplayer black swap n <-> s  ne <-> sw  nw <-> se  e <-> w\n\n");
        if !self.fen.white_to_move {
            // Black moves first: White keeps its upper-case letters and its name.
            out.push_str("turn-order { black white }\n\n");
        }
        for (name, r) in &self.zones {
            let mut parts = Vec::new();
            for (c, player) in ["white", "black"].iter().enumerate() {
                if r[c] != 0 {
                    parts.push(format!("{player}: {}", self.cells(r[c])));
                }
            }
            if parts.is_empty() {
                parts.push("white:".into());
            }
            let _ = writeln!(out, "zone {name} {{ {} }}", parts.join("  "));
        }
        if counts_hands {
            out.push_str("goals-count-hands\n");
        }
        if m.drops.enclosing == "reversi" {
            out.push_str("flags encloses\n");
        }
        if m.must_capture {
            out.push_str("must-capture\n");
        }
        if let Some(check) = self.royal_check {
            let _ = writeln!(out, "{check}");
        }
        for p in &pieces {
            let _ = writeln!(out, "\npiece {} {} {{", p.name, p.symbol);
            for l in &p.body {
                let _ = writeln!(out, "  {l}");
            }
            out.push_str("}\n");
        }
        out.push('\n');
        for c in castles.iter().chain(&forbids) {
            let _ = writeln!(out, "{c}");
        }
        let _ = write!(out, "\n{setup}\n{end}");
        let _ = FIRST_CUSTOM;
        Ok(out)
    }
}
