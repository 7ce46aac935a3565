//! The browser UI, embedded in the binary from `crates/mabula-server/assets/` (read from disk in
//! debug builds, so the page can be edited without rebuilding). Client routes such as
//! `/game/{id}` get `index.html`, so the page can route itself.
//!
//! Caching: every file has a version, the first hex digits of its SHA-256. `index.html` is sent
//! with an import map that sends each module to `/js/….js?v={version}`, and with its stylesheet
//! and scripts linked the same way; a request that names the current version is cached for a
//! year (`immutable`), any other (the page itself, `sw.js`, an old version) is revalidated with
//! its `ETag` each time, so a repeat visit costs one small `304` for the page and nothing else.
//! Responses are compressed (brotli or gzip, as the browser asks) by the router's layer.
//!
//! Scripts are sent without their comments ([`strip`]): the pages' JSDoc types and notes are for
//! `tsc` and their readers, not the browser. Each is stripped once (again in a debug build only
//! when its file changed), and its version is that of what is sent.

mod strip;

use crate::error::{ApiError, ErrorCode};
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The embedded files.
#[derive(rust_embed::Embed)]
#[folder = "assets/"]
struct Assets;

/// How long a versioned file may be kept: a year, the longest caches honour.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// The page, the service worker and unversioned requests: kept, but asked about each time.
const REVALIDATE: &str = "no-cache";
/// Where `index.html` wants its import map.
const IMPORT_MAP_MARK: &str = "<!-- importmap -->";
/// How many hex digits of the SHA-256 name a version.
const VERSION_LEN: usize = 12;

/// Serves an asset, `index.html` for client routes, or a JSON 404.
pub async fn serve(method: Method, uri: Uri, headers: HeaderMap) -> Response {
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
    let asked = uri.query().and_then(|q| {
        q.split('&')
            .find_map(|pair| pair.strip_prefix("v="))
            .map(str::to_owned)
    });
    if let Some(response) = file(path, asked.as_deref(), &headers) {
        return response;
    }
    let last = path.rsplit('/').next().unwrap_or("");
    if !last.contains('.')
        && let Some(response) = file("index.html", None, &headers)
    {
        return response;
    }
    ApiError::new(
        ErrorCode::NotFound,
        format!("there is no file {}", uri.path()),
    )
    .into_response()
}

/// A file's body, its version, and its media type.
struct Body {
    data: Bytes,
    version: String,
    mime: String,
    /// The page's Content-Security-Policy (`index.html` only).
    csp: Option<String>,
}

fn body(path: &str) -> Option<Body> {
    if path == "index.html" {
        let page = page();
        return Some(Body {
            data: Bytes::from(page.text.clone().into_bytes()),
            version: page.version.clone(),
            mime: "text/html; charset=utf-8".into(),
            csp: Some(page.csp.clone()),
        });
    }
    let asset = Assets::get(path)?;
    let mime = asset.metadata.mimetype().to_string();
    let (data, version) = sent(path, asset);
    Some(Body {
        data,
        version,
        mime,
        csp: None,
    })
}

/// What is sent of an embedded file, and its version: a script without its comments, any other
/// file as it is.
fn sent(path: &str, asset: rust_embed::EmbeddedFile) -> (Bytes, String) {
    let source = asset.metadata.sha256_hash();
    let bytes = |data: Cow<'static, [u8]>| match data {
        Cow::Borrowed(b) => Bytes::from_static(b),
        Cow::Owned(v) => Bytes::from(v),
    };
    if !path.ends_with(".js") {
        return (bytes(asset.data), hex(&source));
    }
    static STRIPPED: OnceLock<Mutex<HashMap<String, Stripped>>> = OnceLock::new();
    let cache = STRIPPED.get_or_init(Mutex::default);
    if let Some(done) = cache.lock().ok().and_then(|c| {
        c.get(path)
            .filter(|s| s.source == source)
            .map(|s| (s.data.clone(), s.version.clone()))
    }) {
        return done;
    }
    let Ok(text) = std::str::from_utf8(&asset.data) else {
        return (bytes(asset.data), hex(&source));
    };
    let data = Bytes::from(strip::strip_comments(text).into_bytes());
    let version = {
        use sha2::Digest;
        hex(&sha2::Sha256::digest(&data))
    };
    if let Ok(mut c) = cache.lock() {
        let entry = Stripped {
            source,
            data: data.clone(),
            version: version.clone(),
        };
        c.insert(path.to_owned(), entry);
    }
    (data, version)
}

/// A script stripped of its comments, and the SHA-256 of the file it was stripped from.
struct Stripped {
    source: [u8; 32],
    data: Bytes,
    version: String,
}

fn file(path: &str, asked: Option<&str>, headers: &HeaderMap) -> Option<Response> {
    let body = body(path)?;
    let etag = format!("W/\"{}\"", body.version);
    let cache = if asked == Some(body.version.as_str()) && path != "index.html" {
        IMMUTABLE
    } else {
        REVALIDATE
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|tag| tag.trim() == etag || tag.trim() == "*")
        });
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.data.into_response()
    };
    let out = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&body.mime) {
        out.insert(header::CONTENT_TYPE, v);
    }
    if let Ok(v) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, v);
    }
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Some(v) = body.csp.and_then(|p| HeaderValue::from_str(&p).ok()) {
        out.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    if path == "sw.js" {
        // The service worker may control every page, not only those under /.
        out.insert("service-worker-allowed", HeaderValue::from_static("/"));
    }
    Some(response)
}

#[derive(Clone)]
/// `index.html` with every asset it links versioned and the import map of all modules.
struct Page {
    text: String,
    version: String,
    /// Its Content-Security-Policy: its own inline scripts (by hash) and this site's files only.
    csp: String,
}

fn page() -> Cow<'static, Page> {
    static PAGE: OnceLock<Page> = OnceLock::new();
    if cfg!(debug_assertions) {
        // Files are read from disk in debug builds: build the page each time.
        return Cow::Owned(build_page());
    }
    Cow::Borrowed(PAGE.get_or_init(build_page))
}

fn build_page() -> Page {
    let raw = Assets::get("index.html")
        .map(|a| a.data)
        .unwrap_or_default();
    let mut text = String::from_utf8_lossy(&raw).into_owned();
    let mut map = serde_json::Map::new();
    let mut files: Vec<(String, String)> = Assets::iter()
        .filter(|p| p != "index.html")
        .filter_map(|p| {
            let (_, version) = sent(&p, Assets::get(&p)?);
            Some((p.into_owned(), version))
        })
        .collect();
    files.sort();
    for (path, version) in &files {
        let url = format!("/{path}?v={version}");
        let quoted = format!("\"/{path}\"");
        text = text.replace(&quoted, &format!("\"{url}\""));
        if path.ends_with(".js") && path != "sw.js" {
            map.insert(format!("/{path}"), serde_json::Value::String(url));
        }
    }
    let imports = serde_json::json!({ "imports": map });
    let script = format!("<script type=\"importmap\">{imports}</script>");
    text = text.replacen(IMPORT_MAP_MARK, &script, 1);
    let version = {
        use sha2::Digest;
        hex(&sha2::Sha256::digest(text.as_bytes()))
    };
    let csp = content_security_policy(&text);
    Page { text, version, csp }
}

/// The policy of page `text`: scripts only from this site and the page's own inline scripts
/// (the theme before the first paint, the import map), named by their SHA-256; inline style
/// attributes are allowed (the pages set a few); no plugins, no framing, no other base.
fn content_security_policy(text: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    let mut hashes = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("<script") {
        let after = &rest[open..];
        let Some(tag_end) = after.find('>') else {
            break;
        };
        let Some(close) = after.find("</script>") else {
            break;
        };
        if !after[..tag_end].contains(" src=") {
            let body = &after[tag_end + 1..close];
            let digest = sha2::Sha256::digest(body.as_bytes());
            let b64 = base64::engine::general_purpose::STANDARD.encode(digest);
            hashes.push_str(&format!(" 'sha256-{b64}'"));
        }
        rest = &after[close + "</script>".len()..];
    }
    format!(
        "default-src 'self'; script-src 'self'{hashes}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// The version of an asset (the start of its SHA-256 in hex), for links outside `index.html`.
pub fn version(path: &str) -> Option<String> {
    Assets::get(path).map(|a| sent(path, a).1)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(VERSION_LEN);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
        if out.len() >= VERSION_LEN {
            break;
        }
    }
    out.truncate(VERSION_LEN);
    out
}
