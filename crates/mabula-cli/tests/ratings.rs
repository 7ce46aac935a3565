//! The rating job over real HTTP on real `mabula serve` processes: three instances on one
//! PostgreSQL when `MABULA_TEST_POSTGRES_URL` names a server, else one instance on SQLite (the
//! same requests). A player who deletes the account in the middle of a rated game leaves the
//! opponent rated and the next game rated; a game that cannot be rated is skipped, noted, counted
//! and shown to moderators, and tried again later, never in a loop (issue 51).

use crate::common;

use common::Nodes;
use common::player::{PASSWORD, Player};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

async fn nodes() -> Nodes {
    common::nodes("ratings.sqlite3").await
}

/// A rated correspondence game of `white` (who seeks) against `black` (who accepts), with two
/// moves played; its id.
async fn rated_game(white: &Player, black: &Player) -> String {
    let (status, seek) = white
        .post(
            "/api/seeks",
            json!({"scoring": "largest", "days": 2, "color": "white", "rated": true}),
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

/// Polls game `id` on `p`'s instance until `done` holds, for at most ten seconds.
async fn game_until(p: &Player, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, state) = p.get(&format!("/api/games/{id}")).await;
        if done(&state) {
            return state;
        }
        assert!(Instant::now() < end, "game {id} not as wanted: {state}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Both sides' rating changes of a game's state.
fn diffs(state: &Value) -> [Option<i64>; 2] {
    ["white", "black"].map(|side| state["players"][side]["rating_diff"].as_i64())
}

/// The rating failures counted by every instance of `n` (`mabula_rating_failures_total`).
async fn failures_counted(n: &Nodes) -> u64 {
    let mut sum = 0;
    for node in &n.nodes {
        sum += common::metric(node.client.base(), "mabula_rating_failures_total").await;
    }
    sum
}

/// The account `name`'s rating record (games, rating) for largest, correspondence.
async fn rating_of(asker: &Player, name: &str) -> (i64, i64) {
    let (status, profile) = asker.get(&format!("/api/players/{name}")).await;
    assert_eq!(status, 200, "{profile}");
    let r = profile["ratings"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["speed"] == "correspondence"))
        .unwrap_or_else(|| panic!("no correspondence rating: {profile}"));
    (
        r["games"].as_i64().expect("games"),
        r["rating"].as_i64().expect("rating"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_an_account_mid_game_still_rates_the_opponent_and_the_next_game() {
    let n = nodes().await;
    let ann = Player::sign_up(&n.bases[0], "ann").await;
    let bob = Player::sign_up(&n.bases[1], "bob").await;
    let cat = Player::sign_up(&n.bases[2], "cat").await;
    let first = rated_game(&ann, &bob).await;

    // Ann deletes her account in the middle of the game: it is resigned, and her seat renamed.
    let (status, body) = ann
        .send(
            reqwest::Method::DELETE,
            "/api/account",
            Some(json!({"password": PASSWORD})),
            true,
        )
        .await;
    assert_eq!(status, 204, "{body}");

    // Bob is rated for the win, seen alike on every instance. Ann's side keeps no change when
    // the game was rated after her seat was renamed, and her loss when the rating (started by
    // the resignation) came first: both orders happen.
    let mut seen = Vec::new();
    for base in &n.bases {
        let state = game_until(&bob.on(base), &first, |s| diffs(s)[1].is_some()).await;
        assert_eq!(state["result"], "0-1", "{state}");
        let [white, black] = diffs(&state);
        assert!(white.is_none_or(|d| d < 0), "{state}");
        assert!(black.is_some_and(|d| d > 0), "{state}");
        seen.push(white);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
    let (games, rating) = rating_of(&bob.on(&n.bases[2]), "bob").await;
    assert_eq!(games, 1);
    assert!(rating > 1500, "{rating}");

    // The next rated game is rated too.
    let second = rated_game(&bob, &cat).await;
    let (status, body) = cat
        .post(&format!("/api/games/{second}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    for base in &n.bases {
        let state = game_until(&cat.on(base), &second, |s| {
            diffs(s).iter().all(Option::is_some)
        })
        .await;
        assert_eq!(state["result"], "1-0", "{state}");
    }
    assert_eq!(rating_of(&cat, "bob").await.0, 2);

    // Ten seconds of sweeps on every instance later: no rating failed, none is retried.
    common::advance_in_steps(&n.bases, Duration::from_secs(1), 10).await;
    assert_eq!(failures_counted(&n).await, 0);
    assert_eq!(rating_of(&cat, "bob").await.0, 2, "rated once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_cannot_be_rated_is_skipped_noted_counted_and_shown_to_moderators() {
    let n = nodes().await;
    let dan = Player::sign_up(&n.bases[0], "dan").await;
    let eve = Player::sign_up(&n.bases[1], "eve").await;
    let mia = Player::sign_up(&n.bases[2], "mia").await;
    n.sql("UPDATE accounts SET moderator = TRUE WHERE key = 'mia'")
        .await;

    // A game the job cannot rate: its stored start is not a position (standing for any game
    // whose rating fails for good).
    let bad = rated_game(&dan, &eve).await;
    n.sql(&format!(
        "UPDATE games SET start = 'not a position' WHERE id = '{bad}'"
    ))
    .await;
    let (status, body) = eve
        .post(&format!("/api/games/{bad}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");

    // Moderators see it, with why; it is counted.
    let end = Instant::now() + Duration::from_secs(10);
    let listed = loop {
        let (status, body) = mia.get("/api/moderation/unrated").await;
        assert_eq!(status, 200, "{body}");
        if body["games"].as_array().is_some_and(|g| !g.is_empty()) {
            break body;
        }
        assert!(Instant::now() < end, "not shown to moderators: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(listed["games"][0]["game"], bad.as_str(), "{listed}");
    assert!(
        listed["games"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("start")),
        "{listed}"
    );
    let (status, _) = dan.get("/api/moderation/unrated").await;
    assert_eq!(status, 403, "moderators only");
    // Every attempt begun before is over before it is counted.
    common::settle(&n.bases).await;
    let counted = failures_counted(&n).await;
    assert!(
        (1..=3).contains(&counted),
        "once per instance at most: {counted}"
    );

    // The next game is rated.
    let next = rated_game(&dan, &eve).await;
    let (status, body) = dan
        .post(&format!("/api/games/{next}/resign"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    for base in &n.bases {
        game_until(&dan.on(base), &next, |s| {
            diffs(s).iter().all(Option::is_some)
        })
        .await;
    }

    // Thirty seconds of sweeps: the bad game is skipped, not tried again each second.
    common::advance_in_steps(&n.bases, Duration::from_secs(1), 30).await;
    assert_eq!(failures_counted(&n).await, counted, "no retry in a loop");
    // After its wait, it is tried again, once per instance at most, and still listed.
    common::advance_in_steps(&n.bases, Duration::from_secs(1), 45).await;
    let again = failures_counted(&n).await;
    assert!(
        (counted + 1..=counted + 3).contains(&again),
        "{counted} then {again}"
    );
    let (_, listed) = mia.get("/api/moderation/unrated").await;
    assert_eq!(listed["games"][0]["game"], bad.as_str(), "{listed}");
    assert!(
        listed["games"][0]["attempts"].as_i64() >= Some(2),
        "{listed}"
    );
    assert_eq!(
        rating_of(&mia, "dan").await.0,
        1,
        "only the next game rated"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweep_rates_the_games_after_one_that_cannot_be_rated() {
    let n = nodes().await;
    let dan = Player::sign_up(&n.bases[0], "dan").await;
    let eve = Player::sign_up(&n.bases[1], "eve").await;

    // Two games end that the job cannot rate at first: the older for good, the newer until
    // its start is put right (standing for games an instance left unrated when it died).
    let bad = rated_game(&dan, &eve).await;
    let next = rated_game(&eve, &dan).await;
    let (_, state) = dan.get(&format!("/api/games/{next}")).await;
    let start = state["start"].as_str().expect("a start").to_string();
    // Each is resigned by Black, who moved last, on the instance that holds it as it stands.
    for (id, black) in [(&bad, &eve), (&next, &dan)] {
        n.sql(&format!(
            "UPDATE games SET start = 'not a position' WHERE id = '{id}'"
        ))
        .await;
        let (status, body) = black
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // Both failures noted in the store, and every attempt begun before is over (one that
    // noted its failure after the fix below would hold the game back for a minute).
    let end = Instant::now() + Duration::from_secs(10);
    let noted =
        format!("SELECT COUNT(*) FROM rating_failures WHERE game_id IN ('{bad}', '{next}')");
    while n.count(&noted).await < 2 {
        assert!(Instant::now() < end, "both failures noted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    common::settle(&n.bases).await;
    n.sql(&format!(
        "UPDATE games SET start = '{}' WHERE id = '{next}'; DELETE FROM rating_failures",
        start.replace('\'', "''")
    ))
    .await;

    // The next sweep takes the older game first, fails on it again, and still rates the newer.
    common::advance(&n.bases, Duration::from_secs(1)).await;
    for base in &n.bases {
        let state = game_until(&eve.on(base), &next, |s| {
            diffs(s).iter().all(Option::is_some)
        })
        .await;
        assert_eq!(state["result"], "1-0", "{state}");
    }
    let (_, state) = eve.get(&format!("/api/games/{bad}")).await;
    assert_eq!(diffs(&state), [None, None], "{state}");
}
