//! Writing move programs, squares, turns, the setup and the end rules as `.var` text.

use std::fmt::Write as _;

use varia_interpreter::ir::*;

use super::*;

impl Writer<'_> {
    // ------------------------------------------------------------ programs

    pub(super) fn place(&self, p: &Place) -> &str {
        match p {
            Place::Dir(d) => self.dir(*d),
            Place::Cell(c) => self.cell(*c),
        }
    }

    /// `word` or `word(PLACE)`.
    pub(super) fn at(&self, word: &str, p: &Option<Place>) -> String {
        match p {
            Some(p) => format!("{word}({})", self.place(p)),
            None => word.to_string(),
        }
    }

    /// `HEAD { ... }` on one line when short and flat, else one line per group of instructions.
    pub(super) fn block(&self, head: &str, body: &[Instr], what: &str) -> Result<Vec<String>, WriteError> {
        self.block_in(head, body, what, false)
    }

    /// [`Writer::block`], on several lines if `tall` (an `else` after a tall `if`).
    pub(super) fn block_in(
        &self,
        head: &str,
        body: &[Instr],
        what: &str,
        tall: bool,
    ) -> Result<Vec<String>, WriteError> {
        let lines = self.instrs(body, what)?;
        let flat = lines.join(" ");
        if !tall && lines.iter().all(|l| !l.contains('{')) && head.len() + flat.len() < 70 {
            return Ok(vec![if flat.is_empty() { format!("{head} {{ }}") } else { format!("{head} {{ {flat} }}") }]);
        }
        let mut out = vec![format!("{head} {{")];
        out.extend(lines.into_iter().map(|l| format!("  {l}")));
        out.push("}".into());
        Ok(out)
    }

    /// Instructions as lines: a new line at each move after something else, and around blocks.
    pub(super) fn instrs(&self, body: &[Instr], what: &str) -> Result<Vec<String>, WriteError> {
        let mut lines: Vec<String> = Vec::new();
        let mut line: Vec<String> = Vec::new();
        let mut moving = false;
        for i in body {
            let is_move = matches!(i, Instr::Step(_) | Instr::Jump(_) | Instr::Go(_) | Instr::Back);
            match i {
                Instr::If(t, yes, no) => {
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line).join(" "));
                    }
                    let head = format!("if {}", self.test(t, 0, what)?);
                    let mut block = self.block(&head, yes, what)?;
                    if !no.is_empty() {
                        // `else if` for a chain, as a person writes it.
                        let other = match no.as_slice() {
                            [Instr::If(..)] => {
                                let mut chain = self.instrs(no, what)?;
                                chain[0] = format!("else {}", chain[0]);
                                chain
                            }
                            _ => self.block_in("else", no, what, block.len() > 1)?,
                        };
                        let last = block.pop().unwrap_or_default();
                        let mut other = other.into_iter();
                        block.push(format!("{last} {}", other.next().unwrap_or_default()));
                        block.extend(other);
                    }
                    lines.extend(block);
                    moving = false;
                    continue;
                }
                Instr::While(t, body) => {
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line).join(" "));
                    }
                    let head = format!("while {}", self.test(t, 0, what)?);
                    lines.extend(self.block(&head, body, what)?);
                    moving = false;
                    continue;
                }
                _ => {}
            }
            let word = self.instr(i, what)?;
            let width: usize = line.iter().map(|w| w.len() + 1).sum();
            if (is_move && !moving || width + word.len() > 80) && !line.is_empty() {
                lines.push(std::mem::take(&mut line).join(" "));
            }
            moving = is_move;
            line.push(word);
        }
        if !line.is_empty() {
            lines.push(line.join(" "));
        }
        Ok(lines)
    }

    pub(super) fn instr(&self, i: &Instr, what: &str) -> Result<String, WriteError> {
        let opt = |w: &str, p: &Option<Place>| self.at(w, p);
        Ok(match i {
            Instr::Step(d) => self.dir(*d).to_string(),
            Instr::Jump(c) => self.cell(*c).to_string(),
            Instr::Go(l) => format!(
                "go {}",
                match l {
                    Landmark::From => "from",
                    Landmark::To => "to",
                    Landmark::Mark => "mark",
                    Landmark::LastFrom => "last-from",
                    Landmark::LastTo => "last-to",
                }
            ),
            Instr::Mark(p) => opt("mark", p),
            Instr::Back => "back".into(),
            Instr::Verify(t) => format!("verify {}", self.test(t, 0, what)?),
            Instr::If(..) | Instr::While(..) => unreachable!("blocks are written by `instrs`"),
            Instr::To => "to".into(),
            Instr::From => "from".into(),
            Instr::Cascade => "cascade".into(),
            Instr::Add { kind, promote, then } => {
                let word = match kind {
                    AddKind::Move => "add",
                    AddKind::Copy => "add-copy",
                    AddKind::Partial => "add-partial",
                    AddKind::CopyPartial => "add-copy-partial",
                };
                let mut s = word.to_string();
                if !promote.is_empty() {
                    let _ = write!(s, "({})", join(promote, " ", |t| self.piece(*t)));
                }
                if let Some(t) = then {
                    if matches!(kind, AddKind::Move | AddKind::Copy) {
                        return fail(what, format!("`{word}` with a move type to go on with (`then`) is not partial"));
                    }
                    let _ = write!(s, " then {}", self.move_type(*t));
                }
                s
            }
            Instr::Capture(p) => opt("capture", p),
            Instr::ChangeType(t, p) => match p {
                Some(p) => format!("change-type({}, {})", self.piece(*t), self.place(p)),
                None => format!("change-type({})", self.piece(*t)),
            },
            Instr::ChangeOwner(p) => opt("change-owner", p),
            Instr::Flip(p) => opt("flip", p),
            Instr::Create { owner, piece, at } => {
                let mut keys = Vec::new();
                if let Some(o) = owner {
                    keys.push(format!("owner: {}", self.player(*o)));
                }
                if let Some(t) = piece {
                    keys.push(format!("piece: {}", self.piece(*t)));
                }
                if let Some(p) = at {
                    keys.push(format!("at: {}", self.place(p)));
                }
                if keys.is_empty() {
                    "create".into()
                } else {
                    format!("create({})", keys.join(", "))
                }
            }
            Instr::SetFlag(f, t) => format!("set-flag {} {}", self.flag(*f), self.test(t, 0, what)?),
            Instr::SetCellFlag(f, t, p) => {
                format!("{} {} {}", opt("set-cell-flag", p), self.flag(*f), self.test(t, 0, what)?)
            }
            Instr::SetAttribute(a, t) => format!("set-attribute {} {}", self.attribute(*a), self.test(t, 0, what)?),
        })
    }

    /// A test; at `level` 0 (a whole test) nothing needs brackets, at 2 (an operand of `and`,
    /// `or` or `not`) an `and` or `or` does.
    pub(super) fn test(&self, t: &Test, level: u8, what: &str) -> Result<String, WriteError> {
        let opt = |w: &str, p: &Option<Place>| self.at(w, p);
        let with = |w: &str, first: &str, p: &Option<Place>| match p {
            Some(p) => format!("{w}({first}, {})", self.place(p)),
            None => format!("{w}({first})"),
        };
        Ok(match t {
            Test::True => "true".into(),
            Test::False => "false".into(),
            Test::Empty(p) => opt("empty", p),
            Test::Friend(p) => opt("friend", p),
            Test::Enemy(p) => opt("enemy", p),
            Test::Piece(ty, p) => with("piece", &self.piece(*ty), p),
            Test::InZone(z, p) => with("in", self.zone(*z), p),
            Test::OnBoard(p) => format!("on-board({})", self.place(p)),
            Test::At(c) => format!("at({})", self.cell(*c)),
            Test::LastFrom(p) => opt("last-from", p),
            Test::LastTo(p) => opt("last-to", p),
            Test::Marked(p) => opt("marked", p),
            Test::Attacked(None, p) => opt("attacked", p),
            Test::Attacked(Some(mt), p) => with("attacked-by", self.move_type(*mt), p),
            Test::Defended(None, p) => opt("defended", p),
            Test::Defended(Some(mt), p) => with("defended-by", self.move_type(*mt), p),
            Test::AdjacentToEnemy(p) => opt("adjacent-to-enemy", p),
            Test::Flag(f) => format!("flag({})", self.flag(*f)),
            Test::CellFlag(f, p) => with("cell-flag", self.flag(*f), p),
            Test::Attribute(a, p) => with("attribute", self.attribute(*a), p),
            Test::Holds(c) => format!("holds({})", self.condition(c, what)?),
            Test::Not(t) => format!("not {}", self.test(t, 2, what)?),
            Test::And(ts) | Test::Or(ts) => {
                let and = matches!(t, Test::And(_));
                if ts.len() < 2 {
                    return fail(what, "an `and` or `or` of fewer than two tests");
                }
                // An `and` inside an `or` needs no brackets, but reads better with them.
                let parts: Vec<String> = ts.iter().map(|x| self.test(x, 2, what)).collect::<Result<_, _>>()?;
                let s = parts.join(if and { " and " } else { " or " });
                if level > 0 {
                    format!("({s})")
                } else {
                    s
                }
            }
        })
    }

    fn occupier(&self, o: &Occupier) -> String {
        match o {
            Occupier::Own(t) => format!("own {}", self.piece(*t)),
            Occupier::Opponent(t) => format!("opponent {}", self.piece(*t)),
            Occupier::AnyOwner(t) => format!("any {}", self.piece(*t)),
        }
    }

    pub(super) fn goal_test(&self, g: &GoalTest, level: u8) -> Result<String, WriteError> {
        let typed = |w: &str, n: u32, t: &Option<PieceTypeId>| match t {
            Some(t) => format!("{w} {n} {}", self.piece(*t)),
            None => format!("{w} {n}"),
        };
        Ok(match g {
            GoalTest::PiecesRemaining(n, t) => typed("pieces-remaining", *n, t),
            GoalTest::TotalPieces(n, t) => typed("total-pieces", *n, t),
            GoalTest::Captured(t) => format!("captured {}", self.piece(*t)),
            GoalTest::Stalemated => "stalemated".into(),
            GoalTest::Opponent(g) => format!("opponent({})", self.goal_test(g, 0)?),
            GoalTest::CountRunning => "count-running".into(),
            GoalTest::ToMove => "to-move".into(),
            GoalTest::ChecksGiven(n) => format!("checks-given {n}"),
            GoalTest::Repetition(n) => format!("repetition {n}"),
            GoalTest::Config(occupiers, groups)
            | GoalTest::SafeConfig(occupiers, groups)
            | GoalTest::CanReach(occupiers, groups) => {
                if occupiers.is_empty() || groups.is_empty() {
                    return fail("a goal", "a configuration without occupiers or cells");
                }
                let occ = join(occupiers, ", ", |o| self.occupier(o));
                for g in groups {
                    if let ConfigGroup::Zone(z) = g {
                        if self.v.board.cells.iter().any(|c| c.name == self.zone(*z)) {
                            return fail("a goal", format!("zone `{}` has the name of a cell", self.zone(*z)));
                        }
                    }
                }
                let grp = join(groups, " ", |g| match g {
                    ConfigGroup::Cell(c) => self.cell(*c).to_string(),
                    ConfigGroup::Zone(z) => self.zone(*z).to_string(),
                });
                let word = match g {
                    GoalTest::SafeConfig(..) => "safe-config",
                    GoalTest::CanReach(..) => "can-reach",
                    _ => "config",
                };
                format!("{word}({occ} at {grp})")
            }
            GoalTest::Passed(n) => format!("passed {n}"),
            GoalTest::Shuttled(n, types) => {
                let mut s = format!("shuttled {n}");
                for t in types {
                    s.push(' ');
                    s.push_str(&self.piece(*t));
                }
                s
            }
            GoalTest::Facing(a, b, dirs) => {
                if dirs.is_empty() {
                    return fail("a goal", "a facing test along no direction");
                }
                let dirs = self.dirs(dirs, &self.v.board.direction_sets);
                format!("facing({}, {}, {dirs})", self.occupier(a), self.occupier(b))
            }
            GoalTest::Before(_, g) => format!("before({})", self.goal_test(g, 0)?),
            GoalTest::InCheck => "in-check".into(),
            GoalTest::CheckedBy(types) | GoalTest::CheckedOnlyBy(types) => {
                if types.is_empty() {
                    return fail("a goal", "a `checked-by` test of no piece type");
                }
                let only = if matches!(g, GoalTest::CheckedOnlyBy(_)) { "only " } else { "" };
                format!("checked-by({only}{})", join(types, " ", |t| self.piece(*t).to_string()))
            }
            GoalTest::Streak(_, during, some) => {
                format!("streak({}, {})", self.goal_test(during, 0)?, self.goal_test(some, 0)?)
            }
            GoalTest::Not(g) => format!("not {}", self.goal_test(g, 2)?),
            GoalTest::And(gs) | GoalTest::Or(gs) => {
                let and = matches!(g, GoalTest::And(_));
                if gs.len() < 2 {
                    return fail("a goal", "an `and` or `or` of fewer than two tests");
                }
                let parts: Vec<String> = gs.iter().map(|x| self.goal_test(x, 2)).collect::<Result<_, _>>()?;
                let s = parts.join(if and { " and " } else { " or " });
                if level > 0 {
                    format!("({s})")
                } else {
                    s
                }
            }
        })
    }

    // ------------------------------------------------------------ squares, turn, setup, end

    pub(super) fn squares_block(&self, s: &SquareRules) -> Result<String, WriteError> {
        let what = "the squares rules";
        let mut lines = vec![if s.owned { "owned".to_string() } else { "neutral".to_string() }];
        match s.reserve {
            Some(0) => {}
            Some(n) => lines.push(format!("reserve {n}")),
            None => lines.push("reserve any".into()),
        }
        for g in &s.moves {
            if matches!(g, Geometry::Hop { .. }) {
                return fail(what, "a square cannot hop");
            }
            lines.push(format!("move {}", self.geometry(g, what)?));
        }
        if s.carries.is_empty() && !s.carry_royal {
            return fail(what, "`except-royal` without a carry power");
        }
        for g in &s.carries {
            if matches!(g, Geometry::Hop { .. }) {
                return fail(what, "a square cannot hop");
            }
            let extra = if s.carry_royal { "" } else { " except-royal" };
            lines.push(format!("carry {}{extra}", self.geometry(g, what)?));
        }
        match s.place_zone {
            Some(z) => lines.push(format!("place in {}", self.zone(z))),
            None => lines.push("place anywhere".into()),
        }
        match s.untouchable {
            Untouchable::Nothing => {}
            Untouchable::Moved => lines.push("untouchable moved".into()),
            Untouchable::Touched => lines.push("untouchable touched".into()),
        }
        match s.vacate.as_deref() {
            None => {}
            Some([]) => lines.push("vacate".into()),
            Some([c]) => lines.push(format!("vacate if {}", self.condition(c, what)?)),
            Some(_) => return fail(what, "`vacate` takes one condition"),
        }
        Ok(format!("squares {{\n{}}}\n", join(lines, "", |l| format!("  {l}\n"))))
    }

    pub(super) fn walls_block(&self, w: &WallRules) -> String {
        let mut lines = Vec::new();
        if let Some(place) = w.place {
            let rule = match place {
                WallPlace::Arrow => "arrow",
                WallPlace::Past => "past",
                WallPlace::Anywhere => "anywhere",
                WallPlace::Duck => "duck",
            };
            match w.zone {
                Some(z) => lines.push(format!("place {rule} in {}", self.zone(z))),
                None => lines.push(format!("place {rule}")),
            }
        }
        if !w.petrify.is_empty() {
            lines.push(format!("petrify {}", join(&w.petrify, " ", |t| self.piece(*t))));
        }
        format!("walls {{\n{}}}\n", join(lines, "", |l| format!("  {l}\n")))
    }

    pub(super) fn turn_block(&self, t: &Turn) -> Result<String, WriteError> {
        let what = "the turn";
        if t.actions.is_empty() {
            return fail(what, "a turn of no action");
        }
        let mut slots = Vec::new();
        for a in &t.actions {
            if a.kinds.is_empty() {
                return fail(what, "an action of no kind");
            }
            let mut s = join(&a.kinds, " | ", |k| {
                match k {
                    ActionKind::MovePiece => "piece",
                    ActionKind::MoveSquare => "move-square",
                    ActionKind::PlaceSquare => "place-square",
                }
                .to_string()
            });
            if a.optional {
                s.push_str(" optional");
            }
            match a.skip_if_none.as_deref() {
                None => {}
                Some([]) => s.push_str(" skip-if-none"),
                Some([c]) => {
                    let _ = write!(s, " skip-if-none if {}", self.condition(c, what)?);
                }
                Some(_) => return fail(what, "`skip-if-none` takes one condition"),
            }
            slots.push(s);
        }
        Ok(if slots.len() == 1 {
            format!("turn {{ {} }}\n", slots[0])
        } else {
            format!("turn {{\n  {}\n}}\n", slots.join("\n  then "))
        })
    }

    pub(super) fn setup_block(&self, s: &Setup) -> Result<String, WriteError> {
        Ok(format!("setup {{\n{}}}\n", join(self.setup_lines(s)?, "", |l| format!("  {l}\n"))))
    }

    /// A `choice` block: each option's grants written as a setup's lines.
    pub(super) fn choice_block(&self, c: &Choice) -> Result<String, WriteError> {
        let mut out = format!("choice {} {{\n", c.name);
        for o in &c.options {
            let mut s = Setup {
                placements: Vec::new(),
                castling_rights: Vec::new(),
                square_owners: Vec::new(),
                hands: Vec::new(),
                shuffles: Vec::new(),
            };
            for (p, g) in o.grants.iter().enumerate() {
                let p = PlayerId(p as u8);
                s.placements.extend(g.placements.iter().map(|(c, t)| (*c, vec![(p, *t)])));
                s.hands.extend(g.hands.iter().map(|(t, n)| (p, *t, *n)));
                s.castling_rights.extend(&g.rights);
            }
            s.placements.sort_by_key(|(c, _)| *c);
            let title = if o.title == o.name { String::new() } else { format!(" \"{}\"", o.title) };
            out.push_str(&format!("  option {}{title} {{\n", o.name));
            for l in self.setup_lines(&s)? {
                out.push_str(&format!("    {l}\n"));
            }
            out.push_str("  }\n");
        }
        out.push_str("}\n");
        Ok(out)
    }

    /// The lines of a setup block (placements, hands, rights).
    fn setup_lines(&self, s: &Setup) -> Result<Vec<String>, WriteError> {
        let mut lines = Vec::new();
        // Stacks are built in the order of the text: level by level, bottom first.
        let depth = s.placements.iter().map(|(_, st)| st.len()).max().unwrap_or(0);
        for level in 0..depth {
            for player in 0..self.v.players.len() {
                let mut groups = Vec::new();
                for t in 0..self.v.pieces.len() {
                    let cells: Vec<CellId> = s
                        .placements
                        .iter()
                        .filter(|(_, st)| st.get(level) == Some(&(PlayerId(player as u8), PieceTypeId(t as u8))))
                        .map(|(c, _)| *c)
                        .collect();
                    if !cells.is_empty() {
                        groups.push(format!("{} {}", self.piece(PieceTypeId(t as u8)), self.cells(&cells).join(" ")));
                    }
                }
                if !groups.is_empty() {
                    lines.push(format!("{}: {}", self.player(PlayerId(player as u8)), groups.join(", ")));
                }
            }
        }
        let mut hands: Vec<(PlayerId, Vec<String>)> = Vec::new();
        for (p, t, n) in &s.hands {
            if !(1..=10_000).contains(n) {
                return fail("the setup", format!("a hand of {n} pieces (the language takes 1 to 10000)"));
            }
            let item = format!("{} {n}", self.piece(*t));
            match hands.last_mut() {
                Some((q, items)) if q == p => items.push(item),
                _ => hands.push((*p, vec![item])),
            }
        }
        for (p, items) in hands {
            lines.push(format!("hand {}: {}", self.player(p), items.join(", ")));
        }
        for sh in &s.shuffles {
            let targets: Vec<String> = sh
                .targets
                .iter()
                .map(|(p, cells)| format!("{}: {}", self.player(*p), self.cells(cells).join(" ")))
                .collect();
            let first = sh.targets.first().map(|(_, c)| c.as_slice()).unwrap_or_default();
            let groups: Vec<String> = sh
                .groups
                .iter()
                .map(|g| {
                    let pieces = join(&g.pieces, " ", |t| self.piece(*t));
                    match &g.allowed {
                        Some(places) => {
                            let cells: Vec<CellId> =
                                places.iter().filter_map(|i| first.get(*i as usize).copied()).collect();
                            format!("{pieces} on {}", self.cells(&cells).join(" "))
                        }
                        None => pieces,
                    }
                })
                .collect();
            lines.push(format!("shuffle {} {{ {} }}", targets.join("  "), groups.join(", ")));
        }
        if !s.castling_rights.is_empty() {
            lines.push(format!("castling {}", join(&s.castling_rights, " ", |c| c.to_string())));
        }
        Ok(lines)
    }

    pub(super) fn end_block(&self, e: &EndRules) -> Result<String, WriteError> {
        let outcome = |o: &Outcome| match o {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Points => "points",
        };
        let stalemate_for = match e.stalemate_for {
            None => String::new(),
            Some(ResultFor::FewerPieces) => "fewer-pieces ".into(),
            Some(ResultFor::Player(p)) => format!("{} ", self.player(p)),
        };
        let mut lines = vec![
            format!("checkmate {}", outcome(&e.checkmate)),
            format!("stalemate {stalemate_for}{}", outcome(&e.stalemate)),
        ];
        if let Some(o) = &e.bare_king {
            lines.push(format!("bare-king {}", outcome(o)));
        }
        if e.move_rule.is_some_and(|n| n > 100_000) || e.repetition.is_some_and(|n| n > 1000) {
            return fail("the end rules", "a move rule above 100000 or a repetition count above 1000");
        }
        if let Some(n) = e.move_rule {
            let mut line = format!("move-rule {n}");
            if let Some((p, o)) = &e.move_rule_player {
                line.push_str(&format!(" {} {}", self.player(*p), outcome(o)));
            }
            lines.push(line);
        }
        if let Some(n) = e.repetition {
            let mut line = format!("repetition {n}");
            if let Some((p, o)) = &e.repetition_player {
                line.push_str(&format!(" {} {}", self.player(*p), outcome(o)));
            }
            if let Some(o) = &e.perpetual_check {
                line.push_str(&format!(" perpetual-check {}", outcome(o)));
            }
            lines.push(line);
        }
        for (p, n) in e.points_bonus.iter().enumerate() {
            if *n > 0 {
                lines.push(format!("points-bonus {} {}", self.player(PlayerId(p as u8)), points_text(*n)));
            }
        }
        for c in &e.counting {
            if c.moves > 10_000 {
                return fail("a counting rule", "a count above 10000 moves");
            }
            let from = if c.from_pieces { " from pieces" } else { "" };
            let mover = if c.for_mover { " for-mover" } else { "" };
            lines.push(format!("counting {}{from}{mover}: {}", c.moves, self.goal_test(&c.test, 0)?));
        }
        for g in &e.goals {
            if g.players.is_empty() {
                return fail("a goal", "it applies to no player");
            }
            lines.push(format!(
                "goal {} {}: {}",
                join(&g.players, " ", |p| self.player(*p).to_string()),
                outcome(&g.outcome),
                self.goal_test(&g.test, 0)?
            ));
        }
        Ok(format!("end {{\n{}}}\n", join(lines, "", |l| format!("  {l}\n"))))
    }
}

/// A number of points kept in hundredths, as a `.var` file writes it (`13`, `1.5`).
pub(super) fn points_text(n: u32) -> String {
    match n % 100 {
        0 => format!("{}", n / 100),
        f if f % 10 == 0 => format!("{}.{}", n / 100, f / 10),
        f => format!("{}.{f:02}", n / 100),
    }
}

/// The rules that turn occupancy `from` into `to` (all of them when `full`, at least the capacity).
pub(super) fn occupancy_rules(from: &Occupancy, to: &Occupancy, full: bool) -> Vec<String> {
    let mut out = Vec::new();
    if full || from.capacity != to.capacity {
        out.push(match to.capacity {
            Some(n) => format!("capacity {n}"),
            None => "capacity any".into(),
        });
    }
    let flag = |a: bool, b: bool, yes: &str, no: &str, out: &mut Vec<String>| {
        if a != b {
            out.push(if b { yes } else { no }.to_string());
        }
    };
    flag(from.lone_inert, to.lone_inert, "lone-inert", "lone-active", &mut out);
    flag(from.crowd_safe, to.crowd_safe, "crowd-safe", "crowd-open", &mut out);
    flag(from.capture == CaptureRule::All, to.capture == CaptureRule::All, "capture-all", "capture-one", &mut out);
    let joins_off =
        (from.join_mixed_crowd && !to.join_mixed_crowd) || (from.join_enemy_by_move && !to.join_enemy_by_move);
    let (mixed, by_move) = if joins_off {
        out.push("join-none".into());
        (false, false)
    } else {
        (from.join_mixed_crowd, from.join_enemy_by_move)
    };
    if to.join_mixed_crowd && !mixed {
        out.push("join-mixed-crowd".into());
    }
    if to.join_enemy_by_move && !by_move {
        out.push("join-enemy-by-move".into());
    }
    out
}

/// The paths the lowering gives `leap A B` (`a >= b`), over the compass in [`COMPASS`] order.
pub(super) fn offset_paths(compass: &[DirId], a: i32, b: i32) -> Vec<Vec<DirId>> {
    let dir = |dx: i32, dy: i32| COMPASS.iter().position(|c| c.1 == dx && c.2 == dy).map(|i| compass[i]);
    let mut out: Vec<(i32, i32, Vec<DirId>)> = Vec::new();
    for (ux, uy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
        for turn in [1, -1] {
            let (vx, vy) = (-uy * turn, ux * turn);
            let (dx, dy) = if b == a { (ux + vx, uy + vy) } else { (ux, uy) };
            let path: Vec<DirId> = if b == a {
                (0..a).filter_map(|_| dir(dx, dy)).collect()
            } else {
                let (first, second) = (dir(ux, uy), dir(vx, vy));
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

/// Where a piece type's drops come from when its declaration does not say (asked of the
/// lowering, so the writer follows the language).
pub(super) fn default_drop_supply() -> DropSupply {
    static DEFAULT: OnceLock<DropSupply> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let text =
            "variant \"x\" board { grid 1 x 2 } player a player b piece K K { step n } setup { a: K a1 b: K a2 }";
        crate::load(text).ok().and_then(|v| v.pieces.first().map(|p| p.drop_supply)).unwrap_or(DropSupply::Hand)
    })
}
