//! Move programs in the IR: instructions, tests, conditions and the geometry of move powers.

use serde::Serialize;

use super::ids::{AttributeId, CellId, DirId, FlagId, MoveTypeId, PhaseId, PieceTypeId, PlayerId, ZoneId};

/// A move program: instructions run with a current cell, starting at the moving piece's cell
/// (a drop's at each cell of the board). Each `add` emits a move; a failing step or test ends
/// the run, keeping the moves already emitted. Nothing changes on the board while it runs: the
/// collected changes are the chosen move's effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Program {
    /// The program's move type, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_type: Option<MoveTypeId>,
    /// The instructions.
    pub body: Vec<Instr>,
}

/// A cell relative to the current one: a neighbour in a direction (as the mover reads it) or
/// a named cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Place {
    /// The neighbour in this direction (fails when there is none).
    Dir(DirId),
    /// This cell.
    Cell(CellId),
}

/// A cell a program may return to with `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Landmark {
    /// The moving piece's cell.
    From,
    /// The destination set by `to` (the current cell when none is set).
    To,
    /// The mark.
    Mark,
    /// Where the last move started.
    LastFrom,
    /// Where the last move ended.
    LastTo,
}

/// How an `add` emits its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AddKind {
    /// The piece moves.
    Move,
    /// A copy of the piece appears; the piece stays.
    Copy,
    /// The piece moves, and the same piece goes on moving in the same turn.
    Partial,
    /// A copy appears and goes on moving in the same turn.
    CopyPartial,
}

/// One instruction of a move program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Instr {
    /// Go to the neighbour in a direction (as the mover reads it); fail if there is none.
    Step(DirId),
    /// Go to a named cell.
    Jump(CellId),
    /// Go to a landmark; fails for a landmark that is not set (no last move yet).
    Go(Landmark),
    /// Set the mark to the current cell, or to a place from it.
    Mark(Option<Place>),
    /// Return to the mark.
    Back,
    /// Fail unless the test holds.
    Verify(Test),
    /// Run the first block if the test holds, else the second.
    If(Test, Vec<Instr>, Vec<Instr>),
    /// Run the block while the test holds (at most a bound of rounds).
    While(Test, Vec<Instr>),
    /// The moving piece's destination is the current cell.
    To,
    /// The piece on the current cell becomes the moving piece.
    From,
    /// The moving piece's move is complete (to its destination, or the current cell); the
    /// piece on the current cell moves next.
    Cascade,
    /// Emit a move: the moving piece goes to its destination (or the current cell), taking
    /// what stands there. With `promote`, one move per type, the piece becoming that type.
    /// `then`: for a partial move, the type of moves the piece continues with.
    Add {
        /// A move, a copy, or a partial move of either.
        kind: AddKind,
        /// The types the piece may become (one move each); empty: it stays what it is.
        promote: Vec<PieceTypeId>,
        /// For a partial move, the type of moves the piece continues with.
        then: Option<MoveTypeId>,
    },
    /// Remove the piece on the current cell (or a place from it), if any.
    Capture(Option<Place>),
    /// The piece there becomes this type (its owner stays).
    ChangeType(PieceTypeId, Option<Place>),
    /// The piece there now belongs to the mover.
    ChangeOwner(Option<Place>),
    /// The piece there now belongs to the next player after its owner.
    Flip(Option<Place>),
    /// A new piece appears: of this owner (default the mover) and type (default the moving
    /// piece's), on the current cell or a place from it.
    Create {
        /// Its owner (`None`: the mover).
        owner: Option<PlayerId>,
        /// Its type (`None`: the moving piece's).
        piece: Option<PieceTypeId>,
        /// Where (`None`: the current cell).
        at: Option<Place>,
    },
    /// Set a flag of the running program to the test's value.
    SetFlag(FlagId, Test),
    /// Set a flag of a cell for the running program.
    SetCellFlag(FlagId, Test, Option<Place>),
    /// Set an attribute of the piece that will stand on the current cell after the move.
    SetAttribute(AttributeId, Test),
}

/// A test of a move program, evaluated at the current cell (or a place from it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Test {
    /// Always.
    True,
    /// Never.
    False,
    /// No piece there.
    Empty(Option<Place>),
    /// A piece of the mover there.
    Friend(Option<Place>),
    /// A piece of another player there.
    Enemy(Option<Place>),
    /// A piece of this type (any owner) there.
    Piece(PieceTypeId, Option<Place>),
    /// The cell is in the mover's zone.
    InZone(ZoneId, Option<Place>),
    /// The place exists (a neighbour in the direction, or the named cell).
    OnBoard(Place),
    /// The current cell is this cell.
    At(CellId),
    /// The last move started there.
    LastFrom(Option<Place>),
    /// The last move ended there.
    LastTo(Option<Place>),
    /// The cell is the mark.
    Marked(Option<Place>),
    /// Some move of another player (of a move type, if given) could capture a piece standing
    /// there.
    Attacked(Option<MoveTypeId>, Option<Place>),
    /// Some move of the mover (of a move type) could capture an enemy piece standing there.
    Defended(Option<MoveTypeId>, Option<Place>),
    /// A neighbour in some direction holds an enemy piece.
    AdjacentToEnemy(Option<Place>),
    /// The program's flag is set.
    Flag(FlagId),
    /// The cell's flag is set.
    CellFlag(FlagId, Option<Place>),
    /// The piece there has the attribute set.
    Attribute(AttributeId, Option<Place>),
    /// A condition of the language holds (with the moving piece's cell and the current cell
    /// as the move's start and end).
    Holds(Condition),
    /// Negation.
    Not(Box<Test>),
    /// All hold.
    And(Vec<Test>),
    /// One holds.
    Or(Vec<Test>),
}

/// What a move may do at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MoveMode {
    /// Move to an empty cell or capture an enemy there.
    MoveOrCapture,
    /// Only move to an empty cell (the `m` of Betza, a pawn's step).
    MoveOnly,
    /// Only capture (the `c` of Betza, a pawn's diagonal).
    CaptureOnly,
}

/// The geometry of a move power.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Geometry {
    /// Ride along each direction, one cell at a time, through empty cells, up to `max` cells
    /// (`None`: unlimited). A step is a slide with `max = 1`.
    Slide {
        /// The directions ridden, each on its own.
        dirs: Vec<DirId>,
        /// The most cells ridden (`None`: unlimited).
        max: Option<u8>,
    },
    /// Jump to the end of each path of directions, ignoring what lies between.
    Leap {
        /// The paths of directions, each ending on a target.
        paths: Vec<Vec<DirId>>,
    },
    /// Ride along each direction over exactly one occupied cell (the screen), then land on an
    /// empty cell or capture beyond it, up to `max` cells past the screen.
    Hop {
        /// The directions ridden, each on its own.
        dirs: Vec<DirId>,
        /// The most cells past the screen (`None`: unlimited).
        max: Option<u8>,
    },
}

/// One move power of a piece type.
#[derive(Clone, Debug, Serialize)]
pub struct MoveRule {
    /// Where the piece may go.
    pub geometry: Geometry,
    /// Whether it moves, captures or both.
    pub mode: MoveMode,
    /// Conditions that must all hold for the power to be available.
    pub conditions: Vec<Condition>,
    /// The cells this move passes over become capturable en passant for one turn.
    pub marks_en_passant: bool,
    /// This power may capture en passant: land on a marked cell and take the piece that passed it.
    pub captures_en_passant: bool,
    /// A slide may also end half a step short of or past each cell it reaches, on a location
    /// between cells (never capturing there, and only if every cell it covers is empty).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stop_between: bool,
}

/// A condition of the language, evaluated against the position (and the moving piece).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Condition {
    /// The moving piece starts in the zone.
    FromZone(ZoneId),
    /// The moving piece would land in the zone.
    ToZone(ZoneId),
    /// The phase is active.
    InPhase(PhaseId),
    /// The number of pieces on the board compares with a number.
    PieceCount(Compare, u32),
    /// The number of pieces of these types on the board, of the player to move (or, with
    /// `enemy`, of every other player), compares with a number.
    TypeCount {
        /// Count every other player's pieces instead of the player to move's.
        enemy: bool,
        /// The piece types counted.
        types: Vec<PieceTypeId>,
        /// How the count compares with `n`.
        compare: Compare,
        /// The number compared with.
        n: u32,
    },
    /// The turn number (1-based, counting full turns) compares with a number.
    TurnNumber(Compare, u32),
    /// The moving player has a royal piece attacked (read only by move-only powers, whose
    /// moves never attack).
    InCheck,
    /// The moving piece stands on a cell of a gate right its player holds (the right is lost
    /// once a move leaves or lands on its cells: the piece has not moved).
    OnRight,
    /// Negation.
    Not(Box<Condition>),
}

/// A comparison operator of a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Compare {
    /// `<`
    Less,
    /// `<=`
    LessEq,
    /// `==`
    Eq,
    /// `>=`
    GreaterEq,
    /// `>`
    Greater,
}

impl Compare {
    /// Applies the comparison.
    pub fn holds(self, a: u32, b: u32) -> bool {
        match self {
            Compare::Less => a < b,
            Compare::LessEq => a <= b,
            Compare::Eq => a == b,
            Compare::GreaterEq => a >= b,
            Compare::Greater => a > b,
        }
    }
}
