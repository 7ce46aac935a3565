//! A real `mabula serve` process for the tests, on a free port, killed when dropped.

pub mod player;

use mabula_client::client::Client;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// The clock file of every instance this test starts: their time is the real time plus what the
/// test moved it on by ([`advance`]). Nextest runs each test in a process of its own, so each
/// test has its own clock.
pub fn clock_file() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    static FILE: OnceLock<std::path::PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        DIR.get_or_init(|| tempfile::tempdir().expect("dir"))
            .path()
            .join("clock")
    })
}

/// Moves the clock of every instance of this test on by `by`, then waits until each of `bases`
/// has done what came due (its flags, sweeps, keep-alives: `POST /api/clock/settled`).
pub async fn advance(bases: &[String], by: Duration) {
    mabula_server::clock::advance_file(clock_file(), by).expect("the clock file");
    settle(bases).await;
}

/// [`advance`] by `step` at a time, `steps` times: what falls due in one step is done before the
/// next begins, as when the time passes by itself.
pub async fn advance_in_steps(bases: &[String], step: Duration, steps: u32) {
    for _ in 0..steps {
        advance(bases, step).await;
    }
}

/// Waits until each of `bases` has done what came due on its clock.
pub async fn settle(bases: &[String]) {
    let http = reqwest::Client::new();
    let mut seen = std::collections::HashSet::new();
    for base in bases {
        if seen.insert(base) {
            let answer = http
                .post(format!("{base}/api/clock/settled"))
                .send()
                .await
                .expect("settled");
            assert_eq!(answer.status().as_u16(), 204, "{base} did not settle");
        }
    }
}

/// The value of the metric `name` (a counter or gauge without labels, or a histogram's
/// `_count`) in the `/metrics` of the instance at `base`; 0 if it is not there yet.
pub async fn metric(base: &str, name: &str) -> u64 {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .expect("GET /metrics")
        .text()
        .await
        .expect("text");
    let prefix = format!("{name} ");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map_or(0, |v| v.trim().parse().expect("a count"))
}

/// A `mabula serve` process on a free port.
pub struct Instance {
    /// The process.
    pub child: Child,
    /// A client of it.
    pub client: Client,
    /// The database it serves (as given to `--database`).
    pub database: String,
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
            .arg("--clock-file")
            .arg(clock_file())
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
            database: database.to_string(),
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

impl Nodes {
    /// Moves the clock of every instance on by `by` and waits until they have done what came
    /// due ([`advance`]).
    pub async fn advance(&self, by: Duration) {
        advance(&self.bases, by).await;
    }

    /// A connection to the test's database (the SQLite file, or the PostgreSQL database the
    /// instances share), beside the running servers.
    async fn connect(&self) -> Db {
        use sqlx::Connection;
        let database = &self.nodes[0].database;
        if database.starts_with("postgres") {
            Db::Pg(
                sqlx::PgConnection::connect(database)
                    .await
                    .expect("connect"),
            )
        } else {
            let url = format!("sqlite://{database}");
            Db::Lite(
                sqlx::SqliteConnection::connect(&url)
                    .await
                    .expect("connect"),
            )
        }
    }

    /// Runs `sql` on the test's database: to set up what would take many games.
    pub async fn sql(&self, sql: &str) {
        let sql = sqlx::AssertSqlSafe(sql.to_string());
        match self.connect().await {
            Db::Pg(mut c) => sqlx::raw_sql(sql).execute(&mut c).await.map(drop),
            Db::Lite(mut c) => sqlx::raw_sql(sql).execute(&mut c).await.map(drop),
        }
        .expect("sql");
    }

    /// The number the query `sql` answers on the test's database (a `COUNT(*)`).
    pub async fn count(&self, sql: &str) -> i64 {
        let sql = sqlx::AssertSqlSafe(sql.to_string());
        match self.connect().await {
            Db::Pg(mut c) => sqlx::query_scalar(sql).fetch_one(&mut c).await,
            Db::Lite(mut c) => sqlx::query_scalar(sql).fetch_one(&mut c).await,
        }
        .expect("sql")
    }
}

/// A connection to a test's database.
enum Db {
    Pg(sqlx::PgConnection),
    Lite(sqlx::SqliteConnection),
}

/// [`instances`] in a fresh directory, as [`Nodes`].
pub async fn nodes(file: &str) -> Nodes {
    nodes_with(file, &[]).await
}

/// [`nodes`], each instance started with the options `more` of `mabula serve`.
pub async fn nodes_with(file: &str, more: &[&str]) -> Nodes {
    let dir = tempfile::tempdir().expect("dir");
    let nodes = instances_with(&dir, file, more).await;
    let bases = (0..3)
        .map(|i| nodes[i % nodes.len()].client.base().to_string())
        .collect();
    Nodes { nodes, dir, bases }
}

/// Three instances on a fresh PostgreSQL database when `MABULA_TEST_POSTGRES_URL` names a
/// server, else one on SQLite in the file `file` of `dir` (with a notice).
pub async fn instances(dir: &tempfile::TempDir, file: &str) -> Vec<Instance> {
    instances_with(dir, file, &[]).await
}

/// [`instances`], each started with the options `more` of `mabula serve`.
pub async fn instances_with(dir: &tempfile::TempDir, file: &str, more: &[&str]) -> Vec<Instance> {
    match std::env::var("MABULA_TEST_POSTGRES_URL") {
        Ok(url) => {
            let db = mabula_server::store::postgres::create_database(&url)
                .await
                .expect("a fresh database");
            (0..3)
                .map(|_| Instance::start_with(&db, 20, more))
                .collect()
        }
        Err(_) => {
            eprintln!("notice: MABULA_TEST_POSTGRES_URL is not set: one instance on SQLite");
            let db = dir.path().join(file).display().to_string();
            vec![Instance::start_with(&db, 20, more)]
        }
    }
}
