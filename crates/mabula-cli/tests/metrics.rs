//! `GET /metrics` of a real `mabula serve`: the text parses by the rules of the Prometheus
//! (OpenMetrics) text format, its move counter grows by exactly the moves played, and the
//! request counter names the route template. Also `--log-format json`: every log line is a JSON
//! object.

use crate::common;

use common::Instance;
use mabula_server::model::Mode;
use mabula_server::view::{CreateGame, SeedInput};
use std::collections::{BTreeMap, HashMap};

/// One sample: its metric name and its labels, sorted.
type Series = (String, BTreeMap<String, String>);

/// A parsed exposition: each family's type, and every sample's value.
#[derive(Debug, Default)]
struct Exposition {
    types: HashMap<String, String>,
    samples: HashMap<Series, f64>,
}

impl Exposition {
    /// The value of the sample `name` with exactly `labels`.
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        let labels = labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self.samples.get(&(name.to_string(), labels)).copied()
    }
}

fn is_name(s: &str, first_ok: impl Fn(char) -> bool) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(first_ok)
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

fn is_metric_name(s: &str) -> bool {
    is_name(s, |c| c.is_ascii_alphabetic() || c == '_' || c == ':')
}

fn is_label_name(s: &str) -> bool {
    is_name(s, |c| c.is_ascii_alphabetic() || c == '_') && !s.contains(':')
}

/// Reads `{name="value",...}` at the start of `s`; answers the labels and the rest.
fn labels(s: &str) -> Result<(BTreeMap<String, String>, &str), String> {
    let mut out = BTreeMap::new();
    let Some(mut rest) = s.strip_prefix('{') else {
        return Ok((out, s));
    };
    loop {
        if let Some(after) = rest.strip_prefix('}') {
            return Ok((out, after));
        }
        let (name, after) = rest.split_once("=\"").ok_or("a label without =\"")?;
        if !is_label_name(name) {
            return Err(format!("bad label name {name:?}"));
        }
        let mut value = String::new();
        let mut chars = after.char_indices();
        let end = loop {
            match chars.next().ok_or("an unterminated label value")? {
                (i, '"') => break i,
                (_, '\\') => match chars.next().ok_or("a lone backslash")?.1 {
                    'n' => value.push('\n'),
                    c @ ('\\' | '"') => value.push(c),
                    c => return Err(format!("a bad escape \\{c}")),
                },
                (_, c) => value.push(c),
            }
        };
        if out.insert(name.to_string(), value).is_some() {
            return Err(format!("label {name} twice"));
        }
        rest = &after[end + 1..];
        rest = rest.strip_prefix(',').unwrap_or(rest);
    }
}

fn number(s: &str) -> Result<f64, String> {
    match s {
        "+Inf" => Ok(f64::INFINITY),
        "-Inf" => Ok(f64::NEG_INFINITY),
        "NaN" => Ok(f64::NAN),
        _ => s.parse().map_err(|_| format!("not a number: {s:?}")),
    }
}

/// The suffixes a sample of a family of type `kind` may add to the family's name.
fn suffixes(kind: &str) -> &'static [&'static str] {
    match kind {
        "counter" => &["_total", "_created"],
        "histogram" => &["_bucket", "_sum", "_count", "_created"],
        "summary" => &["", "_sum", "_count", "_created"],
        "info" => &["_info"],
        _ => &[""],
    }
}

/// Parses the OpenMetrics text format strictly: descriptors before their samples, each family
/// once, every sample of a declared family with a suffix its type allows, valid names, labels
/// and numbers, no sample twice, histogram buckets that never decrease and end at `+Inf` with
/// the count, and `# EOF` as the last line.
fn parse(text: &str) -> Result<Exposition, String> {
    let body = text
        .strip_suffix("# EOF\n")
        .ok_or("the text does not end with \"# EOF\"")?;
    let mut out = Exposition::default();
    let mut current: Option<String> = None;
    let mut seen = std::collections::HashSet::new();
    for (n, line) in body.lines().enumerate() {
        let at = |e: String| format!("line {}: {e}: {line:?}", n + 1);
        if let Some(descriptor) = line.strip_prefix("# ") {
            let mut words = descriptor.splitn(3, ' ');
            let (what, name) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            let rest = words.next().unwrap_or("");
            if !is_metric_name(name) {
                return Err(at("a bad family name".into()));
            }
            if current.as_deref() != Some(name) {
                if !seen.insert(name.to_string()) {
                    return Err(at("a family described twice".into()));
                }
                current = Some(name.to_string());
            }
            match what {
                "TYPE" => {
                    let known = [
                        "counter",
                        "gauge",
                        "histogram",
                        "gaugehistogram",
                        "summary",
                        "info",
                        "stateset",
                        "unknown",
                    ];
                    if !known.contains(&rest) {
                        return Err(at(format!("unknown type {rest:?}")));
                    }
                    out.types.insert(name.to_string(), rest.to_string());
                }
                "HELP" => {}
                "UNIT" => {
                    if !name.ends_with(&format!("_{rest}")) {
                        return Err(at("a unit the family's name does not end with".into()));
                    }
                }
                _ => return Err(at("an unknown descriptor".into())),
            }
            continue;
        }
        let name_end = line.find(['{', ' ']).ok_or_else(|| at("no value".into()))?;
        let name = &line[..name_end];
        let family = current
            .as_deref()
            .ok_or_else(|| at("a sample before any family".into()))?;
        let kind = out.types.get(family).map_or("unknown", String::as_str);
        let suffix = name
            .strip_prefix(family)
            .ok_or_else(|| at(format!("a sample outside its family {family}")))?;
        if !suffixes(kind).contains(&suffix) {
            return Err(at(format!("suffix {suffix:?} in a {kind}")));
        }
        let (labels, rest) = labels(&line[name_end..]).map_err(at)?;
        let value = rest
            .strip_prefix(' ')
            .ok_or_else(|| at("no space before the value".into()))?;
        // A timestamp may follow the value.
        let value = number(value.split(' ').next().unwrap_or("")).map_err(at)?;
        if (suffix == "_total" || suffix == "_count" || suffix == "_bucket") && value < 0.0 {
            return Err(at("a negative count".into()));
        }
        if out
            .samples
            .insert((name.to_string(), labels), value)
            .is_some()
        {
            return Err(at("a sample twice".into()));
        }
    }
    check_histograms(&out)?;
    Ok(out)
}

/// Each histogram's buckets never decrease and its `+Inf` bucket equals its count.
fn check_histograms(e: &Exposition) -> Result<(), String> {
    for (family, kind) in &e.types {
        if kind != "histogram" {
            continue;
        }
        let mut series: HashMap<BTreeMap<String, String>, Vec<(f64, f64)>> = HashMap::new();
        for ((name, labels), value) in &e.samples {
            if *name != format!("{family}_bucket") {
                continue;
            }
            let mut rest = labels.clone();
            let le = rest
                .remove("le")
                .ok_or(format!("a bucket of {family} without le"))?;
            series.entry(rest).or_default().push((number(&le)?, *value));
        }
        for (labels, mut buckets) in series {
            buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
            if buckets.windows(2).any(|w| w[1].1 < w[0].1) {
                return Err(format!("{family}{labels:?}: buckets decrease"));
            }
            let last = buckets.last().ok_or("no buckets")?;
            let count = e.samples.get(&(format!("{family}_count"), labels.clone()));
            if last.0 != f64::INFINITY || Some(&last.1) != count {
                return Err(format!(
                    "{family}{labels:?}: no +Inf bucket equal to the count"
                ));
            }
        }
    }
    Ok(())
}

async fn scrape(base: &str) -> Exposition {
    let response = reqwest::get(format!("{base}/metrics"))
        .await
        .expect("GET /metrics");
    assert_eq!(response.status(), 200);
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(
        kind.starts_with("application/openmetrics-text"),
        "content type {kind:?}"
    );
    let text = response.text().await.expect("the body");
    parse(&text).unwrap_or_else(|e| panic!("/metrics does not parse: {e}\n{text}"))
}

const MOVES_ROUTE: [(&str, &str); 3] = [
    ("method", "POST"),
    ("route", "/api/games/{id}/moves"),
    ("status", "2xx"),
];

#[test]
fn the_parser_refuses_what_the_format_forbids() {
    let good = "# TYPE a counter\na_total 1\n# TYPE b gauge\nb{x=\"1\"} 2\n# EOF\n";
    assert!(parse(good).is_ok());
    for bad in [
        "# TYPE a counter\na_total 1\n",
        "# TYPE a counter\na 1\n# EOF\n",
        "a_total 1\n# EOF\n",
        "# TYPE a counter\na_total one\n# EOF\n",
        "# TYPE a gauge\na{x=\"1} 2\n# EOF\n",
        "# TYPE a gauge\na 1\na 2\n# EOF\n",
        "# TYPE a gauge\n# TYPE b gauge\n# TYPE a gauge\n# EOF\n",
        "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n# EOF\n",
        "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 3\n# EOF\n",
    ] {
        assert!(parse(bad).is_err(), "{bad:?} was taken");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_counter_grows_by_exactly_the_moves_played() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("games.sqlite3");
    let server = Instance::start(&database.display().to_string(), 20);
    let base = server.client.base().to_string();
    let before = scrape(&base).await;
    let moves = |e: &Exposition| {
        e.value("mabula_moves_total", &[])
            .expect("the move counter")
    };
    let routed = |e: &Exposition| e.value("mabula_http_requests_total", &MOVES_ROUTE);

    let mut played = 0;
    for seed in 0..3u64 {
        let req = CreateGame {
            seed: Some(SeedInput::Number(seed)),
            ..CreateGame::new(Mode::Local)
        };
        let grant = server.client.create(&req).await.expect("create");
        let mut state = server
            .client
            .state(&grant.game_id, None)
            .await
            .expect("state");
        for _ in 0..7 {
            let mv = state.legal_moves[state.moves.len() % state.legal_moves.len()]
                .notation
                .clone();
            state = server
                .client
                .play(
                    &grant.game_id,
                    &grant.token,
                    &mv,
                    Some(state.moves.len() as u32 + 1),
                )
                .await
                .expect("the move is played");
            played += 1;
        }
    }
    // A refused move is no move.
    let refused = server
        .client
        .play("nosuchgame", "token", "a1-a2", Some(1))
        .await;
    assert!(refused.is_err());

    let after = scrape(&base).await;
    for family in [
        "mabula_moves",
        "mabula_http_requests",
        "mabula_http_request_duration_seconds",
        "mabula_games_in_memory",
        "mabula_websockets_open",
        "mabula_engine_queue_length",
        "mabula_engine_wait_seconds",
        "mabula_db_pool_connections",
        "mabula_db_query_duration_seconds",
        "mabula_notifications",
        "mabula_flags",
    ] {
        assert!(after.types.contains_key(family), "no family {family}");
    }
    assert_eq!(moves(&after) - moves(&before), f64::from(played));
    assert_eq!(
        routed(&after).unwrap_or(0.0) - routed(&before).unwrap_or(0.0),
        f64::from(played),
        "the moves are counted under their route template"
    );
    assert!(
        after
            .value(
                "mabula_http_request_duration_seconds_count",
                &MOVES_ROUTE[..2]
            )
            .is_some_and(|n| n >= f64::from(played)),
        "the moves are timed"
    );
    assert!(
        after.samples.keys().all(|(_, labels)| labels
            .get("route")
            .is_none_or(|r| !r.contains("nosuchgame"))),
        "no raw path is a label"
    );
    assert!(after.value("mabula_games_in_memory", &[]) >= Some(3.0));
    assert_eq!(after.value("mabula_database_up", &[]), Some(1.0));
    assert!(
        after.value(
            "mabula_db_query_duration_seconds_count",
            &[("query", "write")]
        ) >= Some(f64::from(played))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_one_object_a_line() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("games.sqlite3");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .args(["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
        .arg("--database")
        .arg(&database)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mabula serve");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the address line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    // Once it answers, it has logged its start; a graceful stop logs its end.
    reqwest::get(format!("{url}/healthz"))
        .await
        .expect("the server answers");
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(child.wait().expect("exit").success());
    let stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut lines = 0;
    for line in stderr.lines() {
        let line = line.expect("a line");
        let value: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(
            value["level"].is_string() && value["timestamp"].is_string(),
            "{line}"
        );
        lines += 1;
    }
    assert!(lines >= 2, "the server logged its start and its stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_animated_picture_is_drawn_once_however_often_it_is_asked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("games.sqlite3");
    let server = Instance::start(&database.display().to_string(), 20);
    let base = server.client.base().to_string();
    let grant = server
        .client
        .create(&CreateGame {
            seed: Some(SeedInput::Number(7)),
            ..CreateGame::new(Mode::Local)
        })
        .await
        .expect("create");
    let state = server
        .client
        .state(&grant.game_id, None)
        .await
        .expect("state");
    let mv = state.legal_moves[0].notation.clone();
    server
        .client
        .play(&grant.game_id, &grant.token, &mv, Some(1))
        .await
        .expect("a move");
    let drawn = |e: &Exposition| e.value("mabula_pictures_drawn_total", &[]).unwrap_or(0.0);
    let before = drawn(&scrape(&base).await);

    // Five at once, then five more: one drawing, the same bytes each time.
    let url = format!("{base}/api/games/{}/image?format=apng", grant.game_id);
    let http = reqwest::Client::new();
    let mut pictures = Vec::new();
    for _ in 0..2 {
        let asks = (0..5).map(|_| async {
            let r = http.get(&url).send().await.expect("GET");
            assert_eq!(r.status(), 200);
            r.bytes().await.expect("the picture")
        });
        pictures.extend(futures_util::future::join_all(asks).await);
    }
    assert!(pictures.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(drawn(&scrape(&base).await) - before, 1.0);

    // Another move is another picture.
    let next = server
        .client
        .state(&grant.game_id, None)
        .await
        .expect("state")
        .legal_moves[0]
        .notation
        .clone();
    server
        .client
        .play(&grant.game_id, &grant.token, &next, Some(2))
        .await
        .expect("a move");
    let r = http.get(&url).send().await.expect("GET");
    assert_eq!(r.status(), 200);
    assert_ne!(r.bytes().await.expect("the picture"), pictures[0]);
    assert_eq!(drawn(&scrape(&base).await) - before, 2.0);
}
