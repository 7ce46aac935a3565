//! Request extractors whose failures are [`ApiError`]s, so that a malformed body, an oversized
//! body or a bad query string answers the API's JSON error instead of axum's plain text.

use crate::error::{ApiError, ErrorCode};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// A JSON body. An empty body reads as `{}` (so `POST …/resign` needs no body); a non-empty one
/// must be sent as `application/json`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        let json_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                let mime = v
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                mime == "application/json" || mime.ends_with("+json")
            });
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    ErrorCode::PayloadTooLarge,
                    "the request body is larger than 64 KiB",
                )
            } else {
                ApiError::new(
                    ErrorCode::BadRequest,
                    format!("cannot read the request body: {rejection}"),
                )
            }
        })?;
        let body: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        if body != b"{}" && json_type == Some(false) {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                "send the body as JSON, with 'Content-Type: application/json'",
            ));
        }
        serde_json::from_slice(body).map(JsonBody).map_err(|e| {
            ApiError::new(
                ErrorCode::MalformedJson,
                format!("the body is not the expected JSON: {e}"),
            )
        })
    }
}

/// A query string.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<QueryParams<T>, ApiError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| QueryParams(q.0))
            .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))
    }
}
