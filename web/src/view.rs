//! The JSON view of a game: board geometry from the IR's display coordinates, the pieces, squares, legal moves and result.

use serde::Serialize;
use varia_interpreter::ir::{ActionKind, CellId, PlayerId};
use varia_interpreter::{GameResult, Move, MoveKind, Piece, Position, Rules};

/// One location of the board as the page draws it.
#[derive(Serialize)]
pub struct CellView {
    /// Name in notation.
    pub name: String,
    /// Every display position `[x, y, layer]` (a square shared by several boards has several).
    pub at: Vec<[i32; 3]>,
    /// For a location between squares: the names of the squares it covers (drawn at their centre).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<String>,
}

/// The board's shape: cells, the layers present, and which cells are shared by several boards.
#[derive(Serialize)]
pub struct BoardView {
    /// Every location, indexed as the engine indexes cells.
    pub cells: Vec<CellView>,
    /// The layers (boards) present, lowest first.
    pub layers: Vec<i32>,
    /// How the file asks for the board to be drawn (its `display` block).
    pub display: DisplayView,
}

/// The `display` block of the file: cells are indices into `cells`, players into `players`.
#[derive(Serialize)]
pub struct DisplayView {
    /// Pieces stand on the points where lines cross.
    pub points: bool,
    /// Extra straight lines, `[cell, cell]`.
    pub lines: Vec<[usize; 2]>,
    /// Gaps between two neighbouring rows: a cell of the row below, one of the row above, a label.
    pub rivers: Vec<RiverView>,
    /// Players whose pieces are drawn upside down.
    pub upside_down: Vec<u8>,
}

/// A river of [`DisplayView`].
#[derive(Serialize)]
pub struct RiverView {
    /// A cell of the row below.
    pub below: usize,
    /// A cell of the row above.
    pub above: usize,
    /// Text written in the gap.
    pub label: String,
}

/// A piece as drawn: letter (upper case for the first player), owner, type name.
#[derive(Serialize)]
pub struct PieceView {
    /// Letter (a marked type's, `Q~`, without its mark: it is drawn as the piece it moves as).
    pub letter: char,
    /// Symbol as in position strings (`Q~` for a marked type).
    pub symbol: String,
    /// Owner's index.
    pub player: u8,
    /// Type name.
    pub name: String,
    /// How the type moves, in Betza's notation, found on an empty board (`R`, `N`, `fsW`,
    /// `RpR`): the page draws a piece by it, by its name only to choose among pictures.
    pub moves: String,
    /// Whether the type is royal.
    pub royal: bool,
}

/// The contents of one occupied location.
#[derive(Serialize)]
pub struct StackView {
    /// Index into `board.cells`.
    pub cell: usize,
    /// The pieces, in the engine's canonical order (the games give a stack no order of
    /// arrival); the page draws the first lowest.
    pub pieces: Vec<PieceView>,
}

/// Squares as game objects: holes, owners, reserves, marks.
#[derive(Serialize)]
pub struct SquaresView {
    /// Cells without a square.
    pub holes: Vec<usize>,
    /// Owned squares: `[cell, player]`.
    pub owners: Vec<[usize; 2]>,
    /// Each player's squares in reserve (`null`: unlimited).
    pub reserves: Vec<Option<u32>>,
    /// Squares the side to move may not move this turn.
    pub untouchable: Vec<usize>,
    /// Squares touched so far this turn.
    pub touched: Vec<usize>,
}

/// The turn: whose, which action of how many, and what that action may be.
#[derive(Serialize)]
pub struct TurnView {
    /// The side to move.
    pub side: u8,
    /// The action due (0-based).
    pub action: usize,
    /// Actions in a turn.
    pub actions: usize,
    /// What the due action may be, in words.
    pub kinds: Vec<&'static str>,
}

/// One legal move, with everything the page needs to draw it and to tell it from others.
#[derive(Serialize)]
pub struct MoveView {
    /// Long notation: unique among the legal moves, used to play it.
    pub long: String,
    /// Short (SAN-like) notation.
    pub short: String,
    /// Start cell (for a placement, the cell placed on).
    pub from: usize,
    /// Target cell.
    pub to: usize,
    /// `move`, `castle`, `en-passant`, `move-square`, `carry-square`, `place-square`, `drop`,
    /// `end-turn` or `choice` (an option chosen before the first move: no cells).
    pub kind: &'static str,
    /// What the move does, in words (for choosing among moves sharing a click).
    pub label: String,
    /// For a drop: the name of the piece type dropped (chosen in the hand before the cell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
}

/// A played move.
#[derive(Serialize)]
pub struct PlayedView {
    /// Long notation.
    pub long: String,
    /// Short notation.
    pub short: String,
    /// Who played it.
    pub side: u8,
    /// Its start cell.
    pub from: usize,
    /// Its target cell.
    pub to: usize,
    /// What kind of move, as in [`MoveView::kind`] (a `choice` has no cells to mark).
    pub kind: &'static str,
}

/// Pieces of one type in a player's hand.
#[derive(Serialize)]
pub struct HandView {
    /// Symbol as in position strings (the player's case).
    pub symbol: String,
    /// Type name.
    pub name: String,
    /// How many.
    pub count: u32,
}

/// How the game ended.
#[derive(Serialize)]
pub struct ResultView {
    /// The winner's index, or `null` for a draw.
    pub winner: Option<u8>,
    /// `checkmate`, `stalemate`, `bare king`, `move rule` or `repetition`.
    pub reason: &'static str,
    /// One sentence for the banner.
    pub text: String,
}

/// A whole game as the page shows it.
#[derive(Serialize)]
pub struct GameView {
    /// The variant's title.
    pub title: String,
    /// Player names in turn order.
    pub players: Vec<String>,
    /// The players out of the game (games of more than two players), by index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<usize>,
    /// The board's shape.
    pub board: BoardView,
    /// The position string of the current position.
    pub position: String,
    /// Occupied locations (a piece standing between squares is listed at its location only).
    pub stacks: Vec<StackView>,
    /// Squares covered by a piece standing between squares: `[square, location]`.
    pub covered: Vec<[usize; 2]>,
    /// Squares as game objects, if the game has them.
    pub squares: Option<SquaresView>,
    /// Per player, the pieces in hand (dropped by clicking an empty cell), if the game has
    /// hands.
    pub hands: Option<Vec<Vec<HandView>>>,
    /// Cells that may now hold more than one piece: `[cell, most]` (`null`: no limit).
    pub capacity: Vec<(usize, Option<u8>)>,
    /// Whose turn and which action.
    pub turn: TurnView,
    /// Whether a royal piece of the side to move is attacked.
    pub check: bool,
    /// The cells of the side to move's royal pieces that are attacked (marked on the board).
    pub checked: Vec<usize>,
    /// The legal moves (none once the game is over).
    pub legal: Vec<MoveView>,
    /// The moves played from the start position.
    pub history: Vec<PlayedView>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// The position string the game started from.
    pub start: String,
    /// The game as PGN (Varia's notation where SAN has no form).
    pub pgn: String,
}

/// The board's shape, from the IR.
pub fn board(rules: &Rules) -> BoardView {
    let cells = &rules.variant.board.cells;
    let mut layers: Vec<i32> = cells.iter().map(|c| c.layer).collect();
    layers.sort();
    layers.dedup();
    BoardView {
        cells: cells
            .iter()
            .map(|c| CellView {
                name: c.name.clone(),
                at: std::iter::once([c.x, c.y, c.layer]).chain(c.also_at.iter().map(|&(x, y, l)| [x, y, l])).collect(),
                covers: c.covers.iter().map(|id| rules.cell_name(*id).to_string()).collect(),
            })
            .collect(),
        layers,
        display: display(&rules.variant.display),
    }
}

fn display(d: &varia_interpreter::ir::Display) -> DisplayView {
    DisplayView {
        points: d.points,
        lines: d.lines.iter().map(|(a, b)| [a.0 as usize, b.0 as usize]).collect(),
        rivers: d
            .rivers
            .iter()
            .map(|r| RiverView { below: r.below.0 as usize, above: r.above.0 as usize, label: r.label.clone() })
            .collect(),
        upside_down: d.upside_down.iter().map(|p| p.0).collect(),
    }
}

fn piece_view(rules: &Rules, looks: &[String], p: Piece) -> PieceView {
    let t = rules.type_of(p).0 as usize;
    let ty = &rules.variant.pieces[t];
    PieceView {
        letter: rules.piece_letter(p),
        symbol: rules.piece_symbol(p),
        player: rules.owner(p).0,
        name: ty.name.clone(),
        moves: looks.get(t).cloned().unwrap_or_default(),
        royal: ty.royal,
    }
}

/// Each player's pieces in hand, in the order of the piece types.
fn hands(pos: &Position) -> Option<Vec<Vec<HandView>>> {
    let rules = pos.rules();
    rules.has_hands().then(|| {
        (0..rules.player_count())
            .map(|p| {
                let player = PlayerId(p as u8);
                pos.hand(player)
                    .map(|(t, count)| HandView {
                        symbol: rules.piece_symbol(rules.piece(player, t)),
                        name: rules.variant.pieces[t.0 as usize].name.clone(),
                        count,
                    })
                    .collect()
            })
            .collect()
    })
}

pub(crate) fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Normal | MoveKind::Passage => "move",
        MoveKind::EnPassant => "en-passant",
        MoveKind::Castle => "castle",
        MoveKind::MoveSquare => "move-square",
        MoveKind::CarrySquare => "carry-square",
        MoveKind::PlaceSquare => "place-square",
        MoveKind::EndTurn => "end-turn",
        MoveKind::Choose => "choice",
        MoveKind::Program => "move",
        MoveKind::Drop => "drop",
    }
}

/// What a move does, in words: the piece that moves, what it takes, what it becomes.
fn label(pos: &Position, mv: Move) -> String {
    let rules = pos.rules();
    let type_name = |p: Piece| rules.variant.pieces[rules.type_of(p).0 as usize].name.clone();
    let promotion = mv.promotion().map(|t| format!(", promoting to {}", rules.variant.pieces[t.0 as usize].name));
    let promotion = promotion.unwrap_or_default();
    match mv.kind {
        MoveKind::EndTurn => "end the turn here".to_string(),
        MoveKind::Choose => {
            let c = &rules.variant.choices[mv.seq as usize];
            format!("{} ({})", c.options[mv.extra as usize].title, c.name)
        }
        MoveKind::PlaceSquare => "place a square from reserve".to_string(),
        MoveKind::MoveSquare => "move the empty square".to_string(),
        MoveKind::CarrySquare => match pos.piece_at(mv.from) {
            Some(p) => format!("move the square with the {} on it{promotion}", type_name(p)),
            None => format!("move the square{promotion}"),
        },
        MoveKind::Castle => "castle".to_string(),
        MoveKind::Drop => format!("drop a {}{promotion}", type_name(mv.piece)),
        MoveKind::Program => {
            let take = if mv.is_capture() { format!(", capturing the {}", type_name(mv.take)) } else { String::new() };
            format!("{} moves{take}{promotion}", type_name(mv.piece))
        }
        MoveKind::EnPassant => format!("{} captures en passant", type_name(mv.piece)),
        MoveKind::Normal | MoveKind::Passage => {
            let mover = type_name(mv.piece);
            let from_stack = if pos.pieces_at(mv.from).len() > 1 { " from the stack" } else { "" };
            let take = if mv.take == Piece::ALL {
                ", capturing every enemy piece there".to_string()
            } else if mv.is_capture() {
                format!(", capturing the {}", type_name(mv.take))
            } else if !pos.pieces_at(mv.to).is_empty() {
                ", joining the pieces there".to_string()
            } else {
                String::new()
            };
            format!("{mover}{from_stack} moves{take}{promotion}")
        }
    }
}

fn squares(pos: &Position) -> Option<SquaresView> {
    let rules = pos.rules();
    rules.variant.squares.as_ref()?;
    let n = rules.cell_count();
    let cells = || (0..n).map(|i| CellId(i as u16));
    Some(SquaresView {
        holes: cells().filter(|c| !rules.is_between(*c) && !pos.has_square(*c)).map(|c| c.0 as usize).collect(),
        owners: cells().filter_map(|c| pos.square_owner(c).map(|p| [c.0 as usize, p.0 as usize])).collect(),
        reserves: (0..rules.player_count()).map(|p| pos.reserve(PlayerId(p as u8))).collect(),
        untouchable: pos.untouchable_squares().iter().map(|c| c.0 as usize).collect(),
        touched: pos.touched_squares().iter().map(|c| c.0 as usize).collect(),
    })
}

/// The whole view of `pos`; `history` are the moves played from the start, with their sides.
pub fn game(pos: &mut Position, history: Vec<PlayedView>) -> GameView {
    let rules = pos.rules().clone();
    let looks = crate::look::cached(&rules);
    let names: Vec<String> = rules.variant.players.iter().map(|p| p.name.clone()).collect();
    // The legal moves once, for the end test and the list.
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let result = pos.outcome_given(!legal.is_empty()).map(|(result, reason)| {
        let (winner, text) = match result {
            GameResult::Win(p) => (Some(p.0), format!("{} by {}", rules.winners_phrase(p), reason.name())),
            GameResult::Draw => (None, format!("draw by {}", reason.name())),
        };
        ResultView { winner, reason: reason.name(), text }
    });
    if result.is_some() {
        legal.clear();
    }
    let shorts = pos.short_notations(&legal);
    let legal_views = legal
        .iter()
        .zip(shorts)
        .map(|(&mv, short)| MoveView {
            long: pos.long_notation(mv),
            short,
            from: mv.from.0 as usize,
            to: mv.to.0 as usize,
            kind: kind_name(mv.kind),
            label: label(pos, mv),
            piece: (mv.kind == MoveKind::Drop)
                .then(|| rules.variant.pieces[rules.type_of(mv.piece).0 as usize].name.clone()),
        })
        .collect();
    let slots = &rules.variant.turn.actions;
    let action = pos.action_index().min(slots.len().saturating_sub(1));
    let kinds = slots
        .get(action)
        .map(|s| {
            s.kinds
                .iter()
                .map(|k| match k {
                    ActionKind::MovePiece => "move a piece",
                    ActionKind::MoveSquare => "move a square",
                    ActionKind::PlaceSquare => "place a square",
                })
                .collect()
        })
        .unwrap_or_default();
    GameView {
        title: rules.variant.title.clone(),
        players: names,
        out: (0..rules.player_count()).filter(|p| pos.is_out(PlayerId(*p as u8))).collect(),
        board: board(&rules),
        position: pos.to_position_string(),
        stacks: (0..rules.cell_count())
            .map(|i| CellId(i as u16))
            .filter(|c| !pos.pieces_at(*c).is_empty() && pos.standing_at(*c) == *c)
            .map(|c| StackView {
                cell: c.0 as usize,
                pieces: pos.pieces_at(c).iter().map(|p| piece_view(&rules, &looks, *p)).collect(),
            })
            .collect(),
        covered: (0..rules.cell_count())
            .map(|i| CellId(i as u16))
            .filter(|c| pos.standing_at(*c) != *c)
            .map(|c| [c.0 as usize, pos.standing_at(c).0 as usize])
            .collect(),
        squares: squares(pos),
        hands: hands(pos),
        capacity: (0..rules.cell_count())
            .map(|i| CellId(i as u16))
            .filter(|c| rules.is_stack_cell(*c))
            .map(|c| (c.0 as usize, rules.occupancy(c, pos.phases()).capacity))
            .filter(|(_, most)| *most != Some(1))
            .collect(),
        turn: TurnView { side: pos.side_to_move().0, action, actions: slots.len(), kinds },
        check: pos.in_check(),
        checked: checked(pos),
        legal: legal_views,
        history,
        result,
        start: {
            let mut p = pos.clone();
            while p.ply() > 0 {
                p.unmake();
            }
            p.to_position_string()
        },
        pgn: varia_interpreter::pgn::write(
            pos,
            &[("Event", "Varia playground".to_string()), ("Date", varia_interpreter::pgn::today())],
        ),
    }
}

/// The attacked royal cells of the side to move.
fn checked(pos: &Position) -> Vec<usize> {
    if !pos.in_check() {
        return Vec::new();
    }
    let side = pos.side_to_move();
    let players = pos.rules().player_count();
    pos.royal_cells(side)
        .filter(|c| (0..players).map(|p| PlayerId(p as u8)).any(|p| p != side && pos.is_attacked(*c, p)))
        .map(|c| c.0 as usize)
        .collect()
}
