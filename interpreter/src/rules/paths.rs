//! Which fast paths the compiled rules allow: derived once, in one place, from every feature of the variant.
//!
//! Every fast path gives the same answer as the plain reference (`reference.rs`) under some
//! assumptions about the rules. [`Features::of`] reads every field of the IR (written out with
//! no `..`, so a new field does not compile until it is weighed here), and [`Paths::derive`]
//! says which features switch off which paths (again with no `..`: a new feature does not
//! compile until its author says which paths it turns off). The call sites only ask
//! [`Paths::allows`] and the state of the position (a partial move under way, a check).

mod features;

pub use features::{
    BoardFeatures, EndFeatures, Features, PieceFeatures, PlayerFeatures, ProgramFeatures, SquareFeatures, TurnFeatures,
};

/// A fast path of move generation, legality, counting or making a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Programs shaped like atoms (a plain step, slide, leap) run from the move tables.
    Atoms,
    /// Moves by powers, castlings and plain drops are made by the plain make (no change log).
    PlainMake,
    /// Attacks are told by the reverse probes of the tables alone.
    ProbeAttacks,
    /// Slow pieces' attacks are found from an index of their entries by target cell.
    SlowReach,
    /// A royal's safety after a move is judged with the move tried in the cell array.
    LightTrial,
    /// On a board of stacks, a move off the stack cells is tried in the cell array.
    StackTrial,
    /// A castling's safety is judged with it tried in the cell array as a plain move.
    CastleTrial,
    /// The search tries a plain move in the cell array to ask whether it checks, and plays out
    /// exchanges there.
    CellTrial,
    /// Pins to a single royal, and the cells on slow pieces' ways to it, are found once; a plain
    /// move of an unpinned piece off those cells needs no test.
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
    /// On a board of stacks, the royal's targets come from the masks, each tried in the cell
    /// array (the stacked count).
    StackedRoyalTargets,
    /// Attacks after a move tried in the cell array are read from the threat tables.
    ThreatTrial,
    /// Move and drop programs run only from the cells where the board lets them emit a move.
    StartCells,
    /// A move program's step to a neighbour that only tests it and steps back is read as tests of the neighbour.
    NeighbourTests,
    /// Where programs could take a single royal, the cells they read are found once; a plain move off them needs no test.
    ProgramPins,
    /// Without a royal type, a `forbid` test or pieces kept apart, every pseudo-legal move is legal.
    AllLegal,
    /// Where every pseudo-legal move is legal, the last ply's moves are counted as pseudo-legal ones, from the ray masks.
    PseudoCount,
    /// Move programs that only move their piece, testing cells, are listed without the change log, as ordinary moves.
    LeanRuns,
    /// Drop programs that test their cell and walk lines testing every cell are listed as plain drops, each walk's results found once per listing.
    DropWalks,
    /// An attack probe through move programs visits only the start cells where the attacker's pieces stand.
    ReachByPieces,
    /// Lean runs also list a capture whose `cascade` sends the piece taken to another cell (a reserve), as a program move.
    LeanCascades,
    /// A partial move goes on without its continuation listed where a program of the piece
    /// for the continuation's move type emits a move wherever it starts (its first
    /// instruction is an `add`).
    SureContinuations,
}

impl Path {
    /// Every path, in the order of the docs' table.
    pub const ALL: [Path; 35] = [
        Path::Atoms,
        Path::PlainMake,
        Path::ProbeAttacks,
        Path::SlowReach,
        Path::LightTrial,
        Path::StackTrial,
        Path::CastleTrial,
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
        Path::StackedRoyalTargets,
        Path::ThreatTrial,
        Path::StartCells,
        Path::NeighbourTests,
        Path::ProgramPins,
        Path::AllLegal,
        Path::PseudoCount,
        Path::LeanRuns,
        Path::DropWalks,
        Path::ReachByPieces,
        Path::LeanCascades,
        Path::SureContinuations,
    ];

    /// What the path does, in a sentence (its doc comment).
    pub fn what(self) -> &'static str {
        match self {
            Path::Atoms => "Programs shaped like atoms (a plain step, slide, leap) run from the move tables.",
            Path::PlainMake => "Moves by powers, castlings and plain drops are made by the plain make (no change log).",
            Path::ProbeAttacks => "Attacks are told by the reverse probes of the tables alone.",
            Path::SlowReach => "Slow pieces' attacks are found from an index of their entries by target cell.",
            Path::LightTrial => "A royal's safety after a move is judged with the move tried in the cell array.",
            Path::StackTrial => "On a board of stacks, a move off the stack cells is tried in the cell array.",
            Path::CastleTrial => "A castling's safety is judged with it tried in the cell array as a plain move.",
            Path::CellTrial => "The search tries a plain move in the cell array to ask whether it checks, and plays out exchanges there.",
            Path::PinShortcut => "Pins to a single royal, and the cells on slow pieces' ways to it, are found once; a plain move of an unpinned piece off those cells needs no test.",
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
            Path::StackedRoyalTargets => "On a board of stacks, the royal's targets come from the masks, each tried in the cell array (the stacked count).",
            Path::ThreatTrial => "Attacks after a move tried in the cell array are read from the threat tables.",
            Path::StartCells => "Move and drop programs run only from the cells where the board lets them emit a move.",
            Path::NeighbourTests => {
                "A move program's step to a neighbour that only tests it and steps back is read as tests of the neighbour."
            }
            Path::ProgramPins => {
                "Where programs could take a single royal, the cells they read are found once; a plain move off them needs no test."
            }
            Path::AllLegal => "Without a royal type, a `forbid` test or pieces kept apart, every pseudo-legal move is legal.",
            Path::PseudoCount => {
                "Where every pseudo-legal move is legal, the last ply's moves are counted as pseudo-legal ones, from the ray masks."
            }
            Path::LeanRuns => {
                "Move programs that only move their piece, testing cells, are listed without the change log, as ordinary moves."
            }
            Path::DropWalks => {
                "Drop programs that test their cell and walk lines testing every cell are listed as plain drops, each walk's results found once per listing."
            }
            Path::ReachByPieces => {
                "An attack probe through move programs visits only the start cells where the attacker's pieces stand."
            }
            Path::LeanCascades => {
                "Lean runs also list a capture whose `cascade` sends the piece taken to another cell (a reserve), as a program move."
            }
            Path::SureContinuations => {
                "A partial move goes on without its continuation listed where a program of the piece for the continuation's move type emits a move wherever it starts."
            }
        }
    }

    fn bit(self) -> u64 {
        1 << self as u64
    }
}

/// The set of fast paths a variant's compiled rules allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paths {
    bits: u64,
    /// Check is decided by generating every reply and making it (the plain reference).
    generated_checks: bool,
}

impl Default for Paths {
    fn default() -> Paths {
        Paths::NONE
    }
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
        if !f.board.stacks {
            p.off(&[StackTrial, StackedCount, StackLines, StackedRoyalTargets]);
        }
        if !f.programs.slow_attacks {
            p.off(&[SlowReach]);
        }
        if !f.pieces.no_royal {
            p.off(&[AllLegal]);
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
                Path::StackTrial | Path::StackedCount | Path::StackLines | Path::StackedRoyalTargets => "`stacks`",
                Path::SlowReach => "`slow_attacks`",
                Path::AllLegal => "`no_royal`",
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
const BUILT_ON: [(Path, &[Path]); 17] = [
    (Path::CastleTrial, &[Path::LightTrial]),
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
    (Path::StackedRoyalTargets, &[Path::StackedCount]),
    (Path::ThreatTrial, &[Path::ProbeAttacks]),
    (Path::ProgramPins, &[Path::PinShortcut]),
    (Path::PseudoCount, &[Path::AllLegal, Path::BulkCount]),
    (Path::LeanCascades, &[Path::LeanRuns]),
];

/// Each feature (by its field's name), whether `f` has it, and the paths that cannot take it
/// into account (read as one table by [`Paths::derive`] and [`Paths::markdown`]), concern by
/// concern.
fn feature_rules(f: &Features) -> Vec<(&'static str, bool, &'static [Path])> {
    let Features { board, squares, turn, pieces, players, programs, end } = f;
    [
        board_rules(board).as_slice(),
        square_rules(squares).as_slice(),
        turn_rules(turn).as_slice(),
        piece_rules(pieces).as_slice(),
        player_rules(players).as_slice(),
        program_rules(programs).as_slice(),
        end_rules(end).as_slice(),
    ]
    .concat()
}

/// The board's features, each with the paths it switches off.
fn board_rules(f: &BoardFeatures) -> [(&'static str, bool, &'static [Path]); 4] {
    use Path::*;
    let BoardFeatures { stacks, between, branching, big_board } = *f;
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
                PseudoCount,
                DropShortcut,
                NoisyGeneration,
                EvasionMasks,
                ProgramPins,
                LeanRuns,
                DropWalks,
                ReachByPieces,
                SureContinuations,
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
                CastleTrial,
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
                ProgramPins,
                PseudoCount,
                LeanRuns,
                DropWalks,
                ReachByPieces,
                SureContinuations,
            ],
        ),
        ("branching", branching, &[Atoms]),
        ("big_board", big_board, &[StackedCount]),
    ]
}

/// The features of squares and walls, each with the paths it switches off.
fn square_rules(f: &SquareFeatures) -> [(&'static str, bool, &'static [Path]); 4] {
    use Path::*;
    let SquareFeatures { square_play, vacates, walls, touched_squares } = *f;
    [
        ("square_play", square_play, &[PlainMake, Evasions, NoisyFirst]),
        // The square a piece leaves may vanish and block a line: a move's trial in the cell
        // array that says "illegal" is asked again in full, which a castling's is not.
        ("vacates", vacates, &[CastleTrial, CellTrial, Evasions, RoyalTargets, StackedRoyalTargets]),
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
                PseudoCount,
                StackedCount,
                SquareOpenings,
                BulkCount,
                CheckTrial,
                RoyalTargets,
                ThreatTrial,
            ],
        ),
        ("touched_squares", touched_squares, &[]),
    ]
}

/// The turn's features, each with the paths it switches off.
fn turn_rules(f: &TurnFeatures) -> [(&'static str, bool, &'static [Path]); 10] {
    use Path::*;
    let TurnFeatures {
        turn_order,
        priorities,
        pass_turn,
        partial_moves,
        maximal_captures,
        must_capture,
        phases,
        occupancy_phases,
        many_occupancy_phases,
        phases_beyond_captures,
    } = *f;
    [
        ("turn_order", turn_order, &[PlainMake, Count, PseudoCount, StackedCount, BulkCount]),
        ("priorities", priorities, &[Count, PseudoCount, StackedCount, BulkCount, NoisyFirst]),
        ("pass_turn", pass_turn, &[BulkCount]),
        // A move made partway through a partial move must go on with it (bug 1 of #49). The
        // bound on a turn's actions (limits::TURN_PARTS) needs no other path: it is applied
        // where every path's moves come from and go, in a program's emission and the make.
        ("partial_moves", partial_moves, &[PlainMake]),
        ("maximal_captures", maximal_captures, &[BulkCount, NoisyFirst]),
        // Whether a capture is legal weighs the whole list of legal moves.
        ("must_capture", must_capture, &[BulkCount, NoisyFirst]),
        ("phases", phases, &[CellTrial, Evasions]),
        ("occupancy_phases", occupancy_phases, &[Count, PseudoCount]),
        ("many_occupancy_phases", many_occupancy_phases, &[StackedCount]),
        ("phases_beyond_captures", phases_beyond_captures, &[StackTrial]),
    ]
}

/// The pieces' features, each with the paths it switches off.
fn piece_rules(f: &PieceFeatures) -> [(&'static str, bool, &'static [Path]); 14] {
    use Path::*;
    let PieceFeatures {
        attributes,
        to_hand,
        explosions,
        gates,
        castling_from_position,
        castling_by_drop,
        keep_apart,
        keep_apart_not_royal,
        no_check,
        held_by_check,
        no_royal,
        check_conditions,
        right_conditions,
        aimed_gates,
    } = *f;
    [
        ("attributes", attributes, &[PlainMake]),
        // The plain make carries a plain capture's piece to hand (`State::plain_to_hand`).
        ("to_hand", to_hand, &[]),
        (
            "explosions",
            explosions,
            &[
                PlainMake,
                Count,
                PseudoCount,
                StackedCount,
                StackTrial,
                CastleTrial,
                Evasions,
                SquareOpenings,
                ThreatTrial,
            ],
        ),
        // A gate's `except` types only thin the gated moves, which every path takes from the
        // one generator (`State::add_gated`): the gates' switch covers them.
        ("gates", gates, &[PlainMake, Count, PseudoCount, StackedCount, EvasionMasks, NoisyGeneration]),
        // Every path asks `castling_moves` for castlings, and the plain make ends the rights
        // of a king leaving its castling cells: castlings from the position need no path off.
        ("castling_from_position", castling_from_position, &[]),
        // A right is gained only when a drop is made, and both makes of a drop ask
        // `State::gain_castling`; the counts of the last ply make no move: no path off.
        ("castling_by_drop", castling_by_drop, &[]),
        ("keep_apart", keep_apart, &[LightTrial, Count, DropShortcut, AllLegal]),
        ("keep_apart_not_royal", keep_apart_not_royal, &[PinShortcut, StackTrial, AllLegal]),
        ("no_check", no_check, &[Count, PseudoCount, StackedCount, StackTrial]),
        // The rule filters the list of legal moves: the counts, which make none, are off.
        ("held_by_check", held_by_check, &[Count, PseudoCount, StackedCount, BulkCount]),
        ("no_royal", no_royal, &[PinShortcut]),
        // Conditions decided during play make their entries dynamic: the masks, the count and
        // the probes leave such entries to the generator, whose one condition test
        // (`power_condition_holds`) reads check where every path generates. `in-check` is only
        // on move-only powers, so attacks never read it.
        ("check_conditions", check_conditions, &[]),
        // Read from the rights of the position by the same test, as `from ZONE` reads the cell.
        ("right_conditions", right_conditions, &[]),
        // The general make ends the rights a landing piece aims at; the plain make does not.
        ("aimed_gates", aimed_gates, &[PlainMake]),
    ]
}

/// The players' features, each with the paths it switches off.
fn player_rules(f: &PlayerFeatures) -> [(&'static str, bool, &'static [Path]); 4] {
    use Path::*;
    let PlayerFeatures { shared_pieces, teams, more_players, one_player } = *f;
    [
        // The count and the masks move the side's own pieces only; a shared piece moved may
        // become an enemy's program piece on its target (`ProgramPins` watches only those
        // standing); the probes by pieces read the cells of the owners' pieces only.
        (
            "shared_pieces",
            shared_pieces,
            &[
                Atoms,
                CellTrial,
                Count,
                PseudoCount,
                StackedCount,
                MaskMoves,
                EvasionMasks,
                NoisyGeneration,
                ProbeAttackers,
                ProgramPins,
                ReachByPieces,
            ],
        ),
        ("teams", teams, &[Count, PseudoCount, StackedCount]),
        ("more_players", more_players, &[CellTrial]),
        ("one_player", one_player, &[CellTrial]),
    ]
}

/// The programs' features, each with the paths it switches off.
fn program_rules(f: &ProgramFeatures) -> [(&'static str, bool, &'static [Path]); 5] {
    use Path::*;
    let ProgramFeatures { program_layer, program_captures, attacks_read_position, attacks_read_history, slow_attacks } =
        *f;
    [
        // The stacked count's royal targets leave a royal's program moves and drops unseen.
        ("program_layer", program_layer, &[CellTrial, StackLines, StackedRoyalTargets]),
        ("program_captures", program_captures, &[ProbeAttacks, RoyalTargets]),
        ("attacks_read_position", attacks_read_position, &[LightTrial, StackTrial, StackedCount]),
        ("attacks_read_history", attacks_read_history, &[StackTrial]),
        // The pin shortcut watches the cells on the slow pieces' ways to the royal
        // (`State::slow_watch`, from the index of `SlowReach`; without it, no shortcut).
        ("slow_attacks", slow_attacks, &[ProbeAttacks, LightTrial, StackTrial, StackedCount]),
    ]
}

/// The features of the game's end, each with the paths it switches off.
fn end_rules(f: &EndFeatures) -> [(&'static str, bool, &'static [Path]); 10] {
    use Path::*;
    let EndFeatures {
        forbids,
        before_tests,
        counting,
        checks_given,
        royal_check,
        attack_goals,
        move_goals,
        shuttle_goals,
        check_goals,
        streak_tests,
    } = *f;
    [
        // A forbidden test is judged on the position after the move: every move is made.
        (
            "forbids",
            forbids,
            &[PinShortcut, LightTrial, StackTrial, DropShortcut, Evasions, MaskMoves, BulkCount, AllLegal],
        ),
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
                PseudoCount,
                StackedCount,
                SquareOpenings,
                RoyalTargets,
                CheckTrial,
                StackLines,
            ],
        ),
        ("attack_goals", attack_goals, &[]),
        // The goal is judged before any move of the position is generated, on a copy of the
        // position whose moves the plain legal generator lists and the make plays: no path is
        // off (every path meets the same end).
        ("move_goals", move_goals, &[]),
        // The goal is judged after a move on the undo records and on a copy of the state
        // taken back over them (check by the engine's own test): every path makes the same
        // moves and records, so none is off.
        ("shuttle_goals", shuttle_goals, &[]),
        // The checking pieces are found by the plain reference's replies, on a copy of the
        // position, after the move: every path meets the same end.
        ("check_goals", check_goals, &[]),
        // A streak's value is kept with each move by the one make every path uses, as the
        // values of `before(...)` tests are.
        ("streak_tests", streak_tests, &[]),
    ]
}
