//! Commands from standard input for the protocols and terminal play: lines of at most [`MAX_LINE`] bytes, each checked to be UTF-8, then the end of the input.

use std::io::{BufRead, Read};

/// The longest line read, in bytes (a UCI `position` with 4000 moves takes about 24 KiB).
pub const MAX_LINE: usize = 1 << 20;

/// What one read of standard input gave.
#[derive(Debug, PartialEq)]
pub enum Input {
    /// A line, without its end (`\n` or `\r\n`).
    Line(String),
    /// A line that cannot be a command: why, as the protocol's error line says it.
    Bad(String),
    /// The input ended (or could not be read any more).
    End,
}

/// Reads lines from `reader`, numbering them from 1.
pub struct Lines<R> {
    reader: R,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines read from `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines { reader, number: 0 }
    }

    /// The next line; a line longer than [`MAX_LINE`] bytes is skipped to its end and reported,
    /// and so is one that is not UTF-8.
    pub fn next_input(&mut self) -> Input {
        let mut buf = Vec::new();
        match (&mut self.reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return Input::End,
            Ok(_) => {}
        }
        self.number += 1;
        if !buf.ends_with(b"\n") && buf.len() > MAX_LINE {
            // Skip the rest of the line without keeping it.
            loop {
                let mut rest = Vec::new();
                match (&mut self.reader).take(64 * 1024).read_until(b'\n', &mut rest) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if rest.ends_with(b"\n") => break,
                    Ok(_) => {}
                }
            }
            return Input::Bad(format!("line {} is longer than {MAX_LINE} bytes, the most read", self.number));
        }
        if buf.ends_with(b"\n") {
            buf.pop();
            if buf.ends_with(b"\r") {
                buf.pop();
            }
        }
        match String::from_utf8(buf) {
            Ok(line) => Input::Line(line),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes()[at];
                Input::Bad(format!(
                    "line {} is not UTF-8 text: byte 0x{byte:02x} at column {}, expected a command in UTF-8",
                    self.number,
                    at + 1
                ))
            }
        }
    }
}

/// Reads standard input on a thread of its own and hands each [`Input`] to `send` until the
/// input ends (the last one handed is [`Input::End`]) or `send` returns false.
pub fn spawn(send: impl Fn(Input) -> bool + Send + 'static) {
    std::thread::spawn(move || {
        let mut lines = Lines::new(std::io::stdin().lock());
        loop {
            let input = lines.next_input();
            let end = input == Input::End;
            if !send(input) || end {
                break;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<Input> {
        let mut lines = Lines::new(bytes);
        let mut out = Vec::new();
        loop {
            let i = lines.next_input();
            let end = i == Input::End;
            out.push(i);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn lines_bad_bytes_and_the_end() {
        let got = all(b"uci\r\nis\xffready\nlast");
        assert_eq!(got[0], Input::Line("uci".into()));
        assert_eq!(
            got[1],
            Input::Bad("line 2 is not UTF-8 text: byte 0xff at column 3, expected a command in UTF-8".into())
        );
        assert_eq!(got[2], Input::Line("last".into()));
        assert_eq!(got[3], Input::End);
    }

    #[test]
    fn a_line_past_the_limit_is_skipped() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nisready\n");
        let got = all(&text);
        assert!(matches!(&got[0], Input::Bad(m) if m.contains("longer than 1048576 bytes")), "{got:?}");
        assert_eq!(got[1], Input::Line("isready".into()));
        assert_eq!(got[2], Input::End);
    }
}
