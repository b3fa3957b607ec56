//! Move ordering for the search: static exchange evaluation, killer moves and the history of quiet moves that refuted others.

use crate::eval::Evaluator;
use crate::ir::{CellId, Instr, PieceType, PieceTypeId, Variant};
use crate::position::{Move, MoveKind, Position};
use crate::rules::{Piece, Rules};
use crate::tables::NO_PROMOTION;

/// Most plies the search keeps killers for.
pub(crate) const MAX_PLY: usize = 128;

/// History scores stay within this bound (a gravity formula pulls them back).
const HISTORY_MAX: i32 = 16_384;

/// Order scores: the table's move, good captures, promotions, killers, quiet moves by
/// history, bad captures.
const TT_MOVE: i32 = 2_000_000;
const GOOD_CAPTURE: i32 = 1_000_000;
const PROMOTION: i32 = 900_000;
const KILLER: i32 = 800_000;
const BAD_CAPTURE: i32 = -1_000_000;

/// Killers per ply and the history of quiet moves by (piece code, target cell).
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    cells: usize,
}

/// Whether a move takes something (castling's partner is not a victim).
#[inline]
pub(crate) fn is_capture(mv: &Move) -> bool {
    mv.is_capture() && mv.kind != MoveKind::Castle && mv.kind.is_piece_move()
}

/// Whether a move is quiet: no capture, no promotion.
#[inline]
pub(crate) fn is_quiet(mv: &Move) -> bool {
    !is_capture(mv) && mv.promote == 0
}

impl Ordering {
    pub(crate) fn new(rules: &Rules) -> Ordering {
        let codes = rules.player_count() * rules.variant.pieces.len() + 1;
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; codes * rules.cell_count()],
            cells: rules.cell_count(),
        }
    }

    /// Forgets the killers (they belong to one search) and halves the history.
    pub(crate) fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    fn history_index(&self, mv: &Move) -> usize {
        let code =
            if mv.piece.is_empty() || mv.piece == Piece::ALL || mv.piece == Piece::HOLE { 0 } else { mv.piece.0 };
        (code as usize * self.cells + mv.to.0 as usize).min(self.history.len() - 1)
    }

    /// The history score of a quiet move.
    pub(crate) fn history(&self, mv: &Move) -> i32 {
        self.history[self.history_index(mv)]
    }

    /// Whether the move is a killer at this ply.
    pub(crate) fn is_killer(&self, mv: &Move, ply: usize) -> bool {
        self.killers.get(ply).is_some_and(|k| k.contains(&Some(*mv)))
    }

    /// Records a quiet move that refuted a position: a killer for its ply, a history bonus for
    /// it and a malus for the quiet moves tried before it.
    pub(crate) fn refuted(&mut self, mv: Move, ply: usize, depth: u32, tried: &[Move]) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let bonus = (depth * depth).min(400) as i32 * 16;
        self.nudge(&mv, bonus);
        for m in tried {
            if *m != mv {
                self.nudge(m, -bonus);
            }
        }
    }

    fn nudge(&mut self, mv: &Move, bonus: i32) {
        let i = self.history_index(mv);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Order scores for a move list (higher first): the table's move, captures by victim then
    /// cheapest attacker (those losing material by static exchange last), promotions, killers,
    /// then quiet moves by history. A capture of a cheaper piece is scored as a good one and
    /// marked `unsure`: [`Picker::pick`] plays out its exchange only when it comes first, so a
    /// cut-off spares the exchanges of the captures after it.
    pub(crate) fn scores(
        &self,
        eval: &Evaluator,
        pos: &Position,
        moves: &[Move],
        best: Option<Move>,
        ply: usize,
        picker: &mut Picker,
    ) {
        let rules = &**pos.rules();
        // Sized first and written in place: no length check per move.
        picker.scores.clear();
        picker.scores.resize(moves.len(), 0);
        picker.unsure.clear();
        picker.unsure.resize(moves.len(), false);
        picker.sorted_from = usize::MAX;
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        for ((m, score), sure) in moves.iter().zip(&mut picker.scores).zip(&mut picker.unsure) {
            let mut unsure = false;
            let s = if Some(*m) == best {
                TT_MOVE
            } else if is_capture(m) {
                let victim = victim_value(pos, rules, eval, m);
                let attacker = eval.exchange_value(rules, m.piece);
                unsure = victim < attacker;
                GOOD_CAPTURE + victim * 16 - attacker / 16
            } else if m.promote != 0 {
                PROMOTION + m.promote as i32
            } else if killers.contains(&Some(*m)) {
                KILLER
            } else {
                self.history(m)
            };
            (*score, *sure) = (s, unsure);
        }
    }
}

/// A move list's order scores, and which captures still await their static exchange.
#[derive(Clone, Debug, Default)]
pub(crate) struct Picker {
    /// Order scores, higher first (see [`Ordering::scores`]).
    pub(crate) scores: Vec<i32>,
    /// The capture is scored as good until its exchange is played out.
    unsure: Vec<bool>,
    /// The moves from this index on are sorted (highest score first): picked in turn.
    sorted_from: usize,
    /// Scratch space of the sort: score, unsure, move.
    rest: Vec<(i32, bool, Move)>,
}

/// Picks made one at a time before the rest of the list is sorted at once: a cut-off comes
/// mostly among the first moves, and past them a selection step per move costs the square of
/// the list's length.
const PICKS_BEFORE_SORT: usize = 4;

impl Picker {
    /// Moves the highest-scored remaining move to position `i` (selection sort, one step at a
    /// time so that a cut-off spares sorting the rest). A capture marked unsure that comes
    /// first has its exchange played out; one that loses material goes among the bad captures
    /// and the pick is made again, so the order is that of every exchange played out first.
    pub(crate) fn pick(&mut self, pos: &mut Position, eval: &Evaluator, moves: &mut [Move], i: usize) {
        if i >= PICKS_BEFORE_SORT && i < self.sorted_from {
            self.sort_rest(moves, i);
        }
        if i >= self.sorted_from {
            return self.pick_sorted(pos, eval, moves, i);
        }
        let scores = &mut self.scores;
        loop {
            // The first of the highest scores, its value kept at hand.
            let (mut best, mut top) = (i, scores[i]);
            for (j, &s) in scores.iter().enumerate().take(moves.len()).skip(i + 1) {
                if s > top {
                    (best, top) = (j, s);
                }
            }
            if self.unsure[best] {
                self.unsure[best] = false;
                // The rules held apart from the position the exchange plays on (a reference
                // count taken here only, not at every pick).
                let rules = pos.rules().clone();
                if !see(pos, &rules, eval, moves[best], 0) {
                    scores[best] += BAD_CAPTURE - GOOD_CAPTURE;
                    continue;
                }
            }
            moves.swap(i, best);
            scores.swap(i, best);
            self.unsure.swap(i, best);
            return;
        }
    }

    /// Sorts the moves from `i` on by score, highest first (ties in list order).
    fn sort_rest(&mut self, moves: &mut [Move], i: usize) {
        self.rest.clear();
        self.rest.extend((i..moves.len()).map(|j| (self.scores[j], self.unsure[j], moves[j])));
        // One word per move, sorted as integers: the score turned so that the highest comes
        // first, then the index, which breaks ties (the order of a stable sort, without its
        // buffer).
        KEYS.with_borrow_mut(|keys| {
            keys.clear();
            keys.extend(
                self.rest.iter().enumerate().map(|(k, r)| (u64::from(!(r.0 as u32 ^ 1 << 31)) << 32) | k as u64),
            );
            keys.sort_unstable();
            for (k, key) in keys.iter().enumerate() {
                (self.scores[i + k], self.unsure[i + k], moves[i + k]) = self.rest[*key as u32 as usize];
            }
        });
        self.sorted_from = i;
    }

    /// [`Picker::pick`] in the sorted part: the move at `i`, unless it is a capture whose
    /// exchange loses, which sinks among the moves of its new score.
    fn pick_sorted(&mut self, pos: &mut Position, eval: &Evaluator, moves: &mut [Move], i: usize) {
        while self.unsure[i] {
            self.unsure[i] = false;
            let rules = pos.rules().clone();
            if see(pos, &rules, eval, moves[i], 0) {
                return;
            }
            self.scores[i] += BAD_CAPTURE - GOOD_CAPTURE;
            let mut k = i;
            while k + 1 < moves.len() && self.scores[k + 1] > self.scores[k] {
                moves.swap(k, k + 1);
                self.scores.swap(k, k + 1);
                self.unsure.swap(k, k + 1);
                k += 1;
            }
        }
    }
}

/// What a capture takes: one piece, or every enemy piece on a stack.
pub(crate) fn victim_value(pos: &Position, r: &Rules, eval: &Evaluator, mv: &Move) -> i32 {
    if mv.take == Piece::ALL {
        let mover = r.owner(mv.piece);
        return pos
            .pieces_at(mv.to)
            .iter()
            .filter(|q| !r.allied(r.owner(**q), mover))
            .map(|q| eval.exchange_value(r, *q))
            .sum();
    }
    eval.exchange_value(r, mv.take)
}

/// Static exchange evaluation: whether a capture wins at least `threshold` once both sides
/// have recaptured on its target with their cheapest pieces for as long as it pays. The
/// recaptures are found by generating moves (so any rules' attacks count) and the exchange is
/// played out on the position, then taken back.
pub(crate) fn see(pos: &mut Position, r: &Rules, eval: &Evaluator, mv: Move, threshold: i32) -> bool {
    let first = victim_value(pos, r, eval, &mv);
    // Decided before any recapture is looked for: the opponent may stop after this capture
    // (the value is at most `first`) or take the capturer back (at least `first` less it).
    if first < threshold {
        return false;
    }
    if first - promoted_value(r, eval, &mv) >= threshold {
        return true;
    }
    let light = light_exchange(pos, r, &mv);
    let opponent = crate::ir::PlayerId(((pos.side_to_move().0 as usize + 1) % r.player_count()) as u8);
    // No recapture, once the capturer has left its cell (a line through it counts). The
    // exchange in the cells asks that first itself, from the same tables: not asked twice.
    if !light && pos.st.attacked_leaving(r, mv.to, opponent, mv.from) == Some(false) {
        return true;
    }
    if light {
        if let Some(wins) = see_in_cells_at_least(pos, r, eval, mv, first, threshold) {
            return wins;
        }
    }
    exchange(pos, r, eval, mv) >= threshold
}

thread_local! {
    // The sort keys of [`Picker::sort_rest`], kept out of the picker (which the search moves
    // in and out of its ply lists at every node).
    static KEYS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
    // The moves and cells each step of an exchange looks at: no allocation per exchange.
    static SCRATCH: std::cell::RefCell<(Vec<Move>, Vec<CellId>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// A capture's exchange value with the moves made, and in the cell array where that applies
/// (for tests to compare the two).
#[cfg(feature = "test-hooks")]
pub(crate) fn exchange_both_ways(pos: &mut Position, r: &Rules, eval: &Evaluator, mv: Move) -> (i32, Option<i32>) {
    let made = exchange(pos, r, eval, mv);
    let first = victim_value(pos, r, eval, &mv);
    let in_cells = light_exchange(pos, r, &mv).then(|| see_in_cells(pos, r, eval, mv, first)).flatten();
    (made, in_cells)
}

/// The static exchange value of a capture (see [`see`]) with the moves made: the reference the
/// cell array's exchange is tested against, and the way where it does not apply.
fn exchange(pos: &mut Position, r: &Rules, eval: &Evaluator, mv: Move) -> i32 {
    let mover = pos.side_to_move();
    let first = victim_value(pos, r, eval, &mv);
    let target = mv.to;
    let mut gains = [0i32; 32];
    gains[0] = first;
    let mut on_target = promoted_value(r, eval, &mv);
    pos.make(mv);
    let mut made = 1;
    let mut d = 0;
    // In a turn of several actions the exchange is no longer a plain alternation: stop there.
    let mut alternates = pos.side_to_move() != mover;
    SCRATCH.with_borrow_mut(|(buf, cells)| {
        while alternates && d + 1 < gains.len() {
            let Some(next) = cheapest_capture(pos, r, eval, target, buf, cells) else { break };
            d += 1;
            gains[d] = on_target - gains[d - 1];
            on_target = promoted_value(r, eval, &next);
            let side = pos.side_to_move();
            pos.make(next);
            made += 1;
            alternates = pos.side_to_move() != side;
        }
    });
    for _ in 0..made {
        pos.unmake();
    }
    negamax_gains(&mut gains, d)
}

/// The exchange's value from its gains: each side stops capturing where going on loses.
fn negamax_gains(gains: &mut [i32; 32], mut d: usize) -> i32 {
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

/// Whether the exchange a capture begins may be played out in the cell array alone (no move
/// made): a plain capture where plain moves may be tried there (`Rules::cell_trials`, whose
/// probes [`cheapest_capture`]'s quick path reads). Making and unmaking each capture was most
/// of the exchange's cost.
fn light_exchange(pos: &Position, r: &Rules, mv: &Move) -> bool {
    mv.kind == MoveKind::Normal && r.paths.allows(crate::paths::Path::CellTrial) && pos.st.partial.is_none()
}

/// [`exchange`] played out in the cell array (see [`CellExchange`]). `None` when a recapture
/// would promote: the caller then makes the moves. Read by the tests' cross-check alone; the
/// search asks [`see_in_cells_at_least`].
#[cfg(feature = "test-hooks")]
fn see_in_cells(pos: &mut Position, r: &Rules, eval: &Evaluator, mv: Move, first: i32) -> Option<i32> {
    let mut gains = [0i32; 32];
    gains[0] = first;
    let mut on_target = promoted_value(r, eval, &mv);
    let mut ex = CellExchange::start(pos, r, &mv);
    let mut d = 0;
    let mut promotes = false;
    while d + 1 < gains.len() {
        match ex.recapture(pos, r, eval) {
            Recapture::By(value) => {
                d += 1;
                gains[d] = on_target - gains[d - 1];
                on_target = value;
            }
            Recapture::Promotes => {
                promotes = true;
                break;
            }
            Recapture::Nothing => break,
        }
    }
    ex.put_back(pos);
    (!promotes).then(|| negamax_gains(&mut gains, d))
}

/// Whether `see_in_cells`'s value is at least `threshold`, looking for no more recaptures
/// than decide it: with the material balance after each capture, the side that may stop
/// next is either sure of its side of the threshold whatever follows, or must go on. The same
/// captures in the same order as the full exchange (up to its 31 recaptures), so the answer
/// is the same. `None` when a recapture would promote.
fn see_in_cells_at_least(
    pos: &mut Position,
    r: &Rules,
    eval: &Evaluator,
    mv: Move,
    first: i32,
    threshold: i32,
) -> Option<bool> {
    let mut balance = first;
    let mut on_target = promoted_value(r, eval, &mv);
    let mut ex = CellExchange::start(pos, r, &mv);
    // `ours`: the next capture is the mover's (the opponent's after the first).
    let mut ours = false;
    let mut answer = None;
    for _ in 1..32 {
        // The side to capture next may stop: the mover keeps `balance` if it is the opponent
        // and the balance already falls short, or if it is the mover and it already reaches.
        if ours && balance >= threshold {
            answer = Some(true);
        } else if !ours && balance < threshold {
            answer = Some(false);
        // Or going on is decided whatever follows: the next capture alone settles it.
        } else if !ours && balance - on_target >= threshold {
            answer = Some(true);
        } else if ours && balance + on_target < threshold {
            answer = Some(false);
        }
        if answer.is_some() {
            break;
        }
        match ex.recapture(pos, r, eval) {
            Recapture::By(value) => {
                balance += if ours { on_target } else { -on_target };
                on_target = value;
                ours = !ours;
            }
            Recapture::Promotes => break,
            // The side to capture cannot: the balance stands.
            Recapture::Nothing => {
                answer = Some(balance >= threshold);
                break;
            }
        }
    }
    ex.put_back(pos);
    if answer.is_none() && ex.promotes {
        return None;
    }
    Some(answer.unwrap_or(balance >= threshold))
}

/// An exchange played out in the cell array: each capture lifts its piece onto the target
/// (the captured piece off the board), and the cells are put back at the end.
struct CellExchange {
    target: CellId,
    /// The cells changed, in order, with what stood there: put back in reverse.
    changed: [(CellId, Piece); 33],
    n: usize,
    /// The side to capture next.
    side: crate::ir::PlayerId,
    /// A recapture would promote (what may be offered can depend on the pieces taken).
    promotes: bool,
    /// The cells the captures have left (on the first 128): the board's occupancy sets, not
    /// updated here, still hold them.
    vacated: u128,
}

/// What the side to capture next does on the target.
enum Recapture {
    /// It captures with its cheapest piece, of this value, which now stands on the target.
    By(i32),
    /// It cannot.
    Nothing,
    /// Its cheapest capture would promote: the cell array cannot tell.
    Promotes,
}

impl CellExchange {
    /// Makes the first capture, `mv`, in the cell array.
    fn start(pos: &mut Position, r: &Rules, mv: &Move) -> CellExchange {
        let target = mv.to;
        let mut changed = [(CellId(0), Piece::EMPTY); 33];
        changed[0] = (target, pos.st.cells[target.0 as usize]);
        changed[1] = (mv.from, pos.st.cells[mv.from.0 as usize]);
        pos.st.cells[target.0 as usize] = mv.landed(r, pos.st.cells[mv.from.0 as usize]);
        pos.st.cells[mv.from.0 as usize] = Piece::EMPTY;
        let side = crate::ir::PlayerId(1 - pos.st.side.0);
        let vacated = if mv.from.0 < 128 { 1 << mv.from.0 } else { 0 };
        CellExchange { target, changed, n: 2, side, promotes: false, vacated }
    }

    /// The next side's recapture with its cheapest attacker (the first in cell order among
    /// equals), made in the cells. The probes hold only captures that need nothing else (the
    /// probes skipped by the board's occupancy sets, not updated here, stay right: pieces only
    /// leave their cells, for the target, which no probe from it holds). A piece that may
    /// promote has its moves generated, to learn whether this capture does.
    fn recapture(&mut self, pos: &mut Position, r: &Rules, eval: &Evaluator) -> Recapture {
        let (target, side) = (self.target, self.side);
        let vacated = self.vacated;
        let found = SCRATCH.with_borrow_mut(|(buf, cells)| {
            let st = &pos.st;
            cells.clear();
            match st.attackers_read(r, target, side, vacated) {
                Some(mut from) => {
                    while from != 0 {
                        cells.push(CellId(from.trailing_zeros() as u16));
                        from &= from - 1;
                    }
                }
                None => st.probe_attackers(r, target, side, cells),
            }
            let from = *cells.iter().min_by_key(|c| (eval.exchange_value(r, st.cells[c.0 as usize]), c.0))?;
            let piece = st.cells[from.0 as usize];
            let (a, b, _) = r.entries_for(side, r.type_of(piece), from);
            // Only a capture that may promote on the target has its moves generated.
            let may_promote = |e: &crate::tables::Entry| {
                e.promo != NO_PROMOTION && r.promotes(&r.tables.promotions[e.promo as usize], side, from, target)
            };
            if r.tables.entries[a..b].iter().any(may_promote) {
                let saved = pos.st.side;
                pos.st.side = side;
                let next = cheapest_capture(pos, r, eval, target, buf, cells);
                pos.st.side = saved;
                if next.is_none_or(|m| m.promote != 0 || m.from != from) {
                    return Some(None);
                }
            }
            Some(Some((from, piece)))
        });
        match found {
            None => Recapture::Nothing,
            Some(None) => {
                self.promotes = true;
                Recapture::Promotes
            }
            Some(Some((from, piece))) => {
                self.changed[self.n] = (from, piece);
                self.n += 1;
                if from.0 < 128 {
                    self.vacated |= 1 << from.0;
                }
                pos.st.cells[target.0 as usize] = piece;
                pos.st.cells[from.0 as usize] = Piece::EMPTY;
                self.side = crate::ir::PlayerId(1 - side.0);
                Recapture::By(eval.exchange_value(r, piece))
            }
        }
    }

    /// Puts the cells back: the origins in reverse, then the target as it stood.
    fn put_back(&self, pos: &mut Position) {
        for &(cell, piece) in self.changed[1..self.n].iter().rev() {
            pos.st.cells[cell.0 as usize] = piece;
        }
        pos.st.cells[self.target.0 as usize] = self.changed[0].1;
    }
}

/// The side to move's capture on `target` by its cheapest piece (the first in generation
/// order among equals), en passant aside. Where the probes tell every attack, only the pieces
/// they find are asked for their moves, cheapest first (generating every move for each step of
/// every exchange cost a third of the search's time in chess); else every move that may
/// capture is generated.
fn cheapest_capture(
    pos: &Position,
    r: &Rules,
    eval: &Evaluator,
    target: CellId,
    buf: &mut Vec<Move>,
    cells: &mut Vec<CellId>,
) -> Option<Move> {
    let takes = |m: &&Move| m.to == target && is_capture(m) && m.kind != MoveKind::EnPassant;
    let st = &pos.st;
    if r.paths.allows(crate::paths::Path::ProbeAttackers) && st.partial.is_none() {
        let side = st.side;
        cells.clear();
        st.probe_attackers(r, target, side, cells);
        // Cheapest first; among equals in cell order, as the generator meets them.
        cells.sort_unstable_by_key(|c| (eval.exchange_value(r, st.cells[c.0 as usize]), c.0));
        cells.dedup();
        for &from in cells.iter() {
            buf.clear();
            st.single_piece_moves(r, side, from, buf);
            if let Some(m) = buf.iter().find(takes) {
                return Some(*m);
            }
        }
        return None;
    }
    // Only captures can answer: the moves that can be neither captures nor promotions are
    // skipped where the generator may (the others keep their order).
    buf.clear();
    if !st.pseudo_noisy_moves(r, st.side, buf) {
        pos.pseudo_legal_moves(buf);
    }
    buf.iter().filter(takes).min_by_key(|m| eval.exchange_value(r, m.piece)).copied()
}

/// The value of the piece standing on the target after a capture.
fn promoted_value(r: &Rules, eval: &Evaluator, mv: &Move) -> i32 {
    match mv.promotion() {
        Some(t) => eval.exchange_value(r, r.piece(r.owner(mv.piece), t)),
        None => eval.exchange_value(r, mv.piece),
    }
}

/// Per (type, type), row by row: a piece's moves may turn the first type into the second, and the
/// second's moves turn it back into the first (pieces that turn over both ways).
pub(crate) fn reversible_promotions(v: &Variant) -> Vec<bool> {
    let n = v.pieces.len();
    let into: Vec<Vec<PieceTypeId>> = v.pieces.iter().map(turns_into).collect();
    let mut out = vec![false; n * n];
    for (a, targets) in into.iter().enumerate() {
        for b in targets {
            let back = into.get(b.0 as usize).is_some_and(|t| t.iter().any(|x| x.0 as usize == a));
            if back && b.0 as usize != a {
                out[a * n + b.0 as usize] = true;
            }
        }
    }
    out
}

/// The types a piece's moves may turn it into: its promotions' choices and the types its move
/// programs give it (drops are no moves of a piece on the board).
fn turns_into(p: &PieceType) -> Vec<PieceTypeId> {
    fn walk(body: &[Instr], out: &mut Vec<PieceTypeId>) {
        for i in body {
            match i {
                Instr::Add { promote, .. } => out.extend(promote),
                Instr::ChangeType(t, _) => out.push(*t),
                Instr::If(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                Instr::While(_, a) => walk(a, out),
                _ => {}
            }
        }
    }
    let mut out: Vec<PieceTypeId> = p.promotions().flat_map(|r| r.choices.iter().copied()).collect();
    for program in &p.programs {
        walk(&program.body, &mut out);
    }
    out
}
