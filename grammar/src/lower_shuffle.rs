//! Lowering of a setup's `shuffle`: the cells each player's drawn arrangement fills and the groups of pieces with their orders and allowed places.

use varia_interpreter::ir::*;

use super::{Lowerer, Node};
use crate::diagnostic::Diagnostic;
use crate::syntax::Rule;

impl Lowerer {
    /// `shuffle white: rank 1  black: rank 8 { B on a1 c1 e1 g1, ..., R K R }`.
    pub(super) fn shuffle(&mut self, item: Node) -> Option<Shuffle> {
        let whole = item.clone();
        let mut targets: Vec<(PlayerId, Vec<CellId>)> = Vec::new();
        let mut groups = Vec::new();
        let mut ok = true;
        for part in item.into_inner() {
            match part.as_rule() {
                Rule::shuffle_target => {
                    let mut it = part.clone().into_inner();
                    let who = it.next().expect("player");
                    let list = it.find(|n| n.as_rule() == Rule::cell_list).expect("cells");
                    let player = self.player_id(&who);
                    let cells = self.cell_list(list, player);
                    match player {
                        Some(p) if targets.iter().any(|(q, _)| *q == p) => {
                            self.error(&who, "a player is named twice in one shuffle", "expected each player once");
                            ok = false;
                        }
                        Some(p) => targets.push((p, cells)),
                        None => ok = false,
                    }
                    if let [(_, first), .., (_, last)] = targets.as_slice() {
                        if first.len() != last.len() {
                            let label = format!("expected {} cells, as the first player's list has", first.len());
                            self.error(&part, "the shuffle's cell lists differ in length", label);
                            ok = false;
                        }
                    }
                }
                Rule::shuffle_item => {
                    let first = targets.first().map(|(_, c)| c.clone()).unwrap_or_default();
                    match self.shuffle_group(part, &first) {
                        Some(g) => groups.push(g),
                        None => ok = false,
                    }
                }
                _ => {}
            }
        }
        if !ok {
            return None;
        }
        let places = targets.first().map_or(0, |(_, c)| c.len());
        let pieces: usize = groups.iter().map(|g: &ShuffleGroup| g.pieces.len()).sum();
        if pieces != places {
            let label = format!("expected as many pieces as cells: {pieces} pieces for {places} cells");
            self.error(&whole, "the shuffle's pieces do not fill its cells", label);
            return None;
        }
        let shuffle = Shuffle { targets, groups };
        if varia_interpreter::shuffle::draw(&shuffle, 0).is_none() {
            let label = format!(
                "expected groups that can be placed: no arrangement was found in {} draws",
                varia_interpreter::shuffle::ATTEMPTS
            );
            self.error(&whole, "the shuffle's pieces cannot be placed", label);
            return None;
        }
        Some(shuffle)
    }

    /// One item: pieces in the order they stand, maybe `on` some of the first list's cells.
    fn shuffle_group(&mut self, part: Node, first: &[CellId]) -> Option<ShuffleGroup> {
        let mut pieces = Vec::new();
        let mut allowed = None;
        let mut ok = true;
        for n in part.into_inner() {
            match n.as_rule() {
                Rule::piece_ref => match self.piece_ref(&n) {
                    Some(t) => pieces.push(t),
                    None => ok = false,
                },
                Rule::cell_list => {
                    let mut places = Vec::new();
                    for (c, at) in self.cell_list_spanned(n, None) {
                        match first.iter().position(|x| *x == c) {
                            Some(i) => places.push(i as u16),
                            None => {
                                let name = self.cells[c.0 as usize].name.clone();
                                self.errors.push(Diagnostic::new(
                                    format!("`{name}` is not one of the shuffle's cells"),
                                    at,
                                    "expected cells of the first player's list (they name the places of every list)",
                                ));
                                ok = false;
                            }
                        }
                    }
                    allowed = Some(places);
                }
                _ => {}
            }
        }
        ok.then_some(ShuffleGroup { pieces, allowed })
    }

    /// The shuffles' cells must be free of the setup's pieces and of each other's.
    pub(super) fn check_shuffles(
        &mut self,
        shuffles: &[(Shuffle, std::ops::Range<usize>)],
        placed: &[(CellId, Vec<(PlayerId, PieceTypeId)>)],
    ) {
        let mut seen: Vec<CellId> = placed.iter().map(|(c, _)| *c).collect();
        for (s, at) in shuffles {
            for (_, cells) in &s.targets {
                for c in cells {
                    if seen.contains(c) {
                        let name = self.cells[c.0 as usize].name.clone();
                        self.errors.push(Diagnostic::new(
                            format!("`{name}` is filled twice in the setup"),
                            at.clone(),
                            "expected a shuffle's cells to be left empty by the rest of the setup",
                        ));
                        return;
                    }
                    seen.push(*c);
                }
            }
        }
    }
}
