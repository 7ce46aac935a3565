//! Accounts and sessions: `/api/accounts`, `/api/session`, `/api/sessions`, `/api/account/…`;
//! and the session layer that every API request goes through.
//!
//! The session lives in the `mabula_session` cookie: HTTP-only, `SameSite=Lax`, `Secure` when
//! the request came over HTTPS (as the trusted proxy says in `X-Forwarded-Proto`). A request
//! that changes something and carries a session cookie must send the session's CSRF token in
//! `X-CSRF-Token`, or it is refused with `csrf_failed`; logging in and signing up are the
//! exceptions (they make a new session whatever cookie came along).
//!
//! A successful log-in or sign-up also sets the `mabula_device` cookie (same flags, a year,
//! sent only to `/api/session`): the device cookie that lets this browser log in while
//! strangers' failed log-ins lock the name (see [`crate::services::accounts`]).

use super::AppState;
use super::limits::client_key;
use crate::auth::Session;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::extract::{ClientAddr, JsonBody};
use crate::services::accounts::NewSession;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use subtle::ConstantTimeEq;

/// The session cookie's name.
pub const COOKIE: &str = "mabula_session";

/// How long a session cookie is kept by the browser (30 days).
const COOKIE_MAX_AGE_S: u64 = 30 * 86_400;

/// The device cookie's name.
pub const DEVICE_COOKIE: &str = "mabula_device";

/// How long a device cookie is kept by the browser (365 days).
const DEVICE_MAX_AGE_S: u64 = 365 * 86_400;

/// The routes of accounts and sessions.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/accounts", post(sign_up))
        .route("/api/session", post(log_in).get(whoami).delete(log_out))
        .route("/api/sessions", delete(log_out_everywhere))
        .route("/api/account", delete(delete_account))
        .route("/api/account/password", post(change_password))
        .route(
            "/api/account/sessions",
            get(list_sessions).delete(end_other_sessions),
        )
        .route("/api/account/sessions/{id}", delete(end_session))
        .route("/api/account/export", get(export))
        .route("/api/account/claim", post(claim))
        .route("/api/account/turn", get(my_turn))
        .route("/api/account/playing", get(playing))
}

pub use mabula_api::accounts::{
    AccountDeletion, AccountExport, ClaimAnswer, ClaimGame, ClaimRequest, Credentials, ExportGame,
    PasswordChange, PlayingClock, PlayingGame, PlayingList, PlayingOpponent, SessionInfo,
    SessionList, SessionView, SessionsEnded, TurnList,
};

/// The personal API token (`mbp_…`) of `Authorization: Bearer`, if the request sends one.
fn personal_token(headers: &HeaderMap) -> Option<String> {
    let text = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = text.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && crate::auth::is_personal(token))
        .then(|| token.to_string())
}

/// The value of cookie `name` in the request's headers.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

/// The request's User-Agent (empty when there is none or it is not text).
fn user_agent(headers: &HeaderMap) -> &str {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

fn set_cookie(headers: &HeaderMap, value: &str, max_age: u64) -> HeaderValue {
    cookie_header(headers, COOKIE, "/", value, max_age)
}

fn cookie_header(
    headers: &HeaderMap,
    name: &str,
    path: &str,
    value: &str,
    max_age: u64,
) -> HeaderValue {
    let secure = if crate::extract::over_https(headers) {
        "; Secure"
    } else {
        ""
    };
    let text =
        format!("{name}={value}; Path={path}; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Finds the session of the request's cookie and puts it in the request's extensions, and
/// refuses a write of a session that does not send its CSRF token.
pub async fn session_layer(State(app): State<AppState>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if !path.starts_with("/api/") {
        return next.run(req).await;
    }
    let write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if let Some(token) = personal_token(req.headers()) {
        // A program's request (issue 38): its token, checked in the database each time, stands
        // for its account within its scopes; there is no cookie, so no CSRF token either.
        return match app.tokens.authenticate(&token).await {
            Ok(Some(session)) => {
                let grant = session
                    .grant
                    .as_ref()
                    .expect("a token's session has its grant");
                if !crate::services::tokens::may(grant, write, path) {
                    return ApiError::new(
                        ErrorCode::TokenNotAllowed,
                        "a personal token cannot do this: it is for the session cookie only, \
                         or outside the token's scopes",
                    )
                    .into_response();
                }
                req.extensions_mut().insert(session);
                next.run(req).await
            }
            Ok(None) => ApiError::new(
                ErrorCode::TokenInvalid,
                "this personal token is not valid: revoked, or never made",
            )
            .into_response(),
            Err(e) => e.into_response(),
        };
    }
    let Some(secret) = cookie(req.headers(), COOKIE).map(str::to_string) else {
        return next.run(req).await;
    };
    let exempt =
        req.method() == Method::POST && (path == "/api/session" || path == "/api/accounts");
    match app.accounts.session(&secret).await {
        Ok(Some(session)) => {
            if write && !exempt {
                let sent = req
                    .headers()
                    .get("x-csrf-token")
                    .map(|v| v.as_bytes())
                    .unwrap_or(b"");
                if !bool::from(sent.ct_eq(session.csrf.as_bytes())) {
                    return ApiError::new(
                        ErrorCode::CsrfFailed,
                        "this write comes with a session cookie but without the session's \
                         X-CSRF-Token header",
                    )
                    .into_response();
                }
            }
            if session.bot && write && path.starts_with("/api/seeks") {
                return ApiError::new(
                    ErrorCode::BotNotAllowed,
                    "a bot uses the lobby through the API, with its token",
                )
                .into_response();
            }
            req.extensions_mut().insert(session);
        }
        Ok(None) => {} // an ended session: the request is a guest's
        Err(e) => return ApiError::from(e).into_response(),
    }
    next.run(req).await
}

/// The answer that starts a session: the cookie and who is logged in.
fn started(headers: &HeaderMap, status: StatusCode, new: NewSession) -> Response {
    let mut response = (
        status,
        Json(SessionView {
            name: new.session.name,
            csrf: new.session.csrf,
        }),
    )
        .into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(headers, &new.secret, COOKIE_MAX_AGE_S),
    );
    if let Some(device) = &new.device {
        response.headers_mut().append(
            header::SET_COOKIE,
            cookie_header(
                headers,
                DEVICE_COOKIE,
                "/api/session",
                device,
                DEVICE_MAX_AGE_S,
            ),
        );
    }
    response
}

/// Sign up: create an account and log in.
#[utoipa::path(post, path = "/api/accounts", tag = "players", request_body = Credentials,
    responses(
        (status = 201, description = "The account, logged in (the session cookie and the device cookie are set)", body = SessionView),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 409, description = "The name is taken (`name_taken`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "The name or password breaks the rules (`invalid_account`)", body = ErrorBody),
        (status = 429, description = "Too many requests, or too many accounts made from this address in the last hour (`rate_limited`, with `Retry-After`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn sign_up(
    State(app): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let new = app
        .accounts
        .sign_up(
            &req.name,
            &req.password,
            &client_key(client),
            user_agent(&headers),
        )
        .await?;
    Ok(started(&headers, StatusCode::CREATED, new))
}

/// Log in.
#[utoipa::path(post, path = "/api/session", tag = "players", request_body = Credentials,
    responses(
        (status = 200, description = "Logged in (the session cookie is set, and the device cookie when the client brought none for this name)", body = SessionView),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "The name and password do not match an account (`login_failed`)", body = ErrorBody),
        (status = 422, description = "The name holds control characters (`invalid_account`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, description = "Too many requests, or too many failed log-ins for this name or address (or, with a device cookie of this name, for this device) (`rate_limited`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn log_in(
    State(app): State<AppState>,
    client: ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let new = app
        .accounts
        .log_in(
            &req.name,
            &req.password,
            &client_key(client),
            cookie(&headers, DEVICE_COOKIE),
            user_agent(&headers),
        )
        .await?;
    Ok(started(&headers, StatusCode::OK, new))
}

/// Who is logged in.
#[utoipa::path(get, path = "/api/session", tag = "players",
    responses(
        (status = 200, description = "The session's account and CSRF token", body = SessionView),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn whoami(session: Session) -> Json<SessionView> {
    Json(SessionView {
        name: session.name,
        csrf: session.csrf,
    })
}

/// Log out (this session only).
#[utoipa::path(delete, path = "/api/session", tag = "players",
    responses(
        (status = 204, description = "Logged out; the cookie is cleared"),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn log_out(
    State(app): State<AppState>,
    headers: HeaderMap,
    session: Session,
) -> Result<Response, ApiError> {
    app.accounts.log_out(&session).await?;
    Ok(cleared(&headers))
}

fn cleared(headers: &HeaderMap) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, set_cookie(headers, "", 0));
    response
}

/// Log out everywhere: every session of the account ends, and the devices trusted to log it in
/// are forgotten.
#[utoipa::path(delete, path = "/api/sessions", tag = "players",
    responses(
        (status = 204, description = "Every session of the account ended and its trusted devices forgotten; the cookie is cleared"),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn log_out_everywhere(
    State(app): State<AppState>,
    headers: HeaderMap,
    session: Session,
) -> Result<Response, ApiError> {
    app.accounts.log_out_everywhere(&session).await?;
    Ok(cleared(&headers))
}

/// Change the password: the current one confirms it, the new one follows the sign-up rules, and
/// every other session of the account ends (this one stays).
#[utoipa::path(post, path = "/api/account/password", tag = "players", request_body = PasswordChange,
    responses(
        (status = 204, description = "The password is changed; every other session ended"),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`); the current password is wrong (`wrong_password`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 422, description = "The new password breaks a rule (`invalid_account`, with the `rule`)", body = ErrorBody),
        (status = 429, description = "Too many requests, or too many wrong passwords in a quarter of an hour (`rate_limited`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn change_password(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    app.accounts
        .change_password(&session, &req.current, &req.new)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The sessions of the account, by device.
#[utoipa::path(get, path = "/api/account/sessions", tag = "players",
    responses(
        (status = 200, description = "The sessions, the latest used first", body = SessionList),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn list_sessions(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<SessionList>, ApiError> {
    Ok(Json(SessionList {
        sessions: sessions_of(&app, &session).await?,
    }))
}

async fn sessions_of(app: &AppState, session: &Session) -> Result<Vec<SessionInfo>, ApiError> {
    app.accounts.sessions(session).await
}

/// Log out one session of the account (another device, or this one).
#[utoipa::path(delete, path = "/api/account/sessions/{id}", tag = "players",
    params(("id" = String, Path, description = "The session's id, from the list")),
    responses(
        (status = 204, description = "The session ended"),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 404, description = "The account has no session with this id (`session_not_found`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn end_session(
    State(app): State<AppState>,
    session: Session,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Result<StatusCode, ApiError> {
    app.accounts.end_session(&session, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Log out every other session of the account (this one stays).
#[utoipa::path(delete, path = "/api/account/sessions", tag = "players",
    responses(
        (status = 200, description = "The other sessions ended", body = SessionsEnded),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn end_other_sessions(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<SessionsEnded>, ApiError> {
    Ok(Json(SessionsEnded {
        ended: app.accounts.end_other_sessions(&session).await?,
    }))
}

/// Delete the account, confirmed by its password: its sessions end, its seeks and challenges
/// go, its unfinished games are resigned, its games stay under a replacement name
/// (`deleted-` and six hex digits), its rating history goes, and its name is never given again.
#[utoipa::path(delete, path = "/api/account", tag = "players", request_body = AccountDeletion,
    responses(
        (status = 204, description = "The account is deleted; the cookie is cleared"),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`); the password is wrong (`wrong_password`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, description = "Too many requests, or too many wrong passwords in a quarter of an hour (`rate_limited`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn delete_account(
    State(app): State<AppState>,
    headers: HeaderMap,
    session: Session,
    JsonBody(req): JsonBody<AccountDeletion>,
) -> Result<Response, ApiError> {
    app.accounts.delete_account(&session, &req.password).await?;
    Ok(cleared(&headers))
}

/// Download my data: the profile, ratings and their history, every game with its moves and
/// record, the sessions, the players followed, the chat lines and the puzzle attempts, as one
/// JSON file.
#[utoipa::path(get, path = "/api/account/export", tag = "players",
    responses(
        (status = 200, description = "The data (sent as an attachment, `mabula-NAME.json`)", body = AccountExport),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, description = "Too many requests, or more than 5 exports in an hour (`rate_limited`)", body = ErrorBody),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn export(State(app): State<AppState>, session: Session) -> Result<Response, ApiError> {
    let account = app.players.account(&session.name).await?;
    let (games, games_truncated) = app.players.export_games(&account).await?;
    let export = AccountExport {
        exported_at: crate::model::now_ms(),
        rating_history: super::players::history_of(&app, &session.key).await?,
        games: games
            .into_iter()
            .map(|g| ExportGame {
                game: g.game,
                moves: g.moves,
                record: g.record,
            })
            .collect(),
        games_truncated,
        sessions: sessions_of(&app, &session).await?,
        following: app
            .follows
            .following(&session)
            .await?
            .players
            .into_iter()
            .map(|p| p.name)
            .collect(),
        chat_lines: app.chat.lines_of_account(&session.key).await?,
        puzzles: app.puzzles.export(&session.name).await?,
        profile: super::players::profile_of(&app, account).await?,
    };
    let disposition = format!("attachment; filename=\"mabula-{}.json\"", session.name);
    let mut response = Json(export).into_response();
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// Take guest games into the account: each seat a token holds and that has no account yet.
#[utoipa::path(post, operation_id = "claim_guest_games", path = "/api/account/claim", tag = "players", request_body = ClaimRequest,
    responses(
        (status = 200, description = "The games taken", body = ClaimAnswer),
        (status = 400, description = "The body is not JSON of this shape (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 403, description = "No CSRF token, or a wrong one (`csrf_failed`)", body = ErrorBody),
        (status = 413, response = super::answers::BodyTooLarge),
        (status = 415, response = super::answers::NotJson),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn claim(
    State(app): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<ClaimRequest>,
) -> Result<Json<ClaimAnswer>, ApiError> {
    let games: Vec<(String, String)> = req.games.into_iter().map(|g| (g.id, g.token)).collect();
    let claimed = app.accounts.claim_guest_games(&session, &games).await?;
    Ok(Json(ClaimAnswer { claimed }))
}

/// The games where it is your turn (correspondence games first by deadline).
#[utoipa::path(get, path = "/api/account/turn", tag = "players",
    responses(
        (status = 200, description = "Game ids", body = TurnList),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn my_turn(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<TurnList>, ApiError> {
    Ok(Json(TurnList {
        games: app.players.my_turn(&session.key).await?,
    }))
}

/// The games the account is playing, the same on every device: their move first.
#[utoipa::path(get, path = "/api/account/playing", tag = "players",
    responses(
        (status = 200, description = "The games being played", body = PlayingList),
        (status = 401, description = "No session (`not_logged_in`)", body = ErrorBody),
        (status = 429, response = super::answers::Throttled),
        (status = 503, response = super::answers::Unavailable),
    ))]
pub async fn playing(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<PlayingList>, ApiError> {
    Ok(Json(PlayingList {
        games: app.players.playing(&session.key).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; mabula_session=xyz ; b=2"),
        );
        assert_eq!(cookie(&h, COOKIE), Some("xyz"));
        assert_eq!(cookie(&h, "c"), None);
        let c = set_cookie(&h, "s", 10);
        assert!(c.to_str().unwrap().contains("HttpOnly; SameSite=Lax"));
        assert!(!c.to_str().unwrap().contains("Secure"));
        h.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(
            set_cookie(&h, "s", 10)
                .to_str()
                .unwrap()
                .ends_with("Secure")
        );
    }

    #[test]
    fn the_device_cookie_is_kept_a_year_and_sent_only_to_log_in() {
        let h = HeaderMap::new();
        let c = cookie_header(&h, DEVICE_COOKIE, "/api/session", "d", DEVICE_MAX_AGE_S);
        assert_eq!(
            c.to_str().unwrap(),
            "mabula_device=d; Path=/api/session; HttpOnly; SameSite=Lax; Max-Age=31536000"
        );
    }
}
