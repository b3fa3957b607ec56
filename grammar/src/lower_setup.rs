//! Lowering of castling lines, squares and turn blocks, the setup (with its castling rights checked against the pieces set up) and the end rules; loop checks of programs.

use varia_interpreter::ir::*;

use super::*;
use crate::diagnostic::Diagnostic;
use crate::syntax::Rule;

/// The end rules without an `end` block: checkmate loses, stalemate draws, nothing else.
pub(super) fn default_end() -> EndRules {
    EndRules {
        checkmate: Outcome::Loss,
        stalemate: Outcome::Draw,
        stalemate_for: None,
        bare_king: None,
        move_rule: None,
        move_rule_player: None,
        repetition: None,
        repetition_player: None,
        perpetual_check: None,
        goals: Vec::new(),
        points_bonus: Vec::new(),
        counting: Vec::new(),
    }
}

impl Lowerer {
    // ------------------------------------------------------------ castling, setup, end

    /// The cells strictly after `from` up to and including `to` along one direction.
    pub(super) fn line(&self, from: CellId, to: CellId) -> Option<Vec<CellId>> {
        for d in self.dirs.values() {
            let mut path = Vec::new();
            let mut at = from;
            while let Some(l) = self.links.iter().find(|l| l.from == at && l.dir == *d) {
                at = l.to;
                if at == from || path.contains(&at) {
                    break;
                }
                path.push(at);
                if at == to {
                    return Some(path);
                }
            }
        }
        None
    }

    pub(super) fn castle(&mut self, c: Node) -> Option<Castling> {
        let mut parts: Vec<Node> = c.clone().into_inner().collect();
        let by_drop = parts.iter().position(|p| p.as_rule() == Rule::castle_by_drop).map(|i| parts.remove(i));
        if let Some(from) = parts.get(13) {
            if let Some(b) = &by_drop {
                self.errors.push(Diagnostic::new(
                    "`gained-by-drop` needs the castling's start cells",
                    b.as_span().start()..b.as_span().end(),
                    "a castling with fixed start cells (`king e1 -> g1 partner h1 -> f1`), without `from`",
                ));
            }
            return self.free_castle(&parts, from.clone());
        }
        let gained_by_drop = match by_drop {
            Some(b) => {
                let types: Vec<Node> = b.into_inner().filter(|n| n.as_rule() == Rule::piece_ref).collect();
                let (k, p) = (self.piece_ref(&types[0]), self.piece_ref(&types[1]));
                Some((k?, p?))
            }
            None => None,
        };
        let notation = string_value(&parts[1]);
        let player = self.player_id(&parts[2]);
        let right = parts[4].as_str().chars().next().expect("letter");
        let kf = self.cell(&parts[6]);
        let kt = self.cell(&parts[8]);
        let pf = self.cell(&parts[10]);
        let pt = self.cell(&parts[12]);
        let (player, kf, kt, pf, pt) = (player?, kf?, kt?, pf?, pt?);
        let king_path = if kf == kt { Some(Vec::new()) } else { self.line(kf, kt) };
        let partner_path = if pf == pt { Some(Vec::new()) } else { self.line(pf, pt) };
        for (who, path, a, b) in
            [("king", &king_path, &parts[6], &parts[8]), ("partner", &partner_path, &parts[10], &parts[12])]
        {
            if path.is_none() {
                self.errors.push(Diagnostic::new(
                    format!(
                        "the castling {who} cannot move from `{}` to `{}` along one direction",
                        a.as_str(),
                        b.as_str()
                    ),
                    a.as_span().start()..b.as_span().end(),
                    "expected two cells on one straight line of the board, like a rank",
                ));
            }
        }
        let (Some(king_path), Some(partner_path)) = (king_path, partner_path) else {
            return None;
        };
        let mut must_be_empty: Vec<CellId> = Vec::new();
        for x in king_path.iter().chain(partner_path.iter()) {
            if *x != kf && *x != pf && !must_be_empty.contains(x) {
                must_be_empty.push(*x);
            }
        }
        // Every cell between king and partner must be empty too.
        if let Some(between) = self.line(kf, pf) {
            for x in between {
                if x != pf && !must_be_empty.contains(&x) {
                    must_be_empty.push(x);
                }
            }
        }
        let mut must_be_safe = vec![kf];
        must_be_safe.extend(king_path);
        Some(Castling {
            notation,
            player,
            right,
            king_from: kf,
            king_to: kt,
            partner_from: pf,
            partner_to: pt,
            must_be_empty,
            must_be_safe,
            free: None,
            gained_by_drop,
        })
    }

    /// `castle ... king TYPE -> CELL partner TYPE -> CELL from CELLS`: the start cells come
    /// from the position. The cells must lie on one line with both destinations among them.
    fn free_castle(&mut self, parts: &[Node], from: Node) -> Option<Castling> {
        let notation = string_value(&parts[1]);
        let player = self.player_id(&parts[2]);
        let right = parts[4].as_str().chars().next().expect("letter");
        let king = self.piece_ref(&parts[6]);
        let kt = self.cell(&parts[8]);
        let partner = self.piece_ref(&parts[10]);
        let pt = self.cell(&parts[12]);
        let list = from.clone().into_inner().nth(1).expect("cells");
        let cells = self.cell_list(list, player);
        let (player, king, kt, partner, pt) = (player?, king?, kt?, partner?, pt?);
        let on_line = cells.windows(2).all(|w| self.line(w[0], w[1]).is_some_and(|p| p.len() == 1));
        if cells.len() < 2 || !on_line || !cells.contains(&kt) || !cells.contains(&pt) || kt == pt {
            self.error(
                &from,
                "the castling's start cells are not a line holding its destinations",
                "expected cells side by side along one line of the board (like `rank 1`), the king's and the partner's destinations two of them",
            );
            return None;
        }
        if player.0 > 1 {
            self.error(
                &parts[2],
                "a castling with start cells from the position is for the first two players only",
                "expected the first or second player (position strings name its rights by file letter, upper or lower case)",
            );
            return None;
        }
        let mut names: Vec<char> =
            cells.iter().map(|c| self.cells[c.0 as usize].name.chars().next().unwrap_or('?')).collect();
        names.sort_unstable();
        names.dedup();
        if names.len() != cells.len() || names.iter().any(|c| !c.is_ascii_alphabetic()) {
            self.error(
                &from,
                "the castling's start cells do not each have a file letter of their own",
                "expected cells whose names begin with different letters (position strings name rights by them)",
            );
            return None;
        }
        Some(Castling {
            notation,
            player,
            right,
            king_from: kt,
            king_to: kt,
            partner_from: pt,
            partner_to: pt,
            must_be_empty: Vec::new(),
            must_be_safe: Vec::new(),
            free: Some(FreeCastling { king, partner, cells }),
            gained_by_drop: None,
        })
    }

    /// Lowers `squares { ... }`.
    pub(super) fn squares(&mut self, block: Node) -> SquareRules {
        let mut out = SquareRules {
            owned: false,
            reserve: Some(0),
            moves: Vec::new(),
            carries: Vec::new(),
            carry_royal: true,
            place_zone: None,
            untouchable: Untouchable::Nothing,
            vacate: None,
        };
        for item in block.into_inner() {
            match item.as_rule() {
                Rule::owned_flag => out.owned = true,
                Rule::neutral_flag => out.owned = false,
                Rule::reserve_decl => {
                    let v = item.into_inner().nth(1).expect("reserve size");
                    out.reserve =
                        if v.as_rule() == Rule::k_any { None } else { Some(int_value(self, &v, 10_000) as u32) };
                }
                Rule::square_move_decl | Rule::carry_decl => {
                    let carry = item.as_rule() == Rule::carry_decl;
                    let mut it = item.into_inner().skip(1);
                    let power = it.next().expect("a move power");
                    let geometries = self.square_power(power);
                    if carry {
                        out.carries.extend(geometries);
                        if it.next().is_some() {
                            out.carry_royal = false;
                        }
                    } else {
                        out.moves.extend(geometries);
                    }
                }
                Rule::place_decl => {
                    let where_ = item.into_inner().last().expect("place target");
                    out.place_zone = if where_.as_rule() == Rule::any_name { self.zone_id(&where_) } else { None };
                }
                Rule::untouchable_decl => {
                    let which = item.into_inner().nth(1).expect("moved or touched");
                    out.untouchable =
                        if which.as_rule() == Rule::k_moved { Untouchable::Moved } else { Untouchable::Touched };
                }
                Rule::vacate_decl => {
                    let conds = item.into_inner().filter(|p| p.as_rule() == Rule::condition);
                    out.vacate = Some(conds.filter_map(|c| self.position_condition(c)).collect());
                }
                _ => {}
            }
        }
        out
    }

    /// The geometries of a square's move power: leaps and steps or slides, with no modifier but
    /// `max` (a square does not capture, and its moves have no conditions).
    pub(super) fn square_power(&mut self, power: Node) -> Vec<Geometry> {
        let rules = match power.as_rule() {
            Rule::move_rule => self.move_rule(power.clone()).into_iter().collect(),
            _ => self.betza(power.clone(), None),
        };
        let mut out = Vec::new();
        for rule in rules {
            let plain = rule.mode == MoveMode::MoveOrCapture
                && rule.conditions.is_empty()
                && !rule.marks_en_passant
                && !rule.captures_en_passant
                && !rule.stop_between;
            if matches!(rule.geometry, Geometry::Hop { .. }) {
                self.error(&power, "a square cannot hop", "expected a leap, step or slide");
            } else if !plain {
                self.error(
                    &power,
                    "a square's move takes no modifiers but `max`",
                    "squares neither capture nor take en passant, and their moves have no conditions",
                );
            } else {
                out.push(rule.geometry);
            }
        }
        out
    }

    /// Lowers `turn { ... }`.
    pub(super) fn turn(&mut self, block: Node, has_squares: bool) -> Turn {
        let mut actions = Vec::new();
        for slot in block.clone().into_inner().filter(|p| p.as_rule() == Rule::turn_slot) {
            let mut action = TurnAction { kinds: Vec::new(), optional: false, skip_if_none: None };
            for part in slot.into_inner() {
                match part.as_rule() {
                    Rule::action_kind => {
                        let k = part.clone().into_inner().next().expect("action keyword");
                        let kind = match k.as_rule() {
                            Rule::k_piece => ActionKind::MovePiece,
                            Rule::k_move_square => ActionKind::MoveSquare,
                            _ => ActionKind::PlaceSquare,
                        };
                        if kind != ActionKind::MovePiece && !has_squares {
                            self.error(
                                &part,
                                format!("`{}` needs a `squares {{ ... }}` block", part.as_str()),
                                "declare how squares move and are placed in a `squares` block",
                            );
                        }
                        if action.kinds.contains(&kind) {
                            self.error(&part, "an action listed twice", "expected each kind once per action");
                        }
                        action.kinds.push(kind);
                    }
                    Rule::optional_flag => action.optional = true,
                    Rule::skip_if_none => {
                        let conds = part.into_inner().filter(|p| p.as_rule() == Rule::condition);
                        action.skip_if_none = Some(conds.filter_map(|c| self.position_condition(c)).collect());
                    }
                    _ => {}
                }
            }
            actions.push(action);
        }
        if actions.len() > 8 {
            self.error(&block, "too many actions in a turn", "expected at most 8 actions");
            actions.truncate(8);
        }
        Turn { actions }
    }

    /// A gating right: its player, letter and cells. Its letter differs from every castling's
    /// and every other gate's; the rights together are at most 32.
    pub(super) fn gate(&mut self, g: Node, castlings: &[Castling]) -> Option<Gate> {
        let parts: Vec<Node> = g.clone().into_inner().collect();
        let player = self.player_id(&parts[1])?;
        let right = parts[3].as_str().chars().next().expect("letter");
        if castlings.iter().any(|c| c.right == right) || self.gate_letters.contains(&right) {
            self.error(
                &parts[3],
                format!("the right letter `{right}` is already used"),
                "expected a letter no castling or other gate uses",
            );
            return None;
        }
        let cells = self.cell_list(parts[5].clone(), None);
        if castlings.len() + self.gate_letters.len() >= 32 {
            self.error(&g, "too many rights", "expected at most 32 castling and gating rights together");
            return None;
        }
        self.gate_letters.push(right);
        let types_after = |l: &mut Self, rule: Rule| match parts.iter().skip(6).find(|p| p.as_rule() == rule) {
            Some(e) => e.clone().into_inner().skip(1).map(|t| l.piece_ref(&t)).collect::<Option<Vec<_>>>(),
            None => Some(Vec::new()),
        };
        let except = types_after(self, Rule::gate_except)?;
        let aimed_by = types_after(self, Rule::gate_aimed)?;
        Some(Gate { player, right, cells, except, aimed_by })
    }

    /// The setup block, or an option of a choice (`base`: the setup's placements, which the
    /// option's may not overlap and whose pieces its castling rights may need).
    pub(super) fn setup(
        &mut self,
        s: Node,
        castlings: &[Castling],
        gates: &[Gate],
        base: &[(CellId, Vec<(PlayerId, PieceTypeId)>)],
    ) -> Setup {
        let mut placements: Vec<(CellId, Vec<(PlayerId, PieceTypeId)>)> = Vec::new();
        let mut rights = Vec::new();
        let mut letters = Vec::new();
        let mut hands = Vec::new();
        let mut shuffles = Vec::new();
        for item in s.into_inner() {
            match item.as_rule() {
                Rule::hand_decl => hands.extend(self.hand(item)),
                Rule::setup_player => self.setup_player(item, base, &mut placements),
                Rule::shuffle_decl => {
                    let at = span(&item);
                    shuffles.extend(self.shuffle(item).map(|s| (s, at)));
                }
                Rule::castling_rights => {
                    for l in item.into_inner().skip(1) {
                        let ch = l.as_str().chars().next().expect("letter");
                        if castlings.iter().any(|c| c.right == ch && c.free.is_some()) {
                            // Its cells come from the position: checked as the game starts.
                            rights.push(ch);
                        } else if castlings.iter().any(|c| c.right == ch) {
                            rights.push(ch);
                            letters.push(l);
                        } else if gates.iter().any(|g| g.right == ch) {
                            rights.push(ch);
                        } else {
                            self.error(
                                &l,
                                format!("no castling or gate has the right letter `{ch}`"),
                                "expected the right letter of a `castle ... right X ...` or `gate ... right X ...` declaration",
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        placements.sort_by_key(|(c, _)| *c);
        let mut all = base.to_vec();
        all.extend(placements.iter().cloned());
        for l in &letters {
            self.check_castling_right(l, castlings, &all);
        }
        self.check_shuffles(&shuffles, &all);
        let shuffles = shuffles.into_iter().map(|(s, _)| s).collect();
        Setup { placements, castling_rights: rights, square_owners: Vec::new(), hands, shuffles }
    }

    /// One player's placements of the setup (`player: piece cells, ...`), each checked against
    /// the cells (a square, room between cells, capacity) and the setup's own (`base`).
    fn setup_player(
        &mut self,
        item: Node,
        base: &[(CellId, Vec<(PlayerId, PieceTypeId)>)],
        placements: &mut Vec<(CellId, Vec<(PlayerId, PieceTypeId)>)>,
    ) {
        let mut it = item.into_inner();
        let who = it.next().expect("player");
        let player = self.player_id(&who);
        for pl in it.filter(|p| p.as_rule() == Rule::placement) {
            let mut pi = pl.into_inner();
            let piece = pi.next().expect("piece");
            let list = pi.next().expect("cells");
            let ty = self.piece_ref(&piece);
            let cells = self.cell_list_spanned(list, player);
            if let (Some(player), Some(ty)) = (player, ty) {
                for (c, at) in cells {
                    let piece = &self.pieces[ty.0 as usize];
                    if !self.cells[c.0 as usize].covers.is_empty() && !piece.stands_between() {
                        let name = piece.name.clone();
                        self.errors.push(Diagnostic::new(
                            format!("a {name} cannot stand between cells"),
                            at,
                            "expected a cell: none of its moves may `stop-between`",
                        ));
                        continue;
                    }
                    if self.no_square.contains(&c) {
                        let name = self.cells[c.0 as usize].name.clone();
                        self.errors.push(Diagnostic::new(
                            format!("`{name}` has no square: a piece cannot be set up there"),
                            at,
                            "expected a location with a square (the board's `no-square` lists this one)",
                        ));
                        continue;
                    }
                    if let Some(other) = self.covered_by_other(c, base).or_else(|| self.covered_by_other(c, placements))
                    {
                        let (a, b) = (&self.cells[c.0 as usize].name, &self.cells[other.0 as usize].name);
                        self.errors.push(Diagnostic::new(
                            format!("`{a}` overlaps the piece set up on `{b}`"),
                            at,
                            "a piece between cells covers them: expected cells it leaves free",
                        ));
                        continue;
                    }
                    let capacity = self.start_capacity(c);
                    if !base.is_empty() && base.iter().any(|(x, _)| *x == c) {
                        let name = self.cells[c.0 as usize].name.clone();
                        self.errors.push(Diagnostic::new(
                            format!("`{name}` already has a piece in the setup"),
                            at,
                            "an option places its pieces on cells the setup leaves empty",
                        ));
                        continue;
                    }
                    if let Some((_, stack)) = placements.iter_mut().find(|(x, _)| *x == c) {
                        if capacity.is_some_and(|n| stack.len() >= n as usize) {
                            let name = self.cells[c.0 as usize].name.clone();
                            let n = capacity.unwrap_or(1);
                            let label = if n == 1 {
                                format!("`{name}` already has a piece: a cell holds one piece")
                            } else {
                                format!("`{name}` already has {n} pieces, its capacity")
                            };
                            self.errors.push(Diagnostic::new(format!("too many pieces set up on `{name}`"), at, label));
                            continue;
                        }
                        stack.push((player, ty));
                        continue;
                    }
                    placements.push((c, vec![(player, ty)]));
                }
            }
        }
    }

    /// A castling right given at the start needs pieces of its player on the king's and the
    /// partner's start cells (the top piece of a stack).
    pub(super) fn check_castling_right(
        &mut self,
        letter: &Node,
        castlings: &[Castling],
        placements: &[(CellId, Vec<(PlayerId, PieceTypeId)>)],
    ) {
        let ch = letter.as_str().chars().next().expect("letter");
        for c in castlings.iter().filter(|c| c.right == ch) {
            let top = |cell: CellId| placements.iter().find(|(x, _)| *x == cell).and_then(|(_, s)| s.last().copied());
            let who = self.players.get(c.player.0 as usize).map(|p| p.name.clone()).unwrap_or_default();
            // The pieces set up there are the castling's king and partner (as a position string's
            // rights are checked against them), so any piece of the player will do.
            let check = |cell: CellId| match top(cell) {
                Some((p, _)) if p == c.player => None,
                Some((p, t)) => Some(format!(
                    "{} holds {}'s {}",
                    self.cells[cell.0 as usize].name,
                    self.players.get(p.0 as usize).map(|x| x.name.as_str()).unwrap_or("?"),
                    self.pieces[t.0 as usize].name.to_lowercase()
                )),
                None => Some(format!("{} is empty", self.cells[cell.0 as usize].name)),
            };
            let missing = check(c.king_from)
                .map(|f| ("castling king", c.king_from, f))
                .or_else(|| check(c.partner_from).map(|f| ("castling partner", c.partner_from, f)));
            if let Some((what, cell, found)) = missing {
                let name = self.cells[cell.0 as usize].name.clone();
                self.error(
                    letter,
                    format!("castling right `{ch}` ({who} {}) needs {who}'s {what} on {name}", c.notation),
                    format!("expected {who}'s {what} set up on {name}, but {found}"),
                );
            }
        }
    }

    /// A placement other than on `c` itself whose covered cells meet `c`'s (a piece standing
    /// between cells covers them all).
    pub(super) fn covered_by_other(
        &self,
        c: CellId,
        placements: &[(CellId, Vec<(PlayerId, PieceTypeId)>)],
    ) -> Option<CellId> {
        let area = |x: CellId| {
            let covers = &self.cells[x.0 as usize].covers;
            if covers.is_empty() {
                vec![x]
            } else {
                covers.clone()
            }
        };
        let mine = area(c);
        placements.iter().map(|(x, _)| *x).find(|&x| x != c && area(x).iter().any(|y| mine.contains(y)))
    }

    /// How many pieces a cell may hold at the start (its zone's rules without phases).
    pub(super) fn start_capacity(&self, c: CellId) -> Option<u8> {
        self.zones
            .values()
            .find(|z| z.occupancy.is_some() && z.cells.iter().flatten().any(|x| *x == c))
            .and_then(|z| z.occupancy)
            .map_or(Some(1), |o| o.capacity)
    }

    pub(super) fn end(&mut self, e: Node) -> EndRules {
        let mut end = default_end();
        let outcome = |n: &Node| super::goals::outcome_of(n.as_str());
        let mut bonus_given: Vec<PlayerId> = Vec::new();
        for item in e.into_inner() {
            let rule = item.as_rule();
            if rule == Rule::goal_end {
                end.goals.extend(self.goal(item));
                continue;
            }
            if rule == Rule::counting_end {
                let mut parts = item.into_inner().skip(1);
                let n = parts.next().expect("moves");
                let moves =
                    self.count_from_one(&n, 10_000, "a count of 0 moves", "expected a count of 1 to 10000 moves");
                let rest: Vec<Node> = parts.collect();
                let from_pieces = rest.iter().any(|p| p.as_rule() == Rule::counting_from);
                let for_mover = rest.iter().any(|p| p.as_rule() == Rule::counting_mover);
                let test = rest.into_iter().find(|p| p.as_rule() == Rule::goal_test).expect("test");
                if let Some(test) = self.goal_test(test) {
                    end.counting.push(Counting { moves, test, from_pieces, for_mover });
                }
                continue;
            }
            if rule == Rule::points_bonus_end {
                let mut parts = item.into_inner().skip(1);
                let name = parts.next().expect("player");
                let points = self.points(&parts.next().expect("points"));
                if let Some(p) = self.player_id(&name) {
                    if bonus_given.contains(&p) {
                        self.error(
                            &name,
                            format!("a second `points-bonus` for `{}`", name.as_str()),
                            "expected one per player",
                        );
                    }
                    bonus_given.push(p);
                    end.points_bonus.resize(self.players.len(), 0);
                    end.points_bonus[p.0 as usize] = points;
                }
                continue;
            }
            let Some(v) = item.clone().into_inner().nth(1) else { continue };
            match rule {
                Rule::checkmate_end => end.checkmate = outcome(&v),
                Rule::stalemate_end => {
                    for part in item.into_inner().skip(1) {
                        match part.as_rule() {
                            Rule::k_fewer_pieces => end.stalemate_for = Some(ResultFor::FewerPieces),
                            Rule::stalemate_player => {
                                let name = part.into_inner().next().expect("player name");
                                end.stalemate_for = self.player_id(&name).map(ResultFor::Player);
                            }
                            _ => end.stalemate = outcome(&part),
                        }
                    }
                }
                Rule::bare_king_end => end.bare_king = Some(outcome(&v)),
                Rule::move_rule_end => {
                    end.move_rule = Some(int_value(self, &v, 100_000) as u32);
                    if let Some(part) = item.into_inner().nth(2) {
                        let mut inner = part.into_inner();
                        let name = inner.next().expect("player name");
                        let result = outcome(&inner.next().expect("outcome"));
                        end.move_rule_player = self.player_id(&name).map(|p| (p, result));
                    }
                }
                Rule::repetition_end => {
                    end.repetition = Some(int_value(self, &v, 1000) as u32);
                    for part in item.into_inner().skip(2) {
                        let rule = part.as_rule();
                        let mut inner = part.into_inner();
                        match rule {
                            Rule::repetition_player => {
                                let name = inner.next().expect("player name");
                                let result = outcome(&inner.next().expect("outcome"));
                                end.repetition_player = self.player_id(&name).map(|p| (p, result));
                            }
                            Rule::perpetual_check => {
                                end.perpetual_check = Some(outcome(&inner.nth(1).expect("outcome")));
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        end
    }
}

impl Lowerer {
    /// Reports the loops of a program that could never end once entered, at their `while`.
    pub(super) fn check_loops(&mut self, p: &varia_interpreter::ir::Program, item: &Node) {
        let endless = varia_interpreter::endless_loops(p);
        if endless.is_empty() {
            return;
        }
        let loops: Vec<Node> =
            item.clone().into_inner().flatten().filter(|n| n.as_rule() == Rule::while_instr).collect();
        for k in endless {
            if let Some(n) = loops.get(k) {
                self.error(
                    n,
                    "this loop never ends once entered: its body neither moves nor sets a flag, so its test keeps its value",
                    "expected a loop that steps to another cell (or sets a flag its test reads)",
                );
            }
        }
    }
}

/// Whether a program sets a piece attribute anywhere.
pub(super) fn program_sets_attribute(p: &varia_interpreter::ir::Program) -> bool {
    pub(super) fn sets(body: &[varia_interpreter::ir::Instr]) -> bool {
        use varia_interpreter::ir::Instr;
        body.iter().any(|i| match i {
            Instr::SetAttribute(..) => true,
            Instr::If(_, a, b) => sets(a) || sets(b),
            Instr::While(_, b) => sets(b),
            _ => false,
        })
    }
    sets(&p.body)
}
