//! The fuzz targets: `.var` texts, `.zrf` texts, position strings, move strings and web API
//! request bodies, each with the invariants every input must keep.

use std::sync::{Arc, OnceLock};

use varia_interpreter::{Move, Position, Rules};

/// An input surface of Varia.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A `.var` text: loaded, and if it loads, compiled and played a little.
    Var,
    /// A `.zrf` text, the same way.
    Zrf,
    /// A position string of a bundled variant (the first byte chooses which).
    Position,
    /// A move of a bundled variant in one of a few positions (the first two bytes choose).
    Move,
    /// A request body for `POST /api/game` or `/api/move` (the first byte chooses).
    Web,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 5] = [Target::Var, Target::Zrf, Target::Position, Target::Move, Target::Web];

    /// The target's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Var => "var",
            Target::Zrf => "zrf",
            Target::Position => "position",
            Target::Move => "move",
            Target::Web => "web",
        }
    }

    /// The target of a name.
    pub fn named(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Runs one input. `Ok(true)`: accepted (and every invariant held); `Ok(false)`: refused with a
/// well-formed error; `Err`: an invariant broke. A panic is a finding too (the caller catches it).
pub fn run(target: Target, data: &[u8]) -> Result<bool, String> {
    match target {
        Target::Var => {
            let Ok(text) = std::str::from_utf8(data) else { return Ok(false) };
            match varia_grammar::load(text) {
                Ok(variant) => {
                    play(Arc::new(Rules::new(variant)))?;
                    Ok(true)
                }
                Err(diags) => {
                    for d in &diags {
                        if d.span.start > d.span.end || d.span.end > text.len() {
                            return Err(format!("diagnostic span {:?} outside the text: {}", d.span, d.message));
                        }
                        if d.message.is_empty() || d.label.is_empty() {
                            return Err(format!("diagnostic without a message or a label: {d:?}"));
                        }
                    }
                    Ok(false)
                }
            }
        }
        Target::Zrf => {
            let text = String::from_utf8_lossy(data);
            match varia_zrf::load(&text, None) {
                Ok(game) => {
                    play(Arc::new(Rules::new(game.variant)))?;
                    Ok(true)
                }
                Err(e) => {
                    if e.span.start > e.span.end || e.span.end > text.len() || e.message.is_empty() {
                        return Err(format!("bad error {:?}: {}", e.span, e.message));
                    }
                    Ok(false)
                }
            }
        }
        Target::Position => {
            let (rules, _) = bundled(data.first().copied().unwrap_or(0));
            let Ok(text) = std::str::from_utf8(data.get(1..).unwrap_or(&[])) else { return Ok(false) };
            match Position::from_position_string(rules.clone(), text) {
                Ok(mut pos) => {
                    round_trip(rules, &pos)?;
                    moves_unmake(&mut pos, 40)?;
                    Ok(true)
                }
                Err(e) => {
                    if e.offset > text.len() || e.message.is_empty() {
                        return Err(format!("bad error at {}: {}", e.offset, e.message));
                    }
                    Ok(false)
                }
            }
        }
        Target::Move => {
            let (rules, positions) = bundled(data.first().copied().unwrap_or(0));
            let at = &positions[usize::from(data.get(1).copied().unwrap_or(0)) % positions.len()];
            let Ok(text) = std::str::from_utf8(data.get(2..).unwrap_or(&[])) else { return Ok(false) };
            let mut pos = Position::from_position_string(rules.clone(), at).map_err(|e| e.message)?;
            match pos.parse_move(text) {
                Ok(mv) => {
                    let mut legal = Vec::new();
                    pos.legal_moves(&mut legal);
                    if !legal.contains(&mv) {
                        return Err(format!("`{text}` read as a move that is not legal"));
                    }
                    let long = pos.long_notation(mv);
                    if pos.parse_move(&long).ok() != Some(mv) {
                        return Err(format!("`{long}` does not read back as the move it names"));
                    }
                    check_make_unmake(&mut pos, mv)?;
                    Ok(true)
                }
                Err(_) => Ok(false),
            }
        }
        Target::Web => web(data),
    }
}

/// An accepted variant: its start position reads back from its string, and the first moves
/// make and unmake exactly, a few plies deep.
fn play(rules: Arc<Rules>) -> Result<(), String> {
    let mut pos = Position::start(rules.clone());
    for _ in 0..3 {
        round_trip(&rules, &pos)?;
        moves_unmake(&mut pos, 40)?;
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let Some(&first) = legal.first() else { break };
        pos.make(first);
    }
    Ok(())
}

/// The position string reads back as the same position: the same string and the same hash.
fn round_trip(rules: &Arc<Rules>, pos: &Position) -> Result<(), String> {
    let text = pos.to_position_string();
    let back = Position::from_position_string(rules.clone(), &text)
        .map_err(|e| format!("the engine wrote `{text}`, which it does not read: {}", e.message))?;
    if back.to_position_string() != text {
        return Err(format!("`{text}` reads back as `{}`", back.to_position_string()));
    }
    if back.hash() != pos.hash() {
        return Err(format!("`{text}` reads back with another hash"));
    }
    Ok(())
}

/// Every legal move (up to `most`) makes and unmakes to the same position and hash.
fn moves_unmake(pos: &mut Position, most: usize) -> Result<(), String> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    for &mv in legal.iter().take(most) {
        check_make_unmake(pos, mv)?;
    }
    Ok(())
}

fn check_make_unmake(pos: &mut Position, mv: Move) -> Result<(), String> {
    let before = pos.to_position_string();
    let hash = pos.hash();
    let long = pos.long_notation(mv);
    pos.make(mv);
    if pos.hash() != pos.compute_hash() {
        return Err(format!("after {long} from `{before}` the incremental hash differs from the computed one"));
    }
    pos.unmake();
    if pos.to_position_string() != before || pos.hash() != hash {
        return Err(format!("{long} from `{before}` unmakes to `{}`", pos.to_position_string()));
    }
    Ok(())
}

/// The bundled variants, compiled once, each with a few position strings (the start and the
/// positions after up to six first-legal-move plies).
fn variants() -> &'static Vec<(Arc<Rules>, Vec<String>)> {
    static VARIANTS: OnceLock<Vec<(Arc<Rules>, Vec<String>)>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let mut files: Vec<_> = std::fs::read_dir(crate::root().join("variants"))
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "var"));
        files.sort();
        files
            .iter()
            .filter_map(|p| varia_grammar::load(&std::fs::read_to_string(p).ok()?).ok())
            .map(|v| {
                let rules = Arc::new(Rules::new(v));
                let mut pos = Position::start(rules.clone());
                let mut positions = vec![pos.to_position_string()];
                for ply in 0..6 {
                    let mut legal = Vec::new();
                    pos.legal_moves(&mut legal);
                    let Some(&mv) = legal.get(ply * 7 % legal.len().max(1)) else { break };
                    pos.make(mv);
                    positions.push(pos.to_position_string());
                }
                (rules, positions)
            })
            .collect()
    })
}

fn bundled(choice: u8) -> (&'static Arc<Rules>, &'static Vec<String>) {
    let all = variants();
    let (rules, positions) = &all[usize::from(choice) % all.len()];
    (rules, positions)
}

/// Position strings and moves of the bundled variants, with their choice bytes.
pub(crate) fn game_seeds(target: Target) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, (rules, positions)) in variants().iter().enumerate() {
        for (k, text) in positions.iter().enumerate() {
            if target == Target::Position {
                out.push([&[i as u8][..], text.as_bytes()].concat());
                continue;
            }
            let Ok(mut pos) = Position::from_position_string(rules.clone(), text) else { continue };
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            for &mv in legal.iter().take(6) {
                for written in [pos.long_notation(mv), pos.short_notation(mv, &legal)] {
                    out.push([&[i as u8, k as u8][..], written.as_bytes()].concat());
                }
            }
        }
    }
    out
}

/// Request bodies: each bundled variant loaded, and chess games with moves.
pub(crate) fn web_seeds() -> Vec<Vec<u8>> {
    let chess = std::fs::read_to_string(crate::root().join("variants/chess.var")).unwrap_or_default();
    let hans = std::fs::read_to_string(crate::root().join("variants/hans38.var")).unwrap_or_default();
    let bodies = [
        (0u8, serde_json::json!({"source": chess, "moves": ["e4", "e5", "Nf3"]})),
        (1, serde_json::json!({"source": chess, "moves": ["e4"], "move": "e5"})),
        (0, serde_json::json!({"source": hans, "moves": ["@@f3", "@@f6"]})),
        (0, serde_json::json!({"source": chess, "start": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "moves": ["O-O"]})),
        (
            0,
            serde_json::json!({"source": "(game (players A B) (board (grid (dimensions \"a_b\" \"1_2\"))))", "format": "zrf"}),
        ),
    ];
    bodies.into_iter().map(|(route, body)| [&[route][..], body.to_string().as_bytes()].concat()).collect()
}

/// The web API in process: the body goes to `POST /api/game` (first byte even) or `/api/move`;
/// the answer must be JSON, an error must say what it is, and nothing may fail with a 500.
fn web(data: &[u8]) -> Result<bool, String> {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    static APP: OnceLock<(tokio::runtime::Runtime, axum::Router)> = OnceLock::new();
    let (runtime, app) = APP.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_stack_size(32 << 20)
            .build()
            .expect("a runtime");
        let server = Arc::new(varia_web::Server::new(&[]).expect("the bundled variants load"));
        (runtime, varia_web::router(server))
    });
    let route = if data.first().is_some_and(|b| b % 2 == 1) { "/api/move" } else { "/api/game" };
    let body = data.get(1..).unwrap_or(&[]).to_vec();
    let request = Request::post(route)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .map_err(|e| e.to_string())?;
    let (status, bytes) = runtime.block_on(async {
        let response = app.clone().oneshot(request).await.map_err(|e| e.to_string())?;
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.map_err(|e| e.to_string())?;
        Ok::<_, String>((status, bytes))
    })?;
    let json: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|_| format!("{status}: the answer is not JSON"))?;
    if status.is_server_error() && status.as_u16() != 503 {
        return Err(format!("{status}: {json}"));
    }
    if !status.is_success() && !json["error"].is_string() {
        return Err(format!("{status} without an error message"));
    }
    Ok(status.is_success())
}
