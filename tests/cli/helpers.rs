//! Helpers of the command-line tests (tests/cli.rs, tests/cli_engine.rs): running the built
//! `varia` binary from the workspace root with a deadline.

#![allow(dead_code)]

// What both test files use, in one place; each uses only part of it.
#[allow(unused_imports)]
pub use std::io::{Read, Write};
#[allow(unused_imports)]
pub use std::path::Path;
#[allow(unused_imports)]
pub use std::process::{Command, Stdio};
#[allow(unused_imports)]
pub use std::time::{Duration, Instant};

/// What one run of `varia` printed.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `varia` with `args` and `stdin` from the workspace root; kills it after 120 seconds.
pub fn varia_with_input(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start varia");
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_string();
    let writer = std::thread::spawn(move || {
        // The program may quit before reading everything.
        let _ = input.write_all(text.as_bytes());
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).expect("read stdout");
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).expect("read stderr");
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for varia") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("varia {args:?} did not finish within 120 seconds");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    writer.join().expect("stdin writer");
    let run = Run {
        code: status.code(),
        stdout: out_reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    };
    assert!(!run.stderr.contains("panicked"), "varia {args:?} panicked:\n{}", run.stderr);
    run
}

pub fn varia(args: &[&str]) -> Run {
    varia_with_input(args, "")
}

/// Asserts a successful run with nothing on stderr, and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let run = varia(args);
    assert_eq!(run.code, Some(0), "varia {args:?} failed:\n{}", run.stderr);
    assert!(run.stderr.is_empty(), "varia {args:?} wrote to stderr:\n{}", run.stderr);
    run.stdout
}

/// Asserts a run failing with exit code 1 and nothing on stdout, and returns its stderr.
pub fn fails(args: &[&str]) -> String {
    let run = varia(args);
    assert_eq!(
        run.code,
        Some(1),
        "varia {args:?} should fail with code 1:\nstdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    assert!(!run.stderr.trim().is_empty(), "varia {args:?} failed without a message");
    assert!(run.stdout.is_empty(), "varia {args:?} failed but wrote to stdout:\n{}", run.stdout);
    run.stderr
}
