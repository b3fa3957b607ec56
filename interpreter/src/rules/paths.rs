//! Which fast paths the compiled rules allow: derived once, in one place, from every feature of the variant.
//!
//! Every fast path gives the same answer as the plain reference (`reference.rs`) under some
//! assumptions about the rules. [`Features::of`] reads every field of the IR (written out with
//! no `..`, so a new field does not compile until it is weighed here), and [`Paths::derive`]
//! says which features switch off which paths (again with no `..`: a new feature does not
//! compile until its author says which paths it turns off). The call sites only ask
//! [`Paths::allows`] and the state of the position (a partial move under way, a check).

use crate::ir::{
    AddKind, Board, Cell, EndRules, Instr, PieceType, Program, SquareRules, Turn, TurnAction, Untouchable, Variant,
    Zone,
};

/// A fast path of move generation, legality, counting or making a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Programs shaped like atoms (a plain step, slide, leap) run from the move tables.
    Atoms,
    /// Moves by powers and castlings are made by the plain make (no change log).
    PlainMake,
    /// Attacks are told by the reverse probes of the tables alone.
    ProbeAttacks,
    /// Slow pieces' attacks are found from an index of their entries by target cell.
    SlowReach,
    /// A royal's safety after a move is judged with the move tried in the cell array.
    LightTrial,
    /// On a board of stacks, a move off the stack cells is tried in the cell array.
    StackTrial,
    /// The search tries a plain move in the cell array to ask whether it checks, and plays out
    /// exchanges there.
    CellTrial,
    /// Pins to a single royal are found once; a plain move of an unpinned piece needs no test.
    PinShortcut,
    /// A drop onto an empty cell while no royal is attacked needs no test.
    DropShortcut,
    /// In check, moves that neither capture the checker nor block the line need no trial.
    Evasions,
    /// In check, pieces whose mask targets miss the check's line are not generated.
    EvasionMasks,
    /// Quiescence keeps only captures and promotions before testing legality.
    NoisyFirst,
    /// The generator skips the moves to empty cells that can be neither captures nor
    /// promotions.
    NoisyGeneration,
    /// Moves are made from the ray masks for pieces neither pinned nor near en passant.
    MaskMoves,
    /// The last ply's legal moves are counted by rays and masks without making a list.
    Count,
    /// The count on a board of stacks, with the cells' occupancy rules read into masks.
    StackedCount,
    /// Square actions off the lines that could open to a royal need no trial.
    SquareOpenings,
    /// The last ply counted without listing the moves (the count, or testing one by one).
    BulkCount,
    /// The search finds the attackers of a cell from the probes (static exchange).
    ProbeAttackers,
    /// The search asks whether a quiet move checks by trying it in the cell array.
    CheckTrial,
    /// On stacks, check and pins read off the stack cells as lines of single pieces.
    StackLines,
    /// The royal's targets come from the masks, each tried in the cell array (the count, the mask moves).
    RoyalTargets,
    /// Attacks after a move tried in the cell array are read from the threat tables.
    ThreatTrial,
    /// Move and drop programs run only from the cells where the board lets them emit a move.
    StartCells,
    /// A move program's step to a neighbour that only tests it and steps back is read as tests of the neighbour.
    NeighbourTests,
}

impl Path {
    /// Every path, in the order of the docs' table.
    pub const ALL: [Path; 25] = [
        Path::Atoms,
        Path::PlainMake,
        Path::ProbeAttacks,
        Path::SlowReach,
        Path::LightTrial,
        Path::StackTrial,
        Path::CellTrial,
        Path::PinShortcut,
        Path::DropShortcut,
        Path::Evasions,
        Path::EvasionMasks,
        Path::NoisyFirst,
        Path::NoisyGeneration,
        Path::MaskMoves,
        Path::Count,
        Path::StackedCount,
        Path::SquareOpenings,
        Path::BulkCount,
        Path::ProbeAttackers,
        Path::CheckTrial,
        Path::StackLines,
        Path::RoyalTargets,
        Path::ThreatTrial,
        Path::StartCells,
        Path::NeighbourTests,
    ];

    /// What the path does, in a sentence (its doc comment).
    pub fn what(self) -> &'static str {
        match self {
            Path::Atoms => "Programs shaped like atoms (a plain step, slide, leap) run from the move tables.",
            Path::PlainMake => "Moves by powers and castlings are made by the plain make (no change log).",
            Path::ProbeAttacks => "Attacks are told by the reverse probes of the tables alone.",
            Path::SlowReach => "Slow pieces' attacks are found from an index of their entries by target cell.",
            Path::LightTrial => "A royal's safety after a move is judged with the move tried in the cell array.",
            Path::StackTrial => "On a board of stacks, a move off the stack cells is tried in the cell array.",
            Path::CellTrial => "The search tries a plain move in the cell array to ask whether it checks, and plays out exchanges there.",
            Path::PinShortcut => "Pins to a single royal are found once; a plain move of an unpinned piece needs no test.",
            Path::DropShortcut => "A drop onto an empty cell while no royal is attacked needs no test.",
            Path::Evasions => "In check, moves that neither capture the checker nor block the line need no trial.",
            Path::EvasionMasks => "In check, pieces whose mask targets miss the check's line are not generated.",
            Path::NoisyFirst => "Quiescence keeps only captures and promotions before testing legality.",
            Path::NoisyGeneration => "The generator skips the moves to empty cells that can be neither captures nor promotions.",
            Path::MaskMoves => "Moves are made from the ray masks for pieces neither pinned nor near en passant.",
            Path::Count => "The last ply's legal moves are counted by rays and masks without making a list.",
            Path::StackedCount => "The count on a board of stacks, with the cells' occupancy rules read into masks.",
            Path::SquareOpenings => "Square actions off the lines that could open to a royal need no trial.",
            Path::BulkCount => "The last ply counted without listing the moves (the count, or testing one by one).",
            Path::ProbeAttackers => "The search finds the attackers of a cell from the probes (static exchange).",
            Path::CheckTrial => "The search asks whether a quiet move checks by trying it in the cell array.",
            Path::StackLines => "On stacks, check and pins read off the stack cells as lines of single pieces.",
            Path::RoyalTargets => "The royal's targets come from the masks, each tried in the cell array (the count, the mask moves).",
            Path::ThreatTrial => "Attacks after a move tried in the cell array are read from the threat tables.",
            Path::StartCells => "Move and drop programs run only from the cells where the board lets them emit a move.",
            Path::NeighbourTests => {
                "A move program's step to a neighbour that only tests it and steps back is read as tests of the neighbour."
            }
        }
    }

    fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// The set of fast paths a variant's compiled rules allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paths {
    bits: u32,
    /// Check is decided by generating every reply and making it (the plain reference).
    generated_checks: bool,
}

impl Default for Paths {
    fn default() -> Paths {
        Paths::NONE
    }
}

/// What a variant uses that some fast path cannot assume: read from the IR and from facts the
/// compiled tables find (a hop, a conditional capture, what programs read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// A zone has occupancy rules: cells hold stacks.
    pub stacks: bool,
    /// Locations stand between cells (a piece there covers several).
    pub between: bool,
    /// A direction leads from a cell to several cells.
    pub branching: bool,
    /// More than 128 locations (past the bit sets).
    pub big_board: bool,
    /// Squares are game objects, or a turn has several actions.
    pub square_play: bool,
    /// Squares a piece leaves may vanish.
    pub vacates: bool,
    /// Walls: placed with each piece move, or left by pieces that turn to stone.
    pub walls: bool,
    /// Placed squares become untouchable for the next player.
    pub touched_squares: bool,
    /// Pieces carry attributes.
    pub attributes: bool,
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
    /// Captured pieces go to the capturer's hand.
    pub to_hand: bool,
    /// Captures explode.
    pub explosions: bool,
    /// Gating rights.
    pub gates: bool,
    /// A castling takes its start cells from the position (`castle ... from CELLS`).
    pub castling_from_position: bool,
    /// Phases.
    pub phases: bool,
    /// A phase changes some cells' occupancy rules.
    pub occupancy_phases: bool,
    /// More than four such phases (past the stacked count's tables).
    pub many_occupancy_phases: bool,
    /// A phase that is not an occupancy phase begun only by the count of pieces.
    pub phases_beyond_captures: bool,
    /// Pieces kept apart.
    pub keep_apart: bool,
    /// A piece kept apart is not royal.
    pub keep_apart_not_royal: bool,
    /// Some action may not give check.
    pub no_check: bool,
    /// A piece moves only to take the one checker while its player is in check.
    pub held_by_check: bool,
    /// `forbid` tests.
    pub forbids: bool,
    /// Every player moves every piece.
    pub shared_pieces: bool,
    /// Teams.
    pub teams: bool,
    /// More than two players (a loser is put out).
    pub more_players: bool,
    /// One player.
    pub one_player: bool,
    /// No piece type is royal.
    pub no_royal: bool,
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
    /// `before(...)` tests in goals or forbids.
    pub before_tests: bool,
    /// Counting rules.
    pub counting: bool,
    /// A goal counts checks.
    pub checks_given: bool,
    /// Check is not "any royal piece attacked" (`royal-check all|last`).
    pub royal_check: bool,
    /// A player who can capture must capture.
    pub must_capture: bool,
    /// A goal asks whether a piece is attacked (`safe-config`).
    pub attack_goals: bool,
    /// A goal asks for the legal moves (`can-reach`).
    pub move_goals: bool,
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
            pass_partial: _,
            pass_turn,
            maximal_captures,
            maximal_captures_prefer: _,
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
            gates: !gates.is_empty(),
            castling_from_position: castlings.iter().any(|c| c.free.is_some()),
            turn_order: turn_order.is_some(),
            priorities: !move_priorities.is_empty(),
            pass_turn: *pass_turn != crate::ir::PassTurn::Never,
            maximal_captures: *maximal_captures,
            shared_pieces: *shared_pieces,
            teams: !teams.is_empty(),
            forbids: !forbids.is_empty(),
            more_players: players.len() > 2,
            one_player: players.len() < 2,
            attributes: !attributes.is_empty(),
            phases: !phases.is_empty(),
            royal_check: *royal_check != crate::ir::RoyalCheck::Any,
            must_capture: *must_capture,
            walls: walls.is_some(),
            ..Features::default()
        };
        board_features(board, &mut f);
        zone_features(zones, phases.len(), &mut f);
        turn_features(turn, squares.as_ref(), &mut f);
        end_features(end, &mut f);
        f.no_royal = true;
        for p in pieces {
            piece_features(p, &mut f);
        }
        f.program_layer |= !setup.hands.is_empty() || !end.goals.is_empty() || f.turn_order || f.priorities;
        f.program_layer |= f.attributes;
        f.before_tests = !v.before_tests().is_empty();
        f
    }
}

fn board_features(board: &Board, f: &mut Features) {
    let Board { cells, directions: _, direction_sets: _, links, initially_empty_locations: _ } = board;
    f.big_board = cells.len() > 128;
    for c in cells {
        let Cell { name: _, x: _, y: _, layer: _, covers, also_at: _ } = c;
        f.between |= !covers.is_empty();
    }
    let mut seen = std::collections::HashSet::new();
    for l in links {
        f.branching |= !seen.insert((l.from, l.dir));
    }
}

fn zone_features(zones: &[Zone], phases: usize, f: &mut Features) {
    let mut occupancy_phases = 0u64;
    for z in zones {
        let Zone { name: _, cells: _, occupancy, phase_occupancy } = z;
        f.stacks |= occupancy.is_some();
        for (p, _) in phase_occupancy {
            occupancy_phases |= 1 << (p.0 % 64);
        }
    }
    f.occupancy_phases = occupancy_phases != 0;
    f.many_occupancy_phases = occupancy_phases.count_ones() > 4;
    // Phases that are not occupancy phases (the table fact of how they begin is added later).
    f.phases_beyond_captures = (occupancy_phases.count_ones() as usize) < phases;
}

fn turn_features(turn: &Turn, squares: Option<&SquareRules>, f: &mut Features) {
    let Turn { actions } = turn;
    f.square_play = squares.is_some()
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
        f.vacates = vacate.is_some();
        f.touched_squares = *untouchable == Untouchable::Touched;
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
    f.counting = !counting.is_empty();
    f.checks_given = goals.iter().any(|g| g.test.checks_asked().is_some());
    f.attack_goals = goals.iter().any(|g| g.test.reads_attacks());
    f.move_goals = goals.iter().any(|g| g.test.reads_moves());
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
        moves: _,
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
    f.no_royal &= !*royal;
    f.no_check |= *no_check != 0;
    f.held_by_check |= *held_by_check;
    f.keep_apart |= keep_apart.is_some();
    f.keep_apart_not_royal |= keep_apart.is_some() && !*royal;
    f.to_hand |= to_hand.is_some();
    f.explosions |= explodes.is_some();
    f.program_layer |= !programs.is_empty() || !drops.is_empty() || !attributes.is_empty() || to_hand.is_some();
    f.partial_moves |= programs.iter().chain(drops).any(has_partial_add);
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

impl Paths {
    /// No fast path: the plain reference, whose checks are found by generating every reply.
    pub const NONE: Paths = Paths { bits: 0, generated_checks: true };

    /// Whether the path may be taken.
    #[inline(always)]
    pub fn allows(&self, path: Path) -> bool {
        self.bits & path.bit() != 0
    }

    /// Whether check is decided by generating and making every reply (the reference).
    #[inline(always)]
    pub fn generated_checks(&self) -> bool {
        self.generated_checks
    }

    /// The paths allowed, in [`Path::ALL`]'s order.
    pub fn allowed(&self) -> impl Iterator<Item = Path> + '_ {
        Path::ALL.into_iter().filter(|p| self.allows(*p))
    }

    fn off(&mut self, paths: &[Path]) {
        for p in paths {
            self.bits &= !p.bit();
        }
    }

    fn requires(&mut self, path: Path, needed: &[Path]) {
        if needed.iter().any(|n| !self.allows(*n)) {
            self.off(&[path]);
        }
    }

    /// The fast paths a variant with these features may take: each feature switches off the
    /// paths that cannot assume it away, then the paths built on others follow them.
    pub fn derive(f: &Features) -> Paths {
        Paths::derive_without(f, &[])
    }

    /// [`Paths::derive`] with some paths switched off besides (to measure what a path gains,
    /// or to look for a fault in one).
    pub fn derive_without(f: &Features, without: &[Path]) -> Paths {
        use Path::*;
        let mut p = Paths { bits: Path::ALL.iter().fold(0, |m, x| m | x.bit()), generated_checks: false };
        p.off(without);
        for (_, present, off) in feature_rules(f) {
            if present {
                p.off(off);
            }
        }
        // Paths that exist only where a feature does.
        if !f.stacks {
            p.off(&[StackTrial, StackedCount, StackLines]);
        }
        if !f.slow_attacks {
            p.off(&[SlowReach]);
        }
        // Paths built on others, in an order where each comes after what it is built on.
        for (path, on) in BUILT_ON {
            p.requires(path, on);
        }
        p
    }

    /// The derivation as Markdown, for docs/architecture.md (a test keeps the two the same):
    /// each path with what it is built on, then each feature with the paths it switches off.
    pub fn markdown() -> String {
        let names = |ps: &[Path]| ps.iter().map(|p| format!("`{p:?}`")).collect::<Vec<_>>().join(", ");
        let mut out = String::from("| path | what it does | built on | only with |\n| --- | --- | --- | --- |\n");
        for path in Path::ALL {
            let on = BUILT_ON.iter().find(|(p, _)| *p == path).map_or(String::new(), |(_, on)| names(on));
            let only = match path {
                Path::StackTrial | Path::StackedCount | Path::StackLines => "`stacks`",
                Path::SlowReach => "`slow_attacks`",
                _ => "",
            };
            out.push_str(&format!("| `{path:?}` | {} | {on} | {only} |\n", path.what()));
        }
        out.push_str("\n| feature | switches off |\n| --- | --- |\n");
        for (name, _, off) in feature_rules(&Features::default()) {
            out.push_str(&format!("| `{name}` | {} |\n", names(off)));
        }
        out
    }
}

/// The paths built on others (each listed after those it is built on): where one of those is
/// off, so is it.
const BUILT_ON: [(Path, &[Path]); 12] = [
    (Path::CellTrial, &[Path::PlainMake, Path::ProbeAttacks]),
    (Path::Count, &[Path::PinShortcut, Path::LightTrial]),
    (Path::StackedCount, &[Path::PinShortcut]),
    (Path::MaskMoves, &[Path::Count]),
    (Path::EvasionMasks, &[Path::Count]),
    (Path::Evasions, &[Path::ProbeAttacks, Path::PinShortcut, Path::LightTrial]),
    (Path::SquareOpenings, &[Path::ProbeAttacks, Path::LightTrial]),
    (Path::ProbeAttackers, &[Path::ProbeAttacks]),
    (Path::CheckTrial, &[Path::CellTrial, Path::Count]),
    (Path::StackLines, &[Path::StackedCount]),
    (Path::RoyalTargets, &[Path::Count]),
    (Path::ThreatTrial, &[Path::ProbeAttacks]),
];

/// Each feature (by its field's name), whether `f` has it, and the paths that cannot take it
/// into account (read as one table by [`Paths::table`]).
fn feature_rules(f: &Features) -> [(&'static str, bool, &'static [Path]); 44] {
    use Path::*;
    let Features {
        stacks,
        between,
        branching,
        big_board,
        square_play,
        vacates,
        walls,
        touched_squares,
        attributes,
        turn_order,
        priorities,
        pass_turn,
        partial_moves,
        maximal_captures,
        to_hand,
        explosions,
        gates,
        castling_from_position,
        phases,
        occupancy_phases,
        many_occupancy_phases,
        phases_beyond_captures,
        keep_apart,
        keep_apart_not_royal,
        no_check,
        held_by_check,
        forbids,
        shared_pieces,
        teams,
        more_players,
        one_player,
        no_royal,
        program_layer,
        program_captures,
        attacks_read_position,
        attacks_read_history,
        slow_attacks,
        before_tests,
        counting,
        checks_given,
        royal_check,
        must_capture,
        attack_goals,
        move_goals,
    } = *f;
    [
        (
            "stacks",
            stacks,
            &[
                Atoms,
                PlainMake,
                ProbeAttacks,
                SlowReach,
                LightTrial,
                Count,
                DropShortcut,
                NoisyGeneration,
                EvasionMasks,
            ],
        ),
        // A piece between cells runs its programs from the cells it covers, but its `from` is
        // where it stands: the start cells, found from the covered cell, would not hold.
        (
            "between",
            between,
            &[
                StartCells,
                Atoms,
                CellTrial,
                Evasions,
                EvasionMasks,
                NoisyGeneration,
                SlowReach,
                StackTrial,
                StackedCount,
                MaskMoves,
                SquareOpenings,
                ProbeAttackers,
                ThreatTrial,
            ],
        ),
        ("branching", branching, &[Atoms]),
        ("big_board", big_board, &[StackedCount]),
        ("square_play", square_play, &[PlainMake, Evasions, NoisyFirst]),
        ("vacates", vacates, &[CellTrial, Evasions, RoyalTargets]),
        // A move's wall may block a line, and a stone leaves its cell: every move is made
        // (walls added) and judged by the plain reference.
        (
            "walls",
            walls,
            &[
                PlainMake,
                LightTrial,
                StackTrial,
                CellTrial,
                PinShortcut,
                DropShortcut,
                Evasions,
                EvasionMasks,
                NoisyGeneration,
                MaskMoves,
                Count,
                StackedCount,
                SquareOpenings,
                BulkCount,
                CheckTrial,
                RoyalTargets,
                ThreatTrial,
            ],
        ),
        ("touched_squares", touched_squares, &[]),
        ("attributes", attributes, &[PlainMake]),
        ("turn_order", turn_order, &[PlainMake, Count, StackedCount, BulkCount]),
        ("priorities", priorities, &[Count, StackedCount, BulkCount, NoisyFirst]),
        ("pass_turn", pass_turn, &[BulkCount]),
        // A move made partway through a partial move must go on with it (bug 1 of #49). The
        // bound on a turn's actions (limits::TURN_PARTS) needs no other path: it is applied
        // where every path's moves come from and go, in a program's emission and the make.
        ("partial_moves", partial_moves, &[PlainMake]),
        ("maximal_captures", maximal_captures, &[BulkCount, NoisyFirst]),
        ("to_hand", to_hand, &[PlainMake]),
        (
            "explosions",
            explosions,
            &[PlainMake, Count, StackedCount, StackTrial, Evasions, SquareOpenings, ThreatTrial],
        ),
        // A gate's `except` types only thin the gated moves, which every path takes from the
        // one generator (`State::add_gated`): the gates' switch covers them.
        ("gates", gates, &[PlainMake, Count, StackedCount, EvasionMasks, NoisyGeneration]),
        // Every path asks `castling_moves` for castlings, and the plain make ends the rights
        // of a king leaving its castling cells: castlings from the position need no path off.
        ("castling_from_position", castling_from_position, &[]),
        ("phases", phases, &[CellTrial, Evasions]),
        ("occupancy_phases", occupancy_phases, &[Count]),
        ("many_occupancy_phases", many_occupancy_phases, &[StackedCount]),
        ("phases_beyond_captures", phases_beyond_captures, &[StackTrial]),
        ("keep_apart", keep_apart, &[LightTrial, Count, DropShortcut]),
        ("keep_apart_not_royal", keep_apart_not_royal, &[PinShortcut, StackTrial]),
        ("no_check", no_check, &[Count, StackedCount, StackTrial]),
        // The rule filters the list of legal moves: the counts, which make none, are off.
        ("held_by_check", held_by_check, &[Count, StackedCount, BulkCount]),
        // A forbidden test is judged on the position after the move: every move is made.
        ("forbids", forbids, &[PinShortcut, LightTrial, StackTrial, DropShortcut, Evasions, MaskMoves, BulkCount]),
        // The count and the masks move the side's own pieces only.
        (
            "shared_pieces",
            shared_pieces,
            &[Atoms, CellTrial, Count, StackedCount, MaskMoves, EvasionMasks, NoisyGeneration, ProbeAttackers],
        ),
        ("teams", teams, &[Count, StackedCount]),
        ("more_players", more_players, &[CellTrial]),
        ("one_player", one_player, &[CellTrial]),
        ("no_royal", no_royal, &[PinShortcut]),
        ("program_layer", program_layer, &[CellTrial, StackLines]),
        ("program_captures", program_captures, &[ProbeAttacks, RoyalTargets]),
        ("attacks_read_position", attacks_read_position, &[LightTrial, StackTrial, StackedCount]),
        ("attacks_read_history", attacks_read_history, &[StackTrial]),
        ("slow_attacks", slow_attacks, &[ProbeAttacks, LightTrial, PinShortcut, StackTrial, StackedCount]),
        ("before_tests", before_tests, &[]),
        ("counting", counting, &[]),
        ("checks_given", checks_given, &[]),
        // The single-royal shortcuts (pins, the count, evasions, the trials) assume that any
        // royal attacked is check; with several royals, or one crowned by a promotion or a
        // drop, the rule reads them all after each move.
        (
            "royal_check",
            royal_check,
            &[
                LightTrial,
                StackTrial,
                CellTrial,
                PinShortcut,
                DropShortcut,
                Evasions,
                EvasionMasks,
                MaskMoves,
                Count,
                StackedCount,
                SquareOpenings,
                RoyalTargets,
                CheckTrial,
                StackLines,
            ],
        ),
        // Whether a capture is legal weighs the whole list of legal moves.
        ("must_capture", must_capture, &[BulkCount, NoisyFirst]),
        ("attack_goals", attack_goals, &[]),
        // The goal is judged before any move of the position is generated, on a copy of the
        // position whose moves the plain legal generator lists and the make plays: no path is
        // off (every path meets the same end).
        ("move_goals", move_goals, &[]),
    ]
}
