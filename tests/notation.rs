//! Move notation: the forms accepted on input, the long and short forms written, and errors.

mod common;

use varia_interpreter::MoveError;

fn after(pos_text: &str, moves: &str) -> varia_interpreter::Position {
    let rules = common::rules("chess.var");
    let mut pos = common::position(&rules, pos_text);
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make(mv);
    }
    pos
}

#[test]
fn every_accepted_form_names_the_same_move() {
    let start = after("start", "");
    for form in ["Ng1-f3", "g1-f3", "g1f3", "Ng1f3", "Nf3", "Nf3+", "Nf3!?", "Ngf3"] {
        let mut pos = start.clone();
        let mv = pos.parse_move(form).unwrap_or_else(|e| panic!("{form}: {e}"));
        assert_eq!(pos.long_notation(mv), "Ng1-f3", "{form}");
    }
}

#[test]
fn captures_castling_promotion_and_en_passant() {
    let pos = after("start", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 c6 Nf3 Bg4 Be2 e6 O-O");
    assert_eq!(pos.to_position_string(), "rn2kbnr/pp3ppp/2p1p3/q7/3P2b1/2N2N2/PPP1BPPP/R1BQ1RK1 b kq - 1 7");
    let mut pos = after("8/P6k/8/8/8/8/8/K7 w - - 0 1", "");
    let mv = pos.parse_move("a8=N").expect("underpromotion");
    assert_eq!(pos.long_notation(mv), "a7-a8=N");
    assert_eq!(pos.parse_move("a7a8q").map(|m| pos.long_notation(m)), Ok("a7-a8=Q".to_string()));
    let mut pos = after("start", "e4 a6 e5 d5");
    let mv = pos.parse_move("exd6").expect("en passant");
    assert_eq!(pos.long_notation(mv), "e5xd6");
    pos.make(mv);
    assert!(pos.piece_at(pos.rules().cell_by_name("d5").unwrap()).is_none(), "the passed pawn is taken");
}

#[test]
fn short_forms_disambiguate_as_little_as_needed() {
    let mut pos = after("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "");
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let shorts: Vec<String> = legal.iter().map(|m| pos.short_notation(*m, &legal)).collect();
    assert!(shorts.contains(&"Nbd2".to_string()) && shorts.contains(&"Nfd2".to_string()), "{shorts:?}");
    assert!(shorts.contains(&"Na3".to_string()), "{shorts:?}");
    assert_eq!(
        pos.parse_move("Nd2"),
        Err(MoveError::Ambiguous { text: "Nd2".into(), candidates: vec!["Nb1-d2".into(), "Nf1-d2".into()] })
    );
    assert_eq!(pos.parse_move("Nd4"), Err(MoveError::NoMatch("Nd4".into())));
}
