//! The OpenAPI document, generated from the handlers' and types' annotations, served at
//! `/api/openapi.json`. The WebSocket protocol is described in `docs/api.md`.
//!
//! Each operation lists every status it can answer, including those that come from the layers
//! and extractors in front of its handler (a body that is not JSON, too many requests, a server
//! that is stopping): `scripts/schemathesis.sh` fails on any status an operation answers without
//! listing it, and `tests/openapi.rs` checks the statuses every body and every game id bring.
//! The answers that read the same for many operations are the reusable responses of
//! [`super::answers`]; this module is the top of the api: it gathers the handlers' paths and
//! uses nothing of them but their annotations.

use super::AppState;
use super::analysis::{AnalysisStats, GameAnalysisRequest, GamePositionEvent, PositionMoves};
use super::answers::{
    BodyTooLarge, LivePosition, NoSuchGame, NoToken, NotJson, Throttled, Unavailable,
};
use crate::analysis::{
    Counts, GameAnalysis, LineView, NoteView, PositionAnalysis, SideCounts, ValueView, VerdictView,
};
use crate::error::{ErrorBody, ErrorCode};
use crate::model::{EndReason, EngineSettings, Mode, PairHalf, SideSchema, UndoOffer};
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
        super::ready,
        super::metrics,
        super::games::create,
        super::games::list,
        super::games::state,
        super::games::join,
        super::games::play,
        super::games::resign,
        super::games::claim,
        super::games::draw,
        super::games::decline_draw,
        super::games::abort,
        super::games::undo,
        super::games::accept_undo,
        super::games::decline_undo,
        super::games::rematch,
        super::games::record,
        super::games::import,
        super::games::hint,
        super::image::image,
        super::ws::upgrade,
        super::analysis::position,
        super::analysis::stream,
        super::analysis::game,
        super::analysis::stats,
        super::analysis::moves,
        super::accounts::sign_up,
        super::accounts::log_in,
        super::accounts::whoami,
        super::accounts::log_out,
        super::accounts::log_out_everywhere,
        super::accounts::claim,
        super::accounts::my_turn,
        super::accounts::playing,
        super::accounts::change_password,
        super::accounts::list_sessions,
        super::accounts::end_session,
        super::accounts::end_other_sessions,
        super::accounts::delete_account,
        super::accounts::export,
        super::follows::follow,
        super::follows::unfollow,
        super::follows::following,
        super::follows::online,
        super::players::profile,
        super::players::games,
        super::players::history,
        super::players::records,
        super::players::advantage,
        super::lobby::list,
        super::lobby::open,
        super::lobby::cancel,
        super::lobby::accept,
        super::lobby::upgrade,
        super::chat::say,
        super::chat::log,
        super::moderation::block,
        super::moderation::unblock,
        super::moderation::blocks,
        super::moderation::status,
        super::moderation::report,
        super::moderation::queue,
        super::moderation::unrated,
        super::moderation::accuracy,
        super::moderation::resolve,
        super::moderation::mute,
        super::moderation::unmute,
        super::moderation::close,
        super::moderation::reopen,
        super::tournaments::create,
        super::tournaments::list,
        super::tournaments::show,
        super::tournaments::join,
        super::tournaments::withdraw,
        super::tournaments::pause,
        super::tournaments::start,
        super::tournaments::records,
        super::tournaments::of_player,
        super::tournaments::upgrade,
        super::bots::create_token,
        super::bots::list_tokens,
        super::bots::revoke_token,
        super::bots::upgrade,
        super::bots::event_stream,
        super::bots::game_stream,
        super::bots::bot_move,
        super::bots::bot_resign,
        super::bots::bot_draw,
        super::bots::list_bots,
        super::puzzles::next,
        super::puzzles::daily,
        super::puzzles::themes,
        super::puzzles::show,
        super::puzzles::attempt,
        super::puzzles::hint,
        super::puzzles::history,
    ),
    components(schemas(
        ErrorBody, ErrorCode, Mode, SideSchema, EndReason, EngineSettings, UndoOffer, GameState, SettingsView,
        MoveView, LegalMoveView, ScoresView, AllScores, GroupsView, SeatView, SeatKind, SeatsView,
        GameSummary, GameList, SeatGrant, SeedInput, ColorChoice, CreateGame, MoveRequest, ResignRequest,
        Empty, JoinRequest, ImportRequest, Health,
        PositionAnalysis, GameAnalysis, ValueView, LineView, VerdictView, NoteView, Counts, SideCounts,
        GameAnalysisRequest, AnalysisStats, GamePositionEvent, PositionMoves, HintCounts,
        super::games::HintAnswer, PairHalf, PairView, PairPoints,
        crate::view::PlayersView, crate::view::PlayerView, crate::view::ClockView,
        crate::model::TimeControl, crate::model::Speed,
        super::accounts::Credentials, super::accounts::SessionView, super::accounts::ClaimRequest,
        super::accounts::ClaimGame, super::accounts::ClaimAnswer, super::accounts::TurnList,
        super::accounts::PlayingList, super::accounts::PlayingGame,
        super::accounts::PlayingOpponent, super::accounts::PlayingClock,
        super::accounts::PasswordChange, super::accounts::AccountDeletion, super::accounts::SessionInfo,
        super::accounts::SessionList, super::accounts::SessionsEnded, super::accounts::AccountExport,
        super::accounts::ExportGame, crate::error::Rule,
        super::follows::Followed, super::follows::FollowingList, super::follows::LiveGame,
        super::follows::OnlineCount,
        super::players::Profile, super::players::RatingView, super::players::Record3,
        super::players::ResultsView, super::players::PlayerGame, super::players::PlayerGames,
        super::players::RatingPoint, super::players::RatingHistory, super::players::Advantage,
        super::players::AdvantageView,
        crate::services::lobby::SeekRequest, crate::services::lobby::ClockRequest, crate::services::lobby::SeekView,
        super::lobby::SeekList, super::lobby::Started,
        mabula_api::social::ChatRoom, mabula_api::social::ChatRequest, mabula_api::social::ChatLine,
        mabula_api::social::ChatLog, mabula_api::social::AccountChatLine, mabula_api::social::BlockList, mabula_api::social::ReportReason,
        mabula_api::social::ReportRequest, mabula_api::social::ReportCreated,
        mabula_api::social::ReportView, mabula_api::social::ReportQueue,
        mabula_api::social::UnratedGame, mabula_api::social::UnratedGames,
        mabula_api::social::AccuracyFlag, mabula_api::social::AccuracyFlags,
        mabula_api::view::AccuracyView,
        mabula_api::social::ResolveRequest, mabula_api::social::MuteRequest,
        mabula_api::social::ModerationStatus,
        mabula_api::tournaments::CreateTournament, mabula_api::tournaments::TournamentCreated,
        mabula_api::tournaments::JoinTournament, mabula_api::tournaments::TournamentSettings,
        mabula_api::tournaments::TournamentSummary, mabula_api::tournaments::TournamentList,
        mabula_api::tournaments::TournamentView, mabula_api::tournaments::StandingView,
        mabula_api::tournaments::RoundView, mabula_api::tournaments::PairingView,
        mabula_api::tournaments::TournamentGameView, mabula_api::tournaments::TournamentMessage,
        mabula_api::tournaments::PlayerTournament,
        super::bots::CreateToken, super::bots::TokenCreated, super::bots::TokenView,
        super::bots::TokenList, super::bots::BotEvent, super::bots::BotGameRef,
        super::bots::BotPlayer, super::bots::BotGameMessage, super::bots::BotGameState,
        super::bots::BotView, super::bots::BotList,
        super::puzzles::PuzzleView, super::puzzles::AttemptRequest, super::puzzles::AttemptAnswer,
        super::puzzles::PuzzleHint, super::puzzles::ThemeCount, super::puzzles::ThemeList,
        super::puzzles::PuzzleAttemptView, super::puzzles::PuzzleHistory,
    ), responses(
        NoSuchGame, NoToken, BodyTooLarge, NotJson, Throttled, Unavailable, LivePosition
    )),
    modifiers(&TokenScheme),
    tags((name = "games", description = "Games: create, play, watch, export"), (name = "analysis", description = "The analysis board: the engine's view of positions and games"), (name = "players", description = "Accounts, profiles, ratings and the lobby"), (name = "social", description = "Chat, blocks, reports and moderation"), (name = "tournaments", description = "Swiss tournaments and arenas"), (name = "bots", description = "The bot API: personal tokens, event and game streams (newline-delimited JSON), bots"), (name = "puzzles", description = "Puzzles proven by the solver, puzzle ratings, the puzzle of the day"), (name = "server", description = "Health")),
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
