//! The features of a variant that some fast path cannot assume, read from every field of the IR.

use crate::ir::{
    AddKind, Board, Cell, Condition, EndRules, GoalTest, Instr, PieceType, PlayRules, Program, SquareRules, Turn,
    TurnAction, Untouchable, Variant, Zone,
};

/// What a variant uses that some fast path cannot assume: read from the IR and from facts the
/// compiled tables find (a hop, a conditional capture, what programs read), grouped by concern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// The board.
    pub board: BoardFeatures,
    /// Squares and walls.
    pub squares: SquareFeatures,
    /// The turn.
    pub turn: TurnFeatures,
    /// What pieces do besides moving.
    pub pieces: PieceFeatures,
    /// Who plays.
    pub players: PlayerFeatures,
    /// What the programs do and read.
    pub programs: ProgramFeatures,
    /// The end of the game.
    pub end: EndFeatures,
}

/// The board: its cells, directions and stacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardFeatures {
    /// A zone has occupancy rules: cells hold stacks.
    pub stacks: bool,
    /// Locations stand between cells (a piece there covers several).
    pub between: bool,
    /// A direction leads from a cell to several cells.
    pub branching: bool,
    /// More than 128 locations (past the bit sets).
    pub big_board: bool,
}

/// Squares as game objects, and walls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareFeatures {
    /// Squares are game objects, or a turn has several actions.
    pub square_play: bool,
    /// Squares a piece leaves may vanish.
    pub vacates: bool,
    /// Walls: placed with each piece move, or left by pieces that turn to stone.
    pub walls: bool,
    /// Placed squares become untouchable for the next player.
    pub touched_squares: bool,
}

/// The turn: its order, its parts, its phases, and which moves it allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnFeatures {
    /// A turn order other than each player once.
    pub turn_order: bool,
    /// Move priorities.
    pub priorities: bool,
    /// A player may pass.
    pub pass_turn: bool,
    /// A move program continues in the same turn (`add-partial`).
    pub partial_moves: bool,
    /// Only the turns taking the most pieces are legal.
    pub maximal_captures: bool,
    /// A player who can capture must capture.
    pub must_capture: bool,
    /// Phases.
    pub phases: bool,
    /// A phase changes some cells' occupancy rules.
    pub occupancy_phases: bool,
    /// More than four such phases (past the stacked count's tables).
    pub many_occupancy_phases: bool,
    /// A phase that is not an occupancy phase begun only by the count of pieces.
    pub phases_beyond_captures: bool,
}

/// What the pieces do besides moving: attributes, hands, explosions, gates, castling, apartness, check rules, royalty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceFeatures {
    /// Pieces carry attributes.
    pub attributes: bool,
    /// Captured pieces go to the capturer's hand.
    pub to_hand: bool,
    /// Captures explode.
    pub explosions: bool,
    /// Gating rights.
    pub gates: bool,
    /// A castling takes its start cells from the position (`castle ... from CELLS`).
    pub castling_from_position: bool,
    /// A drop may give a castling right (`castle ... gained-by-drop`).
    pub castling_by_drop: bool,
    /// Pieces kept apart.
    pub keep_apart: bool,
    /// A piece kept apart is not royal.
    pub keep_apart_not_royal: bool,
    /// Some action may not give check.
    pub no_check: bool,
    /// A piece moves only to take the one checker while its player is in check.
    pub held_by_check: bool,
    /// No piece type is royal.
    pub no_royal: bool,
    /// A power's `if in-check`: the generator reads whether its player is in check.
    pub check_conditions: bool,
    /// A power's `if on-right`: the generator reads the gate rights held.
    pub right_conditions: bool,
    /// A gate's right is also lost to an enemy piece aiming at its cells (`aimed-by`).
    pub aimed_gates: bool,
}

/// Who plays: shared pieces, teams, the number of players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerFeatures {
    /// Every player moves every piece.
    pub shared_pieces: bool,
    /// Teams.
    pub teams: bool,
    /// More than two players (a loser is put out).
    pub more_players: bool,
    /// One player.
    pub one_player: bool,
}

/// What the move programs do and read, as the compiled tables find it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgramFeatures {
    /// The program layer is built: programs, drops, hands, goals, turn orders, priorities or
    /// attributes.
    pub program_layer: bool,
    /// A program or drop may capture (attacks need more than the probes).
    pub program_captures: bool,
    /// A capturing program reads more of the position than cells and the last move.
    pub attacks_read_position: bool,
    /// A capturing program reads the last move.
    pub attacks_read_history: bool,
    /// A hop, a lame leap or a conditional capture: attacks the probes do not hold.
    pub slow_attacks: bool,
}

/// The end of the game and what its tests read: forbids, goals, counting, the rule of check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndFeatures {
    /// `forbid` tests.
    pub forbids: bool,
    /// `before(...)` tests in goals or forbids.
    pub before_tests: bool,
    /// Counting rules.
    pub counting: bool,
    /// A goal counts checks.
    pub checks_given: bool,
    /// Check is not "any royal piece attacked" (`royal-check all|last`).
    pub royal_check: bool,
    /// A goal asks whether a piece is attacked (`safe-config`).
    pub attack_goals: bool,
    /// A goal asks for the legal moves (`can-reach`).
    pub move_goals: bool,
    /// A goal reads the moves that led to the position (`shuttled N`).
    pub shuttle_goals: bool,
    /// A goal, count or forbid asks whether the player is in check and from which pieces
    /// (`in-check`, `checked-by(...)`).
    pub check_goals: bool,
    /// `streak(...)` tests over the positions where a player was to move.
    pub streak_tests: bool,
}

impl Features {
    /// The features of a variant found in its IR alone (the table facts left unset).
    pub fn of(v: &Variant) -> Features {
        let Variant {
            title: _,
            pgn_variant: _,
            board,
            players,
            zones,
            pieces,
            castlings,
            gates,
            phases,
            turn,
            squares,
            walls,
            setup,
            end,
            move_types: _,
            move_priorities,
            attributes,
            flags: _,
            turn_order,
            play: PlayRules { pass_partial: _, pass_turn, maximal_captures, maximal_captures_prefer: _ },
            king_takes_partner: _,
            goals_count_hands: _,
            shared_pieces,
            royal_check,
            must_capture,
            teams,
            forbids,
            choices: _,
            display: _,
        } = v;
        let mut f = Features {
            squares: SquareFeatures { walls: walls.is_some(), ..SquareFeatures::default() },
            turn: TurnFeatures {
                turn_order: turn_order.is_some(),
                priorities: !move_priorities.is_empty(),
                pass_turn: *pass_turn != crate::ir::PassTurn::Never,
                maximal_captures: *maximal_captures,
                must_capture: *must_capture,
                phases: !phases.is_empty(),
                ..TurnFeatures::default()
            },
            pieces: PieceFeatures {
                gates: !gates.is_empty(),
                aimed_gates: gates.iter().any(|g| !g.aimed_by.is_empty()),
                castling_from_position: castlings.iter().any(|c| c.free.is_some()),
                castling_by_drop: castlings.iter().any(|c| c.gained_by_drop.is_some()),
                attributes: !attributes.is_empty(),
                ..PieceFeatures::default()
            },
            players: PlayerFeatures {
                shared_pieces: *shared_pieces,
                teams: !teams.is_empty(),
                more_players: players.len() > 2,
                one_player: players.len() < 2,
            },
            end: EndFeatures {
                forbids: !forbids.is_empty(),
                royal_check: *royal_check != crate::ir::RoyalCheck::Any,
                ..EndFeatures::default()
            },
            ..Features::default()
        };
        board_features(board, &mut f);
        zone_features(zones, phases.len(), &mut f);
        turn_features(turn, squares.as_ref(), &mut f);
        end_features(end, &mut f);
        f.pieces.no_royal = true;
        for p in pieces {
            piece_features(p, &mut f);
        }
        f.programs.program_layer |=
            !setup.hands.is_empty() || !end.goals.is_empty() || f.turn.turn_order || f.turn.priorities;
        f.programs.program_layer |= f.pieces.attributes;
        let history_tests = v.before_tests();
        f.end.before_tests = history_tests.iter().any(|(_, t)| !matches!(t, GoalTest::Streak(..)));
        f.end.streak_tests = history_tests.iter().any(|(_, t)| matches!(t, GoalTest::Streak(..)));
        let counted = end.counting.iter().map(|c| &c.test);
        f.end.check_goals = end.goals.iter().map(|g| &g.test).chain(counted).chain(forbids).any(GoalTest::reads_checks);
        f
    }
}

fn board_features(board: &Board, f: &mut Features) {
    let Board { cells, directions: _, direction_sets: _, links, initially_empty_locations: _ } = board;
    f.board.big_board = cells.len() > 128;
    for c in cells {
        let Cell { name: _, x: _, y: _, layer: _, covers, also_at: _ } = c;
        f.board.between |= !covers.is_empty();
    }
    let mut seen = std::collections::HashSet::new();
    for l in links {
        f.board.branching |= !seen.insert((l.from, l.dir));
    }
}

fn zone_features(zones: &[Zone], phases: usize, f: &mut Features) {
    let mut occupancy_phases = 0u64;
    for z in zones {
        let Zone { name: _, cells: _, occupancy, phase_occupancy } = z;
        f.board.stacks |= occupancy.is_some();
        for (p, _) in phase_occupancy {
            occupancy_phases |= 1 << (p.0 % 64);
        }
    }
    f.turn.occupancy_phases = occupancy_phases != 0;
    f.turn.many_occupancy_phases = occupancy_phases.count_ones() > 4;
    // Phases that are not occupancy phases (the table fact of how they begin is added later).
    f.turn.phases_beyond_captures = (occupancy_phases.count_ones() as usize) < phases;
}

fn turn_features(turn: &Turn, squares: Option<&SquareRules>, f: &mut Features) {
    let Turn { actions } = turn;
    f.squares.square_play = squares.is_some()
        || actions.len() > 1
        || actions.iter().any(|a| {
            let TurnAction { kinds, optional, skip_if_none: _ } = a;
            *optional || kinds.iter().any(|k| *k != crate::ir::ActionKind::MovePiece)
        });
    if let Some(sq) = squares {
        let SquareRules {
            owned: _,
            reserve: _,
            moves: _,
            carries: _,
            carry_royal: _,
            place_zone: _,
            untouchable,
            vacate,
        } = sq;
        f.squares.vacates = vacate.is_some();
        f.squares.touched_squares = *untouchable == Untouchable::Touched;
    }
}

fn end_features(end: &EndRules, f: &mut Features) {
    let EndRules {
        checkmate: _,
        stalemate: _,
        stalemate_for: _,
        bare_king: _,
        move_rule: _,
        move_rule_player: _,
        repetition: _,
        repetition_player: _,
        perpetual_check: _,
        goals,
        points_bonus: _,
        counting,
    } = end;
    f.end.counting = !counting.is_empty();
    f.end.checks_given = goals.iter().any(|g| g.test.checks_asked().is_some());
    f.end.attack_goals = goals.iter().any(|g| g.test.reads_attacks());
    f.end.move_goals = goals.iter().any(|g| g.test.reads_moves());
    f.end.shuttle_goals = goals.iter().any(|g| g.test.reads_shuttles());
}

fn piece_features(p: &PieceType, f: &mut Features) {
    let PieceType {
        name: _,
        letter: _,
        mark: _,
        royal,
        value: _,
        san_without_letter: _,
        resets_move_clock: _,
        no_drop_checkmate: _,
        no_check,
        moves,
        promotion: _,
        more_promotions: _,
        keep_apart,
        programs,
        drops,
        drop_supply: _,
        attributes,
        to_hand,
        explodes,
        blast_proof: _,
        held_by_check,
        points: _,
    } = p;
    let reads =
        |pred: fn(&Condition) -> bool| moves.iter().any(|m| m.conditions.iter().any(|c| reads_condition(c, pred)));
    f.pieces.check_conditions |= reads(|c| matches!(c, Condition::InCheck));
    f.pieces.right_conditions |= reads(|c| matches!(c, Condition::OnRight));
    f.pieces.no_royal &= !*royal;
    f.pieces.no_check |= *no_check != 0;
    f.pieces.held_by_check |= *held_by_check;
    f.pieces.keep_apart |= keep_apart.is_some();
    f.pieces.keep_apart_not_royal |= keep_apart.is_some() && !*royal;
    f.pieces.to_hand |= to_hand.is_some();
    f.pieces.explosions |= explodes.is_some();
    f.programs.program_layer |=
        !programs.is_empty() || !drops.is_empty() || !attributes.is_empty() || to_hand.is_some();
    f.turn.partial_moves |= programs.iter().chain(drops).any(has_partial_add);
}

/// Whether a condition, or the one it negates, is one `pred` picks.
fn reads_condition(c: &Condition, pred: fn(&Condition) -> bool) -> bool {
    match c {
        Condition::Not(inner) => reads_condition(inner, pred),
        c => pred(c),
    }
}

/// Whether a program may emit a move after which its piece goes on in the same turn.
fn has_partial_add(p: &Program) -> bool {
    fn any(body: &[Instr]) -> bool {
        body.iter().any(|i| match i {
            Instr::Add { kind, .. } => matches!(kind, AddKind::Partial | AddKind::CopyPartial),
            Instr::If(_, a, b) => any(a) || any(b),
            Instr::While(_, a) => any(a),
            _ => false,
        })
    }
    any(&p.body)
}
