//! Chat, blocks, reports and moderation over real HTTP and WebSocket, on three `mabula serve`
//! processes sharing one PostgreSQL (named by `MABULA_TEST_POSTGRES_URL`; without it these tests
//! say so and pass): a chat line said on one instance reaches a spectator on another, the
//! players' room stays the players', the spectators' room reaches the players only once the game
//! is over, guests, long lines and floods are refused; a blocked
//! player's challenge and chat are refused; a moderator reads a report, mutes, and closes an
//! account whose seek then leaves another player's lobby on another instance, and which can no
//! longer log in; and `mabula admin` on the same database. One test runs on SQLite, with
//! `mabula admin` between two runs of the server.

use crate::common;

use common::Instance;
use common::player::{Lobby, PASSWORD, Player};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::process::Command;
use tokio_tungstenite::tungstenite::Message;

/// Three instances on a fresh PostgreSQL database, and its URL.
async fn cluster() -> Option<(String, Vec<Instance>)> {
    let Ok(url) = std::env::var("MABULA_TEST_POSTGRES_URL") else {
        eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: the chat tests are skipped");
        return None;
    };
    let db = mabula_server::store::postgres::create_database(&url)
        .await
        .expect("a fresh database");
    let nodes = (0..3).map(|_| Instance::start(&db, 20)).collect();
    Some((db, nodes))
}

/// A correspondence game between two accounts: `white` challenges `black`, who accepts.
async fn game_between(white: &Player, black: &Player, black_name: &str) -> String {
    let (status, seek) = white
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": false, "days": 3, "color": "white", "to": black_name}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let (status, started) = black
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    started["game_id"].as_str().expect("a game id").to_string()
}

/// The game's socket for `p`, after its `sync`.
async fn game_socket(p: &Player, id: &str) -> Lobby {
    let mut ws = p.socket(&format!("/api/games/{id}/ws")).await;
    ws.ws
        .send(Message::Text(r#"{"type":"hello"}"#.into()))
        .await
        .expect("hello sent");
    ws.until("sync").await;
    ws
}

fn say(text: &str) -> Value {
    json!({ "text": text })
}

/// Runs `mabula admin ARGS --database DB`: its status, stdout and stderr.
fn admin(db: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mabula"))
        .arg("admin")
        .args(args)
        .args(["--database", db])
        .output()
        .expect("mabula admin runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_line_said_on_one_instance_reaches_a_spectator_on_another_and_bad_lines_are_refused()
{
    let Some((_db, nodes)) = cluster().await else {
        return;
    };
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let alice = Player::sign_up(&bases[0], "alice").await;
    let bob = Player::sign_up(&bases[1], "bob").await;
    let carol = Player::sign_up(&bases[2], "carol").await;
    let id = game_between(&alice, &bob, "bob").await;

    let mut bob_ws = game_socket(&bob, &id).await;
    let mut carol_ws = game_socket(&carol, &id).await;
    let guest = Player::guest(&bases[0]);
    let mut guest_ws = game_socket(&guest, &id).await;

    // A player's line goes to the players' room by default, and to the seats only.
    let (status, line) = alice
        .post(&format!("/api/games/{id}/chat"), say("  good luck  "))
        .await;
    assert_eq!(status, 201, "{line}");
    assert_eq!(
        (line["room"].as_str(), line["text"].as_str()),
        (Some("players"), Some("good luck"))
    );
    let got = bob_ws.until("chat").await;
    assert_eq!(got["line"]["text"], "good luck");
    assert_eq!(got["line"]["name"], "alice");
    assert_eq!(got["line"]["side"], "white");

    // A spectator's line (instance 2) reaches the guest watching on instance 0, not the
    // players while they play; the spectators' first chat message is this one, not the
    // players' line.
    let (status, line) = carol
        .post(&format!("/api/games/{id}/chat"), say("<b>nice</b> opening"))
        .await;
    assert_eq!(
        (status, line["room"].as_str()),
        (201, Some("spectators")),
        "{line}"
    );
    for ws in [&mut guest_ws, &mut carol_ws] {
        let got = ws.until("chat").await;
        assert_eq!(got["line"]["text"], "<b>nice</b> opening");
        assert_eq!(got["line"]["room"], "spectators");
    }

    // Guests read the spectators' room only and write nothing; spectators never write the
    // players' room.
    let (status, body) = guest
        .post(&format!("/api/games/{id}/chat"), say("hi"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_logged_in"))
    );
    let (status, body) = carol
        .post(
            &format!("/api/games/{id}/chat"),
            json!({"text": "psst", "room": "players"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("chat_not_allowed"))
    );
    let (status, log) = guest.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(status, 200);
    assert_eq!(log["rooms"], json!(["spectators"]));
    assert_eq!(log["writable"], json!([]));
    assert_eq!(log["lines"].as_array().map(Vec::len), Some(1), "{log}");
    let (_, log) = bob
        .on(&bases[2])
        .get(&format!("/api/games/{id}/chat"))
        .await;
    assert_eq!(log["rooms"], json!(["players"]));
    let texts: Vec<&str> = log["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["good luck"]);

    // Lines too long, empty or with control characters.
    for (text, code) in [
        ("x".repeat(141), "chat_too_long"),
        ("   ".to_string(), "chat_empty"),
        ("two\nlines".to_string(), "chat_invalid"),
    ] {
        let (status, body) = carol
            .post(&format!("/api/games/{id}/chat"), say(&text))
            .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (422, Some(code)),
            "{text:?}"
        );
    }
    let (status, _) = carol
        .post(&format!("/api/games/{id}/chat"), say(&"é".repeat(140)))
        .await;
    assert_eq!(
        status, 201,
        "140 characters are allowed, whatever their bytes"
    );

    // Five lines in ten seconds, counted across instances: carol said two; three more pass,
    // the sixth is refused wherever it is sent.
    for (n, base) in bases.iter().enumerate() {
        let (status, body) = carol
            .on(base)
            .post(&format!("/api/games/{id}/chat"), say(&format!("line {n}")))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = carol
        .on(&bases[1])
        .post(&format!("/api/games/{id}/chat"), say("one too many"))
        .await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_lines_reach_the_players_only_once_the_game_is_over() {
    let Some((_db, nodes)) = cluster().await else {
        return;
    };
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let alice = Player::sign_up(&bases[0], "alice").await;
    let bob = Player::sign_up(&bases[1], "bob").await;
    let carol = Player::sign_up(&bases[2], "carol").await;
    let id = game_between(&alice, &bob, "bob").await;
    let mut bob_ws = game_socket(&bob, &id).await;
    let mut guest_ws = game_socket(&Player::guest(&bases[0]), &id).await;

    // A spectator's line during the game: the spectators hear it, the players do not (the
    // first chat message bob hears is alice's later line) and their log leaves it out.
    let (status, line) = carol
        .post(&format!("/api/games/{id}/chat"), say("they missed e1"))
        .await;
    assert_eq!((status, line["room"].as_str()), (201, Some("spectators")));
    assert_eq!(
        guest_ws.until("chat").await["line"]["text"],
        "they missed e1"
    );
    let (status, _) = alice
        .post(&format!("/api/games/{id}/chat"), say("your move"))
        .await;
    assert_eq!(status, 201);
    assert_eq!(bob_ws.until("chat").await["line"]["text"], "your move");
    for p in [&alice, &bob] {
        let (_, log) = p.on(&bases[2]).get(&format!("/api/games/{id}/chat")).await;
        assert_eq!(log["rooms"], json!(["players"]), "{log}");
        assert_eq!(log["writable"], json!(["players"]), "{log}");
        let texts: Vec<&str> = log["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["your move"]);
    }

    // Once the game is over, the players read the spectators' room and hear its new lines.
    let (status, body) = alice
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    bob_ws.until("end").await;
    let (status, _) = carol
        .on(&bases[0])
        .post(&format!("/api/games/{id}/chat"), say("well played"))
        .await;
    assert_eq!(status, 201);
    let got = bob_ws.until("chat").await;
    assert_eq!(
        (got["line"]["text"].as_str(), got["line"]["room"].as_str()),
        (Some("well played"), Some("spectators"))
    );
    let (_, log) = bob.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(log["rooms"], json!(["players", "spectators"]), "{log}");
    let texts: Vec<&str> = log["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["they missed e1", "your move", "well played"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_player_can_neither_challenge_nor_chat_with_the_blocker() {
    let Some((_db, nodes)) = cluster().await else {
        return;
    };
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let alice = Player::sign_up(&bases[0], "alice").await;
    let bob = Player::sign_up(&bases[1], "bob").await;
    let id = game_between(&alice, &bob, "bob").await;

    assert_eq!(bob.post("/api/players/Alice/block", json!({})).await.0, 204);
    let (status, list) = bob.on(&bases[2]).get("/api/account/blocks").await;
    assert_eq!((status, list["players"].clone()), (200, json!(["alice"])));
    let (status, body) = bob.post("/api/players/bob/block", json!({})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let (status, body) = bob.post("/api/players/nobody/block", json!({})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("player_not_found"))
    );

    let challenge = json!({"scoring": "largest", "rated": false, "days": 3, "to": "bob"});
    let (status, body) = alice
        .on(&bases[2])
        .post("/api/seeks", challenge.clone())
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("blocked")),
        "{body}"
    );
    let (status, body) = alice
        .post(&format!("/api/games/{id}/chat"), say("hello?"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("blocked")),
        "{body}"
    );
    // While the game is played, its players write only in the players' room.
    let (status, body) = alice
        .post(
            &format!("/api/games/{id}/chat"),
            json!({"text": "hello?", "room": "spectators"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("chat_not_allowed")),
        "{body}"
    );
    // The blocker still speaks.
    let (status, _) = bob.post(&format!("/api/games/{id}/chat"), say("no")).await;
    assert_eq!(status, 201);

    assert_eq!(bob.delete("/api/players/alice/block").await, 204);
    let (status, body) = alice.post("/api/seeks", challenge).await;
    assert_eq!(status, 201, "{body}");
    let (status, _) = alice
        .post(&format!("/api/games/{id}/chat"), say("thanks"))
        .await;
    assert_eq!(status, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_reads_reports_mutes_and_closes_an_account_whose_seeks_leave_every_lobby() {
    let Some((db, nodes)) = cluster().await else {
        return;
    };
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let mia = Player::sign_up(&bases[1], "mia").await;
    let mut sam = Player::sign_up(&bases[0], "sam").await;
    let alice = Player::sign_up(&bases[2], "alice").await;
    let id = game_between(&alice, &sam, "sam").await;

    // `mabula admin` makes a moderator; unknown names are refused clearly.
    let (ok, _, err) = admin(&db, &["moderator", "nobody"]);
    assert!(!ok && err.contains("no account named 'nobody'"), "{err}");
    let (ok, out, err) = admin(&db, &["moderator", "mia"]);
    assert!(ok && out.contains("mia is a moderator"), "{out}{err}");

    // Sam chats rudely; Alice reports the line.
    let (status, line) = sam
        .post(&format!("/api/games/{id}/chat"), say("you are bad"))
        .await;
    assert_eq!(status, 201);
    let report =
        json!({"player": "sam", "reason": "abuse", "text": "rude", "chat_line": line["id"]});
    let (status, made) = alice.post("/api/reports", report).await;
    assert_eq!(status, 201, "{made}");
    let (status, body) = alice
        .post(
            "/api/reports",
            json!({"player": "sam", "reason": "rudeness", "text": ""}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("malformed_json"))
    );
    let (status, body) = alice
        .post(
            "/api/reports",
            json!({"player": "alice", "reason": "spam", "text": ""}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("invalid_report"))
    );

    // Only moderators read the queue; it shows the line reported.
    let (status, body) = alice.get("/api/moderation/reports").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("not_moderator"))
    );
    let (status, queue) = mia.get("/api/moderation/reports").await;
    assert_eq!(status, 200, "{queue}");
    let r = &queue["reports"][0];
    assert_eq!(
        (r["player"].as_str(), r["reason"].as_str()),
        (Some("sam"), Some("abuse"))
    );
    assert_eq!(r["context"][0]["text"], "you are bad");
    assert_eq!(r["game"].as_str(), Some(id.as_str()));
    let (ok, out, _) = admin(&db, &["reports"]);
    assert!(ok && out.contains("alice reported sam for abuse"), "{out}");

    // Muted, Sam cannot chat; unmuted, he can.
    let (status, _) = mia
        .post("/api/moderation/players/sam/mute", json!({"minutes": 5}))
        .await;
    assert_eq!(status, 204);
    let (status, body) = sam
        .post(&format!("/api/games/{id}/chat"), say("still here"))
        .await;
    assert_eq!((status, body["code"].as_str()), (403, Some("muted")));
    // Nor name a tournament, nor write a report's text; he still reports without one.
    let in_an_hour = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64
        + 3_600_000;
    let (status, body) = sam
        .post(
            "/api/tournaments",
            json!({"name": "Free chat here", "format": "arena", "scoring": "largest",
                   "clock": {"initial_s": 60, "increment_s": 0}, "minutes": 30,
                   "starts_at": in_an_hour}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("muted")),
        "{body}"
    );
    let (status, body) = sam
        .post(
            "/api/reports",
            json!({"player": "alice", "reason": "abuse", "text": "read me"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("muted")),
        "{body}"
    );
    let (status, body) = sam
        .post(
            "/api/reports",
            json!({"player": "alice", "reason": "abuse", "text": ""}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(mia.delete("/api/moderation/players/sam/mute").await, 204);
    let (status, _) = sam
        .post(&format!("/api/games/{id}/chat"), say("sorry"))
        .await;
    assert_eq!(status, 201);

    // Sam seeks on instance 0; Alice sees it in her lobby on instance 2.
    let mut lobby = alice.lobby().await;
    lobby.until("seeks").await;
    let (status, seek) = sam
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": false, "clock": {"initial_s": 300, "increment_s": 0}}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let seek_id = seek["id"].as_str().unwrap().to_string();
    lobby
        .changes_until(|c| {
            c["added"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["id"] == seek_id.as_str())
        })
        .await;

    // Mia closes Sam's account on instance 1: the seek leaves Alice's lobby on instance 2, his
    // session ends, he cannot log in; his game stays.
    assert_eq!(
        mia.post("/api/moderation/players/sam/close", json!({}))
            .await
            .0,
        204
    );
    lobby
        .changes_until(|c| {
            c["removed"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| *s == seek_id.as_str())
        })
        .await;
    let (status, _) = sam.get("/api/session").await;
    assert_eq!(status, 401);
    let (status, body) = sam
        .start_session("/api/session", json!({"name": "sam", "password": PASSWORD}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("account_closed")),
        "{body}"
    );
    let (status, _) = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);

    // The report is resolved and leaves the queue.
    let rid = r["id"].as_i64().unwrap();
    let (status, _) = mia
        .post(
            &format!("/api/moderation/reports/{rid}/resolve"),
            json!({"note": "closed"}),
        )
        .await;
    assert_eq!(status, 204);
    let (_, queue) = mia.get("/api/moderation/reports").await;
    let left: Vec<_> = queue["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|r| (r["reporter"].as_str(), r["player"].as_str()))
        .collect();
    assert_eq!(left, [(Some("sam"), Some("alice"))], "{queue}");
    let (status, body) = mia
        .post(&format!("/api/moderation/reports/{rid}/resolve"), json!({}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("report_not_found"))
    );

    // `mabula admin reopen` and `reset-password`: the new password logs in, the old does not.
    let (ok, _, err) = admin(&db, &["reopen", "sam"]);
    assert!(ok, "{err}");
    let (ok, out, err) = admin(&db, &["reset-password", "Sam"]);
    assert!(ok, "{err}");
    let password = out.trim().to_string();
    assert!(password.len() >= 16, "{out}");
    let (status, _) = sam
        .start_session("/api/session", json!({"name": "sam", "password": PASSWORD}))
        .await;
    assert_eq!(status, 401);
    let (status, body) = sam
        .start_session("/api/session", json!({"name": "sam", "password": password}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (ok, _, err) = admin(&db, &["close", "sam"]);
    assert!(ok, "{err}");
    let (status, _) = sam.get("/api/session").await;
    assert_eq!(
        status, 401,
        "closing from the command line ends the sessions"
    );
    let (ok, out, _) = admin(&db, &["moderator", "mia", "--remove"]);
    assert!(ok && out.contains("no longer"), "{out}");
    let (status, _) = mia.get("/api/moderation/reports").await;
    assert_eq!(status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_blocks_reports_and_closing_hold_on_sqlite_with_mabula_admin_between_runs() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("chat.sqlite3").display().to_string();
    let mut server = Instance::start(&db, 20);
    let base = server.client.base().to_string();
    let mut ann = Player::sign_up(&base, "ann").await;
    let ben = Player::sign_up(&base, "ben").await;
    let id = game_between(&ann, &ben, "ben").await;
    let mut ws = game_socket(&ben, &id).await;
    let (status, _) = ann
        .post(&format!("/api/games/{id}/chat"), say("hi ben"))
        .await;
    assert_eq!(status, 201);
    assert_eq!(ws.until("chat").await["line"]["text"], "hi ben");
    for n in 0..4 {
        let (status, _) = ann
            .post(&format!("/api/games/{id}/chat"), say(&format!("{n}")))
            .await;
        assert_eq!(status, 201);
    }
    let (status, _) = ann
        .post(&format!("/api/games/{id}/chat"), say("sixth"))
        .await;
    assert_eq!(status, 429);
    assert_eq!(ben.post("/api/players/ann/block", json!({})).await.0, 204);
    let challenge = json!({"scoring": "largest", "rated": false, "days": 3, "to": "ben"});
    let (status, body) = ann.post("/api/seeks", challenge).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("blocked")));
    let (status, _) = ben
        .post(
            "/api/reports",
            json!({"player": "ann", "reason": "spam", "text": "floods"}),
        )
        .await;
    assert_eq!(status, 201);
    let (status, _) = ann
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "rated": false, "clock": {"initial_s": 300, "increment_s": 0}}),
        )
        .await;
    assert_eq!(status, 201);

    // The file is the server's while it runs: `mabula admin` works between runs.
    server.kill();
    let (ok, out, _) = admin(&db, &["reports"]);
    assert!(
        ok && out.contains("ben reported ann for spam: floods"),
        "{out}"
    );
    let (ok, _, err) = admin(&db, &["close", "ann"]);
    assert!(ok, "{err}");
    let server = Instance::start(&db, 20);
    let base = server.client.base().to_string();
    ann.base = base.clone();
    let (status, _) = ann.get("/api/session").await;
    assert_eq!(status, 401);
    let (_, seeks) = ben.on(&base).get("/api/seeks").await;
    assert_eq!(seeks["seeks"], json!([]), "a closed account's seek is gone");
    let (status, body) = ben
        .on(&base)
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "clock": {"initial_s": 300, "increment_s": 0}, "to": "ann"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("account_closed")),
        "a closed account cannot be challenged"
    );
    let mut again = ann.clone();
    let (status, body) = again
        .start_session("/api/session", json!({"name": "ann", "password": PASSWORD}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("account_closed"))
    );
    // Its lines stay with the game.
    let (_, log) = ben.on(&base).get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(log["lines"].as_array().map(Vec::len), Some(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_lines_are_counted_per_address_whatever_their_games() {
    let Some((_db, nodes)) = cluster().await else {
        return;
    };
    let bases: Vec<String> = nodes.iter().map(|n| n.client.base().to_string()).collect();
    let http = reqwest::Client::builder()
        .local_address(Some("127.0.0.9".parse().expect("an address")))
        .build()
        .expect("a client");
    // Three games of its own, on three instances, one address: five lines in all pass, the
    // sixth is refused in whichever game it is said.
    let mut games = Vec::new();
    for base in &bases {
        let grant: Value = http
            .post(format!("{base}/api/games"))
            .json(&json!({"mode": "local"}))
            .send()
            .await
            .expect("create")
            .json()
            .await
            .expect("a grant");
        let id = grant["game_id"].as_str().expect("an id").to_string();
        let token = grant["token"].as_str().expect("a token").to_string();
        games.push((base.clone(), id, token));
    }
    let line = async |(base, id, token): &(String, String, String), text: &str| {
        let r = http
            .post(format!("{base}/api/games/{id}/chat"))
            .header("x-mabula-token", token)
            .json(&json!({"text": text}))
            .send()
            .await
            .expect("chat");
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap_or_default())
    };
    for n in 0..5 {
        let (status, body) = line(&games[n % 3], &format!("line {n}")).await;
        assert_eq!(status, 201, "{body}");
    }
    for game in &games {
        let (status, body) = line(game, "one too many").await;
        assert_eq!(
            (status, body["code"].as_str()),
            (429, Some("rate_limited")),
            "{body}"
        );
    }
    // Another address is not held back.
    let (base, id, token) = &games[0];
    let other = Player::guest_from(base, "127.0.0.10");
    let (status, body) = other
        .http
        .post(format!("{base}/api/games/{id}/chat"))
        .header("x-mabula-token", token.as_str())
        .json(&json!({"text": "hello"}))
        .send()
        .await
        .map(|r| (r.status().as_u16(), r))
        .expect("chat");
    assert_eq!(status, 201, "{:?}", body.text().await);
}
