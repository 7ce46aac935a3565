//! The OpenAPI document, generated from the handlers' and types' annotations, served at
//! `/api/openapi.json`. The WebSocket protocol is described in `docs/api.md`.

use super::AppState;
use super::analysis::{AnalysisStats, GameAnalysisRequest, GamePositionEvent, PositionMoves};
use crate::analysis::{
    Counts, GameAnalysis, LineView, NoteView, PositionAnalysis, SideCounts, ValueView, VerdictView,
};
use crate::error::{ErrorBody, ErrorCode};
use crate::model::{EndReason, EngineSettings, Mode, PairHalf, Side, UndoOffer};
use crate::view::{
    AllScores, ColorChoice, CreateGame, Empty, GameList, GameState, GameSummary, GroupsView,
    Health, HintCounts, ImportRequest, JoinRequest, LegalMoveView, MoveRequest, MoveView,
    PairPoints, PairView, ResignRequest, ScoresView, SeatGrant, SeatKind, SeatView, SeatsView,
    SeedInput, SettingsView,
};
use axum::routing::get;
use axum::{Json, Router};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The API's OpenAPI description.
#[derive(OpenApi)]
#[openapi(
    info(title = "Mabula server", description = "Games of Mabula over HTTP; live updates over WebSocket at /api/games/{id}/ws (see docs/api.md)."),
    paths(
        super::health,
        super::games::create,
        super::games::list,
        super::games::state,
        super::games::join,
        super::games::play,
        super::games::resign,
        super::games::undo,
        super::games::accept_undo,
        super::games::decline_undo,
        super::games::rematch,
        super::games::record,
        super::games::import,
        super::games::hint,
        super::analysis::position,
        super::analysis::stream,
        super::analysis::game,
        super::analysis::stats,
        super::analysis::moves,
    ),
    components(schemas(
        ErrorBody, ErrorCode, Mode, Side, EndReason, EngineSettings, UndoOffer, GameState, SettingsView,
        MoveView, LegalMoveView, ScoresView, AllScores, GroupsView, SeatView, SeatKind, SeatsView,
        GameSummary, GameList, SeatGrant, SeedInput, ColorChoice, CreateGame, MoveRequest, ResignRequest,
        Empty, JoinRequest, ImportRequest, Health,
        PositionAnalysis, GameAnalysis, ValueView, LineView, VerdictView, NoteView, Counts, SideCounts,
        GameAnalysisRequest, AnalysisStats, GamePositionEvent, PositionMoves, HintCounts,
        super::games::HintAnswer, PairHalf, PairView, PairPoints,
    )),
    modifiers(&TokenScheme),
    tags((name = "games", description = "Games: create, play, watch, export"), (name = "analysis", description = "The analysis board: the engine's view of positions and games"), (name = "server", description = "Health")),
)]
pub struct ApiDoc;

/// Declares the seat token as a bearer scheme.
struct TokenScheme;

impl Modify for TokenScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The seat token (also accepted as the X-Mabula-Token header)",
                    ))
                    .build(),
            ),
        );
    }
}

/// The route of the document.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/openapi.json", get(openapi))
}

async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
