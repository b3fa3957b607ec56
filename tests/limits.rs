//! The command line's limits through the built binary (issue 51): files read only up to a size limit, files written whole, weights and reports cut short refused at their end, numbers bounded, and counters that read back.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run printed, and how long it took.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `varia ARGS` from the workspace root with no input; kills it and fails after `secs`.
fn varia_within(args: &[&str], secs: u64) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start varia");
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("varia {args:?} did not end within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run { code, stdout: out.join().unwrap(), stderr: err.join().unwrap(), took: started.elapsed() }
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varia-limits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

#[test]
fn files_past_their_limit_are_refused_at_once() {
    let dir = folder("size");
    // A Zillions file that never ends (a link to /dev/zero keeps its `.zrf` name).
    let zrf = dir.join("endless.zrf");
    std::os::unix::fs::symlink("/dev/zero", &zrf).expect("a link");
    let zrf = zrf.display().to_string();
    for (args, limit) in [
        (
            &["check", "/dev/zero"][..],
            "error: /dev/zero: a rule file may hold at most 4194304 bytes; this one holds more",
        ),
        (&["check", &zrf][..], "a rule file may hold at most 4194304 bytes; this one holds more"),
        (&["replay", "chess", "/dev/zero"][..], "error: /dev/zero: a game file may hold at most 16777216 bytes"),
        (&["report", "merge", "/dev/zero"][..], "error: /dev/zero: a report may hold at most 134217728 bytes"),
        (
            &["analyse", "chess", "--weights", "/dev/zero"][..],
            "error: /dev/zero: a weights file may hold at most 1048576",
        ),
        (&["serve", "--port", "0", "/dev/zero"][..], "error: /dev/zero: a rule file may hold at most 4194304 bytes"),
    ] {
        let run = varia_within(args, 20);
        assert_eq!(run.code, Some(1), "varia {args:?}: {}", run.stderr);
        assert!(run.stderr.contains(limit), "varia {args:?}: {}", run.stderr);
        assert!(run.took < Duration::from_secs(5), "varia {args:?} took {:?}", run.took);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_writes_its_weights_whole_and_a_weights_file_cut_short_is_refused() {
    let dir = folder("weights");
    let weights = dir.join("chess.weights.toml");
    std::fs::write(&weights, "variant = \"Chess\"\ncontempt = 7.0\n").unwrap();
    // A second name for the old file: a file overwritten in place would change under it too.
    let old = dir.join("old.toml");
    std::fs::hard_link(&weights, &old).unwrap();
    let w = weights.display().to_string();
    let args = ["tune", "chess", "--games", "4", "--depth", "1", "--max-plies", "60", "--steps", "10", "-o", &w];
    let run = varia_within(&args, 120);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "variant = \"Chess\"\ncontempt = 7.0\n", "written in place");
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(text.contains("\nentries = 24\nvariant = \"Chess\"\n"), "{text}");
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["chess.weights.toml", "old.toml"], "no temporary file is left");
    // The whole file is read; cut at any line, it is refused at its end.
    let ok = varia_within(&["analyse", "chess", "--weights", &w, "--depth", "1"], 60);
    assert_eq!(ok.code, Some(0), "{}", ok.stderr);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let cut = dir.join("cut.toml");
    let c = cut.display().to_string();
    for n in 0..lines.len() {
        std::fs::write(&cut, lines[..n].concat()).unwrap();
        let run = varia_within(&["analyse", "chess", "--weights", &c, "--depth", "1"], 60);
        assert_eq!(run.code, Some(1), "cut after {n} lines was accepted:\n{}", lines[..n].concat());
        let end = lines[..n].concat().lines().count() + 1;
        let located = format!("{c}:{end}:1: ");
        assert!(run.stderr.contains(&located), "cut after {n} lines: {}", run.stderr);
        assert!(run.stderr.contains("cut short"), "cut after {n} lines: {}", run.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_report_cut_short_is_refused_where_it_ends() {
    let dir = folder("report");
    let run = varia_within(&["selfplay", "chess", "--games", "2", "--depth", "1", "--max-plies", "20", "--json"], 120);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let report = run.stdout.trim_end();
    let path = dir.join("report.json");
    let p = path.display().to_string();
    std::fs::write(&path, report).unwrap();
    assert_eq!(varia_within(&["report", "merge", &p], 20).code, Some(0));
    for cut in [1, report.len() / 3, report.len() / 2, report.len() - 1] {
        std::fs::write(&path, &report[..cut]).unwrap();
        let run = varia_within(&["report", "merge", &p], 20);
        assert_eq!(run.code, Some(1), "cut at {cut}");
        let expected = format!("error: {p}:1:{cut}: the file ends early (EOF while parsing ");
        assert!(run.stderr.starts_with(&expected), "cut at {cut}: {}", run.stderr);
        assert!(run.stderr.contains("expected the rest of a report; was it cut short?"), "{}", run.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn thread_counts_are_bounded_by_the_cores() {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let bound =
        format!("expected a whole number from 1 to {} (4 threads per core; this machine has {cores})", 4 * cores);
    for args in [
        &["selfplay", "chess", "--jobs", "10000"][..],
        &["match", "chess", "--first", "depth=1", "--second", "depth=1", "--jobs", "10000"],
        &["tune", "chess", "--jobs", "10000"],
        &["perft", "chess", "1", "--threads", "10000"],
        &["selfplay", "chess", "--jobs", "0"],
    ] {
        let run = varia_within(args, 20);
        assert_eq!(run.code, Some(2), "varia {args:?}: {}", run.stderr);
        assert!(run.stderr.contains(&bound), "varia {args:?}: {}", run.stderr);
    }
    for (args, bound) in [
        (&["tune", "chess", "--random-plies", "100000"][..], "100000 is not in 0..=1000"),
        (&["tune", "chess", "--max-plies", "0"][..], "0 is not in 1..=100000"),
        (
            &["match", "chess", "--first", "nodes=0", "--second", "depth=1"][..],
            "nodes must be a whole number from 1 to",
        ),
    ] {
        let run = varia_within(args, 20);
        assert!(run.code.is_some_and(|c| c != 0), "varia {args:?}");
        assert!(run.stderr.contains(bound), "varia {args:?}: {}", run.stderr);
    }
}

#[test]
fn a_game_at_the_largest_move_number_is_written_so_that_it_reads_back() {
    let dir = folder("clock");
    let game = dir.join("game.txt");
    std::fs::write(&game, "Nf3 Nf6 Ng1 Ng8\n").unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1000000000";
    let run = varia_within(&["replay", "chess", &game.display().to_string(), "--position", start], 20);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let written = run.stdout.lines().find_map(|l| l.strip_prefix("position: ")).expect("the position").to_string();
    assert_eq!(written, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 1000000000");
    let again = varia_within(&["show", "chess", "--position", &written], 20);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_full_output_is_an_error_not_a_panic() {
    let reports: Vec<String> =
        (1..=3).map(|k| format!("docs/studies/issue-19/moving-occupied-squares-{k}.json")).collect();
    let mut args = vec!["report", "merge"];
    args.extend(reports.iter().map(String::as_str));
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(&args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdout(full)
        .output()
        .expect("run varia");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end(), "error: cannot write the output: No space left on device (os error 28)");
}
