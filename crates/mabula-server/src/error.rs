//! The one error type of the API: a stable machine-readable code, an HTTP status and a message.
//!
//! Every failure a client can cause maps to a 4xx [`ApiError`] whose body is
//! `{ "code": ..., "message": ... }` ([`ErrorBody`]; it and the codes are the crate
//! `mabula-api`'s, re-exported here). Only a failing database answers 5xx (`internal`), and then
//! nothing was changed. `docs/api.md` section 2 lists the codes; keep the two in step.
//!
//! This is the API edge of the errors: the lower layers have their own error types (the model's
//! [`Refusal`], auth's [`MissingToken`], the store's `StoreError`), and the `From` conversions
//! here give each its code.

use crate::auth::MissingToken;
use crate::model::Refusal;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

pub use mabula_api::error::{ErrorBody, ErrorCode, Rule};

/// The HTTP status that goes with `code` (its number is the API crate's).
pub fn status_of(code: ErrorCode) -> StatusCode {
    StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
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
    /// The rule of names and passwords broken (for `invalid_account`).
    pub rule: Option<Rule>,
}

impl ApiError {
    /// An error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            retry_after: None,
            rule: None,
        }
    }

    /// `invalid_account` naming the `rule` broken.
    pub fn broken_rule(rule: Rule, message: impl Into<String>) -> ApiError {
        ApiError {
            rule: Some(rule),
            ..ApiError::new(ErrorCode::InvalidAccount, message)
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
            Refusal::DrawAfterEnd | Refusal::AbortAfterEnd => ErrorCode::GameOver,
            Refusal::DrawNotBetweenPlayers => ErrorCode::DrawNotAllowed,
            Refusal::DrawOfferPending => ErrorCode::DrawOfferPending,
            Refusal::DrawTooSoon { .. } => ErrorCode::DrawOfferTooSoon,
            Refusal::NoDrawOffer => ErrorCode::NoDrawOffer,
            Refusal::AbortTooLate => ErrorCode::AbortTooLate,
            Refusal::InTournament => ErrorCode::TournamentGame,
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
        let status = status_of(self.code);
        let body = ErrorBody {
            rule: self.rule,
            ..ErrorBody::new(self.code, self.message)
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
            assert!(status_of(code).is_client_error());
        }
    }
}
