//! The crash test: the real `mabula serve` is killed with SIGKILL in the middle of games and
//! restarted on the same database; every move it acknowledged is still there, and every game
//! goes on from where it was.

use crate::common;

use common::Instance;
use mabula::Color;
use mabula_client::client::Client;
use mabula_server::model::Mode;
use mabula_server::view::{ColorChoice, CreateGame};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn serve(database: &Path) -> Instance {
    Instance::start(&database.display().to_string(), 20)
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Plays random moves in a local game until the server stops answering; records each
/// acknowledged move.
async fn keep_playing(client: Client, id: String, token: String, acked: Arc<Mutex<Vec<String>>>) {
    let mut n = 0usize;
    loop {
        let Ok(state) = client.state(&id, None).await else {
            return;
        };
        if state.status == "finished" {
            return;
        }
        let mv = state.legal_moves[(n * 5 + 1) % state.legal_moves.len()]
            .notation
            .clone();
        n += 1;
        match client
            .play(&id, &token, &mv, Some(state.moves.len() as u32 + 1))
            .await
        {
            Ok(_) => acked.lock().expect("lock").push(mv),
            Err(_) => return,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_move_survives_a_kill_9() {
    let dir = TempDir(std::env::temp_dir().join(format!("mabula-crash-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("temp dir");
    let database = dir.0.join("games.sqlite3");
    let mut server = serve(&database);
    server.client.health().await.expect("the server answers");

    // Games at one screen, played as fast as the server acknowledges.
    let mut games = Vec::new();
    for seed in 0..8u64 {
        let req = CreateGame {
            seed: Some(mabula_server::view::SeedInput::Number(seed)),
            ..CreateGame::new(Mode::Local)
        };
        let grant = server.client.create(&req).await.expect("create");
        games.push((
            grant.game_id,
            grant.token,
            Arc::new(Mutex::new(Vec::<String>::new())),
        ));
    }
    // Engine games whose engine (white) is thinking when the server dies.
    let mut engine_games = Vec::new();
    for seed in 0..2u64 {
        let req = CreateGame {
            color: Some(ColorChoice::Black),
            engine_level: Some(1),
            engine_movetime_ms: Some(2000),
            seed: Some(mabula_server::view::SeedInput::Number(seed)),
            ..CreateGame::new(Mode::Engine)
        };
        engine_games.push(
            server
                .client
                .create(&req)
                .await
                .expect("create engine game")
                .game_id,
        );
    }
    let players: Vec<_> = games
        .iter()
        .map(|(id, token, acked)| {
            tokio::spawn(keep_playing(
                server.client.clone(),
                id.clone(),
                token.clone(),
                acked.clone(),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("reaped");
    for p in players {
        p.await.expect("player");
    }
    let played: usize = games.iter().map(|g| g.2.lock().expect("lock").len()).sum();
    assert!(
        played > 8,
        "the games were under way ({played} moves acknowledged)"
    );

    // Restarted on the same database: every acknowledged move is there, in order.
    let mut server = serve(&database);
    server
        .client
        .health()
        .await
        .expect("the restarted server answers");
    for (id, token, acked) in &games {
        let acked = acked.lock().expect("lock").clone();
        let state = server
            .client
            .state(id, Some(token))
            .await
            .expect("the game is still there");
        let stored: Vec<String> = state.moves.iter().map(|m| m.notation.clone()).collect();
        assert!(
            stored.len() >= acked.len(),
            "game {id}: {} stored, {} acknowledged",
            stored.len(),
            acked.len()
        );
        assert_eq!(stored[..acked.len()], acked[..], "game {id}");
        assert!(
            stored.len() <= acked.len() + 1,
            "at most the move in flight was committed unacknowledged"
        );
        if state.status == "playing" {
            let mv = &state.legal_moves[0].notation;
            server
                .client
                .play(id, token, mv, Some(stored.len() as u32 + 1))
                .await
                .expect("the game goes on");
        }
    }
    // The engines that were thinking start again and move.
    for id in &engine_games {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let state = server.client.state(id, None).await.expect("engine game");
            if state.moves.first().is_some_and(|m| m.side == Color::White) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the engine of {id} never moved after the restart"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // A graceful stop this time (SIGTERM): the process exits cleanly.
    let pid = server.child.id().to_string();
    Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill -TERM");
    let status = server.child.wait().expect("exit");
    assert!(
        status.success(),
        "a graceful shutdown exits with 0, got {status}"
    );
}
