//! What the count of moves needs from the compiled rules, derived once when they are built.

use crate::ir::PieceTypeId;
use crate::rules::masks::MaskTables;
use crate::rules::stacks::StackRules;
use crate::rules::threats::ThreatTables;

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
