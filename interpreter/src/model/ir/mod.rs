//! The typed intermediate representation of a variant: what the language lowers into and the engine compiles from.
//!
//! The IR is plain, checked, serialisable data with newtype ids and no source spans. Every name
//! has been resolved to an id by the lowering; the engine derives its fast tables from it.

use serde::Serialize;

mod end;
mod ids;
mod program;

pub use end::*;
pub use ids::*;
pub use program::*;

/// A whole variant.
#[derive(Clone, Debug, Serialize)]
pub struct Variant {
    /// Display title.
    pub title: String,
    /// What its games write in PGN's `Variant` tag.
    #[serde(skip_serializing_if = "PgnVariant::is_title")]
    pub pgn_variant: PgnVariant,
    /// The board graph.
    pub board: Board,
    /// Players in turn order; player 0 moves first.
    pub players: Vec<Player>,
    /// Named zones (cell sets, per player where needed) and their occupancy rules.
    pub zones: Vec<Zone>,
    /// Piece types.
    pub pieces: Vec<PieceType>,
    /// Castling moves (a royal and a partner moving together).
    pub castlings: Vec<Castling>,
    /// Gating rights: a piece's move from one of a right's cells may put a piece from the
    /// mover's hand on the cell it leaves (Seirawan chess).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<Gate>,
    /// Phases: named rule sets that switch on when their condition first holds.
    pub phases: Vec<Phase>,
    /// What a turn consists of.
    pub turn: Turn,
    /// Squares as game objects (owned, moved, held in reserve, placed), if the game has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub squares: Option<SquareRules>,
    /// Walls: cells that lose their square for good, placed with every piece move or left by
    /// capturing pieces that turn to stone (`walls { ... }`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walls: Option<WallRules>,
    /// The starting position.
    pub setup: Setup,
    /// How the game ends.
    pub end: EndRules,
    /// Named move types of move programs (for turn orders, priorities and partial moves).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub move_types: Vec<String>,
    /// When not empty: of the moves of these types, only those of the first type that has a
    /// legal move are legal (mandatory capture is written this way); moves of types not listed
    /// rank after all of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub move_priorities: Vec<MoveTypeId>,
    /// Names of piece attributes (booleans every piece carries; see [`PieceType::attributes`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<String>,
    /// Names of the flags move programs set and test while they run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The order of turns, when it is not each player once in the order of `players`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_order: Option<TurnOrder>,
    /// Which turns are legal: passing (the rest of a partial move, or the whole turn) and the
    /// rule of maximal captures.
    #[serde(flatten)]
    pub play: PlayRules,
    /// Castling written as Fairy-Stockfish writes it with UCI_Chess960 (`castling-notation
    /// king-takes-partner`): UCI coordinates as the king taking its partner (`e1h1`) and
    /// position strings naming rights by the partner's file letter (Shredder-FEN, `HAha`).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub king_takes_partner: bool,
    /// Goals counting pieces (`pieces-remaining`, `total-pieces`) count those in hand too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub goals_count_hands: bool,
    /// Every player moves every piece on the board (Dagaz's shared pieces), as if it were
    /// theirs: directions, zones, friends and enemies as the mover reads them; the piece keeps
    /// its owner.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shared_pieces: bool,
    /// When a player with several royal pieces is in check (`royal-check all|last`).
    #[serde(skip_serializing_if = "RoyalCheck::is_any")]
    pub royal_check: RoyalCheck,
    /// A player who can capture must capture (`must-capture`): where a legal move takes a
    /// piece of another player, the moves that take none are illegal.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub must_capture: bool,
    /// Teams: players who play on one side, win together and do not take each other's pieces
    /// (games of more than two players); a player in no team plays alone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<Vec<PlayerId>>,
    /// Tests a move may not leave true for its player (`forbid: GOALTEST`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forbids: Vec<GoalTest>,
    /// Choices the players make before the first move (an army each), in the order made.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
    /// How boards and pieces are drawn (`display { ... }`); no effect on play.
    #[serde(skip_serializing_if = "Display::is_plain")]
    pub display: Display,
}

/// Which turns are legal: passing and maximal captures (a part of [`Variant`], written out
/// with it as if its fields were the variant's own).
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayRules {
    /// After a partial move (`add-partial`), the player may end the turn instead of going on.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pass_partial: bool,
    /// Whether a player may pass the turn (move `end` at the start of a turn).
    #[serde(skip_serializing_if = "PassTurn::is_never")]
    pub pass_turn: PassTurn,
    /// Only the moves that begin a turn taking the most enemy pieces are legal (partial moves
    /// followed to the end of the turn).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub maximal_captures: bool,
    /// With `maximal_captures`: of the moves whose turn takes the most pieces, only those whose
    /// turn takes the most pieces of these types (draughts that prefer taking kings).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub maximal_captures_prefer: Vec<PieceTypeId>,
}

/// How a board and its pieces are drawn: read by programs that draw the game (the web
/// playground), never by the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Display {
    /// Pieces stand on the points where lines cross, not inside squares.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub points: bool,
    /// Further straight lines, each between the points of two cells (a palace's diagonals).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<(CellId, CellId)>,
    /// Rivers: gaps between two neighbouring rows, each named by a cell of either row.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rivers: Vec<River>,
    /// Players whose pieces are drawn upside down (facing the first player).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub upside_down: Vec<PlayerId>,
}

impl Display {
    /// Whether nothing is declared: squares, no extra lines, every piece upright.
    pub fn is_plain(&self) -> bool {
        *self == Display::default()
    }
}

/// A gap between two neighbouring rows of a board, which lines across it do not cross except
/// at the board's edges (xiangqi's river).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct River {
    /// A cell of the lower row.
    pub below: CellId,
    /// A cell of the upper row.
    pub above: CellId,
    /// Text written in the gap (may be empty).
    pub label: String,
}

/// A choice each of its players makes before the first move of the game, one option each
/// (`choice army { option fides "Fabulous FIDEs" { ... } ... }`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// Its name in the file (written in moves, `army=fides`, and position strings).
    pub name: String,
    /// The players who make it (those some option gives something), in turn order.
    pub choosers: Vec<PlayerId>,
    /// The options, in declaration order.
    pub options: Vec<ChoiceOption>,
}

/// One option of a [`Choice`]: what choosing it gives each player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChoiceOption {
    /// Its name in the file.
    pub name: String,
    /// Its display title (the name where the file gives none).
    pub title: String,
    /// Per player (by index): what the player gets by choosing it.
    pub grants: Vec<Grant>,
}

/// What a player gets by choosing an option: pieces placed, pieces in hand, rights.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Grant {
    /// Pieces placed, by cell and type.
    pub placements: Vec<(CellId, PieceTypeId)>,
    /// Pieces put in hand: (type, how many).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<(PieceTypeId, u32)>,
    /// Letters of castling and gating rights given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rights: Vec<char>,
}

/// When a player may pass instead of moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
pub enum PassTurn {
    /// Never: a player without a legal move is stalemated.
    #[default]
    Never,
    /// At any turn.
    Always,
    /// Only when the player has no legal move (Zillions' `forced`).
    IfNoMove,
}

impl PassTurn {
    fn is_never(&self) -> bool {
        *self == PassTurn::Never
    }
}

/// When a player is in check, by its royal pieces attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
pub enum RoyalCheck {
    /// When any of its royal pieces is attacked.
    #[default]
    Any,
    /// Only when every one of its royal pieces is attacked (`royal-check all`).
    All,
    /// Only when it has a single royal piece left and that piece is attacked: while it has
    /// several, none of them is royal (`royal-check last`).
    Last,
}

impl RoyalCheck {
    fn is_any(&self) -> bool {
        *self == RoyalCheck::Any
    }

    /// Whether a player with `royals` royal pieces, of which `attacked` are attacked, is in
    /// check.
    pub fn in_check(self, royals: usize, attacked: usize) -> bool {
        match self {
            RoyalCheck::Any => attacked > 0,
            RoyalCheck::All => royals > 0 && attacked == royals,
            RoyalCheck::Last => royals == 1 && attacked == 1,
        }
    }
}

/// A sequence of turns: `opening` once, then `cycle` over and over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnOrder {
    /// Turns played once at the start of the game.
    pub opening: Vec<TurnEntry>,
    /// Turns repeated after them for the rest of the game (never empty).
    pub cycle: Vec<TurnEntry>,
}

/// One turn of a [`TurnOrder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TurnEntry {
    /// Who moves.
    pub player: PlayerId,
    /// Only moves of this type are allowed in the turn (`None`: any move).
    pub move_type: Option<MoveTypeId>,
}

/// The board: a graph of locations joined by named, possibly branching, directions.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// Every location; its index is its [`CellId`].
    pub cells: Vec<Cell>,
    /// Direction names; the index is the [`DirId`].
    pub directions: Vec<String>,
    /// Named direction sets (e.g. `orthogonal`), for display and documentation.
    pub direction_sets: Vec<(String, Vec<DirId>)>,
    /// Directed edges. A cell may have several neighbours in one direction (a branching ray).
    pub links: Vec<Link>,
    /// Locations that start without a square (holes that squares may later fill).
    pub initially_empty_locations: Vec<CellId>,
}

/// One location of the board.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// The cell's name in notation, e.g. `e4` or `Ac1`.
    pub name: String,
    /// Display column.
    pub x: i32,
    /// Display row (larger is further from player 0).
    pub y: i32,
    /// Display layer (board number in multi-board games).
    pub layer: i32,
    /// For a location standing between cells (a piece there covers several squares): the
    /// cells it covers. Empty for an ordinary cell. Made by the board's `between`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<CellId>,
    /// Further display positions `(x, y, layer)` of a cell made by merging locations (a
    /// square shared by several boards is drawn on each of them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_at: Vec<(i32, i32, i32)>,
}

/// A directed edge of the board graph.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Link {
    /// Where the edge starts.
    pub from: CellId,
    /// Its direction.
    pub dir: DirId,
    /// Where it leads.
    pub to: CellId,
}

/// A player and the orientation of its pieces.
#[derive(Clone, Debug, Serialize)]
pub struct Player {
    /// The player's name, e.g. `white`.
    pub name: String,
    /// How this player reads each direction: a piece of this player told to go `d` goes
    /// `direction_map[d]`. Identity for the first player in most games.
    pub direction_map: Vec<DirId>,
}

/// A named set of cells, possibly different for each player, with occupancy rules.
#[derive(Clone, Debug, Serialize)]
pub struct Zone {
    /// The zone's name.
    pub name: String,
    /// The zone's cells for each player, indexed by [`PlayerId`].
    pub cells: Vec<Vec<CellId>>,
    /// How the zone's cells (for every player) hold pieces; `None`: one piece per cell, as usual.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupancy: Option<Occupancy>,
    /// Occupancy rules that replace `occupancy` while a phase is on; when several phases are
    /// on, the last one listed wins.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phase_occupancy: Vec<(PhaseId, Occupancy)>,
}

/// How a cell holds pieces: how many, and the capture rules of a crowded or lone piece there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Occupancy {
    /// The most pieces the cell may hold after a move, at least 1; `None`: no limit.
    pub capacity: Option<u8>,
    /// A piece alone on the cell is inert: it cannot capture or be captured, gives no check, and
    /// slides and hops pass over the cell as if it were empty. Moving onto it joins it.
    pub lone_inert: bool,
    /// Nothing can be captured on the cell while it holds two or more pieces.
    pub crowd_safe: bool,
    /// Which enemy pieces a capture onto the cell takes when it holds several.
    pub capture: CaptureRule,
    /// Onto two or more pieces that include an enemy, any power may move without capturing.
    pub join_mixed_crowd: bool,
    /// Onto a lone enemy piece, a power that can move there but not capture may move without
    /// capturing (a pawn's straight step), when no capture power of the piece reaches the cell.
    pub join_enemy_by_move: bool,
}

impl Default for Occupancy {
    fn default() -> Self {
        Occupancy {
            capacity: Some(1),
            lone_inert: false,
            crowd_safe: false,
            capture: CaptureRule::One,
            join_mixed_crowd: false,
            join_enemy_by_move: false,
        }
    }
}

/// Which enemy pieces a capture onto a cell holding several pieces takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CaptureRule {
    /// One enemy piece, the mover's choice; each choice is a separate move.
    One,
    /// Every enemy piece on the cell.
    All,
}

/// A piece type.
#[derive(Clone, Debug, Serialize)]
pub struct PieceType {
    /// Full name, e.g. `Knight`.
    pub name: String,
    /// Notation letter, written uppercase for player 0 and lowercase for player 1.
    pub letter: char,
    /// A mark that tells this type from another of the same letter in position strings: `~`
    /// written after the letter (`Q~`, Fairy-Stockfish's promoted pieces) or `+` before it
    /// (`+P`, shogi's). Move notation writes the letter alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<char>,
    /// Losing all royal pieces (or having one captured / checkmated) ends the game.
    pub royal: bool,
    /// Designer-declared value in centipawns, if any.
    pub value: Option<i32>,
    /// Short notation omits the letter (as for pawns in SAN).
    pub san_without_letter: bool,
    /// Moving this piece resets the N-move counter (as a pawn move does).
    pub resets_move_clock: bool,
    /// A drop of this piece may not checkmate (shogi's pawn).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_drop_checkmate: bool,
    /// Which of this piece's actions may not give check: bits [`NO_CHECK_MOVES`],
    /// [`NO_CHECK_DROPS`], [`NO_CHECK_PROMOTIONS`] (sittuyin's promotion; 0: any may).
    #[serde(skip_serializing_if = "is_zero")]
    pub no_check: u8,
    /// Move and capture powers.
    pub moves: Vec<MoveRule>,
    /// Promotion, if the piece promotes: its first `promote` rule.
    pub promotion: Option<Promotion>,
    /// Its further `promote` rules, in the order written. Each reaches players none of the
    /// others reaches (its zones have cells for them), so a player has one rule at most:
    /// see [`PieceType::promotion_for`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_promotions: Vec<Promotion>,
    /// Two pieces of this type of different players may never stand on one cell or within this
    /// many steps of each other (counting steps along any direction of the board).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_apart: Option<u8>,
    /// Move programs: small programs run from the piece's cell that emit its moves (the
    /// general form of a move power; Zillions move bodies lower to these).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<Program>,
    /// Drop programs: run from every cell of the board for the player to move, their `add`
    /// places a new piece of this type there (taken from the hand, see `drop_supply`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drops: Vec<Program>,
    /// Where dropped pieces of this type come from.
    pub drop_supply: DropSupply,
    /// The attributes a new piece of this type carries set (the others start unset).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<AttributeId>,
    /// A captured piece of this type goes to the capturer's hand, as this type
    /// (`captured-to-hand [as TYPE]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_hand: Option<PieceTypeId>,
    /// A capture by this piece explodes: the capturer, the captured piece and the pieces one
    /// step from the target in these directions (as the capturer's player reads them) leave the
    /// board, except `blast_proof` ones beside it (`explodes DIRS`; atomic chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explodes: Option<Vec<DirId>>,
    /// The piece survives an explosion beside it (not one on its own cell).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub blast_proof: bool,
    /// While its player is in check, the piece moves only to take the one piece giving check:
    /// no other move of it is legal, nor any while two pieces give check (`held-by-check`;
    /// makpong's king).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub held_by_check: bool,
    /// What the piece counts for when an outcome is decided by points (`points N`), in
    /// hundredths of a point.
    #[serde(skip_serializing_if = "is_zero")]
    pub points: u32,
}

impl PieceType {
    /// Whether a piece of this type may stand on a location between cells: one of its moves
    /// may `stop-between`. Setups, position strings, drops and programs that place a piece
    /// there all ask this one question.
    pub fn stands_between(&self) -> bool {
        self.moves.iter().any(|m| m.stop_between)
    }

    /// Every `promote` rule of the piece, in the order written.
    pub fn promotions(&self) -> impl Iterator<Item = &Promotion> {
        self.promotion.iter().chain(&self.more_promotions)
    }

    /// The `promote` rule that applies to `player`: the first that reaches it.
    pub fn promotion_for(&self, zones: &[Zone], player: PlayerId) -> Option<&Promotion> {
        self.promotions().find(|p| p.reaches(zones, player))
    }
}

impl Promotion {
    /// Whether the rule can promote a piece of `player`: its zone, or the zone a move from
    /// promotes, has cells for it.
    pub fn reaches(&self, zones: &[Zone], player: PlayerId) -> bool {
        let has = |z: ZoneId| {
            zones.get(z.0 as usize).and_then(|z| z.cells.get(player.0 as usize)).is_some_and(|c| !c.is_empty())
        };
        has(self.zone) || self.from_zone.is_some_and(has)
    }
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// `no-check moves`: no move of the piece on the board may give check.
pub const NO_CHECK_MOVES: u8 = 1;
/// `no-check drops`: no drop of the piece may give check.
pub const NO_CHECK_DROPS: u8 = 2;
/// `no-check promotions`: no move that promotes the piece may give check.
pub const NO_CHECK_PROMOTIONS: u8 = 4;

/// Where a dropped piece comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DropSupply {
    /// The player's hand: a drop takes one piece of the type from it, and there must be one.
    Hand,
    /// An endless supply.
    Unlimited,
}

/// Promotion of a piece type on reaching a zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Promotion {
    /// Where the piece promotes (the zone's cells for the moving player).
    pub zone: ZoneId,
    /// A move that starts in this zone promotes too, wherever it ends (`or from ZONE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_zone: Option<ZoneId>,
    /// The piece types it may become.
    pub choices: Vec<PieceTypeId>,
    /// Whether promotion is compulsory on arrival.
    pub mandatory: bool,
    /// An optional promotion is compulsory on a move that ends in this zone (`except in ZONE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced_zone: Option<ZoneId>,
    /// A choice is offered only while the mover has fewer pieces of that type on the board
    /// than the setup gives it (`captured-only`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub captured_only: bool,
    /// A choice is offered only if some player had a piece of that type at the start (its
    /// setup and the options it chose): `setup-only`.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub setup_only: bool,
}

/// A castling move: a royal piece and a partner move together from fixed cells.
#[derive(Clone, Debug, Serialize)]
pub struct Castling {
    /// Notation, e.g. `O-O`.
    pub notation: String,
    /// The player who may castle.
    pub player: PlayerId,
    /// Letter of the right in position strings, e.g. `K`.
    pub right: char,
    /// The royal piece's start cell.
    pub king_from: CellId,
    /// The royal piece's end cell.
    pub king_to: CellId,
    /// The partner's start cell.
    pub partner_from: CellId,
    /// The partner's end cell.
    pub partner_to: CellId,
    /// Cells that must be empty (other than the two castling pieces).
    pub must_be_empty: Vec<CellId>,
    /// Cells that must not be attacked (the royal's start, path and end).
    pub must_be_safe: Vec<CellId>,
    /// A castling whose start cells come from the position (`from CELLS`, as chess960 needs):
    /// the king and partner stand anywhere on these cells. Then `king_from` and
    /// `partner_from` repeat the destinations and the two cell lists are empty; the rules
    /// derive one castling per pair of start cells.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub free: Option<FreeCastling>,
    /// `gained-by-drop KING PARTNER`: the right is gained when a drop leaves the player's piece
    /// of the first type on `king_from` and one of the second on `partner_from`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub gained_by_drop: Option<(PieceTypeId, PieceTypeId)>,
}

/// The start cells of a castling taken from the position: the player's piece of type `king`
/// on one of `cells`, and a piece of type `partner` on another, on the side of the king that
/// the partner's destination is left from (from `partner_to` towards `king_to`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FreeCastling {
    /// The type of the castling king.
    pub king: PieceTypeId,
    /// The type of the partner.
    pub partner: PieceTypeId,
    /// The cells the two may start on, in line order.
    pub cells: Vec<CellId>,
}

/// A gating right (`gate white right B at b1`): while the player holds it, a move of a piece
/// from one of its cells may place a piece from the player's hand on the cell left behind. A
/// letter that is also a castling right's is that right (lost as the castling is); another
/// letter is a right of its own, lost once a piece leaves or lands on one of its cells.
#[derive(Clone, Debug, Serialize)]
pub struct Gate {
    /// The player holding the right.
    pub player: PlayerId,
    /// Letter of the right in position strings and setups, e.g. `B`.
    pub right: char,
    /// The cells it gates.
    pub cells: Vec<CellId>,
    /// The types it never places (`except Pawn`), as Fairy-Stockfish gates a piece only where
    /// it could be dropped.
    pub except: Vec<PieceTypeId>,
    /// The enemy types that take the right away by ending a move where they would capture on
    /// one of its cells on an empty board (`aimed-by Rook`: a rook reaching the cell's rank or
    /// file, as Fairy-Stockfish ends Cambodian chess's king leap).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aimed_by: Vec<PieceTypeId>,
}

/// A phase: once its condition holds after a move, it stays on for the rest of the game.
#[derive(Clone, Debug, Serialize)]
pub struct Phase {
    /// The phase's name.
    pub name: String,
    /// When it begins.
    pub when: Condition,
}

/// The parts of a turn, in order.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// Each action of a turn; a turn is these actions in order.
    pub actions: Vec<TurnAction>,
}

/// One action slot of a turn.
#[derive(Clone, Debug, Serialize)]
pub struct TurnAction {
    /// Which kinds of action may fill the slot.
    pub kinds: Vec<ActionKind>,
    /// Whether the slot may be skipped by choice.
    pub optional: bool,
    /// The slot is skipped when no action of it is legal and these conditions all hold
    /// (`None`: it is never skipped that way, so a player who cannot fill it has no legal turn).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_if_none: Option<Vec<Condition>>,
}

/// How squares behave in a game where they are game objects.
#[derive(Clone, Debug, Serialize)]
pub struct SquareRules {
    /// Squares belong to players: a player moves only their own empty squares, and a piece
    /// landing on a square takes it for its owner. Otherwise squares are neutral.
    pub owned: bool,
    /// Squares each player holds in reserve at the start; `None`: an unlimited supply.
    pub reserve: Option<u32>,
    /// How an empty square moves to a location without a square (leaps; slides pass holes only).
    pub moves: Vec<Geometry>,
    /// How a square holding one of the mover's pieces moves, carrying the piece.
    pub carries: Vec<Geometry>,
    /// Whether a square holding a royal piece may be carried.
    pub carry_royal: bool,
    /// Where a square from reserve may be placed (`None`: on any location without a square).
    pub place_zone: Option<ZoneId>,
    /// Which squares the opponent's last turn makes untouchable for the mover.
    pub untouchable: Untouchable,
    /// When these conditions hold as a piece moves, the square it leaves is removed from the
    /// board (to the mover's reserve). `None`: squares stay.
    pub vacate: Option<Vec<Condition>>,
}

/// Walls: a wall is a location without a square (a hole), as `no-square` makes; pieces neither
/// stand on it nor pass it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WallRules {
    /// Where every piece move places a wall, if it places one.
    pub place: Option<WallPlace>,
    /// The zone the walls are placed in (the mover's cells of it); `None`: anywhere.
    pub zone: Option<ZoneId>,
    /// Piece types that turn into a wall when they capture: the capturer leaves the board and
    /// its cell loses its square.
    pub petrify: Vec<PieceTypeId>,
}

/// Where a piece move places its wall: always on a location with a square and no piece after
/// the move (a move with nowhere to place one is not a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum WallPlace {
    /// On a cell the moved piece could move to (without capturing) from where it landed, as
    /// the board stands after the move (the arrow of the Game of the Amazons).
    Arrow,
    /// On the cell the piece left.
    Past,
    /// On any empty cell.
    Anywhere,
    /// The duck: the walls placed before are lifted, then one is placed on any empty cell
    /// where none stood.
    Duck,
}

/// Which squares of the opponent's last turn the mover may not move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Untouchable {
    /// Any square may be moved.
    Nothing,
    /// The squares the opponent moved (where they now stand).
    Moved,
    /// The squares the opponent moved or placed.
    Touched,
}

/// A kind of action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ActionKind {
    /// Move a piece by its powers.
    MovePiece,
    /// Move a square to a location without one (an empty square, or one carrying a piece).
    MoveSquare,
    /// Place a square from reserve.
    PlaceSquare,
}

/// The starting position.
#[derive(Clone, Debug, Serialize)]
pub struct Setup {
    /// Pieces by cell: each cell's stack from bottom to top.
    pub placements: Vec<(CellId, Vec<(PlayerId, PieceTypeId)>)>,
    /// Letters of the castling rights held at the start.
    pub castling_rights: Vec<char>,
    /// Owners of squares at the start, for games where squares are owned: the squares under
    /// each player's pieces (other squares start unowned).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub square_owners: Vec<(CellId, PlayerId)>,
    /// Pieces in hand at the start: (player, type, how many).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<(PlayerId, PieceTypeId, u32)>,
    /// Shuffled placements drawn at the start (`shuffle`), in file order.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub shuffles: Vec<Shuffle>,
}

/// A shuffled placement: the same drawn arrangement fills each target's cells (in list
/// order), e.g. White's first rank and Black's last.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Shuffle {
    /// Per player: the cells filled, in order; every list has the same length.
    pub targets: Vec<(PlayerId, Vec<CellId>)>,
    /// The groups of pieces; together they fill every cell of a target once.
    pub groups: Vec<ShuffleGroup>,
}

/// Pieces of a shuffle that stand in this order along the cells (not necessarily side by
/// side), each on one of the allowed places.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ShuffleGroup {
    /// The pieces, in the order they stand.
    pub pieces: Vec<PieceTypeId>,
    /// The places (indices into a target's cells) they may take; `None`: any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub allowed: Option<Vec<u16>>,
}

/// What a variant's games write in PGN's `Variant` tag (`pgn-variant` in a `.var` file).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub enum PgnVariant {
    /// No declaration: the tag holds the variant's title.
    #[default]
    Title,
    /// PGN's own game, standard chess: no `Variant` tag, and no `SetUp`/`FEN` for a game from
    /// the variant's setup (`pgn-variant standard`).
    Standard,
    /// The tag holds this name (`pgn-variant "Crazyhouse"`).
    Named(String),
}

impl PgnVariant {
    /// Whether this is the default (for serialising only what a file declares).
    pub fn is_title(&self) -> bool {
        *self == PgnVariant::Title
    }
}

impl Variant {
    /// The history tests of the variant's goals, counting rules and `forbid` rules, with
    /// their indices: the inner test of each `before(...)`, whose value is kept with every
    /// move for the position after it, and each `streak(...)` itself, whose value a position
    /// extends from the one before.
    pub fn before_tests(&self) -> Vec<(u8, GoalTest)> {
        fn walk(t: &GoalTest, out: &mut Vec<(u8, GoalTest)>) {
            match t {
                GoalTest::Before(i, inner) => {
                    if !out.iter().any(|(j, _)| j == i) {
                        out.push((*i, (**inner).clone()));
                    }
                    walk(inner, out);
                }
                GoalTest::Streak(i, a, b) => {
                    if !out.iter().any(|(j, _)| j == i) {
                        out.push((*i, t.clone()));
                    }
                    walk(a, out);
                    walk(b, out);
                }
                GoalTest::Not(x) | GoalTest::Opponent(x) => walk(x, out),
                GoalTest::And(v) | GoalTest::Or(v) => v.iter().for_each(|x| walk(x, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        let counting = self.end.counting.iter().map(|c| &c.test);
        for t in self.end.goals.iter().map(|g| &g.test).chain(counting).chain(&self.forbids) {
            walk(t, &mut out);
        }
        out
    }

    /// The largest check count the variant's goals ask for: Fairy-Stockfish's position strings
    /// give the checks still needed to reach it (`3+3`).
    pub fn check_limit(&self) -> Option<u32> {
        self.end.goals.iter().filter_map(|g| g.test.checks_asked()).max()
    }
}
