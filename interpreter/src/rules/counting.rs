//! What the count of moves needs from the compiled rules, derived once when they are built.

use crate::ir::CellId;
use crate::ir::PieceTypeId;
use crate::paths::Path;
use crate::rules::masks::MaskTables;
use crate::rules::stacks::StackRules;
use crate::rules::threats::ThreatTables;
use crate::rules::Rules;
use crate::tables::EntryKind;
use crate::tables::NO_PROMOTION;

/// What the count needs from the compiled rules, derived once when they are built.
#[derive(Debug, Default)]
pub(crate) struct CountRules {
    /// The count applies to this variant at all (see the module doc).
    pub(crate) applies: bool,
    /// Per piece type: every entry is a slide or leap without conditions decided during play.
    pub(crate) plain_type: Vec<bool>,
    /// Per piece type: plain, and no entry promotes, marks a passage or takes en passant, so
    /// that its moves are one per target (a piece between cells counts the targets of all the
    /// cells it covers once).
    pub(crate) one_per_target: Vec<bool>,
    /// Per piece type: some entry captures en passant.
    pub(crate) ep_type: Vec<bool>,
    /// The rays as bit sets, on boards of up to 128 cells.
    pub(crate) masks: MaskTables,
    /// On a board with locations between cells, where the count applies: the masks of the
    /// pieces whose rays hold only cells (the first 128), read by the count alone.
    pub(crate) cover_masks: MaskTables,
    /// With `masks` (not with locations between cells, nor on stacks where every cell may
    /// hold one): which enemy pieces could attack a cell and what lies between, for check,
    /// pins and the royal's targets (`threats.rs`).
    pub(crate) threats: ThreatTables,
    /// With `cover_masks`: the locations between cells, as a set's words.
    pub(crate) between_words: Vec<u64>,
    /// Some program or drop may capture: the royal's cell is checked against their reach, and
    /// the royal's own moves are tested one by one.
    pub(crate) program_attacks: bool,
    /// The count applies on this board of stacks (`stackcount.rs`): as `applies`, with the
    /// stacks' occupancy rules read per position and attacks that see crowds.
    pub(crate) stacked: bool,
    /// With `stacked`: the cells' occupancy rules as masks, per set of phases that change them.
    pub(crate) stack_rules: Vec<StackRules>,
    /// With `stacked`: the types kept apart (royal), with per cell the cells within their
    /// distance.
    pub(crate) apart: Vec<(PieceTypeId, Vec<u128>)>,
    /// With `stacked`: the most pieces one capture may take (a phase that begins by a count of
    /// pieces may begin with a capture of as many).
    pub(crate) most_taken: u32,
}

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
        let masks = if (applies && !r.between.on) || stacked { MaskTables::new(r) } else { MaskTables::default() };
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
