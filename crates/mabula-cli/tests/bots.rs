//! Personal API tokens, bot accounts and the bot API (issue 38), over real HTTP on real
//! `mabula serve` processes: three instances on one PostgreSQL when `MABULA_TEST_POSTGRES_URL`
//! names a server, else one instance on SQLite (the same requests, each "instance" the same one).

use crate::common;

use common::player::Player;
use common::{Instance, Nodes};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn nodes() -> Nodes {
    common::nodes("bots.sqlite3").await
}

/// A program's view of the API: a personal token, no cookie.
#[derive(Clone)]
struct Program {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Program {
    fn new(base: &str, token: &str) -> Program {
        Program {
            http: reqwest::Client::new(),
            base: base.to_string(),
            token: token.to_string(),
        }
    }

    fn on(&self, base: &str) -> Program {
        Program {
            base: base.to_string(),
            ..self.clone()
        }
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.expect("answer");
        let status = r.status().as_u16();
        let text = r.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    /// Opens the newline-delimited JSON stream at `path`.
    async fn stream(&self, path: &str) -> Lines {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert_eq!(
            r.headers()["content-type"].to_str().ok(),
            Some("application/x-ndjson")
        );
        Lines {
            response: r,
            buffer: Vec::new(),
        }
    }

    /// Plays the first legal move of game `id` through the bot API.
    async fn play_first_legal(&self, id: &str) -> Value {
        let (_, state) = self.get(&format!("/api/games/{id}")).await;
        let mv = state["legal_moves"][0]["notation"]
            .as_str()
            .expect("a move")
            .to_string();
        let encoded: String = mv
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b == b'-' {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        let (status, after) = self
            .post(&format!("/api/bot/game/{id}/move/{encoded}"), json!({}))
            .await;
        assert_eq!(status, 200, "{mv}: {after}");
        after
    }
}

/// The lines of a stream.
struct Lines {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Lines {
    /// The next message (keep-alive lines skipped), within 20 s; `None` when the stream ends.
    async fn next(&mut self) -> Option<Value> {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(i) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                let text = String::from_utf8(line).expect("UTF-8");
                if text.trim().is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(&text).expect("a JSON line"));
            }
            let left = end.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await
                .expect("a line within 20 s");
            match chunk {
                Ok(Some(bytes)) => self.buffer.extend_from_slice(&bytes),
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// The next message whose `type` is `kind`, skipping others.
    async fn until(&mut self, kind: &str) -> Value {
        loop {
            let m = self.next().await.expect("the stream goes on");
            if m["type"] == kind {
                return m;
            }
        }
    }

    /// The next `game_state` with `done`.
    async fn state_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.until("game_state").await;
            if done(&m) {
                return m;
            }
        }
    }
}

/// A new token of `p` with `scopes`: its id and secret.
async fn token(p: &Player, description: &str, scopes: &[&str]) -> (String, String) {
    let (status, body) = p
        .post(
            "/api/account/tokens",
            json!({"description": description, "scopes": scopes}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    (
        body["id"].as_str().expect("an id").to_string(),
        body["token"].as_str().expect("a token").to_string(),
    )
}

/// The code of an error answer.
fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_token_acts_without_csrf_never_on_cookie_pages_and_dies_at_once_everywhere() {
    let n = nodes().await;
    let alice = Player::sign_up(&n.bases[0], "tokalice").await;
    let (id, secret) = token(&alice, "my program", &["challenge:write"]).await;
    assert!(secret.starts_with("mbp_"), "{secret}");

    // Listed without its secret.
    let (status, list) = alice.get("/api/account/tokens").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["tokens"][0]["id"], id.as_str());
    assert_eq!(list["tokens"][0]["scopes"], json!(["challenge:write"]));
    assert!(!list.to_string().contains(&secret[4..]), "{list}");

    // Bad tokens are refused with clear codes.
    let (status, body) = alice
        .post(
            "/api/account/tokens",
            json!({"description": "", "scopes": ["bot:play"]}),
        )
        .await;
    assert_eq!((status, code(&body)), (422, "invalid_token"), "{body}");
    let (status, body) = alice
        .post(
            "/api/account/tokens",
            json!({"description": "x", "scopes": ["root"]}),
        )
        .await;
    assert_eq!((status, code(&body)), (422, "invalid_token"), "{body}");

    // Used on another instance, with no cookie and no CSRF token: a seek is opened as alice.
    let prog = Program::new(&n.bases[1], &secret);
    let (status, seek) = prog
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, who) = prog.get("/api/session").await;
    assert_eq!(status, 200, "{who}");
    assert_eq!(who["name"], "tokalice");

    // The cookie pages refuse it, reads and writes alike.
    for (method, path) in [
        (reqwest::Method::GET, "/api/account/tokens"),
        (reqwest::Method::POST, "/api/account/tokens"),
        (reqwest::Method::GET, "/api/account/sessions"),
        (reqwest::Method::POST, "/api/account/password"),
        (reqwest::Method::DELETE, "/api/account"),
        (reqwest::Method::GET, "/api/account/export"),
        (reqwest::Method::DELETE, "/api/sessions"),
    ] {
        let body = (method != reqwest::Method::GET).then(|| json!({}));
        let (status, answer) = prog.send(method.clone(), path, body).await;
        assert_eq!(
            (status, code(&answer)),
            (403, "token_not_allowed"),
            "{method} {path}: {answer}"
        );
    }
    // Outside its scopes: the bot API's game endpoints.
    let (status, answer) = prog.post("/api/bot/account/upgrade", json!({})).await;
    assert_eq!(
        (status, code(&answer)),
        (403, "token_not_allowed"),
        "{answer}"
    );

    // Its last use is kept (to the minute).
    let (_, list) = alice.on(&n.bases[2]).get("/api/account/tokens").await;
    let used = list["tokens"][0]["used_at"].as_i64().expect("a last use");
    assert_eq!(used % 60_000, 0, "{list}");

    // Revoked on the first instance: refused at once on the others.
    assert_eq!(
        alice.delete(&format!("/api/account/tokens/{id}")).await,
        204
    );
    for base in &n.bases {
        let (status, answer) = prog.on(base).get("/api/session").await;
        assert_eq!((status, code(&answer)), (403, "token_invalid"), "{answer}");
    }
    assert_eq!(
        alice.delete(&format!("/api/account/tokens/{id}")).await,
        404
    );
    let (_, list) = alice.get("/api/account/tokens").await;
    assert_eq!(list["tokens"], json!([]));

    // A token that plays the account's games still cannot write in their chat: chat is the
    // person's, never a program's.
    let bob = Player::sign_up(&n.bases[2], "tokbob").await;
    // A new account keeps one seek open to everyone: the token's goes first.
    let seek = seek["id"].as_str().expect("an id");
    assert_eq!(alice.delete(&format!("/api/seeks/{seek}")).await, 204);
    let game = game_between(&alice, &bob).await;
    let (_, player) = token(&alice, "my engine", &["bot:play", "board:play"]).await;
    let player = Program::new(&n.bases[1], &player);
    let (status, answer) = player
        .post(&format!("/api/games/{game}/chat"), json!({"text": "gg"}))
        .await;
    assert_eq!(
        (status, code(&answer)),
        (403, "token_not_allowed"),
        "{answer}"
    );
    let (status, answer) = player.get(&format!("/api/games/{game}/chat")).await;
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn an_account_holds_at_most_twenty_tokens() {
    let n = nodes().await;
    let p = Player::sign_up(&n.bases[0], "manytokens").await;
    for i in 0..20 {
        token(&p, &format!("t{i}"), &["board:play"]).await;
    }
    let (status, body) = p
        .post(
            "/api/account/tokens",
            json!({"description": "one more", "scopes": ["board:play"]}),
        )
        .await;
    assert_eq!((status, code(&body)), (409, "too_many_tokens"), "{body}");
}

/// The close code the server ends `socket` with (the server closes it, not this side).
async fn closed_by_server(socket: &mut common::player::Lobby) -> u16 {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), socket.ws.next())
            .await
            .expect("the server's close within 20 s");
        match msg {
            Some(Ok(Message::Close(frame))) => return frame.map_or(0, |f| f.code.into()),
            None | Some(Err(_)) => return 0,
            Some(Ok(_)) => {}
        }
    }
}

/// Reads `lines` to their end; panics if they do not end within 20 s.
async fn ended(lines: &mut Lines) {
    while lines.next().await.is_some() {}
}

/// Every live channel of a session or token ends as soon as it does, whichever instance ended
/// it (issue 51): a revoked token's stream; then, at a password change, the account's other
/// tokens and the other session's lobby socket, game socket and event stream, each on its own
/// instance. The session that changed the password keeps its socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ending_a_session_or_a_token_closes_its_sockets_and_streams_on_every_instance() {
    let n = nodes().await;
    let laptop = Player::sign_up(&n.bases[0], "endfern").await;
    let mut phone = Player::guest(&n.bases[1]);
    let (status, _) = phone
        .start_session(
            "/api/session",
            json!({"name": "endfern", "password": common::player::PASSWORD}),
        )
        .await;
    assert_eq!(status, 200);
    let foe = Player::sign_up(&n.bases[2], "endfoe").await;
    let game = game_between(&laptop, &foe).await;

    // A token revoked on instance 0 ends its stream on instance 1.
    let (id, secret) = token(&laptop, "first", &["board:play"]).await;
    let mut first = Program::new(&n.bases[1], &secret)
        .stream("/api/stream/event")
        .await;
    assert_eq!(first.until("game_start").await["game"]["id"], game.as_str());
    assert_eq!(
        laptop.delete(&format!("/api/account/tokens/{id}")).await,
        204
    );
    ended(&mut first).await;

    // Another token, and the phone's channels, each on an instance of its own.
    let (_, secret) = token(&laptop, "second", &["board:play"]).await;
    let program = Program::new(&n.bases[2], &secret);
    let mut second = program.stream("/api/stream/event").await;
    second.until("game_start").await;
    let mut phone_lobby = phone.on(&n.bases[2]).lobby().await;
    phone_lobby.until("seeks").await;
    let mut phone_game = phone.socket(&format!("/api/games/{game}/ws")).await;
    let r = phone
        .http
        .get(format!("{}/api/stream/event", n.bases[0]))
        .header("cookie", phone.cookie.clone().expect("a cookie"))
        .send()
        .await
        .expect("answer");
    assert_eq!(r.status().as_u16(), 200);
    let mut phone_stream = Lines {
        response: r,
        buffer: Vec::new(),
    };
    phone_stream.until("game_start").await;
    let mut laptop_lobby = laptop.on(&n.bases[1]).lobby().await;
    laptop_lobby.until("seeks").await;

    let (status, body) = laptop
        .post(
            "/api/account/password",
            json!({"current": common::player::PASSWORD, "new": "another long secret"}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(closed_by_server(&mut phone_lobby).await, 1008);
    assert_eq!(closed_by_server(&mut phone_game).await, 1008);
    ended(&mut phone_stream).await;
    ended(&mut second).await;
    let (status, body) = program.get("/api/session").await;
    assert_eq!((status, code(&body)), (403, "token_invalid"), "{body}");
    // The laptop's own socket still hears the lobby.
    let (status, seek) = foe
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    laptop_lobby
        .changes_until(|c| {
            c["added"]
                .to_string()
                .contains(seek["id"].as_str().unwrap_or("?"))
        })
        .await;
}

/// A correspondence game of `white` (who seeks) against `black` (who accepts); its id.
async fn game_between(white: &Player, black: &Player) -> String {
    let (status, seek) = white
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "color": "white"}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_str().expect("an id");
    let (status, started) = black
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    started["game_id"].as_str().expect("a game").to_string()
}

/// A new account made a bot with a `bot:play` token on instance `base`: its player (cookie)
/// and its program (token).
async fn new_bot(base: &str, name: &str) -> (Player, Program) {
    let p = Player::sign_up(base, name).await;
    let (_, secret) = token(&p, "engine", &["bot:play"]).await;
    let prog = Program::new(base, &secret);
    let (status, body) = prog.post("/api/bot/account/upgrade", json!({})).await;
    assert_eq!(status, 204, "{body}");
    (p, prog)
}

#[tokio::test]
async fn only_an_account_without_games_becomes_a_bot_and_bots_are_marked() {
    let n = nodes().await;
    let ann = Player::sign_up(&n.bases[0], "botann").await;
    let ben = Player::sign_up(&n.bases[1], "botben").await;
    game_between(&ann, &ben).await;
    let (_, secret) = token(&ann, "engine", &["bot:play"]).await;
    let (status, body) = Program::new(&n.bases[2], &secret)
        .post("/api/bot/account/upgrade", json!({}))
        .await;
    assert_eq!((status, code(&body)), (409, "account_has_games"), "{body}");
    let (_, profile) = ben.get("/api/players/botann").await;
    assert_eq!(profile["bot"], false, "{profile}");

    let (bot_cookie, bot) = new_bot(&n.bases[1], "robocop").await;
    let (_, profile) = ben.get("/api/players/robocop").await;
    assert_eq!(profile["bot"], true, "{profile}");
    // Its cookie cannot use the lobby: the API only.
    let (status, body) = bot_cookie
        .post("/api/seeks", json!({"scoring": "largest", "days": 2}))
        .await;
    assert_eq!((status, code(&body)), (403, "bot_not_allowed"), "{body}");
    // A seek that does not want bots cannot be taken by one; a bot's seek is marked.
    let (status, seek) = ben
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "bots": false}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let seek_id = seek["id"].as_str().expect("an id");
    let (status, body) = bot
        .on(&n.bases[2])
        .post(&format!("/api/seeks/{seek_id}/accept"), json!({}))
        .await;
    assert_eq!((status, code(&body)), (403, "bot_not_allowed"), "{body}");
    let (status, seek) = bot
        .post("/api/seeks", json!({"scoring": "product", "days": 3}))
        .await;
    assert_eq!(status, 201, "{seek}");
    let (_, list) = ann.on(&n.bases[2]).get("/api/seeks").await;
    let seeks = list["seeks"].as_array().expect("seeks");
    let of = |name: &str| seeks.iter().find(|s| s["name"] == name).cloned();
    assert_eq!(
        of("robocop").map(|s| s["bot"].clone()),
        Some(json!(true)),
        "{list}"
    );
    assert_eq!(
        of("botben").map(|s| s["bots"].clone()),
        Some(json!(false)),
        "{list}"
    );
}

/// A rated real-time challenge of `from` (White) to `to`; its id.
async fn challenge(from: &Player, to: &str) -> String {
    let (status, seek) = from
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": true, "color": "white", "to": to,
                   "clock": {"initial_s": 180, "increment_s": 2}}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    seek["id"].as_str().expect("an id").to_string()
}

/// The number of moves in a bot game message.
fn moves(m: &Value) -> usize {
    let state = if m["type"] == "game_full" {
        &m["state"]
    } else {
        m
    };
    state["moves"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn a_bot_hears_a_challenge_from_another_instance_and_plays_a_rated_game_to_the_end() {
    let n = nodes().await;
    let (bot_cookie, bot) = new_bot(&n.bases[0], "streambot").await;
    let mut events = bot.stream("/api/stream/event").await;
    let carl = Player::sign_up(&n.bases[1], "carlhuman").await;
    let challenge_id = challenge(&carl, "streambot").await;

    // Heard on instance 1, made on instance 2.
    let ev = events.until("challenge").await;
    assert_eq!(ev["challenge"]["id"], challenge_id.as_str(), "{ev}");
    assert_eq!(ev["challenge"]["name"], "carlhuman", "{ev}");
    let (status, started) = bot
        .on(&n.bases[1])
        .post(&format!("/api/seeks/{challenge_id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = started["game_id"].as_str().expect("a game").to_string();
    let ev = events.until("game_start").await;
    assert_eq!(ev["game"]["id"], game.as_str(), "{ev}");
    assert_eq!(ev["game"]["color"], "black", "{ev}");
    assert_eq!(ev["game"]["rated"], true, "{ev}");
    assert_eq!(ev["game"]["opponent"]["name"], "carlhuman", "{ev}");
    assert_eq!(ev["game"]["opponent"]["bot"], false, "{ev}");

    // The game over its stream on instance 3.
    let on3 = bot.on(&n.bases[2]);
    let mut stream = on3.stream(&format!("/api/bot/game/stream/{game}")).await;
    let full = stream.next().await.expect("game_full");
    assert_eq!(full["type"], "game_full", "{full}");
    assert_eq!(full["white"]["name"], "carlhuman", "{full}");
    assert_eq!(full["black"]["bot"], true, "{full}");
    assert_eq!(full["rated"], true, "{full}");
    assert!(full["state"]["white_ms"].as_i64().is_some(), "{full}");
    // The bot's cookie cannot play its games: the API only.
    carl.play_first_legal(&game).await;
    let (_, state) = bot_cookie.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["players"]["black"]["bot"], true, "{state}");
    assert_eq!(state["players"]["white"]["bot"], false, "{state}");
    let mv = state["legal_moves"][0]["notation"].clone();
    let (status, body) = bot_cookie
        .post(
            &format!("/api/games/{game}/moves"),
            json!({"move": mv, "number": 2}),
        )
        .await;
    assert_eq!((status, code(&body)), (401, "token_missing"), "{body}");
    stream.state_until(|m| moves(m) == 1).await;
    on3.play_first_legal(&game).await;
    stream.state_until(|m| moves(m) == 2).await;
    for round in 1..4 {
        carl.play_first_legal(&game).await;
        stream.state_until(|m| moves(m) == 2 * round + 1).await;
        on3.play_first_legal(&game).await;
        stream.state_until(|m| moves(m) == 2 * round + 2).await;
    }
    // A draw offered by the bot stands in its state; the person resigns.
    let (status, body) = on3
        .post(&format!("/api/bot/game/{game}/draw"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    stream.state_until(|m| m["draw_offer"] == "black").await;
    let (status, body) = carl
        .post(&format!("/api/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let last = stream.state_until(|m| m["status"] == "over").await;
    assert_eq!(last["result"], "0-1", "{last}");
    assert!(
        stream.next().await.is_none(),
        "the stream ends with the game"
    );
    let ev = events.until("game_finish").await;
    assert_eq!(ev["game"]["id"], game.as_str(), "{ev}");

    // Rated on the same scale as people.
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, p) = carl.get("/api/players/streambot").await;
        if p["ratings"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["games"] == 1))
        {
            break;
        }
        assert!(Instant::now() < end, "never rated: {p}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, list) = carl.get("/api/bots").await;
    let me = list["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .find(|b| b["name"] == "streambot")
        .cloned();
    assert_eq!(me.map(|b| b["online"].clone()), Some(json!(true)), "{list}");
}

#[tokio::test]
async fn a_cut_event_stream_reopened_misses_nothing_and_a_killed_instance_is_survived() {
    let mut n = nodes().await;
    let (_, bot) = new_bot(&n.bases[0], "resumebot").await;
    let dana = Player::sign_up(&n.bases[1], "danahuman").await;
    let mut events = bot.stream("/api/stream/event").await;
    let first = challenge(&dana, "resumebot").await;
    assert_eq!(
        events.until("challenge").await["challenge"]["id"],
        first.as_str()
    );
    drop(events);

    // Meanwhile: the challenge accepted (a game starts) and another made.
    let (status, started) = bot
        .on(&n.bases[2])
        .post(&format!("/api/seeks/{first}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = started["game_id"].as_str().expect("a game").to_string();
    let eve = Player::sign_up(&n.bases[2], "evehuman").await;
    let second = challenge(&eve, "resumebot").await;

    let mut events = bot.on(&n.bases[1]).stream("/api/stream/event").await;
    let a = events.next().await.expect("a line");
    let b = events.next().await.expect("a line");
    let mut kinds = [a["type"].clone(), b["type"].clone()];
    kinds.sort_by_key(|k| k.to_string());
    assert_eq!(kinds, [json!("challenge"), json!("game_start")], "{a} {b}");
    for m in [&a, &b] {
        if m["type"] == "challenge" {
            assert_eq!(m["challenge"]["id"], second.as_str());
        } else {
            assert_eq!(m["game"]["id"], game.as_str());
        }
    }
    // Declined by the bot: gone from its stream as canceled.
    assert_eq!(
        bot.send(
            reqwest::Method::DELETE,
            &format!("/api/seeks/{second}"),
            None
        )
        .await
        .0,
        204
    );
    assert_eq!(
        events.until("challenge_canceled").await["id"],
        second.as_str()
    );
    // A challenge the bot makes, declined by the person on another instance: the bot hears it.
    let (status, mine) = bot
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "to": "danahuman"}),
        )
        .await;
    assert_eq!(status, 201, "{mine}");
    let mine = mine["id"].as_str().expect("an id").to_string();
    assert_eq!(dana.delete(&format!("/api/seeks/{mine}")).await, 204);
    let declined = events.until("challenge_declined").await;
    assert_eq!(declined["id"], mine.as_str(), "{declined}");

    // The game stream's instance dies under it (three instances only): the bot goes on
    // through another.
    let last = n.bases.len() - 1;
    let on = bot.on(&n.bases[last]);
    let mut stream = on.stream(&format!("/api/bot/game/stream/{game}")).await;
    assert_eq!(stream.next().await.expect("game_full")["type"], "game_full");
    dana.play_first_legal(&game).await;
    stream.state_until(|m| moves(m) == 1).await;
    if n.nodes.len() == 3 {
        n.nodes[2].kill();
        assert!(
            stream.next().await.is_none(),
            "the stream ends with its instance"
        );
        let on = bot.on(&n.bases[0]);
        let mut stream = on.stream(&format!("/api/bot/game/stream/{game}")).await;
        let full = stream.next().await.expect("game_full");
        assert_eq!(moves(&full), 1, "{full}");
        on.play_first_legal(&game).await;
        stream.state_until(|m| moves(m) == 2).await;
        dana.play_first_legal(&game).await;
        stream.state_until(|m| moves(m) == 3).await;
        on.play_first_legal(&game).await;
        stream.state_until(|m| moves(m) == 4).await;
    } else {
        on.play_first_legal(&game).await;
        stream.state_until(|m| moves(m) == 2).await;
    }
}

#[tokio::test]
async fn a_house_bot_answers_a_seek_and_a_challenge_once_and_moves_once() {
    let dir = tempfile::tempdir().expect("dir");
    let house = ["--house-bots", "2"];
    let nodes: Vec<Instance> = match std::env::var("MABULA_TEST_POSTGRES_URL") {
        Ok(url) => {
            let db = mabula_server::store::postgres::create_database(&url)
                .await
                .expect("a fresh database");
            (0..3)
                .map(|_| Instance::start_with(&db, 20, &house))
                .collect()
        }
        Err(_) => {
            let db = dir.path().join("house.sqlite3").display().to_string();
            vec![Instance::start_with(&db, 20, &house)]
        }
    };
    let bases: Vec<String> = (0..3)
        .map(|i| nodes[i % nodes.len()].client.base().to_string())
        .collect();
    let fay = Player::sign_up(&bases[1], "fayhuman").await;
    let (_, secret) = token(&fay, "events", &["challenge:write"]).await;
    let fay_events = Program::new(&bases[2], &secret);
    let mut events = fay_events.stream("/api/stream/event").await;

    // One seek a scoring mode, however many instances keep them.
    let end = Instant::now() + Duration::from_secs(20);
    let list = loop {
        let (_, list) = fay.get("/api/seeks").await;
        let house: Vec<Value> = list["seeks"]
            .as_array()
            .expect("seeks")
            .iter()
            .filter(|s| s["name"] == "house-level-2")
            .cloned()
            .collect();
        if house.len() >= 2 {
            break house;
        }
        assert!(Instant::now() < end, "no house seeks: {list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(list.len(), 2, "{list:?}");
    assert!(
        list.iter().all(|s| s["bot"] == true && s["label"] == "3+2"),
        "{list:?}"
    );
    let (_, bots) = fay.get("/api/bots").await;
    let me = bots["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .find(|b| b["name"] == "house-level-2")
        .cloned();
    assert_eq!(
        me.map(|b| (b["level"].clone(), b["online"].clone())),
        Some((json!(2), json!(true))),
        "{bots}"
    );

    // Fay takes the seek: one game, and the house bot's moves come one at a time.
    let seek = list[0]["id"].as_str().expect("an id");
    let (status, started) = fay
        .post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = started["game_id"].as_str().expect("a game").to_string();
    assert_eq!(
        events.until("game_start").await["game"]["id"],
        game.as_str()
    );
    let state_of = |body: &Value| -> (usize, Option<String>) {
        (
            body["moves"].as_array().map_or(0, Vec::len),
            body["to_move"].as_str().map(str::to_string),
        )
    };
    let (_, state) = fay.get(&format!("/api/games/{game}")).await;
    let mine = if state["players"]["white"]["name"] == "fayhuman" {
        "white"
    } else {
        "black"
    };
    for _ in 0..3 {
        // Wait for Fay's turn (the house bot moves first when it has White).
        let end = Instant::now() + Duration::from_secs(20);
        let state = loop {
            let (_, state) = fay.get(&format!("/api/games/{game}")).await;
            if state_of(&state).1.as_deref() == Some(mine) || state["status"] == "finished" {
                break state;
            }
            assert!(Instant::now() < end, "the house bot never moved: {state}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        if state["status"] == "finished" {
            break;
        }
        fay.play_first_legal(&game).await;
    }
    let (_, state) = fay.get(&format!("/api/games/{game}")).await;
    let sides: Vec<Value> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["side"].clone())
        .collect();
    for pair in sides.windows(2) {
        assert_ne!(pair[0], pair[1], "a side moved twice in a row: {sides:?}");
    }

    // A challenge to it is accepted once: one game starts.
    let (status, ch) = fay
        .post(
            "/api/seeks",
            json!({"scoring": "product", "rated": false, "to": "house-level-2",
                                    "clock": {"initial_s": 180, "increment_s": 2}}),
        )
        .await;
    assert_eq!(status, 201, "{ch}");
    let second = events.until("game_start").await;
    assert_ne!(second["game"]["id"], game.as_str(), "{second}");
    assert_eq!(second["game"]["opponent"]["bot"], true, "{second}");
    // The house seek taken is open again, still one a scoring mode.
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, list) = fay.on(&bases[0]).get("/api/seeks").await;
        let n = list["seeks"]
            .as_array()
            .expect("seeks")
            .iter()
            .filter(|s| s["name"] == "house-level-2")
            .count();
        assert!(n <= 2, "{list}");
        if n == 2 {
            break;
        }
        assert!(Instant::now() < end, "the seek never came back: {list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Its rating changes (as after rated games): its seek shows the new one, on every instance
    // and in every lobby socket (a seek never changes: the old one goes, a new one comes).
    // Issue 52: the seeks kept the rating of when they were first opened.
    let nodes = common::Nodes {
        nodes,
        dir,
        bases: bases.clone(),
    };
    nodes
        .sql(
            "INSERT INTO ratings (account, scoring, speed, rating, deviation, volatility, games, \
             updated_at) VALUES ('house-level-2', 'largest', 'realtime', 1777, 60, 0.06, 40, 0) \
             ON CONFLICT (account, scoring, speed) DO UPDATE SET rating = 1777, deviation = 60",
        )
        .await;
    let end = Instant::now() + Duration::from_secs(20);
    for base in &bases {
        loop {
            let (_, list) = fay.on(base).get("/api/seeks").await;
            let largest: Vec<&Value> = list["seeks"]
                .as_array()
                .expect("seeks")
                .iter()
                .filter(|s| s["name"] == "house-level-2" && s["scoring"] == "largest")
                .collect();
            if largest.len() == 1 && largest[0]["rating"] == 1777 {
                break;
            }
            assert!(largest.len() <= 1, "{list}");
            assert!(Instant::now() < end, "the seek kept its rating: {list}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// Polls `get` of `p` until `done` holds, for at most `limit`.
#[allow(dead_code)]
async fn until(p: &Program, path: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + limit;
    loop {
        let (_, body) = p.get(path).await;
        if done(&body) {
            return body;
        }
        assert!(
            Instant::now() < end,
            "{path} never became as expected: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_upgrade_racing_the_acceptance_of_the_accounts_seek_leaves_no_game_hiding_a_bot() {
    // Issue 51: the upgrade and the acceptance both succeeded, leaving a game whose bot said
    // `bot: false`. Now either the game comes first (and the upgrade is refused), or the upgrade
    // does (and the game knows the bot, or is refused and the seek stays).
    let n = nodes().await;
    let taker = Player::sign_up(&n.bases[0], "taker").await;
    let mut outcomes = std::collections::BTreeMap::new();
    for i in 0..20 {
        let name = format!("racer{i}");
        let racer = Player::guest_from(&n.bases[i % 3], &format!("127.0.1.{}", i / 5 + 1))
            .signed_up(&name)
            .await;
        let (_, secret) = token(&racer, "engine", &["bot:play"]).await;
        let program = Program::new(&n.bases[(i + 1) % 3], &secret);
        let (status, seek) = racer
            .post("/api/seeks", json!({"scoring": "largest", "days": 2}))
            .await;
        assert_eq!(status, 201, "{seek}");
        let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().expect("an id"));
        let taker_here = taker.on(&n.bases[(i + 2) % 3]);
        let ((accepted, game), (upgraded, why)) = tokio::join!(
            taker_here.post(&accept, json!({})),
            program.post("/api/bot/account/upgrade", json!({}))
        );
        let (_, profile) = taker.get(&format!("/api/players/{name}")).await;
        let bot = profile["bot"] == true;
        assert_eq!(bot, upgraded == 204, "{why}");
        match accepted {
            200 => {
                let id = game["game_id"].as_str().expect("a game");
                for base in &n.bases {
                    let (_, state) = taker.on(base).get(&format!("/api/games/{id}")).await;
                    let seat = ["white", "black"]
                        .into_iter()
                        .find(|c| state["players"][c]["name"] == name.as_str())
                        .unwrap_or_else(|| panic!("{state}"));
                    assert_eq!(state["players"][seat]["bot"], bot, "{state}");
                }
            }
            409 => assert_eq!((code(&game), bot), ("stale_state", true), "{game}"),
            other => panic!("{other}: {game}"),
        }
        if !bot {
            assert_eq!((upgraded, code(&why)), (409, "account_has_games"), "{why}");
        }
        *outcomes.entry((accepted, upgraded)).or_insert(0) += 1;
    }
    eprintln!("(accepted, upgraded) → rounds: {outcomes:?}");
}
