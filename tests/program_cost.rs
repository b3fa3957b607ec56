//! What a move program may cost: one run takes at most `limits::PROGRAM_STEPS` steps and
//! `limits::PROGRAM_STEPS_PER_MOVE` more per move it has produced, whatever the board's size
//! or the program's length; a run past them ends, keeping its moves. Attack tests run the same
//! programs and stop where the listing stops.

use std::sync::Arc;
use std::time::Instant;

use varia_interpreter::limits::{PROGRAM_STEPS, PROGRAM_STEPS_PER_MOVE};
use varia_interpreter::{Position, Rules};

/// A strip of 26 cells with a Walker on a1 (White) and a King on z1 (Black), the Walker's
/// program being `body`; `royal` makes the King royal (its check read from the Walker's moves).
fn strip(body: &str, royal: bool) -> Arc<Rules> {
    let royal = if royal { " royal" } else { "" };
    let text = format!(
        "variant \"Strip\"\nboard {{ grid 26 x 1 }}\nplayer white\nplayer black\n\
         piece Walker W {{\n  move {{ {body} }}\n}}\npiece King K {{ step e w{royal} }}\n\
         setup {{\n  white: Walker a1\n  black: King z1\n}}\n"
    );
    match varia_grammar::load(&text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{d:?}"),
    }
}

/// `n` pairs of steps east and back west: 2n steps that end where they began.
fn to_and_fro(n: u32) -> String {
    "e w ".repeat(n as usize)
}

fn walker_moves(rules: Arc<Rules>) -> Vec<String> {
    let mut pos = Position::start(rules);
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.iter().map(|m| pos.long_notation(*m)).filter(|m| m.starts_with('W')).collect()
}

#[test]
fn a_run_ends_after_its_steps() {
    // `e verify empty add` after 2k steps: the add is step 2k + 3.
    let last = (PROGRAM_STEPS - 3) / 2;
    let within = format!("{} e verify empty add", to_and_fro(last));
    assert_eq!(walker_moves(strip(&within, false)), ["Wa1-b1"]);
    let past = format!("{} e verify empty add", to_and_fro(last + 1));
    assert_eq!(walker_moves(strip(&past, false)), Vec::<String>::new());
}

#[test]
fn each_move_produced_gives_the_run_more_steps() {
    // A first move, then as many steps as a run has without moves and not more than one move's
    // more: the second move is produced.
    let more = (PROGRAM_STEPS + PROGRAM_STEPS_PER_MOVE) / 2 - 4;
    let body = format!("e verify empty add {} e verify empty add", to_and_fro(more));
    assert_eq!(walker_moves(strip(&body, false)), ["Wa1-b1", "Wa1-c1"]);
    // Without the first move the same walk is cut short.
    let body = format!("e verify empty {} e verify empty add", to_and_fro(more));
    assert_eq!(walker_moves(strip(&body, false)), Vec::<String>::new());
}

/// A strip of 26 cells with a royal King on a1 (White) and a Walker on z1 (Black) whose
/// program is `body`.
fn checking(body: &str) -> Position {
    let text = format!(
        "variant \"Strip\"\nboard {{ grid 26 x 1 }}\nplayer white\nplayer black\n\
         piece Walker W {{\n  move {{ {body} }}\n}}\npiece King K {{ step e w royal }}\n\
         setup {{\n  white: King a1\n  black: Walker z1\n}}\n"
    );
    let v = varia_grammar::load(&text).unwrap_or_else(|d| panic!("{d:?}"));
    Position::start(Arc::new(Rules::new(v)))
}

#[test]
fn an_attack_test_stops_where_the_listing_stops() {
    // The Walker reaches the King on a1 by a walk west: within its steps it gives check...
    let slide = "w ".repeat(24);
    let pos = checking(&format!("{slide} w verify enemy add"));
    assert!(pos.in_check(), "{}", pos.to_position_string());
    // ... and after more steps than a run has, it does not (its own list would not take the
    // King either).
    let pos = checking(&format!("{} {slide} w verify enemy add", "w e ".repeat(PROGRAM_STEPS as usize / 2)));
    assert!(!pos.in_check(), "{}", pos.to_position_string());
}

#[test]
fn a_looping_program_on_a_large_board_costs_a_bounded_time() {
    // 52 pieces a side whose 8 programs each walk the board in nested loops (26 x 26 cells),
    // producing nothing: each run stops after its steps (before the bound, a run could take
    // (cells + 16) x 8 x its length steps, about 110,000 here, and took its 37,000).
    let text = include_str!("games/looping-programs.var");
    // Compiling: where such programs may capture is followed for at most 1 million abstract
    // states in all (it took 216 million, 37 s in the test build, before that bound).
    let began = Instant::now();
    let rules = Arc::new(Rules::new(varia_grammar::load(text).expect("loads")));
    let compiled = began.elapsed();
    assert!(rules.program_reach_cut(), "these programs spend the analysis' budget");
    // Listing: 416 runs (White's) of at most 4,096 steps, 1.7 million steps.
    let mut pos = Position::start(rules);
    let began = Instant::now();
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    let listed = began.elapsed();
    eprintln!("compiled in {compiled:?}; {} moves listed in {listed:?}", out.len());
    assert!(compiled.as_secs_f64() < 10.0 && listed.as_secs_f64() < 5.0, "{compiled:?}, {listed:?}");
}

#[test]
fn varia_check_warns_of_a_run_past_its_steps() {
    let dir = std::env::temp_dir().join(format!("varia-program-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let check = |name: &str, body: &str| {
        let text = format!(
            "variant \"Strip\"\nboard {{ grid 26 x 1 }}\nplayer white\nplayer black\n\
             piece Walker W {{\n  move {{ {body} }}\n}}\npiece King K {{ step e w }}\n\
             setup {{\n  white: Walker a1\n  black: King z1\n}}\n"
        );
        let file = dir.join(name);
        std::fs::write(&file, text).expect("written");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_varia"))
            .args(["check", file.to_str().expect("a path")])
            .output()
            .expect("run varia");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let past = check("past.var", &format!("{} e verify empty add", to_and_fro(PROGRAM_STEPS)));
    assert!(
        past.contains(
            "past.var: a move program of piece 'Walker' from a1 ran past 4096 steps (and 256 more per move it produced"
        ),
        "{past}"
    );
    let within = check("within.var", "e verify empty add");
    assert!(!within.contains("ran past"), "{within}");
    assert!(!within.contains("ran out of its budget"), "{within}");
    let file = dir.join("looping.var");
    std::fs::write(&file, include_str!("games/looping-programs.var")).expect("written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["check", file.to_str().expect("a path")])
        .output()
        .expect("run varia");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("looping.var: the analysis of where the move programs may capture ran out of its budget"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_walking_the_board_is_followed_by_the_attack_analysis() {
    // A piece whose program walks all 208 cells of the board along a direction that links each
    // cell to the next in reading order, adding a move on each empty cell (the Zillions idiom
    // of a piece entering from a reserve): the analysis of where it may capture follows it from
    // every cell within its budget (`varia check` warns otherwise), and its moves are listed as
    // written.
    let files = "abcdefghijklmnopqrstuvwxyz".chars().collect::<Vec<_>>();
    let cells: Vec<String> = (1..=8).flat_map(|r| files.iter().map(move |f| format!("{f}{r}"))).collect();
    let links: String = cells.windows(2).map(|w| format!("  link {} next {}\n", w[0], w[1])).collect();
    let text = format!(
        "variant \"Snake\"\nboard {{\n  grid 26 x 8\n  direction next\n{links}}}\nplayer white\nplayer black\n\
         piece Walker W {{\n  move {{ while on-board(next) {{ next if empty {{ add }} }} }}\n}}\n\
         piece King K {{ step e w royal }}\n\
         setup {{\n  white: Walker a1, King c1\n  black: King e1\n}}\n"
    );
    let rules = match varia_grammar::load(&text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{d:?}"),
    };
    assert!(!rules.program_reach_cut(), "the analysis ran out of its budget");
    // Every cell but the Walker's own and the two kings'.
    assert_eq!(walker_moves(rules).len(), 208 - 3);
}
