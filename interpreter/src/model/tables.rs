//! The move tables compiled from atoms: rays per (player, piece type, cell) and reverse attack probes per (player, cell).

use crate::atoms::{Atom, Shape};
use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{CellId, Condition, DirId, MoveMode, PlayerId, Promotion, Test, Variant};

/// The shape of a compiled move entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Walk the ray through empty cells (a leap is a ray of one cell).
    Slide,
    /// Walk the ray to the first occupied cell, then continue past it.
    Hop,
    /// A lame leap: the ray's cells are the path's; those marked in `need_empty` must be
    /// empty, and only the last cell is a target.
    Lame,
}

/// In [`Entry::promo`]: the moves never promote.
pub const NO_PROMOTION: u16 = u16::MAX;
/// In [`Entry::move_type`] and [`crate::Move::move_type`]: no move type.
pub const NO_MOVE_TYPE: u8 = u8::MAX;

/// One compiled ray of an atom from one cell.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Start of the ray in `ray_cells`.
    pub start: u32,
    /// Number of cells on the ray.
    pub len: u16,
    /// Slide, hop or lame leap.
    pub kind: EntryKind,
    /// Move, capture or both.
    pub mode: MoveMode,
    /// Index of the atom in the piece type's atoms (for its dynamic conditions).
    pub atom: u16,
    /// The (player-mapped) direction, for en-passant passage.
    pub dir: DirId,
    /// Whether the ray is a leap (no passage).
    pub leap: bool,
    /// Whether the atom has conditions checked during play.
    pub dynamic: bool,
    /// The atom marks the cells it passes as capturable en passant.
    pub marks_ep: bool,
    /// The atom may capture en passant.
    pub captures_ep: bool,
    /// For a hop: how many cells past the screen it may go (0: no limit).
    pub hop_max: u8,
    /// For a lame leap: bit i set, the ray's i-th cell must be empty.
    pub need_empty: u16,
    /// Index of the promotion in `MoveTables::promotions`, or [`NO_PROMOTION`].
    pub promo: u16,
    /// The atom's move type, or [`NO_MOVE_TYPE`].
    pub move_type: u8,
}

/// A reverse attack probe: a ray from the attacked cell with, per distance, the piece types
/// that attack from there.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// Start in `probe_cells` (and, times the type words, in `probe_masks`).
    pub start: u32,
    /// Length of the ray.
    pub len: u16,
}

/// The compiled move tables of a variant.
#[derive(Debug, Default)]
pub(crate) struct MoveTables {
    /// Per piece type: its atoms (declarative powers first, then recognised programs).
    pub(crate) atoms: Vec<Vec<Atom>>,
    pub(crate) entries: Vec<Entry>,
    /// Per (player, type, cell): range into `entries`.
    pub(crate) entry_index: Vec<u32>,
    /// Per (player, type, cell): the entries' reachable cells may overlap, so dedupe moves.
    pub(crate) entry_dedup: Vec<bool>,
    pub(crate) ray_cells: Vec<CellId>,
    /// Promotions the entries refer to.
    pub(crate) promotions: Vec<Promotion>,
    /// Per (attacking player, cell): range into `probes`.
    pub(crate) probe_index: Vec<u32>,
    pub(crate) probes: Vec<Probe>,
    pub(crate) probe_cells: Vec<CellId>,
    /// Per probe cell, `type_words` words: the bit set of the types that attack from there.
    pub(crate) probe_masks: Vec<u64>,
    /// Words in a set of piece types.
    pub(crate) type_words: usize,
    /// Per piece type: some capture of it is not in the probes (a hop, a lame leap, a
    /// condition decided during play), so attacks by it are found by generating its moves.
    pub(crate) slow_types: Vec<bool>,
}

/// What the table builder needs to know about the board beyond the graph.
pub(crate) struct BoardFacts<'a> {
    pub(crate) graph: &'a Graph,
    /// Per (zone, player): membership.
    pub(crate) zone_sets: &'a [CellSet],
    /// The location between two neighbouring cells, for `stop-between` slides.
    pub(crate) between: &'a std::collections::HashMap<(CellId, CellId), CellId>,
}

impl BoardFacts<'_> {
    fn in_zone(&self, players: usize, z: crate::ir::ZoneId, p: usize, c: CellId) -> bool {
        self.zone_sets[z.0 as usize * players + p].contains(c)
    }

    /// The cells a path passes from `cell`, taking the first link of each direction (the
    /// cell after each step), or `None` if the path leaves the board.
    fn walk(&self, cell: CellId, path: &[DirId]) -> Option<Vec<CellId>> {
        let mut at = cell;
        let mut out = Vec::with_capacity(path.len());
        for d in path {
            at = *self.graph.step(at, *d).first()?;
            out.push(at);
        }
        Some(out)
    }
}

/// Whether a geometric test holds at `at` for `player` (its piece starting on `start`).
pub(crate) fn geometric_holds(
    facts: &BoardFacts,
    v: &Variant,
    player: usize,
    start: CellId,
    at: CellId,
    t: &Test,
) -> bool {
    let players = v.players.len();
    let map = &v.players[player].direction_map;
    let place = |p: &Option<crate::ir::Place>| match p {
        None => Some(at),
        Some(crate::ir::Place::Cell(c)) => Some(*c),
        Some(crate::ir::Place::Dir(d)) => facts.graph.step(at, map[d.0 as usize]).first().copied(),
    };
    match t {
        Test::True => true,
        Test::False => false,
        Test::InZone(z, p) => place(p).is_some_and(|c| facts.in_zone(players, *z, player, c)),
        Test::OnBoard(p) => place(&Some(*p)).is_some(),
        Test::At(c) => at == *c,
        Test::Holds(c) => from_zone_holds(facts, players, player, start, c),
        Test::Not(inner) => !geometric_holds(facts, v, player, start, at, inner),
        Test::And(all) => all.iter().all(|x| geometric_holds(facts, v, player, start, at, x)),
        Test::Or(any) => any.iter().any(|x| geometric_holds(facts, v, player, start, at, x)),
        _ => true,
    }
}

fn from_zone_holds(facts: &BoardFacts, players: usize, p: usize, cell: CellId, c: &Condition) -> bool {
    match c {
        Condition::FromZone(z) => facts.in_zone(players, *z, p, cell),
        Condition::Not(inner) => !from_zone_holds(facts, players, p, cell, inner),
        _ => true,
    }
}

/// Whether a condition can be decided when the tables are built (from the start cell alone).
fn is_static(c: &Condition) -> bool {
    match c {
        Condition::FromZone(_) => true,
        Condition::Not(inner) => matches!(**inner, Condition::FromZone(_)),
        _ => false,
    }
}

/// Whether an atom may move from `cell` at all: its static conditions and the geometric
/// tests of its path from there.
fn applies(facts: &BoardFacts, v: &Variant, p: usize, atom: &Atom, cell: CellId) -> bool {
    let players = v.players.len();
    if !atom.conditions.iter().filter(|c| is_static(c)).all(|c| from_zone_holds(facts, players, p, cell, c)) {
        return false;
    }
    if atom.cell_tests.is_empty() {
        return true;
    }
    let map = &v.players[p].direction_map;
    let path: Vec<DirId> = match &atom.shape {
        Shape::Ride { path, .. } | Shape::Leap { path, .. } => path.iter().map(|d| map[d.0 as usize]).collect(),
        Shape::Hop { .. } => Vec::new(),
    };
    let Some(cells) = facts.walk(cell, &path) else { return false };
    atom.cell_tests.iter().all(|(k, t)| {
        let at = if *k == 0 { cell } else { cells[*k as usize - 1] };
        geometric_holds(facts, v, p, cell, at, t)
    })
}

impl MoveTables {
    /// Builds the move entries and attack probes of every atom.
    pub(crate) fn build(v: &Variant, facts: &BoardFacts, atoms: Vec<Vec<Atom>>) -> MoveTables {
        let types = v.pieces.len();
        let mut t = MoveTables {
            type_words: types.div_ceil(64).max(1),
            slow_types: vec![false; types],
            entry_index: vec![0],
            probe_index: vec![0],
            ..MoveTables::default()
        };
        for p in 0..v.players.len() {
            for type_atoms in atoms.iter() {
                for c in 0..v.board.cells.len() {
                    t.add_slot(v, facts, p, type_atoms, CellId(c as u16));
                }
            }
        }
        t.build_probes(v, facts, &atoms);
        t.atoms = atoms;
        t
    }

    /// The entries of player `p`'s piece type (with these atoms) on `cell`: each atom's rays,
    /// then promotions that cannot happen dropped, entries that another covers pruned, and
    /// whether two of them still reach one cell.
    fn add_slot(&mut self, v: &Variant, facts: &BoardFacts, p: usize, type_atoms: &[Atom], cell: CellId) {
        let players = v.players.len();
        let first = self.entries.len();
        for (ai, atom) in type_atoms.iter().enumerate() {
            if applies(facts, v, p, atom, cell) {
                self.add_atom(v, facts, p, ai, atom, cell);
            }
        }
        // An entry none of whose cells lies in its promotion zone never promotes
        // (unless it starts in the zone a move from promotes).
        for e in &mut self.entries[first..] {
            if e.promo != NO_PROMOTION {
                let promotion = &self.promotions[e.promo as usize];
                let (zone, from_zone) = (promotion.zone, promotion.from_zone);
                let ray = &self.ray_cells[e.start as usize..e.start as usize + e.len as usize];
                let leaves = from_zone.is_some_and(|z| facts.in_zone(players, z, p, cell));
                if !leaves && !ray.iter().any(|x| facts.in_zone(players, zone, p, *x)) {
                    e.promo = NO_PROMOTION;
                }
            }
        }
        // Two rays (or two atoms) that can reach one cell may produce one move twice.
        prune_subsumed(&mut self.entries, first, &self.ray_cells);
        let mut total = CellSet::new(v.board.cells.len());
        let mut count = 0;
        for e in &self.entries[first..] {
            let ray = &self.ray_cells[e.start as usize..e.start as usize + e.len as usize];
            let targets = if e.kind == EntryKind::Lame { &ray[ray.len() - 1..] } else { ray };
            for &x in targets {
                count += 1;
                total.insert(x);
            }
        }
        self.entry_dedup.push(total.len() != count);
        self.entry_index.push(self.entries.len() as u32);
    }

    /// The entries of atom `ai` of player `p`'s piece on `cell`: one per ray of its shape.
    fn add_atom(&mut self, v: &Variant, facts: &BoardFacts, p: usize, ai: usize, atom: &Atom, cell: CellId) {
        let template = Entry {
            start: 0,
            len: 0,
            kind: EntryKind::Slide,
            mode: atom.mode,
            atom: ai as u16,
            dir: DirId(0),
            leap: false,
            dynamic: atom.conditions.iter().any(|c| !is_static(c)),
            marks_ep: atom.marks_ep,
            captures_ep: atom.captures_ep,
            hop_max: match atom.shape {
                Shape::Hop { max: Some(m), .. } => m,
                _ => 0,
            },
            need_empty: 0,
            promo: intern_promotion(
                atom.promotion.iter().find(|pr| pr.reaches(&v.zones, PlayerId(p as u8))),
                &mut self.promotions,
            ),
            move_type: atom.move_type.map_or(NO_MOVE_TYPE, |m| m.0),
        };
        for (ray, kind, dir, leap, need_empty) in atom_rays(facts, &v.players[p].direction_map, atom, cell) {
            self.entries.push(Entry {
                start: self.ray_cells.len() as u32,
                len: ray.len() as u16,
                kind,
                dir,
                leap,
                need_empty,
                ..template
            });
            self.ray_cells.extend(ray);
        }
    }

    /// Reverse attack probes: for each attacker and each target cell, rays back along every
    /// capture direction, tagged per distance with the types that attack from there.
    fn build_probes(&mut self, v: &Variant, facts: &BoardFacts, atoms: &[Vec<Atom>]) {
        let players = v.players.len();
        let cells = v.board.cells.len();
        let words = self.type_words;
        let graph = facts.graph;
        for p in 0..players {
            let map = &v.players[p].direction_map;
            for c in 0..cells {
                let cell = CellId(c as u16);
                // (ray cells, masks) keyed by ray so types sharing a direction share a probe.
                let mut rays: Vec<(Vec<CellId>, Vec<u64>)> = Vec::new();
                let mut add = |ray: Vec<CellId>, reach: usize, ty: usize, atom: &Atom| {
                    let idx = match rays.iter().position(|(r, _)| *r == ray) {
                        Some(i) => i,
                        None => {
                            let n = ray.len();
                            rays.push((ray, vec![0; n * words]));
                            rays.len() - 1
                        }
                    };
                    let (r, masks) = &mut rays[idx];
                    for i in 0..reach.min(r.len()) {
                        if applies(facts, v, p, atom, r[i]) {
                            masks[i * words + ty / 64] |= 1 << (ty % 64);
                        }
                    }
                };
                for (ty, type_atoms) in atoms.iter().enumerate() {
                    for atom in type_atoms {
                        if atom.mode == MoveMode::MoveOnly {
                            continue;
                        }
                        if atom.conditions.iter().any(|c| !is_static(c)) {
                            self.slow_types[ty] = true;
                            continue;
                        }
                        match &atom.shape {
                            Shape::Ride { path, max } if path.len() == 1 => {
                                let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
                                let d = map[path[0].0 as usize];
                                for ray in graph.rays(cell, d, max, true) {
                                    let reach = ray.len().min(max);
                                    add(ray, reach, ty, atom);
                                }
                            }
                            Shape::Ride { path, max } => {
                                let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                let ray = path_ray(facts, cell, &mapped, *max, true);
                                if !ray.is_empty() {
                                    let n = ray.len();
                                    add(ray, n, ty, atom);
                                }
                            }
                            Shape::Leap { path, lame: 0 } => {
                                let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
                                for x in graph.follow(cell, &mapped, true) {
                                    add(vec![x], 1, ty, atom);
                                }
                            }
                            Shape::Leap { .. } | Shape::Hop { .. } => self.slow_types[ty] = true,
                        }
                    }
                }
                for (ray, masks) in rays {
                    // Trim trailing cells from which nothing attacks.
                    let keep = (0..ray.len()).rposition(|i| masks[i * words..(i + 1) * words].iter().any(|m| *m != 0));
                    let Some(last) = keep else { continue };
                    let keep = last + 1;
                    self.probes.push(Probe { start: self.probe_cells.len() as u32, len: keep as u16 });
                    self.probe_cells.extend_from_slice(&ray[..keep]);
                    self.probe_masks.extend_from_slice(&masks[..keep * words]);
                }
                self.probe_index.push(self.probes.len() as u32);
            }
        }
    }
}

/// The ray of a path repeated from `cell` (forwards, or backwards for a probe): the end of
/// each repetition, stopping at the board's edge, before a revisited cell or after `max`.
fn path_ray(facts: &BoardFacts, cell: CellId, path: &[DirId], max: Option<u8>, backwards: bool) -> Vec<CellId> {
    let mut ray = Vec::new();
    let mut at = cell;
    let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
    while ray.len() < max {
        let next = if backwards {
            let ends = facts.graph.follow(at, path, true);
            match ends.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        } else {
            facts.walk(at, path).and_then(|w| w.last().copied())
        };
        match next {
            Some(n) if n != cell && !ray.contains(&n) => {
                ray.push(n);
                at = n;
            }
            _ => break,
        }
    }
    ray
}

/// Drops entries whose every move another entry of the same cell already generates (a pawn's
/// single step beside its double step), so that generation needs no deduplication there.
///
/// An entry is covered by another plain entry with the same mode, promotion, move type and en
/// passant capture whose ray starts with its ray: a longer one, or an equal one listed earlier
/// (for a covered ray of several cells the en passant marks must match too, and one that marks
/// them is kept). The coverers are sorted by those fields and their rays, so those starting with
/// a given ray form one run found by binary search: n log n, where comparing every pair made a
/// text repeating one power ten thousand times take seconds.
fn prune_subsumed(entries: &mut Vec<Entry>, first: usize, ray_cells: &[CellId]) {
    if entries.len() - first < 2 {
        return;
    }
    let cells = |e: &Entry| &ray_cells[e.start as usize..e.start as usize + e.len as usize];
    let plain = |e: &Entry| e.kind == EntryKind::Slide && !e.dynamic;
    let fields = |e: &Entry, marks: bool| (e.mode as u8, e.promo, e.move_type, e.captures_ep, marks);
    // What a coverer is sorted by: its fields, then its ray (a stable sort keeps list order).
    let key = |e: &Entry| (fields(e, e.marks_ep), cells(e));
    let mut coverers: Vec<usize> = (first..entries.len()).filter(|&j| plain(&entries[j])).collect();
    coverers.sort_by_key(|&j| key(&entries[j]));
    let covered: Vec<bool> = (first..entries.len())
        .map(|i| {
            let a = &entries[i];
            if !plain(a) || (a.marks_ep && a.len > 1) {
                return false;
            }
            let ray = cells(a);
            // A one-cell ray is covered whatever the coverer marks; a longer one by a coverer
            // marking as it does.
            let marks: &[bool] = if a.len == 1 { &[false, true] } else { &[a.marks_ep] };
            marks.iter().any(|&m| {
                let lo = coverers.partition_point(|&j| key(&entries[j]) < (fields(a, m), ray));
                let run = coverers[lo..].partition_point(|&j| {
                    let (f, cells) = key(&entries[j]);
                    f == fields(a, m) && cells.starts_with(ray)
                });
                let run = &coverers[lo..lo + run];
                // The run holds the equal rays first, in list order, then the longer ones.
                run.first().is_some_and(|&j| j < i) || run.last().is_some_and(|&j| entries[j].len > a.len)
            })
        })
        .collect();
    // Compacted in place from `first` on (the entries before belong to other cells).
    let mut kept = first;
    for (k, &dropped) in covered.iter().enumerate() {
        if !dropped {
            entries[kept] = entries[first + k];
            kept += 1;
        }
    }
    entries.truncate(kept);
}

/// A promotion's index in `table`, interned so that equal ones share an index
/// ([`NO_PROMOTION`] for none).
fn intern_promotion(p: Option<&Promotion>, table: &mut Vec<Promotion>) -> u16 {
    let Some(p) = p else { return NO_PROMOTION };
    match table.iter().position(|x| x == p) {
        Some(i) => i as u16,
        None => {
            table.push(p.clone());
            (table.len() - 1) as u16
        }
    }
}

/// One ray of an atom from a cell: its cells, kind, first direction, whether it is a leap,
/// and (a lame leap's) the cells on the way that must be empty.
type AtomRay = (Vec<CellId>, EntryKind, DirId, bool, u16);

/// The rays of an atom from `cell`, its directions seen by the player (`map`).
fn atom_rays(facts: &BoardFacts, map: &[DirId], atom: &Atom, cell: CellId) -> Vec<AtomRay> {
    let graph = facts.graph;
    let mut out = Vec::new();
    match &atom.shape {
        Shape::Ride { path, max } if path.len() == 1 && atom.stop_between => {
            // The ray with the between locations interleaved: before each
            // cell, and after the last one reachable when the next exists.
            let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
            let d = map[path[0].0 as usize];
            for ray in graph.rays(cell, d, max.saturating_add(1), false) {
                let mut with = Vec::new();
                let mut prev = cell;
                for (i, &x) in ray.iter().enumerate() {
                    with.extend(facts.between.get(&(prev, x)));
                    if i == max {
                        break;
                    }
                    with.push(x);
                    prev = x;
                }
                out.push((with, EntryKind::Slide, d, false, 0));
            }
        }
        Shape::Ride { path, max } if path.len() == 1 => {
            let max = max.map(|m| m as usize).unwrap_or(usize::MAX);
            let d = map[path[0].0 as usize];
            for ray in graph.rays(cell, d, max, false) {
                out.push((ray, EntryKind::Slide, d, false, 0));
            }
        }
        Shape::Ride { path, max } => {
            let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
            let ray = path_ray(facts, cell, &mapped, *max, false);
            if !ray.is_empty() {
                out.push((ray, EntryKind::Slide, mapped[0], true, 0));
            }
        }
        Shape::Leap { path, lame } => {
            let mapped: Vec<DirId> = path.iter().map(|d| map[d.0 as usize]).collect();
            if *lame != 0 {
                if let Some(ray) = facts.walk(cell, &mapped) {
                    out.push((ray, EntryKind::Lame, mapped[0], true, *lame));
                }
            } else {
                for x in graph.follow(cell, &mapped, false) {
                    out.push((vec![x], EntryKind::Slide, mapped[0], true, 0));
                }
            }
        }
        Shape::Hop { dir, .. } => {
            let d = map[dir.0 as usize];
            for ray in graph.rays(cell, d, usize::MAX, false) {
                out.push((ray, EntryKind::Hop, d, false, 0));
            }
        }
    }
    out
}
