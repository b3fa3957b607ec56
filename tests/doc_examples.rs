//! Runs every `$ varia ...` example of README.md and docs/**/*.md and compares its output with the doc's.
//!
//! An example is a line `$ varia ARGS` inside a fenced code block; its expected output is the
//! lines after it up to the next `$ ` line or the end of the block. The built `varia` runs with
//! ARGS (split as a POSIX shell splits words: quotes, backslashes, a `#` word starts a comment;
//! redirections and pipes are refused, so no example needs a file the reader writes first) from
//! the repository root, stdout and stderr into one stream as a terminal shows them.
//! `$ cat FILE` lines are checked too (the file's text is the output), so a file a doc shows is
//! the file the examples use.
//!
//! Directives, HTML comments the rendered doc hides, on their own line before a block:
//! - `<!-- example: stdin "TEXT" -->`: the next example reads TEXT (`\n`, `\"`, `\\` escapes) on
//!   its standard input (the interactive `play`); without it stdin is empty. The doc shows each
//!   line typed after the prompt that read it, as a terminal echoes it (`white> e4`); the test
//!   takes each echo, in order, out of the expected text (the line and its newline, after the
//!   first `> ` followed by it) before comparing.
//! - `<!-- example: stdout -->`: the next example's standard error is not compared (a progress
//!   bar, which a terminal erases when done and which a pipe gets as lines).
//! - `<!-- example: file PATH -->`: the next fenced block's text is exactly the file PATH's.
//!
//! Comparison rules, kept narrow:
//! - What varies run to run is replaced by a placeholder in both texts: the number after `nps`
//!   (nodes per second) and the seconds after `time` (`time 0.14s`), as `analyse` prints them.
//! - An expected line that is exactly `...` (after trimming) stands for any lines, none included:
//!   the doc abridges there.
//! - Trailing spaces and trailing empty lines are ignored.
//!
//! Examples that read `../shared/` (the shared material beside the checkout) are skipped, with a
//! note, where it is absent.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one example may run before it counts as hung.
const TIMEOUT: Duration = Duration::from_secs(60);

/// One `$ varia ...` or `$ cat ...` line of a doc and the output the doc shows for it.
#[derive(Debug)]
struct Example {
    /// The doc, relative to the repository root.
    doc: String,
    /// The 1-based line of the `$` line.
    line: usize,
    /// The command as written after `$ `.
    command: String,
    /// The expected output lines.
    expected: Vec<String>,
    /// What the example reads on stdin.
    stdin: String,
    /// Whether only stdout is compared.
    stdout_only: bool,
}

/// A fenced block that must equal a file of the repository.
#[derive(Debug)]
struct ShownFile {
    doc: String,
    line: usize,
    path: String,
    text: String,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `.md` under docs/, in a fixed order.
fn doc_files() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut stack = vec![root().join("docs")];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read docs/") {
            let path = entry.expect("docs entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    out.extend(found);
    out
}

/// Reads the quoted string of a directive: `"..."` with `\n`, `\"` and `\\` escapes.
fn quoted(text: &str, doc: &str, line: usize) -> String {
    let body = text
        .trim()
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or_else(|| panic!("{doc}:{line}: expected a quoted string, found `{text}`"));
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            other => panic!("{doc}:{line}: unknown escape `\\{}` in `{text}`", other.unwrap_or(' ')),
        }
    }
    out
}

/// Finds the examples and shown files of one doc.
fn parse_doc(doc: &str, text: &str) -> (Vec<Example>, Vec<ShownFile>) {
    let mut examples: Vec<Example> = Vec::new();
    let mut files = Vec::new();
    let mut in_block = false;
    // The example whose output is being read, if any.
    let mut open: Option<Example> = None;
    let mut stdin: Option<String> = None;
    let mut stdout_only = false;
    let mut shown: Option<ShownFile> = None;
    let mut pending_file: Option<String> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim_start();
        if trimmed.starts_with("```") {
            if in_block {
                examples.extend(open.take());
                files.extend(shown.take());
            } else if let Some(path) = pending_file.take() {
                shown = Some(ShownFile { doc: doc.to_string(), line, path, text: String::new() });
            }
            in_block = !in_block;
            continue;
        }
        if !in_block {
            if let Some(rest) = trimmed.strip_prefix("<!-- example:") {
                let rest = rest
                    .trim_end()
                    .strip_suffix("-->")
                    .unwrap_or_else(|| panic!("{doc}:{line}: a directive ends with `-->` on its line"));
                let rest = rest.trim();
                if let Some(text) = rest.strip_prefix("stdin ") {
                    stdin = Some(quoted(text, doc, line));
                } else if rest == "stdout" {
                    stdout_only = true;
                } else if let Some(path) = rest.strip_prefix("file ") {
                    pending_file = Some(path.trim().to_string());
                } else {
                    panic!(
                        "{doc}:{line}: unknown directive `{rest}` (expected `stdin \"...\"`, `stdout` or `file PATH`)"
                    );
                }
            }
            continue;
        }
        if let Some(file) = shown.as_mut() {
            file.text.push_str(raw);
            file.text.push('\n');
            continue;
        }
        if let Some(command) = raw.strip_prefix("$ ") {
            examples.extend(open.take());
            let word = command.split_whitespace().next().unwrap_or("");
            if word == "varia" || word == "cat" {
                open = Some(Example {
                    doc: doc.to_string(),
                    line,
                    command: command.to_string(),
                    expected: Vec::new(),
                    stdin: stdin.take().unwrap_or_default(),
                    stdout_only: std::mem::take(&mut stdout_only),
                });
            }
        } else if let Some(example) = open.as_mut() {
            example.expected.push(raw.to_string());
        }
    }
    assert!(!in_block, "{doc}: a fenced block is not closed");
    assert!(stdin.is_none(), "{doc}: an `example: stdin` directive has no example after it");
    assert!(!stdout_only, "{doc}: an `example: stdout` directive has no example after it");
    assert!(pending_file.is_none(), "{doc}: an `example: file` directive has no block after it");
    (examples, files)
}

/// Splits a command line into words as a POSIX shell does for the forms the docs use: single and
/// double quotes, backslash escapes, and a word starting with `#` begins a comment. Pipes,
/// redirections, substitutions and variables are refused: an example runs one program.
fn split_words(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '#' if word.is_none() => break,
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unclosed `'`".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            w.push(chars.next().expect("peeked"))
                        }
                        Some('$' | '`') => return Err("substitutions are not run".into()),
                        Some(c) => w.push(c),
                        None => return Err("unclosed `\"`".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a line ending in `\\`".into()),
            },
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' | '[' | '~' => {
                return Err(format!("`{c}` is shell syntax an example may not use"));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Runs `varia` with `args` and `stdin` from the repository root, stdout and stderr into one
/// stream in the order written (a terminal's view); kills it after [`TIMEOUT`].
fn run_varia(args: &[String], stdin: &str, stdout_only: bool) -> Result<String, String> {
    let out = tempfile::tempfile().map_err(|e| format!("temporary file: {e}"))?;
    let err = out.try_clone().map_err(|e| format!("temporary file: {e}"))?;
    let mut reader = out.try_clone().map_err(|e| format!("temporary file: {e}"))?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::from(out))
        .stderr(if stdout_only { Stdio::null() } else { Stdio::from(err) })
        .spawn()
        .map_err(|e| format!("start varia: {e}"))?;
    let mut input = child.stdin.take().expect("stdin is piped");
    let text = stdin.to_string();
    // The program may quit before reading everything, and a long input must not block the wait.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {} s: killed", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    let mut bytes = Vec::new();
    use std::io::Seek;
    reader.seek(std::io::SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    reader.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|e| format!("output is not UTF-8: {e}"))?;
    if status.code().is_none() {
        return Err(format!("killed by a signal ({status}); output:\n{text}"));
    }
    Ok(text)
}

/// Reads the file `cat` shows, relative to the repository root.
fn run_cat(args: &[String]) -> Result<String, String> {
    let mut text = String::new();
    for arg in args {
        let mut file = File::open(root().join(arg)).map_err(|e| format!("cat {arg}: {e}"))?;
        file.read_to_string(&mut text).map_err(|e| format!("cat {arg}: {e}"))?;
    }
    Ok(text)
}

/// Replaces what varies from run to run with placeholders: the figure after `nps` and the
/// seconds after `time` (with the spaces that align them).
fn normalise(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        let next = ["nps ", "time "].iter().filter_map(|k| rest.find(k).map(|i| (i, *k))).min();
        let Some((at, key)) = next else { break };
        out.push_str(&rest[..at + key.len()]);
        let after = &rest[at + key.len()..];
        let value = after.trim_start();
        let digits = value.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(value.len());
        let is_time = key == "time ";
        let unit_ok = !is_time || value[digits..].starts_with('s');
        if digits == 0 || !unit_ok {
            rest = after;
            continue;
        }
        out.push_str(if is_time { "<time>" } else { "<nps>" });
        rest = &value[digits + usize::from(is_time)..];
    }
    out.push_str(rest);
    out.trim_end().to_string()
}

fn lines_of(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(normalise).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether `actual` matches `expected`, where an expected `...` line stands for any lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => actual.first() == Some(first) && matches(rest, &actual[1..]),
    }
}

/// A line diff of expected against actual (`-` only in the doc, `+` only in the output).
fn diff(expected: &[String], actual: &[String]) -> String {
    let (n, m) = (expected.len(), actual.len());
    // Longest common subsequence table, from the ends.
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == actual[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < n || j < m {
        if i < n && j < m && expected[i] == actual[j] {
            out.push_str(&format!("  {}\n", expected[i]));
            (i, j) = (i + 1, j + 1);
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+ {}\n", actual[j]));
            j += 1;
        } else {
            out.push_str(&format!("- {}\n", expected[i]));
            i += 1;
        }
    }
    out
}

/// The doc's transcript without the terminal's echo of what was typed: each stdin line, in
/// order, with its newline, taken out after the first `> ` it follows.
fn without_echo(transcript: &str, stdin: &str) -> Result<String, String> {
    let mut text = transcript.to_string();
    let mut from = 0;
    for typed in stdin.lines() {
        let echo = format!("> {typed}\n");
        let at = text[from..]
            .find(&echo)
            .ok_or_else(|| format!("the typed line `{typed}` is not shown after a prompt (`> {typed}`)"))?;
        let start = from + at + 2;
        text.replace_range(start..start + typed.len() + 1, "");
        from = start;
    }
    Ok(text)
}

/// Runs one example; `Err` says what differs.
fn check(example: &Example) -> Result<(), String> {
    let words = split_words(&example.command)?;
    let (program, args) = words.split_first().ok_or("an empty command")?;
    let output = match program.as_str() {
        "varia" => run_varia(args, &example.stdin, example.stdout_only)?,
        _ => run_cat(args)?,
    };
    let transcript: String = example.expected.iter().map(|l| format!("{l}\n")).collect();
    let expected = lines_of(&without_echo(&transcript, &example.stdin)?);
    let actual = lines_of(&output);
    if matches(&expected, &actual) {
        Ok(())
    } else {
        Err(format!("output differs (- the doc, + the program):\n{}", diff(&expected, &actual)))
    }
}

#[test]
fn every_doc_example_prints_what_the_doc_shows() {
    let mut examples = Vec::new();
    let mut shown = Vec::new();
    for path in doc_files() {
        let doc = path.strip_prefix(root()).expect("under the root").display().to_string();
        let text = std::fs::read_to_string(&path).expect("read doc");
        let (e, f) = parse_doc(&doc, &text);
        examples.extend(e);
        shown.extend(f);
    }
    assert!(examples.iter().any(|e| e.command.starts_with("varia")), "no `$ varia` example found");
    // Examples of the shared material beside the checkout (Fairy-Stockfish's variants.ini)
    // run only where it is.
    if !root().join("../shared").is_dir() {
        let before = examples.len();
        examples.retain(|e| !e.command.contains("../shared/"));
        eprintln!("../shared is absent: {} examples that read it skipped", before - examples.len());
    }
    let mut failures = Vec::new();
    for file in &shown {
        match std::fs::read_to_string(root().join(&file.path)) {
            Ok(text) if text == file.text => {}
            Ok(text) => failures.push(format!(
                "{}:{}: the block differs from {} (- the doc, + the file):\n{}",
                file.doc,
                file.line,
                file.path,
                diff(&lines_of(&file.text), &lines_of(&text))
            )),
            Err(e) => failures.push(format!("{}:{}: {}: {e}", file.doc, file.line, file.path)),
        }
    }
    // Two at a time: the examples are independent and the slowest take most of the time.
    let results: Vec<(usize, Result<(), String>)> = std::thread::scope(|scope| {
        let chunks: Vec<_> = examples.chunks(examples.len().div_ceil(2).max(1)).collect();
        let handles: Vec<_> =
            chunks.into_iter().map(|chunk| scope.spawn(move || chunk.iter().map(check).collect::<Vec<_>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("example thread")).enumerate().collect()
    });
    for (index, result) in results {
        if let Err(message) = result {
            let e = &examples[index];
            failures.push(format!("{}:{}: `$ {}`: {message}", e.doc, e.line, e.command));
        }
    }
    let varia = examples.iter().filter(|e| e.command.starts_with("varia")).count();
    eprintln!(
        "checked {varia} `$ varia` examples, {} `$ cat` examples and {} shown files",
        examples.len() - varia,
        shown.len()
    );
    assert!(failures.is_empty(), "{} of the docs' examples fail:\n\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn words_split_as_a_shell_splits_them() {
    let words = split_words(r#"varia show a.var --position "6k1/8 w - - 0 1" 'x y' a\ b # note"#);
    assert_eq!(words.unwrap(), ["varia", "show", "a.var", "--position", "6k1/8 w - - 0 1", "x y", "a b"]);
    assert!(split_words("printf 'x' > mate.txt").unwrap_err().contains('>'));
    assert!(split_words("varia list | head").is_err());
    assert!(split_words("varia \"open").is_err());
}

#[test]
fn only_times_and_rates_are_normalised() {
    assert_eq!(
        normalise("depth  1  score +0.40  nodes  41  nps    442397  time    0.00s  pv e2-e3"),
        "depth  1  score +0.40  nodes  41  nps <nps>  time <time>  pv e2-e3"
    );
    // Words that merely contain the keys, and figures without the unit, stay.
    assert_eq!(normalise("runtime 3 moves, time 12 plies"), "runtime 3 moves, time 12 plies");
    assert_eq!(normalise("nodes 4865609"), "nodes 4865609");
}

#[test]
fn typed_lines_are_taken_out_after_their_prompts() {
    let doc = "hint\nwhite> e4\n\n  board\nwhite> quit\n";
    assert_eq!(without_echo(doc, "e4\nquit\n").unwrap(), "hint\nwhite> \n  board\nwhite> ");
    assert!(without_echo("white> e5\n", "e4\n").unwrap_err().contains("`e4`"));
}

#[test]
fn an_ellipsis_line_stands_for_any_lines() {
    let v = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&v(&["a", "...", "d"]), &v(&["a", "b", "c", "d"])));
    assert!(matches(&v(&["a", "...", "d"]), &v(&["a", "d"])));
    assert!(!matches(&v(&["a", "...", "d"]), &v(&["a", "b", "c"])));
    assert!(!matches(&v(&["a", "b"]), &v(&["a", "b", "c"])));
}

#[test]
fn examples_and_directives_are_found_in_fenced_blocks() {
    let doc = "text\n$ varia list\n<!-- example: stdin \"e4\\nquit\\n\" -->\n```\n$ varia play x.var\nboard\n$ cat f.txt\nline\n$ curl x\nignored\n```\n<!-- example: file docs/examples/k.var -->\n```var\nvariant \"K\"\n```\n";
    let (examples, files) = parse_doc("d.md", doc);
    assert_eq!(examples.len(), 2, "{examples:?}");
    assert_eq!((examples[0].line, examples[0].stdin.as_str()), (5, "e4\nquit\n"));
    assert_eq!(examples[0].expected, ["board"]);
    assert_eq!((examples[1].command.as_str(), examples[1].stdin.as_str()), ("cat f.txt", ""));
    assert_eq!(examples[1].expected, ["line"]);
    assert_eq!((files[0].path.as_str(), files[0].text.as_str()), ("docs/examples/k.var", "variant \"K\"\n"));
}
