//! Byte-level mutations of an input: the classic ones (flip, insert, delete, duplicate, splice
//! with another input, dictionary words) and one that repeats a chunk many times, since
//! repetition is what turns a small text into a large cost.

use rand::Rng;

/// The longest input the mutator makes (the web's body limit is 512 KiB).
pub const MAX_LEN: usize = 256 * 1024;

/// A mutation of a random input of `corpus`: one to four edits.
pub fn mutate(rng: &mut impl Rng, corpus: &[Vec<u8>], words: &[&str]) -> Vec<u8> {
    let mut data = corpus[rng.random_range(0..corpus.len())].clone();
    for _ in 0..rng.random_range(1..=4) {
        edit(rng, &mut data, corpus, words);
    }
    data.truncate(MAX_LEN);
    data
}

/// A random position in `data`, inclusive of its end.
fn at(rng: &mut impl Rng, data: &[u8]) -> usize {
    rng.random_range(0..=data.len())
}

/// A random range of `data` of at most `most` bytes.
fn range(rng: &mut impl Rng, data: &[u8], most: usize) -> std::ops::Range<usize> {
    let start = at(rng, data);
    let len = rng.random_range(0..=most.min(data.len() - start));
    start..start + len
}

fn edit(rng: &mut impl Rng, data: &mut Vec<u8>, corpus: &[Vec<u8>], words: &[&str]) {
    match rng.random_range(0..10) {
        // Flip a bit.
        0 if !data.is_empty() => {
            let i = rng.random_range(0..data.len());
            data[i] ^= 1 << rng.random_range(0..8);
        }
        // Replace a byte by an interesting one.
        1 if !data.is_empty() => {
            let i = rng.random_range(0..data.len());
            data[i] = *[b'0', b'9', b'(', b')', b'{', b'}', b' ', b'\n', b'"', b'-', 0, 0xff]
                .get(rng.random_range(0..12))
                .unwrap_or(&b'x');
        }
        // Delete a range.
        2 | 3 => {
            let r = range(rng, data, 64);
            data.drain(r);
        }
        // Duplicate a range in place.
        4 => {
            let r = range(rng, data, 256);
            let copy = data[r.clone()].to_vec();
            let i = at(rng, data);
            data.splice(i..i, copy);
        }
        // Repeat a short chunk many times.
        5 => {
            let r = range(rng, data, 32);
            let times = [2, 10, 100, 1000, 10_000][rng.random_range(0..5)];
            let chunk = data[r.clone()].repeat(times);
            data.splice(r.end..r.end, chunk);
        }
        // Splice in a range of another input.
        6 => {
            let other = &corpus[rng.random_range(0..corpus.len())];
            let r = range(rng, other, 512);
            let i = at(rng, data);
            data.splice(i..i, other[r].to_vec());
        }
        // Insert or overwrite with a dictionary word.
        7 | 8 if !words.is_empty() => {
            let word = words[rng.random_range(0..words.len())].as_bytes();
            let i = at(rng, data);
            if rng.random_bool(0.5) {
                data.splice(i..i, word.iter().copied());
            } else {
                let end = (i + word.len()).min(data.len());
                data.splice(i..end, word.iter().copied());
            }
        }
        // Insert a random byte.
        _ => {
            let i = at(rng, data);
            data.insert(i, rng.random());
        }
    }
}
