//! Lowering of version 5 constructs: move and drop programs, their tests, names of move types, attributes and flags, hands, turn orders and priorities.

use std::collections::HashSet;

use indexmap::IndexSet;
use varia_interpreter::ir::*;

use super::{int_value, span, Lowerer, Node};
use crate::diagnostic::Diagnostic;
use crate::syntax::Rule;

/// A kind of name that is registered on first appearance.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Space {
    MoveType,
    Attribute,
    Flag,
}

impl Space {
    fn what(self) -> &'static str {
        match self {
            Space::MoveType => "move type",
            Space::Attribute => "attribute",
            Space::Flag => "flag",
        }
    }

    /// The most names of this kind a variant may have (the engine's limit).
    fn most(self) -> usize {
        match self {
            Space::MoveType => varia_interpreter::limits::MOVE_TYPES,
            Space::Attribute => varia_interpreter::limits::ATTRIBUTES,
            Space::Flag => varia_interpreter::limits::FLAGS,
        }
    }

    /// The space of a name node's rule, and whether the node defines the name (rather than
    /// only referring to it).
    fn of(rule: Rule) -> Option<(Space, bool)> {
        Some(match rule {
            Rule::move_type_def => (Space::MoveType, true),
            Rule::move_type_ref => (Space::MoveType, false),
            Rule::attr_def => (Space::Attribute, true),
            Rule::attr_ref => (Space::Attribute, false),
            Rule::flag_def => (Space::Flag, true),
            Rule::flag_ref => (Space::Flag, false),
            _ => return None,
        })
    }

    /// How a name of this kind comes to exist, for "unknown ..." labels.
    fn defined_by(self) -> &'static str {
        match self {
            Space::MoveType => "a `move-types` name or the TYPE of a `move TYPE { ... }` or `drop TYPE { ... }`",
            Space::Attribute => "an `attributes` name, a piece's `attribute NAME` or a `set-attribute NAME`",
            Space::Flag => "a `flags` name or one set by `set-flag` or `set-cell-flag`",
        }
    }
}

/// Every name node (of the three spaces) below `node`, in file order.
fn name_nodes<'a>(node: Node<'a>, out: &mut Vec<Node<'a>>) {
    if Space::of(node.as_rule()).is_some() {
        out.push(node);
        return;
    }
    for child in node.into_inner() {
        name_nodes(child, out);
    }
}

/// The text of a name node (`move_type_def`, `attr_ref`, ...).
fn text<'a>(n: &Node<'a>) -> &'a str {
    n.as_str().trim()
}

impl Lowerer {
    fn names_mut(&mut self, space: Space) -> &mut IndexSet<String> {
        match space {
            Space::MoveType => &mut self.move_types,
            Space::Attribute => &mut self.attribute_names,
            Space::Flag => &mut self.flag_names,
        }
    }

    /// Registers a name unless it is there already; reports one too many.
    fn register(&mut self, space: Space, n: &Node) {
        let name = text(n);
        if self.names_mut(space).contains(name) {
            return;
        }
        if self.names_mut(space).len() >= space.most() {
            self.error(
                n,
                format!("too many {}s", space.what()),
                format!("expected at most {} {} names", space.most(), space.what()),
            );
            return;
        }
        self.names_mut(space).insert(name.to_string());
    }

    /// Registers the move types, attributes and flags of the file: first those of the
    /// `move-types`, `attributes` and `flags` declarations in order, then every other name in
    /// order of first appearance. A name that is only referred to and never defined (so it
    /// could only be a misspelling) is an error.
    pub(super) fn register_names(&mut self, items: &[Node]) {
        let lists = [Rule::move_types_decl, Rule::attributes_decl, Rule::flags_decl];
        let mut defined: HashSet<(Space, String)> = HashSet::new();
        for item in items.iter().filter(|i| lists.contains(&i.as_rule())) {
            for n in item.clone().into_inner().skip(1) {
                let Some((space, _)) = Space::of(n.as_rule()) else { continue };
                if !defined.insert((space, text(&n).to_string())) {
                    self.error(
                        &n,
                        format!("duplicate {} `{}`", space.what(), text(&n)),
                        format!("expected each {} declared once", space.what()),
                    );
                }
                self.register(space, &n);
            }
        }
        let mut nodes = Vec::new();
        for item in items.iter().filter(|i| !lists.contains(&i.as_rule())) {
            name_nodes(item.clone(), &mut nodes);
        }
        for n in &nodes {
            let Some((space, def)) = Space::of(n.as_rule()) else { continue };
            self.register(space, n);
            if def {
                defined.insert((space, text(n).to_string()));
            }
        }
        for n in &nodes {
            let Some((space, false)) = Space::of(n.as_rule()) else { continue };
            let name = text(n);
            if defined.contains(&(space, name.to_string())) || !self.names_mut(space).contains(name) {
                // Defined somewhere, or already reported as one too many.
                continue;
            }
            self.error(n, format!("unknown {} `{name}`", space.what()), format!("expected {}", space.defined_by()));
        }
    }

    /// The id of a registered name (`None` if it was reported as one too many).
    fn name_id(&mut self, space: Space, n: &Node) -> Option<u8> {
        self.names_mut(space).get_index_of(text(n)).map(|i| i as u8)
    }

    fn move_type_id(&mut self, n: &Node) -> Option<MoveTypeId> {
        self.name_id(Space::MoveType, n).map(MoveTypeId)
    }

    // ------------------------------------------------------------ pieces

    /// Lowers `move [TYPE] { ... }` or `drop [TYPE] { ... }`.
    pub(super) fn program(&mut self, node: Node) -> Option<Program> {
        let mut move_type = None;
        let mut body = Some(Vec::new());
        for part in node.into_inner() {
            match part.as_rule() {
                Rule::move_type_def => move_type = Some(self.move_type_id(&part)?),
                Rule::prog_block => body = self.block(part),
                _ => {}
            }
        }
        Some(Program { move_type, body: body? })
    }

    /// Lowers `attribute NAME [set]`: the id, and whether new pieces carry it set.
    pub(super) fn attribute_decl(&mut self, node: Node) -> Option<(AttributeId, bool)> {
        let mut it = node.into_inner().skip(1);
        let name = it.next().expect("attribute name");
        let set = it.next().is_some();
        Some((AttributeId(self.name_id(Space::Attribute, &name)?), set))
    }

    // ------------------------------------------------------------ instructions

    /// Lowers the instructions of a `{ ... }` block (`None` after an error in one of them).
    fn block(&mut self, block: Node) -> Option<Vec<Instr>> {
        let mut out = Some(Vec::new());
        for node in block.into_inner().filter(|p| !matches!(p.as_rule(), Rule::lbrace | Rule::rbrace)) {
            let instr = self.instr(node);
            match (&mut out, instr) {
                (Some(v), Some(i)) => v.push(i),
                _ => out = None,
            }
        }
        out
    }

    /// Reports a bare instruction keyword that is also the name of a direction or a cell: the
    /// reader cannot tell which was meant.
    fn check_reserved(&mut self, node: &Node) -> Option<()> {
        let word = node.clone().into_inner().next().map_or(node.as_str(), |k| k.as_str()).trim();
        let what = if self.dirs.contains_key(word) {
            "direction"
        } else if self.cell_ids.contains_key(word) {
            "cell"
        } else {
            return Some(());
        };
        self.errors.push(Diagnostic::new(
            format!("`{word}` is a reserved word in a program, but also the name of a {what}"),
            span(node),
            format!("expected an instruction: rename the {what} `{word}` to use it as a place in a program"),
        ));
        None
    }

    fn instr(&mut self, node: Node) -> Option<Instr> {
        let rule = node.as_rule();
        let parts: Vec<Node> = node.clone().into_inner().collect();
        let place_of = |l: &mut Lowerer, parts: &[Node]| -> Option<Option<Place>> {
            match parts.iter().find(|p| p.as_rule() == Rule::place) {
                Some(p) => l.place(p).map(Some),
                None => Some(None),
            }
        };
        let written = &node.as_str()[..span(&node).len()];
        let bare = !written.contains(|c: char| c.is_whitespace() || c == '(');
        if bare && rule != Rule::bare_place {
            self.check_reserved(&node)?;
        }
        Some(match rule {
            Rule::bare_place => match self.place(&node)? {
                Place::Dir(d) => Instr::Step(d),
                Place::Cell(c) => Instr::Jump(c),
            },
            Rule::go_instr => {
                let mark = parts[1].clone().into_inner().next().expect("landmark keyword");
                Instr::Go(match mark.as_rule() {
                    Rule::k_from => Landmark::From,
                    Rule::k_to => Landmark::To,
                    Rule::k_mark => Landmark::Mark,
                    Rule::k_last_from => Landmark::LastFrom,
                    _ => Landmark::LastTo,
                })
            }
            Rule::mark_instr => Instr::Mark(place_of(self, &parts)?),
            Rule::back_instr => Instr::Back,
            Rule::verify_instr => Instr::Verify(self.test(parts[1].clone())?),
            Rule::if_instr => self.if_chain(parts)?,
            Rule::else_instr => {
                if let Some(b) = parts.get(1) {
                    // Still check what it holds.
                    self.block(b.clone());
                }
                self.errors.push(Diagnostic::new(
                    "`else` without `if`",
                    span(&parts[0]),
                    "expected `else` right after the `}` of an `if TEST { ... }` block",
                ));
                return None;
            }
            Rule::while_instr => {
                let test = self.test(parts[1].clone());
                let body = self.block(parts[2].clone());
                Instr::While(test?, body?)
            }
            Rule::to_instr => Instr::To,
            Rule::from_instr => Instr::From,
            Rule::cascade_instr => Instr::Cascade,
            Rule::add_instr => self.add(&parts)?,
            Rule::capture_instr => Instr::Capture(place_of(self, &parts)?),
            Rule::change_owner_instr => Instr::ChangeOwner(place_of(self, &parts)?),
            Rule::flip_instr => Instr::Flip(place_of(self, &parts)?),
            Rule::change_type_instr => {
                let ty = self.piece_ref(&parts[2]);
                let place = place_of(self, &parts);
                Instr::ChangeType(ty?, place?)
            }
            Rule::create_instr => self.create(&parts)?,
            Rule::set_flag_instr => {
                let test = self.test(parts[2].clone());
                Instr::SetFlag(FlagId(self.name_id(Space::Flag, &parts[1])?), test?)
            }
            Rule::set_cell_flag_instr => {
                let place = place_of(self, &parts);
                let flag = parts.iter().find(|p| p.as_rule() == Rule::flag_def).expect("flag name");
                let flag = self.name_id(Space::Flag, flag);
                let test = self.test(parts.last().expect("test").clone());
                Instr::SetCellFlag(FlagId(flag?), test?, place?)
            }
            Rule::set_attribute_instr => {
                let test = self.test(parts[2].clone());
                Instr::SetAttribute(AttributeId(self.name_id(Space::Attribute, &parts[1])?), test?)
            }
            _ => return None,
        })
    }

    /// Lowers `if TEST { ... } else if TEST { ... } ... else { ... }` (the parts of its first
    /// `if`) with a loop over the links, so a long chain costs no stack in the lowering.
    fn if_chain(&mut self, mut parts: Vec<Node>) -> Option<Instr> {
        let mut links = Vec::new();
        let last = loop {
            let test = self.test(parts[1].clone());
            let then = self.block(parts[2].clone());
            links.push((test, then));
            match parts.get(4).cloned() {
                Some(p) if p.as_rule() == Rule::if_instr => parts = p.into_inner().collect(),
                Some(p) => break self.block(p),
                None => break Some(Vec::new()),
            }
        };
        let mut otherwise = last;
        for (test, then) in links.into_iter().rev() {
            otherwise = match (test, then, otherwise) {
                (Some(test), Some(then), Some(otherwise)) => Some(vec![Instr::If(test, then, otherwise)]),
                _ => None,
            };
        }
        otherwise?.pop()
    }

    /// Lowers `add`, `add-copy`, `add-partial` and `add-copy-partial`.
    fn add(&mut self, parts: &[Node]) -> Option<Instr> {
        let kind_node = parts[0].clone().into_inner().next().expect("add keyword");
        let kind = match kind_node.as_rule() {
            Rule::k_add_copy_partial => AddKind::CopyPartial,
            Rule::k_add_copy => AddKind::Copy,
            Rule::k_add_partial => AddKind::Partial,
            _ => AddKind::Move,
        };
        let mut promote = Some(Vec::new());
        let mut then = None;
        for part in &parts[1..] {
            match part.as_rule() {
                Rule::promote_list => {
                    for p in part.clone().into_inner().filter(|p| p.as_rule() == Rule::piece_ref) {
                        match (self.piece_ref(&p), &mut promote) {
                            (Some(t), Some(v)) if v.contains(&t) => {
                                self.error(&p, "a type listed twice", "expected each piece type once");
                                promote = None;
                            }
                            (Some(t), Some(v)) => v.push(t),
                            _ => promote = None,
                        }
                    }
                }
                Rule::then_clause => {
                    let ty = part.clone().into_inner().nth(1).expect("move type");
                    if matches!(kind, AddKind::Move | AddKind::Copy) {
                        self.error(
                            part,
                            format!("`then` after `{}`", kind_node.as_str()),
                            "expected `then` only after `add-partial` or `add-copy-partial`: only a partial move goes on",
                        );
                        return None;
                    }
                    then = Some(self.move_type_id(&ty)?);
                }
                _ => {}
            }
        }
        Some(Instr::Add { kind, promote: promote?, then })
    }

    /// Lowers `create[(owner: PLAYER, piece: TYPE, at: PLACE)]`.
    fn create(&mut self, parts: &[Node]) -> Option<Instr> {
        let (mut owner, mut piece, mut at) = (None, None, None);
        let mut ok = true;
        let mut last = 0;
        for arg in
            parts.iter().filter(|p| matches!(p.as_rule(), Rule::create_owner | Rule::create_piece | Rule::create_at))
        {
            let order = match arg.as_rule() {
                Rule::create_owner => 1,
                Rule::create_piece => 2,
                _ => 3,
            };
            if order <= last {
                self.error(
                    arg,
                    "`create` arguments out of order",
                    "expected `owner:`, `piece:` and `at:` in this order, each at most once",
                );
                ok = false;
            }
            last = last.max(order);
            let value = arg.clone().into_inner().nth(2).expect("argument value");
            match order {
                1 => match self.player_id(&value) {
                    Some(p) => owner = Some(p),
                    None => ok = false,
                },
                2 => match self.piece_ref(&value) {
                    Some(t) => piece = Some(t),
                    None => ok = false,
                },
                _ => match self.place(&value) {
                    Some(p) => at = Some(p),
                    None => ok = false,
                },
            }
        }
        ok.then_some(Instr::Create { owner, piece, at })
    }

    /// A direction (as the mover reads it) or a cell; a direction wins when both have the name.
    fn place(&mut self, n: &Node) -> Option<Place> {
        let s = n.as_str().trim();
        if let Some(d) = self.dirs.get(s) {
            return Some(Place::Dir(*d));
        }
        if let Some(c) = self.cell_ids.get(s) {
            return Some(Place::Cell(*c));
        }
        if self.dir_sets.contains_key(s) {
            self.error(
                n,
                format!("`{s}` is a set of directions"),
                "expected one direction or one cell: a program goes one step at a time",
            );
            return None;
        }
        let dirs: Vec<&str> = self.dirs.keys().map(|d| d.as_str()).collect();
        let cells = match (self.cells.first(), self.cells.last()) {
            (Some(a), Some(b)) if a.name != b.name => format!("{} .. {}", a.name, b.name),
            (Some(a), _) => a.name.clone(),
            _ => String::new(),
        };
        let label = if dirs.is_empty() {
            format!("expected a cell of the board ({cells}); the board declares no directions")
        } else {
            format!("expected a direction ({}) or a cell of the board ({cells})", dirs.join(" "))
        };
        self.error(n, format!("unknown direction or cell `{s}`"), label);
        None
    }

    // ------------------------------------------------------------ tests

    /// Lowers a test (`test`, `test_and`, `test_not` or an atom).
    fn test(&mut self, t: Node) -> Option<Test> {
        let rule = t.as_rule();
        let parts: Vec<Node> = t.clone().into_inner().collect();
        let place_of = |l: &mut Lowerer, parts: &[Node]| -> Option<Option<Place>> {
            match parts.iter().find(|p| p.as_rule() == Rule::place) {
                Some(p) => l.place(p).map(Some),
                None => Some(None),
            }
        };
        Some(match rule {
            Rule::test | Rule::test_and => {
                let subs: Vec<Option<Test>> = parts
                    .into_iter()
                    .filter(|p| !matches!(p.as_rule(), Rule::k_and | Rule::k_or))
                    .map(|p| self.test(p))
                    .collect();
                let mut subs: Vec<Test> = subs.into_iter().collect::<Option<_>>()?;
                if subs.len() == 1 {
                    subs.remove(0)
                } else if rule == Rule::test {
                    Test::Or(subs)
                } else {
                    Test::And(subs)
                }
            }
            Rule::test_not => match parts[0].as_rule() {
                Rule::k_not => Test::Not(Box::new(self.test(parts[1].clone())?)),
                _ => self.test(parts[0].clone())?,
            },
            Rule::paren_test => self.test(parts[1].clone())?,
            Rule::true_test => Test::True,
            Rule::false_test => Test::False,
            Rule::empty_test => Test::Empty(place_of(self, &parts)?),
            Rule::friend_test => Test::Friend(place_of(self, &parts)?),
            Rule::enemy_test => Test::Enemy(place_of(self, &parts)?),
            Rule::piece_test => {
                let ty = self.piece_ref(&parts[2]);
                let place = place_of(self, &parts);
                Test::Piece(ty?, place?)
            }
            Rule::in_test => {
                let zone = self.zone_id(&parts[2]);
                let place = place_of(self, &parts);
                Test::InZone(zone?, place?)
            }
            Rule::on_board_test => Test::OnBoard(self.place(&parts[2])?),
            Rule::at_test => {
                let s = parts[2].as_str().trim();
                match self.cell_ids.get(s) {
                    Some(c) => Test::At(*c),
                    None => {
                        self.cell(&parts[2]);
                        return None;
                    }
                }
            }
            Rule::last_from_test => Test::LastFrom(place_of(self, &parts)?),
            Rule::last_to_test => Test::LastTo(place_of(self, &parts)?),
            Rule::marked_test => Test::Marked(place_of(self, &parts)?),
            Rule::attacked_test => Test::Attacked(None, place_of(self, &parts)?),
            Rule::defended_test => Test::Defended(None, place_of(self, &parts)?),
            Rule::attacked_by_test | Rule::defended_by_test => {
                let ty = self.move_type_id(&parts[2]);
                let place = place_of(self, &parts)?;
                if rule == Rule::attacked_by_test {
                    Test::Attacked(Some(ty?), place)
                } else {
                    Test::Defended(Some(ty?), place)
                }
            }
            Rule::adjacent_test => Test::AdjacentToEnemy(place_of(self, &parts)?),
            Rule::flag_test => Test::Flag(FlagId(self.name_id(Space::Flag, &parts[2])?)),
            Rule::cell_flag_test => {
                let flag = self.name_id(Space::Flag, &parts[2]);
                Test::CellFlag(FlagId(flag?), place_of(self, &parts)?)
            }
            Rule::attribute_test => {
                let attr = self.name_id(Space::Attribute, &parts[2]);
                Test::Attribute(AttributeId(attr?), place_of(self, &parts)?)
            }
            Rule::holds_test => Test::Holds(self.position_condition(parts[2].clone())?),
            _ => return None,
        })
    }

    // ------------------------------------------------------------ top level

    /// Lowers `priorities TYPE TYPE ...`.
    pub(super) fn priorities(&mut self, node: Node) -> Vec<MoveTypeId> {
        let mut out = Vec::new();
        for n in node.into_inner().skip(1) {
            let Some(id) = self.move_type_id(&n) else { continue };
            if out.contains(&id) {
                self.error(&n, format!("move type `{}` listed twice", text(&n)), "expected each move type once");
            } else {
                out.push(id);
            }
        }
        out
    }

    /// Lowers `turn-order { ENTRY ... [repeat ENTRY ...] }`.
    pub(super) fn turn_order(&mut self, node: Node) -> Option<TurnOrder> {
        let mut opening = Vec::new();
        let mut cycle = Vec::new();
        let mut repeat = None;
        let mut ok = true;
        for part in node.clone().into_inner() {
            match part.as_rule() {
                Rule::turn_entry => match self.turn_entry(part) {
                    Some(e) => opening.push(e),
                    None => ok = false,
                },
                Rule::turn_repeat => {
                    repeat = Some(part.clone().into_inner().next().expect("`repeat`"));
                    for e in part.into_inner().skip(1) {
                        match self.turn_entry(e) {
                            Some(e) => cycle.push(e),
                            None => ok = false,
                        }
                    }
                }
                _ => {}
            }
        }
        match &repeat {
            None => std::mem::swap(&mut opening, &mut cycle),
            Some(r) if cycle.is_empty() => {
                self.error(
                    r,
                    "the turn order has nothing to repeat",
                    "expected at least one turn after `repeat`, like `repeat white black`",
                );
                return None;
            }
            _ => {}
        }
        if cycle.is_empty() {
            self.error(&node, "an empty turn order", "expected at least one turn, like `turn-order { white black }`");
            return None;
        }
        ok.then_some(TurnOrder { opening, cycle })
    }

    fn turn_entry(&mut self, e: Node) -> Option<TurnEntry> {
        let mut it = e.into_inner();
        let who = it.next().expect("player");
        let player = self.player_id(&who);
        let move_type = match it.nth(1) {
            Some(t) => Some(self.move_type_id(&t)?),
            None => None,
        };
        Some(TurnEntry { player: player?, move_type })
    }

    /// Lowers `hand PLAYER: TYPE COUNT, ...` into (player, type, count) entries.
    pub(super) fn hand(&mut self, node: Node) -> Vec<(PlayerId, PieceTypeId, u32)> {
        let mut it = node.into_inner().skip(1);
        let who = it.next().expect("player");
        let player = self.player_id(&who);
        let mut out = Vec::new();
        for entry in it.filter(|p| p.as_rule() == Rule::hand_entry) {
            let mut ei = entry.into_inner();
            let piece = ei.next().expect("piece");
            let count = ei.next().expect("count");
            let ty = self.piece_ref(&piece);
            let n = int_value(self, &count, 10_000) as u32;
            if count.as_str().parse::<u64>() == Ok(0) {
                self.error(&count, "a hand entry of 0 pieces", "expected at least 1 (or leave the entry out)");
            }
            if let (Some(p), Some(t)) = (player, ty) {
                out.push((p, t, n));
            }
        }
        out
    }
}
