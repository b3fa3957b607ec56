//! The JSON API: list and fetch variants, load a game, play a move, ask the AI for one.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use varia_interpreter::{Evaluator, Limits, Position, Rules, Searcher};

use crate::view::{self, GameView, PlayedView};
use crate::work::Budget;
use crate::{Server, MAX_AI_MS, MAX_MOVES};

/// A located error in a variant's text.
#[derive(Serialize, Debug)]
pub struct Diagnostic {
    /// 1-based line of the start.
    pub line: usize,
    /// 1-based column (in characters) of the start.
    pub col: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 1-based column of the end.
    pub end_col: usize,
    /// What is wrong.
    pub message: String,
    /// What was expected there.
    pub label: String,
}

/// An error answer: a status and a JSON body `{ "error": ..., "diagnostics"?: [...] }`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    error: String,
    diagnostics: Vec<Diagnostic>,
    /// For a PGN of another game: the id of the listed variant its `Variant` tag names.
    variant: Option<String>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError { status, error: error.into(), diagnostics: Vec::new(), variant: None }
    }

    fn bad(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error)
    }

    /// A 404 answer.
    pub fn not_found(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, error)
    }

    /// A 405 answer: a known route asked with another method.
    pub fn method_not_allowed() -> ApiError {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "this route does not take that method: GET /api/variants, GET /api/variants/{id}, POST /api/game, /api/move and /api/ai",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            diagnostics: Vec<Diagnostic>,
            #[serde(skip_serializing_if = "Option::is_none")]
            variant: Option<String>,
        }
        let body = Body { error: self.error, diagnostics: self.diagnostics, variant: self.variant };
        (self.status, Json(body)).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::new(r.status(), format!("bad request body: {}", r.body_text()))
    }
}

/// Answers 503 in JSON when a request takes longer than `limit` ([`crate::REQUEST_TIMEOUT`]; a slow body
/// included); dropping the handler stops its engine work.
pub async fn within_request_timeout(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than {} s", limit.as_secs_f64()),
        )
        .into_response(),
    }
}

/// Reads a request's whole body before the handlers see it: it must arrive within `limit`
/// ([`crate::BODY_TIMEOUT`]) in all, not just between two of its pieces (a body sent a byte at
/// a time once waited for the whole request's time), and hold at most [`crate::MAX_BODY`]
/// bytes. Else 408 or 413, in JSON.
pub async fn body_within(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(limit, axum::body::to_bytes(body, crate::MAX_BODY)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) if e.to_string().contains("length limit") => {
            let message = format!("the request body is over {} bytes", crate::MAX_BODY);
            return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message).into_response();
        }
        Ok(Err(e)) => return ApiError::bad(format!("the request body could not be read: {e}")).into_response(),
        Err(_) => {
            let message = format!("the request body did not arrive within {} s", limit.as_secs_f64());
            return ApiError::new(StatusCode::REQUEST_TIMEOUT, message).into_response();
        }
    };
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

/// Turns every error answer that is not JSON yet (axum's own rejections: a bad path, a body too
/// large or too slow...) into `{"error": "..."}` with the same status.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let text = match axum::body::to_bytes(response.into_body(), 16 * 1024).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).trim().to_string(),
        _ => status.canonical_reason().unwrap_or("error").to_ascii_lowercase(),
    };
    ApiError::new(status, text).into_response()
}

/// The answer to a request that panicked inside the engine: a 500, and the server goes on.
pub fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error: the engine failed on this request")
        .into_response()
}

/// `var` or `zrf`, from a file name.
pub fn format_of(name: &str) -> &'static str {
    if name.to_ascii_lowercase().ends_with(".zrf") {
        "zrf"
    } else {
        "var"
    }
}

/// Entry of `GET /api/variants`.
#[derive(Serialize)]
pub struct VariantList {
    /// The variants, files from the command line first.
    pub variants: Vec<crate::Listed>,
}

/// `GET /api/variants`: the variants the page offers.
pub async fn variants(State(server): State<Arc<Server>>) -> Json<VariantList> {
    Json(VariantList { variants: server.variants.clone() })
}

/// Answer of `GET /api/variants/{id}`.
#[derive(Serialize)]
pub struct VariantText {
    /// As in the list.
    pub id: String,
    /// Title.
    pub title: String,
    /// `var` or `zrf`.
    pub format: String,
    /// The file's text.
    pub source: String,
}

/// `GET /api/variants/{id}`: one variant's text.
pub async fn variant(
    State(server): State<Arc<Server>>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<VariantText>, ApiError> {
    let Path(id) = id.map_err(|e| ApiError::new(e.status(), format!("bad variant id: {}", e.body_text())))?;
    let v = server
        .variants
        .iter()
        .find(|v| v.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no variant `{id}`; GET /api/variants lists them")))?;
    Ok(Json(VariantText {
        id: v.id.clone(),
        title: v.title.clone(),
        format: v.format.clone(),
        source: v.source.clone(),
    }))
}

/// A game: the rules' text, where it starts and the moves played since.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// The variant's text.
    pub source: String,
    /// `var` (default) or `zrf`.
    #[serde(default)]
    pub format: Option<String>,
    /// A position string to start from instead of the variant's setup.
    #[serde(default)]
    pub start: Option<String>,
    /// Moves played from the start, in any notation Varia reads.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A game in PGN to load instead of `moves` (its first game; its FEN tag is the start).
    #[serde(default)]
    pub pgn: Option<String>,
}

/// `POST /api/move`: a game and one more move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game so far.
    #[serde(flatten)]
    pub game: GameRequest,
    /// The move to play.
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/ai`: a game and how long to think.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiRequest {
    /// The game so far.
    #[serde(flatten)]
    pub game: GameRequest,
    /// Thinking time in milliseconds (at most [`MAX_AI_MS`]; default 1000).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Deepest iteration, in plies (default: as deep as the time allows).
    #[serde(default)]
    pub depth: Option<u32>,
}

/// Answer of `POST /api/ai`: the move chosen, the search's figures and the game after it.
#[derive(Serialize)]
pub struct AiAnswer {
    /// The move, long notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The move, short notation.
    pub short: String,
    /// Score for the side that moved, in centipawns.
    pub score: i32,
    /// Moves to mate, when the score is a forced mate (negative: being mated).
    pub mate_in: Option<i32>,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The game after the move.
    pub game: GameView,
}

/// Diagnostics of a variant's text, located by line and column.
fn diagnostics(text: &str, diags: &[varia_grammar::Diagnostic]) -> Vec<Diagnostic> {
    let at = |offset: usize| {
        let mut o = offset.min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        varia_grammar::line_col(text, o)
    };
    diags
        .iter()
        .map(|d| {
            let (line, col) = at(d.span.start);
            let (end_line, end_col) = at(d.span.end.max(d.span.start));
            Diagnostic { line, col, end_line, end_col, message: d.message.clone(), label: d.label.clone() }
        })
        .collect()
}

impl Server {
    /// The compiled rules of a text, from the cache or compiled now (422 with diagnostics).
    fn rules(&self, source: &str, format: Option<&str>) -> Result<Arc<Rules>, ApiError> {
        let format = format.unwrap_or("var");
        let key = (format.to_string(), source.to_string());
        if let Some(r) = self.cache.lock().map_err(|_| ApiError::bad("cache unavailable"))?.get(&key) {
            return Ok(r);
        }
        let rules = match format {
            "var" => match varia_grammar::load(source) {
                Ok(v) => Arc::new(Rules::new(v)),
                Err(diags) => {
                    let mut e = ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!("the variant has {} error(s)", diags.len()),
                    );
                    e.diagnostics = diagnostics(source, &diags);
                    return Err(e);
                }
            },
            "zrf" => match varia_zrf::load(source, None) {
                Ok(game) => Arc::new(Rules::new(game.variant)),
                Err(err) => {
                    let mut e = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "the Zillions file has an error");
                    let (line, col) = varia_grammar::line_col(source, err.span.start);
                    let (end_line, end_col) = varia_grammar::line_col(source, err.span.end.max(err.span.start));
                    e.diagnostics =
                        vec![Diagnostic { line, col, end_line, end_col, message: err.message, label: err.label }];
                    return Err(e);
                }
            },
            other => return Err(ApiError::bad(format!("unknown format `{other}`: expected `var` or `zrf`"))),
        };
        // An edited variant makes a new entry each apply; the cache drops the least recently used.
        self.cache.lock().map_err(|_| ApiError::bad("cache unavailable"))?.insert(key, rules.clone());
        Ok(rules)
    }

    /// Replays a game: its position and the moves played with their notations, checking the
    /// budget between moves.
    fn replay(&self, req: &GameRequest, budget: &Budget) -> Result<(Position, Vec<PlayedView>), ApiError> {
        if req.moves.len() > MAX_MOVES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("too many moves: {} (at most {MAX_MOVES})", req.moves.len()),
            ));
        }
        let rules = self.rules(&req.source, req.format.as_deref())?;
        budget.check()?;
        let (start, moves) = match &req.pgn {
            Some(text) => self.pgn_game(&rules, req, text)?,
            None => (req.start.clone(), req.moves.clone()),
        };
        if moves.len() > MAX_MOVES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("too many moves: {} (at most {MAX_MOVES})", moves.len()),
            ));
        }
        let mut pos = match &start {
            None => Position::start(rules),
            Some(s) => Position::from_position_string(rules, s).map_err(|e| {
                // The error's offset is in bytes; the column counts characters.
                let col = s.char_indices().take_while(|(i, _)| *i < e.offset).count() + 1;
                ApiError::bad(format!("bad start position at column {col}: {}", e.message))
            })?,
        };
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            budget.check()?;
            history
                .push(play_text(&mut pos, text).map_err(|e| ApiError::bad(format!("move {} ({text}): {e}", i + 1)))?);
        }
        Ok((pos, history))
    }
}

impl Server {
    /// The start and moves of a PGN's first game: its FEN tag (unless `start` is given) and
    /// its moves; a `Variant` tag must name the rules' title (else the answer names the listed
    /// variant it names, if one does, for the page to switch to).
    fn pgn_game(
        &self,
        rules: &Rules,
        req: &GameRequest,
        text: &str,
    ) -> Result<(Option<String>, Vec<String>), ApiError> {
        if !req.moves.is_empty() {
            return Err(ApiError::bad("send either `moves` or `pgn`, not both"));
        }
        let games = varia_interpreter::pgn::read(text).map_err(|e| {
            let (line, col) = varia_grammar::line_col(text, e.offset.min(text.len()));
            ApiError::bad(format!("bad PGN at line {line}, column {col}: {}", e.message))
        })?;
        let game = &games[0];
        if let Some(v) = game.tag("Variant") {
            let title = &rules.variant.title;
            if !varia_interpreter::pgn::tag_names(v, &rules.variant) {
                let mut e = ApiError::bad(format!("the PGN is a game of \"{v}\"; the rules loaded are \"{title}\""));
                e.variant = self.named_by_tag(v);
                return Err(e);
            }
        }
        let start = req.start.clone().or_else(|| game.tag("FEN").map(str::to_string));
        Ok((start, game.moves.iter().map(|(m, _)| m.clone()).collect()))
    }

    /// The id of the first listed variant a PGN `Variant` tag names (its title or its
    /// `pgn-variant` name), loading each listed text to see.
    fn named_by_tag(&self, tag: &str) -> Option<String> {
        self.variants
            .iter()
            .find(|l| {
                let variant = match l.format.as_str() {
                    "zrf" => varia_zrf::load(&l.source, None).ok().map(|g| g.variant),
                    _ => varia_grammar::load(&l.source).ok(),
                };
                variant.is_some_and(|v| varia_interpreter::pgn::tag_names(tag, &v))
            })
            .map(|l| l.id.clone())
    }
}

/// Reads a move, refusing it once the game is over, and makes it; returns how it was written.
/// The legal moves are generated once, for the end test and the short notation alike.
fn play_text(pos: &mut Position, text: &str) -> Result<PlayedView, String> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    if let Some((_, reason)) = pos.outcome_given(!legal.is_empty()) {
        return Err(format!("the game is over ({})", reason.name()));
    }
    let mv = pos.parse_move(text).map_err(|e| e.to_string())?;
    let mut played = notate(pos, mv, &legal);
    pos.make(mv);
    mark_check(pos, &mut played);
    Ok(played)
}

/// Ends a played move's short notation with `+` when it checks and `#` when it mates, as the
/// command line and PGN write it; `pos` is the position after the move.
fn mark_check(pos: &mut Position, played: &mut PlayedView) {
    if pos.in_check() {
        let mate = pos.outcome().is_some_and(|(_, r)| r == varia_interpreter::EndReason::Checkmate);
        played.short.push(if mate { '#' } else { '+' });
    }
}

/// The notations of a move about to be made, among the position's legal moves.
fn notate(pos: &Position, mv: varia_interpreter::Move, legal: &[varia_interpreter::Move]) -> PlayedView {
    PlayedView {
        long: pos.long_notation(mv),
        short: pos.short_notation(mv, legal),
        side: pos.side_to_move().0,
        from: mv.from.0 as usize,
        to: mv.to.0 as usize,
        kind: crate::view::kind_name(mv.kind),
    }
}

/// `POST /api/game`: the game's view after replaying its moves (with no moves: loads a variant).
pub async fn game(
    State(server): State<Arc<Server>>,
    body: Result<Json<GameRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Json(req) = body?;
    let view = server
        .job(move |server, budget| {
            let (mut pos, history) = server.replay(&req, budget)?;
            Ok(view::game(&mut pos, history))
        })
        .await?;
    Ok(Json(view))
}

/// `POST /api/move`: the view after one more move, or 400 naming why the move is not legal.
pub async fn play_move(
    State(server): State<Arc<Server>>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Json(req) = body?;
    let view = server
        .job(move |server, budget| {
            let (mut pos, mut history) = server.replay(&req.game, budget)?;
            budget.check()?;
            history.push(play_text(&mut pos, &req.mv).map_err(ApiError::bad)?);
            Ok(view::game(&mut pos, history))
        })
        .await?;
    Ok(Json(view))
}

/// `POST /api/ai`: the built-in opponent's move; at most [`crate::MAX_SEARCHES`] run at once.
pub async fn ai_move(
    State(server): State<Arc<Server>>,
    body: Result<Json<AiRequest>, JsonRejection>,
) -> Result<Json<AiAnswer>, ApiError> {
    let Json(req) = body?;
    let time = req.time_ms.unwrap_or(1000);
    if time == 0 || time > MAX_AI_MS {
        return Err(ApiError::bad(format!("time_ms must be between 1 and {MAX_AI_MS}, not {time}")));
    }
    if req.depth.is_some_and(|d| d == 0 || d > 64) {
        return Err(ApiError::bad("depth must be between 1 and 64"));
    }
    let permit = server.searches.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{} searches are already running; try again when one ends", crate::MAX_SEARCHES),
        )
    })?;
    let limits = Limits { depth: req.depth, time: Some(Duration::from_millis(time)), ..Limits::default() };
    let answer = server
        .job(move |server, budget| {
            let _permit = permit;
            let (mut pos, mut history) = server.replay(&req.game, budget)?;
            if let Some((_, reason)) = pos.outcome() {
                return Err(ApiError::bad(format!("the game is over ({})", reason.name())));
            }
            // Tuned weights for this variant, if the server has some that fit its rules.
            let eval = server
                .weights
                .iter()
                .find(|w| w.variant == pos.rules().variant.title)
                .and_then(|w| Evaluator::with_weights(pos.rules(), w).ok())
                .unwrap_or_else(|| Evaluator::new(pos.rules()));
            let mut searcher = Searcher::with_evaluator(pos.rules(), 16, eval);
            budget.stop_on_cancel(searcher.stop_flag());
            let info = searcher.search(&mut pos, limits, |_| {});
            let mv = info.best().ok_or_else(|| ApiError::bad("no legal move to play"))?;
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            let mut p = notate(&pos, mv, &legal);
            pos.make(mv);
            mark_check(&mut pos, &mut p);
            let (long, short) = (p.long.clone(), p.short.clone());
            history.push(p);
            Ok(AiAnswer {
                mv: long,
                short,
                score: info.score,
                mate_in: info.mate_in(),
                depth: info.depth,
                nodes: info.nodes,
                game: view::game(&mut pos, history),
            })
        })
        .await?;
    Ok(Json(answer))
}
