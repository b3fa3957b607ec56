//! Lowers an expanded rule file (the game, or one of its variants) into Varia's IR `Variant`.
//!
//! The mapping follows `SEMANTICS.md` and the rulings written as comments where they are
//! implemented. Everything the IR cannot express is a located [`ZrfError`] saying so
//! (`unsupported ZRF construct 'NAME'`); forms that only change the presentation are ignored,
//! and options Zillions itself would ignore are reported as [`ZrfNote`]s.
mod blocks;
mod board;
mod canonical;
mod duplicates;
mod goals;
mod keywords;
mod opposite;
mod options;
mod pieces;
mod players;
mod program;

use std::collections::HashMap;
use std::ops::Range;

use varia_interpreter::ir::{
    ActionKind, AttributeId, DropSupply, EndRules, FlagId, MoveTypeId, Outcome, PieceType, PieceTypeId, PlayRules,
    PlayerId, Setup, Turn, TurnAction, Variant, Zone, ZoneId,
};

use crate::macros::{expand, read};
use crate::reader::{parse, Sexp, SexpKind, ZrfError};
use varia_interpreter::limits::{compile_work, TooMuchWork, MAX_COMPILE_WORK};

/// The player added to a game of one player (see `players_of`).
pub const NOBODY: &str = "Nobody";

/// Most piece types a game may have.
pub const MAX_PIECE_TYPES: usize = varia_interpreter::limits::PIECE_TYPES;

/// Most positions a board may have (all grids together, before `kill-positions`): the
/// engine's limit on cells.
pub const MAX_POSITIONS: usize = varia_interpreter::limits::MAX_CELLS;

/// Most entries of the other id spaces (directions, zones, players, move types, attributes,
/// flags), all numbered by one byte in the IR.
const MAX_BYTE_IDS: usize = 256;

/// A Zillions game loaded into the IR.
#[derive(Debug, Clone)]
pub struct Game {
    /// The game (or the chosen variant) in Varia's IR.
    pub variant: Variant,
    /// Things that were ignored, e.g. options Zillions does not know.
    pub notes: Vec<ZrfNote>,
}

/// Something the loader ignored, located in the source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZrfNote {
    /// What was ignored and why.
    pub message: String,
    /// Byte range of the form in the source.
    pub span: Range<usize>,
}

/// Reads, expands and lowers a rule file.
///
/// `choice` is `None` for the `(game ...)` itself — Varia's ruling: `(default)` only preselects a
/// menu entry in Zillions, so the game is loaded unless a variant is asked for — or the title of
/// a variant, or its 1-based number among the playable variants (menu separators
/// `(variant (title "-"))` are not counted).
pub fn load(text: &str, choice: Option<&str>) -> Result<Game, ZrfError> {
    load_with(text, choice, &mut |name| {
        Err(format!("cannot include \"{name}\": this file was given as text, not read from a folder"))
    })
}

/// [`load`], with `read` giving the text of each file an `(include "NAME")` names.
pub fn load_with(
    text: &str,
    choice: Option<&str>,
    read: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Game, ZrfError> {
    let forms = crate::source::splice_includes(parse(text)?, read)?;
    let file = expand(text, forms)?;
    let mut game = None;
    for form in &file.forms {
        match form.head().map(str::to_ascii_lowercase).as_deref() {
            Some("game") if game.is_none() => game = Some(form),
            Some("game") => return Err(error(text, "a rule file may hold only one (game ...)", form, "a second game")),
            Some("variant") | Some("version") => {}
            _ => return Err(unsupported(text, form, "at the top level of the file")),
        }
    }
    let Some(game) = game else {
        return Err(ZrfError::new("the file has no (game ...) form", 0..0, "a game is required"));
    };
    let (items, place) = match choice {
        None => (game.tail().iter().collect::<Vec<_>>(), "in the game".to_string()),
        Some(choice) => {
            let variants = playable_variants(game, file.variants());
            let found = variants.iter().find(|(title, _)| title == choice).or_else(|| {
                let number = choice.trim().parse::<usize>().ok()?;
                variants.get(number.checked_sub(1)?)
            });
            let Some((title, variant)) = found else {
                let listed: Vec<String> =
                    variants.iter().enumerate().map(|(i, (title, _))| format!("{} '{title}'", i + 1)).collect();
                let listed = if listed.is_empty() { "none".to_string() } else { listed.join(", ") };
                return Err(ZrfError::new(
                    format!("no variant '{choice}' in this file; the variants are: {listed}"),
                    game.span.start..game.span.start,
                    "choose a variant by title or number",
                ));
            };
            (merge(game, variant), format!("in variant '{title}'"))
        }
    };
    let mut lowerer = Lowerer::new(text);
    let variant = lowerer.lower(&items, &place)?;
    Ok(Game { variant, notes: lowerer.notes })
}

/// The game's title, then the title of each playable variant (menu separators left out).
pub fn variant_titles(text: &str) -> Result<Vec<String>, ZrfError> {
    let file = read(text)?;
    let Some(game) = file.game() else {
        return Err(ZrfError::new("the file has no (game ...) form", 0..0, "a game is required"));
    };
    let mut titles = vec![title_of(game.tail().iter()).unwrap_or_default()];
    titles.extend(playable_variants(game, file.variants()).into_iter().map(|(title, _)| title));
    Ok(titles)
}

/// The playable variants with their titles (a variant without a title borrows the game's).
fn playable_variants<'a>(game: &'a Sexp, variants: impl Iterator<Item = &'a Sexp>) -> Vec<(String, &'a Sexp)> {
    let fallback = title_of(game.tail().iter()).unwrap_or_default();
    variants
        .filter_map(|variant| match title_of(variant.tail().iter()) {
            Some(title) if title.trim() == "-" => None, // a menu separator
            Some(title) => Some((title, variant)),
            None => Some((fallback.clone(), variant)),
        })
        .collect()
}

fn title_of<'a>(mut items: impl Iterator<Item = &'a Sexp>) -> Option<String> {
    let title = items.find(|item| item.is_form("title"))?;
    Some(title.tail().first().and_then(Sexp::text).unwrap_or_default().to_string())
}

/// The items of a variant merged with the game's (Dagaz's rule, SEMANTICS.md section 9): the
/// variant's items first, then every game item whose head and `(name X)` the variant does not
/// restate. So a variant's `(piece (name Pawn) ...)` replaces only the Pawn, and its
/// `loss-condition`s replace all of the game's loss conditions.
fn merge<'a>(game: &'a Sexp, variant: &'a Sexp) -> Vec<&'a Sexp> {
    let own: Vec<&Sexp> = variant.tail().iter().collect();
    let keys: Vec<(String, Option<String>)> = own.iter().filter_map(|item| merge_key(item)).collect();
    let kept = game.tail().iter().filter(|item| merge_key(item).filter(|key| keys.contains(key)).is_none());
    own.into_iter().chain(kept).collect()
}

fn merge_key(item: &Sexp) -> Option<(String, Option<String>)> {
    let head = item.head()?.to_ascii_lowercase();
    let name = item.tail().iter().find(|child| child.is_form("name"));
    Some((head, name.and_then(|name| name.tail().first()).and_then(Sexp::text).map(str::to_ascii_lowercase)))
}

/// The name of a construct for messages: a word, or the head of a list.
fn construct_name(node: &Sexp) -> String {
    match &node.kind {
        SexpKind::Atom(text) | SexpKind::Str(text) => text.clone(),
        SexpKind::List(items) => match items.first() {
            Some(first) => first.text().map_or_else(|| "a list headed by a list".to_string(), str::to_string),
            None => "()".to_string(),
        },
    }
}

/// An error at a node, with the chain of macro uses it came from appended (as the expander does).
fn error(text: &str, message: impl Into<String>, node: &Sexp, label: impl Into<String>) -> ZrfError {
    let mut message = message.into();
    if let Some(expansion) = &node.expanded_from {
        message = format!("{message}, {}", expansion.describe(text));
    }
    ZrfError::new(message, node.span.clone(), label)
}

fn unsupported(text: &str, node: &Sexp, label: impl Into<String>) -> ZrfError {
    error(text, format!("unsupported ZRF construct '{}'", construct_name(node)), node, label)
}

/// Forms that only change the presentation, accepted and ignored wherever they appear.
fn is_presentation(head: &str) -> bool {
    let head = head.to_ascii_lowercase();
    matches!(
        head.as_str(),
        "title"
            | "description"
            | "history"
            | "strategy"
            | "help"
            | "notation"
            | "open"
            | "image"
            | "glyph"
            | "music"
            | "start-rectangle"
            | "version"
            | "default"
    ) || head.ends_with("-sound")
}

/// A list of names with ids, looked up by exact spelling first, then ignoring ASCII case (the
/// corpus is consistent, but Zillions' own case rules are unknown).
#[derive(Debug, Default, Clone)]
pub(crate) struct Names {
    list: Vec<String>,
    exact: HashMap<String, usize>,
    folded: HashMap<String, usize>,
}

impl Names {
    fn get(&self, name: &str) -> Option<usize> {
        self.exact.get(name).or_else(|| self.folded.get(&name.to_ascii_lowercase())).copied()
    }

    /// The id of `name`, adding it when new.
    fn intern(&mut self, name: &str) -> usize {
        if let Some(&id) = self.exact.get(name) {
            return id;
        }
        let id = self.list.len();
        self.list.push(name.to_string());
        self.exact.insert(name.to_string(), id);
        self.folded.entry(name.to_ascii_lowercase()).or_insert(id);
        id
    }

    fn len(&self) -> usize {
        self.list.len()
    }
}

/// The items of a game, sorted by kind.
#[derive(Default)]
struct Items<'s> {
    players: Option<&'s Sexp>,
    turn_order: Option<&'s Sexp>,
    priorities: Vec<&'s Sexp>,
    boards: Vec<&'s Sexp>,
    pieces: Vec<&'s Sexp>,
    setups: Vec<&'s Sexp>,
    goals: Vec<&'s Sexp>,
    options: Vec<&'s Sexp>,
    title: Option<String>,
}

pub(crate) struct Lowerer<'t> {
    pub(crate) text: &'t str,
    pub(crate) notes: Vec<ZrfNote>,
    pub(crate) players: Names,
    pub(crate) dirs: Names,
    /// The final cells (after `kill-positions`).
    pub(crate) cells: Names,
    /// Positions removed by `kill-positions`, for a clearer message when one is named.
    pub(crate) killed: Names,
    pub(crate) zones: Names,
    /// Per zone, per player: its cells.
    pub(crate) zone_cells: Vec<Vec<Vec<usize>>>,
    pub(crate) pieces: Names,
    pub(crate) move_types: Names,
    pub(crate) attributes: Names,
    pub(crate) flags: Names,
    /// Per direction, the direction `(opposite d)` steps in (see `opposite.rs`).
    pub(crate) opposites: Vec<Option<varia_interpreter::ir::DirId>>,
    /// The first position one step in a direction leads to, by (position, direction).
    pub(crate) steps: HashMap<(usize, usize), usize>,
    /// Per player: the turn order names it (a player it leaves out is neutral).
    pub(crate) has_turns: Vec<bool>,
    /// Dagaz's `"sliding-puzzle"` option is on, and each piece type's block number.
    pub(crate) sliding_puzzle: bool,
    pub(crate) block_values: blocks::BlockValues,
}

impl<'t> Lowerer<'t> {
    fn new(text: &'t str) -> Self {
        Lowerer {
            text,
            notes: Vec::new(),
            players: Names::default(),
            dirs: Names::default(),
            cells: Names::default(),
            killed: Names::default(),
            zones: Names::default(),
            zone_cells: Vec::new(),
            pieces: Names::default(),
            move_types: Names::default(),
            attributes: Names::default(),
            flags: Names::default(),
            opposites: Vec::new(),
            steps: HashMap::new(),
            has_turns: Vec::new(),
            sliding_puzzle: false,
            block_values: Vec::new(),
        }
    }

    pub(crate) fn err(&self, message: impl Into<String>, node: &Sexp, label: impl Into<String>) -> ZrfError {
        error(self.text, message, node, label)
    }

    pub(crate) fn unsupported(&self, node: &Sexp, label: impl Into<String>) -> ZrfError {
        unsupported(self.text, node, label)
    }

    /// Adds a name to a one-byte id space, failing past its size.
    pub(crate) fn intern_byte(&self, names: &mut Names, name: &str, what: &str, node: &Sexp) -> Result<u8, ZrfError> {
        self.intern_limited(names, name, what, node, MAX_BYTE_IDS)
    }

    /// Adds a name to an id space of at most `most` names, failing past it with the limit named.
    pub(crate) fn intern_limited(
        &self,
        names: &mut Names,
        name: &str,
        what: &str,
        node: &Sexp,
        most: usize,
    ) -> Result<u8, ZrfError> {
        let id = names.intern(name);
        if id >= most.min(MAX_BYTE_IDS) {
            return Err(self.err(
                format!("more than {} {what}s", most.min(MAX_BYTE_IDS)),
                node,
                format!("too many {what}s: Varia allows at most {}", most.min(MAX_BYTE_IDS)),
            ));
        }
        Ok(id as u8)
    }

    pub(crate) fn move_type(&mut self, node: &Sexp) -> Result<MoveTypeId, ZrfError> {
        let Some(name) = node.as_atom() else {
            return Err(self.err("a move type must be a word", node, "expected a move-type name"));
        };
        let mut names = std::mem::take(&mut self.move_types);
        let id = self.intern_limited(&mut names, name, "move type", node, varia_interpreter::limits::MOVE_TYPES);
        self.move_types = names;
        id.map(MoveTypeId)
    }

    pub(crate) fn flag(&mut self, node: &Sexp) -> Result<FlagId, ZrfError> {
        let Some(name) = node.as_atom() else {
            return Err(self.err("a flag name must be a word", node, "expected a flag name"));
        };
        let mut names = std::mem::take(&mut self.flags);
        let id = self.intern_limited(&mut names, name, "flag", node, varia_interpreter::limits::FLAGS);
        self.flags = names;
        id.map(FlagId)
    }

    /// The attribute a condition word names (`never-moved?` names the attribute `never-moved`).
    pub(crate) fn attribute_named(&self, word: &str) -> Option<AttributeId> {
        let bare = word.strip_suffix('?').unwrap_or(word);
        let id = self.attributes.get(bare)?;
        u8::try_from(id).ok().map(AttributeId)
    }

    pub(crate) fn player(&self, node: &Sexp, label: &str) -> Result<PlayerId, ZrfError> {
        let found = node.as_atom().and_then(|name| self.players.get(name));
        match found.and_then(|id| u8::try_from(id).ok()) {
            Some(id) => Ok(PlayerId(id)),
            None => Err(self.err(format!("unknown player '{}'", construct_name(node)), node, label)),
        }
    }

    pub(crate) fn piece(&self, node: &Sexp, label: &str) -> Result<PieceTypeId, ZrfError> {
        let found = node.as_atom().and_then(|name| self.pieces.get(name));
        match found.and_then(|id| u8::try_from(id).ok()) {
            Some(id) => Ok(PieceTypeId(id)),
            None => Err(self.err(format!("unknown piece '{}'", construct_name(node)), node, label)),
        }
    }

    pub(crate) fn zone(&self, node: &Sexp, label: &str) -> Result<ZoneId, ZrfError> {
        let found = node.as_atom().and_then(|name| self.zones.get(name));
        match found.and_then(|id| u8::try_from(id).ok()) {
            Some(id) => Ok(ZoneId(id)),
            None => Err(self.err(format!("unknown zone '{}'", construct_name(node)), node, label)),
        }
    }

    /// The cell a position name denotes, explaining when it was removed by `kill-positions`.
    pub(crate) fn cell(&self, node: &Sexp, label: &str) -> Result<usize, ZrfError> {
        let name = node.as_atom().unwrap_or("");
        if let Some(cell) = self.cells.get(name) {
            return Ok(cell);
        }
        if self.killed.get(name).is_some() {
            return Err(self.err(format!("position '{name}' was removed by kill-positions"), node, label));
        }
        Err(self.err(format!("unknown position '{}'", construct_name(node)), node, label))
    }

    /// The game's items sorted by kind (the order inside each kind kept).
    fn sort_items<'s>(&self, items: &[&'s Sexp], place: &str) -> Result<Items<'s>, ZrfError> {
        let mut sorted = Items::default();
        for &item in items {
            let Some(head) = item.head() else {
                return Err(self.unsupported(item, place));
            };
            match head.to_ascii_lowercase().as_str() {
                "title" => {
                    sorted.title = Some(item.tail().first().and_then(Sexp::text).unwrap_or_default().to_string())
                }
                "players" if sorted.players.is_some() => {
                    return Err(self.err("'players' is given twice", item, place));
                }
                "players" => sorted.players = Some(item),
                "turn-order" if sorted.turn_order.is_some() => {
                    return Err(self.err("'turn-order' is given twice", item, place));
                }
                "turn-order" => sorted.turn_order = Some(item),
                "move-priorities" => sorted.priorities.push(item),
                "board" => sorted.boards.push(item),
                "piece" => sorted.pieces.push(item),
                "board-setup" => sorted.setups.push(item),
                "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => sorted.goals.push(item),
                "option" => sorted.options.push(item),
                _ if options::is_option_keyword(head) => sorted.options.push(item),
                _ if is_presentation(head) => {}
                _ => return Err(self.unsupported(item, place)),
            }
        }
        Ok(sorted)
    }

    fn lower(&mut self, items: &[&Sexp], place: &str) -> Result<Variant, ZrfError> {
        let Items { players: players_form, turn_order, priorities, boards, pieces, setups, goals, options, title } =
            self.sort_items(items, place)?;
        let Some(players_form) = players_form else {
            let at = items.first().map_or(0..0, |item| item.span.clone());
            return Err(ZrfError::new("the game has no (players ...)", at, place));
        };
        self.players_of(players_form)?;
        let turn_order = self.turns(players_form, turn_order)?;
        let mut move_priorities = Vec::new();
        for form in priorities {
            for item in form.tail() {
                move_priorities.push(self.move_type(item)?);
            }
        }

        let (board, symmetries) = self.whole_board(&boards, players_form)?;
        let players = self.player_maps(&symmetries);
        let set = self.options(&options)?;
        self.sliding_puzzle = set.sliding_puzzle;

        let pieces = self.drop_repeated_pieces(pieces)?;
        self.declare_pieces(&pieces)?;
        let (placements, hands) = self.setup(&setups)?;
        let goal_rules = self.goals(&goals)?;
        let mut piece_types = self.piece_types(&pieces, &goal_rules, &hands)?;
        if set.shared_pieces && piece_types.iter().any(|p| p.royal) {
            let at =
                options.iter().find(|o| o.tail().first().and_then(Sexp::text).is_some_and(|t| t.contains("shared")));
            return Err(self.err(
                "unsupported ZRF construct 'option \"shared pieces\"' with a checkmated goal",
                at.copied().unwrap_or(players_form),
                "checks are found from the pieces each player owns; with shared pieces every player moves every piece",
            ));
        }
        if self.sliding_puzzle {
            let values = std::mem::take(&mut self.block_values);
            self.sliding_blocks(&pieces, &mut piece_types, &values, &placements)?;
        }

        pieces::mark_letterless(&mut piece_types, &placements, &hands);

        let zones = self.ir_zones();
        let maximal_captures_prefer = set.maximal_captures_prefer(piece_types.len());
        let mut variant = Variant {
            title: title.unwrap_or_default(),
            // Ruling: a Zillions file declares nothing about PGN; its title is the tag.
            pgn_variant: varia_interpreter::ir::PgnVariant::Title,
            board,
            players,
            zones,
            pieces: piece_types,
            castlings: Vec::new(),
            gates: Vec::new(),
            phases: Vec::new(),
            turn: Turn {
                actions: vec![TurnAction { kinds: vec![ActionKind::MovePiece], optional: false, skip_if_none: None }],
            },
            squares: None,
            walls: None,
            setup: Setup {
                placements,
                castling_rights: Vec::new(),
                square_owners: Vec::new(),
                hands,
                shuffles: Vec::new(),
            },
            end: EndRules {
                // Without a checkmated goal nothing is royal, so this outcome never applies.
                checkmate: goal_rules.checkmate.unwrap_or(Outcome::Loss),
                // Ruling: with no stalemated goal, a player without moves draws.
                stalemate: goal_rules.stalemate.unwrap_or(Outcome::Draw),
                stalemate_for: None,
                bare_king: None,
                move_rule: None,
                move_rule_player: None,
                repetition: None,
                repetition_player: None,
                perpetual_check: None,
                goals: goal_rules.goals,
                points_bonus: Vec::new(),
                counting: Vec::new(),
            },
            move_types: self.move_types.list.clone(),
            move_priorities,
            attributes: self.attributes.list.clone(),
            flags: self.flags.list.clone(),
            turn_order,
            play: PlayRules {
                pass_partial: set.pass_partial,
                pass_turn: set.pass_turn,
                maximal_captures: set.maximal_captures,
                maximal_captures_prefer,
            },
            goals_count_hands: set.goals_count_hands,
            shared_pieces: set.shared_pieces,
            royal_check: varia_interpreter::ir::RoyalCheck::Any,
            must_capture: false,
            king_takes_partner: false,
            teams: Vec::new(),
            forbids: Vec::new(),
            choices: Vec::new(),
            display: Default::default(),
        };
        canonical::canonical_board(&mut variant);
        if let Err(too_much) = compile_work(&variant) {
            let at = match too_much {
                TooMuchWork::Piece(i) => pieces.get(i).copied(),
                TooMuchWork::Squares => None,
            };
            return Err(self.err(
                format!("the game is too large to compile: its move tables would hold more than {MAX_COMPILE_WORK} ray cells"),
                at.or(boards.first().copied()).unwrap_or(players_form),
                "expected a smaller board or fewer moves: this piece brings the tables past the limit",
            ));
        }
        Ok(variant)
    }

    /// The board of all `(board ...)` forms, with the players' symmetries; the steps and
    /// opposites the lowering of programs asks for are kept. A board without positions is an
    /// error.
    fn whole_board(
        &mut self,
        boards: &[&Sexp],
        players_form: &Sexp,
    ) -> Result<(varia_interpreter::ir::Board, Vec<board::Symmetry>), ZrfError> {
        let board_items: Vec<&Sexp> = boards.iter().flat_map(|board| board.tail()).collect();
        let (board, symmetries) = self.board(&board_items)?;
        self.opposites = opposite::opposites(&board);
        for link in &board.links {
            let key = (usize::from(link.from.0), usize::from(link.dir.0));
            self.steps.entry(key).or_insert(usize::from(link.to.0));
        }
        if board.cells.is_empty() {
            let (at, message) = match boards.first() {
                Some(form) => (form.span.clone(), "the board has no positions"),
                None => (players_form.span.clone(), "the game has no (board ...)"),
            };
            return Err(ZrfError::new(
                message,
                at,
                "expected a (board (grid ...)) or (board (positions ...)) with positions",
            ));
        }
        Ok((board, symmetries))
    }

    /// The piece types, with what the goals and the setup tell of them.
    fn piece_types(
        &mut self,
        pieces: &[&Sexp],
        goal_rules: &goals::GoalRules,
        hands: &pieces::Hands,
    ) -> Result<Vec<PieceType>, ZrfError> {
        let letters = self.letters();
        let mut piece_types = Vec::new();
        for (index, &form) in pieces.iter().enumerate() {
            let mut piece = self.piece_type(form, index, &letters)?;
            piece.royal = goal_rules.royal.contains(&index);
            // A count-condition's count: the player with the most pieces on the board.
            if goal_rules.counted {
                piece.points = 100;
            }
            // Ruling: a type that never appears `off` in the setup drops without limit; a type
            // without drops keeps the default (its supply is never asked).
            if hands.iter().any(|&(_, ty, _)| usize::from(ty.0) == index) || piece.drops.is_empty() {
                piece.drop_supply = DropSupply::Hand;
            }
            piece_types.push(piece);
        }
        Ok(piece_types)
    }

    /// The zones as the IR has them.
    fn ir_zones(&self) -> Vec<Zone> {
        self.zones
            .list
            .iter()
            .zip(&self.zone_cells)
            .map(|(name, per_player)| Zone {
                name: name.clone(),
                cells: per_player.iter().map(|cells| cells.iter().map(|&c| cell_id(c)).collect()).collect(),
                occupancy: None,
                phase_occupancy: Vec::new(),
            })
            .collect()
    }

    /// First pass over the pieces: names, ids and attributes, so that move bodies may name any
    /// piece or attribute.
    fn declare_pieces(&mut self, pieces: &[&Sexp]) -> Result<(), ZrfError> {
        for &form in pieces {
            let label = "in a piece";
            let name_form = form.tail().iter().find(|item| item.is_form("name"));
            let Some(name_node) = name_form.and_then(|n| n.tail().first()) else {
                return Err(self.err("a piece needs a (name ...)", form, label));
            };
            let Some(name) = name_node.as_atom() else {
                return Err(self.err("a piece name must be a word", name_node, label));
            };
            if self.pieces.get(name).is_some() {
                return Err(self.err(format!("piece '{name}' is defined twice"), name_node, label));
            }
            if self.pieces.len() >= MAX_PIECE_TYPES {
                return Err(self.err(
                    format!("more than {MAX_PIECE_TYPES} piece types"),
                    name_node,
                    format!("Varia allows at most {MAX_PIECE_TYPES} piece types"),
                ));
            }
            self.pieces.intern(name);
            for attribute in form.tail().iter().filter(|item| item.is_form("attribute")) {
                let Some(attr_name) = attribute.tail().first().and_then(Sexp::as_atom) else {
                    return Err(self.err("an attribute needs a name", attribute, format!("in piece {name}")));
                };
                // Registered without the conventional trailing '?'.
                let bare = attr_name.strip_suffix('?').unwrap_or(attr_name).to_string();
                let mut names = std::mem::take(&mut self.attributes);
                let id = self.intern_limited(
                    &mut names,
                    &bare,
                    "attribute",
                    attribute,
                    varia_interpreter::limits::ATTRIBUTES,
                );
                self.attributes = names;
                id?;
            }
        }
        Ok(())
    }

    fn piece_type(&mut self, form: &Sexp, index: usize, letters: &[char]) -> Result<PieceType, ZrfError> {
        let name = self.pieces.list.get(index).cloned().unwrap_or_default();
        let label = format!("in piece {name}");
        let letter = letters.get(index).copied().unwrap_or('?');
        if letter == '?' {
            // Position strings name a piece by one letter: past the 82 letters it would be
            // written as another piece.
            return Err(self.err(
                "more piece types than Varia has letters for position strings (82: A-Z, Greek and Cyrillic capitals)",
                form,
                label,
            ));
        }
        let mut piece = PieceType {
            letter,
            name: name.clone(),
            royal: false,
            value: None,
            // Decided once the setup is known (`pieces::mark_letterless`).
            san_without_letter: false,
            resets_move_clock: false,
            moves: Vec::new(),
            promotion: None,
            more_promotions: Vec::new(),
            keep_apart: None,
            programs: Vec::new(),
            drops: Vec::new(),
            drop_supply: DropSupply::Unlimited,
            attributes: Vec::new(),
            to_hand: None,
            explodes: None,
            blast_proof: false,
            held_by_check: false,
            points: 0,
            mark: None,
            no_drop_checkmate: false,
            no_check: 0,
        };
        for item in form.tail() {
            let Some(head) = item.head() else {
                return Err(self.unsupported(item, label));
            };
            match head.to_ascii_lowercase().as_str() {
                "name" => {}
                "attribute" => {
                    let value = item.tail().get(1);
                    let set = match value {
                        Some(v) if v.is_atom("true") => true,
                        Some(v) if v.is_atom("false") => false,
                        // Ruling: Dagaz's numeric attributes serve Dagaz's own extension code;
                        // only the sliding puzzles' are read (see blocks.rs).
                        Some(v) if v.as_atom().is_some_and(|a| a.parse::<i64>().is_ok()) || v.text().is_some() => {
                            self.dagaz_attribute(index, item, v, &label)?;
                            continue;
                        }
                        _ => {
                            return Err(self.err(
                                "an attribute's default must be true or false",
                                value.unwrap_or(item),
                                label,
                            ))
                        }
                    };
                    let attr = item.tail().first().and_then(Sexp::as_atom).and_then(|a| self.attribute_named(a));
                    if let (true, Some(attr)) = (set, attr) {
                        if !piece.attributes.contains(&attr) {
                            piece.attributes.push(attr);
                        }
                    }
                }
                "moves" => {
                    let context = format!("in a move body of piece {name}");
                    piece.programs.extend(self.programs(item.tail(), &context)?);
                }
                "drops" => {
                    let context = format!("in a drop body of piece {name}");
                    piece.drops.extend(self.programs(item.tail(), &context)?);
                }
                _ if is_presentation(head) => {}
                _ => return Err(self.unsupported(item, label)),
            }
        }
        Ok(piece)
    }
}

/// A cell index as an IR id; indices are bounded by [`MAX_POSITIONS`].
pub(crate) fn cell_id(index: usize) -> varia_interpreter::ir::CellId {
    varia_interpreter::ir::CellId(u16::try_from(index).unwrap_or(u16::MAX))
}
