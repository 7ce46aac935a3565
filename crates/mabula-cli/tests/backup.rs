//! Backups taken while games are played: `mabula backup` of a running server's SQLite file, and
//! the `pg_dump`/`pg_restore` steps of `docs/deploy.md` on the test PostgreSQL (named by
//! `MABULA_TEST_POSTGRES_URL`; without it that test says so and passes). Each restores to a
//! server that serves every move acknowledged before the backup began.

use crate::common;

use common::Instance;
use mabula_client::client::Client;
use mabula_server::model::Mode;
use mabula_server::view::{CreateGame, SeedInput};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A game played by a task of its own.
struct Played {
    id: String,
    token: String,
    /// The notation of every move the server acknowledged, in order.
    acked: Mutex<Vec<String>>,
    /// The game has ended, or its player stopped.
    done: AtomicBool,
}

impl Played {
    fn acked(&self) -> Vec<String> {
        self.acked.lock().expect("lock").clone()
    }
}

/// Games played by several tasks at once.
struct Players {
    games: Vec<Arc<Played>>,
    stop: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Players {
    /// Creates `count` local games on `client` and starts playing each on its own task.
    async fn start(client: &Client, count: u64) -> Players {
        let stop = Arc::new(AtomicBool::new(false));
        let mut games = Vec::new();
        let mut tasks = Vec::new();
        for seed in 0..count {
            let req = CreateGame {
                seed: Some(SeedInput::Number(seed)),
                ..CreateGame::new(Mode::Local)
            };
            let grant = client.create(&req).await.expect("create");
            let game = Arc::new(Played {
                id: grant.game_id,
                token: grant.token,
                acked: Mutex::new(Vec::new()),
                done: AtomicBool::new(false),
            });
            tasks.push(tokio::spawn(keep_playing(
                client.clone(),
                game.clone(),
                stop.clone(),
            )));
            games.push(game);
        }
        Players { games, stop, tasks }
    }

    /// Adds a game with one move that nobody plays on, so that a game is under way whenever the
    /// others have ended.
    async fn add_idle(&mut self, client: &Client) {
        let grant = client
            .create(&CreateGame::new(Mode::Local))
            .await
            .expect("create");
        let state = client.state(&grant.game_id, None).await.expect("state");
        let mv = state.legal_moves[0].notation.clone();
        client
            .play(&grant.game_id, &grant.token, &mv, Some(1))
            .await
            .expect("the move is played");
        self.games.push(Arc::new(Played {
            id: grant.game_id,
            token: grant.token,
            acked: Mutex::new(vec![mv]),
            done: AtomicBool::new(true),
        }));
    }

    /// Waits until every game has more acknowledged moves than `than` says (or has ended).
    async fn until_each_has_more(&self, than: &[Vec<String>]) {
        for (game, than) in self.games.iter().zip(than) {
            while game.acked.lock().expect("lock").len() <= than.len()
                && !game.done.load(Ordering::Acquire)
            {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
    }

    /// The acknowledged moves of every game so far.
    fn acknowledged(&self) -> Vec<Vec<String>> {
        self.games.iter().map(|g| g.acked()).collect()
    }

    /// Stops playing and waits for every task.
    async fn stop(self) -> Vec<Arc<Played>> {
        self.stop.store(true, Ordering::Release);
        for t in self.tasks {
            t.await.expect("player");
        }
        self.games
    }
}

/// Plays a game move after move until told to stop or the game ends; every move must be
/// accepted.
async fn keep_playing(client: Client, game: Arc<Played>, stop: Arc<AtomicBool>) {
    let mut state = client.state(&game.id, None).await.expect("state");
    let mut n = 0usize;
    while !stop.load(Ordering::Acquire) && state.status != "finished" {
        let mv = state.legal_moves[(n * 5 + 1) % state.legal_moves.len()]
            .notation
            .clone();
        n += 1;
        state = client
            .play(
                &game.id,
                &game.token,
                &mv,
                Some(state.moves.len() as u32 + 1),
            )
            .await
            .expect("the move is played");
        game.acked.lock().expect("lock").push(mv);
    }
    game.done.store(true, Ordering::Release);
}

/// Checks that the server of `client` serves each game with every move of `before` (acknowledged
/// before the backup began) and nothing that was not acknowledged, and that a game under way
/// goes on.
async fn check_restored(client: &Client, games: &[Arc<Played>], before: &[Vec<String>]) {
    let mut goes_on = false;
    for (game, before) in games.iter().zip(before) {
        let (id, token) = (&game.id, &game.token);
        let acked = game.acked();
        let state = client
            .state(id, Some(token))
            .await
            .unwrap_or_else(|e| panic!("game {id} is in the backup: {e}"));
        let stored: Vec<String> = state.moves.iter().map(|m| m.notation.clone()).collect();
        assert!(
            stored.len() >= before.len(),
            "game {id}: {} moves restored, {} acknowledged before the backup",
            stored.len(),
            before.len()
        );
        assert_eq!(stored[..before.len()], before[..], "game {id}");
        assert!(
            stored.len() <= acked.len(),
            "game {id}: the backup holds only acknowledged moves"
        );
        assert_eq!(stored[..], acked[..stored.len()], "game {id}");
        if state.status == "playing" && !goes_on {
            let mv = &state.legal_moves[0].notation;
            client
                .play(id, token, mv, Some(stored.len() as u32 + 1))
                .await
                .expect("a restored game goes on");
            goes_on = true;
        }
    }
    assert!(goes_on, "some game was still under way");
}

/// Runs a command to its end; panics with its output unless it succeeds.
fn run(cmd: &mut Command) -> String {
    let shown = format!("{cmd:?}");
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    assert!(
        out.status.success(),
        "{shown} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a command on a blocking thread, so that the players go on meanwhile.
async fn run_aside(mut cmd: Command) -> String {
    tokio::task::spawn_blocking(move || run(&mut cmd))
        .await
        .expect("the command's thread")
}

fn mabula_backup(database: &Path, out: &Path, force: bool) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mabula"));
    cmd.arg("backup").arg("--database").arg(database).arg(out);
    if force {
        cmd.arg("--force");
    }
    cmd
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_backup_taken_during_play_serves_every_move_acknowledged_before_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("games.sqlite3");
    let copy = dir.path().join("copy.sqlite3");
    let server = Instance::start(&database.display().to_string(), 20);
    let mut players = Players::start(&server.client, 6).await;
    players.add_idle(&server.client).await;
    players
        .until_each_has_more(&vec![vec![String::new(); 2]; 6])
        .await;

    let before = players.acknowledged();
    run_aside(mabula_backup(&database, &copy, false)).await;
    // Once more while the games go on: an existing copy is kept unless --force is given.
    let refused = mabula_backup(&database, &copy, false)
        .output()
        .expect("run mabula backup");
    assert!(
        !refused.status.success(),
        "an existing file is not replaced"
    );
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--force"),
        "the refusal says how to replace it: {}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // Nor is a database a server runs on, even with --force.
    let refused = mabula_backup(&copy, &database, true)
        .output()
        .expect("run mabula backup");
    assert!(
        !refused.status.success(),
        "a served database is not replaced"
    );
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("in use"),
        "the refusal says why: {}",
        String::from_utf8_lossy(&refused.stderr)
    );
    players.until_each_has_more(&before).await;
    let games = players.stop().await;

    // Restoring is serving the copy, beside the server still running on the original.
    let restored = Instance::start(&copy.display().to_string(), 20);
    check_restored(&restored.client, &games, &before).await;
    drop(restored);

    // --force replaces the copy with a newer one: every move of the stopped games is in it.
    let all = games.iter().map(|g| g.acked()).collect::<Vec<_>>();
    run(&mut mabula_backup(&database, &copy, true));
    let restored = Instance::start(&copy.display().to_string(), 20);
    check_restored(&restored.client, &games, &all).await;
}

/// A PostgreSQL tool: from `PG_BIN` or Debian's PostgreSQL 15 (whose version matches the test
/// server), else from the `PATH`.
fn pg_tool(name: &str) -> Command {
    let dir = std::env::var_os("PG_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/postgresql/15/bin"));
    let path = dir.join(name);
    Command::new(if path.is_file() { path } else { name.into() })
}

/// `url` with its database replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, ""), |(b, q)| (b, q));
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[after_scheme..]
        .find('/')
        .map_or(base.len(), |i| after_scheme + i);
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    format!("{}/{name}{query}", &base[..host_end])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_dump_and_restore_steps_serve_every_move_acknowledged_before_the_dump() {
    let Ok(admin) = std::env::var("MABULA_TEST_POSTGRES_URL") else {
        eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: the pg_dump test is skipped");
        return;
    };
    let database = mabula_server::store::postgres::create_database(&admin)
        .await
        .expect("a fresh database");
    let dir = tempfile::tempdir().expect("temp dir");
    let dump = dir.path().join("mabula.dump");
    let server = Instance::start(&database, 20);
    let mut players = Players::start(&server.client, 6).await;
    players.add_idle(&server.client).await;
    players
        .until_each_has_more(&vec![vec![String::new(); 2]; 6])
        .await;

    // The steps of docs/deploy.md, "Backups", while the games go on.
    let before = players.acknowledged();
    let mut pg_dump = pg_tool("pg_dump");
    pg_dump
        .arg("--format=custom")
        .arg(format!("--file={}", dump.display()))
        .arg(&database);
    run_aside(pg_dump).await;
    players.until_each_has_more(&before).await;
    let games = players.stop().await;

    let name = format!("mabula_restored_{:016x}", rand_suffix());
    run(pg_tool("createdb")
        .arg(format!("--maintenance-db={admin}"))
        .arg(&name));
    let restored_url = with_database(&admin, &name);
    run(pg_tool("pg_restore")
        .args(["--no-owner", "--exit-on-error", "--single-transaction"])
        .arg(format!("--dbname={restored_url}"))
        .arg(&dump));

    let restored = Instance::start(&restored_url, 20);
    check_restored(&restored.client, &games, &before).await;
}

/// A number that differs between runs, for a database name.
fn rand_suffix() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::process::id())
}
