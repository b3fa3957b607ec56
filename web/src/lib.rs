//! The web playground: a local HTTP server with an embedded page and a small JSON API over the engine.
//!
//! The server keeps no games: every request carries the variant's text, the start position and
//! the moves played, and the server replays them. Undo, new game and editing the rules are then
//! the page's business alone, and a restarted server loses nothing. Compiled rules are cached
//! by their text.

pub mod api;
pub mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}

/// The page and its assets, embedded in the binary.
const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
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

/// The server's shared state: the variants offered and the compiled-rules cache.
pub struct Server {
    /// Files given on the command line first, then the bundled variants.
    pub variants: Vec<Listed>,
    pub(crate) cache: std::sync::Mutex<indexmap::IndexMap<(String, String), Arc<varia_interpreter::Rules>>>,
    pub(crate) searches: Arc<tokio::sync::Semaphore>,
    /// Evaluation weights (from `varia tune`), each used for the variant whose title it names.
    pub weights: Vec<varia_interpreter::Weights>,
}

impl Server {
    /// A server offering `files` (read now) and the bundled variants.
    pub fn new(files: &[PathBuf]) -> Result<Server, String> {
        let mut variants = Vec::new();
        for path in files {
            let name = path.display().to_string();
            let source = std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {name}: {e}"))?;
            let format = api::format_of(&name).to_string();
            let loaded = if format == "zrf" {
                varia_zrf::load(&source, None).ok().map(|g| g.variant)
            } else {
                varia_grammar::load(&source).ok()
            };
            let title = match loaded {
                Some(v) => v.title,
                None => path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| name.clone()),
            };
            variants.push(Listed { id: name.clone(), title, about: format!("from {name}"), format, source });
        }
        for (file, title, about, source) in bundled::BUNDLED {
            variants.push(Listed {
                id: file.to_string(),
                title: title.to_string(),
                about: about.to_string(),
                format: "var".to_string(),
                source: source.to_string(),
            });
        }
        Ok(Server {
            variants,
            cache: std::sync::Mutex::new(indexmap::IndexMap::new()),
            searches: Arc::new(tokio::sync::Semaphore::new(MAX_SEARCHES)),
            weights: Vec::new(),
        })
    }
}

/// The routes: the page, its assets and the API.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX_HTML) }))
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }))
        .route("/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE_CSS) }))
        .route("/favicon.ico", get(|| async { ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON_SVG) }))
        .route("/api/variants", get(api::variants))
        .route("/api/variants/{id}", get(api::variant))
        .route("/api/game", post(api::game))
        .route("/api/move", post(api::play_move))
        .route("/api/ai", post(api::ai_move))
        .fallback(|| async { api::ApiError::not_found("no such page or API route").into_response() })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(api::panic_response))
        .with_state(server)
}

/// Serves on an already bound listener until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, server: Arc<Server>) -> std::io::Result<()> {
    axum::serve(listener, router(server)).await
}

/// Binds 127.0.0.1:`port` (0: any free port), prints the address and serves until Ctrl-C.
pub fn run(port: u16, files: &[PathBuf], weights: Vec<varia_interpreter::Weights>) -> Result<(), String> {
    let mut server = Server::new(files)?;
    server.weights = weights;
    let server = Arc::new(server);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("error: cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("error: cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| format!("error: {e}"))?;
        println!("Varia playground: http://{local}/  (Ctrl-C stops it)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        tokio::select! {
            r = serve(listener, server) => r.map_err(|e| format!("error: the server stopped: {e}")),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}
