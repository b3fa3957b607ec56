//! The web playground: a local HTTP server with an embedded page and a small JSON API over the engine.
//!
//! The server keeps no games: every request carries the variant's text, the start position and
//! the moves played, and the server replays them. Undo, new game and editing the rules are then
//! the page's business alone, and a restarted server loses nothing. Compiled rules are cached
//! by their text.

pub mod api;
pub mod cache;
mod connections;
pub mod look;
pub mod view;
mod work;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tower::ServiceExt;

/// The page and its assets, embedded in the binary.
const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const PIECES_JS: &str = include_str!("../assets/pieces.js");
const BOARD_JS: &str = include_str!("../assets/board.js");
const SIDE_JS: &str = include_str!("../assets/side.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// The largest request body accepted, in bytes (a variant's text plus a game's moves).
pub const MAX_BODY: usize = 512 * 1024;
/// The most moves a request may replay.
pub const MAX_MOVES: usize = 4000;
/// The longest AI search a request may ask for, in milliseconds.
pub const MAX_AI_MS: u64 = 10_000;
/// How many AI searches may run at once; further requests are refused with 429.
pub const MAX_SEARCHES: usize = 2;
/// How many requests may compile and replay at once, on the blocking pool; the others wait for
/// a turn until their deadline.
pub const MAX_JOBS: usize = 8;
/// How long compiling a variant and replaying a game may take per request (the AI's thinking
/// time comes on top).
pub const JOB_DEADLINE: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's headers (and how long an idle connection
/// stays open).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's whole body, from its headers on.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a whole request may take, from its headers to the answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections open at once; when all are taken, the one idle longest makes room for a
/// new one (see [`serve`]).
pub const MAX_CONNECTIONS: usize = 256;
/// The estimated memory the compiled-rules cache may hold, in bytes (see [`cache`]).
pub const MAX_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// A variant the page offers in its list.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Listed {
    /// Identifier for `GET /api/variants/{id}`: the bundled file name, or the path given.
    pub id: String,
    /// Title.
    pub title: String,
    /// One line about it.
    pub about: String,
    /// `var` or `zrf`.
    pub format: String,
    /// The file's text.
    #[serde(skip)]
    pub source: String,
}

/// The server's time limits (the constants by default; tests shorten them).
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// See [`HEADER_TIMEOUT`].
    pub header: Duration,
    /// See [`BODY_TIMEOUT`].
    pub body: Duration,
    /// See [`REQUEST_TIMEOUT`].
    pub request: Duration,
    /// See [`JOB_DEADLINE`].
    pub job: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts { header: HEADER_TIMEOUT, body: BODY_TIMEOUT, request: REQUEST_TIMEOUT, job: JOB_DEADLINE }
    }
}

/// The server's shared state: the variants offered and the compiled-rules cache.
pub struct Server {
    /// The time limits.
    pub timeouts: Timeouts,
    /// Files given on the command line first, then the bundled variants.
    pub variants: Vec<Listed>,
    pub(crate) cache: std::sync::Mutex<cache::RulesCache>,
    pub(crate) searches: Arc<tokio::sync::Semaphore>,
    pub(crate) jobs: Arc<tokio::sync::Semaphore>,
    pub(crate) connections: Arc<connections::Connections>,
    /// Evaluation weights (from `varia tune`), each used for the variant whose title it names.
    pub weights: Vec<varia_interpreter::Weights>,
}

impl Listed {
    /// A rule file read now from its path: a `.var`, or a `.zrf` (Windows-1252 unless valid
    /// UTF-8, as the command line reads it); either only up to the limit of a rule file.
    pub fn read(path: &std::path::Path) -> Result<Listed, String> {
        let name = path.display().to_string();
        let format = api::format_of(&name).to_string();
        let bytes = varia_zrf::read_rule_file(path).map_err(|e| format!("error: {e}"))?;
        let source = if format == "zrf" {
            varia_zrf::decode(&bytes)
        } else {
            String::from_utf8(bytes).map_err(|e| {
                let (line, col) =
                    varia_grammar::line_col(&String::from_utf8_lossy(e.as_bytes()), e.utf8_error().valid_up_to());
                format!("error: {name}:{line}:{col}: the file is not valid UTF-8: expected UTF-8 text")
            })?
        };
        let loaded = if format == "zrf" {
            varia_zrf::load(&source, None).ok().map(|g| g.variant)
        } else {
            varia_grammar::load(&source).ok()
        };
        let title = match loaded {
            Some(v) => v.title,
            None => path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| name.clone()),
        };
        Ok(Listed { id: name.clone(), title, about: format!("from {name}"), format, source })
    }

    /// `.var` text the caller has made (the command line's import of a `variants.ini`
    /// section), offered under `id`; the page edits and plays it as any `.var` file.
    pub fn converted(id: String, about: String, var: String) -> Listed {
        let title = varia_grammar::load(&var).map(|v| v.title).unwrap_or_else(|_| id.clone());
        Listed { id, title, about, format: "var".to_string(), source: var }
    }
}

impl Server {
    /// A server offering `files` (read now) and the bundled variants.
    pub fn new(files: &[PathBuf]) -> Result<Server, String> {
        let offered = files.iter().map(|p| Listed::read(p)).collect::<Result<Vec<_>, _>>()?;
        Ok(Server::offering(offered))
    }

    /// A server offering `offered` first, then the bundled variants.
    pub fn offering(offered: Vec<Listed>) -> Server {
        let mut variants = offered;
        for b in varia_variants::all() {
            variants.push(Listed {
                id: b.file.to_string(),
                title: b.title.to_string(),
                about: b.about.to_string(),
                format: "var".to_string(),
                source: b.source.to_string(),
            });
        }
        Server {
            timeouts: Timeouts::default(),
            variants,
            cache: std::sync::Mutex::new(cache::RulesCache::new(MAX_CACHE_BYTES)),
            searches: Arc::new(tokio::sync::Semaphore::new(MAX_SEARCHES)),
            jobs: Arc::new(tokio::sync::Semaphore::new(MAX_JOBS)),
            connections: Arc::new(connections::Connections::new(MAX_CONNECTIONS)),
            weights: Vec::new(),
        }
    }
}

impl Server {
    /// How many requests are being compiled, replayed or searched now.
    pub fn jobs_running(&self) -> usize {
        MAX_JOBS - self.jobs.available_permits()
    }

    /// How many connections are open now (at most [`MAX_CONNECTIONS`]).
    pub fn connections_open(&self) -> usize {
        self.connections.open()
    }
}

/// The routes: the page, its assets and the API. Every error answer is JSON, bodies must arrive
/// within [`BODY_TIMEOUT`] and whole requests within [`REQUEST_TIMEOUT`].
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX_HTML) }))
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }))
        .route("/pieces.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], PIECES_JS) }))
        .route("/board.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], BOARD_JS) }))
        .route("/side.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SIDE_JS) }))
        .route("/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE_CSS) }))
        .route("/favicon.ico", get(|| async { ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON_SVG) }))
        .route("/api/variants", get(api::variants))
        .route("/api/variants/{id}", get(api::variant))
        .route("/api/game", post(api::game))
        .route("/api/move", post(api::play_move))
        .route("/api/ai", post(api::ai_move))
        .fallback(|| async { api::ApiError::not_found("no such page or API route").into_response() })
        .method_not_allowed_fallback(|| async { api::ApiError::method_not_allowed().into_response() })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(server.timeouts.body, api::body_within))
        .layer(axum::middleware::from_fn_with_state(server.timeouts.request, api::within_request_timeout))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(api::panic_response))
        .layer(axum::middleware::map_response(api::json_errors))
        .with_state(server)
}

/// Serves on an already bound listener until the process ends: HTTP/1.1, at most
/// [`MAX_CONNECTIONS`] connections (when all are taken, the one idle longest is closed for the
/// newcomer), each closed when its client sends no complete request headers within
/// [`HEADER_TIMEOUT`] (an idle kept-alive connection included).
pub async fn serve(listener: tokio::net::TcpListener, server: Arc<Server>) -> std::io::Result<()> {
    let header_timeout = server.timeouts.header;
    let connections = server.connections.clone();
    let app = router(server);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors or a connection reset before it was accepted: go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        // Every connection is answering a request: this one is closed at once.
        let Some(slot) = connections.admit() else { continue };
        let slot = Arc::new(slot);
        let app = app.clone();
        let marks = slot.clone();
        let service = tower::service_fn(move |request: axum::extract::Request<hyper::body::Incoming>| {
            marks.busy();
            let (app, marks) = (app.clone(), marks.clone());
            async move {
                let response = app.oneshot(request).await;
                marks.idle();
                response
            }
        });
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(64 * 1024)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                // Another connection needs the place: an idle one closes at once, one that has
                // just begun a request answers it first.
                _ = slot.close.notified() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
}

/// Binds 127.0.0.1:`port` (0: any free port), prints the address and serves `offered` (then
/// the bundled variants) until Ctrl-C.
pub fn run(port: u16, offered: Vec<Listed>, weights: Vec<varia_interpreter::Weights>) -> Result<(), String> {
    let mut server = Server::offering(offered);
    server.weights = weights;
    let server = Arc::new(server);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Compiling and searching recurse along the board's rays: room for the longest.
        .thread_stack_size(32 * 1024 * 1024)
        .build()
        .map_err(|e| format!("error: cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("error: cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| format!("error: {e}"))?;
        use std::io::Write;
        // Nowhere to print the address (a closed output) is no reason to stop serving.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "Varia playground: http://{local}/  (Ctrl-C stops it)").and_then(|()| out.flush());
        tokio::select! {
            r = serve(listener, server) => r.map_err(|e| format!("error: the server stopped: {e}")),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}
