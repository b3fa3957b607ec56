//! Lowering of players, zones with their occupancy rules, and pieces with their move powers (steps, slides, leaps, hops; Betza in `lower_betza.rs`).

use varia_interpreter::ir::*;

use super::*;
use crate::syntax::Rule;

impl Lowerer {
    // ------------------------------------------------------------ players and zones

    pub(super) fn player(&mut self, p: Node) {
        let mut it = p.into_inner().skip(1);
        let name = it.next().expect("player name");
        if self.players.iter().any(|q| q.name == name.as_str()) {
            self.error(&name, format!("duplicate player `{}`", name.as_str()), "expected a name no other player uses");
            return;
        }
        let most = varia_interpreter::limits::PLAYERS;
        if self.players.len() >= most {
            self.error(&name, format!("more than {most} players"), format!("expected at most {most} players"));
            return;
        }
        let mut map: Vec<DirId> = (0..self.dirs.len()).map(|i| DirId(i as u8)).collect();
        for pair in it.filter(|p| p.as_rule() == Rule::dir_pair) {
            let mut ends = pair.into_inner();
            let a = ends.next().expect("dir");
            let b = ends.nth(1).expect("dir");
            if let (Some(a), Some(b)) = (self.direction(&a), self.direction(&b)) {
                map[a.0 as usize] = b;
                map[b.0 as usize] = a;
            }
        }
        self.players.push(Player { name: name.as_str().to_string(), direction_map: map });
    }

    pub(super) fn player_id(&mut self, n: &Node) -> Option<PlayerId> {
        let id = self.players.iter().position(|p| p.name == n.as_str()).map(|i| PlayerId(i as u8));
        if id.is_none() {
            let known: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
            self.error(n, format!("unknown player `{}`", n.as_str()), format!("expected one of: {}", known.join(" ")));
        }
        id
    }

    /// Lowers the `team` lines: each player in one team at most, and a team leaves an opponent.
    pub(super) fn teams(&mut self, decls: &[Node]) -> Vec<Vec<PlayerId>> {
        let mut teams: Vec<Vec<PlayerId>> = Vec::new();
        for decl in decls {
            let mut team = Vec::new();
            for n in decl.clone().into_inner().skip(1) {
                let Some(p) = self.player_id(&n) else { continue };
                if team.contains(&p) || teams.iter().any(|t| t.contains(&p)) {
                    self.error(
                        &n,
                        format!("player `{}` is in a team already", n.as_str()),
                        "expected each player in one team at most",
                    );
                } else {
                    team.push(p);
                }
            }
            if team.len() == self.players.len() {
                self.error(decl, "a team of every player", "expected a team that leaves some player to play against");
            } else if team.len() > 1 {
                team.sort();
                teams.push(team);
            }
        }
        teams
    }

    pub(super) fn zone(&mut self, z: Node) {
        let mut it = z.into_inner().skip(1);
        let name = it.next().expect("zone name");
        let mut cells: Vec<Vec<CellId>> = vec![Vec::new(); self.players.len()];
        let mut occupancy: Option<Occupancy> = None;
        let mut phase_occupancy = Vec::new();
        for part in it {
            match part.as_rule() {
                Rule::zone_player => {
                    let mut pi = part.into_inner();
                    let who = pi.next().expect("player");
                    let list = pi.nth(1).expect("cells");
                    if let Some(p) = self.player_id(&who) {
                        let found = self.cell_list(list, Some(p));
                        cells[p.0 as usize] = found;
                    }
                }
                Rule::cell_list => {
                    let found = self.cell_list(part, None);
                    for c in cells.iter_mut() {
                        *c = found.clone();
                    }
                }
                Rule::capacity_option | Rule::occupancy_flag => {
                    let o = occupancy.get_or_insert_with(Occupancy::default);
                    self.occupancy_rule(o, part);
                }
                Rule::zone_phase => {
                    let mut pi = part.into_inner().skip(1);
                    let phase_name = pi.next().expect("phase name");
                    let phase = match self.phases.get_index_of(phase_name.as_str()) {
                        Some(i) => Some(PhaseId(i as u8)),
                        None => {
                            let known: Vec<&str> = self.phases.keys().map(|s| s.as_str()).collect();
                            let label = if known.is_empty() {
                                "expected a phase declared with `phase NAME when ...`; this variant has none"
                                    .to_string()
                            } else {
                                format!("expected one of the phases: {}", known.join(" "))
                            };
                            self.error(&phase_name, format!("unknown phase `{}`", phase_name.as_str()), label);
                            None
                        }
                    };
                    // A phase block starts from the zone's own rules (as written before it).
                    let mut o = occupancy.unwrap_or_default();
                    for rule in pi.filter(|r| matches!(r.as_rule(), Rule::capacity_option | Rule::occupancy_flag)) {
                        self.occupancy_rule(&mut o, rule);
                    }
                    if let Some(phase) = phase {
                        occupancy.get_or_insert_with(Occupancy::default);
                        phase_occupancy.push((phase, o));
                    }
                }
                _ => {}
            }
        }
        if self.zones.contains_key(name.as_str()) {
            self.error(&name, format!("duplicate zone `{}`", name.as_str()), "expected a name no other zone uses");
            return;
        }
        if self.zones.len() >= 255 {
            self.error(&name, "too many zones", "expected at most 255 zones");
            return;
        }
        if occupancy.is_some() {
            // A cell follows one set of occupancy rules: two zones with rules may not share it.
            for other in self.zones.values().filter(|z| z.occupancy.is_some()) {
                let shared = cells.iter().flatten().find(|c| other.cells.iter().flatten().any(|o| o == *c));
                if let Some(c) = shared {
                    let cell = self.cells[c.0 as usize].name.clone();
                    self.error(
                        &name,
                        format!(
                            "cell `{cell}` is in two zones with occupancy rules: `{}` and `{}`",
                            other.name,
                            name.as_str()
                        ),
                        "expected each cell to follow the occupancy rules of one zone only",
                    );
                    break;
                }
            }
        }
        self.zones.insert(
            name.as_str().to_string(),
            Zone { name: name.as_str().to_string(), cells, occupancy, phase_occupancy },
        );
    }

    /// Applies one occupancy rule (`capacity 2`, `lone-inert`, ...) to `o`.
    pub(super) fn occupancy_rule(&mut self, o: &mut Occupancy, rule: Node) {
        if rule.as_rule() == Rule::capacity_option {
            let n = rule.into_inner().nth(1).expect("capacity value");
            if n.as_rule() == Rule::k_any {
                o.capacity = None;
            } else {
                let v = int_value(self, &n, 255) as u8;
                if v == 0 {
                    self.error(
                        &n,
                        "a capacity of 0",
                        "expected at least 1 (use `no-square` for cells that hold nothing)",
                    );
                }
                o.capacity = Some(v.max(1));
            }
            return;
        }
        let flag = rule.into_inner().next().expect("occupancy flag");
        match flag.as_rule() {
            Rule::k_lone_inert => o.lone_inert = true,
            Rule::k_lone_active => o.lone_inert = false,
            Rule::k_crowd_safe => o.crowd_safe = true,
            Rule::k_crowd_open => o.crowd_safe = false,
            Rule::k_capture_one => o.capture = CaptureRule::One,
            Rule::k_capture_all => o.capture = CaptureRule::All,
            Rule::k_join_mixed_crowd => o.join_mixed_crowd = true,
            Rule::k_join_enemy_by_move => o.join_enemy_by_move = true,
            Rule::k_join_none => {
                o.join_mixed_crowd = false;
                o.join_enemy_by_move = false;
            }
            _ => {}
        }
    }

    pub(super) fn zone_id(&mut self, n: &Node) -> Option<ZoneId> {
        let id = self.zones.get_index_of(n.as_str()).map(|i| ZoneId(i as u8));
        if id.is_none() {
            let known: Vec<&str> = self.zones.keys().map(|s| s.as_str()).collect();
            let expected = if known.is_empty() {
                "expected a zone declared with `zone NAME { ... }` (this file declares none)".to_string()
            } else {
                format!("expected one of: {}", known.join(" "))
            };
            self.error(n, format!("unknown zone `{}`", n.as_str()), expected);
        }
        id
    }

    // ------------------------------------------------------------ pieces

    pub(super) fn declare_piece(&mut self, p: Node) {
        let mut it = p.into_inner().skip(1);
        let name = it.next().expect("piece name");
        let letter = it.next().expect("piece letter");
        let symbol = letter.as_str();
        let ch = symbol.chars().find(|c| c.is_ascii_alphabetic()).expect("one letter");
        let mark = symbol.chars().find(|c| matches!(c, '+' | '~'));
        // The limit comes first: a declaration past it (a duplicate too) gets no id, which
        // would not fit in a piece type id.
        if self.pieces.len() >= varia_interpreter::limits::PIECE_TYPES {
            let most = varia_interpreter::limits::PIECE_TYPES;
            self.error(&name, "too many piece types", format!("expected at most {most} piece types"));
            return;
        }
        if self.piece_ids.contains_key(name.as_str()) {
            self.error(&name, format!("duplicate piece `{}`", name.as_str()), "expected a name no other piece uses");
        } else if let Some(other) = self.pieces.iter().find(|q| q.letter.eq_ignore_ascii_case(&ch) && q.mark == mark) {
            let message = match mark {
                None => format!("letter `{ch}` is already used by the piece `{}`", other.name),
                Some(_) => format!("`{symbol}` is already the symbol of the piece `{}`", other.name),
            };
            self.error(
                &letter,
                message,
                "expected a letter no other piece uses (case is ignored), or the letter marked `X~` or `+X`",
            );
        }
        self.piece_ids.insert(name.as_str().to_string(), PieceTypeId(self.pieces.len() as u8));
        self.pieces.push(PieceType {
            name: name.as_str().to_string(),
            letter: ch.to_ascii_uppercase(),
            mark,
            royal: false,
            value: None,
            san_without_letter: false,
            resets_move_clock: false,
            no_drop_checkmate: false,
            no_check: 0,
            moves: Vec::new(),
            promotion: None,
            more_promotions: Vec::new(),
            keep_apart: None,
            programs: Vec::new(),
            drops: Vec::new(),
            drop_supply: DropSupply::Hand,
            attributes: Vec::new(),
            to_hand: None,
            explodes: None,
            blast_proof: false,
            held_by_check: false,
            points: 0,
        });
    }

    pub(super) fn piece_ref(&mut self, n: &Node) -> Option<PieceTypeId> {
        let s = n.as_str();
        if let Some(id) = self.piece_ids.get(s) {
            return Some(*id);
        }
        if s.len() == 1 {
            // A letter names the unmarked type (a marked one, `Q~`, is named by its name).
            let ch = s.chars().next().unwrap_or(' ');
            if let Some(i) = self.pieces.iter().position(|p| p.letter.eq_ignore_ascii_case(&ch) && p.mark.is_none()) {
                return Some(PieceTypeId(i as u8));
            }
        }
        let known: Vec<String> = self.pieces.iter().map(|p| format!("{} ({})", p.name, p.letter)).collect();
        self.error(n, format!("unknown piece `{s}`"), format!("expected one of: {}", known.join(", ")));
        None
    }

    /// Keeps a `promote` rule of piece `index`: the first, or one that reaches only players the
    /// earlier ones leave out (a move promotes by the one rule of its player).
    fn add_promotion(&mut self, index: usize, rule: Promotion, at: &Node, promote_at: &mut Vec<(usize, usize)>) {
        let reached = |r: &Promotion, zones: &IndexMap<String, Zone>, p: usize| {
            let has = |z: ZoneId| {
                zones.get_index(z.0 as usize).is_some_and(|(_, z)| z.cells.get(p).is_some_and(|c| !c.is_empty()))
            };
            has(r.zone) || r.from_zone.is_some_and(has)
        };
        let piece = &self.pieces[index];
        let clash = piece.promotions().enumerate().find_map(|(k, earlier)| {
            let both =
                (0..self.players.len()).find(|&p| reached(earlier, &self.zones, p) && reached(&rule, &self.zones, p));
            both.map(|p| (k, p))
        });
        if let Some((k, p)) = clash {
            let (line, col) = promote_at[k];
            let message = format!(
                "piece `{}` has two `promote` rules for player `{}`: this one and the one at line {line}, column {col}",
                piece.name, self.players[p].name
            );
            let label =
                "expected one `promote` rule per player: give each rule a zone with cells for other players only";
            return self.error(at, message, label);
        }
        promote_at.push(at.as_span().start_pos().line_col());
        let piece = &mut self.pieces[index];
        if piece.promotion.is_none() {
            piece.promotion = Some(rule);
        } else {
            piece.more_promotions.push(rule);
        }
    }

    /// A list of directions and sets, each direction once, in the order written.
    pub(super) fn dir_list(&mut self, list: Node) -> Vec<DirId> {
        let mut dirs = Vec::new();
        for d in list.into_inner() {
            for id in self.directions(&d) {
                if !dirs.contains(&id) {
                    dirs.push(id);
                }
            }
        }
        dirs
    }

    pub(super) fn piece_body(&mut self, index: usize, p: Node) {
        let mut moves = Vec::new();
        let mut attributes = Vec::new();
        let mut explodes_at = None;
        // Where each `promote` rule kept so far was written, for the error on a second one.
        let mut promote_at = Vec::new();
        for item in p.into_inner().skip(3) {
            match item.as_rule() {
                Rule::royal_flag => self.pieces[index].royal = true,
                Rule::san_flag => self.pieces[index].san_without_letter = true,
                Rule::clock_flag => self.pieces[index].resets_move_clock = true,
                Rule::drop_mate_flag => self.pieces[index].no_drop_checkmate = true,
                Rule::no_check_decl => self.no_check_decl(index, item),
                Rule::blast_proof_flag => self.pieces[index].blast_proof = true,
                Rule::held_by_check_flag => self.pieces[index].held_by_check = true,
                Rule::explodes_decl => {
                    explodes_at = Some(item.clone());
                    let dirs = self.dir_list(item.into_inner().nth(1).expect("directions"));
                    self.pieces[index].explodes = Some(dirs);
                }
                Rule::keep_apart_decl => {
                    let n = item.into_inner().nth(1).expect("distance");
                    self.pieces[index].keep_apart = Some(int_value(self, &n, 255) as u8);
                }
                Rule::points_decl => {
                    let n = item.into_inner().nth(1).expect("points");
                    self.pieces[index].points = self.points(&n);
                }
                Rule::value_decl => {
                    let n = item.into_inner().nth(1).expect("value");
                    self.pieces[index].value = Some(int_value(self, &n, 1_000_000) as i32);
                }
                Rule::promote_decl => self.promote_decl(index, item, &mut promote_at),
                Rule::move_rule => moves.extend(self.move_rule(item)),
                Rule::betza_rule => moves.extend(self.betza(item, Some(index))),
                Rule::move_program | Rule::drop_program => self.piece_program(index, item),
                Rule::to_hand_decl => {
                    let base = item.into_inner().nth(2);
                    self.pieces[index].to_hand = match base {
                        Some(b) => self.piece_ref(&b),
                        None => Some(PieceTypeId(index as u8)),
                    };
                }
                Rule::drop_supply_decl => {
                    let which = item.into_inner().nth(1).expect("hand or unlimited");
                    self.pieces[index].drop_supply =
                        if which.as_rule() == Rule::k_hand { DropSupply::Hand } else { DropSupply::Unlimited };
                }
                Rule::attribute_decl => {
                    let at = item.clone();
                    if let Some((id, set)) = self.attribute_decl(item) {
                        if attributes.contains(&id) {
                            self.error(&at, "an attribute declared twice", "expected each attribute once per piece");
                        } else {
                            attributes.push(id);
                            if set {
                                self.pieces[index].attributes.push(id);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.pieces[index].moves = moves;
        let piece = &self.pieces[index];
        let changes_type = piece.promotion.is_some() || piece.programs.iter().any(|p| changes_own_type(&p.body));
        if let (Some(at), true, true) = (explodes_at, piece.royal, changes_type) {
            self.error(
                &at,
                "a royal piece that explodes cannot promote or change its type",
                "expected `explodes` on a piece that is not royal, or no promotion: its blast takes it whatever it became",
            );
        }
    }

    /// `no-check [moves] [drops] [promotions]`: the actions of the piece that may not give
    /// check (moves and drops when none is named).
    fn no_check_decl(&mut self, index: usize, item: Node) {
        let mut kinds = 0;
        for kind in item.into_inner().skip(1) {
            kinds |= match kind.as_str() {
                "moves" => NO_CHECK_MOVES,
                "drops" => NO_CHECK_DROPS,
                _ => NO_CHECK_PROMOTIONS,
            };
        }
        self.pieces[index].no_check = if kinds == 0 { NO_CHECK_MOVES | NO_CHECK_DROPS } else { kinds };
    }

    /// A `promote` rule of the piece (`promote_at`: where each rule kept so far was written).
    fn promote_decl(&mut self, index: usize, item: Node, promote_at: &mut Vec<(usize, usize)>) {
        let at = item.clone();
        let mut zone = None;
        let mut from_zone = None;
        let mut forced_zone = None;
        let mut captured_only = false;
        let mut setup_only = false;
        let mut choices = Vec::new();
        let mut mandatory = true;
        for part in item.into_inner() {
            match part.as_rule() {
                Rule::any_name => zone = self.zone_id(&part),
                Rule::promote_from => {
                    let name = part.into_inner().nth(2).expect("the zone");
                    from_zone = self.zone_id(&name);
                }
                Rule::promote_forced => {
                    let name = part.into_inner().nth(2).expect("the zone");
                    forced_zone = self.zone_id(&name);
                }
                Rule::piece_ref => choices.extend(self.piece_ref(&part)),
                Rule::optional_flag => mandatory = false,
                Rule::captured_only_flag => captured_only = true,
                Rule::setup_only_flag => setup_only = true,
                _ => {}
            }
        }
        if let Some(zone) = zone {
            let rule = Promotion { zone, from_zone, forced_zone, choices, mandatory, captured_only, setup_only };
            self.add_promotion(index, rule, &at, promote_at);
        }
    }

    /// A move or drop program of the piece, checked for loops and counted against the limit.
    fn piece_program(&mut self, index: usize, item: Node) {
        let drop = item.as_rule() == Rule::drop_program;
        let Some(p) = self.program(item.clone()) else { return };
        self.check_loops(&p, &item);
        let list = if drop { &mut self.pieces[index].drops } else { &mut self.pieces[index].programs };
        if list.len() >= varia_interpreter::limits::PROGRAMS_PER_PIECE {
            let most = varia_interpreter::limits::PROGRAMS_PER_PIECE;
            let what = if drop { "drop" } else { "move" };
            self.error(&item, format!("too many {what} programs"), format!("expected at most {most} per piece"));
            return;
        }
        list.push(p);
    }

    pub(super) fn move_rule(&mut self, rule: Node) -> Option<MoveRule> {
        let at = rule.clone();
        let mut it = rule.into_inner();
        let geo = it.next().expect("geometry");
        let geometry = match geo.as_rule() {
            Rule::step | Rule::slide | Rule::hop => {
                let dirs = self.dir_list(geo.clone().into_inner().nth(1).expect("directions"));
                match geo.as_rule() {
                    Rule::step => Geometry::Slide { dirs, max: Some(1) },
                    Rule::slide => Geometry::Slide { dirs, max: None },
                    _ => Geometry::Hop { dirs, max: None },
                }
            }
            _ => {
                let mut paths = Vec::new();
                for part in geo.clone().into_inner().skip(1) {
                    match part.as_rule() {
                        Rule::leap_offset => {
                            let mut ns = part.clone().into_inner();
                            let a = ns.next().expect("a");
                            let b = ns.next().expect("b");
                            let (a, b) = (int_value(self, &a, 16) as i32, int_value(self, &b, 16) as i32);
                            paths.extend(self.offset_paths(&part, a, b));
                        }
                        Rule::leap_path => {
                            let mut path = Vec::new();
                            for d in part.into_inner().filter(|p| p.as_rule() == Rule::name) {
                                path.extend(self.direction(&d));
                            }
                            paths.push(path);
                        }
                        _ => {}
                    }
                }
                Geometry::Leap { paths }
            }
        };
        let mut out = MoveRule {
            geometry,
            mode: MoveMode::MoveOrCapture,
            conditions: Vec::new(),
            marks_en_passant: false,
            captures_en_passant: false,
            stop_between: false,
        };
        for m in it {
            self.modifier(&mut out, m);
        }
        self.check_condition_needs_move_only(&at, &out);
        Some(out)
    }

    /// `if in-check` only on a `move-only` power: a capturing power's moves are attacks, and
    /// whether a player is in check would then depend on whether it is in check.
    pub(super) fn check_condition_needs_move_only(&mut self, at: &Node, out: &MoveRule) {
        if out.mode != MoveMode::MoveOnly && out.conditions.iter().any(reads_check) {
            self.error(
                at,
                "`if in-check` on a power that may capture (its captures would be attacks that depend on check)",
                "expected `move-only` with `in-check`",
            );
        }
    }

    /// A condition outside a move power's `if` (a phase, `holds(...)`, `vacate`,
    /// `skip-if-none`), where no piece moves from a cell: `in-check` and `on-right` are refused.
    pub(super) fn position_condition(&mut self, c: Node) -> Option<Condition> {
        let at = c.clone();
        let cond = self.condition(c)?;
        if reads_the_mover(&cond) {
            self.error(
                &at,
                "`in-check` and `on-right` are read only by a move power's `if`",
                "expected a condition of the position (pieces, turn, phase)",
            );
            return None;
        }
        Some(cond)
    }

    pub(super) fn modifier(&mut self, out: &mut MoveRule, m: Node) {
        match m.as_rule() {
            Rule::max_mod => {
                let n = m.clone().into_inner().nth(1).expect("max");
                let v = int_value(self, &n, 255) as u8;
                match &mut out.geometry {
                    Geometry::Slide { max, .. } | Geometry::Hop { max, .. } => *max = Some(v),
                    Geometry::Leap { .. } => {
                        self.error(&m, "`max` applies to slides and hops, not leaps", "remove `max`")
                    }
                }
            }
            Rule::move_only => out.mode = MoveMode::MoveOnly,
            Rule::capture_only => out.mode = MoveMode::CaptureOnly,
            Rule::from_mod => {
                let n = m.into_inner().nth(1).expect("zone");
                if let Some(z) = self.zone_id(&n) {
                    out.conditions.push(Condition::FromZone(z));
                }
            }
            Rule::to_mod => {
                let n = m.into_inner().nth(1).expect("zone");
                if let Some(z) = self.zone_id(&n) {
                    out.conditions.push(Condition::ToZone(z));
                }
            }
            Rule::if_mod => {
                let c = m.into_inner().nth(1).expect("condition");
                if let Some(c) = self.condition(c) {
                    out.conditions.push(c);
                }
            }
            Rule::marks_ep => out.marks_en_passant = true,
            Rule::captures_ep => out.captures_en_passant = true,
            Rule::stop_between_mod => {
                if !matches!(out.geometry, Geometry::Slide { .. }) {
                    self.error(&m, "`stop-between` applies to steps and slides", "remove `stop-between`");
                } else if self.between_at.is_none() {
                    self.error(
                        &m,
                        "`stop-between` needs locations between cells",
                        "expected `between DIRECTIONS` in the board",
                    );
                } else {
                    out.stop_between = true;
                }
            }
            _ => {}
        }
    }

    pub(super) fn condition(&mut self, c: Node) -> Option<Condition> {
        let inner = c.into_inner().next().expect("condition body");
        let mut it = inner.clone().into_inner();
        match inner.as_rule() {
            Rule::not_cond => {
                let sub = it.nth(1).expect("negated condition");
                self.condition(sub).map(|c| Condition::Not(Box::new(c)))
            }
            Rule::type_count_cond => {
                let mut enemy = false;
                let mut types = Vec::new();
                let mut compare = None;
                let mut n = 0;
                for part in it {
                    match part.as_rule() {
                        Rule::count_enemy => enemy = true,
                        Rule::piece_ref => types.extend(self.piece_ref(&part)),
                        Rule::compare => compare = Some(compare_of(part.as_str())),
                        Rule::int => n = int_value(self, &part, u32::MAX as u64) as u32,
                        _ => {}
                    }
                }
                Some(Condition::TypeCount { enemy, types, compare: compare?, n })
            }
            Rule::in_check_cond => Some(Condition::InCheck),
            Rule::on_right_cond => Some(Condition::OnRight),
            Rule::count_cond | Rule::turn_cond => {
                let op = it.nth(1).expect("comparison");
                let n = it.next().expect("number");
                let n = int_value(self, &n, u32::MAX as u64) as u32;
                let op = compare_of(op.as_str());
                Some(if inner.as_rule() == Rule::count_cond {
                    Condition::PieceCount(op, n)
                } else {
                    Condition::TurnNumber(op, n)
                })
            }
            _ => {
                let name = it.nth(1).expect("phase name");
                match self.phases.get_index_of(name.as_str()) {
                    Some(i) => Some(Condition::InPhase(PhaseId(i as u8))),
                    None => {
                        let known: Vec<&str> = self.phases.keys().map(|s| s.as_str()).collect();
                        let label = if known.is_empty() {
                            "expected a phase, but none is declared: add `phase NAME when ...`".to_string()
                        } else {
                            format!("expected one of: {}", known.join(" "))
                        };
                        self.error(&name, format!("unknown phase `{}`", name.as_str()), label);
                        None
                    }
                }
            }
        }
    }

    /// Paths for a leap by (a, b) in every compass orientation passing `filters`: straight or
    /// diagonal runs for (a, 0) and (a, a); otherwise `a` steps one way, then `b` turning.
    pub(super) fn offset_paths(&mut self, at: &Node, a: i32, b: i32) -> Vec<Vec<DirId>> {
        let mut out: Vec<(i32, i32, Vec<DirId>)> = Vec::new();
        let dir = |l: &Self, dx: i32, dy: i32| {
            COMPASS.iter().find(|c| c.1 == dx && c.2 == dy).and_then(|c| l.dirs.get(c.0).copied())
        };
        if ["n", "e", "s", "w", "ne", "se", "sw", "nw"].iter().any(|d| !self.dirs.contains_key(*d)) {
            self.error(
                at,
                "leap offsets and Betza need the grid's compass directions (n ne e se s sw w nw)",
                "declare a grid",
            );
            return Vec::new();
        }
        let (a, b) = (a.max(b), a.min(b));
        if a == 0 {
            self.error(at, "a leap of (0, 0) goes nowhere", "expected a non-zero offset");
            return Vec::new();
        }
        for (ux, uy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            for turn in [1, -1] {
                // Rotate the unit vector by 90 degrees (either way) for the second leg.
                let (vx, vy) = (-uy * turn, ux * turn);
                let (dx, dy) = if b == a { (ux + vx, uy + vy) } else { (ux, uy) };
                let path: Vec<DirId> = if b == a {
                    (0..a).filter_map(|_| dir(self, dx, dy)).collect()
                } else {
                    let first = dir(self, ux, uy);
                    let second = dir(self, vx, vy);
                    (0..a).filter_map(|_| first).chain((0..b).filter_map(|_| second)).collect()
                };
                let (tx, ty) = if b == a { (a * dx, a * dy) } else { (a * ux + b * vx, a * uy + b * vy) };
                if !out.iter().any(|(x, y, _)| *x == tx && *y == ty) {
                    out.push((tx, ty, path));
                }
            }
        }
        out.into_iter().map(|(_, _, p)| p).collect()
    }
}

/// The comparison of a condition's operator.
fn compare_of(op: &str) -> Compare {
    match op {
        "<" => Compare::Less,
        "<=" => Compare::LessEq,
        "==" => Compare::Eq,
        ">=" => Compare::GreaterEq,
        _ => Compare::Greater,
    }
}

/// Whether a move program may land its piece as another type (`add(TYPES)`).
fn changes_own_type(body: &[Instr]) -> bool {
    body.iter().any(|i| match i {
        Instr::Add { promote, .. } => !promote.is_empty(),
        Instr::If(_, a, b) => changes_own_type(a) || changes_own_type(b),
        Instr::While(_, a) => changes_own_type(a),
        _ => false,
    })
}

/// Whether a condition reads whether the moving player is in check.
fn reads_check(c: &Condition) -> bool {
    match c {
        Condition::InCheck => true,
        Condition::Not(inner) => reads_check(inner),
        _ => false,
    }
}

/// Whether a condition reads the moving piece or player (`in-check`, `on-right`).
fn reads_the_mover(c: &Condition) -> bool {
    match c {
        Condition::InCheck | Condition::OnRight => true,
        Condition::Not(inner) => reads_the_mover(inner),
        _ => false,
    }
}
