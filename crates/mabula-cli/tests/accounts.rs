//! Accounts people manage, following and the lobby's fixes, over real HTTP and WebSocket on real
//! `mabula serve` processes: three instances on one PostgreSQL when `MABULA_TEST_POSTGRES_URL`
//! names a server, else one instance on SQLite (the same requests, each player on "another"
//! instance that is the same one).

use crate::common;

use common::Nodes;
use common::player::{PASSWORD, Player};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn nodes() -> Nodes {
    common::nodes("accounts.sqlite3").await
}

/// A correspondence game of `white` (who seeks) against `black` (who accepts), with two moves
/// played; its id.
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
    let game = started["game_id"].as_str().expect("a game").to_string();
    white.play_first_legal(&game).await;
    black.play_first_legal(&game).await;
    game
}

/// Polls `get` until `done` holds, for at most `limit`.
async fn until(p: &Player, path: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + limit;
    loop {
        let (_, body) = p.get(path).await;
        if done(&body) {
            return body;
        }
        assert!(
            Instant::now() < end,
            "{path} not as wanted in {limit:?}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_names_the_rule_that_failed() {
    let n = nodes().await;
    let mut guest = Player::guest(&n.bases[0]);
    for (name, password, rule) in [
        ("carol", "password1", "password_common"),
        ("carol", "my carol pass", "password_has_name"),
        ("admin", PASSWORD, "name_reserved"),
        ("carol", "short", "password_short"),
        ("1carol", PASSWORD, "name_start"),
    ] {
        let (status, body) = guest
            .start_session("/api/accounts", json!({"name": name, "password": password}))
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["code"], "invalid_account", "{body}");
        assert_eq!(body["rule"], rule, "{name} {password}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_ends_the_other_sessions() {
    let n = nodes().await;
    let laptop = Player::sign_up(&n.bases[0], "dora").await;
    let mut phone = Player::guest(&n.bases[1]);
    let (status, _) = phone
        .start_session(
            "/api/session",
            json!({"name": "dora", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(phone.get("/api/session").await.0, 200);

    // A wrong current password and a weak new one are refused, and change nothing.
    let (status, body) = laptop
        .post(
            "/api/account/password",
            json!({"current": "not the password", "new": "a new long secret"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("wrong_password"))
    );
    let (status, body) = laptop
        .post(
            "/api/account/password",
            json!({"current": PASSWORD, "new": "password1"}),
        )
        .await;
    assert_eq!(
        (status, body["rule"].as_str()),
        (422, Some("password_common"))
    );
    assert_eq!(phone.get("/api/session").await.0, 200);

    let (status, body) = laptop
        .post(
            "/api/account/password",
            json!({"current": PASSWORD, "new": "a new long secret"}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    // The other session, asked on a third instance, is over; this one stays.
    let (status, body) = phone.on(&n.bases[2]).get("/api/session").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("not_logged_in"))
    );
    assert_eq!(laptop.on(&n.bases[2]).get("/api/session").await.0, 200);
    // The new password logs in, the old one no more.
    let mut again = Player::guest(&n.bases[1]);
    let (status, _) = again
        .start_session(
            "/api/session",
            json!({"name": "dora", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 401);
    let (status, _) = again
        .start_session(
            "/api/session",
            json!({"name": "dora", "password": "a new long secret"}),
        )
        .await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_listed_by_device_and_ended_one_by_one_or_all_others() {
    let n = nodes().await;
    let here = Player::sign_up(&n.bases[0], "emil").await;
    let mut phone = Player::guest(&n.bases[1]);
    let (status, _) = phone
        .start_session(
            "/api/session",
            json!({"name": "emil", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200);
    let mut third = Player::guest(&n.bases[2]);
    let (status, _) = third
        .start_session(
            "/api/session",
            json!({"name": "emil", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200);

    let (status, list) = here.get("/api/account/sessions").await;
    assert_eq!(status, 200, "{list}");
    let sessions = list["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 3, "{list}");
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    assert!(
        sessions
            .iter()
            .all(|s| s["device"].is_string() && s["last_used_at"].is_i64())
    );

    // The phone's session, seen from the phone, is the current one there: end it from here.
    let (_, theirs) = phone.get("/api/account/sessions").await;
    let phone_id = theirs["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .find(|s| s["current"] == true)
        .and_then(|s| s["id"].as_str())
        .expect("the phone's session")
        .to_string();
    assert_eq!(
        here.delete(&format!("/api/account/sessions/{phone_id}"))
            .await,
        204
    );
    assert_eq!(phone.get("/api/session").await.0, 401);
    assert_eq!(
        here.delete(&format!("/api/account/sessions/{phone_id}"))
            .await,
        404
    );

    // All others: the third ends, this one stays.
    let (status, ended) = here
        .send(reqwest::Method::DELETE, "/api/account/sessions", None, true)
        .await;
    assert_eq!((status, ended["ended"].as_u64()), (200, Some(1)));
    assert_eq!(third.get("/api/session").await.0, 401);
    assert_eq!(here.get("/api/session").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_account_cannot_log_in_and_its_games_remain_with_its_name_replaced() {
    let n = nodes().await;
    let fay = Player::sign_up(&n.bases[0], "Fay").await;
    let gus = Player::sign_up(&n.bases[1], "gus").await;
    let game = game_between(&fay, &gus).await;
    // A game that goes on, and a seek still open.
    let (status, seek) = fay
        .post("/api/seeks", json!({"scoring": "largest", "days": 3}))
        .await;
    assert_eq!(status, 201, "{seek}");
    let seek_id = seek["id"].as_str().expect("id").to_string();

    // A wrong password deletes nothing.
    let (status, body) = fay
        .send(
            reqwest::Method::DELETE,
            "/api/account",
            Some(json!({"password": "not it at all"})),
            true,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("wrong_password"))
    );
    let (status, _) = fay
        .send(
            reqwest::Method::DELETE,
            "/api/account",
            Some(json!({"password": PASSWORD})),
            true,
        )
        .await;
    assert_eq!(status, 204);

    // It cannot log in, its session is over, its profile is gone, its seek too.
    let mut again = Player::guest(&n.bases[2]);
    let (status, body) = again
        .start_session("/api/session", json!({"name": "fay", "password": PASSWORD}))
        .await;
    assert_eq!((status, body["code"].as_str()), (401, Some("login_failed")));
    assert_eq!(fay.on(&n.bases[2]).get("/api/session").await.0, 401);
    assert_eq!(gus.get("/api/players/fay").await.0, 404);
    let (_, seeks) = gus.on(&n.bases[2]).get("/api/seeks").await;
    assert!(
        !seeks.to_string().contains(&seek_id),
        "the deleted account's seek is gone: {seeks}"
    );

    // Its game remains, on every instance, with the name replaced (and resigned: it was going
    // on), in the state, the record and the opponent's history.
    for base in &n.bases {
        let state = until(
            &gus.on(base),
            &format!("/api/games/{game}"),
            Duration::from_secs(10),
            |s| {
                s["players"]["white"]["name"]
                    .as_str()
                    .is_some_and(|w| w.starts_with("deleted-"))
            },
        )
        .await;
        assert_eq!(state["players"]["black"]["name"], "gus");
        assert!(
            state["moves"].as_array().is_some_and(|m| m.len() == 2),
            "{state}"
        );
        assert_eq!(state["status"], "finished", "{state}");
    }
    let (_, state) = gus.get(&format!("/api/games/{game}")).await;
    let label = state["players"]["white"]["name"]
        .as_str()
        .expect("a name")
        .to_string();
    let record = gus
        .http
        .get(format!("{}/api/games/{game}/record", n.bases[2]))
        .send()
        .await
        .expect("answer")
        .text()
        .await
        .expect("text");
    assert!(record.contains(&format!("[White \"{label}\"]")), "{record}");
    assert!(!record.contains("Fay"), "{record}");
    let (_, history) = gus.get("/api/players/gus/games").await;
    assert_eq!(history["games"][0]["white"], label.as_str(), "{history}");
    assert_eq!(gus.get(&format!("/api/players/{label}")).await.0, 404);

    // The name is never given again, in any case.
    let mut newcomer = Player::guest(&n.bases[1]);
    let (status, body) = newcomer
        .start_session(
            "/api/accounts",
            json!({"name": "FAY", "password": PASSWORD}),
        )
        .await;
    assert_eq!(
        (status, body["rule"].as_str()),
        (422, Some("name_reserved")),
        "{body}"
    );
    let (status, body) = newcomer
        .start_session(
            "/api/accounts",
            json!({"name": label, "password": PASSWORD}),
        )
        .await;
    assert_eq!(
        (status, body["rule"].as_str()),
        (422, Some("name_reserved")),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_export_holds_the_players_games() {
    let n = nodes().await;
    let hal = Player::sign_up(&n.bases[0], "hal").await;
    let ida = Player::sign_up(&n.bases[1], "ida").await;
    let first = game_between(&hal, &ida).await;
    let second = game_between(&ida, &hal).await;
    assert_eq!(hal.post("/api/players/ida/follow", json!({})).await.0, 204);
    let said = hal
        .post(
            &format!("/api/games/{first}/chat"),
            json!({"text": "well played"}),
        )
        .await;
    assert_eq!(said.0, 201, "{}", said.1);

    let r = hal
        .http
        .get(format!("{}/api/account/export", n.bases[2]))
        .header("cookie", hal.cookie.as_deref().expect("a cookie"))
        .send()
        .await
        .expect("answer");
    assert_eq!(r.status(), 200);
    let disposition = r
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    let export: Value = r.json().await.expect("JSON");
    assert_eq!(export["profile"]["name"], "hal");
    let games = export["games"].as_array().expect("games");
    let ids: Vec<&str> = games.iter().filter_map(|g| g["id"].as_str()).collect();
    assert!(
        ids.contains(&first.as_str()) && ids.contains(&second.as_str()),
        "{ids:?}"
    );
    for g in games {
        assert_eq!(g["moves"].as_array().map(Vec::len), Some(2), "{g}");
        assert!(
            g["record"].as_str().is_some_and(|r| r.contains("hal")),
            "{g}"
        );
    }
    assert_eq!(export["games_truncated"], false);
    assert_eq!(export["following"], json!(["ida"]));
    assert!(export["sessions"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(export["rating_history"].is_array());
    let lines = export["chat_lines"].as_array().expect("chat lines");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        (lines[0]["game"].as_str(), lines[0]["text"].as_str()),
        (Some(first.as_str()), Some("well played"))
    );
    // Only one's own data: a guest gets nothing.
    assert_eq!(
        Player::guest(&n.bases[0])
            .get("/api/account/export")
            .await
            .0,
        401
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_shows_the_followed_players_games_and_who_is_online_across_instances() {
    let n = nodes().await;
    let jan = Player::sign_up(&n.bases[0], "jan").await;
    let kim = Player::sign_up(&n.bases[1], "kim").await;
    let lea = Player::sign_up(&n.bases[2], "lea").await;

    assert_eq!(jan.post("/api/players/KIM/follow", json!({})).await.0, 204);
    assert_eq!(jan.post("/api/players/kim/follow", json!({})).await.0, 204);
    let (status, body) = jan.post("/api/players/jan/follow", json!({})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let (status, body) = jan.post("/api/players/nobody/follow", json!({})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("player_not_found"))
    );
    // A guest cannot follow.
    let (status, _) = Player::guest(&n.bases[0])
        .post("/api/players/kim/follow", json!({}))
        .await;
    assert_eq!(status, 401);

    // Kim plays Lea (on instances 1 and 2); Jan, on instance 0, sees it and Kim online.
    let game = game_between(&kim, &lea).await;
    let (status, list) = jan.on(&n.bases[2]).get("/api/account/following").await;
    assert_eq!(status, 200, "{list}");
    let kim_row = &list["players"][0];
    assert_eq!(kim_row["name"], "kim");
    assert_eq!(kim_row["online"], true, "{list}");
    assert_eq!(kim_row["playing"][0]["id"], game.as_str(), "{list}");
    assert_eq!(kim_row["playing"][0]["white"], "kim");
    assert_eq!(kim_row["playing"][0]["black"], "lea");

    let (status, online) = lea.on(&n.bases[0]).get("/api/online").await;
    assert_eq!(status, 200);
    assert!(online["count"].as_u64().is_some_and(|c| c >= 3), "{online}");

    // Unfollowing (twice is fine) empties the list.
    assert_eq!(jan.delete("/api/players/kim/follow").await, 204);
    assert_eq!(
        jan.on(&n.bases[1]).delete("/api/players/kim/follow").await,
        204
    );
    let (_, list) = jan.get("/api/account/following").await;
    assert_eq!(list["players"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_time_seek_goes_soon_after_its_owners_last_lobby_socket_closes() {
    let n = nodes().await;
    let max = Player::sign_up(&n.bases[0], "max").await;
    // Max's ratings are settled (a new account keeps one seek open to everyone at a time).
    n.sql(
        "INSERT INTO ratings (account, scoring, speed, rating, deviation, volatility, games, \
         updated_at) VALUES ('max', 'largest', 'realtime', 1600, 60, 0.06, 40, 0), \
         ('max', 'largest', 'correspondence', 1600, 60, 0.06, 40, 0)",
    )
    .await;
    let ned = Player::sign_up(&n.bases[1], "ned").await;
    let mut watcher = ned.lobby().await;
    watcher.until("seeks").await;

    // Max's lobby is open on instance 0 (and a second one on instance 2, closed first).
    let mut first = max.lobby().await;
    first.until("seeks").await;
    let mut second = max.on(&n.bases[2]).lobby().await;
    second.until("seeks").await;
    let (status, seek) = max
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "clock": {"initial_s": 180, "increment_s": 2}}),
        )
        .await;
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_str().expect("id").to_string();
    let correspondence = max
        .post("/api/seeks", json!({"scoring": "largest", "days": 2}))
        .await
        .1["id"]
        .as_str()
        .expect("id")
        .to_string();

    // Both of Max's sockets know his seeks before the clock moves (a socket keeps alive the
    // seeks it knows of): a challenge of his is shown to them only once they have read his own
    // seeks again, after the seek above.
    let challenge = max
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "to": "ned"}),
        )
        .await
        .1["id"]
        .as_str()
        .expect("id")
        .to_string();
    for socket in [&mut first, &mut second] {
        while !socket.until("seeks_changed").await["added"]
            .to_string()
            .contains(&challenge)
        {}
    }

    // Open sockets keep it well past its grace of 20 s (the clock moved on 4 s at a time, less
    // than a keep-alive's period, so that no keep-alive is skipped).
    let step = Duration::from_secs(4);
    common::advance_in_steps(&n.bases, step, 7).await;
    let (_, seeks) = ned.get("/api/seeks").await;
    assert!(seeks.to_string().contains(&id), "still open: {seeks}");
    second.ws.close(None).await.expect("closed");
    second.closed().await;
    common::advance_in_steps(&n.bases, step, 2).await;
    let (_, seeks) = ned.get("/api/seeks").await;
    assert!(
        seeks.to_string().contains(&id),
        "one socket is left: {seeks}"
    );

    // The last socket goes (as a crashed browser's would): the seek leaves about 20 s later,
    // not before, and the watcher on another instance sees it go; the correspondence seek stays.
    drop(first);
    common::advance_in_steps(&n.bases, step, 3).await;
    let (_, seeks) = ned.get("/api/seeks").await;
    assert!(seeks.to_string().contains(&id), "12 s after: {seeks}");
    common::advance_in_steps(&n.bases, step, 4).await;
    while !watcher.until("seeks_changed").await["removed"]
        .to_string()
        .contains(&id)
    {}
    let (status, body) = ned
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("seek_not_found"))
    );
    let (_, seeks) = ned.get("/api/seeks").await;
    assert!(seeks.to_string().contains(&correspondence), "{seeks}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_challenge_is_told_to_the_challenger() {
    let n = nodes().await;
    let ola = Player::sign_up(&n.bases[0], "ola").await;
    let pia = Player::sign_up(&n.bases[1], "Pia").await;
    let mut lobby = ola.lobby().await;
    lobby.until("seeks").await;
    let (status, challenge) = ola
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "to": "pia"}),
        )
        .await;
    assert_eq!(status, 201, "{challenge}");
    let id = challenge["id"].as_str().expect("id");
    assert_eq!(pia.delete(&format!("/api/seeks/{id}")).await, 204);
    let declined = lobby.until("declined").await;
    assert_eq!(declined["seek_id"], id);
    assert_eq!(declined["by"], "Pia");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logging_out_everywhere_also_forgets_the_trusted_devices() {
    let n = nodes().await;
    let mut ivy = Player::sign_up(&n.bases[0], "ivy").await;
    assert!(ivy.device.is_some(), "sign-up trusts this browser");
    // Strangers lock the name for strangers; Ivy's trusted browser still logs in.
    let mut stranger = Player::guest(&n.bases[1]);
    for _ in 0..5 {
        let (status, _) = stranger
            .start_session(
                "/api/session",
                json!({"name": "ivy", "password": "guess guess"}),
            )
            .await;
        assert_eq!(status, 401);
    }
    let (status, body) = ivy
        .start_session("/api/session", json!({"name": "ivy", "password": PASSWORD}))
        .await;
    assert_eq!(status, 200, "{body}");

    // Log out everywhere: the browser is no longer trusted, so the lock holds for it too.
    assert_eq!(ivy.on(&n.bases[2]).delete("/api/sessions").await, 204);
    let (status, body) = ivy
        .start_session("/api/session", json!({"name": "ivy", "password": PASSWORD}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
}
