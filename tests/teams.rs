//! Teams (`team P Q`): partners do not take or check each other, win together when every
//! opponent is out, and the search plays for its side.
use std::sync::Arc;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{EndReason, GameResult, Limits, Position, Rules, Searcher};

/// Four players on a 5x5 board in two teams, south with north against west and east; a
/// player left without a piece loses (and is out).
const PARTNERS: &str = r#"variant "Partners"
board { grid 5 x 5 }
player south
player west
player north swap n <-> s
player east
team south north
team west east
piece Man M { step orthogonal }
piece Rook R { slide orthogonal }
setup {
  south: R a1
  west: R e1
  north: R e5
  east: R a5
}
end {
  goal south west north east loss: pieces-remaining 0
}
"#;

const SOUTH: PlayerId = PlayerId(0);
const WEST: PlayerId = PlayerId(1);
const NORTH: PlayerId = PlayerId(2);
const EAST: PlayerId = PlayerId(3);

fn at(text: &str, position: &str) -> Position {
    let v = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    Position::from_position_string(Arc::new(Rules::new(v)), position).unwrap_or_else(|e| panic!("{e:?}"))
}

fn listed(pos: &mut Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

#[test]
fn a_partners_piece_blocks_and_is_not_taken_an_opponents_is() {
    // South's rook on a1; north's man on a3 (a partner), west's man on c1 (an opponent).
    let mut pos = at(PARTNERS, "5/5/nM4/5/sR1wM2 s - - 0 1");
    assert_eq!(listed(&mut pos), ["Ra1-a2", "Ra1-b1", "Ra1xc1"]);
}

#[test]
fn a_partners_piece_gives_no_check_an_opponents_does() {
    let kings = PARTNERS
        .replace("piece Man M { step orthogonal }", "piece King K { royal step all }")
        .replace("goal south west north east loss: pieces-remaining 0", "checkmate loss");
    // South's king on a1, north's rook on a3: not in check, and the king may not take it.
    let mut pos = at(&kings, "nK4/5/nR4/5/sK3wK s - - 0 1");
    assert!(!pos.in_check());
    assert!(!listed(&mut pos).iter().any(|m| m.contains('x')));
    // West's rook there instead gives check.
    let pos = at(&kings, "nK4/5/wR4/5/sK3wK s - - 0 1");
    assert!(pos.in_check());
}

#[test]
fn a_team_plays_on_while_one_partner_is_in_and_wins_when_both_opponents_are_out() {
    // West is out already; south takes east's last piece: both opponents are out.
    let mut pos = at(PARTNERS, "eR4/5/5/5/sR3nR s - - 0 1 out=w");
    assert_eq!(pos.outcome(), None);
    let mv = pos.parse_move("Ra1xa5").expect("legal");
    pos.make(mv);
    assert!(pos.is_out(EAST));
    assert_eq!(pos.outcome(), Some((GameResult::Win(SOUTH), EndReason::LastStanding)));
    assert_eq!(pos.rules().winners_phrase(SOUTH), "south and north win");
    // With only north's partner out, the game goes on: south is still in.
    let mut pos = at(PARTNERS, "eR4/5/5/5/sR2wRnR w - - 0 1");
    let mv = pos.parse_move("Rd1xe1").expect("legal");
    pos.make(mv);
    assert!(pos.is_out(NORTH));
    assert_eq!(pos.outcome(), None);
    assert!(!pos.side_out(SOUTH));
    assert!(!pos.is_out(WEST));
}

#[test]
fn the_search_counts_on_the_partner() {
    // South to move; west is out. Whatever south plays, north (next in turn) takes east's
    // last piece and south's side wins: a forced win, found at depth 2, which the search
    // would not see if it took north for an opponent.
    let mut pos = at(PARTNERS, "5/5/5/3nReR/sR4 s - - 0 1 out=w");
    let mut searcher = Searcher::new(pos.rules(), 4);
    let info = searcher.search(&mut pos, Limits { depth: Some(2), ..Limits::default() }, |_| {});
    assert!(info.mate_in().is_some_and(|n| n > 0), "score {}", info.score);
    // Without the teams, north plays against south, and nothing is forced.
    let alone = PARTNERS.replace("team south north\nteam west east\n", "");
    let mut pos = at(&alone, "5/5/5/3nReR/sR4 s - - 0 1 out=w");
    let mut searcher = Searcher::new(pos.rules(), 4);
    let info = searcher.search(&mut pos, Limits { depth: Some(2), ..Limits::default() }, |_| {});
    assert!(info.mate_in().is_none(), "score {}", info.score);
    // From east's side (to move in the same position), the search sees it lose.
    let mut pos = at(PARTNERS, "5/5/5/3nReR/sR4 e - - 0 1 out=w");
    let mut searcher = Searcher::new(pos.rules(), 4);
    let info = searcher.search(&mut pos, Limits { depth: Some(3), ..Limits::default() }, |_| {});
    let best = info.best().map(|m| pos.long_notation(m));
    // East escapes the capture (up the e file) or takes north's rook.
    assert!(best.as_deref().is_some_and(|m| m == "Re2xd2" || m.starts_with("Re2-e")), "{best:?}");
}

#[test]
fn teams_are_written_back_and_checked() {
    let v = varia_grammar::load(PARTNERS).expect("loads");
    assert_eq!(v.teams, vec![vec![SOUTH, NORTH], vec![WEST, EAST]]);
    let text = varia_grammar::write::write_variant(&v).expect("writes");
    assert!(text.contains("team south north\nteam west east\n"), "{text}");
    assert_eq!(varia_grammar::load(&text).expect("reads back").teams, v.teams);
}

#[test]
fn show_prints_the_teams() {
    let dir = std::env::temp_dir().join(format!("varia-teams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("partners.var");
    std::fs::write(&path, PARTNERS).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_varia")).arg("show").arg(&path).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("players: s south, w west, n north, e east\nteams: south and north, west and east\n"),
        "{text}"
    );
}
