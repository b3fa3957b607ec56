//! End conditions in the IR: outcomes, goals and their tests, counting rules.

use serde::Serialize;

use super::ids::{CellId, DirId, PieceTypeId, PlayerId, ZoneId};

/// The result of an end condition from the point of view of the player it applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// That player wins.
    Win,
    /// That player loses.
    Loss,
    /// The game is drawn.
    Draw,
    /// The game ends and the points decide: the player with the most (pieces' `points` on the
    /// board plus the player's bonus) wins; a tie at the top is a draw.
    Points,
}

/// End conditions.
#[derive(Clone, Debug, Serialize)]
pub struct EndRules {
    /// Result for the side to move when it is checkmated.
    pub checkmate: Outcome,
    /// Result for the side to move when it has no legal move and is not in check.
    pub stalemate: Outcome,
    /// Whose result `stalemate` is, when not the stalemated player's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stalemate_for: Option<ResultFor>,
    /// Result for a player left with only royal pieces, if the rule is on.
    pub bare_king: Option<Outcome>,
    /// Draw after this many moves (each side) without a capture or a clock-resetting move.
    pub move_rule: Option<u32>,
    /// Instead of a draw by the move rule: this outcome for this player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_rule_player: Option<(PlayerId, Outcome)>,
    /// Draw when the same position occurs this many times.
    pub repetition: Option<u32>,
    /// Instead of a draw by repetition: this outcome for this player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition_player: Option<(PlayerId, Outcome)>,
    /// Before that: the outcome for a player whose every move since the repeated position first
    /// occurred gave check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perpetual_check: Option<Outcome>,
    /// Further goals, tested after every move in order; the first that holds ends the game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub goals: Vec<Goal>,
    /// Points each player gets besides its pieces' when points decide (`points-bonus PLAYER
    /// N`), in hundredths, by player (empty: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub points_bonus: Vec<u32>,
    /// Counting rules (`counting N: GOALTEST`), in file order: the first whose test holds for
    /// the player to move starts a count of N moves.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counting: Vec<Counting>,
}

/// Who gets the outcome of an end that is not the player to move's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ResultFor {
    /// This player, whoever is to move (armageddon: every draw is Black's win).
    Player(PlayerId),
    /// The player with the fewest pieces on the board; a tie for the fewest is a draw
    /// (suicide chess's stalemate).
    FewerPieces,
}

/// A counting rule: when its test holds for the player to move and no count runs (or the move
/// captured), a count of `moves` moves begins; the game is drawn once it has run out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counting {
    /// The moves of each side the count allows.
    pub moves: u32,
    /// When it begins.
    pub test: GoalTest,
    /// Whether the count begins at as many moves as there are pieces on the board, not at 0.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_pieces: bool,
    /// Judged, after a capture where no other rule begins a count, for the player who made it
    /// (not the player to move), the count beginning one half-move short of its start: that
    /// player's count begun as its own capture was made.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub for_mover: bool,
}

/// A goal: when its test holds for one of its players, the game ends with that outcome for
/// that player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Goal {
    /// The players the goal applies to.
    pub players: Vec<PlayerId>,
    /// The result for that player.
    pub outcome: Outcome,
    /// When it holds.
    pub test: GoalTest,
}

/// What a goal tests, for one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum GoalTest {
    /// The player has exactly this many pieces on the board (of this type, if given).
    PiecesRemaining(u32, Option<PieceTypeId>),
    /// All players together have exactly this many pieces (of this type).
    TotalPieces(u32, Option<PieceTypeId>),
    /// The last move captured a piece of the player's of this type.
    Captured(PieceTypeId),
    /// The player is to move and has no legal move.
    Stalemated,
    /// The player is to move.
    ToMove,
    /// The player's moves have given check at least this many times in the game.
    ChecksGiven(u32),
    /// The player just completed a position that occurred this many times (counting this one).
    Repetition(u32),
    /// Every group of cells has a cell holding a piece that matches one of the occupiers.
    Config(Vec<Occupier>, Vec<ConfigGroup>),
    /// As `Config`, with each group's matching piece attacked by no player allied against
    /// its owner (`safe-config`).
    SafeConfig(Vec<Occupier>, Vec<ConfigGroup>),
    /// The player is to move and has a legal move after which `Config` holds for it
    /// (`can-reach`): racing kings' king that may follow the other onto the last rank.
    CanReach(Vec<Occupier>, Vec<ConfigGroup>),
    /// The last this many moves were passes (a player's `end` at the start of a turn).
    Passed(u32),
    /// The player's last this many moves took one piece (of one of these types; any type
    /// when none is given) back and forth between two cells, after a move of its that brought
    /// it to the first cell without capturing; nobody captured since, and the player was in
    /// check before none of these moves. A pass of the player's between its last two moves is
    /// skipped (`shuttled N`, Fairy-Stockfish's `moveRepetitionIllegal`).
    Shuttled(u32, Vec<PieceTypeId>),
    /// A piece matching the first occupier and one matching the second stand on one line along
    /// one of the directions (as the player reads them), with only empty cells between.
    Facing(Occupier, Occupier, Vec<DirId>),
    /// The test held in the position before the last move (false where there was none).
    /// The number is the test's index among the variant's `before` tests.
    Before(u8, Box<GoalTest>),
    /// The test holds for every opponent of the player (every player with turns, not allied
    /// with it and still in the game).
    Opponent(Box<GoalTest>),
    /// A count of a counting rule runs.
    CountRunning,
    /// The player is in check: a royal piece of its is attacked, as the rule of check reads
    /// it (`in-check`).
    InCheck,
    /// The player is in check and a piece of one of these types gives it (`checked-by(...)`).
    CheckedBy(Vec<PieceTypeId>),
    /// The player is in check and every piece giving it is of one of these types
    /// (`checked-by(only ...)`).
    CheckedOnlyBy(Vec<PieceTypeId>),
    /// Over the positions where the player was to move, going back from the latest one:
    /// the second test held in one of them, and the first held in it and in every one after
    /// it (`streak(WHILE, SOME)`; shatar's run of checks). The number is the test's index
    /// among the variant's history tests, whose values are kept with every move.
    Streak(u8, Box<GoalTest>, Box<GoalTest>),
    /// Negation.
    Not(Box<GoalTest>),
    /// All hold.
    And(Vec<GoalTest>),
    /// One holds.
    Or(Vec<GoalTest>),
}

/// Cells of a configuration goal from which one must hold an occupier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ConfigGroup {
    /// This cell.
    Cell(CellId),
    /// Any cell of the goal's player's zone.
    Zone(ZoneId),
}

/// A piece that fills a cell of a configuration goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Occupier {
    /// The goal's player's piece of this type.
    Own(PieceTypeId),
    /// Another player's piece of this type.
    Opponent(PieceTypeId),
    /// Anybody's piece of this type.
    AnyOwner(PieceTypeId),
}

impl GoalTest {
    /// The largest check count this test asks for, if it asks for one.
    pub fn checks_asked(&self) -> Option<u32> {
        match self {
            GoalTest::ChecksGiven(n) => Some(*n),
            GoalTest::Not(x) | GoalTest::Opponent(x) => x.checks_asked(),
            GoalTest::Streak(_, a, b) => a.checks_asked().max(b.checks_asked()),
            GoalTest::And(v) | GoalTest::Or(v) => v.iter().filter_map(GoalTest::checks_asked).max(),
            _ => None,
        }
    }

    /// Whether the test asks whether a piece is attacked (`safe-config`) or which moves are
    /// legal (`can-reach`).
    pub fn reads_attacks(&self) -> bool {
        match self {
            // A shuttle counts only moves made out of check.
            GoalTest::SafeConfig(..) | GoalTest::CanReach(..) | GoalTest::Shuttled(..) => true,
            GoalTest::Before(_, x) | GoalTest::Not(x) | GoalTest::Opponent(x) => x.reads_attacks(),
            GoalTest::Streak(_, a, b) => a.reads_attacks() || b.reads_attacks(),
            GoalTest::And(v) | GoalTest::Or(v) => v.iter().any(GoalTest::reads_attacks),
            _ => false,
        }
    }

    /// Whether the test asks for the legal moves (`can-reach`).
    pub fn reads_moves(&self) -> bool {
        match self {
            GoalTest::CanReach(..) => true,
            GoalTest::Before(_, x) | GoalTest::Not(x) | GoalTest::Opponent(x) => x.reads_moves(),
            GoalTest::Streak(_, a, b) => a.reads_moves() || b.reads_moves(),
            GoalTest::And(v) | GoalTest::Or(v) => v.iter().any(GoalTest::reads_moves),
            _ => false,
        }
    }

    /// Whether the test reads the moves that led to the position (`shuttled N`).
    pub fn reads_shuttles(&self) -> bool {
        match self {
            GoalTest::Shuttled(..) => true,
            GoalTest::Before(_, x) | GoalTest::Not(x) | GoalTest::Opponent(x) => x.reads_shuttles(),
            GoalTest::And(v) | GoalTest::Or(v) => v.iter().any(GoalTest::reads_shuttles),
            _ => false,
        }
    }

    /// Whether the test reads only what a position's hash covers (the board, the side to move,
    /// hands, counted checks), not the moves that led to it.
    pub fn reads_position_only(&self) -> bool {
        match self {
            // The count is no part of the hash.
            GoalTest::Passed(_)
            | GoalTest::Shuttled(..)
            | GoalTest::Before(..)
            | GoalTest::Streak(..)
            | GoalTest::Repetition(_)
            | GoalTest::Captured(_)
            | GoalTest::CountRunning => false,
            GoalTest::Not(x) | GoalTest::Opponent(x) => x.reads_position_only(),
            GoalTest::And(v) | GoalTest::Or(v) => v.iter().all(GoalTest::reads_position_only),
            _ => true,
        }
    }

    /// Whether the test asks which pieces give check (`in-check`, `checked-by(...)`).
    pub fn reads_checks(&self) -> bool {
        match self {
            GoalTest::InCheck | GoalTest::CheckedBy(_) | GoalTest::CheckedOnlyBy(_) => true,
            GoalTest::Before(_, x) | GoalTest::Not(x) | GoalTest::Opponent(x) => x.reads_checks(),
            GoalTest::Streak(_, a, b) => a.reads_checks() || b.reads_checks(),
            GoalTest::And(v) | GoalTest::Or(v) => v.iter().any(GoalTest::reads_checks),
            _ => false,
        }
    }
}
