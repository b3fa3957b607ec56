//! Explosions: a capture by an exploding piece clears the capturer, its victim and the pieces beside the target; a royal is attacked only by captures that spare the attacker's own royals.
//!
//! The rules that follow from a blast, stated once for every game that declares one (atomic
//! chess is the known example): a move may not destroy one of the mover's royal pieces; a move
//! that destroys an opponent's royal piece is legal whatever it leaves attacked (the game ends
//! with it, by the variant's goals); and a capture that would blow up the capturer's own royal
//! (the royal itself capturing, or a royal beside the target) gives no check, so kings may stand
//! side by side.

use crate::ir::{CellId, PieceTypeId, PlayerId};
use crate::position::{Logged, Move, State};
use crate::rules::{Piece, Rules};

impl State {
    /// After a move's captures (the log from `log` on): if it captured and the mover's type
    /// explodes, the blast at the move's target takes the pieces beside it (all but blast-proof
    /// ones) and the capturer itself. Enemy pieces count as captured, the mover's own as lost.
    pub(crate) fn explode(&mut self, r: &Rules, mv: Move, log: usize) {
        let Some(ex) = r.explosions.as_ref() else { return };
        let ty = r.type_of(mv.piece);
        if !ex.explodes(ty) || !self.log[log..].iter().any(|e| matches!(e, Logged::Took(_, _, _, true))) {
            return;
        }
        let mover = self.side;
        self.log.push(Logged::Blast);
        // A piece between cells stands on its location: the blast reaching any cell it covers
        // takes it there, once.
        let mut hit: Vec<CellId> = Vec::new();
        let landing = self.standing_at(mv.to);
        for &c in ex.around(mover, ty, mv.to) {
            let at = self.standing_at(c);
            if at != landing && !hit.contains(&at) {
                hit.push(at);
            }
        }
        for c in hit {
            let victims: Vec<Piece> = self
                .pieces_at(r, c)
                .iter()
                .copied()
                .filter(|q| !q.is_empty() && *q != Piece::HOLE && !ex.proof[r.type_of(*q).0 as usize])
                .collect();
            for q in victims {
                self.take_logged(r, c, q, !r.allied(r.owner(q), mover));
            }
        }
        let capturer: Vec<Piece> =
            self.pieces_at(r, mv.to).iter().copied().filter(|q| !q.is_empty() && *q != Piece::HOLE).collect();
        for q in capturer {
            self.take_logged(r, mv.to, q, !r.allied(r.owner(q), mover));
        }
    }

    /// Whether a capture on `target` by `by`'s piece of type `ty` leaves every royal piece of
    /// `by` on the board: always unless the type explodes; then the capturer must not be royal,
    /// no royal of `by` may share the target (the blast takes the whole crowd there, as
    /// [`State::explode`] does) and none may stand beside it unless blast-proof.
    pub(crate) fn spares_royals(&self, r: &Rules, by: PlayerId, ty: PieceTypeId, target: CellId) -> bool {
        self.blast_spares_royals(r, by, ty, target, r.variant.pieces[ty.0 as usize].royal)
    }

    /// [`State::spares_royals`] with the capturer's royalty given apart from its type: on a
    /// board where the move's changes are made, the capturer stands on the target as it landed
    /// (a program may have changed its type), and is read there.
    pub(crate) fn blast_spares_royals(
        &self,
        r: &Rules,
        by: PlayerId,
        ty: PieceTypeId,
        target: CellId,
        capturer_royal: bool,
    ) -> bool {
        let Some(ex) = r.explosions.as_ref() else { return true };
        if !ex.explodes(ty) {
            return true;
        }
        if capturer_royal {
            return false;
        }
        let royal_of_by = |c: CellId, proof_counts: bool| {
            self.royals[by.0 as usize].contains(c)
                && self.pieces_at(r, c).iter().any(|q| {
                    r.owner(*q) == by
                        && r.pieces.royal_code[q.0 as usize]
                        && !(proof_counts && ex.proof[r.type_of(*q).0 as usize])
                })
        };
        // A royal between cells is beside the target if it covers a cell there.
        let at_target = self.standing_at(target);
        !royal_of_by(target, false)
            && !ex.around(by, ty, target).iter().any(|&c| {
                let c = self.standing_at(c);
                c != at_target && royal_of_by(c, true)
            })
    }

    /// Whether the last move `mv` (its log from `log` on) took royal pieces off the board for
    /// good: (one of `mover`'s by its blast, one of another player's). A royal of the mover
    /// that promotes to a type that is not royal is not lost: it is on the board. Where the
    /// move explodes, a royal of the mover that its captures took from a cell the blast reaches
    /// (a crowd it captured) is lost as if the blast took it, as [`State::spares_royals`]
    /// judges a capture; the cell the mover left is not such a cell.
    pub(crate) fn royals_lost(&self, r: &Rules, mv: Move, log: usize, mover: PlayerId) -> (bool, bool) {
        let moved = &self.log[log..];
        let blast = moved.iter().position(|e| matches!(e, Logged::Blast)).unwrap_or(moved.len());
        let own_royal =
            |p: Piece| !p.is_empty() && p != Piece::HOLE && r.pieces.royal_code[p.0 as usize] && r.owner(p) == mover;
        let in_blast = |c: CellId| match r.explosions.as_ref() {
            Some(ex) if blast < moved.len() && c != mv.from => {
                let landing = self.standing_at(mv.to);
                let c = self.standing_at(c);
                c == landing || ex.around(mover, r.type_of(mv.piece), mv.to).iter().any(|&a| self.standing_at(a) == c)
            }
            _ => false,
        };
        let own = moved[blast..].iter().any(|e| matches!(*e, Logged::Took(_, p, _, _) if own_royal(p)))
            || moved[..blast].iter().enumerate().any(|(i, e)| {
                matches!(*e, Logged::Took(c, p, _, _) if own_royal(p) && in_blast(c)
                    // A royal that changes type is taken off and put back at once: still there.
                    && !matches!(moved.get(i + 1), Some(&Logged::Put(d, q, _)) if d == c && r.owner(q) == mover))
            });
        // Per other owner: royal pieces put on the board minus those taken off (a royal that
        // moves counts once each way).
        let mut net: Vec<(PlayerId, i32)> = Vec::new();
        for e in moved {
            let (p, change) = match *e {
                Logged::Took(_, p, _, _) => (p, -1),
                Logged::Put(_, p, _) => (p, 1),
                _ => continue,
            };
            if p.is_empty() || p == Piece::HOLE || !r.pieces.royal_code[p.0 as usize] {
                continue;
            }
            let owner = r.owner(p);
            match net.iter_mut().find(|(o, _)| *o == owner) {
                Some((_, n)) => *n += change,
                None => net.push((owner, change)),
            }
        }
        let others = net.iter().any(|(o, n)| *o != mover && *n < 0);
        (own, others)
    }
}
