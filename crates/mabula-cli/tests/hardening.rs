//! The second round of hardening (issue 51), over real sockets on real `mabula serve` processes:
//! three instances on one PostgreSQL database when `MABULA_TEST_POSTGRES_URL` names one, else one
//! instance on SQLite.

use crate::common;

use common::player::Player;
use serde_json::json;

/// Every operation of the OpenAPI document whose path names something (`{id}`, `{name}`...),
/// asked with a NUL in that name by a logged-in player: a clear answer, never a 5xx (PostgreSQL
/// refuses a NUL in a text, and that refusal reached the players as a 500 on eight routes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_in_a_path_is_not_found_on_every_route() {
    let nodes = common::nodes("nul.db").await;
    let player = Player::sign_up(&nodes.bases[0], "nulpath").await;
    let (status, doc) = player.get("/api/openapi.json").await;
    assert_eq!(status, 200);
    let mut asked = 0;
    for (path, ops) in doc["paths"].as_object().expect("paths") {
        if !path.contains('{') || path.ends_with("/ws") || path.contains("/stream/") {
            continue;
        }
        let concrete: String = path
            .split('/')
            .map(|part| if part.starts_with('{') { "a%00b" } else { part })
            .collect::<Vec<_>>()
            .join("/");
        for method in ops.as_object().expect("operations").keys() {
            let method = match method.as_str() {
                "get" => reqwest::Method::GET,
                "post" => reqwest::Method::POST,
                "delete" => reqwest::Method::DELETE,
                _ => continue,
            };
            let body = (method == reqwest::Method::POST).then(|| json!({}));
            for base in &nodes.bases {
                let (status, answer) = player
                    .on(base)
                    .send(method.clone(), &concrete, body.clone(), true)
                    .await;
                assert!(status < 500, "{method} {concrete}: {status} {answer}");
                assert!(answer.is_object(), "{method} {concrete}: {status} {answer}");
                asked += 1;
            }
        }
    }
    assert!(asked > 40, "{asked}");
}
