//! The storage backends, each on a fresh database: SQLite always, PostgreSQL when
//! `MABULA_TEST_POSTGRES_URL` names a server (`scripts/start-postgres.sh` starts one).

mod common;

use common::TestServer;
use mabula_server::model::{Progress, Side};
use mabula_server::store::{ListFilter, Store, StoredGame, WriteOp};
use serde_json::json;

/// A fresh PostgreSQL database on the test server, or `None` (with a notice) when there is none.
async fn fresh_postgres() -> Option<String> {
    let Ok(url) = std::env::var("MABULA_TEST_POSTGRES_URL") else {
        eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: PostgreSQL storage tests skipped");
        return None;
    };
    use sqlx::Connection;
    let name = format!("mabula_test_{}", mabula_server::auth::new_game_id());
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .expect("connect to the test PostgreSQL server");
    sqlx::Executor::execute(
        &mut admin,
        sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")),
    )
    .await
    .expect("create a test database");
    // Replace the database name (the path) of the URL.
    let (base, query) = url
        .split_once('?')
        .map_or((url.as_str(), None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut fresh = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        fresh = format!("{fresh}?{q}");
    }
    Some(fresh)
}

fn sqlite_url(dir: &tempfile::TempDir) -> String {
    dir.path().join("store.sqlite3").display().to_string()
}

fn sample_game(id: &str) -> StoredGame {
    let start = mabula::deal::random(1, mabula::Color::White);
    StoredGame {
        id: id.to_string(),
        created_at: 1000,
        updated_at: 1000,
        mode: "friend".into(),
        scoring: "largest".into(),
        seed: Some("18446744073709551615".into()),
        start: start.to_string(),
        engine_color: None,
        engine_level: None,
        engine_movetime_ms: None,
        white_token: Some(vec![7; 32]),
        black_token: None,
        join_code: Some(vec![9; 32]),
        position: start.to_string(),
        to_move: Some("white".into()),
        epoch: 0,
        result: "*".into(),
        end_reason: None,
        rematch_of: None,
        rematch_id: None,
        moves: Vec::new(),
        white_hints: 0,
        black_hints: 0,
        pair_half: Some("first".into()),
    }
}

/// The storage contract, the same for every backend.
async fn storage_contract(url: &str) {
    let store = Store::open(url).await.expect("open and migrate");
    let id = "abcdefghij";
    store
        .write(WriteOp::InsertGame(Box::new(sample_game(id))))
        .await
        .expect("insert");
    let loaded = store.load(id).await.expect("load").expect("present");
    assert_eq!(
        loaded,
        sample_game(id),
        "a game reads back as written (u64 seed and pair half included)"
    );
    assert!(store.load("zzzzzzzzzz").await.expect("load").is_none());

    // Moves, in order, each with the row's progress.
    let mut live = loaded.into_live().expect("a valid game");
    for ply in 0..5u32 {
        let mv = live.game.position().legal_moves()[0];
        live.apply_move(mv, 2000 + i64::from(ply)).expect("legal");
        let op = WriteOp::AppendMove {
            id: id.into(),
            ply,
            notation: mv.to_string(),
            progress: live.progress(),
        };
        assert!(store.write(op).await.expect("append"));
    }
    // The same move number twice is refused by the database.
    let dup = WriteOp::AppendMove {
        id: id.into(),
        ply: 4,
        notation: "pass".into(),
        progress: live.progress(),
    };
    assert!(store.write(dup).await.is_err());
    let back = store
        .load(id)
        .await
        .unwrap()
        .unwrap()
        .into_live()
        .expect("replays");
    assert_eq!(back.game.moves(), live.game.moves());
    assert_eq!(back.updated_at, 2004);

    // Taking back.
    live.take_back(2, 3000);
    let op = WriteOp::Truncate {
        id: id.into(),
        keep: 3,
        progress: live.progress(),
    };
    store.write(op).await.expect("truncate");
    let back = store.load(id).await.unwrap().unwrap();
    assert_eq!((back.moves.len(), back.epoch), (3, 1));

    // A seat is claimed once.
    let claim = |t: u8| WriteOp::ClaimSeat {
        id: id.into(),
        color: Side::Black,
        token: [t; 32],
    };
    assert!(store.write(claim(1)).await.unwrap());
    assert!(!store.write(claim(2)).await.unwrap());
    assert_eq!(
        store.load(id).await.unwrap().unwrap().black_token,
        Some(vec![1; 32])
    );
    // A rematch is set once.
    let rematch = |r: &str| WriteOp::SetRematch {
        id: id.into(),
        rematch_id: r.into(),
    };
    assert!(store.write(rematch("kkkkkkkkkk")).await.unwrap());
    assert!(!store.write(rematch("llllllllll")).await.unwrap());

    // Lists.
    let mut other = sample_game("qqqqqqqqqq");
    other.mode = "engine".into();
    other.engine_color = Some("white".into());
    other.engine_level = Some(4);
    other.engine_movetime_ms = Some(50);
    other.white_token = None;
    other.black_token = Some(vec![3; 32]);
    store
        .write(WriteOp::InsertGame(Box::new(other)))
        .await
        .unwrap();
    assert_eq!(
        store.engine_pending().await.unwrap(),
        vec!["qqqqqqqqqq".to_string()]
    );
    let finished = Progress {
        to_move: None,
        result: "1-0".into(),
        updated_at: 9000,
        hints: [2, 1],
        ..live.progress()
    };
    store
        .write(WriteOp::Update {
            id: id.into(),
            progress: finished,
        })
        .await
        .unwrap();
    let live_ids: Vec<String> = store
        .list(ListFilter::Live, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(live_ids, vec!["qqqqqqqqqq"]);
    let done = store.list(ListFilter::Finished, 10).await.unwrap();
    assert_eq!(
        (done.len(), done[0].result.as_str(), done[0].status.as_str()),
        (1, "1-0", "finished")
    );
    let recent = store.list(ListFilter::Recent, 1).await.unwrap();
    assert_eq!(recent[0].id, id);
    assert_eq!(recent[0].move_count, 3);
    // The hint counts are kept.
    let hinted = store.load(id).await.unwrap().expect("the game");
    assert_eq!((hinted.white_hints, hinted.black_hints), (2, 1));
    assert_eq!(hinted.into_live().expect("valid").hints, [2, 1]);

    // Many writes at once are grouped and all acknowledged.
    let writes = (0..50u32).map(|i| {
        let store = &store;
        async move {
            let g = sample_game(&format!("g{i:09}"));
            store.write(WriteOp::InsertGame(Box::new(g))).await
        }
    });
    for r in futures_util::future::join_all(writes).await {
        assert!(r.expect("grouped write"));
    }
    assert_eq!(store.list(ListFilter::Recent, 100).await.unwrap().len(), 52);
    store.close().await;

    // Reopening finds everything (and migrating again is harmless).
    let store = Store::open(url).await.expect("reopen");
    assert_eq!(store.load(id).await.unwrap().unwrap().moves.len(), 3);
    store.close().await;
}

/// Games served by a server survive its restart on the same database.
async fn server_restart_keeps_games(url: &str) {
    let config = common::test_config(url);
    let mut server = TestServer::start_config(config.clone(), None).await;
    let grant = server.create(json!({ "mode": "friend", "seed": 99 })).await;
    let id = grant["game_id"].as_str().unwrap().to_string();
    let white = grant["token"].as_str().unwrap().to_string();
    let code = grant["join_code"].as_str().unwrap().to_string();
    let black = server.client.join(&id, &code).await.unwrap().token;
    let mut state = server.client.state(&id, None).await.unwrap();
    for n in 0..6 {
        let token = if n % 2 == 0 { &white } else { &black };
        state = server
            .client
            .play(
                &id,
                token,
                &state.legal_moves[n % state.legal_moves.len()].notation,
                None,
            )
            .await
            .unwrap();
    }
    server.stop().await;
    let server = TestServer::start_config(config, None).await;
    let again = server
        .client
        .state(&id, Some(&black))
        .await
        .expect("still there");
    assert_eq!(again.moves, state.moves);
    assert_eq!(again.position, state.position);
    assert_eq!(
        server.client.join(&id, &code).await.unwrap_err().code(),
        "seat_taken"
    );
    server
        .client
        .play(&id, &white, &again.legal_moves[0].notation, Some(7))
        .await
        .expect("goes on");
}

#[tokio::test]
async fn sqlite_keeps_the_storage_contract() {
    let dir = tempfile::tempdir().unwrap();
    storage_contract(&sqlite_url(&dir)).await;
    storage_contract(&format!(
        "sqlite://{}",
        dir.path().join("b.sqlite3").display()
    ))
    .await;
}

#[tokio::test]
async fn sqlite_in_memory_works_for_a_session() {
    let store = Store::open("sqlite::memory:").await.expect("in memory");
    store
        .write(WriteOp::InsertGame(Box::new(sample_game("mmmmmmmmmm"))))
        .await
        .unwrap();
    assert!(store.load("mmmmmmmmmm").await.unwrap().is_some());
}

#[tokio::test]
async fn postgres_keeps_the_storage_contract() {
    if let Some(url) = fresh_postgres().await {
        storage_contract(&url).await;
    }
}

#[tokio::test]
async fn a_server_on_sqlite_keeps_games_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    server_restart_keeps_games(&sqlite_url(&dir)).await;
}

#[tokio::test]
async fn a_server_on_postgres_keeps_games_across_a_restart() {
    if let Some(url) = fresh_postgres().await {
        server_restart_keeps_games(&url).await;
    }
}

#[tokio::test]
async fn a_missing_directory_is_created_for_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/c/games.sqlite3");
    let store = Store::open(&path.display().to_string())
        .await
        .expect("created");
    store.close().await;
    assert!(path.exists());
}
