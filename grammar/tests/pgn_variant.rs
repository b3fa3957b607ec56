//! `pgn-variant`: what PGN's `Variant` tag says for a game, lowered into the IR and written back.

use varia_grammar::load;
use varia_grammar::write::write_variant;
use varia_interpreter::ir::PgnVariant;
use varia_interpreter::pgn;

/// Two kings on a 3x3 board, with `decl` after the title.
fn text(decl: &str) -> String {
    format!(
        r#"variant "Kings only"
{decl}
board {{ grid 3 x 3 }}
player white
player black
piece King K {{ royal step all }}
setup {{ white: K a1  black: K c3 }}
"#
    )
}

#[test]
fn the_declaration_lowers_to_the_tag_and_writes_back() {
    for (decl, expected, tag) in [
        ("", PgnVariant::Title, Some("Kings only")),
        ("pgn-variant standard", PgnVariant::Standard, None),
        ("pgn-variant \"Kings\"", PgnVariant::Named("Kings".into()), Some("Kings")),
    ] {
        let v = load(&text(decl)).unwrap_or_else(|e| panic!("{decl}: {e:?}"));
        assert_eq!(v.pgn_variant, expected, "{decl}");
        assert_eq!(pgn::variant_tag(&v), tag, "{decl}");
        let written = write_variant(&v).expect("writes");
        // The written text declares exactly what the file did, right after the title.
        let line = written.lines().find(|l| l.starts_with("pgn-variant"));
        assert_eq!(line, (!decl.is_empty()).then_some(decl), "{written}");
        assert_eq!(load(&written).expect("reads back").pgn_variant, expected, "{written}");
    }
}

#[test]
fn a_written_name_loses_the_quote_a_string_cannot_hold() {
    let mut v = load(&text("")).expect("loads");
    v.pgn_variant = PgnVariant::Named("Kings \"only\"".into());
    let written = write_variant(&v).expect("writes");
    assert!(written.contains("// The PGN variant name \"Kings \\\"only\\\"\" is written `Kings 'only'`."), "{written}");
    assert!(written.contains("\npgn-variant \"Kings 'only'\"\n"), "{written}");
}

#[test]
fn a_tag_names_the_rules_by_their_declaration() {
    let standard = load(&text("pgn-variant standard")).expect("loads");
    let named = load(&text("pgn-variant \"Kings\"")).expect("loads");
    let plain = load(&text("")).expect("loads");
    // PGN tools' names for standard chess name only a variant declared standard.
    for tag in ["Standard", "chess", "NORMAL", "Kings only"] {
        assert!(pgn::tag_names(tag, &standard), "{tag}");
    }
    for tag in ["Standard", "chess", "Normal"] {
        assert!(!pgn::tag_names(tag, &named), "{tag}");
        assert!(!pgn::tag_names(tag, &plain), "{tag}");
    }
    assert!(pgn::tag_names("kings", &named) && pgn::tag_names("Kings only", &named));
    assert!(pgn::tag_names("kings only", &plain) && !pgn::tag_names("Kings", &plain));
}

#[test]
fn a_second_line_an_empty_name_and_a_bare_word_are_located_errors() {
    let t = text("pgn-variant standard\npgn-variant \"Kings\"");
    let errors = load(&t).unwrap_err();
    assert_eq!(errors[0].message, "a second `pgn-variant` line");
    assert_eq!(&t[errors[0].span.clone()], "pgn-variant \"Kings\"");
    let t = text("pgn-variant \"\"");
    let errors = load(&t).unwrap_err();
    assert_eq!(errors[0].message, "an empty `pgn-variant` name");
    assert_eq!(&t[errors[0].span.clone()], "\"\"");
    let t = text("pgn-variant chess");
    let errors = load(&t).unwrap_err();
    assert_eq!(errors[0].message, "expected a quoted string or `standard`, found `chess`");
}
