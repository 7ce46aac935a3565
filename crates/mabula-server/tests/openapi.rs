//! The OpenAPI document lists the statuses that the layers and extractors in front of every
//! handler can answer, so that a client (or Schemathesis, in `scripts/schemathesis.sh`) meets
//! no status the document does not name. The handlers' own statuses are checked by that script
//! against a running server; these checks need no server.

use mabula_server::api::docs::ApiDoc;
use serde_json::Value;
use utoipa::OpenApi;

/// Every operation of the document: method, path and the operation object.
fn operations() -> Vec<(String, String, Value)> {
    let doc = serde_json::to_value(ApiDoc::openapi()).expect("the document serializes");
    let paths = doc["paths"].as_object().expect("the document has paths");
    let mut ops = Vec::new();
    for (path, item) in paths {
        let item = item.as_object().expect("a path item is an object");
        for (method, op) in item {
            ops.push((method.clone(), path.clone(), op.clone()));
        }
    }
    assert!(ops.len() > 10, "only {} operations found", ops.len());
    ops
}

/// The statuses of `wanted` that the operation does not list.
fn missing(op: &Value, wanted: &[&str]) -> Vec<String> {
    wanted
        .iter()
        .filter(|s| op["responses"].get(**s).is_none())
        .map(|s| (*s).to_string())
        .collect()
}

#[test]
fn every_operation_that_takes_a_json_body_lists_the_answers_to_a_bad_body() {
    let mut checked = 0;
    for (method, path, op) in operations() {
        if op.get("requestBody").is_none() {
            continue;
        }
        checked += 1;
        let lacking = missing(&op, &["400", "413", "415"]);
        assert!(
            lacking.is_empty(),
            "{method} {path} does not list {lacking:?}"
        );
    }
    assert!(checked > 5, "only {checked} operations take a body");
}

#[test]
fn every_operation_on_a_game_id_lists_not_found() {
    let mut checked = 0;
    for (method, path, op) in operations() {
        if !path.contains("{id}") {
            continue;
        }
        checked += 1;
        let lacking = missing(&op, &["404"]);
        assert!(lacking.is_empty(), "{method} {path} does not list 404");
    }
    assert!(checked > 5, "only {checked} operations take a game id");
}

#[test]
fn every_operation_lists_the_rate_limit() {
    for (method, path, op) in operations() {
        if path == "/metrics" {
            // Outside the rate limit: a scraper must always get its answer.
            assert!(op["responses"].get("429").is_none(), "/metrics lists 429");
            continue;
        }
        let lacking = missing(&op, &["429"]);
        assert!(lacking.is_empty(), "{method} {path} does not list 429");
    }
}

#[test]
fn every_operation_has_its_own_id() {
    let mut seen = std::collections::BTreeMap::new();
    for (method, path, op) in operations() {
        let id = op["operationId"].as_str().expect("an operation has an id");
        if let Some(other) = seen.insert(id.to_string(), format!("{method} {path}")) {
            panic!("{method} {path} and {other} share the operation id {id}");
        }
    }
}
