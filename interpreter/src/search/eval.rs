//! The evaluation, derived from a variant's rules: piece values, piece-square tables from each piece's reach on the empty board and its distance to promotion, royal safety and the terms of squares, reserves and stacks, tapered by material, with weights a tuner can fit.
//!
//! Nothing here knows a game. Every term is a feature computed from the compiled rules and the
//! position, times a weight; the weights have defaults that work for any variant and can be
//! fitted to one variant's own games (`varia tune`) and read back from a file. The evaluation
//! is linear in the weights: [`Evaluator::features`] gives the features of a position (used by
//! the tuner) and [`Evaluator::evaluate`] the same sum computed from precomputed tables.

use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::bitset::CellSet;
use crate::ir::{CellId, PieceTypeId, PlayerId};
use crate::model::limits::PLAYERS;
use crate::position::{MoveKind, Position, TALLIED};
use crate::rules::{Piece, Rules};
use geometry::{lines_from, mean_distances, Cornering};
use passers::Passers;
use promoters::{promotion_distances, Promoter, Runaways};

mod counted;
mod geometry;
mod passers;
mod promoters;
mod royal_tables;
mod royal_terms;
use royal_tables::{castle_ends, mask_reach};
mod runaway;

/// The named terms of the evaluation besides piece values, each weighted separately in the
/// middle game and the endgame.
pub const TERMS: &[(&str, &str)] = &[
    ("reach", "per cell a piece reaches from its cell on the empty board, above its average over all cells"),
    ("centre", "per step a piece stands closer to the other cells than on average"),
    ("advance", "a promoting piece's progress to its zone: (1 - moves left / most moves)^2, times its gain / 8 pawns"),
    ("royal-centre", "per step a royal piece stands closer to the other cells than on average"),
    ("shelter", "per own piece next to a royal piece"),
    ("danger", "per enemy piece within two steps of a royal piece"),
    ("mobility", "per pseudo-legal move (computed only when its weights are not zero)"),
    ("reserve", "per square held in reserve (games where squares are placed)"),
    ("owned", "per square owned (games where squares are owned)"),
    ("crowd", "per piece sharing its cell with a friendly piece (games with stacks)"),
    ("cornering", "ahead by two pawns or more against one opponent: per step the enemy royal stands nearer the board's rim and the royals nearer each other"),
    ("open-lines", "per empty cell on the lines from a royal piece along each direction of the board, up to the first piece or the edge (computed only when its weights are not zero)"),
    ("royal-zone", "per cell next to a royal piece that an enemy attacks (computed only when its weights are not zero)"),
    ("royal-attack", "per royal piece: the enemy pieces whose moves land on it or next to it, times the cells of those they land on (read from the ray masks, on boards of up to 128 cells; computed only when its weights are not zero)"),
    ("castle", "per player that still holds a castling right or whose royal piece stands where one of its castlings ends (games with castling)"),
    ("runaway", "against one opponent with no piece but royal and promoting ones: per pawn of value a promotion adds, for a promoting piece whose way to its zone is empty and that the enemy royal cannot reach in time (only one side having one)"),
    ("passed", "per promoting piece whose way to its zone (the cells its moves land on, each no farther) no enemy promoting piece stands on or could reach by its moves and captures on an open board: (1 - moves left / most moves)^2, times its gain / 8 pawns (boards of up to 128 cells; computed only when its weights are not zero)"),
    ("hand-drops", "per royal piece: the pieces in enemy hands (up to 8) times the empty cells next to it, where a drop could land (games with hands; computed only when its weights are not zero)"),
    ("tempo", "for the side to move"),
];

/// A weight for the middle game and one for the endgame, in centipawns per unit of a feature.
pub type Phased = [f64; 2];

/// The evaluation's weights: what `varia tune` fits and writes, and what the engines read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// How many entries `pieces` and `terms` hold together, where the file says so: `varia
    /// tune` writes it first, so that a file cut short is refused rather than completed with
    /// defaults. Hand-written files may leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<usize>,
    /// The title of the variant the weights were fitted to.
    pub variant: String,
    /// What a draw by repetition or by the move rule is worth to the side that would rather
    /// play on, in centipawns: the search scores such draws `-contempt` for the player to move
    /// at the root, so that it prefers progress to repeating.
    #[serde(default = "default_contempt")]
    pub contempt: f64,
    /// Per piece type (by name): its value in the middle game and the endgame, in centipawns.
    /// Royal pieces have no value.
    #[serde(default)]
    pub pieces: IndexMap<String, Phased>,
    /// Per term of [`TERMS`]: its weights.
    #[serde(default)]
    pub terms: IndexMap<String, Phased>,
}

impl Weights {
    /// The default weights for a variant: declared piece values, or values from each piece's
    /// reach (`40 x cells reached on average + 20`), and the same term weights for every game.
    pub fn defaults(rules: &Arc<Rules>) -> Weights {
        Weights::with_values(rules, &base_values(rules))
    }

    /// The default weights with the given untuned piece values.
    fn with_values(rules: &Rules, values: &[i32]) -> Weights {
        let mut pieces = IndexMap::new();
        for (t, piece) in rules.variant.pieces.iter().enumerate() {
            if !piece.royal {
                pieces.insert(piece.name.clone(), [values[t] as f64; 2]);
            }
        }
        let defaults: &[(&str, Phased)] = &[
            ("reach", [3.0, 3.0]),
            ("centre", [8.0, 4.0]),
            ("advance", [60.0, 160.0]),
            ("royal-centre", [-12.0, 10.0]),
            ("shelter", [8.0, 0.0]),
            ("danger", [-6.0, 0.0]),
            ("mobility", [0.0, 0.0]),
            ("reserve", [20.0, 20.0]),
            ("owned", [4.0, 4.0]),
            ("crowd", [10.0, 10.0]),
            ("cornering", [0.0, 10.0]),
            ("open-lines", [0.0, 0.0]),
            ("royal-zone", [0.0, 0.0]),
            ("royal-attack", [0.0, 0.0]),
            ("castle", [0.0, 0.0]),
            ("runaway", [0.0, 50.0]),
            ("passed", [PASSED_MG, PASSED_EG]),
            ("hand-drops", [0.0, 0.0]),
            ("tempo", [10.0, 5.0]),
        ];
        let terms = defaults.iter().map(|(n, w)| (n.to_string(), *w)).collect();
        Weights { entries: None, variant: rules.variant.title.clone(), contempt: default_contempt(), pieces, terms }
    }

    /// Checks the weights against a variant: every piece name must be one of its non-royal
    /// piece types and every term one of [`TERMS`]; missing entries keep their defaults.
    /// Returns the completed weights, or a message naming what is wrong.
    pub fn completed(&self, rules: &Arc<Rules>) -> Result<Weights, String> {
        self.completed_with(rules, &base_values(rules))
    }

    fn completed_with(&self, rules: &Rules, values: &[i32]) -> Result<Weights, String> {
        let mut out = Weights::with_values(rules, values);
        for (name, w) in &self.pieces {
            if !out.pieces.contains_key(name) {
                let known: Vec<&str> = out.pieces.keys().map(|k| k.as_str()).collect();
                return Err(format!("unknown piece `{name}` (this variant's valued pieces: {})", known.join(", ")));
            }
            out.pieces[name] = *w;
        }
        for (name, w) in &self.terms {
            if !TERMS.iter().any(|(t, _)| t == name) {
                let known: Vec<&str> = TERMS.iter().map(|(t, _)| *t).collect();
                return Err(format!("unknown term `{name}` (known: {})", known.join(", ")));
            }
            out.terms[name] = *w;
        }
        for w in out.pieces.values().chain(out.terms.values()) {
            if !w.iter().all(|x| x.is_finite() && x.abs() <= 1e6) {
                return Err("every weight must be a number between -1000000 and 1000000".to_string());
            }
        }
        if !(self.contempt.is_finite() && self.contempt.abs() <= 10_000.0) {
            return Err("contempt must be a number between -10000 and 10000".to_string());
        }
        out.contempt = self.contempt;
        out.variant = self.variant.clone();
        Ok(out)
    }

    /// The weights as one vector, in the order of [`Evaluator::features`].
    pub fn to_vector(&self) -> Vec<f64> {
        self.pieces.values().chain(self.terms.values()).flat_map(|w| w.iter().copied()).collect()
    }

    /// Sets the weights from a vector in the order of [`Weights::to_vector`].
    pub fn set_vector(&mut self, v: &[f64]) {
        let mut it = v.iter().copied();
        for w in self.pieces.values_mut().chain(self.terms.values_mut()) {
            for x in w.iter_mut() {
                *x = it.next().unwrap_or(*x);
            }
        }
    }

    /// The names of the vector's entries (`Pawn.mg`, `reach.eg`, ...).
    pub fn vector_names(&self) -> Vec<String> {
        self.pieces.keys().chain(self.terms.keys()).flat_map(|k| [format!("{k}.mg"), format!("{k}.eg")]).collect()
    }
}

/// The contempt of the default weights.
fn default_contempt() -> f64 {
    15.0
}

/// Every piece type's value without tuning: the declared `value`, or `40 x m + 20` where `m`
/// is the average number of cells the piece reaches from a cell of the empty board (a rook on
/// 8x8 reaches 14: 580; a knight 5.25: 230). Royal pieces: 0.
pub fn base_values(rules: &Arc<Rules>) -> Vec<i32> {
    (0..rules.variant.pieces.len())
        .map(|t| {
            let needs_reach = !rules.variant.pieces[t].royal && rules.variant.pieces[t].value.is_none();
            let reach = if needs_reach { reach_with(rules, PlayerId(0), PieceTypeId(t as u8)).0 } else { Vec::new() };
            value_from_reach(rules, PieceTypeId(t as u8), &reach)
        })
        .collect()
}

/// A piece type's untuned value, given its reach per cell (used when none is declared).
fn value_from_reach(rules: &Rules, ty: PieceTypeId, reach: &[usize]) -> i32 {
    let piece = &rules.variant.pieces[ty.0 as usize];
    if piece.royal {
        return 0;
    }
    piece.value.unwrap_or_else(|| {
        let avg = reach.iter().sum::<usize>() as f64 / reach.len().max(1) as f64;
        (40.0 * avg + 20.0).round() as i32
    })
}

/// Reach per cell and the cells reached, per cell, for one piece type of one player: how many
/// cells the piece reaches from each cell in one move, alone on a board where every location
/// has a square (drops left out).
fn reach_with(rules: &Arc<Rules>, player: PlayerId, ty: PieceTypeId) -> (Vec<usize>, Vec<Vec<CellId>>) {
    let n = rules.cell_count();
    let piece = rules.piece(player, ty);
    let mut counts = vec![0; n];
    let mut targets = vec![Vec::new(); n];
    let mut moves = Vec::new();
    for c in 0..n {
        let cell = CellId(c as u16);
        let pos = Position::lone_piece(rules.clone(), cell, piece);
        pos.pseudo_legal_moves(&mut moves);
        let mut seen = CellSet::new(n);
        for m in &moves {
            if m.from == cell && m.kind != MoveKind::Drop && m.to != cell && !seen.contains(m.to) {
                seen.insert(m.to);
                targets[c].push(m.to);
            }
        }
        counts[c] = seen.len();
    }
    (counts, targets)
}

/// Index of a term in [`TERMS`], as a constant for the code below.
const REACH: usize = 0;
const CENTRE: usize = 1;
const ADVANCE: usize = 2;
const ROYAL_CENTRE: usize = 3;
const SHELTER: usize = 4;
const DANGER: usize = 5;
const MOBILITY: usize = 6;
const RESERVE: usize = 7;
const OWNED: usize = 8;
const CROWD: usize = 9;
const CORNERING: usize = 10;
const OPEN_LINES: usize = 11;
const ROYAL_ZONE: usize = 12;
const ROYAL_ATTACK: usize = 13;
const CASTLE: usize = 14;
const RUNAWAY: usize = 15;
const PASSED: usize = 16;
const HAND_DROPS: usize = 17;
/// Tempo comes last: it is added after the move clock's scaling.
const TEMPO: usize = 18;
const TERM_COUNT: usize = 19;
/// The passed term's default weights.
const PASSED_MG: f64 = 0.0;
const PASSED_EG: f64 = 0.0;
/// How far ahead in material a player must be for the cornering term, in centipawns.
const CORNERING_LEAD: i64 = 200;

/// A royal piece's value in exchanges: more than any material it could win.
const ROYAL_EXCHANGE: i32 = 20_000;

/// Phase is counted in 256ths: 256 with all the start's material on the board, 0 with none.
const PHASE_ONE: i64 = 256;

/// How an evaluation values the pieces and the position.
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: Weights,
    /// Per piece type: its untuned value in centipawns (royal pieces 0).
    values: Vec<i32>,
    /// Per piece code: [`Evaluator::exchange_value`] (no piece 0), read at every capture an
    /// ordering scores and every step of an exchange.
    exchange: Vec<i32>,
    /// Per piece type: whether the value was declared in the `.var` file.
    declared: Vec<bool>,
    /// Per piece type: its weights' index in the feature vector (royal: none).
    piece_index: Vec<Option<usize>>,
    cells: usize,
    /// Per (piece code, cell): the piece's [mg, eg] contribution from its owner's view: value
    /// and the cell's table terms.
    table: Vec<[i32; 2]>,
    /// `table` with each piece's material (untuned value) and its key for the passed term's
    /// cache (see [`Passers::key`]) beside, for a search to attach to its position, whose board
    /// then keeps the sums per player ([`Position::tally_sums`]).
    squares: Arc<Vec<[i32; TALLIED]>>,
    /// Per (piece code, cell): the table features (reach, centre, advance, royal centre).
    cell_features: Vec<[f64; 4]>,
    /// Per cell: the cells one step and two steps away.
    near1: Vec<CellSet>,
    near2: Vec<CellSet>,
    /// Per player: the players not allied to it.
    enemies: Vec<Vec<PlayerId>>,
    /// Per cell: the cells of each line from it, one per direction of the board (the first of
    /// the cells a step reaches, where rays branch), nearest first.
    lines: Vec<Vec<Vec<CellId>>>,
    /// Per player: the bits of its castling rights and the cells its castlings bring its royal
    /// piece to (no castling: no bits, no cells).
    castles: Vec<(u32, CellSet)>,
    /// Per (piece code, cell): every cell the ray masks let the piece land on from there on
    /// any board (rays run out on the empty board, every cell may be taken), so that the royal
    /// attack term looks only at pieces that could reach a zone; empty without masks.
    empty_reach: Vec<u128>,
    /// Distances for the cornering and runaway terms (boards of up to [`Cornering::MAX_CELLS`]
    /// cells).
    cornering: Option<Cornering>,
    /// What the runaway term reads: the promoting pieces' ways to their zones.
    runaways: Runaways,
    /// What the passed term reads (none where no piece promotes or the board is too large).
    passers: Option<Passers>,
    /// The material (untuned values) of the start position, for the phase.
    start_material: i64,
    /// Term weights as integers: [mg, eg] per term.
    term: Vec<[i32; 2]>,
    /// The counted terms besides shelter and danger that weigh (not zero) and that the variant
    /// can count: the only ones the evaluation counts (the others add nothing).
    weighed: Vec<usize>,
    /// Some player may hold pieces in hand (a setup's hands or a piece's drops).
    holds_hands: bool,
    /// Scales the evaluation down as the move clock grows (none without a move rule).
    clock_span: u32,
}

impl Evaluator {
    /// An evaluation with the default weights.
    pub fn new(rules: &Arc<Rules>) -> Evaluator {
        Evaluator::build(rules, None)
    }

    /// An evaluation with the given weights, completed with the defaults; an error names a
    /// piece or term the variant does not have (see [`Weights::completed`]).
    pub fn with_weights(rules: &Arc<Rules>, weights: &Weights) -> Result<Evaluator, String> {
        let mut e = Evaluator::build(rules, None);
        e.weights = weights.completed_with(rules, &e.values)?;
        e.build_tables(rules);
        Ok(e)
    }

    fn build(rules: &Arc<Rules>, weights: Option<Weights>) -> Evaluator {
        let n = rules.cell_count();
        let types = rules.variant.pieces.len();
        let players = rules.player_count();
        let codes = players * types + 1;
        // Reach and targets per (player, type), computed once.
        let mut reach = Vec::with_capacity(players * types);
        for p in 0..players {
            for t in 0..types {
                reach.push(reach_with(rules, PlayerId(p as u8), PieceTypeId(t as u8)));
            }
        }
        let mut values = Vec::with_capacity(types);
        let mut declared = Vec::with_capacity(types);
        let mut piece_index = Vec::with_capacity(types);
        let mut k = 0;
        for (t, piece) in rules.variant.pieces.iter().enumerate() {
            declared.push(piece.value.is_some());
            piece_index.push((!piece.royal).then(|| {
                k += 1;
                k - 1
            }));
            values.push(value_from_reach(rules, PieceTypeId(t as u8), &reach[t].0));
        }
        let centre = mean_distances(rules);
        let known: Vec<f64> = centre.iter().flatten().copied().collect();
        let avg_centre = known.iter().sum::<f64>() / known.len().max(1) as f64;
        let mut cell_features = vec![[0.0; 4]; codes * n];
        let mut promoters = Vec::new();
        for p in 0..players {
            let player = PlayerId(p as u8);
            for t in 0..types {
                let ty = PieceTypeId(t as u8);
                let def = &rules.variant.pieces[t];
                let code = rules.piece(player, ty).0 as usize;
                let (reach, targets) = &reach[p * types + t];
                let avg_reach = reach.iter().sum::<usize>() as f64 / n.max(1) as f64;
                let advance = def.promotion_for(&rules.variant.zones, player).map(|pr| {
                    let dist = promotion_distances(targets, |c| rules.in_zone(pr.zone, player, c));
                    let most = dist.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
                    let best = pr.choices.iter().map(|c| values[c.0 as usize]).max().unwrap_or(0);
                    let gain = (best - values[t]).max(0);
                    let way = Promoter { dist: dist.clone(), targets: targets.clone(), gain };
                    promoters.push((rules.piece(player, ty), way));
                    (dist, most, gain as f64 / 800.0)
                });
                for c in 0..n {
                    let f = &mut cell_features[code * n + c];
                    let central = centre[c].map_or(0.0, |d| avg_centre - d);
                    if def.royal {
                        f[3] = central;
                        continue;
                    }
                    f[0] = reach[c] as f64 - avg_reach;
                    f[1] = central;
                    if let Some((dist, most, gain)) = &advance {
                        if let Some(d) = dist[c] {
                            let x = 1.0 - d as f64 / most;
                            f[2] = x * x * gain;
                        }
                    }
                }
            }
        }
        let near1 = (0..n).map(|c| rules.graph.within(CellId(c as u16), 1)).collect();
        let near2 = (0..n).map(|c| rules.graph.within(CellId(c as u16), 2)).collect();
        let lines = (0..n).map(|c| lines_from(rules, CellId(c as u16))).collect();
        let start_material = start_material(rules, &values).max(1);
        let clock_span = rules.variant.end.move_rule.map_or(0, |m| 2 * m);
        let empty_reach = mask_reach(rules);
        let passers = Passers::new(rules, &empty_reach, &promoters);
        let runaways = Runaways::new(rules, &values, promoters);
        let weights = weights.unwrap_or_else(|| Weights::with_values(rules, &values));
        let exchange = (0..codes)
            .map(|code| match code {
                0 => 0,
                _ if rules.variant.pieces[rules.type_of(Piece(code as u16)).0 as usize].royal => ROYAL_EXCHANGE,
                _ => values[rules.type_of(Piece(code as u16)).0 as usize],
            })
            .collect();
        let mut e = Evaluator {
            weights,
            values,
            exchange,
            declared,
            piece_index,
            cells: n,
            table: Vec::new(),
            squares: Arc::default(),
            cell_features,
            near1,
            near2,
            enemies: (0..rules.player_count() as u8)
                .map(|p| {
                    (0..rules.player_count() as u8).map(PlayerId).filter(|q| !rules.allied(*q, PlayerId(p))).collect()
                })
                .collect(),
            lines,
            castles: castle_ends(rules),
            empty_reach,
            cornering: Cornering::new(rules),
            runaways,
            passers,
            start_material,
            term: Vec::new(),
            weighed: Vec::new(),
            holds_hands: !rules.variant.setup.hands.is_empty()
                || rules.variant.pieces.iter().any(|p| !p.drops.is_empty()),
            clock_span,
        };
        e.build_tables(rules);
        e
    }

    /// Fills the integer tables from the weights.
    fn build_tables(&mut self, rules: &Rules) {
        let n = self.cells;
        let types = rules.variant.pieces.len();
        let codes = rules.player_count() * types + 1;
        let terms: Vec<Phased> = self.weights.terms.values().copied().collect();
        self.term = terms.iter().map(|w| [w[0].round() as i32, w[1].round() as i32]).collect();
        // The terms the variant can count (the others are 0 in every position) and that weigh.
        let squares = rules.variant.squares.as_ref();
        let counts = |i: usize| match i {
            RESERVE => squares.is_some_and(|s| s.reserve.is_some()),
            OWNED => rules.has_square_play() && squares.is_some_and(|s| s.owned),
            CROWD => rules.has_stacks(),
            CASTLE => self.castles.iter().any(|(bits, _)| *bits != 0),
            HAND_DROPS => rules.has_hands(),
            _ => true,
        };
        self.weighed = [MOBILITY, RESERVE, OWNED, CROWD, OPEN_LINES, ROYAL_ZONE, ROYAL_ATTACK, CASTLE, HAND_DROPS]
            .into_iter()
            .filter(|&i| self.term[i] != [0, 0] && counts(i))
            .collect();
        self.table = vec![[0, 0]; codes * n];
        for p in 0..rules.player_count() {
            for t in 0..types {
                let code = rules.piece(PlayerId(p as u8), PieceTypeId(t as u8)).0 as usize;
                let value = self.piece_index[t].map_or([0.0, 0.0], |i| self.weights.pieces[i]);
                for c in 0..n {
                    let f = self.cell_features[code * n + c];
                    let mut out = [0i32; 2];
                    for (ph, o) in out.iter_mut().enumerate() {
                        let v = value[ph]
                            + f[0] * terms[REACH][ph]
                            + f[1] * terms[CENTRE][ph]
                            + f[2] * terms[ADVANCE][ph]
                            + f[3] * terms[ROYAL_CENTRE][ph];
                        *o = v.round() as i32;
                    }
                    self.table[code * n + c] = out;
                }
            }
        }
        let squares = self
            .table
            .iter()
            .enumerate()
            .map(|(i, [mg, eg])| {
                let code = i / n.max(1);
                let value = if code == 0 { 0 } else { self.values[(code - 1) / rules.player_count()] };
                let key = self.passers.as_ref().map_or(0, |p| p.key(i));
                [*mg, *eg, value, key as i32, (key >> 32) as i32]
            })
            .collect();
        self.squares = Arc::new(squares);
    }

    /// The piece-square table a search attaches to its position (see [`Evaluator::squares`]).
    pub(crate) fn piece_squares(&self) -> &Arc<Vec<[i32; TALLIED]>> {
        &self.squares
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The untuned value of a piece type in centipawns (royal pieces 0): the declared value or
    /// the one derived from its reach.
    pub fn value(&self, ty: PieceTypeId) -> i32 {
        self.values[ty.0 as usize]
    }

    /// Whether the type's value was declared by the designer (else computed from its reach).
    pub fn declared(&self, ty: PieceTypeId) -> bool {
        self.declared[ty.0 as usize]
    }

    /// The value of a piece for exchanges (royal pieces count as very valuable).
    #[inline]
    pub fn exchange_value(&self, r: &Rules, p: Piece) -> i32 {
        if let Some(v) = self.exchange.get(p.0 as usize) {
            return *v;
        }
        if p == Piece::HOLE || p == Piece::ALL {
            return 0;
        }
        let t = r.type_of(p);
        if r.variant.pieces[t.0 as usize].royal {
            return ROYAL_EXCHANGE;
        }
        self.values[t.0 as usize]
    }

    /// What the draw rules cost the side that would rather play on (see [`Weights::contempt`]).
    pub fn contempt(&self) -> i32 {
        self.weights.contempt.round() as i32
    }

    /// The phase of the game in 256ths: 256 with the start's material, 0 with none left.
    fn phase(&self, material: i64) -> i64 {
        (material * PHASE_ONE / self.start_material).clamp(0, PHASE_ONE)
    }

    /// How much of the evaluation the move clock leaves: it fades to half as the clock nears
    /// the move rule, so that the side ahead prefers moves that make progress.
    fn clock_scale(&self, pos: &Position) -> (i64, i64) {
        if self.clock_span == 0 {
            return (1, 1);
        }
        let h = pos.halfmove_clock().min(self.clock_span) as i64;
        (2 * self.clock_span as i64 - h, 2 * self.clock_span as i64)
    }

    /// A key for the evaluation of a position: its hash, which holds everything the
    /// evaluation reads but the move clock, mixed with the clock where it scales the
    /// evaluation.
    pub(crate) fn cache_key(&self, pos: &Position) -> u64 {
        let clock = pos.halfmove_clock().min(self.clock_span) as u64;
        pos.hash() ^ clock.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The static evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_for(pos, pos.side_to_move())
    }

    /// The static evaluation from `me`'s point of view: its side's pieces (its own, or its
    /// team's on average) against the others' average.
    pub fn evaluate_for(&self, pos: &Position, me: PlayerId) -> i32 {
        let r = &**pos.rules();
        let mut mg = 0i64;
        let mut eg = 0i64;
        let mut material = 0i64;
        let players = r.player_count();
        // The players not allied to me are my enemies; the rest (me among them) my allies.
        let allies = (players - self.enemies[me.0 as usize].len()) as i64;
        let others = (players as i64 - allies).max(1);
        let mut own_material = [0i64; 2];
        let tallied = pos.tally_sums(&self.squares);
        let passed = self.passed(pos, tallied);
        for p in 0..players {
            let player = PlayerId(p as u8);
            // Each of my side counts as many times as there are others, each other player as
            // many times as my side has players (divided back below).
            let (sign, weight) = if r.allied(player, me) { (1, others) } else { (-1, allies) };
            let (mut pmg, mut peg) = (0i64, 0i64);
            let tally = match tallied {
                Some(sums) => sums[p],
                None => pos.tally_of(&self.squares, player),
            };
            let [smg, seg, value, ..] = tally.map(i64::from);
            pmg += smg;
            peg += seg;
            material += value;
            if let Some(m) = own_material.get_mut(p) {
                *m += value;
            }
            let [wmg, weg] = self.weighed_terms(pos, player);
            pmg += wmg;
            peg += weg;
            if let Some(f) = passed.map(|f| f[p] as i64) {
                pmg += self.term[PASSED][0] as i64 * f / 100;
                peg += self.term[PASSED][1] as i64 * f / 100;
            }
            let (hmg, heg, hm) = self.hand(pos, player);
            pmg += hmg;
            peg += heg;
            material += hm;
            mg += sign * pmg * weight;
            eg += sign * peg * weight;
        }
        // One side's average against the others': with more than two players, each counts
        // 1/(size of its side).
        mg /= others * allies;
        eg /= others * allies;
        if self.term[CORNERING] != [0, 0] {
            let f = self.cornering_feature(pos, me, &own_material) as i64;
            mg += self.term[CORNERING][0] as i64 * f;
            eg += self.term[CORNERING][1] as i64 * f;
        }
        // Asked only where a player holds no more than promoting pieces can (never in a middle
        // game): a call per evaluation cost 2% of a chess search's instructions.
        if self.term[RUNAWAY] != [0, 0] && own_material.iter().any(|&m| m <= self.runaways.most_promoting) {
            let f = self.runaway_feature(pos, me, &own_material) as i64;
            mg += self.term[RUNAWAY][0] as i64 * f / 100;
            eg += self.term[RUNAWAY][1] as i64 * f / 100;
        }
        let phase = self.phase(material);
        let mut v = (mg * phase + eg * (PHASE_ONE - phase)) / PHASE_ONE;
        let (num, den) = self.clock_scale(pos);
        v = v * num / den;
        let tempo = (self.term[TEMPO][0] as i64 * phase + self.term[TEMPO][1] as i64 * (PHASE_ONE - phase)) / PHASE_ONE;
        let tempo = if r.allied(pos.side_to_move(), me) { tempo } else { -tempo };
        (v + tempo) as i32
    }

    /// Per player: the progress of its passed promoters in hundredths (see [`Passers`]), where
    /// the term weighs and the variant has it.
    fn passed(&self, pos: &Position, tallied: Option<&[[i32; TALLIED]]>) -> Option<[i32; PLAYERS]> {
        let passers = self.passers.as_ref().filter(|_| self.term[PASSED] != [0, 0])?;
        let mut out = [0; PLAYERS];
        match tallied {
            // Two players with the sums kept: the key of the promoting pieces reads the cache.
            Some([a, b]) => {
                let key = |s: &[i32; TALLIED]| (s[3] as u32 as u64) | ((s[4] as u32 as u64) << 32);
                [out[0], out[1]] = passers.cached(pos, key(a).wrapping_add(key(b)));
            }
            _ => passers.feature(pos, &mut out),
        }
        Some(out)
    }

    /// Pieces in hand: their weighted value and material (program play with drops).
    fn hand(&self, pos: &Position, player: PlayerId) -> (i64, i64, i64) {
        if !self.holds_hands {
            return (0, 0, 0);
        }
        let (mut mg, mut eg, mut material) = (0, 0, 0);
        for (t, idx) in self.piece_index.iter().enumerate() {
            let Some(i) = idx else { continue };
            let k = pos.in_hand(player, PieceTypeId(t as u8)).min(1000) as i64;
            if k > 0 {
                let w = self.weights.pieces[*i];
                mg += k * w[0].round() as i64;
                eg += k * w[1].round() as i64;
                material += k * self.values[t] as i64;
            }
        }
        (mg, eg, material)
    }

    /// The features of a position from the first player's point of view, in the order of
    /// [`Weights::to_vector`]: the evaluation is their dot product with the weights (before
    /// rounding), scaled by the move clock; `tempo` counts +1 when the first player moves.
    pub fn features(&self, pos: &Position) -> Vec<f64> {
        let r = &**pos.rules();
        let n = self.cells;
        let pieces = self.weights.pieces.len();
        let mut counts = vec![0.0; pieces];
        let mut terms = [0.0f64; TERM_COUNT];
        let mut material = 0i64;
        let mut own_material = [0i64; 2];
        for p in 0..r.player_count() {
            let player = PlayerId(p as u8);
            let sign = if p == 0 { 1.0 } else { -1.0 };
            for c in pos.occupied_by(player).iter() {
                for &q in pos.pieces_at(c) {
                    if r.owner(q) != player {
                        continue;
                    }
                    let t = r.type_of(q).0 as usize;
                    material += self.values[t] as i64;
                    if let Some(m) = own_material.get_mut(p) {
                        *m += self.values[t] as i64;
                    }
                    if let Some(i) = self.piece_index[t] {
                        counts[i] += sign;
                    }
                    let cf = self.cell_features[q.0 as usize * n + c.0 as usize];
                    terms[REACH] += sign * cf[0];
                    terms[CENTRE] += sign * cf[1];
                    terms[ADVANCE] += sign * cf[2];
                    terms[ROYAL_CENTRE] += sign * cf[3];
                }
            }
            for (t, idx) in self.piece_index.iter().enumerate() {
                if let Some(i) = idx {
                    let k = pos.in_hand(player, PieceTypeId(t as u8)).min(1000);
                    counts[*i] += sign * k as f64;
                    material += self.values[t] as i64 * k as i64;
                }
            }
            let mut extra = self.extra_features(pos, player);
            extra[MOBILITY] = self.mobility(pos, player);
            extra[ROYAL_ZONE] = self.royal_zone(pos, player);
            extra[OPEN_LINES] = self.open_lines(pos, player);
            extra[ROYAL_ATTACK] = self.royal_attack(pos, player);
            extra[HAND_DROPS] = self.hand_drops(pos, player);
            for (i, x) in extra.iter().enumerate() {
                terms[i] += sign * *x as f64;
            }
        }
        terms[CORNERING] = self.cornering_feature(pos, PlayerId(0), &own_material) as f64;
        terms[RUNAWAY] = self.runaway_feature(pos, PlayerId(0), &own_material) as f64 / 100.0;
        if let Some(passers) = &self.passers {
            let mut passed = [0; PLAYERS];
            passers.feature(pos, &mut passed);
            terms[PASSED] =
                passed.iter().enumerate().map(|(p, f)| if p == 0 { *f } else { -*f }).sum::<i32>() as f64 / 100.0;
        }
        terms[TEMPO] = if pos.side_to_move().0 == 0 { 1.0 } else { -1.0 };
        let phase = self.phase(material) as f64 / PHASE_ONE as f64;
        let (num, den) = self.clock_scale(pos);
        let scale = num as f64 / den as f64;
        let mut out = Vec::with_capacity(2 * (pieces + terms.len()));
        for x in counts.iter().chain(terms.iter().take(TEMPO)) {
            out.push(x * phase * scale);
            out.push(x * (1.0 - phase) * scale);
        }
        // Tempo is added after the clock scaling.
        out.push(terms[TEMPO] * phase);
        out.push(terms[TEMPO] * (1.0 - phase));
        out
    }
}

impl Position {
    /// Attaches the evaluation's piece-square table, as a search does (for tests).
    #[cfg(feature = "test-hooks")]
    pub fn attach_piece_squares(&mut self, eval: &Evaluator) {
        self.attach_tally(eval.piece_squares().clone());
    }
}

/// The material of the starting position: the pieces set up, shuffled in and held in hand
/// (a hand's count taken up to 1000), at their values.
fn start_material(rules: &Rules, values: &[i32]) -> i64 {
    let setup = &rules.variant.setup;
    let mut material = 0i64;
    for (_, stack) in &setup.placements {
        for (_, ty) in stack {
            material += values[ty.0 as usize] as i64;
        }
    }
    for s in &setup.shuffles {
        for ty in s.targets.iter().flat_map(|_| s.groups.iter().flat_map(|g| &g.pieces)) {
            material += values[ty.0 as usize] as i64;
        }
    }
    for (_, ty, count) in &setup.hands {
        material += values[ty.0 as usize] as i64 * (*count).min(1000) as i64;
    }
    material
}
