//! The browser UI, embedded in the binary from `crates/mabula-server/assets/` (read from disk in
//! debug builds, so the page can be edited without rebuilding). Client routes such as
//! `/game/{id}` get `index.html`, so the page can route itself.

use crate::error::{ApiError, ErrorCode};
use axum::http::{HeaderValue, Method, Uri, header};
use axum::response::{IntoResponse, Response};

/// The embedded files.
#[derive(rust_embed::Embed)]
#[folder = "assets/"]
struct Assets;

/// Serves an asset, `index.html` for client routes, or a JSON 404.
pub async fn serve(method: Method, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || path == "api" || path == "healthz" {
        return ApiError::new(
            ErrorCode::NotFound,
            format!("there is no endpoint {}", uri.path()),
        )
        .into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(ErrorCode::MethodNotAllowed, "pages are only read (GET)")
            .into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(response) = file(path) {
        return response;
    }
    let last = path.rsplit('/').next().unwrap_or("");
    if !last.contains('.')
        && let Some(response) = file("index.html")
    {
        return response;
    }
    ApiError::new(
        ErrorCode::NotFound,
        format!("there is no file {}", uri.path()),
    )
    .into_response()
}

fn file(path: &str) -> Option<Response> {
    let asset = Assets::get(path)?;
    let mime = asset.metadata.mimetype().to_string();
    let cache = if path == "index.html" {
        "no-cache"
    } else {
        "public, max-age=300"
    };
    let mut response = asset.data.into_owned().into_response();
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&mime) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(response)
}
