//! Random variants the long differential runs found differing, kept with their seed: each game
//! replayed as the run played it agrees with the reference now.

use varia_fuzz::differential::{check, Budget};

/// A shuffled setup with castling from the position on a board of owned squares that carry
/// pieces: a square carrying the king off its cell kept the castlings whose start cells come
/// from the position (and their hash keys), while the position string, which names no right
/// its king cannot use, dropped them; the string read back with another hash (seed 611731).
#[test]
fn a_carried_king_ends_its_castlings_from_the_position() {
    let path = varia_fuzz::root().join("fuzz/tests/found/random-611731.var");
    let text = std::fs::read_to_string(&path).expect("the saved variant");
    let variant = varia_grammar::load(&text).expect("loads");
    check(variant, 611731, Budget::default()).expect("agrees with the reference");
}

/// A program move that changes a type as it lands, and a drop program, on the lone royal of a
/// stack zone of any capacity: both join the royal's cell, as the make does, but the attack
/// test took the landing for a capture, so the royal could not step where a drop reaches
/// (seed 720931).
#[test]
fn a_landing_that_joins_a_royal_does_not_attack_it() {
    let path = varia_fuzz::root().join("fuzz/tests/found/random-720931.var");
    let text = std::fs::read_to_string(&path).expect("the saved variant");
    let variant = varia_grammar::load(&text).expect("loads");
    check(variant, 720931, Budget::default()).expect("agrees with the reference");
}

/// The game of a saved variant, replayed as the run played it, agrees with the reference.
fn replays(seed: u64) {
    let path = varia_fuzz::root().join(format!("fuzz/tests/found/random-{seed}.var"));
    let text = std::fs::read_to_string(&path).expect("the saved variant");
    let variant = varia_grammar::load(&text).expect("loads");
    check(variant, seed, Budget::default()).expect("agrees with the reference");
}

/// A gate on a castling's own cells that an enemy's aim (`aimed-by`) may end was written as
/// implied by the castling's letter: once the aim took the gate with the castling still held,
/// the position string read back with the gate (seeds 810334 and 820940).
#[test]
fn a_gate_an_aim_may_end_is_not_implied_by_its_castling() {
    replays(810334);
    replays(820940);
}

/// A move program shaped like an atom (a pawn's `ne verify enemy add`) aimed at a gate when
/// the `Atoms` path read it into the move tables, and not otherwise: only powers aim (seed
/// 821048).
#[test]
fn a_move_program_never_aims_at_a_gate() {
    replays(821048);
}

/// A move off the stack cells tried in the cell array alone said "illegal" where the square
/// it left vanishes (`vacate`) and blocks the line of the attack the trial saw: as the light
/// trial does, its "illegal" is now asked again in full (seed 821154).
#[test]
fn a_stack_trial_sees_the_square_left_behind_vanish() {
    replays(821154);
}
