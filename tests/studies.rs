//! Engine studies from the command line: `varia match` reports, a study split with `--shard` and combined by `varia report merge`, a line per game when no terminal watches.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Runs `varia` from the workspace root; returns exit code, stdout and stderr.
fn varia(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("start varia");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn json_of(args: &[&str]) -> (Value, String) {
    let (code, out, err) = varia(args);
    assert_eq!(code, Some(0), "varia {args:?} failed:\n{err}");
    (serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}")), err)
}

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no count `{key}` in {v}"))
}

const MATCH: [&str; 11] = [
    "match",
    "variants/chess.var",
    "--games",
    "6",
    "--first",
    "depth=2",
    "--second",
    "depth=1",
    "--max-plies",
    "40",
    "--json",
];

#[test]
fn match_reports_the_score_of_the_first_setting_with_colours_swapped() {
    let (report, err) = json_of(&MATCH);
    let (games, wins, draws, losses) =
        (count(&report, "games"), count(&report, "wins"), count(&report, "draws"), count(&report, "losses"));
    assert_eq!(games, 6);
    assert_eq!(wins + draws + losses, games, "{report}");
    let score = report["score"].as_f64().expect("score");
    assert!((score - (wins as f64 + draws as f64 / 2.0) / games as f64).abs() < 1e-9, "{report}");
    let (low, high) = (report["elo_low"].as_f64(), report["elo_high"].as_f64());
    if let (Some(low), Some(high), Some(elo)) = (low, high, report["elo"].as_f64()) {
        assert!(low <= elo && elo <= high, "{report}");
    }
    let records = report["records"].as_array().expect("records");
    assert_eq!(records.len(), 6);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(count(r, "index"), i as u64);
        // Pairs of games share an opening with the first setting on each side once.
        assert_eq!(count(r, "opening"), i as u64 / 2, "{r}");
        assert_eq!(count(r, "first_side"), i as u64 % 2, "{r}");
        assert_eq!(count(r, "plies") as usize, r["moves"].as_array().expect("moves").len());
        assert!(count(r, "plies") <= 40, "{r}");
    }
    let (a, b) = (&records[0]["moves"], &records[1]["moves"]);
    assert_eq!(a.as_array().unwrap()[..4], b.as_array().unwrap()[..4], "one opening, four random plies");
    // No terminal watches the test: each game is reported on stderr as it ends.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    for line in lines {
        assert!(line.starts_with("match: game ") && line.contains(" plies); ") && line.contains("/6 done"), "{err}");
    }
    // Each line names the game's result, as the report counts it.
    let lines_with = |text: &str| err.lines().filter(|l| l.contains(text)).count() as u64;
    assert_eq!(lines_with(" won: the first setting ("), wins, "{err}");
    assert_eq!(lines_with(" won: the second setting ("), losses, "{err}");
    assert_eq!(lines_with(", no winner ("), draws, "{err}");
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("varia-{name}-{}.json", std::process::id()))
}

/// A shard's report written to a temporary file.
fn written(name: &str, report: &Value) -> PathBuf {
    let file = temp(name);
    std::fs::write(&file, report.to_string()).expect("write a shard");
    file
}

/// `varia report merge --json` of the files.
fn merged(files: &[&str]) -> Value {
    let mut args = vec!["report", "merge", "--json"];
    args.extend(files);
    json_of(&args).0
}

#[test]
fn shards_of_a_match_merge_into_the_whole_match() {
    let (whole, _) = json_of(&MATCH);
    let mut files = Vec::new();
    for shard in ["2/2", "1/2"] {
        let mut args = MATCH.to_vec();
        args.extend(["--shard", shard]);
        let (part, _) = json_of(&args);
        assert_eq!(part["shard"], shard);
        files.push(written(&format!("shard-{}", &shard[..1]), &part));
    }
    let names: Vec<&str> = files.iter().map(|f| f.to_str().expect("a path")).collect();
    let merged = merged(&names);
    for key in ["games", "wins", "draws", "losses"] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    // The same games, whichever shard played them, in the order of the whole match.
    assert_eq!(merged["records"], whole["records"]);
    assert_eq!(merged["shard"], Value::Null);

    // A file twice is refused: its games would count double.
    let mut args = vec!["report", "merge"];
    args.extend([names[0], names[0]]);
    let (code, out, err) = varia(&args);
    assert_eq!(code, Some(1), "{out}");
    assert!(err.contains("is also in an earlier file"), "{err}");
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn every_game_can_be_a_shard_of_its_own() {
    // With N equal to the number of games, shard K holds game K-1 alone: a long study loses at
    // most the games still being played when its machine stops.
    let (whole, _) = json_of(&MATCH);
    let mut files = Vec::new();
    for k in 1..=6 {
        let shard = format!("{k}/6");
        let mut args = MATCH.to_vec();
        args.extend(["--shard", &shard]);
        let (part, _) = json_of(&args);
        let records = part["records"].as_array().expect("records");
        assert_eq!(records.len(), 1, "{shard}: {part}");
        assert_eq!(records[0]["index"], k - 1, "{shard}");
        // The two games of an opening keep their opening and swap colours.
        assert_eq!(records[0]["opening"], (k - 1) / 2, "{shard}");
        assert_eq!(records[0]["first_side"], (k - 1) % 2, "{shard}");
        files.push(written(&format!("single-{k}"), &part));
    }
    let names: Vec<&str> = files.iter().map(|f| f.to_str().expect("a path")).collect();
    let merged = merged(&names);
    assert_eq!(merged["records"], whole["records"]);
    assert_eq!(merged["score"], whole["score"]);
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn merge_refuses_reports_of_different_studies() {
    let mut files = Vec::new();
    for (seed, shard) in [("1", "1/2"), ("2", "2/2")] {
        let mut args = MATCH.to_vec();
        args[3] = "2";
        args.extend(["--seed", seed, "--shard", shard]);
        let (part, _) = json_of(&args);
        let file = temp(&format!("seed-{seed}"));
        std::fs::write(&file, part.to_string()).expect("write a shard");
        files.push(file);
    }
    let (code, _, err) = varia(&["report", "merge", files[0].to_str().unwrap(), files[1].to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("a different study"), "{err}");
    let bad = temp("not-a-report");
    std::fs::write(&bad, "{\"games\": 3,\n \"wins\": }").expect("write");
    let (code, _, err) = varia(&["report", "merge", bad.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("{}:2:", bad.display())) && err.contains("not a report of"), "{err}");
    for f in files.into_iter().chain([bad]) {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_shard_outside_its_study_is_an_error() {
    for shard in ["0/2", "3/2", "1/0", "a/b"] {
        let mut args = MATCH.to_vec();
        args.extend(["--shard", shard]);
        let (code, out, err) = varia(&args);
        assert_eq!(code, Some(1), "--shard {shard}: {out}{err}");
        assert!(err.contains(&format!("--shard `{shard}` must be K/N with 1 <= K <= N")), "{err}");
    }
}

/// A directory for `--resume`, empty.
fn resume_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varia-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_stopped_study_resumes_its_games_from_the_kept_moves() {
    let dir = resume_dir("kept");
    let mut args = MATCH.to_vec();
    args[3] = "2";
    args.extend(["--resume", dir.to_str().expect("a path")]);
    let (whole, _) = json_of(&args);
    let records = whole["records"].as_array().expect("records");
    // Each game's moves are kept under the study's settings.
    let kept = std::fs::read_to_string(dir.join("game-001.moves")).expect("game 1 kept");
    let (head, moves) = kept.split_once('\n').expect("two lines");
    assert!(head.starts_with("varia match variants/chess.var --first depth=2 --second depth=1 --seed 1"), "{head}");
    let played: Vec<&str> =
        records[0]["moves"].as_array().expect("moves").iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(moves.split_whitespace().collect::<Vec<_>>(), played);

    // Run again: the finished games are replayed, not searched, to the same records.
    let (again, _) = json_of(&args);
    assert_eq!(again["records"], whole["records"]);

    // Game 1 stopped after 9 plies: it goes on from there.
    assert!(played.len() > 9, "{played:?}");
    std::fs::write(dir.join("game-001.moves"), format!("{head}\n{}\n", played[..9].join(" "))).expect("write");
    let (resumed, _) = json_of(&args);
    let moves = resumed["records"][0]["moves"].as_array().expect("moves");
    assert!(moves.len() > 9);
    let first: Vec<&str> = moves[..9].iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(first, played[..9]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_kept_game_of_another_study_or_with_a_wrong_move_is_refused() {
    let dir = resume_dir("bad");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut args = MATCH.to_vec();
    args[3] = "2";
    args.extend(["--resume", dir.to_str().expect("a path")]);
    let file = dir.join("game-001.moves");
    std::fs::write(&file, "varia match variants/chess.var --first depth=9\ne2e4\n").expect("write");
    let (code, _, err) = varia(&args);
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("{}:1:1:", file.display())) && err.contains("belongs to another study"), "{err}");

    // The right study, an illegal third move.
    let _ = std::fs::remove_file(&file);
    let (whole, _) = json_of(&args);
    assert_eq!(whole["games"], 2);
    // The same settings from another start are another study.
    let mut elsewhere = args.clone();
    elsewhere.extend(["--position", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]);
    let (code, _, err) = varia(&elsewhere);
    assert_eq!(code, Some(1));
    assert!(err.contains("belongs to another study") && err.contains("--position rnbqkbnr"), "{err}");
    let kept = std::fs::read_to_string(&file).expect("kept");
    let head = kept.lines().next().expect("a head");
    std::fs::write(&file, format!("{head}\ne2e4 e7e5 e4e6\n")).expect("write");
    let (code, _, err) = varia(&args);
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("{}:2: move 3 of the kept game", file.display())) && err.contains("e4e6"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
