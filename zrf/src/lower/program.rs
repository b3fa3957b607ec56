//! Lowers move and drop bodies into IR programs, instruction by instruction, and their conditions into tests.
use varia_interpreter::ir::{AddKind, Instr, Landmark, Place, Program, Test};

use super::{cell_id, construct_name, Lowerer};
use crate::reader::{Sexp, SexpKind, ZrfError};

/// Condition words the lowering knows (without the `not-` prefix), for `not-X?`.
const CONDITIONS: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "piece?",
    "in-zone?",
    "on-board?",
    "position?",
    "last-from?",
    "last-to?",
    "marked?",
    "attacked?",
    "defended?",
    "adjacent-to-enemy?",
    "flag?",
    "position-flag?",
];

impl Lowerer<'_> {
    /// The definitions of a `(moves ...)` or `(drops ...)` block; `(move-type T)` gives T to the
    /// definitions after it.
    pub(crate) fn programs(&mut self, forms: &[Sexp], label: &str) -> Result<Vec<Program>, ZrfError> {
        let mut move_type = None;
        let mut programs = Vec::new();
        for form in forms {
            if form.is_form("move-type") {
                let [ty] = form.tail() else {
                    return Err(self.err("'move-type' needs one name", form, label));
                };
                move_type = Some(self.move_type(ty)?);
                continue;
            }
            let body = match &form.kind {
                // A definition that is a single word (a macro spliced to `add`) is one instruction.
                SexpKind::Atom(_) => vec![self.instr_atom(form, label)?],
                SexpKind::List(items) => self.block(items, label)?,
                SexpKind::Str(_) => return Err(self.err("expected a move definition", form, label)),
            };
            if programs.len() >= varia_interpreter::limits::PROGRAMS_PER_PIECE {
                let most = varia_interpreter::limits::PROGRAMS_PER_PIECE;
                return Err(self.err(format!("more than {most} move definitions"), form, label));
            }
            programs.push(Program { move_type, body });
        }
        Ok(programs)
    }

    fn block(&mut self, items: &[Sexp], label: &str) -> Result<Vec<Instr>, ZrfError> {
        items
            .iter()
            .map(|item| match &item.kind {
                SexpKind::Atom(_) => self.instr_atom(item, label),
                SexpKind::List(_) => self.instr_list(item, label),
                SexpKind::Str(_) => Err(self.err("expected an instruction, not a string", item, label)),
            })
            .collect()
    }

    fn instr_atom(&mut self, node: &Sexp, label: &str) -> Result<Instr, ZrfError> {
        let word = node.as_atom().unwrap_or("");
        let add = |kind| Instr::Add { kind, promote: Vec::new(), then: None };
        Ok(match word.to_ascii_lowercase().as_str() {
            "add" => add(AddKind::Move),
            "add-copy" => add(AddKind::Copy),
            "add-partial" => add(AddKind::Partial),
            "add-copy-partial" => add(AddKind::CopyPartial),
            "capture" => Instr::Capture(None),
            "mark" => Instr::Mark(None),
            "back" => Instr::Back,
            "to" => Instr::To,
            "from" => Instr::From,
            "cascade" => Instr::Cascade,
            "change-owner" => Instr::ChangeOwner(None),
            "flip" => Instr::Flip(None),
            "create" => Instr::Create { owner: None, piece: None, at: None },
            _ => {
                // A direction wins over a position of the same name.
                if let Some(dir) = self.dirs.get(word) {
                    Instr::Step(super::board::dir_id(dir))
                } else if let Some(cell) = self.cells.get(word) {
                    Instr::Jump(cell_id(cell))
                } else if self.killed.get(word).is_some() {
                    return Err(self.err(format!("position '{word}' was removed by kill-positions"), node, label));
                } else if is_keyword(word) {
                    return Err(self.unsupported(node, label));
                } else {
                    return Err(self.err(format!("unknown direction or position '{word}'"), node, label));
                }
            }
        })
    }

    fn instr_list(&mut self, node: &Sexp, label: &str) -> Result<Instr, ZrfError> {
        let Some(head) = node.head() else {
            return Err(self.unsupported(node, label));
        };
        let args = node.tail();
        let head = head.to_ascii_lowercase();
        Ok(match head.as_str() {
            "verify" => {
                let [condition] = args else {
                    return Err(self.err("'verify' needs one condition", node, label));
                };
                Instr::Verify(self.test(condition, label)?)
            }
            "if" => self.if_instr(node, args, label)?,
            "while" => self.while_instr(node, args, label)?,
            "opposite" => self.opposite_instr(node, args, label)?,
            "mark" => Instr::Mark(self.place_arg(args, label)?),
            "go" => self.go_instr(node, args, label)?,
            "add" | "add-copy" => {
                let promote = args.iter().map(|ty| self.piece(ty, label)).collect::<Result<Vec<_>, _>>()?;
                let kind = if head == "add" { AddKind::Move } else { AddKind::Copy };
                Instr::Add { kind, promote, then: None }
            }
            "add-partial" | "add-copy-partial" => {
                let kind = if head == "add-partial" { AddKind::Partial } else { AddKind::CopyPartial };
                // (add-partial T): continue with moves of type T; Dagaz also accepts
                // (add-partial Piece T): promote, then continue.
                let (promote, then) = match args {
                    [] => (Vec::new(), None),
                    [ty] => (Vec::new(), Some(self.move_type(ty)?)),
                    [piece, ty] => (vec![self.piece(piece, label)?], Some(self.move_type(ty)?)),
                    [_, _, extra, ..] => return Err(self.err("unexpected extra argument", extra, label)),
                };
                Instr::Add { kind, promote, then }
            }
            "capture" => Instr::Capture(self.place_arg(args, label)?),
            "change-type" => {
                let Some((ty, rest)) = args.split_first() else {
                    return Err(self.err("'change-type' needs a piece type", node, label));
                };
                Instr::ChangeType(self.piece(ty, label)?, self.place_arg(rest, label)?)
            }
            "change-owner" => Instr::ChangeOwner(self.place_arg(args, label)?),
            "flip" => Instr::Flip(self.place_arg(args, label)?),
            "create" => self.create_instr(args, label)?,
            "set-flag" => {
                let [flag, value] = args else {
                    return Err(self.err("'set-flag' needs a flag and a value", node, label));
                };
                Instr::SetFlag(self.flag(flag)?, self.test(value, label)?)
            }
            "set-position-flag" => {
                let [flag, value, rest @ ..] = args else {
                    return Err(self.err("'set-position-flag' needs a flag and a value", node, label));
                };
                let flag = self.flag(flag)?;
                Instr::SetCellFlag(flag, self.test(value, label)?, self.place_arg(rest, label)?)
            }
            "set-attribute" => self.set_attribute_instr(node, args, label)?,
            _ => return Err(self.err(super::keywords::unknown_word_message(&head), node, label)),
        })
    }

    /// `(if condition then... [else otherwise...])`.
    fn if_instr(&mut self, node: &Sexp, args: &[Sexp], label: &str) -> Result<Instr, ZrfError> {
        let Some((condition, rest)) = args.split_first() else {
            return Err(self.err("'if' needs a condition", node, label));
        };
        let test = self.test(condition, label)?;
        let split = rest.iter().position(|item| item.is_atom("else"));
        let (then, otherwise) = match split {
            Some(at) => (rest.get(..at).unwrap_or(&[]), rest.get(at + 1..).unwrap_or(&[])),
            None => (rest, &[][..]),
        };
        if let Some(second) = otherwise.iter().find(|item| item.is_atom("else")) {
            return Err(self.err("'if' has a second 'else'", second, label));
        }
        Ok(Instr::If(test, self.block(then, label)?, self.block(otherwise, label)?))
    }

    /// `(while condition body...)`, refused where its body can never end it.
    fn while_instr(&mut self, node: &Sexp, args: &[Sexp], label: &str) -> Result<Instr, ZrfError> {
        let Some((condition, body)) = args.split_first() else {
            return Err(self.err("'while' needs a condition", node, label));
        };
        let instr = Instr::While(self.test(condition, label)?, self.block(body, label)?);
        let alone = Program { move_type: None, body: vec![instr.clone()] };
        if varia_interpreter::endless_loops(&alone).contains(&0) {
            return Err(self.err(
                "this loop never ends once entered: its body neither moves nor sets a flag, so its test keeps its value",
                node,
                "expected a loop that steps to another position (or sets a flag its condition reads)",
            ));
        }
        Ok(instr)
    }

    /// `(opposite d)`: a step along the direction that reverses `d`'s links.
    fn opposite_instr(&mut self, node: &Sexp, args: &[Sexp], label: &str) -> Result<Instr, ZrfError> {
        let [dir] = args else {
            return Err(self.err("'opposite' needs one direction", node, label));
        };
        let Some(d) = dir.as_atom().and_then(|name| self.dirs.get(name)) else {
            return Err(self.err(format!("unknown direction '{}'", construct_name(dir)), dir, label));
        };
        match self.opposites.get(d).copied().flatten() {
            Some(back) => Ok(Instr::Step(back)),
            None => Err(self.err(
                format!("no direction leads back along every link of '{}'", construct_name(dir)),
                node,
                "(opposite d) needs a direction that reverses d's links",
            )),
        }
    }

    /// `(go landmark)`: back to `from`, `to`, the mark, or the last move's cells.
    fn go_instr(&mut self, node: &Sexp, args: &[Sexp], label: &str) -> Result<Instr, ZrfError> {
        let [to] = args else {
            return Err(self.err("'go' needs one landmark", node, label));
        };
        let landmark = match to.as_atom().map(str::to_ascii_lowercase).as_deref() {
            Some("from") => Landmark::From,
            Some("to") => Landmark::To,
            Some("mark") => Landmark::Mark,
            Some("last-from") => Landmark::LastFrom,
            Some("last-to") => Landmark::LastTo,
            _ => return Err(self.unsupported(to, "expected from, to, mark, last-from or last-to")),
        };
        Ok(Instr::Go(landmark))
    }

    /// `(create [player] [type] [position-or-direction])`, each part optional, in order.
    fn create_instr(&mut self, args: &[Sexp], label: &str) -> Result<Instr, ZrfError> {
        let mut rest = args;
        let mut owner = None;
        let mut piece = None;
        if let Some(first) = rest.first().filter(|a| a.as_atom().is_some_and(|n| self.players.get(n).is_some())) {
            owner = Some(self.player(first, label)?);
            rest = rest.get(1..).unwrap_or(&[]);
        }
        if let Some(first) = rest.first().filter(|a| a.as_atom().is_some_and(|n| self.pieces.get(n).is_some())) {
            piece = Some(self.piece(first, label)?);
            rest = rest.get(1..).unwrap_or(&[]);
        }
        Ok(Instr::Create { owner, piece, at: self.place_arg(rest, label)? })
    }

    /// `(set-attribute attribute value)`.
    fn set_attribute_instr(&mut self, node: &Sexp, args: &[Sexp], label: &str) -> Result<Instr, ZrfError> {
        let [attribute, value] = args else {
            return Err(self.err("'set-attribute' needs an attribute and a value", node, label));
        };
        let Some(id) = attribute.as_atom().and_then(|a| self.attribute_named(a)) else {
            return Err(self.err(format!("unknown attribute '{}'", construct_name(attribute)), attribute, label));
        };
        Ok(Instr::SetAttribute(id, self.test(value, label)?))
    }

    /// An instruction's optional position or direction (none: the current position).
    fn place_arg(&self, args: &[Sexp], label: &str) -> Result<Option<Place>, ZrfError> {
        match args {
            [] => Ok(None),
            [place] => self.place(place, label).map(Some),
            [_, extra, ..] => Err(self.err("unexpected extra argument", extra, label)),
        }
    }

    /// A position or a direction relative to the current position.
    fn place(&self, node: &Sexp, label: &str) -> Result<Place, ZrfError> {
        let name = node.as_atom().unwrap_or("");
        if let Some(dir) = self.dirs.get(name) {
            return Ok(Place::Dir(super::board::dir_id(dir)));
        }
        if node.as_atom().is_some() && (self.cells.get(name).is_some() || self.killed.get(name).is_some()) {
            return self.cell(node, label).map(|cell| Place::Cell(cell_id(cell)));
        }
        Err(self.err(format!("unknown position or direction '{}'", construct_name(node)), node, label))
    }

    fn is_place(&self, node: &Sexp) -> bool {
        node.as_atom().is_some_and(|name| self.dirs.get(name).is_some() || self.cells.get(name).is_some())
    }

    /// A condition: a word (`empty?`), or a list with arguments (`(piece? Rook n)`).
    pub(crate) fn test(&mut self, node: &Sexp, label: &str) -> Result<Test, ZrfError> {
        let (name, args) = match &node.kind {
            SexpKind::Atom(word) => (word.as_str(), &[][..]),
            SexpKind::List(items) => match items.split_first() {
                Some((head, args)) if head.as_atom().is_some() => (head.as_atom().unwrap_or(""), args),
                _ => return Err(self.unsupported(node, label)),
            },
            SexpKind::Str(_) => return Err(self.err("expected a condition, not a string", node, label)),
        };
        self.test_named(name, args, node, label)
    }

    fn test_named(&mut self, name: &str, args: &[Sexp], node: &Sexp, label: &str) -> Result<Test, ZrfError> {
        let lower = name.to_ascii_lowercase();
        let is_list = node.as_list().is_some();
        let place = |this: &Self, args: &[Sexp]| -> Result<Option<Place>, ZrfError> {
            match args {
                [] => Ok(None),
                [place] => this.place(place, label).map(Some),
                [_, extra, ..] => Err(this.err("unexpected extra argument", extra, label)),
            }
        };
        let one = |this: &Self, what: &str| -> Result<(), ZrfError> {
            if args.is_empty() {
                Err(this.err(format!("'{name}' needs {what}"), node, label))
            } else {
                Ok(())
            }
        };
        Ok(match lower.as_str() {
            "true" if !is_list => Test::True,
            "false" if !is_list => Test::False,
            "and" | "or" if is_list => {
                let parts = args.iter().map(|arg| self.test(arg, label)).collect::<Result<Vec<_>, _>>()?;
                if lower == "and" {
                    Test::And(parts)
                } else {
                    Test::Or(parts)
                }
            }
            "not" if is_list => {
                let [inner] = args else {
                    return Err(self.err("'not' needs one condition", node, label));
                };
                Test::Not(Box::new(self.test(inner, label)?))
            }
            "empty?" => Test::Empty(place(self, args)?),
            "friend?" => Test::Friend(place(self, args)?),
            "enemy?" => Test::Enemy(place(self, args)?),
            "last-from?" => Test::LastFrom(place(self, args)?),
            "last-to?" => Test::LastTo(place(self, args)?),
            "marked?" => Test::Marked(place(self, args)?),
            "adjacent-to-enemy?" => Test::AdjacentToEnemy(place(self, args)?),
            "piece?" => {
                one(self, "a piece type")?;
                let (ty, rest) = args.split_first().unwrap_or((node, &[]));
                Test::Piece(self.piece(ty, label)?, place(self, rest)?)
            }
            "in-zone?" => {
                one(self, "a zone")?;
                let (zone, rest) = args.split_first().unwrap_or((node, &[]));
                Test::InZone(self.zone(zone, label)?, place(self, rest)?)
            }
            "on-board?" => {
                let [at] = args else {
                    return Err(self.err("'on-board?' needs a position or direction", node, label));
                };
                Test::OnBoard(self.place(at, label)?)
            }
            "position?" => {
                let [at] = args else {
                    return Err(self.err("'position?' needs a position", node, label));
                };
                Test::At(cell_id(self.cell(at, label)?))
            }
            "attacked?" | "defended?" => {
                // (attacked? [move-type] [position-or-direction])
                let (ty, rest) = match args.split_first() {
                    Some((first, rest)) if !self.is_place(first) => (Some(self.move_type(first)?), rest),
                    _ => (None, args),
                };
                let at = place(self, rest)?;
                if lower == "attacked?" {
                    Test::Attacked(ty, at)
                } else {
                    Test::Defended(ty, at)
                }
            }
            "flag?" => {
                let [flag] = args else {
                    return Err(self.err("'flag?' needs a flag", node, label));
                };
                Test::Flag(self.flag(flag)?)
            }
            "position-flag?" => {
                one(self, "a flag")?;
                let (flag, rest) = args.split_first().unwrap_or((node, &[]));
                let flag = self.flag(flag)?;
                Test::CellFlag(flag, place(self, rest)?)
            }
            _ => {
                if let Some(attribute) = self.attribute_named(name) {
                    return Ok(Test::Attribute(attribute, place(self, args)?));
                }
                // Every X? also exists as not-X?, its negation.
                if let Some(rest) = name.get(4..).filter(|_| lower.starts_with("not-")) {
                    let rest_lower = rest.to_ascii_lowercase();
                    if CONDITIONS.contains(&rest_lower.as_str()) || self.attribute_named(rest).is_some() {
                        return Ok(Test::Not(Box::new(self.test_named(rest, args, node, label)?)));
                    }
                }
                return Err(self.err(super::keywords::unknown_word_message(name), node, label));
            }
        })
    }
}

/// Words of the language that are not instructions the IR has (so a use is "unsupported", not
/// an unknown name).
fn is_keyword(word: &str) -> bool {
    word.ends_with('?')
        || matches!(
            word.to_ascii_lowercase().as_str(),
            "verify" | "if" | "else" | "while" | "go" | "opposite" | "set-flag" | "set-attribute" | "change-type"
        )
}
