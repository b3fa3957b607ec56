//! Lowering: the one place where the syntax tree becomes the IR, resolving every name and reporting every semantic error.

use std::collections::HashMap;
use std::ops::Range;

use indexmap::{IndexMap, IndexSet};
use pest::iterators::Pair;

use varia_interpreter::ir::PgnVariant;
use varia_interpreter::ir::*;
use varia_interpreter::limits::{compile_work, TooMuchWork, MAX_CELLS, MAX_COMPILE_WORK};

use crate::diagnostic::Diagnostic;
use crate::syntax::{Rule, SyntaxTree};

/// The compass of a grid: direction names and their (dx, dy).
const COMPASS: [(&str, i32, i32); 8] =
    [("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1), ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1)];

#[path = "lower_betza.rs"]
mod betza_power;
#[path = "lower_board.rs"]
mod board;
#[path = "lower_choice.rs"]
mod choice;
#[path = "lower_display.rs"]
mod display;
#[path = "lower_goals.rs"]
mod goals;
#[path = "lower_pieces.rs"]
mod pieces;
#[path = "lower_program.rs"]
mod program;
#[path = "lower_setup.rs"]
mod setup;
#[path = "lower_shuffle.rs"]
mod shuffle;
#[path = "lower_walls.rs"]
mod walls;

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
    let mut l = Lowerer::new();
    let of = |rule: Rule| -> Vec<Node> { items.iter().filter(|p| p.as_rule() == rule).cloned().collect() };

    l.board_block(&of(Rule::board_block), &header_span);
    // Every later declaration names cells and directions: without a board they would only
    // repeat the same error, so stop here.
    if l.cells.is_empty() {
        return Err(l.errors);
    }
    l.player_decls(&of(Rule::player_decl), &header_span);
    let pieces = of(Rule::piece_decl);
    l.names_and_pieces(&items, &of(Rule::phase_decl), &of(Rule::zone_decl), &pieces);
    let castle_decls = of(Rule::castle_decl);
    if let Some(extra) = castle_decls.get(32) {
        l.error(extra, "too many castlings", "expected at most 32 `castle` declarations");
    }
    let castlings: Vec<Castling> = castle_decls.into_iter().take(32).filter_map(|c| l.castle(c)).collect();
    let gates: Vec<Gate> = of(Rule::gate_decl).into_iter().filter_map(|g| l.gate(g, &castlings)).collect();
    let mut setup = l.setup_block(&of(Rule::setup_block), &castlings, &gates, &header_span);
    let choices = l.choices(&of(Rule::choice_decl), &castlings, &gates, &setup);
    let squares_blocks = of(Rule::squares_block);
    let squares = l.one_block(&squares_blocks, "squares").map(|b| (span(&b), l.squares(b)));
    let turn = match l.one_block(&of(Rule::turn_block), "turn") {
        Some(t) => l.turn(t, squares.is_some()),
        None => Turn {
            actions: vec![TurnAction { kinds: vec![ActionKind::MovePiece], optional: false, skip_if_none: None }],
        },
    };
    if let Some((at, sq)) = &squares {
        l.check_squares(at, sq, &mut setup);
    }
    let walls = l.one_block(&of(Rule::walls_block), "walls").map(|b| l.walls(b));
    let end = match l.one_block(&of(Rule::end_block), "end") {
        Some(e) => l.end(e),
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
    let pass_turn = match of(Rule::pass_turn_decl).first() {
        None => PassTurn::Never,
        Some(decl) if decl.clone().into_inner().any(|p| p.as_rule() == Rule::k_if_no_move) => PassTurn::IfNoMove,
        Some(_) => PassTurn::Always,
    };
    let maximal = of(Rule::maximal_captures_decl);
    let maximal_captures_prefer = l.maximal_captures(&maximal);
    if let Some(decl) = of(Rule::shared_pieces_decl).first() {
        l.check_shared_pieces(decl);
    }
    let royal_check = l.royal_check(&of(Rule::royal_check_decl));
    let teams = l.teams(&of(Rule::team_decl));
    let forbids: Vec<GoalTest> = of(Rule::forbid_decl).into_iter().filter_map(|f| l.forbid(f)).collect();
    l.check_stacks(&header_span);
    let pgn_variant = l.pgn_variant(&of(Rule::pgn_variant_decl));
    let display = l.display(&of(Rule::display_block));
    if !l.errors.is_empty() {
        return Err(l.errors);
    }
    let variant = Variant {
        title,
        pgn_variant,
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
        walls,
        setup,
        end,
        move_types: l.move_types.into_iter().collect(),
        move_priorities,
        attributes: l.attribute_names.into_iter().collect(),
        flags: l.flag_names.into_iter().collect(),
        turn_order,
        play: PlayRules {
            pass_partial: !of(Rule::pass_partial_decl).is_empty(),
            pass_turn,
            maximal_captures: !maximal.is_empty(),
            maximal_captures_prefer,
        },
        goals_count_hands: !of(Rule::goals_count_hands_decl).is_empty(),
        shared_pieces: !of(Rule::shared_pieces_decl).is_empty(),
        royal_check,
        must_capture: !of(Rule::must_capture_decl).is_empty(),
        king_takes_partner: !of(Rule::castling_notation_decl).is_empty(),
        teams,
        forbids,
        choices,
        display,
    };
    check_size(variant, &pieces, &squares_blocks, header_span)
}

/// The variant, unless its compiled tables would be too large, whatever the text asks for.
fn check_size(
    variant: Variant,
    pieces: &[Node],
    squares_blocks: &[Node],
    header_span: Range<usize>,
) -> Result<Variant, Vec<Diagnostic>> {
    let Err(too_much) = compile_work(&variant) else { return Ok(variant) };
    let (at, what) = match too_much {
        TooMuchWork::Piece(i) => (pieces.get(i).map(span), "the powers of this piece"),
        TooMuchWork::Squares => (squares_blocks.first().map(span), "the moves of squares"),
    };
    Err(vec![Diagnostic::new(
        format!(
            "the variant is too large to compile: its move tables would hold more than {MAX_COMPILE_WORK} ray cells"
        ),
        at.unwrap_or(header_span),
        format!("expected a smaller board or fewer powers: {what} bring the tables past the limit"),
    )])
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
    fn new() -> Lowerer {
        Lowerer {
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
        }
    }

    /// The one `board` block: its cells and directions (none after an error).
    fn board_block(&mut self, boards: &[Node], header_span: &Range<usize>) {
        match boards.len() {
            0 => self.errors.push(Diagnostic::new(
                "a variant needs a `board { ... }` block",
                header_span.clone(),
                "expected a `board { grid W x H }` in this variant",
            )),
            1 => self.board(boards[0].clone()),
            _ => self.errors.push(Diagnostic::new("a second `board` block", span(&boards[1]), "only one board block")),
        }
    }

    /// The `player` declarations, at least two.
    fn player_decls(&mut self, decls: &[Node], header_span: &Range<usize>) {
        for p in decls.iter().cloned() {
            self.player(p);
        }
        if self.players.len() < 2 {
            let (at, label) = match decls.last() {
                Some(p) => (span(p), "the only player: expected a second `player` declaration"),
                None => (header_span.clone(), "expected `player white` and `player black` in this variant"),
            };
            self.errors.push(Diagnostic::new(
                format!("a variant needs at least two `player` declarations, found {}", self.players.len()),
                at,
                label,
            ));
        }
    }

    /// Phase names, zones, move types, attributes and flags, then the pieces, then the phases'
    /// conditions: each part names only what an earlier part declared.
    fn names_and_pieces(&mut self, items: &[Node], phases: &[Node], zones: &[Node], pieces: &[Node]) {
        // Phase names first: zones name them in `in-phase` blocks.
        for p in phases {
            let name = p.clone().into_inner().nth(1).expect("phase name");
            if self.phases.insert(name.as_str().to_string(), None).is_some() {
                self.error(
                    &name,
                    format!("duplicate phase `{}`", name.as_str()),
                    "expected a name no other phase uses",
                );
            } else if self.phases.len() > 32 {
                self.error(&name, "too many phases", "expected at most 32 phases");
            }
        }
        for z in zones {
            self.zone(z.clone());
        }
        // Move types, attributes and flags get their ids in order of first appearance.
        self.register_names(items);
        for p in pieces {
            self.declare_piece(p.clone());
        }
        // Pieces past the limit of piece types were refused by `declare_piece`: no body to read.
        let declared = self.pieces.len();
        for (i, p) in pieces.iter().enumerate().take(declared) {
            self.piece_body(i, p.clone());
        }
        for p in phases {
            let cond = p.clone().into_inner().nth(3).expect("phase condition");
            let name = p.clone().into_inner().nth(1).expect("phase name").as_str().to_string();
            let c = self.position_condition(cond);
            self.phases.insert(name, c);
        }
    }

    /// The one `setup` block (an empty setup after an error).
    fn setup_block(
        &mut self,
        setups: &[Node],
        castlings: &[Castling],
        gates: &[Gate],
        header_span: &Range<usize>,
    ) -> Setup {
        if setups.len() == 1 {
            return self.setup(setups[0].clone(), castlings, gates, &[]);
        }
        if let Some(second) = setups.get(1) {
            self.error(second, "a second `setup` block", "only one setup block");
        } else {
            self.errors.push(Diagnostic::new(
                "a variant needs a `setup { ... }` block",
                header_span.clone(),
                "expected a `setup { white: ... black: ... }` in this variant",
            ));
        }
        Setup {
            placements: Vec::new(),
            castling_rights: Vec::new(),
            square_owners: Vec::new(),
            hands: Vec::new(),
            shuffles: Vec::new(),
        }
    }

    /// The first of blocks of which a file may have one (`squares`, `turn`, `end`); a second is
    /// an error.
    fn one_block<'a>(&mut self, blocks: &[Node<'a>], word: &str) -> Option<Node<'a>> {
        if let Some(second) = blocks.get(1) {
            self.error(second, format!("a second `{word}` block"), format!("expected one `{word}` block"));
        }
        blocks.first().cloned()
    }

    /// What a `squares` block asks of the rest: owned squares under each starting army (two
    /// players, no piece marked `+`), and no `between` locations.
    fn check_squares(&mut self, at: &Range<usize>, sq: &SquareRules, setup: &mut Setup) {
        if sq.owned {
            // Each player owns the squares under their starting army.
            setup.square_owners =
                setup.placements.iter().filter_map(|(c, stack)| stack.first().map(|(p, _)| (*c, *p))).collect();
            if self.players.len() != 2 {
                self.errors.push(Diagnostic::new(
                    "owned squares need exactly two players",
                    at.clone(),
                    "position strings mark the squares of the first and second player with `+` and `-`",
                ));
            }
            if let Some(p) = self.pieces.iter().find(|p| p.mark == Some('+')) {
                self.errors.push(Diagnostic::new(
                    format!("the piece `{}` is marked `+`, as are owned empty squares", p.name),
                    at.clone(),
                    "position strings mark an owned empty square with `+`: mark the piece `X~` instead",
                ));
            }
        }
        if self.between_at.is_some() {
            self.errors.push(Diagnostic::new(
                "a `squares` block and `between` locations do not go together: a piece between cells \
                 stands on several squares at once, so which square would carry it, or be left \
                 behind, has no meaning",
                at.clone(),
                "remove the `squares` block, or the board's `between`",
            ));
        }
    }

    /// `shared-pieces` with a royal piece is an error.
    fn check_shared_pieces(&mut self, decl: &Node) {
        if self.pieces.iter().any(|p| p.royal) {
            // Checks are found from the pieces each player owns; with shared pieces every player
            // moves every piece, so a royal piece's safety would be misjudged.
            self.error(
                decl,
                "`shared-pieces` and royal pieces do not go together",
                "expected no royal piece in a game of shared pieces",
            );
        }
    }

    /// `royal-check any|all|last`: when a player with several royal pieces is in check (one
    /// declaration at most).
    fn royal_check(&mut self, decls: &[Node]) -> RoyalCheck {
        if let Some(second) = decls.get(1) {
            self.error(second, "a second `royal-check` line", "expected one `royal-check` line");
        }
        let Some(decl) = decls.first() else { return RoyalCheck::Any };
        match decl.clone().into_inner().nth(1).map(|p| p.as_str()) {
            Some("all") => RoyalCheck::All,
            Some("last") => RoyalCheck::Last,
            _ => RoyalCheck::Any,
        }
    }

    /// Stacks (zone occupancy rules) go with neither `between` locations nor attributes.
    fn check_stacks(&mut self, header_span: &Range<usize>) {
        let stacks = self.zones.values().any(|z| z.occupancy.is_some());
        if let (Some(at), true) = (self.between_at.clone(), stacks) {
            self.errors.push(Diagnostic::new(
                "`between` locations and zone occupancy rules (stacks) do not go together: a piece \
                 between cells fills each cell it covers whole, so no other piece can share those \
                 cells as a stack's pieces do",
                at,
                "remove `between` or the zones' occupancy rules",
            ));
        }
        // Attributes belong to the piece on a cell; on a stack cell several pieces would share them.
        let attributes_used = self.pieces.iter().any(|p| !p.attributes.is_empty())
            || self.pieces.iter().flat_map(|p| p.programs.iter().chain(&p.drops)).any(program_sets_attribute);
        if attributes_used && stacks {
            self.errors.push(Diagnostic::new(
                "piece attributes and zone occupancy rules (stacks) do not go together: an attribute \
                 is kept per cell, and the pieces of a stack share their cell",
                header_span.clone(),
                "remove the attributes, or the zones' occupancy rules",
            ));
        }
    }

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

    /// The `pgn-variant` line (one at most): what PGN's `Variant` tag says for the game.
    fn pgn_variant(&mut self, decls: &[Node]) -> PgnVariant {
        if let Some(second) = decls.get(1) {
            self.error(second, "a second `pgn-variant` line", "expected one `pgn-variant` line");
        }
        let Some(value) = decls.first().and_then(|d| d.clone().into_inner().nth(1)) else {
            return PgnVariant::Title;
        };
        if value.as_rule() == Rule::k_standard {
            return PgnVariant::Standard;
        }
        let name = string_value(&value);
        if name.trim().is_empty() {
            self.error(
                &value,
                "an empty `pgn-variant` name",
                "expected `standard` or the name PGN's `Variant` tag gives",
            );
        }
        PgnVariant::Named(name)
    }

    fn error(&mut self, at: &Node, message: impl Into<String>, label: impl Into<String>) {
        self.errors.push(Diagnostic::new(message, span(at), label));
    }
}
