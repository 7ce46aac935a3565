//! A small JSON Schema checker for the tests of `--json` and of the analysis service: the
//! keywords the schemas in `tests/data/schemas` use.

use serde_json::Value;
use std::path::Path;

/// The schema `name` of `tests/data/schemas`.
pub fn schema(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/schemas")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("a schema");
    serde_json::from_str(&text).expect("a schema is JSON")
}

fn type_fits(name: &str, v: &Value) -> bool {
    match name {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        other => panic!("unknown type {other} in a schema"),
    }
}

/// The ways `v` breaks `s`, each with the path where.
pub fn violations(s: &Value, v: &Value, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(name) = s.get("$ref").and_then(Value::as_str) {
        return violations(&schema(name), v, at);
    }
    if let Some(options) = s.get("oneOf").and_then(Value::as_array) {
        let fitting = options
            .iter()
            .filter(|o| violations(o, v, at).is_empty())
            .count();
        if fitting != 1 {
            out.push(format!("{at}: fits {fitting} of the oneOf options: {v}"));
        }
        return out;
    }
    match s.get("type") {
        Some(Value::String(t)) if !type_fits(t, v) => out.push(format!("{at}: not {t}: {v}")),
        Some(Value::Array(ts)) if !ts.iter().any(|t| type_fits(t.as_str().unwrap_or(""), v)) => {
            out.push(format!("{at}: none of {ts:?}: {v}"))
        }
        _ => {}
    }
    if let Some(allowed) = s.get("enum").and_then(Value::as_array)
        && !allowed.contains(v)
    {
        out.push(format!("{at}: {v} is not one of {allowed:?}"));
    }
    if let Some(x) = v.as_f64() {
        if let Some(min) = s.get("minimum").and_then(Value::as_f64)
            && x < min
        {
            out.push(format!("{at}: {x} < {min}"));
        }
        if let Some(max) = s.get("maximum").and_then(Value::as_f64)
            && x > max
        {
            out.push(format!("{at}: {x} > {max}"));
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for name in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().unwrap_or("");
            if !obj.contains_key(name) {
                out.push(format!("{at}: no field {name}"));
            }
        }
        for (k, field) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => out.extend(violations(ps, field, &format!("{at}.{k}"))),
                None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    out.push(format!("{at}: field {k} is not in the schema"))
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(list)) = (s.get("items"), v.as_array()) {
        for (i, item) in list.iter().enumerate() {
            out.extend(violations(items, item, &format!("{at}[{i}]")));
        }
    }
    out
}
