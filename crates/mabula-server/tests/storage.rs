//! The storage backends, each on a fresh database: SQLite always, PostgreSQL when
//! `MABULA_TEST_POSTGRES_URL` names a server (`scripts/start-postgres.sh` starts one).

use crate::common;

use common::TestServer;
use mabula::{Color, GameResult, Scoring};
use mabula_server::model::{
    Clock, EngineSettings, LiveGame, Mode, PairHalf, Player, TimeControl, UndoOffer,
};
use mabula_server::store::{
    EngineCap, ListFilter, MovesChange, Orphan, PresenceCounts, RowChange, RowState, Store,
    StoredGame, WriteOp,
};
use serde_json::json;

/// A fresh PostgreSQL database on the test server, or `None` (with a notice) when there is none.
async fn fresh_postgres() -> Option<String> {
    let Ok(url) = std::env::var("MABULA_TEST_POSTGRES_URL") else {
        eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: PostgreSQL storage tests skipped");
        return None;
    };
    Some(
        mabula_server::store::postgres::create_database(&url)
            .await
            .expect("a fresh database"),
    )
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
        mode: Mode::Friend,
        scoring: Scoring::Largest,
        seed: Some(u64::MAX),
        start,
        engine: None,
        white_token: Some([7; 32]),
        black_token: None,
        join_code: Some([9; 32]),
        epoch: 0,
        version: 0,
        result: GameResult::Unfinished,
        end_reason: None,
        rematch_of: None,
        rematch_id: None,
        moves: Vec::new(),
        hints: [0, 0],
        pair: Some(PairHalf::First),
        undo_offer: None,
        draw_offer: None,
        draw_refused: [None, None],
        engine_owner: None,
        players: [
            Some(Player {
                key: "alice".into(),
                name: "Alice".into(),
                rating: Some(1612),
                provisional: true,
                diff: None,
                bot: false,
            }),
            None,
        ],
        rated: true,
        clock: Some(Clock::new(
            TimeControl::Clock {
                initial_s: 180,
                increment_s: 2,
            },
            1000,
        )),
        tournament: None,
    }
}

fn insert(g: StoredGame) -> WriteOp {
    let row = RowState::of(
        &g.clone().into_live().expect("valid"),
        g.engine_owner.clone(),
    );
    WriteOp::Insert(Box::new(g), Box::new(row), None)
}

/// The change from version `expect` to the game `next`.
fn change(next: &LiveGame, expect: u64, moves: MovesChange) -> WriteOp {
    WriteOp::Change(Box::new(RowChange {
        id: next.id.clone(),
        expect,
        row: RowState::of(next, None),
        moves,
        reason: "test",
    }))
}

/// The storage contract, the same for every backend.
async fn storage_contract(url: &str) {
    let store = Store::open(url).await.expect("open and migrate");
    let id = "abcdefghij";
    assert!(store.write(insert(sample_game(id))).await.expect("insert"));
    let loaded = store.load(id).await.expect("load").expect("present");
    assert_eq!(
        loaded,
        sample_game(id),
        "a game reads back as written (u64 seed and pair half included)"
    );
    assert!(store.load("zzzzzzzzzz").await.expect("load").is_none());

    // Moves, in order, each from the version before it.
    let mut live = loaded.into_live().expect("a valid game");
    for ply in 0..5u32 {
        let mv = live.game.position().legal_moves()[0];
        live.apply_move(mv, 2000 + i64::from(ply)).expect("legal");
        let op = change(&live, u64::from(ply), MovesChange::Append { ply, mv });
        assert!(store.write(op).await.expect("append"));
        live.version += 1;
    }
    // A change computed from an older version is refused and changes nothing.
    let mut stale = live.clone();
    stale.take_back(3, 2500);
    let op = change(&stale, 2, MovesChange::Truncate { keep: 2 });
    assert!(!store.write(op).await.expect("refused, no error"));
    assert_eq!(store.backend().version(id).await.unwrap(), Some(5));
    let back = store
        .load(id)
        .await
        .unwrap()
        .unwrap()
        .into_live()
        .expect("replays");
    assert_eq!(back.game.moves(), live.game.moves());
    assert_eq!((back.updated_at, back.version), (2004, 5));

    // Taking back.
    live.take_back(2, 3000);
    let op = change(&live, 5, MovesChange::Truncate { keep: 3 });
    assert!(store.write(op).await.expect("truncate"));
    live.version = 6;
    let back = store.load(id).await.unwrap().unwrap();
    assert_eq!((back.moves.len(), back.epoch, back.version), (3, 1, 6));

    // A seat, an undo offer and a rematch are stored with the row.
    live.black_token = Some([1; 32]);
    live.undo_offer = Some(UndoOffer {
        by: Color::White,
        moves: 1,
    });
    live.rematch_id = Some("kkkkkkkkkk".into());
    // A draw offer, and the move count of a declined one.
    live.draw_offer = Some(Color::Black);
    live.draw_refused = [Some(2), None];
    assert!(
        store
            .write(change(&live, 6, MovesChange::None))
            .await
            .unwrap()
    );
    live.version = 7;
    let back = store.load(id).await.unwrap().unwrap();
    assert_eq!(back.black_token, Some([1; 32]));
    assert_eq!(back.undo_offer, live.undo_offer);
    assert_eq!(back.rematch_id.as_deref(), Some("kkkkkkkkkk"));
    assert_eq!(back.draw_offer, Some(Color::Black));
    assert_eq!(back.draw_refused, [Some(2), None]);

    // Engine moves: an orphan is claimed once.
    let mut other = sample_game("qqqqqqqqqq");
    other.mode = Mode::Engine;
    // Begun just now: an engine game nobody moved in is live for its first minutes only.
    other.created_at = mabula_server::model::now_ms();
    other.engine = Some(EngineSettings {
        color: Color::White,
        level: 4,
        movetime_ms: 50,
    });
    other.white_token = None;
    other.black_token = Some([3; 32]);
    other.pair = None;
    store.write(insert(other)).await.unwrap();
    let backend = store.backend();
    backend.heartbeat("alive", 0, 10_000, 0).await.unwrap();
    let orphans = backend.engine_orphans(5_000, 10).await.unwrap();
    assert_eq!(
        orphans,
        vec![Orphan {
            id: "qqqqqqqqqq".into(),
            owner: None
        }]
    );
    assert!(backend.claim_engine(&orphans[0], "alive").await.unwrap());
    assert!(!backend.claim_engine(&orphans[0], "other").await.unwrap());
    assert!(backend.engine_orphans(5_000, 10).await.unwrap().is_empty());
    // Once "alive" is silent for too long, its claim is free again.
    assert_eq!(backend.engine_orphans(20_000, 10).await.unwrap().len(), 1);

    // Presence is summed over live instances.
    let counts = |w, b, s| PresenceCounts {
        white: w,
        black: b,
        spectators: s,
    };
    backend.heartbeat("second", 0, 10_000, 0).await.unwrap();
    backend
        .presence("alive", id, Some(counts(1, 0, 2)), 5_000)
        .await
        .unwrap();
    let total = backend
        .presence("second", id, Some(counts(0, 1, 3)), 5_000)
        .await
        .unwrap();
    assert_eq!(total, counts(1, 1, 5));
    assert_eq!(
        backend.presence("x", id, None, 20_000).await.unwrap(),
        counts(0, 0, 0),
        "silent instances do not count"
    );
    backend.leave("second").await.unwrap();
    assert_eq!(
        backend.presence("x", id, None, 5_000).await.unwrap(),
        counts(1, 0, 2)
    );

    // Lists.
    live.resign(mabula::Color::Black, 9000);
    live.hints = [2, 1];
    assert!(
        store
            .write(change(&live, 7, MovesChange::None))
            .await
            .unwrap()
    );
    let live_ids: Vec<String> = store
        .list(ListFilter::Live, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(live_ids, vec!["qqqqqqqqqq"]);
    let done = store.list(ListFilter::Finished, 10).await.unwrap();
    assert_eq!((done.len(), done[0].result), (1, GameResult::WhiteWins));
    let recent = store.list(ListFilter::Recent, 1).await.unwrap();
    assert_eq!(recent[0].id, id);
    assert_eq!(recent[0].move_count, 3);
    // The hint counts are kept.
    let hinted = store.load(id).await.unwrap().expect("the game");
    assert_eq!(hinted.hints, [2, 1]);
    assert_eq!(hinted.into_live().expect("valid").hints, [2, 1]);

    // Many writes at once are grouped and all acknowledged.
    let writes = (0..50u32).map(|i| {
        let store = &store;
        async move { store.write(insert(sample_game(&format!("g{i:09}")))).await }
    });
    for r in futures_util::future::join_all(writes).await {
        assert!(r.expect("grouped write"));
    }
    assert_eq!(store.list(ListFilter::Recent, 100).await.unwrap().len(), 52);

    // Engine games are capped per address by their insert, even when inserted at once; games
    // left alone since before `active_since` do not count.
    let engine_game = |id: &str, updated_at: i64| {
        let mut g = sample_game(id);
        g.mode = Mode::Engine;
        g.engine = Some(EngineSettings {
            color: Color::Black,
            level: 1,
            movetime_ms: 50,
        });
        (g.players, g.rated, g.clock, g.pair) = ([None, None], false, None, None);
        g.updated_at = updated_at;
        g
    };
    let capped = |g: StoredGame, address: &str| match insert(g) {
        WriteOp::Insert(g, row, _) => WriteOp::Insert(
            g,
            row,
            Some(EngineCap {
                address: address.into(),
                most: 2,
                active_since: 5000,
            }),
        ),
        op => op,
    };
    let writes = (0..5u32).map(|i| {
        let store = &store;
        let op = capped(engine_game(&format!("e{i:09}"), 9000), "10.0.0.1");
        async move { store.write(op).await.expect("a capped write") }
    });
    let written = futures_util::future::join_all(writes).await;
    assert_eq!(written.iter().filter(|&&w| w).count(), 2, "{written:?}");
    let other = capped(engine_game("f000000000", 9000), "10.0.0.2");
    assert!(store.write(other).await.expect("another address"));
    let idle = capped(engine_game("f000000001", 4000), "10.0.0.3");
    assert!(store.write(idle).await.expect("an idle game"));
    for id in ["f000000002", "f000000003"] {
        let op = capped(engine_game(id, 9000), "10.0.0.3");
        assert!(store.write(op).await.expect("the idle game does not count"));
    }
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
        .write(insert(sample_game("mmmmmmmmmm")))
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

#[tokio::test]
async fn a_second_process_on_one_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir);
    let first = Store::open(&url).await.expect("the first opens");
    let err = Store::open(&url)
        .await
        .err()
        .expect("the second is refused");
    assert!(
        err.to_string().contains("in use by another mabula server"),
        "{err}"
    );
    first.close().await;
    Store::open(&url)
        .await
        .expect("free again once the first closed");
}

/// The quotas, trusted devices and flagged pairs of issue 35 on the database at `url`, through
/// two stores at once where the database allows it (two instances).
async fn abuse_tables(url: &str, two: bool) {
    let a = Store::open(url).await.expect("open");
    let b = if two {
        Some(Store::open(url).await.expect("open again"))
    } else {
        None
    };
    let dbs = [a.repositories(), b.as_ref().unwrap_or(&a).repositories()];
    // Twenty sign-ups at once from one address, under a cap of five: five get through.
    let tries = (0..20).map(|i| {
        let db = dbs[i % 2].signups.clone();
        tokio::spawn(async move { db.take("10.0.0.1", 1_000 + i as i64, 0, 5).await })
    });
    let mut taken = 0;
    for t in tries {
        taken += usize::from(t.await.expect("joined").expect("stored"));
    }
    assert_eq!(taken, 5);
    // Twenty seeks at once from one player (and, for others, one address), under caps of five
    // and eight: five, then three more, get through; a player whose rating is provisional gets
    // one seek open to everyone.
    let seek = |i: usize, account: &str, provisional: bool| mabula_server::store::lobby::SeekRow {
        id: format!("{account}{i}"),
        account: account.into(),
        name: account.into(),
        rating: 1500,
        provisional,
        target: None,
        scoring: mabula::Scoring::Largest,
        rated: false,
        control: mabula_server::model::TimeControl::Days { days: 3 },
        color: "random".into(),
        rating_min: None,
        rating_max: None,
        created_at: 1_000,
        expires_at: i64::MAX,
        address: if provisional { "10.0.9.8" } else { "10.0.9.9" }.into(),
        no_bots: false,
        bot: false,
    };
    let caps = mabula_server::store::lobby::SeekCaps {
        per_account: 5,
        per_address: 8,
        provisional_open: 1,
    };
    for (account, provisional, expect) in [("one", false, 5), ("two", false, 3), ("new", true, 1)] {
        let row = mabula_server::store::accounts::AccountRow {
            key: account.into(),
            name: account.into(),
            password_hash: "x".into(),
            created_at: 0,
        };
        assert!(dbs[0].accounts.create_account(&row).await.expect("stored"));
        let tries = (0..20).map(|i| {
            let (db, seek) = (dbs[i % 2].lobby.clone(), seek(i, account, provisional));
            tokio::spawn(async move { db.insert_seek(&seek, Some(caps), None).await })
        });
        let mut stored = 0;
        for t in tries {
            stored += usize::from(t.await.expect("joined").expect("stored"));
        }
        assert_eq!(stored, expect, "{account}");
    }
    // More newer seeks of provisional ratings than the lobby lists push no settled one off it.
    let listed = mabula_server::store::lobby::LISTED_SEEKS as usize;
    for i in 0..listed {
        let mut s = seek(100 + i, "new", true);
        s.created_at = 2_000 + i as i64;
        assert!(
            dbs[i % 2]
                .lobby
                .insert_seek(&s, None, None)
                .await
                .expect("stored")
        );
    }
    let public = dbs[1].lobby.public_seeks(3_000).await.expect("read");
    let all = dbs[0].lobby.seeks(3_000, None).await.expect("read");
    for list in [&public, &all] {
        assert_eq!(list.len(), listed);
        assert_eq!(list.iter().filter(|s| !s.provisional).count(), 8);
        assert!(
            list.windows(2).all(|w| w[0].created_at <= w[1].created_at),
            "oldest first"
        );
    }
    assert!(
        dbs[1]
            .signups
            .oldest("10.0.0.1", 0)
            .await
            .expect("read")
            .is_some()
    );
    assert!(
        dbs[0]
            .signups
            .take("10.0.0.2", 1_000, 0, 5)
            .await
            .expect("stored")
    );
    // Once the window has passed the old ones are forgotten.
    assert!(
        dbs[1]
            .signups
            .take("10.0.0.1", 9_000, 5_000, 5)
            .await
            .expect("stored")
    );

    let account = mabula_server::store::accounts::AccountRow {
        key: "owner".into(),
        name: "Owner".into(),
        password_hash: "x".into(),
        created_at: 0,
    };
    assert!(
        dbs[0]
            .accounts
            .create_account(&account)
            .await
            .expect("stored")
    );
    let device = [7u8; 32];
    assert_eq!(
        dbs[1].accounts.device_account(&device).await.expect("read"),
        None
    );
    dbs[0]
        .accounts
        .add_device(&device, "owner", 1)
        .await
        .expect("stored");
    dbs[0]
        .accounts
        .add_device(&device, "owner", 2)
        .await
        .expect("twice is once");
    assert_eq!(
        dbs[1]
            .accounts
            .device_account(&device)
            .await
            .expect("read")
            .as_deref(),
        Some("owner")
    );

    dbs[0]
        .games
        .flag_pair("alice", "bob", 10)
        .await
        .expect("stored");
    dbs[1]
        .games
        .flag_pair("alice", "bob", 20)
        .await
        .expect("stored");
    let flags = dbs[0].games.pair_flags().await.expect("read");
    assert_eq!(flags.len(), 1);
    assert_eq!(
        (flags[0].games, flags[0].first_at, flags[0].last_at),
        (2, 10, 20)
    );
    if let Some(b) = b {
        b.close().await;
    }
    a.close().await;
}

#[tokio::test]
async fn quotas_devices_and_flags_hold_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    abuse_tables(&sqlite_url(&dir), false).await;
}

#[tokio::test]
async fn quotas_devices_and_flags_hold_across_two_stores_on_postgres() {
    if let Some(url) = fresh_postgres().await {
        abuse_tables(&url, true).await;
    }
}

/// A rated game between `white` and `black` (accounts), won by White on resignation.
fn rated_game_between(id: &str, white: &str, black: &str) -> StoredGame {
    let player = |key: &str, rating: i32| Player {
        key: key.into(),
        name: key.into(),
        rating: Some(rating),
        provisional: false,
        diff: None,
        bot: false,
    };
    StoredGame {
        players: [Some(player(white, 1700)), Some(player(black, 1500))],
        white_token: None,
        join_code: None,
        pair: None,
        clock: None,
        result: GameResult::WhiteWins,
        end_reason: Some(mabula_server::model::EndReason::ResignedBlack),
        ..sample_game(id)
    }
}

/// Deleting an account whose rated game waits for its rating, then rating the game: the
/// opponent is rated, the deleted side is not.
async fn rating_after_a_deletion(url: &str) {
    use mabula_server::model::rating::Glicko2;
    use mabula_server::store::accounts::AccountRow;
    let store = Store::open(url).await.expect("open");
    let repos = store.repositories();
    for key in ["ann", "bob", "cat"] {
        let row = AccountRow {
            key: key.into(),
            name: key.into(),
            password_hash: "x".into(),
            created_at: 0,
        };
        assert!(repos.accounts.create_account(&row).await.expect("stored"));
    }
    let first = "ratedgam01";
    assert!(
        store
            .write(insert(rated_game_between(first, "ann", "bob")))
            .await
            .expect("insert")
    );
    let deleted = repos
        .accounts
        .delete_account("ann", "x", "deleted-a1b2c3", 5_000)
        .await
        .expect("deleted")
        .expect("the password matched");
    assert_eq!(deleted.games.len(), 1);

    let rated = repos
        .ratings
        .rate_game(first, &Glicko2::default(), [0.0; 2], 6_000)
        .await
        .expect("a deleted player's game is rated for the opponent");
    assert!(rated.is_some(), "rated now");
    let bob = repos.ratings.read().ratings("bob").await.expect("read");
    assert_eq!(bob.len(), 1, "{bob:?}");
    assert_eq!(bob[0].games, 1);
    // Bob lost to a 1700 (as the game showed Ann): he goes down, less than against an equal.
    assert!(bob[0].rating.rating < 1500.0, "{bob:?}");
    let game = store.load(first).await.expect("load").expect("present");
    let [white, black] = &game.players;
    assert_eq!(white.as_ref().and_then(|p| p.diff), None, "no change kept");
    assert!(black.as_ref().and_then(|p| p.diff).is_some_and(|d| d < 0));
    assert!(
        repos
            .ratings
            .rate_game(first, &Glicko2::default(), [0.0; 2], 7_000)
            .await
            .expect("once")
            .is_none(),
        "rated once"
    );
}

#[tokio::test]
async fn a_deleted_players_game_still_rates_the_opponent_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    rating_after_a_deletion(&sqlite_url(&dir)).await;
}

#[tokio::test]
async fn a_deleted_players_game_still_rates_the_opponent_on_postgres() {
    if let Some(url) = fresh_postgres().await {
        rating_after_a_deletion(&url).await;
    }
}

/// A game's accuracy job: held by its live owner, taken over when the owner stops beating, or
/// after an hour even from a live owner (its job died without giving the claim back).
async fn accuracy_claims(url: &str) {
    use mabula_server::store::accuracy::CLAIM_LASTS_MS;
    let store = Store::open(url).await.expect("open");
    let jobs = store.repositories().accuracy;
    let t = 1_000_000;
    let beat = |at: i64| store.heartbeat("a", 0, at, 0);
    beat(t).await.0.expect("a beats");
    assert!(jobs.claim("g1", "a", t, t - 30_000).await.expect("claim"));
    assert!(
        !jobs
            .claim("g1", "b", t + 1_000, t - 29_000)
            .await
            .expect("claim")
    );
    let later = t + CLAIM_LASTS_MS + 1_000;
    beat(later).await.0.expect("a still beats");
    assert!(
        jobs.claim("g1", "b", later, later - 30_000)
            .await
            .expect("claim")
    );
    // And from an owner no longer heard from, at once.
    assert!(
        jobs.claim("g2", "c", later, later - 30_000)
            .await
            .expect("claim")
    );
    assert!(
        jobs.claim("g2", "a", later + 40_000, later + 10_000)
            .await
            .expect("claim")
    );
    store.close().await;
}

#[tokio::test]
async fn accuracy_claims_are_taken_over_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    accuracy_claims(&sqlite_url(&dir)).await;
}

#[tokio::test]
async fn accuracy_claims_are_taken_over_on_postgres() {
    if let Some(url) = fresh_postgres().await {
        accuracy_claims(&url).await;
    }
}
