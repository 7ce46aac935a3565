//! `mabula loadtest` against a real server, briefly: the run must see no error, and with several
//! URLs it must spread games, moves and spectators over all of them and count each one.

use crate::common;

use common::TestServer;
use mabula_client::loadtest::{LoadtestConfig, run};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loadtest_over_two_urls_uses_both_and_every_spectator_sees_every_move() {
    let server = TestServer::start().await;
    // The same server under two spellings of its URL: two instances as far as the load test
    // knows, one state behind them, so every request must succeed.
    let config = LoadtestConfig {
        urls: vec![server.base.clone(), format!("{}/", server.base)],
        games: 4,
        // Paced, so that the path that waits for each move's due time runs too.
        rate: Some(400.0),
        duration: Duration::from_millis(800),
        spectators: 4,
        watched_rate: 200.0,
        rated: 1,
        flags: 0,
    };
    let report = run(config).await.expect("the load test runs");

    assert!(report.errors.is_empty(), "errors: {:?}", report.errors);
    assert!(report.moves > 0 && report.games_created > 0, "{report}");
    assert_eq!(report.instances.len(), 2);
    for instance in &report.instances {
        assert!(instance.moves > 0, "{report}");
        assert!(instance.games_created > 0, "{report}");
        assert_eq!(instance.spectators, 2, "{report}");
        assert_eq!(instance.spectators_complete, 2, "{report}");
    }
    let per_instance: u64 = report.instances.iter().map(|i| i.moves).sum();
    assert_eq!(per_instance, report.moves);
    assert!(report.watched_moves > 0);
    assert_eq!(report.spectators_complete, 4, "{report}");
    // The rated pair met through the lobby and played with their sessions.
    assert!(
        report.rated_games.0 >= 1 && report.rated_moves > 0,
        "{report}"
    );
}
