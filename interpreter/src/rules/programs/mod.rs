//! The compiled move programs of a variant: programs that are not atoms, drops, attributes, hands, the turn order and priorities, and where programs may capture.

pub(crate) mod code;
mod looks;
pub(crate) mod reach;
pub(crate) mod walks;

use crate::atoms::{is_geometric, recognise, Atom};
use crate::bitset::CellSet;
use crate::ir::{CellId, Instr, MoveTypeId, PieceTypeId, PlayerId, Program, Test, Variant};
use crate::tables::{geometric_holds, BoardFacts, NO_MOVE_TYPE};
use code::Code;
use reach::Reach;

/// In a drop [`Move`]'s `seq`: the drop only places its piece (nothing is replayed).
pub(crate) const PLAIN_DROP: u16 = u16::MAX;

/// A drop program: a plain drop on the cells its geometric tests allow, or code to run.
#[derive(Debug)]
pub(crate) enum DropRule {
    /// Places the piece on an empty cell (or any cell: `need_empty` false) of these, per player.
    Plain { cells: Vec<CellSet>, need_empty: bool, move_type: Option<MoveTypeId> },
    /// Runs from every cell of the board (or those of [`Code::starts`]).
    Code(Box<Code>),
    /// Places the piece on an empty cell of these where its walks pass (the `DropWalks` path).
    Walks(Box<walks::WalkDrop>),
}

/// A program that may capture on a cell: its start cell, its piece type and its index in
/// that type's codes ([`ProgramRules::codes`]).
pub(crate) type ReachEntry = (CellId, PieceTypeId, u16);

/// The compiled program rules of a variant: programs that are not atoms, drops, attributes,
/// hands, the turn order and priorities.
#[derive(Debug)]
pub(crate) struct ProgramRules {
    /// Per piece type: (index among the piece's programs, code) of its programs that are not atoms.
    pub(crate) codes: Vec<Vec<(u16, Code)>>,
    /// Per piece type: some program of it is lean with a cascade ([`Code::cascades`]).
    pub(crate) cascading: Vec<bool>,
    /// Per piece type: its drop programs.
    pub(crate) drops: Vec<Vec<DropRule>>,
    /// Per piece type: drops take from the hand.
    pub(crate) from_hand: Vec<bool>,
    pub(crate) attributes: usize,
    /// Hash keys: per (cell, attribute); per (player, type, count up to 64); per turn slot;
    /// per cell of a partial move's piece.
    pub(crate) z_attr: Vec<u64>,
    pub(crate) z_hand: Vec<u64>,
    pub(crate) z_turn: Vec<u64>,
    pub(crate) z_partial: Vec<u64>,
    /// Hash keys of the rest of a partial move's state: per move type it continues with; per
    /// (cell, 0 for the last move's start and 1 for its end), and one for a drop (tests of the
    /// last move see it: see [`State::partial_key`]).
    pub(crate) z_partial_type: Vec<u64>,
    pub(crate) z_last: Vec<u64>,
    /// Per count of actions in the turn of a partial move (0 to `TURN_PARTS`).
    pub(crate) z_parts: Vec<u64>,
    /// Some move or drop program reads the last move (`last-from`, `last-to`): the position
    /// string then gives it.
    pub(crate) reads_history: bool,
    /// Move priority rank per move type (`u8::MAX - 1` for types not listed, `u8::MAX` none).
    pub(crate) rank: Vec<u8>,
    /// The variant has move priorities.
    pub(crate) prioritised: bool,
    /// Per (attacking player, target cell): range into `reach`.
    pub(crate) reach_index: Vec<u32>,
    /// The programs that may capture on the target cell, by start cell.
    pub(crate) reach: Vec<ReachEntry>,
    /// Per entry of `reach`: the index of the first entry after it with another start cell
    /// (or of another target), so a probe skips at once the programs of an empty cell.
    pub(crate) reach_skip: Vec<u32>,
    /// Per attacking player: the programs that may capture anywhere.
    pub(crate) anywhere: Vec<Vec<ReachEntry>>,
    /// Per (attacking player, target cell): the start cells of its `reach` entries (the
    /// `ReachByPieces` path).
    pub(crate) reach_starts: StartSets,
    /// Per (attacking player, target cell): range into `drop_reach`.
    pub(crate) drop_reach_index: Vec<u32>,
    /// (start cell, piece type, drop index) of drops that may capture on the target cell: a
    /// drop landing on an enemy piece takes it, so a royal piece it could land on is attacked.
    pub(crate) drop_reach: Vec<(CellId, PieceTypeId, u16)>,
    /// Per attacking player: drops that may capture anywhere.
    pub(crate) drop_anywhere: Vec<Vec<(CellId, PieceTypeId, u16)>>,
    /// Some program that may capture reads the last move (the light legality test must show
    /// it the move being tested).
    pub(crate) attacks_read_history: bool,
    /// Some program that may capture reads more of the position than its cells and the last
    /// move (attributes, conditions, attacks): the light legality test cannot be used.
    pub(crate) attacks_read_position: bool,
    /// Per (player, direction, cell): the first cell one step along the direction as the
    /// player reads it ([`code::NO_CELL`] off the board), so a run's step is one load.
    pub(crate) next: Vec<CellId>,
    /// The analysis of where programs may capture spent the variant's budget
    /// ([`reach::MAX_VARIANT_STATES`]): the programs left may capture anywhere.
    pub(crate) reach_cut: bool,
}

/// The fast paths that shape how move programs are compiled (read from the variant's paths).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CodePaths {
    /// `Atoms`: programs shaped like atoms run from the move tables.
    pub(crate) recognise_atoms: bool,
    /// `StartCells`: programs keep the cells they may emit from.
    pub(crate) start_cells: bool,
    /// `NeighbourTests`: looks at a neighbour are read as tests of it.
    pub(crate) neighbour_tests: bool,
    /// `LeanRuns`: programs that only move their piece, testing cells, run lean.
    pub(crate) lean_runs: bool,
    /// `LeanCascades`: lean programs may also send a piece they take to another cell.
    pub(crate) lean_cascades: bool,
    /// `DropWalks`: drop programs that test their cell and walk lines are listed by walks.
    pub(crate) drop_walks: bool,
    /// `ReachByPieces`: attack probes visit the start cells where the attacker's pieces stand.
    pub(crate) reach_by_pieces: bool,
}

/// Per (player, target cell): a set of start cells as bit words (cell `k` is bit `k % 64` of
/// word `k / 64`, as in [`CellSet`]); empty where not kept.
#[derive(Debug, Default)]
pub(crate) struct StartSets {
    cells: usize,
    words: usize,
    bits: Vec<u64>,
}

/// The most words [`StartSets`] keeps (a megabyte): a bigger board's probes walk the lists.
const MAX_START_WORDS: usize = 1 << 17;

impl StartSets {
    /// The start cells of each (player, target)'s entries of a reverse index.
    fn of_reach(cells: usize, index: &[u32], list: &[ReachEntry]) -> StartSets {
        let words = cells.div_ceil(64).max(1);
        let lists = index.len().saturating_sub(1);
        if lists * words > MAX_START_WORDS {
            return StartSets::default();
        }
        let mut bits = vec![0u64; lists * words];
        for (i, w) in index.windows(2).enumerate() {
            for &(start, ..) in &list[w[0] as usize..w[1] as usize] {
                bits[i * words + (start.0 as usize >> 6)] |= 1u64 << (start.0 & 63);
            }
        }
        StartSets { cells, words, bits }
    }

    /// The start cells of `by`'s entries for `target`, where kept.
    #[inline]
    pub(crate) fn of(&self, by: PlayerId, target: CellId) -> Option<&[u64]> {
        if self.bits.is_empty() {
            return None;
        }
        let i = by.0 as usize * self.cells + target.0 as usize;
        self.bits.get(i * self.words..(i + 1) * self.words)
    }
}

impl ProgramRules {
    /// Whether the variant has any program feature.
    pub(crate) fn needed(v: &Variant) -> bool {
        v.pieces.iter().any(|p| !p.programs.is_empty() || !p.drops.is_empty() || !p.attributes.is_empty())
            || !v.setup.hands.is_empty()
            || !v.end.goals.is_empty()
            || v.turn_order.is_some()
            || !v.move_priorities.is_empty()
            || !v.attributes.is_empty()
            || v.pieces.iter().any(|p| p.to_hand.is_some())
    }

    /// The atoms the programs of each piece type are written as (when `recognise_atoms`), and
    /// the program rules with the programs that remain.
    /// With `start_cells` (the `StartCells` path), each program and drop program keeps the
    /// cells it may emit from ([`Code::starts`]); with `neighbour_tests`, a move program's
    /// looks at a neighbour are folded into tests of it ([`Code::fold_looks`]); with
    /// `lean_runs`, programs of the lean shape are marked to run lean ([`Code::lean`]).
    pub(crate) fn build(
        v: &Variant,
        facts: &BoardFacts,
        paths: CodePaths,
        seed: &mut u64,
    ) -> (Vec<Vec<Atom>>, ProgramRules) {
        let CodePaths {
            recognise_atoms,
            start_cells,
            neighbour_tests,
            lean_runs,
            lean_cascades,
            drop_walks,
            reach_by_pieces,
        } = paths;
        let players = v.players.len();
        let types = v.pieces.len();
        let cells = v.board.cells.len();
        let mut atoms = vec![Vec::new(); types];
        let mut codes = vec![Vec::new(); types];
        for (t, piece) in v.pieces.iter().enumerate() {
            for (i, prog) in piece.programs.iter().enumerate() {
                match recognise_atoms.then(|| recognise(prog)).flatten() {
                    Some(atom) => atoms[t].push(atom),
                    None => {
                        let mut code = Code::compile(prog);
                        if neighbour_tests {
                            code.fold_looks();
                        }
                        code.lean = lean_runs && code.lean_shape(false);
                        let cascade = code.ops.contains(&code::Op::Cascade);
                        code.cascades = lean_runs && lean_cascades && cascade && code.lean_shape(true);
                        if recognise_atoms && code.guard.is_some() {
                            code.guard_cells = guard_cells(v, facts, &code.prefix);
                        }
                        codes[t].push((i as u16, code));
                    }
                }
            }
        }
        let next = next_cells(v, facts);
        let mut drops: Vec<Vec<DropRule>> = v
            .pieces
            .iter()
            .map(|p| {
                p.drops
                    .iter()
                    .map(|d| match drop_walks.then(|| walks::recognise(v, facts, &next, d)).flatten() {
                        Some(w) => DropRule::Walks(Box::new(w)),
                        None => drop_rule(v, facts, p.stands_between(), d),
                    })
                    .collect()
            })
            .collect();
        let from_hand = v.pieces.iter().map(|p| p.drop_supply == crate::ir::DropSupply::Hand).collect();
        let attributes = v.attributes.len().min(64);
        let z_attr = (0..cells * attributes).map(|_| crate::rules::keys::splitmix(seed)).collect();
        let z_hand = (0..players * types * 65).map(|_| crate::rules::keys::splitmix(seed)).collect();
        let slots = v.turn_order.as_ref().map_or(1, |t| t.opening.len() + t.cycle.len()).max(1);
        let z_turn = (0..slots).map(|_| crate::rules::keys::splitmix(seed)).collect();
        let z_partial = (0..cells).map(|_| crate::rules::keys::splitmix(seed)).collect();
        // Drawn from a seed of their own, so that every other key stays as it was.
        let mut own = *seed ^ 0x9e37_79b9_7f4a_7c15;
        let z_partial_type = (0..v.move_types.len()).map(|_| crate::rules::keys::splitmix(&mut own)).collect();
        let z_last = (0..2 * cells + 1).map(|_| crate::rules::keys::splitmix(&mut own)).collect();
        let z_parts =
            (0..=crate::limits::TURN_PARTS as usize).map(|_| crate::rules::keys::splitmix(&mut own)).collect();
        let reads_history = codes.iter().flatten().any(|(_, c)| c.reads_history)
            || drops.iter().flatten().any(|d| matches!(d, DropRule::Code(c) if c.reads_history));
        let mut rank = vec![u8::MAX - 1; v.move_types.len()];
        for (i, t) in v.move_priorities.iter().enumerate() {
            if let Some(r) = rank.get_mut(t.0 as usize) {
                *r = (*r).min(i.min(250) as u8);
            }
        }
        let mut left = reach::MAX_VARIANT_STATES;
        if start_cells {
            keep_starts(&mut codes, &mut drops, cells, players);
        }
        let (reach_index, reach_list, anywhere, attacks_read) = program_reach(v, facts, &mut codes, &mut left);
        let (attacks_read_history, mut attacks_read_position) = attacks_read;
        let reach_skip = skips(&reach_list);
        let reach_starts =
            if reach_by_pieces { StartSets::of_reach(cells, &reach_index, &reach_list) } else { StartSets::default() };
        let (drop_reach_index, drop_reach, drop_anywhere) = drop_reaches(v, facts, &mut drops, &mut left);
        let reach_cut = left == 0;
        // Whether a drop can take a royal piece depends on the hands.
        attacks_read_position |= !drop_reach.is_empty() || drop_anywhere.iter().any(|a| !a.is_empty());
        let cascading = codes.iter().map(|c| c.iter().any(|(_, code)| code.cascades)).collect();
        let rules = ProgramRules {
            codes,
            cascading,
            drop_reach_index,
            drop_reach,
            drop_anywhere,
            drops,
            from_hand,
            attributes,
            z_attr,
            z_hand,
            z_turn,
            z_partial,
            z_partial_type,
            z_parts,
            z_last,
            reads_history,
            rank,
            prioritised: !v.move_priorities.is_empty(),
            reach_index,
            reach: reach_list,
            reach_skip,
            anywhere,
            reach_starts,
            attacks_read_history,
            attacks_read_position,
            next,
            reach_cut,
        };
        (atoms, rules)
    }

    /// A move type's priority rank (lower is better): types the priorities leave out, and
    /// moves of no type, rank after every listed type.
    #[inline]
    pub(crate) fn rank_of(&self, move_type: u8) -> u8 {
        if move_type == crate::tables::NO_MOVE_TYPE {
            u8::MAX - 1
        } else {
            self.rank[move_type as usize]
        }
    }

    /// Whether some program or drop may capture anywhere (attacks then need more than the
    /// probes of the tables).
    pub(crate) fn may_capture(&self) -> bool {
        !self.reach.is_empty()
            || self.anywhere.iter().any(|a| !a.is_empty())
            || !self.drop_reach.is_empty()
            || self.drop_anywhere.iter().any(|a| !a.is_empty())
    }

    /// `player`'s part of [`ProgramRules::next`]: per (direction, cell).
    #[inline]
    pub(crate) fn next_of(&self, cells: usize, dirs: usize, player: PlayerId) -> &[CellId] {
        let n = cells * dirs;
        self.next.get(player.0 as usize * n..(player.0 as usize + 1) * n).unwrap_or(&[])
    }

    /// The drops of `by` that may capture on `cell`: (start, type, drop index).
    #[inline]
    pub(crate) fn drops_reaching(
        &self,
        cells: usize,
        by: PlayerId,
        cell: CellId,
    ) -> impl Iterator<Item = &(CellId, PieceTypeId, u16)> {
        let i = by.0 as usize * cells + cell.0 as usize;
        self.drop_reach[self.drop_reach_index[i] as usize..self.drop_reach_index[i + 1] as usize]
            .iter()
            .chain(self.drop_anywhere[by.0 as usize].iter())
    }

    /// The entries of `reach` for `by` and `cell`, as a range of indexes.
    #[inline]
    pub(crate) fn reaching_range(&self, cells: usize, by: PlayerId, cell: CellId) -> std::ops::Range<usize> {
        let i = by.0 as usize * cells + cell.0 as usize;
        self.reach_index[i] as usize..self.reach_index[i + 1] as usize
    }

    /// The programs that may capture on `cell` for `by`: (start, type, index in the type's codes).
    #[inline]
    pub(crate) fn reaching(&self, cells: usize, by: PlayerId, cell: CellId) -> impl Iterator<Item = &ReachEntry> {
        let i = by.0 as usize * cells + cell.0 as usize;
        self.reach[self.reach_index[i] as usize..self.reach_index[i + 1] as usize]
            .iter()
            .chain(self.anywhere[by.0 as usize].iter())
    }
}

/// Per entry: the index of the first later entry with another start cell (a run of one start
/// cell may go on into the next target's entries: a reader stops at its own target's end).
fn skips(list: &[ReachEntry]) -> Vec<u32> {
    let mut out = vec![0u32; list.len()];
    for i in (0..list.len()).rev() {
        out[i] = match list.get(i + 1) {
            Some(next) if next.0 == list[i].0 => out[i + 1],
            _ => (i + 1) as u32,
        };
    }
    out
}

/// Appends one player's per-target lists to a reverse index: `list[index[i]..index[i + 1]]`
/// holds target `i`'s entries.
fn append_reverse<T>(by_target: Vec<Vec<T>>, index: &mut Vec<u32>, list: &mut Vec<T>) {
    for targets in by_target {
        list.extend(targets);
        index.push(list.len() as u32);
    }
}

/// Where each player's drops may capture: per (player, target) the (start, type, drop index)
/// of drops whose piece could land on (or otherwise take) a piece there, as an index into one
/// list, and per player those that may capture anywhere. Drops that need an empty cell take
/// nothing and are left out. A drop program that keeps its start cells gets them here.
#[allow(clippy::type_complexity)]
fn drop_reaches(
    v: &Variant,
    facts: &BoardFacts,
    drops: &mut [Vec<DropRule>],
    left: &mut usize,
) -> (Vec<u32>, Vec<(CellId, PieceTypeId, u16)>, Vec<Vec<(CellId, PieceTypeId, u16)>>) {
    let cells = v.board.cells.len();
    let mut index = vec![0u32];
    let mut list = Vec::new();
    let mut anywhere = vec![Vec::new(); v.players.len()];
    for (p, anywhere_of) in anywhere.iter_mut().enumerate() {
        let mut by_target: Vec<Vec<(CellId, PieceTypeId, u16)>> = vec![Vec::new(); cells];
        for (t, rules) in drops.iter_mut().enumerate() {
            let ty = PieceTypeId(t as u8);
            for (i, rule) in rules.iter_mut().enumerate() {
                match rule {
                    // A drop onto an empty cell takes nothing.
                    DropRule::Plain { need_empty: true, .. } | DropRule::Walks(_) => {}
                    DropRule::Plain { cells: allowed, .. } => {
                        // A drop between cells needs every covered cell empty: it takes nothing.
                        for c in allowed[p].iter().filter(|c| v.board.cells[c.0 as usize].covers.is_empty()) {
                            by_target[c.0 as usize].push((c, ty, i as u16));
                        }
                    }
                    DropRule::Code(code) => {
                        for c in 0..cells {
                            let start = CellId(c as u16);
                            let outcome = reach::reach(v, facts, (code, &[]), p, start, true, left);
                            if outcome.emits {
                                if let Some(s) = code.starts.get_mut(p) {
                                    s.insert(start);
                                }
                            }
                            match outcome.reach {
                                Reach::Cells(targets) => {
                                    for x in targets {
                                        by_target[x.0 as usize].push((start, ty, i as u16));
                                    }
                                }
                                Reach::Anywhere => anywhere_of.push((start, ty, i as u16)),
                            }
                        }
                    }
                }
            }
        }
        append_reverse(by_target, &mut index, &mut list);
    }
    (index, list, anywhere)
}

/// Gives every move program and coded drop program an empty set of start cells per player, to
/// be filled by the reach (the `StartCells` path).
fn keep_starts(codes: &mut [Vec<(u16, Code)>], drops: &mut [Vec<DropRule>], cells: usize, players: usize) {
    let none = || vec![CellSet::new(cells); players];
    for code in codes.iter_mut().flatten().map(|(_, c)| c) {
        code.starts = none();
    }
    for code in drops.iter_mut().flatten() {
        if let DropRule::Code(code) = code {
            code.starts = none();
        }
    }
}

/// Per (player, direction, cell): the first cell one step along the direction as the player
/// reads it, `NO_CELL` where there is none (see [`ProgramRules::next`]).
fn next_cells(v: &Variant, facts: &BoardFacts) -> Vec<CellId> {
    let cells = v.board.cells.len();
    let dirs = v.board.directions.len();
    let mut out = Vec::with_capacity(v.players.len() * dirs * cells);
    for p in &v.players {
        for d in 0..dirs {
            let dir = p.direction_map.get(d).copied().unwrap_or(crate::ir::DirId(d as u8));
            for c in 0..cells {
                out.push(facts.graph.step(CellId(c as u16), dir).first().copied().unwrap_or(code::NO_CELL));
            }
        }
    }
    out
}

/// Per (player, start cell): where a program's first steps lead (`NO_CELL` off the board).
fn guard_cells(v: &Variant, facts: &BoardFacts, prefix: &[crate::ir::DirId]) -> Vec<CellId> {
    let cells = v.board.cells.len();
    let mut out = Vec::with_capacity(v.players.len() * cells);
    for p in &v.players {
        for c in 0..cells {
            let mut at = Some(CellId(c as u16));
            for d in prefix {
                at = at.and_then(|x| facts.graph.step(x, p.direction_map[d.0 as usize]).first().copied());
            }
            out.push(at.unwrap_or(code::NO_CELL));
        }
    }
    out
}

/// A drop program: a plain drop where it is only geometric tests, `verify empty` and `add`.
/// Its cells leave out the locations between cells where the type may not stand (`stands`).
fn drop_rule(v: &Variant, facts: &BoardFacts, stands: bool, p: &Program) -> DropRule {
    let plain_add = |x: &Instr| matches!(x, Instr::Add { kind: crate::ir::AddKind::Move, promote, then: None } if promote.is_empty());
    let (tests, last) = p.body.split_at(p.body.len().saturating_sub(1));
    let simple = last.len() == 1
        && plain_add(&last[0])
        && tests.iter().all(|i| matches!(i, Instr::Verify(t) if is_geometric(t) || *t == Test::Empty(None)));
    if !simple {
        return DropRule::Code(Box::new(Code::compile(p)));
    }
    let cells = v.board.cells.len();
    let need_empty = tests.iter().any(|i| matches!(i, Instr::Verify(Test::Empty(None))));
    let per_player = (0..v.players.len())
        .map(|pl| {
            let mut set = CellSet::new(cells);
            for c in 0..cells {
                let cell = CellId(c as u16);
                let ok = (stands || v.board.cells[c].covers.is_empty())
                    && tests.iter().all(|i| match i {
                        Instr::Verify(t) if is_geometric(t) => geometric_holds(facts, v, pl, cell, cell, t),
                        _ => true,
                    });
                if ok {
                    set.insert(cell);
                }
            }
            set
        })
        .collect();
    DropRule::Plain { cells: per_player, need_empty, move_type: p.move_type }
}

/// Which moves a piece may make: any, or only those of one move type (`NO_MOVE_TYPE`: any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Only(pub(crate) u8);

impl Only {
    pub(crate) const ANY: Only = Only(NO_MOVE_TYPE);

    #[inline]
    pub(crate) fn allows(self, ty: u8) -> bool {
        self.0 == NO_MOVE_TYPE || self.0 == ty
    }

    pub(crate) fn of(t: Option<MoveTypeId>) -> Only {
        Only(t.map_or(NO_MOVE_TYPE, |t| t.0))
    }
}

/// Reverse reach of the move programs: per (player, target) the programs (start, type, index)
/// that may capture there, sorted by start cell, as an index into one list; per player the
/// programs that may capture anywhere; and whether those that may capture read the history and
/// the position. Each program notes the cells it may emit from (`starts`, where kept).
#[allow(clippy::type_complexity)]
fn program_reach(
    v: &Variant,
    facts: &BoardFacts,
    codes: &mut [Vec<(u16, Code)>],
    left: &mut usize,
) -> (Vec<u32>, Vec<ReachEntry>, Vec<Vec<ReachEntry>>, (bool, bool)) {
    let (players, cells) = (v.players.len(), v.board.cells.len());
    let mut reach_index = vec![0u32];
    let mut reach_list = Vec::new();
    let mut anywhere = vec![Vec::new(); players];
    let mut attacks_read_history = false;
    let mut attacks_read_position = false;
    // The cells each run reads are kept where one bit per cell fits and their room is small.
    let kept = cells <= 128 && codes.iter().map(Vec::len).sum::<usize>() * players * cells <= reach::MAX_READ_MASKS;
    if kept {
        for (_, code) in codes.iter_mut().flatten() {
            code.reads = vec![u128::MAX; players * cells];
        }
    }
    for (p, anywhere_of) in anywhere.iter_mut().enumerate() {
        // One entry per program (not per piece type), so an attack probe runs only the
        // programs that may capture on the target: a slider's other rays are not run.
        let mut by_target: Vec<Vec<ReachEntry>> = vec![Vec::new(); cells];
        for (t, type_codes) in codes.iter_mut().enumerate() {
            for (k, (_, code)) in type_codes.iter_mut().enumerate() {
                let shapes = reach::shapes(code);
                for c in 0..cells {
                    let start = CellId(c as u16);
                    // Each (start, type, program) is met once and its targets do not repeat.
                    let entry = (start, PieceTypeId(t as u8), k as u16);
                    let outcome = reach::reach(v, facts, (code, &shapes), p, start, false, left);
                    if let Some(r) = code.reads.get_mut(p * cells + c) {
                        *r = outcome.reads;
                    }
                    if outcome.emits {
                        if let Some(s) = code.starts.get_mut(p) {
                            s.insert(start);
                        }
                    }
                    match outcome.reach {
                        Reach::Cells(targets) => {
                            if !targets.is_empty() {
                                attacks_read_history |= code.reads_history;
                                attacks_read_position |= code.reads_position || code.reads_attacks;
                            }
                            for x in targets {
                                by_target[x.0 as usize].push(entry);
                            }
                        }
                        Reach::Anywhere => {
                            attacks_read_history |= code.reads_history;
                            attacks_read_position |= code.reads_position || code.reads_attacks;
                            anywhere_of.push(entry);
                        }
                    }
                }
            }
        }
        // By start cell, so the entries of one cell come together (see `reach_skip`).
        for list in &mut by_target {
            list.sort_unstable();
        }
        append_reverse(by_target, &mut reach_index, &mut reach_list);
    }
    (reach_index, reach_list, anywhere, (attacks_read_history, attacks_read_position))
}
