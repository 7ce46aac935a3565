//! The accounts of the load tests: sign-up and the requests made with a session cookie.

use mabula_api::accounts::SessionView;
use serde_json::{Value, json};

/// Every load-test account's password.
pub(super) const PASSWORD: &str = "load test password";

/// A logged-in account: its session cookie and the CSRF token that goes with its requests.
#[derive(Clone)]
pub(super) struct Session {
    pub cookie: String,
    pub csrf: String,
}

/// Signs up `name` on `base`.
pub(super) async fn sign_up(
    client: &reqwest::Client,
    base: &str,
    name: &str,
) -> Result<Session, String> {
    let r = client
        .post(format!("{base}/api/accounts"))
        .json(&json!({"name": name, "password": PASSWORD}))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if r.status().as_u16() != 201 {
        return Err(format!("sign-up of {name} answered {}", r.status()));
    }
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or("")
        .to_string();
    let view: SessionView = r.json().await.map_err(|e| e.to_string())?;
    Ok(Session {
        cookie,
        csrf: view.csrf,
    })
}

/// A POST with `who`'s session.
pub(super) async fn post(
    client: &reqwest::Client,
    url: String,
    who: &Session,
    body: Value,
) -> Result<reqwest::Response, String> {
    client
        .post(url)
        .header("cookie", &who.cookie)
        .header("x-csrf-token", &who.csrf)
        .json(&body)
        .send()
        .await
        .map_err(|e| e.to_string())
}
