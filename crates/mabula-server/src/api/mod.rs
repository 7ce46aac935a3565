//! The HTTP side: [`AppState`], one router per resource (games, analysis, ws, docs, assets), merged in [`router`], and the layers
//! every request goes through (body limit, rate limit, JSON errors, panics caught, tracing,
//! compression, and outermost the request metrics); `/metrics`, outside all but the last.
//!
//! The router expects every request to carry its [`ClientAddr`]; `server` puts it there, together
//! with the limits that act before a request is read (timeouts, connection caps, head sizes).

pub mod accounts;
pub mod analysis;
pub mod answers;
pub mod assets;
pub mod bots;
pub mod chat;
pub mod clock;
pub mod docs;
pub mod follows;
pub mod games;
pub mod image;
pub mod limits;
pub mod live;
pub mod lobby;
pub mod moderation;
pub mod players;
pub mod puzzles;
pub mod tournaments;
pub mod ws;

use crate::analysis::Analyst;
use crate::engine::EnginePool;
use crate::error::{ApiError, ErrorCode};
use crate::extract::ClientAddr;
use crate::metrics::Readings;
use crate::services::accounts::Accounts;
use crate::services::lobby::Lobby;
use crate::services::players::Players;
use crate::services::{Games, Services};
use crate::view::Health;
use axum::extract::State;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::HeaderValue;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use std::sync::Arc;
use tokio::sync::watch;
use tower_http::set_header::SetResponseHeaderLayer;

/// What every handler can reach (see [`Handles`]), behind one pointer: axum clones the state for
/// every handler and layer of every request.
#[derive(Clone)]
pub struct AppState(Arc<Handles>);

impl std::ops::Deref for AppState {
    type Target = Handles;

    fn deref(&self) -> &Handles {
        &self.0
    }
}

/// The services a handler may use, and the edge's own state.
pub struct Handles {
    /// The live games.
    pub games: Arc<Games>,
    /// Seeks and challenges.
    pub lobby: Arc<Lobby>,
    /// Accounts and sessions.
    pub accounts: Arc<Accounts>,
    /// Profiles, histories and records.
    pub players: Arc<Players>,
    /// Follows, and who is online.
    pub follows: Arc<crate::services::follows::Follows>,
    /// The analysis board.
    pub analyst: Arc<Analyst>,
    /// A game's chat.
    pub chat: Arc<crate::services::chat::Chat>,
    /// Blocks, reports and moderation.
    pub moderation: Arc<crate::services::moderation::Moderation>,
    /// Tournaments (issue 37).
    pub tournaments: Arc<crate::services::tournaments::Tournaments>,
    /// This instance among the others (the tournaments' live channels hear its notices).
    pub cluster: Arc<crate::services::cluster::Cluster>,
    /// Personal API tokens and bot accounts.
    pub tokens: Arc<crate::services::tokens::Tokens>,
    /// The bot API's streams.
    pub bots: Arc<crate::services::bots::BotStreams>,
    /// Puzzles and puzzle ratings.
    pub puzzles: Arc<crate::services::puzzles::Puzzles>,
    /// What live rated games keep from the engine (issue 51).
    pub fair_play: Arc<crate::services::fair_play::FairPlay>,
    /// The players' accuracy in finished rated games, and its flags (issue 51).
    pub accuracy: Arc<crate::services::accuracy::Accuracy>,
    /// The engine pool (metrics).
    pub engine: EnginePool,
    /// The time the services read.
    pub clock: crate::clock::Clock,
    /// Turns true when the server stops (WebSocket sessions close then).
    pub shutdown: watch::Receiver<bool>,
    /// The open WebSockets per client address and in all: each one holds a task and a place in
    /// its game's broadcast for as long as the client likes, so they are capped apart from
    /// connections.
    pub websockets: Arc<limits::Slots>,
    /// The lobby and tournament sockets each client address may open (per minute).
    pub socket_opens: Arc<limits::RateLimiter>,
}

impl AppState {
    /// The handlers' view of `services`.
    pub fn new(
        services: &Services,
        shutdown: watch::Receiver<bool>,
        websockets: Arc<limits::Slots>,
        socket_opens: Arc<limits::RateLimiter>,
    ) -> AppState {
        AppState(Arc::new(Handles {
            games: services.games.clone(),
            lobby: services.lobby.clone(),
            accounts: services.accounts.clone(),
            players: services.players.clone(),
            follows: services.follows.clone(),
            analyst: services.analyst.clone(),
            chat: services.chat.clone(),
            moderation: services.moderation.clone(),
            tournaments: services.tournaments.clone(),
            cluster: services.cluster.clone(),
            tokens: services.tokens.clone(),
            bots: services.bots.clone(),
            puzzles: services.puzzles.clone(),
            fair_play: services.fair_play.clone(),
            accuracy: services.accuracy.clone(),
            engine: services.engine.clone(),
            clock: services.clock.clone(),
            shutdown,
            websockets,
            socket_opens,
        }))
    }
}

/// The most bytes a request body may have.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The whole application: the resources, the static UI, and the layers.
pub fn router(state: AppState, limiter: Arc<limits::RateLimiter>) -> Router {
    Router::new()
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .merge(games::router())
        .merge(image::router())
        .merge(accounts::router())
        .merge(players::router())
        .merge(follows::router())
        .merge(lobby::router())
        .merge(analysis::router())
        .merge(ws::router())
        .merge(chat::router())
        .merge(moderation::router())
        .merge(tournaments::router())
        .merge(bots::router())
        .merge(puzzles::router())
        .merge(docs::router())
        .merge(clock::router())
        .fallback(assets::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            accounts::session_layer,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            limiter,
            limits::rate_limit,
        ))
        .layer(axum::middleware::from_fn(limits::no_nul_in_path))
        .layer(axum::middleware::from_fn(limits::json_errors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            limits::panic_response,
        ))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        // Brotli or gzip as the client asks; not server-sent events, images or tiny bodies.
        .layer(tower_http::compression::CompressionLayer::new())
        // Every answer: no sniffing of types, no framing by other sites, no full URLs sent on
        // to other sites (the page's Content-Security-Policy is set with the page).
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        // Added after the layers above: scrapes need no session and are never rate limited.
        .route("/metrics", get(metrics))
        .layer(axum::middleware::from_fn(crate::metrics::track_requests))
        .with_state(state)
}

/// The log span of a request: tower-http's fields and the client address.
fn request_span(req: &Request) -> tracing::Span {
    let client = req.extensions().get::<ClientAddr>().map(|c| c.0);
    tracing::debug_span!(
        "request",
        method = %req.method(),
        uri = %req.uri(),
        version = ?req.version(),
        client = ?client,
    )
}

/// Liveness.
#[utoipa::path(get, path = "/healthz", tag = "server",
    responses(
        (status = 200, description = "The server is up", body = Health),
        (status = 429, response = answers::Throttled),
    ))]
pub async fn health() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
    })
}

/// Readiness: whether this instance can reach its database (a load balancer sends traffic only
/// to ready instances). Answers within a second either way.
#[utoipa::path(get, path = "/readyz", tag = "server",
    responses(
        (status = 200, description = "The database answers", body = Health),
        (status = 429, response = answers::Throttled),
        (status = 503, response = answers::Unavailable),
    ))]
pub async fn ready(State(app): State<AppState>) -> Result<Json<Health>, ApiError> {
    let ping = app.cluster.database_answers();
    match tokio::time::timeout(std::time::Duration::from_secs(1), ping).await {
        Ok(Ok(())) => Ok(Json(Health {
            status: "ready".into(),
        })),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ApiError::new(
            ErrorCode::Unavailable,
            "the database did not answer within a second",
        )),
    }
}

/// The Prometheus metrics of this instance (`docs/deploy.md` lists them), in the OpenMetrics text
/// format.
#[utoipa::path(get, path = "/metrics", tag = "server",
    responses(
        (status = 200, description = "The metrics, in the OpenMetrics text format", body = String,
            content_type = "application/openmetrics-text"),
    ))]
pub async fn metrics(State(app): State<AppState>) -> impl IntoResponse {
    let engine = &app.engine;
    let database = app.cluster.database_reading();
    let readings = Readings {
        games_in_memory: app.games.games_in_memory(),
        websockets: app.websockets.open(),
        engine_queue: engine.waiting(),
        engine_busy: engine.threads().saturating_sub(engine.available()),
        engine_threads: engine.threads(),
        pools: database.pools,
        database_up: database.up,
    };
    (
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        crate::metrics::render(&readings),
    )
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        "this endpoint does not take this method",
    )
}
