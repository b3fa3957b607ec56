//! Writing the board, players, zones and pieces with their move powers as `.var` text.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use varia_interpreter::ir::*;

use super::*;

impl Writer<'_> {
    // ------------------------------------------------------------ board

    pub(super) fn grid_board(&self, plan: &GridPlan) -> String {
        let mut lines = Vec::new();
        for (i, (w, h, prefix, layer)) in plan.grids.iter().enumerate() {
            let mut line = format!("grid {w} x {h}");
            if !prefix.is_empty() {
                let _ = write!(line, " prefix \"{prefix}\"");
            }
            if *layer != i as i32 {
                let _ = write!(line, " layer {layer}");
            }
            lines.push(line);
        }
        if !plan.plain_dirs.is_empty() {
            let words: Vec<String> = plan.plain_dirs.iter().map(|d| self.dir(*d).to_string()).collect();
            lines.extend(wrap(&words, 90).into_iter().map(|l| format!("direction {l}")));
        }
        for (d, [dx, dy, dl]) in &plan.offset_dirs {
            lines.push(format!("direction {} offset {dx} {dy} {dl}", self.dir(*d)));
        }
        if !plan.removed.is_empty() {
            lines.extend(wrap(&plan.removed, 90).into_iter().map(|l| format!("remove {l}")));
        }
        for (list, keep) in &plan.merges {
            lines.push(format!("merge {} as {}", list.join(" "), self.cell(*keep)));
        }
        for c in &plan.extra_cells {
            lines.push(self.cell_decl(*c));
        }
        for (c, d) in &plan.unlinks {
            lines.push(format!("unlink {} {}", self.cell(*c), self.dir(*d)));
        }
        lines.extend(self.link_lines(&plan.links));
        self.board_tail(&mut lines, 3);
        lines.join("\n")
    }

    /// `cell NAME at X Y [layer L]`
    pub(super) fn cell_decl(&self, c: CellId) -> String {
        let cell = &self.v.board.cells[c.0 as usize];
        let mut line = format!("cell {} at {} {}", cell.name, cell.x, cell.y);
        if cell.layer != 0 {
            let _ = write!(line, " layer {}", cell.layer);
        }
        line
    }

    pub(super) fn link_lines(&self, links: &[Link]) -> Vec<String> {
        links.iter().map(|l| format!("link {} {} {}", self.cell(l.from), self.dir(l.dir), self.cell(l.to))).collect()
    }

    /// Direction sets from `first_set` on, `no-square` and `between`: the same in both forms.
    pub(super) fn board_tail(&self, lines: &mut Vec<String>, first_set: usize) {
        let b = &self.v.board;
        for (i, (name, members)) in b.direction_sets.iter().enumerate().skip(first_set) {
            lines.push(format!("directions {name} = {}", self.dirs(members, &b.direction_sets[..i])));
        }
        if !b.initially_empty_locations.is_empty() {
            let words = self.cells(&b.initially_empty_locations);
            lines.extend(wrap(&words, 90).into_iter().map(|l| format!("no-square {l}")));
        }
        if let Some(dirs) = self.between_dirs() {
            lines.push(format!("between {}", self.dirs(&dirs, &b.direction_sets)));
        }
    }

    /// The directions whose links make exactly the board's locations between cells.
    pub(super) fn between_dirs(&self) -> Option<Vec<DirId>> {
        let b = &self.v.board;
        let key = |c: &Cell| {
            let xs = c.covers.iter().map(|k| b.cells[k.0 as usize].x);
            let ys = c.covers.iter().map(|k| b.cells[k.0 as usize].y);
            Some((xs.clone().min()? + xs.max()?, ys.clone().min()? + ys.max()?, c.layer))
        };
        let wanted: HashSet<(i32, i32, i32)> =
            b.cells.iter().filter(|c| !c.covers.is_empty()).filter_map(key).collect();
        if wanted.is_empty() {
            return None;
        }
        let mut dirs = Vec::new();
        let mut made = HashSet::new();
        for d in 0..b.directions.len() {
            let mut keys = Vec::new();
            for l in b.links.iter().filter(|l| l.dir.0 as usize == d) {
                let (a, z) = (&b.cells[l.from.0 as usize], &b.cells[l.to.0 as usize]);
                if a.layer == z.layer && (a.x - z.x).abs() <= 1 && (a.y - z.y).abs() <= 1 {
                    keys.push((a.x + z.x, a.y + z.y, a.layer));
                }
            }
            if !keys.is_empty() && keys.iter().all(|k| wanted.contains(k)) {
                dirs.push(DirId(d as u8));
                made.extend(keys);
            }
        }
        // Without a fit, `between` is left out and the check reports the board.
        (made == wanted).then_some(dirs)
    }

    /// The board as explicit cells and links.
    pub(super) fn explicit_board(&self) -> Result<String, WriteError> {
        let b = &self.v.board;
        if let Some(c) = b.cells.iter().find(|c| !c.also_at.is_empty()) {
            return fail(
                "the board",
                format!(
                    "cell `{}` lies on several boards (made by `merge`), and the board is not made of grids the \
                     language could merge it from",
                    c.name
                ),
            );
        }
        let n = b.cells.iter().position(|c| !c.covers.is_empty()).unwrap_or(b.cells.len());
        if b.cells[n..].iter().any(|c| c.covers.is_empty()) || (n < b.cells.len() && self.between_dirs().is_none()) {
            return fail("the board", "its locations between cells are not those `between` makes from its links");
        }
        let mut at: HashMap<(i32, i32, i32), &str> = HashMap::new();
        for c in &b.cells[..n] {
            if !is_name(&c.name) {
                return fail("the board", format!("cell `{}` has a name only a grid or `between` can give", c.name));
            }
            if !(-1000..=1000).contains(&c.x) || !(-1000..=1000).contains(&c.y) || !(0..=1000).contains(&c.layer) {
                return fail("the board", format!("cell `{}` lies outside the coordinates a `cell` can have", c.name));
            }
            if let Some(other) = at.insert((c.x, c.y, c.layer), &c.name) {
                return fail("the board", format!("cells `{other}` and `{}` have the same display position", c.name));
            }
        }
        let mut lines = Vec::new();
        let words: Vec<String> = b.directions.clone();
        lines.extend(wrap(&words, 90).into_iter().map(|l| format!("direction {l}")));
        // Cells of one rank of one layer share a line.
        let mut line = String::new();
        let mut last = None;
        for i in 0..n {
            let c = &b.cells[i];
            if last != Some((c.layer, c.y)) || line.len() > 80 {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                last = Some((c.layer, c.y));
            } else {
                line.push_str("  ");
            }
            line.push_str(&self.cell_decl(CellId(i as u16)));
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines.extend(self.link_lines(&b.links));
        self.board_tail(&mut lines, 0);
        Ok(lines.join("\n"))
    }

    // ------------------------------------------------------------ the rest

    pub(super) fn text(&self, renames: &[Rename], board: &str) -> Result<String, WriteError> {
        let v = self.v;
        let mut out = String::new();
        for r in renames {
            let _ = writeln!(out, "// The {} {:?} is written `{}`.", r.kind, r.from, r.to);
        }
        let _ = writeln!(out, "variant \"{}\"\n", v.title);
        out.push_str(&pgn_variant_line(&v.pgn_variant));
        let _ = writeln!(out, "board {{");
        for l in board.lines() {
            let _ = writeln!(out, "  {l}");
        }
        let _ = writeln!(out, "}}\n");
        for p in &v.players {
            out.push_str(&self.player_decl(p)?);
        }
        out.push('\n');
        out.push_str(&self.display_block(&v.display));
        let lists = [("move-types", &v.move_types), ("attributes", &v.attributes), ("flags", &v.flags)];
        let mut any = false;
        for (word, names) in lists {
            if !names.is_empty() {
                let _ = writeln!(out, "{word} {}", names.join(" "));
                any = true;
            }
        }
        if any {
            out.push('\n');
        }
        for z in &v.zones {
            out.push_str(&self.zone_decl(z)?);
            out.push('\n');
        }
        for p in &v.pieces {
            out.push_str(&self.piece_decl(p)?);
            out.push('\n');
        }
        for c in &v.castlings {
            let Some(f) = &c.free else {
                let by_drop = c
                    .gained_by_drop
                    .map(|(k, p)| format!(" gained-by-drop {} {}", self.piece(k), self.piece(p)))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "castle \"{}\" {} right {} king {} -> {} partner {} -> {}{by_drop}",
                    c.notation,
                    self.player(c.player),
                    c.right,
                    self.cell(c.king_from),
                    self.cell(c.king_to),
                    self.cell(c.partner_from),
                    self.cell(c.partner_to)
                );
                continue;
            };
            let _ = writeln!(
                out,
                "castle \"{}\" {} right {} king {} -> {} partner {} -> {} from {}",
                c.notation,
                self.player(c.player),
                c.right,
                self.piece(f.king),
                self.cell(c.king_to),
                self.piece(f.partner),
                self.cell(c.partner_to),
                self.cells(&f.cells).join(" ")
            );
        }
        for g in &v.gates {
            let cells: Vec<String> = g.cells.iter().map(|c| self.cell(*c).to_string()).collect();
            let except: String = g.except.iter().map(|t| format!(" {}", self.piece(*t))).collect();
            let except = if except.is_empty() { except } else { format!(" except{except}") };
            let aimed: String = g.aimed_by.iter().map(|t| format!(" {}", self.piece(*t))).collect();
            let aimed = if aimed.is_empty() { aimed } else { format!(" aimed-by{aimed}") };
            let _ =
                writeln!(out, "gate {} right {} at {}{except}{aimed}", self.player(g.player), g.right, cells.join(" "));
        }
        if !v.castlings.is_empty() || !v.gates.is_empty() {
            out.push('\n');
        }
        for p in &v.phases {
            let _ = writeln!(out, "phase {} when {}", p.name, self.condition(&p.when, &format!("phase `{}`", p.name))?);
        }
        if !v.phases.is_empty() {
            out.push('\n');
        }
        out.push_str(&self.turn_rules()?);
        if let Some(s) = &v.squares {
            out.push_str(&self.squares_block(s)?);
            out.push('\n');
        }
        if let Some(w) = &v.walls {
            out.push_str(&self.walls_block(w));
            out.push('\n');
        }
        let default_turn = v.turn.actions.len() == 1
            && v.turn.actions[0].kinds == [ActionKind::MovePiece]
            && !v.turn.actions[0].optional
            && v.turn.actions[0].skip_if_none.is_none();
        if !default_turn {
            out.push_str(&self.turn_block(&v.turn)?);
            out.push('\n');
        }
        out.push_str(&self.setup_block(&v.setup)?);
        for c in &v.choices {
            out.push_str(&self.choice_block(c)?);
        }
        out.push('\n');
        out.push_str(&self.end_block(&v.end)?);
        Ok(out)
    }

    /// The turn-wide rules (priorities, turn order, passes, maximal captures, shared pieces,
    /// teams, forbidden positions), a line each and an empty line after them; empty without any.
    fn turn_rules(&self) -> Result<String, WriteError> {
        let v = self.v;
        let mut out = String::new();
        let mut rules = false;
        if !v.move_priorities.is_empty() {
            let _ = writeln!(out, "priorities {}", join(&v.move_priorities, " ", |t| self.move_type(*t).to_string()));
            rules = true;
        }
        if let Some(order) = &v.turn_order {
            if order.cycle.is_empty() {
                return fail("the turn order", "its cycle is empty");
            }
            let entry = |e: &TurnEntry| match e.move_type {
                Some(t) => format!("{}:{}", self.player(e.player), self.move_type(t)),
                None => self.player(e.player).to_string(),
            };
            let cycle = join(&order.cycle, " ", entry);
            if order.opening.is_empty() {
                let _ = writeln!(out, "turn-order {{ {cycle} }}");
            } else {
                let _ = writeln!(out, "turn-order {{ {} repeat {cycle} }}", join(&order.opening, " ", entry));
            }
            rules = true;
        }
        if v.play.pass_partial {
            let _ = writeln!(out, "pass-partial");
            rules = true;
        }
        match v.play.pass_turn {
            PassTurn::Never => {}
            PassTurn::Always => {
                let _ = writeln!(out, "pass-turn");
                rules = true;
            }
            PassTurn::IfNoMove => {
                let _ = writeln!(out, "pass-turn if-no-move");
                rules = true;
            }
        }
        if v.play.maximal_captures {
            let prefer = join(&v.play.maximal_captures_prefer, " ", |t| self.piece(*t));
            let then = if prefer.is_empty() { String::new() } else { format!(" then {prefer}") };
            let _ = writeln!(out, "maximal-captures{then}");
            rules = true;
        }
        if v.goals_count_hands {
            let _ = writeln!(out, "goals-count-hands");
            rules = true;
        }
        if v.shared_pieces {
            let _ = writeln!(out, "shared-pieces");
            rules = true;
        }
        match v.royal_check {
            RoyalCheck::Any => {}
            RoyalCheck::All => {
                let _ = writeln!(out, "royal-check all");
                rules = true;
            }
            RoyalCheck::Last => {
                let _ = writeln!(out, "royal-check last");
                rules = true;
            }
        }
        if v.must_capture {
            let _ = writeln!(out, "must-capture");
            rules = true;
        }
        if v.king_takes_partner {
            let _ = writeln!(out, "castling-notation king-takes-partner");
            rules = true;
        }
        for team in &v.teams {
            let names: Vec<&str> = team.iter().map(|p| v.players[p.0 as usize].name.as_str()).collect();
            let _ = writeln!(out, "team {}", names.join(" "));
            rules = true;
        }
        for f in &v.forbids {
            let _ = writeln!(out, "forbid: {}", self.goal_test(f, 0)?);
            rules = true;
        }
        if rules {
            out.push('\n');
        }
        Ok(out)
    }

    pub(super) fn player_decl(&self, p: &Player) -> Result<String, WriteError> {
        let map = &p.direction_map;
        let mut pairs = Vec::new();
        for (a, &b) in map.iter().enumerate() {
            let b = b.0 as usize;
            if b >= map.len() || map[b].0 as usize != a {
                return fail(
                    format!("player `{}`", p.name),
                    "its direction map is not a set of swapped pairs (`swap a <-> b`)",
                );
            }
            if a < b {
                pairs.push(format!("{} <-> {}", self.dir(DirId(a as u8)), self.dir(DirId(b as u8))));
            }
        }
        if pairs.is_empty() {
            return Ok(format!("player {}\n", p.name));
        }
        let lead = format!("player {} swap ", p.name);
        let mut out = lead.clone();
        let mut width = lead.len();
        for (i, pair) in pairs.iter().enumerate() {
            if i > 0 {
                if width + 2 + pair.len() > 100 {
                    out.push('\n');
                    out.push_str(&" ".repeat(lead.len()));
                    width = lead.len();
                } else {
                    out.push_str("  ");
                    width += 2;
                }
            }
            out.push_str(pair);
            width += pair.len();
        }
        out.push('\n');
        Ok(out)
    }

    pub(super) fn zone_decl(&self, z: &Zone) -> Result<String, WriteError> {
        let what = || format!("zone `{}`", z.name);
        let mut lines = Vec::new();
        if z.cells.len() != self.v.players.len() {
            return fail(what(), "it does not list cells for each player");
        }
        if z.cells.iter().all(|c| *c == z.cells[0]) {
            if !z.cells[0].is_empty() {
                lines.extend(wrap(&self.cells(&z.cells[0]), 90));
            }
        } else {
            for (i, cells) in z.cells.iter().enumerate() {
                if !cells.is_empty() {
                    let words = self.cells(cells);
                    let lead = format!("{}: ", self.player(PlayerId(i as u8)));
                    for (k, l) in wrap(&words, 90).into_iter().enumerate() {
                        lines.push(if k == 0 {
                            format!("{lead}{l}")
                        } else {
                            format!("{}{l}", " ".repeat(lead.len()))
                        });
                    }
                }
            }
        }
        match z.occupancy {
            Some(o) => {
                lines.extend(occupancy_rules(&Occupancy::default(), &o, true));
                for (phase, p) in &z.phase_occupancy {
                    let rules = occupancy_rules(&o, p, false);
                    if rules.is_empty() {
                        lines.push(format!("in-phase {} {{ }}", self.phase(*phase)));
                    } else {
                        lines.push(format!("in-phase {} {{", self.phase(*phase)));
                        lines.extend(rules.into_iter().map(|r| format!("  {r}")));
                        lines.push("}".into());
                    }
                }
            }
            None if !z.phase_occupancy.is_empty() => {
                return fail(what(), "it has occupancy rules for phases but none of its own");
            }
            None => {}
        }
        let short = lines.len() <= 1 && lines.iter().all(|l| l.len() < 60);
        Ok(if lines.is_empty() {
            format!("zone {} {{ }}\n", z.name)
        } else if short {
            format!("zone {} {{ {} }}\n", z.name, lines[0])
        } else {
            format!("zone {} {{\n{}}}\n", z.name, join(lines, "", |l| format!("  {l}\n")))
        })
    }

    pub(super) fn piece_decl(&self, p: &PieceType) -> Result<String, WriteError> {
        let what = || format!("piece `{}`", p.name);
        let mut lines: Vec<String> = Vec::new();
        if p.royal {
            lines.push("royal".into());
        }
        if let Some(v) = p.value {
            if !(0..=1_000_000).contains(&v) {
                return fail(what(), format!("its value {v} is outside 0 ..= 1000000"));
            }
            lines.push(format!("value {v}"));
        }
        if p.san_without_letter {
            lines.push("san-without-letter".into());
        }
        if p.resets_move_clock {
            lines.push("resets-move-clock".into());
        }
        if p.no_drop_checkmate {
            lines.push("no-drop-checkmate".into());
        }
        if p.no_check != 0 {
            let kinds = [(NO_CHECK_MOVES, " moves"), (NO_CHECK_DROPS, " drops"), (NO_CHECK_PROMOTIONS, " promotions")];
            let named: String = kinds.iter().filter(|(bit, _)| p.no_check & bit != 0).map(|(_, word)| *word).collect();
            lines.push(format!("no-check{named}"));
        }
        if let Some(k) = p.keep_apart {
            lines.push(format!("keep-apart {k}"));
        }
        if let Some(dirs) = &p.explodes {
            if dirs.is_empty() {
                return fail(what(), "it explodes in no direction");
            }
            lines.push(format!("explodes {}", self.dirs(dirs, &self.v.board.direction_sets)));
        }
        if p.blast_proof {
            lines.push("blast-proof".into());
        }
        if p.held_by_check {
            lines.push("held-by-check".into());
        }
        if p.points > 0 {
            lines.push(format!("points {}", points_text(p.points)));
        }
        for a in &p.attributes {
            lines.push(format!("attribute {} set", self.attribute(*a)));
        }
        match p.to_hand {
            Some(t) if self.v.pieces[t.0 as usize].name == p.name => lines.push("captured-to-hand".into()),
            Some(t) => lines.push(format!("captured-to-hand as {}", self.piece(t))),
            None => {}
        }
        if p.drop_supply != default_drop_supply() {
            lines.push(match p.drop_supply {
                DropSupply::Hand => "drop-supply hand".into(),
                DropSupply::Unlimited => "drop-supply unlimited".into(),
            });
        }
        for m in &p.moves {
            lines.push(self.move_rule(m, &what())?);
        }
        for (word, programs) in [("move", &p.programs), ("drop", &p.drops)] {
            for prog in programs {
                let head = match prog.move_type {
                    Some(t) => format!("{word} {}", self.move_type(t)),
                    None => word.to_string(),
                };
                lines.extend(self.block(&head, &prog.body, &what())?);
            }
        }
        for pr in p.promotions() {
            if pr.choices.is_empty() {
                return fail(what(), "it promotes to no piece type");
            }
            let from = pr.from_zone.map(|z| format!(" or from {}", self.zone(z))).unwrap_or_default();
            let mut line =
                format!("promote in {}{from} to {}", self.zone(pr.zone), join(&pr.choices, " ", |c| self.piece(*c)));
            if !pr.mandatory {
                line.push_str(" optional");
                if let Some(z) = pr.forced_zone {
                    line.push_str(&format!(" except in {}", self.zone(z)));
                }
            }
            if pr.captured_only {
                line.push_str(" captured-only");
            }
            if pr.setup_only {
                line.push_str(" setup-only");
            }
            lines.push(line);
        }
        Ok(format!(
            "piece {} {}{}{} {{\n{}}}\n",
            p.name,
            if p.mark == Some('+') { "+" } else { "" },
            p.letter.to_ascii_uppercase(),
            if p.mark == Some('~') { "~" } else { "" },
            join(lines, "", |l| format!("  {}\n", l.replace('\n', "\n  ")))
        ))
    }

    pub(super) fn geometry(&self, g: &Geometry, what: &str) -> Result<String, WriteError> {
        let sets = &self.v.board.direction_sets;
        let unique = |dirs: &[DirId]| {
            let mut seen = HashSet::new();
            !dirs.is_empty() && dirs.iter().all(|d| seen.insert(*d))
        };
        Ok(match g {
            Geometry::Slide { dirs, max } | Geometry::Hop { dirs, max } => {
                if !unique(dirs) {
                    return fail(what, "a move power lists no direction or one direction twice");
                }
                let hop = matches!(g, Geometry::Hop { .. });
                let d = self.dirs(dirs, sets);
                match (hop, max) {
                    (false, Some(1)) => format!("step {d}"),
                    (false, None) => format!("slide {d}"),
                    (false, Some(m)) => format!("slide {d} max {m}"),
                    (true, None) => format!("hop {d}"),
                    (true, Some(m)) => format!("hop {d} max {m}"),
                }
            }
            Geometry::Leap { paths } => {
                if paths.is_empty() || paths.iter().any(|p| p.is_empty()) {
                    return fail(what, "a leap has no path or an empty one");
                }
                format!("leap {}", self.leap_paths(paths))
            }
        })
    }

    /// Leap paths, as `A B` offsets where a run of them is the lowering's paths for an offset.
    pub(super) fn leap_paths(&self, paths: &[Vec<DirId>]) -> String {
        let compass: Option<Vec<DirId>> = COMPASS
            .iter()
            .map(|(n, _, _)| self.v.board.directions.iter().position(|d| d == n).map(|i| DirId(i as u8)))
            .collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < paths.len() {
            let mut best: Option<(usize, String)> = None;
            if let Some(compass) = &compass {
                for a in 1..=16 {
                    for b in 0..=a {
                        let o = offset_paths(compass, a, b);
                        if paths[i..].starts_with(&o) && best.as_ref().is_none_or(|x| o.len() > x.0) {
                            best = Some((o.len(), format!("{a} {b}")));
                        }
                    }
                }
            }
            match best {
                Some((len, s)) => {
                    out.push(s);
                    i += len;
                }
                None => {
                    out.push(format!("({})", join(&paths[i], " ", |d| self.dir(*d).to_string())));
                    i += 1;
                }
            }
        }
        // Long lists go on several lines, under the first path.
        wrap(&out, 80).join("\n     ")
    }

    pub(super) fn move_rule(&self, m: &MoveRule, what: &str) -> Result<String, WriteError> {
        let mut s = self.geometry(&m.geometry, what)?;
        match m.mode {
            MoveMode::MoveOrCapture => {}
            MoveMode::MoveOnly => s.push_str(" move-only"),
            MoveMode::CaptureOnly => s.push_str(" capture-only"),
        }
        for c in &m.conditions {
            match c {
                Condition::FromZone(z) => {
                    let _ = write!(s, " from {}", self.zone(*z));
                }
                Condition::ToZone(z) => {
                    let _ = write!(s, " to {}", self.zone(*z));
                }
                c => {
                    let _ = write!(s, " if {}", self.condition(c, what)?);
                }
            }
        }
        if m.marks_en_passant {
            s.push_str(" marks-en-passant");
        }
        if m.captures_en_passant {
            s.push_str(" en-passant");
        }
        if m.stop_between {
            s.push_str(" stop-between");
        }
        Ok(s)
    }

    pub(super) fn condition(&self, c: &Condition, what: &str) -> Result<String, WriteError> {
        let op = |o: &Compare| match o {
            Compare::Less => "<",
            Compare::LessEq => "<=",
            Compare::Eq => "==",
            Compare::GreaterEq => ">=",
            Compare::Greater => ">",
        };
        Ok(match c {
            Condition::PieceCount(o, n) => format!("pieces {} {n}", op(o)),
            Condition::TurnNumber(o, n) => format!("turn {} {n}", op(o)),
            Condition::TypeCount { enemy, types, compare, n } => format!(
                "pieces({}{}) {} {n}",
                if *enemy { "enemy " } else { "" },
                types.iter().map(|t| self.piece(*t)).collect::<Vec<_>>().join(" "),
                op(compare)
            ),
            Condition::InPhase(p) => format!("phase {}", self.phase(*p)),
            Condition::InCheck => "in-check".to_string(),
            Condition::OnRight => "on-right".to_string(),
            Condition::Not(c) => format!("not {}", self.condition(c, what)?),
            Condition::FromZone(_) | Condition::ToZone(_) => {
                return fail(what, "a zone condition (`from ZONE`, `to ZONE`) can only be a move power's modifier");
            }
        })
    }
}

impl Writer<'_> {
    /// The `display` block and an empty line, or nothing for the plain display.
    fn display_block(&self, d: &Display) -> String {
        if d.is_plain() {
            return String::new();
        }
        let mut out = String::from("display {\n");
        if d.points {
            out.push_str("  points\n");
        }
        for (a, b) in &d.lines {
            let _ = writeln!(out, "  line {} {}", self.cell(*a), self.cell(*b));
        }
        for r in &d.rivers {
            let _ = write!(out, "  river {} {}", self.cell(r.below), self.cell(r.above));
            if !r.label.is_empty() {
                let _ = write!(out, " \"{}\"", r.label);
            }
            out.push('\n');
        }
        for p in &d.upside_down {
            let _ = writeln!(out, "  upside-down {}", self.player(*p));
        }
        out.push_str("}\n\n");
        out
    }
}

/// The `pgn-variant` line and an empty line, or nothing for a variant that declares none.
fn pgn_variant_line(p: &PgnVariant) -> String {
    match p {
        PgnVariant::Title => String::new(),
        PgnVariant::Standard => "pgn-variant standard\n\n".to_string(),
        PgnVariant::Named(name) => format!("pgn-variant \"{name}\"\n\n"),
    }
}
