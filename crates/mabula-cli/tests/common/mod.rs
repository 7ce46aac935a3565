//! A real `mabula serve` process for the tests, on a free port, killed when dropped.
#![allow(dead_code)]

pub mod player;

use mabula_client::client::Client;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A `mabula serve` process on a free port.
pub struct Instance {
    /// The process.
    pub child: Child,
    /// A client of it.
    pub client: Client,
}

impl Instance {
    /// Serves `database` with an engine that thinks `movetime_ms` a move.
    pub fn start(database: &str, movetime_ms: u32) -> Instance {
        Instance::start_with(database, movetime_ms, &[])
    }

    /// The same, with more options of `mabula serve`.
    pub fn start_with(database: &str, movetime_ms: u32, more: &[&str]) -> Instance {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mabula"))
            .args(["serve", "--bind", "127.0.0.1:0", "--rate-limit", "0"])
            .args(["--engine-movetime-ms", &movetime_ms.to_string()])
            .args(["--database", database])
            .args(more)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start mabula serve");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the address line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Instance {
            child,
            client: Client::new(&url),
        }
    }

    /// Kills it with SIGKILL and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The instances of a test and their addresses: three on PostgreSQL, else one on SQLite named
/// three times (see [`instances`]). The directory holds the SQLite file.
pub struct Nodes {
    /// The instances.
    pub nodes: Vec<Instance>,
    /// The SQLite file's directory.
    pub dir: tempfile::TempDir,
    /// Three addresses, one an instance (the same one three times on SQLite).
    pub bases: Vec<String>,
}

/// [`instances`] in a fresh directory, as [`Nodes`].
pub async fn nodes(file: &str) -> Nodes {
    let dir = tempfile::tempdir().expect("dir");
    let nodes = instances(&dir, file).await;
    let bases = (0..3)
        .map(|i| nodes[i % nodes.len()].client.base().to_string())
        .collect();
    Nodes { nodes, dir, bases }
}

/// Three instances on a fresh PostgreSQL database when `MABULA_TEST_POSTGRES_URL` names a
/// server, else one on SQLite in the file `file` of `dir` (with a notice).
pub async fn instances(dir: &tempfile::TempDir, file: &str) -> Vec<Instance> {
    match std::env::var("MABULA_TEST_POSTGRES_URL") {
        Ok(url) => {
            let db = mabula_server::store::postgres::create_database(&url)
                .await
                .expect("a fresh database");
            (0..3).map(|_| Instance::start(&db, 20)).collect()
        }
        Err(_) => {
            eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: one instance on SQLite");
            let db = dir.path().join(file).display().to_string();
            vec![Instance::start(&db, 20)]
        }
    }
}
