//! The analysis resource: `/api/analysis…` (`docs/api.md`, section 4). A position's analysis as
//! JSON once finished, or streamed as server-sent events as it deepens; a game's evaluation
//! graph and move notes, streamed position by position.

use super::AppState;
use super::limits::client_key;
use crate::analysis::{self as service, GameAnalysis, PositionAnalysis};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::ClientAddr;
use crate::extract::{JsonBody, QueryParams};
use crate::view;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use mabula::{Game, Position, Scoring};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use tokio::sync::mpsc;
use utoipa::IntoParams;

pub use mabula_api::analysis::{
    AnalysisStats, GameAnalysisRequest, GamePositionEvent, PositionMoves,
};

/// The routes of the analysis resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/analysis", get(position))
        .route("/api/analysis/stream", get(stream))
        .route("/api/analysis/game", post(game))
        .route("/api/analysis/stats", get(stats))
        .route("/api/analysis/moves", get(moves))
}

/// Query of `GET /api/analysis` and `/api/analysis/stream`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    /// The position string.
    pub position: String,
    /// `largest` (default) or `product`.
    pub scoring: Option<String>,
}

fn parse_scoring(text: Option<&str>, default: Scoring) -> Result<Scoring, ApiError> {
    match text {
        None => Ok(default),
        Some(t) => t.parse().map_err(|_| {
            ApiError::new(
                ErrorCode::BadRequest,
                format!("scoring '{t}' is unknown: use largest or product"),
            )
        }),
    }
}

fn parse_query(q: &PositionQuery) -> Result<(Position, Scoring), ApiError> {
    let pos: Position = q.position.trim().parse().map_err(|e| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("'{}' is not a position string: {e}", q.position),
        )
    })?;
    Ok((pos, parse_scoring(q.scoring.as_deref(), Scoring::Largest)?))
}

/// The engine's view of a position, once the analysis is finished.
#[utoipa::path(get, path = "/api/analysis", tag = "analysis", params(PositionQuery),
    responses(
        (status = 200, description = "The finished analysis", body = PositionAnalysis),
        (status = 400, description = "A bad position string or scoring mode, or an unknown parameter (`bad_request`)", body = ErrorBody),
        (status = 403, response = super::answers::LivePosition),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn position(
    State(app): State<AppState>,
    client: ClientAddr,
    QueryParams(q): QueryParams<PositionQuery>,
) -> Result<Json<PositionAnalysis>, ApiError> {
    let (pos, scoring) = parse_query(&q)?;
    app.fair_play.check([&pos]).await?;
    let client = client_key(client);
    let _admitted = admit(&app, &client, app.analyst.peek(&pos, scoring).is_some()).await?;
    let (report, cached) = app.analyst.analyse(pos, scoring, &client).await?;
    Ok(Json(service::position_analysis(
        &pos, scoring, &report, cached,
    )))
}

type EventStream = Sse<
    axum::response::sse::KeepAliveStream<
        futures_util::stream::BoxStream<'static, Result<Event, Infallible>>,
    >,
>;

fn event_stream(rx: mpsc::Receiver<Event>) -> EventStream {
    let stream =
        futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) },
        );
    Sse::new(Box::pin(stream) as futures_util::stream::BoxStream<'static, _>)
        .keep_alive(KeepAlive::default())
}

fn json_event(name: &str, value: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .data(serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
}

/// The analysis of a position as server-sent events, one `analysis` event (a
/// `PositionAnalysis`) per step of the deepening, the last with `done: true`.
#[utoipa::path(get, path = "/api/analysis/stream", tag = "analysis", params(PositionQuery),
    responses(
        (status = 200, description = "An event stream of `analysis` events", content_type = "text/event-stream", body = PositionAnalysis),
        (status = 400, description = "A bad position string or scoring mode, or an unknown parameter (`bad_request`)", body = ErrorBody),
        (status = 403, response = super::answers::LivePosition),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn stream(
    State(app): State<AppState>,
    client: ClientAddr,
    QueryParams(q): QueryParams<PositionQuery>,
) -> Result<EventStream, ApiError> {
    let (pos, scoring) = parse_query(&q)?;
    app.fair_play.check([&pos]).await?;
    let client = client_key(client);
    let admitted = admit(&app, &client, app.analyst.peek(&pos, scoring).is_some()).await?;
    let (mut rx, cached) = app.analyst.subscribe(pos, scoring, &client)?;
    let (tx, events) = mpsc::channel(8);
    tokio::spawn(async move {
        let _admitted = admitted;
        loop {
            let snapshot = rx.borrow_and_update().clone();
            if let Some(r) = &snapshot.report {
                let view = service::position_analysis(&pos, scoring, r, cached);
                if tx.send(json_event("analysis", &view)).await.is_err() {
                    return;
                }
            }
            if snapshot.done {
                if snapshot.failed {
                    let _ = tx.send(error_event(stopping())).await;
                }
                return;
            }
            tokio::select! {
                changed = rx.changed() => {
                    if changed.is_err() {
                        let _ = tx.send(error_event(stopping())).await;
                        return;
                    }
                }
                // The client went away: let go of the analysis.
                _ = tx.closed() => return,
            }
        }
    });
    Ok(event_stream(events))
}

/// Admits a request of `client` (see [`crate::analysis::Analyst::admit`]) unless all it asks
/// for is `cached` here already.
async fn admit(
    app: &AppState,
    client: &str,
    cached: bool,
) -> Result<Option<crate::analysis::Admission>, ApiError> {
    if cached {
        return Ok(None);
    }
    Ok(Some(app.analyst.admit(client).await?))
}

fn error_event(e: ApiError) -> Event {
    json_event("error", &ErrorBody::new(e.code, e.message))
}

fn stopping() -> ApiError {
    ApiError::new(
        ErrorCode::ShuttingDown,
        "the analysis could not run: the server is stopping",
    )
}

/// A game's evaluation graph and move notes as server-sent events, in two passes: first a
/// `quick` event per position (the start first) from a shallow analysis of each, so that the
/// whole graph is drawn within moments; then a `position` event per position as its full
/// analysis finishes, and one `game` event with the graph and the notes (a `GameAnalysis`).
/// Every `quick` event comes before the first `position` event; when every position's full
/// analysis is cached, there is no quick pass. The quick pass is one job in the client's bound;
/// the full analyses are each counted in it, one after another; if one is refused later on, an
/// `error` event with its code ends the stream.
#[utoipa::path(post, path = "/api/analysis/game", tag = "analysis", request_body = GameAnalysisRequest,
    responses(
        (status = 200, description = "An event stream of `quick` events, `position` events, then a `game` event", content_type = "text/event-stream", body = GameAnalysis),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`), or a bad scoring mode (`bad_request`)", body = ErrorBody),
        (status = 403, response = super::answers::LivePosition),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "The record cannot be read (`invalid_record`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn game(
    State(app): State<AppState>,
    client: ClientAddr,
    JsonBody(req): JsonBody<GameAnalysisRequest>,
) -> Result<EventStream, ApiError> {
    let game = Game::parse(&req.record).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidRecord,
            format!("the record cannot be read: {e}"),
        )
    })?;
    let scoring = parse_scoring(req.scoring.as_deref(), game.scoring())?;
    let analyst = app.analyst.clone();
    let client = client_key(client);
    let positions = game.positions();
    app.fair_play.check(&positions).await?;
    // The first job is asked for here, so that a refusal is the answer's status, not an event:
    // the quick pass, or the start's full analysis when every position is cached.
    let all_cached = positions.iter().all(|p| analyst.peek(p, scoring).is_some());
    let admitted = admit(&app, &client, all_cached).await?;
    let (mut quick, mut first) = if all_cached {
        (
            None,
            Some(analyst.subscribe(*game.start(), scoring, &client)?),
        )
    } else {
        (
            Some(analyst.quick_pass(positions.clone(), scoring, &client)?),
            None,
        )
    };
    let (tx, events) = mpsc::channel(8);
    tokio::spawn(async move {
        let _admitted = admitted;
        if let Some(quick) = &mut quick {
            loop {
                let next = tokio::select! {
                    next = quick.recv() => next,
                    _ = tx.closed() => return,
                };
                let Some((index, report)) = next else { break };
                let Some(pos) = positions.get(index) else {
                    break;
                };
                let event = GamePositionEvent {
                    index,
                    analysis: service::position_analysis(pos, scoring, &report, false),
                };
                if tx.send(json_event("quick", &event)).await.is_err() {
                    return;
                }
            }
        }
        drop(quick);
        let mut reports = Vec::with_capacity(positions.len());
        for (index, pos) in positions.iter().enumerate() {
            if tx.is_closed() {
                return;
            }
            let wait = async {
                let (rx, cached) = match first.take() {
                    Some(started) => started,
                    None => analyst.subscribe(*pos, scoring, &client)?,
                };
                Ok::<_, ApiError>((service::finished(rx).await?, cached))
            };
            let analysed = tokio::select! {
                a = wait => a,
                _ = tx.closed() => return,
            };
            match analysed {
                Ok((r, cached)) => {
                    let event = GamePositionEvent {
                        index,
                        analysis: service::position_analysis(pos, scoring, &r, cached),
                    };
                    if tx.send(json_event("position", &event)).await.is_err() {
                        return;
                    }
                    reports.push((*r).clone());
                }
                Err(e) => {
                    let _ = tx.send(error_event(e)).await;
                    return;
                }
            }
        }
        let summary = service::game_analysis(&positions, game.moves(), &reports, scoring);
        let _ = tx.send(json_event("game", &summary)).await;
    });
    Ok(event_stream(events))
}

/// The analysis cache's counters.
#[utoipa::path(get, path = "/api/analysis/stats", tag = "analysis",
    responses(
        (status = 200, description = "Analyses started and cache hits", body = AnalysisStats),
        (status = 429, response = super::answers::Throttled),
    ))]
pub async fn stats(State(app): State<AppState>) -> Json<AnalysisStats> {
    let a = &app.analyst;
    Json(AnalysisStats {
        runs: a.runs(),
        hits: a.hits(),
    })
}

/// Query of `GET /api/analysis/moves`.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct MovesQuery {
    /// The position string.
    pub position: String,
}

/// The legal moves of a position with their previews (no engine work).
#[utoipa::path(get, path = "/api/analysis/moves", tag = "analysis", params(MovesQuery),
    responses(
        (status = 200, description = "The legal moves", body = PositionMoves),
        (status = 400, description = "A bad position string, or an unknown parameter (`bad_request`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
    ))]
pub async fn moves(
    QueryParams(q): QueryParams<MovesQuery>,
) -> Result<Json<PositionMoves>, ApiError> {
    let (pos, _) = parse_query(&PositionQuery {
        position: q.position,
        scoring: None,
    })?;
    let game_over = pos.is_game_over();
    let legal_moves = view::legal_move_views(&pos, game_over);
    Ok(Json(PositionMoves {
        position: pos,
        to_move: pos.side_to_move(),
        game_over,
        legal_moves,
    }))
}
