//! The starting position: the setup's shuffles, placements, hands, square owners and castling rights.

use std::sync::Arc;

use crate::position::Position;
use crate::rules::Rules;

impl Position {
    /// The variant's starting position (its shuffles, if any, drawn with seed 0).
    pub fn start(rules: Arc<Rules>) -> Position {
        Position::start_seeded(rules, 0)
    }

    /// The variant's starting position with its shuffles drawn from `seed` (the same seed
    /// gives the same position on every machine).
    pub fn start_seeded(rules: Arc<Rules>, seed: u64) -> Position {
        let mut pos = Position::empty(rules.clone());
        for (i, s) in rules.variant.setup.shuffles.iter().enumerate() {
            // The lowering has drawn every shuffle once: none fails here.
            let drawn = crate::shuffle::draw(s, seed.wrapping_add(i as u64)).unwrap_or_default();
            for (player, cells) in &s.targets {
                for (cell, ty) in cells.iter().zip(&drawn) {
                    pos.put(*cell, rules.piece(*player, *ty));
                    if !pos.st.attrs.is_empty() {
                        pos.st.attrs[cell.0 as usize] = rules.attr_default(*ty);
                    }
                    // Owned squares: a player owns the squares under its pieces at the start.
                    if rules.squares.owned {
                        pos.st.squares.owner[cell.0 as usize] = player.0 + 1;
                    }
                }
            }
        }
        for (cell, stack) in &rules.variant.setup.placements {
            for (player, ty) in stack {
                pos.put(*cell, rules.piece(*player, *ty));
                if !pos.st.attrs.is_empty() {
                    pos.st.attrs[cell.0 as usize] = rules.attr_default(*ty);
                }
            }
        }
        for (player, ty, n) in &rules.variant.setup.hands {
            let i = player.0 as usize * rules.variant.pieces.len() + ty.0 as usize;
            pos.st.hand[i] = pos.st.hand[i].saturating_add(*n);
        }
        if rules.squares.owned {
            for (cell, player) in &rules.variant.setup.square_owners {
                pos.st.squares.owner[cell.0 as usize] = player.0 + 1;
            }
        }
        let mut castling = 0;
        for letter in &rules.variant.setup.castling_rights {
            castling |= crate::fen::rights::alias_bit(&pos, *letter)
                .map(|b| 1 << b)
                .or_else(|| rules.gates.read_letter(*letter))
                .unwrap_or(0);
        }
        // Every choice is made before the first move, the first chooser first, who need not be
        // the game's first mover (an option may give only the second player pieces).
        if let Some((_, chooser)) = pos.st.pending_choice(&rules) {
            pos.st.side = chooser;
        }
        pos.set_state(castling, None, 0, 1);
        pos
    }
}
