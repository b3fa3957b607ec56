//! Lowering: the one place where the syntax tree becomes the IR, resolving every name and reporting every semantic error.

use std::collections::HashMap;
use std::ops::Range;

use indexmap::{IndexMap, IndexSet};
use pest::iterators::Pair;

use varia_interpreter::ir::*;
use varia_interpreter::limits::{compile_work, TooMuchWork, MAX_CELLS, MAX_COMPILE_WORK};

use crate::betza;
use crate::diagnostic::Diagnostic;
use crate::syntax::{Rule, SyntaxTree};

/// The compass of a grid: direction names and their (dx, dy).
const COMPASS: [(&str, i32, i32); 8] =
    [("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1), ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1)];

#[path = "lower_board.rs"]
mod board;
#[path = "lower_choice.rs"]
mod choice;
#[path = "lower_goals.rs"]
mod goals;
#[path = "lower_pieces.rs"]
mod pieces;
#[path = "lower_program.rs"]
mod program;
#[path = "lower_setup.rs"]
mod setup;

use setup::program_sets_attribute;

type Node<'a> = Pair<'a, Rule>;

/// The span of a node without the whitespace and comments that pest's implicit skipping
/// leaves at its end (after an optional part that did not match).
fn span(p: &Node) -> Range<usize> {
    let (start, end) = (p.as_span().start(), p.as_span().end());
    let text = p.as_str();
    if text.trim_end() == text {
        return start..end;
    }
    match p.clone().into_inner().last() {
        Some(last) => start..span(&last).end,
        None => start..start + text.trim_end().len(),
    }
}

struct Lowerer {
    errors: Vec<Diagnostic>,
    cells: Vec<Cell>,
    cell_ids: IndexMap<String, CellId>,
    coords: HashMap<(i32, i32, i32), CellId>,
    dirs: IndexMap<String, DirId>,
    dir_sets: IndexMap<String, Vec<DirId>>,
    links: Vec<Link>,
    no_square: Vec<CellId>,
    players: Vec<Player>,
    zones: IndexMap<String, Zone>,
    /// Letters of the gating rights that are not castling rights, in declaration order.
    gate_letters: Vec<char>,
    phases: IndexMap<String, Option<Condition>>,
    piece_ids: IndexMap<String, PieceTypeId>,
    pieces: Vec<PieceType>,
    /// Where the board declares `between` locations, for errors about them.
    between_at: Option<Range<usize>>,
    /// Move type names, by id.
    move_types: IndexSet<String>,
    /// Attribute names, by id.
    attribute_names: IndexSet<String>,
    /// Flag names, by id.
    flag_names: IndexSet<String>,
    /// The distinct tests inside `before(...)` lowered so far; the index is the test's.
    before_tests: Vec<GoalTest>,
}

/// Lowers a parsed file into a checked [`Variant`].
pub fn lower(mut tree: SyntaxTree) -> Result<Variant, Vec<Diagnostic>> {
    let file = tree.next().expect("the grammar's `file` rule");
    let mut items: Vec<Node> = file.into_inner().filter(|p| p.as_rule() != Rule::EOI).collect();
    let header = items.remove(0);
    let header_span = span(&header);
    let title = string_value(&header.into_inner().nth(1).expect("variant title"));
    let mut l = Lowerer {
        errors: Vec::new(),
        cells: Vec::new(),
        cell_ids: IndexMap::new(),
        coords: HashMap::new(),
        dirs: IndexMap::new(),
        dir_sets: IndexMap::new(),
        links: Vec::new(),
        no_square: Vec::new(),
        players: Vec::new(),
        zones: IndexMap::new(),
        gate_letters: Vec::new(),
        phases: IndexMap::new(),
        piece_ids: IndexMap::new(),
        pieces: Vec::new(),
        between_at: None,
        move_types: IndexSet::new(),
        attribute_names: IndexSet::new(),
        flag_names: IndexSet::new(),
        before_tests: Vec::new(),
    };
    let of = |rule: Rule| -> Vec<Node> { items.iter().filter(|p| p.as_rule() == rule).cloned().collect() };

    let boards = of(Rule::board_block);
    match boards.len() {
        0 => l.errors.push(Diagnostic::new(
            "a variant needs a `board { ... }` block",
            header_span.clone(),
            "expected a `board { grid W x H }` in this variant",
        )),
        1 => l.board(boards[0].clone()),
        _ => l.errors.push(Diagnostic::new("a second `board` block", span(&boards[1]), "only one board block")),
    }
    // Every later declaration names cells and directions: without a board they would only
    // repeat the same error, so stop here.
    if l.cells.is_empty() {
        return Err(l.errors);
    }
    let player_decls = of(Rule::player_decl);
    for p in player_decls.iter().cloned() {
        l.player(p);
    }
    if l.players.len() < 2 {
        let (at, label) = match player_decls.last() {
            Some(p) => (span(p), "the only player: expected a second `player` declaration"),
            None => (header_span.clone(), "expected `player white` and `player black` in this variant"),
        };
        l.errors.push(Diagnostic::new(
            format!("a variant needs at least two `player` declarations, found {}", l.players.len()),
            at,
            label,
        ));
    }
    // Phase names first: zones name them in `in-phase` blocks.
    let phases = of(Rule::phase_decl);
    for p in &phases {
        let name = p.clone().into_inner().nth(1).expect("phase name");
        if l.phases.insert(name.as_str().to_string(), None).is_some() {
            l.error(&name, format!("duplicate phase `{}`", name.as_str()), "expected a name no other phase uses");
        } else if l.phases.len() > 32 {
            l.error(&name, "too many phases", "expected at most 32 phases");
        }
    }
    for z in of(Rule::zone_decl) {
        l.zone(z);
    }
    // Move types, attributes and flags get their ids in order of first appearance.
    l.register_names(&items);
    let pieces = of(Rule::piece_decl);
    for p in &pieces {
        l.declare_piece(p.clone());
    }
    // Pieces past the limit of piece types were refused by `declare_piece`: no body to read.
    let declared = l.pieces.len();
    for (i, p) in pieces.iter().enumerate().take(declared) {
        l.piece_body(i, p.clone());
    }
    for p in &phases {
        let cond = p.clone().into_inner().nth(3).expect("phase condition");
        let name = p.clone().into_inner().nth(1).expect("phase name").as_str().to_string();
        let c = l.condition(cond);
        l.phases.insert(name, c);
    }
    let castle_decls = of(Rule::castle_decl);
    if let Some(extra) = castle_decls.get(32) {
        l.error(extra, "too many castlings", "expected at most 32 `castle` declarations");
    }
    let castlings: Vec<Castling> = castle_decls.into_iter().take(32).filter_map(|c| l.castle(c)).collect();
    let gates: Vec<Gate> = of(Rule::gate_decl).into_iter().filter_map(|g| l.gate(g, &castlings)).collect();
    let setups = of(Rule::setup_block);
    let setup = match setups.len() {
        1 => l.setup(setups[0].clone(), &castlings, &gates, &[]),
        n => {
            if n > 1 {
                l.error(&setups[1], "a second `setup` block", "only one setup block");
            } else {
                l.errors.push(Diagnostic::new(
                    "a variant needs a `setup { ... }` block",
                    header_span.clone(),
                    "expected a `setup { white: ... black: ... }` in this variant",
                ));
            }
            Setup { placements: Vec::new(), castling_rights: Vec::new(), square_owners: Vec::new(), hands: Vec::new() }
        }
    };
    let choices = l.choices(&of(Rule::choice_decl), &castlings, &gates, &setup);
    let squares_blocks = of(Rule::squares_block);
    if let Some(second) = squares_blocks.get(1) {
        l.error(second, "a second `squares` block", "expected one `squares` block");
    }
    let squares = squares_blocks.first().map(|b| (span(b), l.squares(b.clone())));
    let turn_blocks = of(Rule::turn_block);
    if let Some(second) = turn_blocks.get(1) {
        l.error(second, "a second `turn` block", "expected one `turn` block");
    }
    let turn = match turn_blocks.first() {
        Some(t) => l.turn(t.clone(), squares.is_some()),
        None => Turn {
            actions: vec![TurnAction { kinds: vec![ActionKind::MovePiece], optional: false, skip_if_none: None }],
        },
    };
    let mut setup = setup;
    if let Some((at, sq)) = &squares {
        if sq.owned {
            // Each player owns the squares under their starting army.
            setup.square_owners =
                setup.placements.iter().filter_map(|(c, stack)| stack.first().map(|(p, _)| (*c, *p))).collect();
            if l.players.len() != 2 {
                l.errors.push(Diagnostic::new(
                    "owned squares need exactly two players",
                    at.clone(),
                    "position strings mark the squares of the first and second player with `+` and `-`",
                ));
            }
            if let Some(p) = l.pieces.iter().find(|p| p.mark == Some('+')) {
                l.errors.push(Diagnostic::new(
                    format!("the piece `{}` is marked `+`, as are owned empty squares", p.name),
                    at.clone(),
                    "position strings mark an owned empty square with `+`: mark the piece `X~` instead",
                ));
            }
        }
        if l.between_at.is_some() {
            l.errors.push(Diagnostic::new(
                "a `squares` block and `between` locations do not go together: a piece between cells \
                 stands on several squares at once, so which square would carry it, or be left \
                 behind, has no meaning",
                at.clone(),
                "remove the `squares` block, or the board's `between`",
            ));
        }
    }
    let ends = of(Rule::end_block);
    if let Some(second) = ends.get(1) {
        l.error(second, "a second `end` block", "expected one `end` block");
    }
    let end = match ends.first() {
        Some(e) => l.end(e.clone()),
        None => setup::default_end(),
    };
    let turn_orders = of(Rule::turn_order_decl);
    if let Some(second) = turn_orders.get(1) {
        l.error(second, "a second `turn-order`", "expected one `turn-order` block");
    }
    let turn_order = turn_orders.first().and_then(|t| l.turn_order(t.clone()));
    let priorities = of(Rule::priorities_decl);
    if let Some(second) = priorities.get(1) {
        l.error(second, "a second `priorities` line", "expected one `priorities` line listing every ranked move type");
    }
    let move_priorities = priorities.first().map(|p| l.priorities(p.clone())).unwrap_or_default();
    let pass_partial = !of(Rule::pass_partial_decl).is_empty();
    let pass_turn = match of(Rule::pass_turn_decl).first() {
        None => PassTurn::Never,
        Some(decl) if decl.clone().into_inner().any(|p| p.as_rule() == Rule::k_if_no_move) => PassTurn::IfNoMove,
        Some(_) => PassTurn::Always,
    };
    let maximal = of(Rule::maximal_captures_decl);
    let maximal_captures = !maximal.is_empty();
    let maximal_captures_prefer = l.maximal_captures(&maximal);
    let goals_count_hands = !of(Rule::goals_count_hands_decl).is_empty();
    let shared_pieces = !of(Rule::shared_pieces_decl).is_empty();
    if let (Some(decl), true) = (of(Rule::shared_pieces_decl).first(), l.pieces.iter().any(|p| p.royal)) {
        // Checks are found from the pieces each player owns; with shared pieces every player
        // moves every piece, so a royal piece's safety would be misjudged.
        l.error(
            decl,
            "`shared-pieces` and royal pieces do not go together",
            "expected no royal piece in a game of shared pieces",
        );
    }
    let teams = l.teams(&of(Rule::team_decl));
    let forbids: Vec<GoalTest> = of(Rule::forbid_decl).into_iter().filter_map(|f| l.forbid(f)).collect();
    if let Some(at) = l.between_at.clone() {
        if l.zones.values().any(|z| z.occupancy.is_some()) {
            l.errors.push(Diagnostic::new(
                "`between` locations and zone occupancy rules (stacks) do not go together: a piece \
                 between cells fills each cell it covers whole, so no other piece can share those \
                 cells as a stack's pieces do",
                at,
                "remove `between` or the zones' occupancy rules",
            ));
        }
    }
    // Attributes belong to the piece on a cell; on a stack cell several pieces would share them.
    let attributes_used = l.pieces.iter().any(|p| !p.attributes.is_empty())
        || l.pieces.iter().flat_map(|p| p.programs.iter().chain(&p.drops)).any(program_sets_attribute);
    if attributes_used && l.zones.values().any(|z| z.occupancy.is_some()) {
        l.errors.push(Diagnostic::new(
            "piece attributes and zone occupancy rules (stacks) do not go together: an attribute \
             is kept per cell, and the pieces of a stack share their cell",
            header_span.clone(),
            "remove the attributes, or the zones' occupancy rules",
        ));
    }
    if !l.errors.is_empty() {
        return Err(l.errors);
    }
    let variant = Variant {
        title,
        board: Board {
            cells: l.cells,
            directions: l.dirs.keys().cloned().collect(),
            direction_sets: l.dir_sets.into_iter().collect(),
            links: l.links,
            initially_empty_locations: l.no_square,
        },
        players: l.players,
        zones: l.zones.into_values().collect(),
        pieces: l.pieces,
        castlings,
        gates,
        phases: l
            .phases
            .into_iter()
            .map(|(name, when)| Phase { name, when: when.unwrap_or(Condition::PieceCount(Compare::Less, 0)) })
            .collect(),
        turn,
        squares: squares.map(|(_, s)| s),
        setup,
        end,
        move_types: l.move_types.into_iter().collect(),
        move_priorities,
        attributes: l.attribute_names.into_iter().collect(),
        flags: l.flag_names.into_iter().collect(),
        turn_order,
        pass_partial,
        pass_turn,
        maximal_captures,
        maximal_captures_prefer,
        goals_count_hands,
        shared_pieces,
        teams,
        forbids,
        choices,
    };
    // The compiled tables must stay small, whatever the text asks for.
    if let Err(too_much) = compile_work(&variant) {
        let (at, what) = match too_much {
            TooMuchWork::Piece(i) => (pieces.get(i).map(span), "the powers of this piece"),
            TooMuchWork::Squares => (squares_blocks.first().map(span), "the moves of squares"),
        };
        return Err(vec![Diagnostic::new(
            format!("the variant is too large to compile: its move tables would hold more than {MAX_COMPILE_WORK} ray cells"),
            at.unwrap_or(header_span),
            format!("expected a smaller board or fewer powers: {what} bring the tables past the limit"),
        )]);
    }
    Ok(variant)
}

fn string_value(p: &Node) -> String {
    p.clone().into_inner().next().map(|s| s.as_str().to_string()).unwrap_or_default()
}

fn int_value(l: &mut Lowerer, p: &Node, max: u64) -> u64 {
    int_checked(l, p, max).unwrap_or(0)
}

/// A number up to `max`, or `None` after reporting it out of range.
fn int_checked(l: &mut Lowerer, p: &Node, max: u64) -> Option<u64> {
    match p.as_str().parse::<u64>() {
        Ok(n) if n <= max => Some(n),
        _ => {
            l.error(
                p,
                format!("number `{}` is out of range", p.as_str()),
                format!("expected a number from 0 to {max}"),
            );
            None
        }
    }
}

impl Lowerer {
    /// The `maximal-captures [then TYPE...]` lines (one at most): the types preferred.
    fn maximal_captures(&mut self, decls: &[Node]) -> Vec<PieceTypeId> {
        if let Some(second) = decls.get(1) {
            self.error(second, "a second `maximal-captures` line", "expected one `maximal-captures` line");
        }
        let mut prefer = Vec::new();
        for n in decls.iter().flat_map(|decl| decl.clone().into_inner()).filter(|n| n.as_rule() == Rule::piece_ref) {
            if let Some(t) = self.piece_ref(&n) {
                if !prefer.contains(&t) {
                    prefer.push(t);
                }
            }
        }
        prefer
    }

    fn error(&mut self, at: &Node, message: impl Into<String>, label: impl Into<String>) {
        self.errors.push(Diagnostic::new(message, span(at), label));
    }
}
