//! The cargo-afl entry point: `VARIA_FUZZ_TARGET` (var, zrf, position, move, web) chooses the
//! target; a panic or a broken invariant is a crash for AFL (see docs/fuzzing.md).

fn main() {
    let name = std::env::var("VARIA_FUZZ_TARGET").unwrap_or_else(|_| "var".to_string());
    let target = varia_fuzz::Target::named(&name).expect("VARIA_FUZZ_TARGET is var, zrf, position, move or web");
    afl::fuzz!(|data: &[u8]| {
        if let Err(broken) = varia_fuzz::run(target, data) {
            panic!("{broken}");
        }
    });
}
