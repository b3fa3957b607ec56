//! The counting tables derived from the compiled rules once they are built: what the count needs (`CountRules`), the stacks' rules as masks, the threat tables and the slow pieces' reach.
//!
//! The tables' types live in `counting.rs`, `stacks.rs`, `threats.rs` and `slow_reach.rs`, which
//! `Rules` holds; what reads a whole `Rules` to derive them is here, above it.

use crate::ir::{CaptureRule, CellId, MoveMode, PieceTypeId, PlayerId};
use crate::paths::Path;
use crate::rules::counting::CountRules;
use crate::rules::masks::MaskTables;
use crate::rules::slow_reach::{SlowReach, SLOW_REACH_LIMIT};
use crate::rules::stacks::StackRules;
use crate::rules::threats::{ThreatTables, TWO_PROBES};
use crate::rules::Rules;
use crate::tables::{EntryKind, NO_PROMOTION};

impl CountRules {
    /// Derives the count's preconditions from the compiled rules.
    pub(crate) fn new(r: &Rules) -> CountRules {
        // Where the count applies is the paths' to say (`paths.rs`); on stacks, attacks read
        // the stacks (not a trial in the cell array), a crowd's pieces are moved and tested
        // apart, and the masks are needed. Pieces kept apart are royal (`PinShortcut`): the
        // royal's targets are kept off the cells near the other.
        let applies = r.paths.allows(Path::Count);
        let stacked = r.paths.allows(Path::StackedCount);
        let stack_rules = if stacked { StackRules::new(r) } else { Vec::new() };
        let mut plain_type = vec![true; r.types];
        let mut ep_type = vec![false; r.types];
        let mut one_per_target = vec![true; r.types];
        for p in 0..r.players {
            for t in 0..r.types {
                let i = (p * r.types + t) * r.cells;
                let (a, b) = (r.tables.entry_index[i] as usize, r.tables.entry_index[i + r.cells] as usize);
                for e in &r.tables.entries[a..b] {
                    plain_type[t] &= e.kind == EntryKind::Slide && !e.dynamic && !r.crowns_or_uncrowns(t, e.promo);
                    ep_type[t] |= e.captures_ep;
                    one_per_target[t] &= e.promo == NO_PROMOTION && !e.marks_ep && !e.captures_ep;
                }
            }
        }
        for (t, one) in one_per_target.iter_mut().enumerate() {
            *one &= plain_type[t] && !r.programmed_types[t];
        }
        // The masks know nothing of locations between cells: on such boards they hold the
        // pieces whose rays stay on cells, for the count alone; the other rays are walked.
        // Where every pseudo-legal move is legal, the masks count the last ply's moves.
        let pseudo = r.paths.allows(Path::PseudoCount);
        let masks =
            if ((applies || pseudo) && !r.between.on) || stacked { MaskTables::new(r) } else { MaskTables::default() };
        let cover_masks = if applies && r.between.on { MaskTables::new(r) } else { MaskTables::default() };
        let threats = if (applies || stacked) && !r.between.on && !masks.fits.is_empty() {
            ThreatTables::new(r)
        } else {
            ThreatTables::default()
        };
        let mut between = crate::bitset::CellSet::new(r.cells);
        for c in (0..r.cells).map(|c| CellId(c as u16)).filter(|c| r.is_between(*c)) {
            between.insert(c);
        }
        let program_attacks = r.program.as_deref().is_some_and(|p| p.may_capture());
        let most_taken = StackRules::most_taken(r);
        let apart = r
            .apart
            .iter()
            .map(|(t, near)| (*t, near.iter().map(|s| s.iter().fold(0u128, |m, c| m | 1 << (c.0 & 127))).collect()))
            .collect();
        CountRules {
            applies,
            plain_type,
            one_per_target,
            ep_type,
            masks,
            cover_masks,
            threats,
            between_words: between.words().to_vec(),
            program_attacks,
            stacked,
            stack_rules,
            apart,
            most_taken,
        }
    }
}

impl StackRules {
    /// The masks for every set of the phases that change occupancy rules (none past four such
    /// phases, or past 128 cells: the count does not read the board then).
    pub(crate) fn new(r: &Rules) -> Vec<StackRules> {
        let bits: Vec<u32> = (0..32).filter(|i| r.stacks.phases & 1 << i != 0).collect();
        if bits.len() > 4 || r.cells > 128 {
            return Vec::new();
        }
        (0..1u32 << bits.len())
            .map(|subset| {
                let phases =
                    bits.iter().enumerate().filter(|(k, _)| subset & 1 << k != 0).fold(0, |m, (_, b)| m | 1 << b);
                let mut s = StackRules { phases, inert: 0, inert_joined: 0, lone_joined: 0 };
                for c in 0..r.cells {
                    let rule = r.occupancy(CellId(c as u16), phases);
                    let two = rule.capacity.is_none_or(|k| k >= 2);
                    if rule.lone_inert && r.stacks.inert_cells.contains(CellId(c as u16)) {
                        s.inert |= 1 << c;
                        if two {
                            s.inert_joined |= 1 << c;
                        }
                    }
                    if rule.join_enemy_by_move && two {
                        s.lone_joined |= 1 << c;
                    }
                }
                s
            })
            .collect()
    }

    /// The most pieces one capture may take: one, or where some cell's capture takes every
    /// enemy piece, as many as a cell may hold.
    pub(crate) fn most_taken(r: &Rules) -> u32 {
        let all = r.variant.zones.iter().any(|z| {
            z.occupancy.iter().chain(z.phase_occupancy.iter().map(|(_, o)| o)).any(|o| o.capture == CaptureRule::All)
        });
        if !all {
            return 1;
        }
        (0..r.cells).map(|c| r.most_pieces(CellId(c as u16)).map_or(r.cells as u32, u32::from)).max().unwrap_or(1)
    }
}

impl ThreatTables {
    /// The tables of a board of at most 128 cells (empty otherwise, or where a probe leaves
    /// the first 128 cells).
    pub(crate) fn new(r: &Rules) -> ThreatTables {
        // On a board of stacks, they read the board while no cell that may hold a stack holds a
        // piece: not built where every cell may.
        let stackable = (0..r.cells).filter(|c| r.stacks.kind[*c] != 0).fold(0u128, |m, c| m | 1 << (c & 127));
        if r.cells > 128
            || r.tables.probe_cells.iter().any(|c| c.0 >= 128)
            || (r.stacks.on && stackable.count_ones() as usize >= r.cells)
        {
            return ThreatTables::default();
        }
        let codes = r.players * r.types + 1;
        let mut spans = vec![0u128; codes * r.cells];
        let mut between = vec![0u128; r.players * r.cells * r.cells];
        let mut seen = vec![false; r.players * r.cells * r.cells];
        for p in 0..r.players {
            for cell in 0..r.cells {
                let i = p * r.cells + cell;
                for probe in &r.tables.probes[r.tables.probe_index[i] as usize..r.tables.probe_index[i + 1] as usize] {
                    let mut passed = 0u128;
                    for k in probe.start as usize..probe.start as usize + probe.len as usize {
                        let c = r.tables.probe_cells[k].0 as usize;
                        let at = i * r.cells + c;
                        // Two probes that pass the same cells before this one (a step and a
                        // ride the same way) see the same piece first: one answer.
                        between[at] = if seen[at] && between[at] != passed { TWO_PROBES } else { passed };
                        seen[at] = true;
                        for ty in 0..r.types {
                            if r.probe_has(k, PieceTypeId(ty as u8)) {
                                spans[cell * codes + 1 + ty * r.players + p] |= 1 << c;
                            }
                        }
                        passed |= 1 << c;
                    }
                }
            }
        }
        let any = spans.chunks(codes).map(|s| s.iter().fold(0, |m, span| m | span)).collect();
        ThreatTables { spans, codes, any, between, stackable, exact: !r.stacks.on }
    }
}

impl SlowReach {
    pub(crate) fn new(r: &Rules) -> Option<SlowReach> {
        if !r.paths.allows(crate::paths::Path::SlowReach) {
            return None;
        }
        let mut per_cell: Vec<Vec<(CellId, PieceTypeId, u32)>> = vec![Vec::new(); r.players * r.cells];
        let mut total = 0;
        for p in 0..r.players {
            for t in (0..r.types).filter(|t| r.tables.slow_types[*t]) {
                for origin in 0..r.cells {
                    let (from, ty) = (CellId(origin as u16), PieceTypeId(t as u8));
                    let (a, b, _) = r.entries_for(PlayerId(p as u8), ty, from);
                    for (k, e) in r.tables.entries[a..b].iter().enumerate() {
                        if e.mode == MoveMode::MoveOnly {
                            continue;
                        }
                        let ray = &r.tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
                        let targets = if e.kind == EntryKind::Lame { &ray[ray.len() - 1..] } else { ray };
                        for c in targets {
                            per_cell[p * r.cells + c.0 as usize].push((from, ty, (a + k) as u32));
                            total += 1;
                            if total > SLOW_REACH_LIMIT {
                                return None;
                            }
                        }
                    }
                }
            }
        }
        let mut index = vec![0];
        let mut items = Vec::with_capacity(total);
        for list in per_cell {
            items.extend(list);
            index.push(items.len() as u32);
        }
        Some(SlowReach { index, items })
    }
}
