//! The protocols at the edges of their input and output, through the built binary: the end of the input in the middle of a search, lines that are not UTF-8, numbers out of bounds and a GUI that closes its end.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start(args: &[&str], stdout: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start varia")
}

/// Waits up to `secs` seconds for `child` to end by itself; kills it and fails if it does not.
fn exit_code_within(child: &mut Child, secs: u64, what: &str) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: varia did not exit within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `varia ARGS` with `input` as its whole standard input (then closed); its exit code,
/// output and error output, once it has ended by itself within `secs` seconds.
fn transcript(args: &[&str], input: &[u8], secs: u64) -> (Option<i32>, String, String) {
    let mut child = start(args, Stdio::piped());
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write the input");
    drop(stdin);
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let code = exit_code_within(&mut child, secs, &String::from_utf8_lossy(input));
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("read stderr");
    (code, reader.join().expect("stdout"), err)
}

#[test]
fn xboard_ends_with_its_input_even_while_analysing() {
    // The issue's reproducer: the input ends with the analysis running.
    let (code, out, err) = transcript(&["xboard"], b"xboard\nprotover 2\nnew\nanalyze\n", 15);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("feature done=1"), "{out}");
    // And with a move search running, the engine to move.
    let (code, out, err) = transcript(&["xboard"], b"xboard\nprotover 2\nnew\nst 1000\ngo\n", 15);
    assert_eq!(code, Some(0), "{out}\n{err}");
}

#[test]
fn uci_ends_with_its_input_even_while_searching() {
    let (code, out, err) = transcript(&["uci"], b"uci\nposition startpos\ngo infinite\n", 15);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("bestmove"), "the search is stopped and answered: {out}");
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_session_goes_on() {
    let (code, out, err) = transcript(&["uci"], b"uci\nis\xffready\nisready\nquit\n", 15);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "info string error: line 2 is not UTF-8 text: byte 0xff at column 3, expected a command in UTF-8\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("readyok\n"), "the session goes on: {out}");
    let (code, out, err) = transcript(&["xboard"], b"xboard\npi\xffng 1\nping 2\n", 15);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "Error (line 2 is not UTF-8 text: byte 0xff at column 3, expected a command in UTF-8): the line was not read\n\
         pong 2\n"
    );
}

#[test]
fn a_line_longer_than_the_limit_is_answered_and_skipped() {
    let mut input = b"uci\n".to_vec();
    input.extend(vec![b'x'; 3 << 20]);
    input.extend_from_slice(b"\nisready\n");
    let (code, out, _) = transcript(&["uci"], &input, 15);
    assert_eq!(code, Some(0));
    assert!(out.contains("info string error: line 2 is longer than 1048576 bytes, the most read\nreadyok\n"), "{out}");
}

#[test]
fn protocol_numbers_out_of_bounds_are_answered_with_their_bound() {
    let input = b"uci\ngo depth 0\ngo mate 18446744073709551615\ngo wtime 99999999999999999999 btime 1\n\
                  go movestogo 0 wtime 1000\nsetoption name Hash value 0\nisready\n";
    let (code, out, err) = transcript(&["uci"], input, 15);
    assert_eq!(code, Some(0), "{err}");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(
        errors,
        [
            "info string error: `go depth` takes a whole number from 1 to 100, found `0`",
            "info string error: `go mate` takes a whole number from 1 to 50, found `18446744073709551615`",
            "info string error: `go wtime` takes a whole number from -1000000000 to 1000000000, found `99999999999999999999`",
            "info string error: `go movestogo` takes a whole number from 1 to 1000, found `0`",
            "info string error: option Hash takes a whole number from 1 to 4096, not `0`",
        ]
    );
    assert_eq!(out.matches("bestmove 0000").count(), 4, "each refused `go` is answered: {out}");
    assert!(out.ends_with("readyok\n"), "{out}");
    // A clock that has run out (some GUIs send a negative time) still gets a move.
    let (_, out, _) = transcript(&["uci"], b"go wtime -50 btime 1000\nisready\n", 15);
    assert!(out.contains("bestmove ") && !out.contains("bestmove 0000"), "{out}");

    let input = b"xboard\nprotover 2\nsd 0\nmemory 99999\ntime 18446744073709551615\nst nan\nlevel 40 5 -1\nping 1\n";
    let (code, out, err) = transcript(&["xboard"], input, 15);
    assert_eq!(code, Some(0), "{err}");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(
        errors,
        [
            "Error (sd takes a depth from 1 to 100, found `0`): sd 0",
            "Error (memory takes megabytes from 1 to 4096, found `99999`): memory 99999",
            "Error (time takes centiseconds from -100000000 to 100000000, found `18446744073709551615`): time \
             18446744073709551615",
            "Error (st takes seconds above 0 and at most 86400, found `nan`): st nan",
            "Error (level takes MPS from 0 to 10000, BASE minutes or MIN:SEC and INC seconds, each time at most 1000000 s): \
             level 40 5 -1",
        ]
    );
    assert!(out.ends_with("pong 1\n"), "{out}");
}

#[test]
fn a_closed_output_ends_the_engine_quietly() {
    for (args, command) in [(["uci"], "isready\n"), (["xboard"], "ping 1\n")] {
        // The GUI has gone: nothing reads the engine's output, but its input stays open.
        let mut child = start(&args, Stdio::piped());
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(command.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        let code = exit_code_within(&mut child, 10, command);
        let mut err = String::new();
        child.stderr.take().expect("stderr").read_to_string(&mut err).expect("read stderr");
        assert_eq!((code, err.as_str()), (Some(0), ""), "{args:?}");
        drop(stdin);
    }
}

/// Numbers at the edges of the protocols' bounds, and a few that are no numbers.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "50",
    "51",
    "100",
    "101",
    "1000",
    "4096",
    "4097",
    "10000",
    "86400",
    "1000000000",
    "1000000001",
    "-1000000001",
    "18446744073709551615",
    "18446744073709551616",
    "nan",
    "inf",
    "1e309",
    "0.001",
    "5:30",
    "x",
    "",
];

/// The UCI commands, bare and with arguments.
const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "ponderhit",
    "debug on",
    "debug off",
    "position startpos",
    "position startpos moves e2e4 e7e5",
    "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1000000000 moves e1g1",
    "position fen",
    "go",
    "go depth",
    "go movetime",
    "go wtime",
    "go btime",
    "go winc",
    "go movestogo",
    "go mate",
    "go nodes",
    "go infinite",
    "go ponder",
    "setoption name Hash value",
    "setoption name MultiPV value",
    "setoption name UCI_Variant value",
    "setoption value",
    "position startpos moves",
];

/// The XBoard commands, bare and with arguments.
const XBOARD_WORDS: &[&str] = &[
    "xboard",
    "protover",
    "new",
    "force",
    "go",
    "playother",
    "analyze",
    "exit",
    "undo",
    "remove",
    "post",
    "nopost",
    "?",
    "ping",
    "level",
    "level 40",
    "level 0 5",
    "st",
    "sd",
    "time",
    "otim",
    "memory",
    "setboard",
    "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1000000000",
    "usermove",
    "usermove e2e4",
    "e7e5",
    "variant",
    "variant capablanca",
    "variant nope",
    "result 1-0",
    "cores",
    "e2e4",
];

/// Random command lines, built from each protocol's words, the numbers at the edges of their
/// bounds and stray bytes: the session answers every one, never panics, and still answers
/// `isready` (`ping`) at the end and ends with its input. A fixed seed: the same lines each run.
#[test]
fn random_command_lines_never_end_a_session() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for (args, words, last, answer) in
        [(["uci"], UCI_WORDS, "isready\n", "readyok"), (["xboard"], XBOARD_WORDS, "ping 7\n", "pong 7")]
    {
        let mut input = Vec::new();
        for _ in 0..400 {
            input.extend_from_slice(words[next(words.len())].as_bytes());
            for _ in 0..next(3) {
                input.push(b' ');
                input.extend_from_slice(NUMBERS[next(NUMBERS.len())].as_bytes());
            }
            match next(20) {
                0 => input.push(0xff),
                1 => input.extend_from_slice(b"\r"),
                2 => input.push(0),
                _ => {}
            }
            input.push(b'\n');
        }
        input.extend_from_slice(last.as_bytes());
        let (code, out, err) = transcript(&args, &input, 120);
        assert_eq!(code, Some(0), "varia {args:?}: {err}");
        assert!(!err.contains("panicked"), "varia {args:?}: {err}");
        assert!(out.lines().any(|l| l == answer), "varia {args:?} did not answer `{last}`: {out}");
    }
}

#[test]
fn terminal_play_answers_a_line_that_is_not_utf8_and_goes_on() {
    let (code, out, err) = transcript(&["play", "chess"], b"e\xff4\ne4\nquit\n", 30);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("error: line 1 is not UTF-8 text: byte 0xff at column 2, expected a command in UTF-8"),
        "{out}"
    );
    assert!(out.contains("last move: e4"), "the game goes on: {out}");
}
