//! The hash keys (Zobrist) of a position: random words drawn once per variant from a fixed seed, so that a position hashes the same on every run.

/// The hash keys of a variant, XORed into a position's hash as it changes.
#[derive(Debug)]
pub(crate) struct Keys {
    /// Per (cell, piece code).
    pub(crate) piece: Vec<u64>,
    /// Per player to move.
    pub(crate) side: Vec<u64>,
    /// Per player: out of the game (games of more than two players).
    pub(crate) out: Vec<u64>,
    /// Per rights bit: the castlings', then the gates'.
    pub(crate) castle: Vec<u64>,
    /// Per en passant cell.
    pub(crate) ep: Vec<u64>,
    /// Per phase begun.
    pub(crate) phase: Vec<u64>,
    /// Square play: the owner per (cell, player), the reserve per (player, count up to 64),
    /// untouchable and touched squares per cell, the action slot.
    pub(crate) owner: Vec<u64>,
    pub(crate) reserve: Vec<u64>,
    pub(crate) frozen: Vec<u64>,
    pub(crate) touched: Vec<u64>,
    pub(crate) slot: Vec<u64>,
}

impl Keys {
    /// Draws the keys from `seed`, in an order kept fixed so that hashes stay those of earlier
    /// games: the key of a player out of the game last, as it came last.
    pub(crate) fn draw(
        seed: &mut u64,
        cells: usize,
        codes: usize,
        players: usize,
        rights: usize,
        phases: usize,
    ) -> Keys {
        let mut draw = |n: usize| -> Vec<u64> { (0..n).map(|_| splitmix(seed)).collect() };
        let piece = draw(cells * codes);
        let side = draw(players);
        let castle = draw(rights.min(32));
        let ep = draw(cells);
        let phase = draw(phases);
        let owner = draw(cells * players);
        let reserve = draw(players * 65);
        let frozen = draw(cells);
        let touched = draw(cells);
        let slot = draw(8);
        let out = draw(players);
        Keys { piece, side, out, castle, ep, phase, owner, reserve, frozen, touched, slot }
    }
}

/// Deterministic 64-bit generator for hash keys (splitmix64).
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
