//! The one error type of the API: a stable machine-readable code, an HTTP status and a message.
//!
//! Every failure a client can cause maps to a 4xx [`ApiError`] whose body is
//! `{ "code": ..., "message": ... }`. Only a failing database answers 5xx (`internal`), and then
//! nothing was changed. `docs/api.md` section 2 lists the codes; keep the two in step.
//!
//! This is the API edge of the errors: the lower layers have their own error types (the model's
//! [`Refusal`], auth's [`MissingToken`], the store's `StoreError`), and the `From` conversions
//! here give each its code.

use crate::auth::MissingToken;
use crate::model::Refusal;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The stable codes of API errors (see `docs/api.md`, section 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The body is not JSON of the expected shape.
    MalformedJson,
    /// A query parameter or path segment is malformed.
    BadRequest,
    /// The move text is not a move.
    BadNotation,
    /// The action needs a seat token and none was sent.
    TokenMissing,
    /// The token is not one of this game's.
    TokenInvalid,
    /// The token holds no seat that may do this.
    NotYourSeat,
    /// The join code is wrong.
    JoinCodeInvalid,
    /// No game has this id.
    GameNotFound,
    /// No such endpoint.
    NotFound,
    /// The endpoint exists, but not with this method.
    MethodNotAllowed,
    /// It is the other side's turn.
    NotYourTurn,
    /// The request's move number is not the next one.
    StaleState,
    /// The game is finished.
    GameOver,
    /// A rematch of a game that goes on.
    GameNotOver,
    /// The join code was used already.
    SeatTaken,
    /// No move of the caller to take back.
    NothingToUndo,
    /// No undo offer from the other side.
    NoUndoOffer,
    /// An undo offer is already pending.
    UndoOfferPending,
    /// This seat already has its rematch grant.
    RematchTaken,
    /// Moves cannot be taken back in this game (it is on a clock).
    UndoNotAllowed,
    /// The action needs an account and the request has no session.
    NotLoggedIn,
    /// A write with a session cookie came without the session's `X-CSRF-Token`.
    CsrfFailed,
    /// The name and password do not match an account.
    LoginFailed,
    /// The name is taken (names are unique ignoring case).
    NameTaken,
    /// The name or password breaks the rules for accounts.
    InvalidAccount,
    /// No player has this name.
    PlayerNotFound,
    /// No open seek or challenge has this id.
    SeekNotFound,
    /// The seek is not open to this player (their own, another's challenge, out of rating range).
    SeekNotForYou,
    /// The win cannot be claimed: the other side is not away long enough on its turn in a game
    /// on a real-time clock.
    ClaimNotAllowed,
    /// The body is too large.
    PayloadTooLarge,
    /// The body is not sent as JSON.
    UnsupportedMediaType,
    /// The move is not legal here.
    IllegalMove,
    /// The game settings are inconsistent or out of range.
    InvalidSettings,
    /// The setup position is unreadable or no valid start.
    InvalidSetup,
    /// The imported record cannot be read.
    InvalidRecord,
    /// Too many requests from one address.
    RateLimited,
    /// Too many open connections or WebSockets from one address, or in all.
    TooManyConnections,
    /// The request line's target is too long.
    UriTooLong,
    /// The request's headers are too large.
    HeadersTooLarge,
    /// The request was not sent in time.
    RequestTimeout,
    /// The database failed.
    Internal,
    /// The database cannot be reached now; nothing was changed.
    Unavailable,
    /// A queue of work is full (analysis); try again later.
    Busy,
    /// The server is stopping.
    ShuttingDown,
}

impl ErrorCode {
    /// The HTTP status that goes with the code.
    pub const fn status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            MalformedJson | BadRequest | BadNotation => StatusCode::BAD_REQUEST,
            TokenMissing | NotLoggedIn | LoginFailed => StatusCode::UNAUTHORIZED,
            TokenInvalid | NotYourSeat | JoinCodeInvalid | CsrfFailed | SeekNotForYou => {
                StatusCode::FORBIDDEN
            }
            GameNotFound | NotFound | PlayerNotFound | SeekNotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            NotYourTurn | StaleState | GameOver | GameNotOver | SeatTaken | NothingToUndo
            | NoUndoOffer | UndoOfferPending | RematchTaken | UndoNotAllowed | NameTaken
            | ClaimNotAllowed => StatusCode::CONFLICT,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            IllegalMove | InvalidSettings | InvalidSetup | InvalidRecord | InvalidAccount => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            RateLimited | TooManyConnections => StatusCode::TOO_MANY_REQUESTS,
            UriTooLong => StatusCode::URI_TOO_LONG,
            HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Unavailable | Busy | ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// The body of every error answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// Stable, for programs.
    pub code: ErrorCode,
    /// English, for people.
    pub message: String,
}

/// An error answered to a client.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ApiError {
    /// What kind of error.
    pub code: ErrorCode,
    /// What was wrong, in words.
    pub message: String,
    /// Seconds after which to retry (for `rate_limited`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// `game_not_found` for `id`.
    pub fn game_not_found(id: &str) -> ApiError {
        ApiError::new(
            ErrorCode::GameNotFound,
            format!("there is no game with id '{id}'"),
        )
    }

    /// `internal`, logging the cause (which is not shown to the client).
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {cause}");
        ApiError::new(
            ErrorCode::Internal,
            "the database failed; nothing was changed, try again",
        )
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        let code = match refusal {
            Refusal::MoveAfterEnd(_) | Refusal::ResignAfterEnd | Refusal::UndoAfterEnd => {
                ErrorCode::GameOver
            }
            Refusal::StaleMoveNumber { .. } => ErrorCode::StaleState,
            Refusal::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            Refusal::BadNotation(_) => ErrorCode::BadNotation,
            Refusal::IllegalMove(_) => ErrorCode::IllegalMove,
            Refusal::NotYourSeat(_) => ErrorCode::NotYourSeat,
            Refusal::NothingPlayed | Refusal::NoOwnMove => ErrorCode::NothingToUndo,
            Refusal::UndoOnTheClock => ErrorCode::UndoNotAllowed,
            Refusal::ClaimAfterEnd
            | Refusal::NotDue
            | Refusal::OutOfTime
            | Refusal::HintAfterEnd(_) => ErrorCode::GameOver,
            Refusal::HintNotAgainstEngine => ErrorCode::BadRequest,
            Refusal::HintNotYourTurn => ErrorCode::NotYourTurn,
            Refusal::UndoOfferPending => ErrorCode::UndoOfferPending,
            Refusal::NoUndoOffer => ErrorCode::NoUndoOffer,
            Refusal::OwnUndoOffer => ErrorCode::NotYourSeat,
            Refusal::JoinCodeInvalid => ErrorCode::JoinCodeInvalid,
            Refusal::SeatTaken => ErrorCode::SeatTaken,
            Refusal::RematchBeforeEnd => ErrorCode::GameNotOver,
            Refusal::RematchTaken => ErrorCode::RematchTaken,
            Refusal::ClaimNotOnClock
            | Refusal::ClaimOnOwnTurn
            | Refusal::ClaimOpponentHere
            | Refusal::ClaimTooEarly { .. } => ErrorCode::ClaimNotAllowed,
        };
        let mut error = ApiError::new(code, refusal.to_string());
        if let Refusal::ClaimTooEarly { seconds } = refusal {
            error.retry_after = Some(seconds.max(1) as u64);
        }
        error
    }
}

impl From<MissingToken> for ApiError {
    fn from(_: MissingToken) -> ApiError {
        ApiError::new(
            ErrorCode::TokenMissing,
            "this action needs your seat token: send it as 'Authorization: Bearer <token>'",
        )
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> ApiError {
        match err {
            crate::store::StoreError::Closed => {
                ApiError::new(ErrorCode::ShuttingDown, "the server is stopping")
            }
            crate::store::StoreError::Unavailable(cause) => {
                tracing::debug!("database unavailable: {cause}");
                ApiError {
                    retry_after: Some(2),
                    ..ApiError::new(
                        ErrorCode::Unavailable,
                        "the database cannot be reached; nothing was changed, try again shortly",
                    )
                }
            }
            other => ApiError::internal(other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.code.status();
        let body = ErrorBody {
            code: self.code,
            message: self.message,
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(secs) = self.retry_after
            && let Ok(value) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_snake_case_name() {
        let name = |c: ErrorCode| serde_json::to_string(&c).expect("serializable");
        assert_eq!(name(ErrorCode::IllegalMove), "\"illegal_move\"");
        assert_eq!(name(ErrorCode::MalformedJson), "\"malformed_json\"");
    }

    #[test]
    fn a_refusal_keeps_its_words_and_gets_its_code() {
        let err = ApiError::from(Refusal::NotYourTurn {
            turn: mabula::Color::Black,
            engine: true,
        });
        assert_eq!(err.code, ErrorCode::NotYourTurn);
        assert_eq!(err.message, "it is the engine's turn");
        let err = ApiError::from(Refusal::StaleMoveNumber { next: 4, sent: 3 });
        assert_eq!(err.code, ErrorCode::StaleState);
        assert_eq!(
            err.message,
            "this would be move 4, not move 3: the game has moved on"
        );
        let err = ApiError::from(Refusal::NotYourSeat(mabula::Color::White));
        assert_eq!(err.code, ErrorCode::NotYourSeat);
        assert_eq!(
            err.message,
            "your token does not hold white's seat, so it cannot resign for white"
        );
        for over in [
            Refusal::MoveAfterEnd(mabula::GameResult::Draw),
            Refusal::ResignAfterEnd,
            Refusal::UndoAfterEnd,
        ] {
            assert_eq!(ApiError::from(over).code, ErrorCode::GameOver);
        }
        for nothing in [Refusal::NothingPlayed, Refusal::NoOwnMove] {
            assert_eq!(ApiError::from(nothing).code, ErrorCode::NothingToUndo);
        }
    }

    #[test]
    fn bad_input_never_maps_to_a_server_error() {
        for code in [
            ErrorCode::MalformedJson,
            ErrorCode::IllegalMove,
            ErrorCode::RateLimited,
        ] {
            assert!(code.status().is_client_error());
        }
    }
}
