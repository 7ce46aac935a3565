//! Commands of the web server: `mabula serve` and `mabula loadtest`.

use anyhow::Context;
use mabula_server::loadtest::LoadtestConfig;
use mabula_server::{ServerConfig, shutdown_signal};
use std::time::Duration;

/// Server commands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Serve games over HTTP and WebSocket, with the browser UI at /.
    Serve {
        /// Address to listen on (port 0: any free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: String,
        /// Database: postgres://…, sqlite://PATH or a file path. Default: mabula.sqlite3 in the
        /// user's data directory.
        #[arg(long)]
        database: Option<String>,
        /// Engine moves computed at once (default: the number of cores); more wait in a queue.
        #[arg(long)]
        engine_threads: Option<usize>,
        /// The engine's thinking time per move when a game does not set it, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        engine_movetime_ms: u64,
        /// Requests per second allowed per client address (0: no limit).
        #[arg(long, default_value_t = 50.0)]
        rate_limit: f64,
        /// Burst size of the rate limit.
        #[arg(long, default_value_t = 100.0)]
        rate_burst: f64,
        /// The bound on the analysis board's thinking per position, in milliseconds.
        #[arg(long, default_value_t = 1500)]
        analysis_ms: u64,
    },
    /// Play many games against a running server, or several instances of it, and report moves
    /// per second, latencies and errors, in all and per instance (start the servers with
    /// --rate-limit 0).
    Loadtest {
        /// The server, e.g. http://127.0.0.1:8080; with several instances, each game is created
        /// on one and its moves go round all of them, and the spectators are spread over them.
        #[arg(required = true, num_args = 1..)]
        urls: Vec<String>,
        /// Games played at once.
        #[arg(long, default_value_t = 64)]
        games: usize,
        /// How long to play, in seconds.
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        /// WebSocket spectators of one extra game, each checked to receive every move.
        #[arg(long, default_value_t = 0)]
        spectators: usize,
        /// Moves per second played in the watched game.
        #[arg(long, default_value_t = 20.0)]
        watched_rate: f64,
    },
}

/// Runs a server command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match cmd {
        Command::Serve {
            bind,
            database,
            engine_threads,
            engine_movetime_ms,
            rate_limit,
            rate_burst,
            analysis_ms,
        } => {
            init_logs();
            let database = match database {
                Some(d) => d,
                None => mabula_server::store::default_database_path()
                    .display()
                    .to_string(),
            };
            let mut config = ServerConfig::new(database);
            if let Some(n) = engine_threads {
                config.hub.engine_threads = n;
            }
            config.hub.engine_movetime = Duration::from_millis(engine_movetime_ms);
            config.rate_limit = rate_limit;
            config.rate_burst = rate_burst;
            config.hub.analysis_time = Duration::from_millis(analysis_ms.max(1));
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind(&bind)
                    .await
                    .with_context(|| format!("cannot listen on {bind}"))?;
                let addr = listener.local_addr()?;
                println!(
                    "Mabula is served at http://{addr}/ (database: {})",
                    mabula_server::server::redact(&config.database)
                );
                mabula_server::run(listener, config, shutdown_signal()).await?;
                Ok(())
            })
        }
        Command::Loadtest {
            urls,
            games,
            seconds,
            spectators,
            watched_rate,
        } => {
            let config = LoadtestConfig {
                urls,
                games,
                duration: Duration::from_secs_f64(seconds),
                spectators,
                watched_rate,
            };
            let report = runtime.block_on(mabula_server::loadtest::run(config))?;
            println!("{report}");
            Ok(())
        }
    }
}

/// Logs to stderr, `RUST_LOG` style (default: info for the server, warnings for the rest).
fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,mabula_server=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
