//! The differential test of move generation: a variant compiled with every fast path its features allow, played beside the same variant compiled for the plain reference, along a seeded random game.
//!
//! At each position of the game, [`check`] compares: the position strings of the two
//! (the plain make against the general one, atoms against programs run as written), the
//! incremental hash against one computed afresh, the string's round trip, the legal moves of
//! the fast rules against the reference's (as sets of long notations), the moves walked one by
//! one, the captures quiescence asks for, the count of the last ply, the end of the game, and
//! at a few positions perft 1-3 (also by whole turns and on two threads) against the
//! reference's perft. The first difference is returned with the seed, the ply, the position
//! string and what differs.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use varia_interpreter::ir::Variant;
use varia_interpreter::paths::Path;
use varia_interpreter::{perft, perft_threads, perft_turns, Move, Position, Rules};

/// How much of a game to check.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Plies of the random game.
    pub plies: usize,
    /// The deepest perft compared.
    pub depth: u32,
    /// No perft deeper than one whose reference count passed this many leaves.
    pub perft_nodes: u64,
    /// Perft is compared every this many plies (and at the start).
    pub perft_every: usize,
    /// Perft by whole turns is compared too.
    pub turns: bool,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget { plies: 24, depth: 3, perft_nodes: 3_000, perft_every: 8, turns: true }
    }
}

/// What a check saw, for reports of coverage.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Positions compared.
    pub positions: usize,
    /// Legal moves compared.
    pub moves: usize,
    /// Perft leaves compared.
    pub perft_leaves: u64,
    /// Positions where the game had ended.
    pub ended: usize,
}

/// Plays a seeded random game of `variant` on its fast rules and on the reference's, comparing
/// them at every position (see the module doc). `Err` names the first difference and the fast
/// paths without any one of which the game agrees (found by playing it again without each).
pub fn check(variant: Variant, seed: u64, budget: Budget) -> Result<Seen, String> {
    check_without(variant.clone(), &[], seed, budget).map_err(|e| {
        let blamed: Vec<String> = Path::ALL
            .into_iter()
            .filter(|p| Rules::new(variant.clone()).fast_paths().contains(&format!("{p:?}")))
            .filter(|p| check_without(variant.clone(), &[*p], seed, budget).is_ok())
            .map(|p| format!("{p:?}"))
            .collect();
        if blamed.is_empty() {
            format!(
                "{e}
  (no single fast path switched off makes it agree)"
            )
        } else {
            format!(
                "{e}
  (it agrees without the path {})",
                blamed.join(" or without ")
            )
        }
    })
}

/// [`check`] with some fast paths switched off.
pub fn check_without(variant: Variant, without: &[Path], seed: u64, budget: Budget) -> Result<Seen, String> {
    let fast = Arc::new(Rules::without(variant.clone(), without));
    let plain = Arc::new(Rules::reference(variant));
    let mut f = Position::start(fast.clone());
    let mut p = Position::start(plain);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen = Seen::default();
    let start = f.to_position_string();
    let mut played = 0;
    for ply in 0..=budget.plies {
        let here = f.to_position_string();
        let at = |what: String| format!("seed {seed}, ply {ply}, position `{here}`: {what}");
        let moves = compare_position(&mut f, &mut p, &mut seen).map_err(at)?;
        if ply % budget.perft_every == 0 {
            compare_perft(&mut f, &mut p, budget, &mut seen).map_err(at)?;
        }
        if moves.is_empty() || ply == budget.plies {
            break;
        }
        let (text, k) = &moves[rng.random_range(0..moves.len())];
        let mv_f = find(&mut f, text, *k).ok_or_else(|| at(format!("{text} not found again")))?;
        let mv_p = find(&mut p, text, *k).ok_or_else(|| at(format!("{text} not among the reference's moves")))?;
        make_unmake(&mut f, mv_f).map_err(at)?;
        f.make(mv_f);
        p.make(mv_p);
        played += 1;
    }
    for _ in 0..played {
        f.unmake();
        p.unmake();
    }
    if f.to_position_string() != start || p.to_position_string() != start {
        return Err(format!("seed {seed}: the game unmade to `{}`, not `{start}`", f.to_position_string()));
    }
    Ok(seen)
}

/// The legal moves as (long notation, how many equal ones came before), sorted.
fn notations(pos: &Position, moves: &[Move]) -> Vec<(String, usize)> {
    let mut texts: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    texts.sort();
    let mut out: Vec<(String, usize)> = Vec::with_capacity(texts.len());
    for t in texts {
        let k = out.iter().rev().take_while(|(x, _)| *x == t).count();
        out.push((t, k));
    }
    out
}

/// A move list as a set: the fast paths may list a piece's moves in another order than the walk.
fn as_set(moves: &[Move]) -> Vec<String> {
    let mut texts: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    texts.sort();
    texts
}

/// The `k`-th legal move (in generation order) whose long notation is `text`.
fn find(pos: &mut Position, text: &str, k: usize) -> Option<Move> {
    let mut moves = Vec::new();
    if pos.rules().is_reference() {
        pos.reference_moves(&mut moves);
    } else {
        pos.legal_moves(&mut moves);
    }
    moves.into_iter().filter(|m| pos.long_notation(*m) == text).nth(k)
}

/// Compares one position of the two games; returns its legal moves.
fn compare_position(f: &mut Position, p: &mut Position, seen: &mut Seen) -> Result<Vec<(String, usize)>, String> {
    let text = f.to_position_string();
    if p.to_position_string() != text {
        return Err(format!("the reference's game is at `{}`", p.to_position_string()));
    }
    for pos in [&*f, &*p] {
        if pos.hash() != pos.compute_hash() {
            return Err("the incremental hash differs from the one computed afresh".into());
        }
    }
    let back = Position::from_position_string(f.rules().clone(), &text)
        .map_err(|e| format!("the position string does not read back: {}", e.message))?;
    if back.to_position_string() != text || back.hash() != f.hash() {
        return Err(format!("the position string reads back as `{}`", back.to_position_string()));
    }
    let mut fast = Vec::new();
    f.legal_moves(&mut fast);
    let mut reference = Vec::new();
    p.reference_moves(&mut reference);
    let listed = notations(f, &fast);
    let expected = notations(p, &reference);
    if listed != expected {
        return Err(differ("legal moves", &listed, &expected));
    }
    let mut general = Vec::new();
    p.legal_moves(&mut general);
    if notations(p, &general) != expected {
        return Err(differ("legal moves without fast paths", &notations(p, &general), &expected));
    }
    let mut walked = Vec::new();
    f.legal_moves_by_walk(&mut walked);
    if as_set(&walked) != as_set(&fast) {
        return Err(differ("moves walked one by one", &notations(f, &walked), &listed));
    }
    let mut captures = Vec::new();
    f.legal_captures(&mut captures);
    let noisy: Vec<Move> = fast.iter().copied().filter(Move::is_noisy).collect();
    if notations(f, &captures) != notations(f, &noisy) {
        return Err(differ("captures and promotions", &notations(f, &captures), &notations(f, &noisy)));
    }
    let mut buf = Vec::new();
    let counted = f.count_legal(&mut buf);
    if counted != fast.len() as u64 {
        return Err(format!("the last ply's count is {counted}, the list has {}", fast.len()));
    }
    let (ended, expected_end) = (f.outcome(), p.outcome());
    if ended != expected_end {
        return Err(format!("the game's end is {ended:?}, the reference's {expected_end:?}"));
    }
    seen.positions += 1;
    seen.moves += fast.len();
    seen.ended += usize::from(ended.is_some());
    Ok(listed)
}

/// Perft 1 to the budget's depth against the reference's; by whole turns and on two threads
/// against the serial counts.
fn compare_perft(f: &mut Position, p: &mut Position, budget: Budget, seen: &mut Seen) -> Result<(), String> {
    // Each depth's leaves, to judge the next one's size before counting it.
    let mut last = (1u64, 1u64);
    for depth in 1..=budget.depth {
        if depth > 1 && last.1.saturating_mul(last.1) / last.0.max(1) > budget.perft_nodes {
            break;
        }
        let expected = p.reference_perft(depth);
        let counted = perft(f, depth);
        if counted != expected {
            let at = first_difference(f, p, depth).unwrap_or_else(|| "no node's moves differ".into());
            return Err(format!("perft {depth} is {counted}, the reference's {expected}; {at}"));
        }
        let threaded = perft_threads(f, depth, false, 2).map_err(|e| e.to_string())?;
        if threaded != counted {
            return Err(format!("perft {depth} on two threads is {threaded}, serial {counted}"));
        }
        // Whole turns may be many plies deep: compared at depth 1, and at 2 where few.
        // A turn of copies that go on moving may branch past any count within its bound of
        // actions: compared only where the tree of actions is small.
        let mut room = TURN_TREE_POSITIONS;
        if budget.turns && (depth == 1 || (depth == 2 && last.1 <= 12)) && turn_tree_within(f, depth, 0, &mut room) {
            // A turn too long to count is refused on one thread and on two (each names the
            // first position it met).
            let turns = perft_turns(f, depth).ok();
            let turns_threaded = perft_threads(f, depth, true, 2).ok();
            if turns != turns_threaded {
                return Err(format!("perft {depth} by turns is {turns:?} serial, {turns_threaded:?} on two threads"));
            }
        }
        seen.perft_leaves += expected;
        last = (last.1, expected.max(1));
    }
    Ok(())
}

/// The most positions of whole turns' action trees a perft by turns is compared on.
const TURN_TREE_POSITIONS: u64 = 20_000;

/// Whether the tree of actions of `depth` whole turns (as `perft_turns` walks it, `actions`
/// made in the turn under way) has at most `room` positions; `room` is spent as they are met.
fn turn_tree_within(f: &mut Position, depth: u32, actions: u32, room: &mut u64) -> bool {
    if depth == 0 || actions >= varia_interpreter::MAX_TURN_ACTIONS {
        return true;
    }
    let mut moves = Vec::new();
    f.legal_moves(&mut moves);
    for mv in moves {
        if *room == 0 {
            return false;
        }
        *room -= 1;
        f.make(mv);
        let done = f.action_index() == 0 && f.partial_move().is_none();
        let within =
            if done { turn_tree_within(f, depth - 1, 0, room) } else { turn_tree_within(f, depth, actions + 1, room) };
        f.unmake();
        if !within {
            return false;
        }
    }
    true
}

/// The first node of the tree `depth` plies deep whose legal moves (or their count) differ
/// from the reference's, with the moves that lead there.
fn first_difference(f: &mut Position, p: &mut Position, depth: u32) -> Option<String> {
    let mut fast = Vec::new();
    f.legal_moves(&mut fast);
    let mut reference = Vec::new();
    p.reference_moves(&mut reference);
    let (listed, expected) = (notations(f, &fast), notations(p, &reference));
    if listed != expected {
        return Some(format!("at `{}`: {}", f.to_position_string(), differ("legal moves", &listed, &expected)));
    }
    let counted = f.count_legal(&mut Vec::new());
    if counted != fast.len() as u64 {
        return Some(format!("at `{}`: the count is {counted}, the list {}", f.to_position_string(), fast.len()));
    }
    if depth <= 1 {
        return None;
    }
    for (text, k) in listed {
        let (Some(a), Some(b)) = (find(f, &text, k), find(p, &text, k)) else { continue };
        f.make(a);
        p.make(b);
        let below = first_difference(f, p, depth - 1);
        f.unmake();
        p.unmake();
        if let Some(d) = below {
            return Some(format!("after {text}, {d}"));
        }
    }
    None
}

/// The move makes and unmakes to the same position string and hash.
fn make_unmake(pos: &mut Position, mv: Move) -> Result<(), String> {
    let (before, hash) = (pos.to_position_string(), pos.hash());
    pos.make(mv);
    pos.unmake();
    if pos.to_position_string() != before || pos.hash() != hash {
        return Err(format!("{} unmakes to `{}`", pos.long_notation(mv), pos.to_position_string()));
    }
    Ok(())
}

/// The first few differences of two sorted move lists.
fn differ(what: &str, got: &[(String, usize)], expected: &[(String, usize)]) -> String {
    let extra: Vec<&str> = got.iter().filter(|m| !expected.contains(m)).map(|(t, _)| t.as_str()).take(8).collect();
    let missing: Vec<&str> = expected.iter().filter(|m| !got.contains(m)).map(|(t, _)| t.as_str()).take(8).collect();
    format!("{what}: {} against the reference's {}; extra {extra:?}, missing {missing:?}", got.len(), expected.len())
}
