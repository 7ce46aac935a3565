//! What the server counts for Prometheus, served at `GET /metrics` in the OpenMetrics text format
//! (which Prometheus reads natively; `docs/deploy.md` lists the metrics and the alerts).
//!
//! The families live in one process-wide [`Metrics`], registered once: an event anywhere in the
//! server is one call here ([`move_played`], [`flag_fired`], [`notification_received`],
//! [`engine_waited`], [`query`]), so the code where it happens carries no more than that line.
//! What is a state rather than an event (games in memory, open WebSockets, the engine's queue, the
//! database pools) is read when scraped and handed to [`render`] as [`Readings`]. Requests are
//! counted by [`track_requests`], a layer that sees each request's matched route template
//! (`/api/games/{id}/moves`, never the raw path, so the number of series stays bounded).
//!
//! One registry per process, not per server: several servers in one process (the tests) add up.
//!
//! This module uses nothing else of the crate, so that every layer may call it.

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The media type of the OpenMetrics text format.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The bounds of the latency histograms, in seconds: 1 ms to 10 s.
const LATENCY_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

/// The labels of a request.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    /// The matched route template, or `other` for what no route matched (the UI's files, 404s).
    route: String,
    /// `2xx`, `3xx`, `4xx` or `5xx`.
    status: &'static str,
}

/// The labels of a request's latency.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: String,
    route: String,
}

/// The label of a storage call.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct QueryLabels {
    /// `load`, `version`, `list` or `write` (one group commit).
    query: &'static str,
}

/// The label of a refusal of the accounts' limits.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LimitLabels {
    /// `signup` (too many accounts from one address) or `login` (too many failed log-ins).
    limit: &'static str,
}

/// The label of a database pool.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolLabels {
    /// `writer` and `reader` on SQLite, `main` on PostgreSQL.
    pool: &'static str,
}

/// Every family the server exports.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: Family<RouteLabels, Histogram, fn() -> Histogram>,
    moves: Counter,
    flags: Counter,
    notifications: Counter,
    refusals: Family<LimitLabels, Counter>,
    casual_pairs: Counter,
    rating_failures: Counter,
    pictures: Counter,
    accuracy_games: Counter,
    engine_wait_seconds: Histogram,
    query_seconds: Family<QueryLabels, Histogram, fn() -> Histogram>,
    games_in_memory: Gauge,
    websockets: Gauge,
    engine_queue: Gauge,
    engine_busy: Gauge,
    engine_threads: Gauge,
    db_connections: Family<PoolLabels, Gauge>,
    db_idle: Family<PoolLabels, Gauge>,
    db_max: Family<PoolLabels, Gauge>,
    database_up: Gauge,
}

impl Metrics {
    fn new() -> Metrics {
        let mut m = Metrics {
            registry: Registry::with_prefix("mabula"),
            requests: Family::default(),
            request_seconds: Family::new_with_constructor(latency_histogram),
            moves: Counter::default(),
            flags: Counter::default(),
            notifications: Counter::default(),
            refusals: Family::default(),
            casual_pairs: Counter::default(),
            rating_failures: Counter::default(),
            pictures: Counter::default(),
            accuracy_games: Counter::default(),
            engine_wait_seconds: latency_histogram(),
            query_seconds: Family::new_with_constructor(latency_histogram),
            games_in_memory: Gauge::default(),
            websockets: Gauge::default(),
            engine_queue: Gauge::default(),
            engine_busy: Gauge::default(),
            engine_threads: Gauge::default(),
            db_connections: Family::default(),
            db_idle: Family::default(),
            db_max: Family::default(),
            database_up: Gauge::default(),
        };
        let r = &mut m.registry;
        r.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status class",
            m.requests.clone(),
        );
        r.register_with_unit(
            "http_request_duration",
            "Time from a request's routing to its response head, by method and route template",
            Unit::Seconds,
            m.request_seconds.clone(),
        );
        r.register(
            "moves",
            "Moves this instance stored (players' and the engine's)",
            m.moves.clone(),
        );
        r.register(
            "flags",
            "Games this instance ended because a clock ran out (a flag, or an abort at the start)",
            m.flags.clone(),
        );
        r.register(
            "notifications",
            "PostgreSQL notifications received by this instance's listener",
            m.notifications.clone(),
        );
        r.register(
            "account_refusals",
            "Sign-ups and log-ins this instance refused for a limit of the accounts",
            m.refusals.clone(),
        );
        r.register(
            "pair_games_made_casual",
            "Rated games this instance made casual because their two players had played enough \
             rated games together that day (the pair is flagged for the moderators)",
            m.casual_pairs.clone(),
        );
        r.register(
            "rating_failures",
            "Times this instance's rating job could not rate a rated game that ended: the game was \
             skipped, noted with why for the moderators, and is tried again later",
            m.rating_failures.clone(),
        );
        r.register(
            "accuracy_games",
            "Finished rated games whose players' accuracy this instance computed and stored (each \
             game is analysed by one instance)",
            m.accuracy_games.clone(),
        );
        r.register_with_unit(
            "engine_wait",
            "Time engine work (a move, a hint, an analysis) waited for a free engine slot",
            Unit::Seconds,
            m.engine_wait_seconds.clone(),
        );
        r.register_with_unit(
            "db_query_duration",
            "Time of the storage calls: a game's load, its version, a list, a group commit",
            Unit::Seconds,
            m.query_seconds.clone(),
        );
        r.register(
            "games_in_memory",
            "Games held in memory (those played or watched lately)",
            m.games_in_memory.clone(),
        );
        r.register(
            "websockets_open",
            "Open WebSockets (games and lobby)",
            m.websockets.clone(),
        );
        r.register(
            "engine_queue_length",
            "Engine work waiting for a slot",
            m.engine_queue.clone(),
        );
        r.register(
            "engine_busy",
            "Engine slots computing now",
            m.engine_busy.clone(),
        );
        r.register(
            "engine_threads",
            "Engine slots in all (--engine-threads)",
            m.engine_threads.clone(),
        );
        r.register(
            "db_pool_connections",
            "Open connections of a database pool",
            m.db_connections.clone(),
        );
        r.register(
            "db_pool_idle",
            "Idle connections of a database pool",
            m.db_idle.clone(),
        );
        r.register(
            "db_pool_max",
            "The most connections a database pool opens",
            m.db_max.clone(),
        );
        r.register(
            "pictures_drawn",
            "Game pictures drawn as PNG or animated PNG (not answered from the pictures' cache)",
            m.pictures.clone(),
        );
        r.register(
            "database_up",
            "1 while the database answered its last probe, 0 while requests are refused with 503",
            m.database_up.clone(),
        );
        m
    }
}

/// The process's metrics.
static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// A move was stored.
pub fn move_played() {
    METRICS.moves.inc();
}

/// A game ended on time.
pub fn flag_fired() {
    METRICS.flags.inc();
}

/// A sign-up or log-in was refused by the limit `limit` (`signup`, `login`).
pub fn refused(limit: &'static str) {
    METRICS.refusals.get_or_create(&LimitLabels { limit }).inc();
}

/// A game asked for as rated was made casual: its pair had played enough rated games that day.
pub fn pair_game_made_casual() {
    METRICS.casual_pairs.inc();
}

/// The rating job could not rate a game (it was skipped and noted).
pub fn rating_failed() {
    METRICS.rating_failures.inc();
}

/// A game's picture was drawn (not found in the cache).
pub fn picture_drawn() {
    METRICS.pictures.inc();
}

/// The accuracy job stored the accuracies of a game (issue 51).
pub fn accuracy_analysed() {
    METRICS.accuracy_games.inc();
}

/// The PostgreSQL listener received a notification.
pub fn notification_received() {
    METRICS.notifications.inc();
}

/// Engine work got its slot after waiting `waited`.
pub fn engine_waited(waited: Duration) {
    METRICS.engine_wait_seconds.observe(waited.as_secs_f64());
}

/// Times a storage call until it is dropped: `let _timer = metrics::query("load");`.
#[must_use = "the call is timed until the timer drops"]
pub struct QueryTimer {
    query: &'static str,
    start: Instant,
}

/// Starts timing a storage call named `query` (`load`, `version`, `list`, `write`, `players`).
pub fn query(query: &'static str) -> QueryTimer {
    QueryTimer {
        query,
        start: Instant::now(),
    }
}

impl Drop for QueryTimer {
    fn drop(&mut self) {
        METRICS
            .query_seconds
            .get_or_create(&QueryLabels { query: self.query })
            .observe(self.start.elapsed().as_secs_f64());
    }
}

/// One database pool's state when scraped.
#[derive(Clone, Debug)]
pub struct PoolReading {
    /// Its name: `writer`, `reader` or `main`.
    pub pool: &'static str,
    /// Open connections.
    pub open: u32,
    /// Of those, idle.
    pub idle: usize,
    /// The most it opens.
    pub max: u32,
}

/// The states read at each scrape.
#[derive(Clone, Debug, Default)]
pub struct Readings {
    /// Games in memory.
    pub games_in_memory: usize,
    /// Open WebSockets.
    pub websockets: usize,
    /// Engine work waiting for a slot.
    pub engine_queue: usize,
    /// Engine slots computing.
    pub engine_busy: usize,
    /// Engine slots in all.
    pub engine_threads: usize,
    /// The database pools.
    pub pools: Vec<PoolReading>,
    /// Whether the database answered its last probe.
    pub database_up: bool,
}

impl PoolReading {
    /// The state of `pool`, named `name`.
    pub fn of<DB: sqlx::Database>(name: &'static str, pool: &sqlx::Pool<DB>) -> PoolReading {
        PoolReading {
            pool: name,
            open: pool.size(),
            idle: pool.num_idle(),
            max: pool.options().get_max_connections(),
        }
    }
}

fn gauge_value(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// The exposition: every family, with `now`'s states, in the OpenMetrics text format.
pub fn render(now: &Readings) -> String {
    let m = &*METRICS;
    m.games_in_memory.set(gauge_value(now.games_in_memory));
    m.websockets.set(gauge_value(now.websockets));
    m.engine_queue.set(gauge_value(now.engine_queue));
    m.engine_busy.set(gauge_value(now.engine_busy));
    m.engine_threads.set(gauge_value(now.engine_threads));
    m.database_up.set(i64::from(now.database_up));
    for p in &now.pools {
        let labels = PoolLabels { pool: p.pool };
        m.db_connections
            .get_or_create(&labels)
            .set(gauge_value(p.open));
        m.db_idle.get_or_create(&labels).set(gauge_value(p.idle));
        m.db_max.get_or_create(&labels).set(gauge_value(p.max));
    }
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut text, &m.registry);
    text
}

/// The status class of a status code.
fn class(status: axum::http::StatusCode) -> &'static str {
    match status.as_u16() {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

/// A layer counting every routed request and timing it, by its route template.
pub async fn track_requests(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("other", MatchedPath::as_str)
        .to_string();
    let method = req.method().as_str().to_string();
    let response = next.run(req).await;
    let m = &*METRICS;
    m.request_seconds
        .get_or_create(&RouteLabels {
            method: method.clone(),
            route: route.clone(),
        })
        .observe(start.elapsed().as_secs_f64());
    m.requests
        .get_or_create(&RequestLabels {
            method,
            route,
            status: class(response.status()),
        })
        .inc();
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_names_every_family_and_ends_with_eof() {
        move_played();
        let text = render(&Readings {
            games_in_memory: 3,
            pools: vec![PoolReading {
                pool: "main",
                open: 2,
                idle: 1,
                max: 16,
            }],
            ..Readings::default()
        });
        assert!(text.ends_with("# EOF\n"), "{text}");
        for line in [
            "# TYPE mabula_moves counter",
            "# TYPE mabula_engine_wait_seconds histogram",
            "mabula_games_in_memory 3",
            "mabula_db_pool_max{pool=\"main\"} 16",
        ] {
            assert!(text.contains(line), "{line:?} in {text}");
        }
    }

    #[test]
    fn status_codes_fall_in_their_classes() {
        use axum::http::StatusCode;
        assert_eq!(class(StatusCode::OK), "2xx");
        assert_eq!(class(StatusCode::NOT_MODIFIED), "3xx");
        assert_eq!(class(StatusCode::TOO_MANY_REQUESTS), "4xx");
        assert_eq!(class(StatusCode::SERVICE_UNAVAILABLE), "5xx");
    }
}
