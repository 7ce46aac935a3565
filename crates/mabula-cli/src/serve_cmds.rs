//! Commands of the web server: `mabula serve`, `mabula backup` and `mabula loadtest`.

use anyhow::Context;
use mabula_client::loadtest::LoadtestConfig;
use mabula_server::{ServerConfig, shutdown_signal};
use std::time::Duration;

/// Server commands.
#[derive(clap::Subcommand)]
// Parsed once per run: the size of `serve`'s many options costs nothing.
#[allow(clippy::large_enum_variant)]
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
        /// Threads that answer requests (default: the number of cores). Instances that share a
        /// host should share its cores: more threads than cores in all make the slowest answers
        /// slower.
        #[arg(long)]
        threads: Option<usize>,
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
        /// The most finished rated games this instance starts to analyse for the players'
        /// accuracy in an hour (0: none); the rest wait for a later hour or another instance.
        #[arg(long, default_value_t = 60)]
        accuracy_games_per_hour: u32,
        /// The engine's budget per position when a finished rated game is analysed for the
        /// players' accuracy, in playouts (a fixed budget, so that the same game always gets
        /// the same accuracy).
        #[arg(long, default_value_t = 20_000)]
        accuracy_playouts: u64,
        /// The time a client has to send a request head, in milliseconds (then: 408 and closed).
        #[arg(long, default_value_t = 10_000)]
        header_timeout_ms: u64,
        /// The time a client has to send a request body once its head is in, in milliseconds
        /// (then: 408 and closed).
        #[arg(long, default_value_t = 10_000)]
        body_timeout_ms: u64,
        /// The time a connection may stay open with no request, in milliseconds.
        #[arg(long, default_value_t = 60_000)]
        idle_timeout_ms: u64,
        /// Unfinished engine games allowed from one client address (0: no cap); a game left
        /// alone for an hour no longer counts.
        #[arg(long, default_value_t = 4)]
        max_engine_games_per_address: u32,
        /// Open connections allowed from one client address (0: no cap).
        #[arg(long, default_value_t = 256)]
        max_connections_per_address: usize,
        /// Open connections allowed in all (0: no cap); keep it below `ulimit -n`.
        #[arg(long, default_value_t = 4096)]
        max_connections: usize,
        /// Open WebSockets allowed from one client address (0: no cap).
        #[arg(long, default_value_t = 64)]
        max_websockets_per_address: usize,
        /// Lobby and tournament sockets one client address may open a minute, in bursts of a
        /// third of it (0: no limit): each new one is sent a whole list.
        #[arg(long, default_value_t = 60)]
        socket_opens_per_minute: u32,
        /// Open WebSockets allowed in all (0: no cap), seat holders' game sockets aside: the
        /// spectators' places, the lobby's and tournaments' sockets, the bots' streams.
        #[arg(long, default_value_t = 2048)]
        max_websockets: usize,
        /// Places kept for the game sockets of the games' players, beside `--max-websockets`;
        /// when they are all taken, a player takes a spectator's place.
        #[arg(long, default_value_t = 1024)]
        max_seat_websockets: usize,
        /// Game sockets one seat of a game may hold at once (0: no cap).
        #[arg(long, default_value_t = 8)]
        max_websockets_per_seat: usize,
        /// The longest request target accepted, in bytes (longer: 414).
        #[arg(long, default_value_t = 8 * 1024)]
        max_uri_bytes: usize,
        /// The most bytes of request headers accepted (more: 431).
        #[arg(long, default_value_t = 32 * 1024)]
        max_header_bytes: usize,
        /// Accounts that one client address may make in an hour (0: no limit); counted in the
        /// database, so it holds across instances.
        #[arg(long, default_value_t = mabula_server::services::accounts::SIGNUPS_PER_ADDRESS_HOUR)]
        signups_per_address_hour: u32,
        /// Keep house bots of these engine levels (1 to 10, comma-separated, e.g. `2,5,8,10`)
        /// in the lobby: accounts `house-level-N`, each with a 3+2 seek open in both scoring
        /// modes, answering challenges; their moves are computed once across instances.
        #[arg(long, value_name = "LEVELS", value_delimiter = ',')]
        house_bots: Vec<u8>,
        /// A proxy (IP address) whose X-Forwarded-For header names the client; repeat for
        /// several. Without it the header is ignored.
        #[arg(long = "trusted-proxy", value_name = "ADDR")]
        trusted_proxies: Vec<std::net::IpAddr>,
        /// A tournament the site makes every day, made once however many instances run:
        /// `HH:MM FORMAT MINUTES+SECONDS LENGTH` in UTC, LENGTH being a Swiss tournament's
        /// rounds or an arena's minutes, e.g. "18:00 arena 3+2 60"; repeat for several.
        #[arg(long = "daily-tournament", value_name = "SPEC")]
        daily_tournaments: Vec<String>,
        /// A tournament the site makes every week: `DAY HH:MM FORMAT MINUTES+SECONDS LENGTH`
        /// in UTC, e.g. "sunday 17:00 swiss 5+3 5"; repeat for several.
        #[arg(long = "weekly-tournament", value_name = "SPEC")]
        weekly_tournaments: Vec<String>,
        /// How the logs on stderr are written: `text` for people, `json` (one object a line)
        /// for a log collector.
        #[arg(long, value_enum, default_value_t = LogFormat::Text)]
        log_format: LogFormat,
        /// For tests: the server's time is the real time plus the milliseconds written in this
        /// file, which the test moves on (every instance given the same file moves at once).
        #[arg(long, hide = true, value_name = "PATH")]
        clock_file: Option<std::path::PathBuf>,
        /// For tests: how often the timed jobs (flags, ratings, lapsed seeks, tournaments) sweep
        /// the database, in milliseconds.
        #[arg(long, hide = true, default_value_t = 1000)]
        sweep_ms: u64,
    },
    /// Copy a server's SQLite database to a file, consistently, while the server runs on it;
    /// restore by serving the copy (`mabula serve --database OUT`). PostgreSQL: use pg_dump.
    Backup {
        /// The database: sqlite://PATH or a file path. Default: the one `serve` uses by default.
        #[arg(long)]
        database: Option<String>,
        /// Replace OUT if it exists.
        #[arg(long)]
        force: bool,
        /// The file to write the copy to.
        out: std::path::PathBuf,
    },
    /// Play many games against a running server, or several instances of it, and report moves
    /// per second, latencies and errors, in all and per instance (start the servers with
    /// --rate-limit 0, and with --signups-per-address-hour 0 for --rated).
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
        /// Moves per second offered in all, spread evenly over the games; a move's latency then
        /// counts from when it was due (default: each game moves as soon as it is answered).
        #[arg(long)]
        rate: Option<f64>,
        /// Moves per second played in the watched game.
        #[arg(long, default_value_t = 20.0)]
        watched_rate: f64,
        /// Pairs of new accounts that meet in the lobby and play rated 5+0 games with their
        /// sessions, beside the games at one screen.
        #[arg(long, default_value_t = 0)]
        rated: usize,
        /// Flag probes: rated 15+0 games that stop after the third move; reports how late
        /// after its deadline each flag reached a spectator (the run lasts at least 16 s then).
        #[arg(long, default_value_t = 0)]
        flags: usize,
        /// Instead of the games above: N new accounts play an arena tournament for --seconds
        /// (the arena itself lasts at least 10 minutes; they withdraw at the end) with random
        /// moves as fast as the server answers; reports moves/s and the pairing latency, a
        /// game's end to the next game's start (start the servers with
        /// --signups-per-address-hour 0).
        #[arg(long, default_value_t = 0)]
        arena: usize,
        /// Instead of the games above: N new bot accounts play each other through the bot API
        /// for --seconds (unrated 2+0 challenges, moves by the built-in engine at --level);
        /// reports moves/s and the stream delivery latency, a move's request to its arrival
        /// on the opponent's game stream (start the servers with --signups-per-address-hour 0).
        #[arg(long, default_value_t = 0)]
        bots: usize,
        /// The bots' engine level (with --bots).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=10))]
        level: u8,
    },
}

/// Runs a server command.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Command::Serve {
        threads: Some(n), ..
    } = &cmd
    {
        builder.worker_threads((*n).max(1));
    }
    let runtime = builder.enable_all().build()?;
    match cmd {
        Command::Serve {
            bind,
            database,
            threads: _,
            engine_threads,
            engine_movetime_ms,
            rate_limit,
            rate_burst,
            analysis_ms,
            accuracy_games_per_hour,
            accuracy_playouts,
            header_timeout_ms,
            body_timeout_ms,
            idle_timeout_ms,
            max_connections_per_address,
            max_engine_games_per_address,
            max_connections,
            max_websockets_per_address,
            socket_opens_per_minute,
            max_websockets,
            max_seat_websockets,
            max_websockets_per_seat,
            max_uri_bytes,
            max_header_bytes,
            signups_per_address_hour,
            house_bots,
            trusted_proxies,
            daily_tournaments,
            weekly_tournaments,
            log_format,
            clock_file,
            sweep_ms,
        } => {
            init_logs(log_format);
            let database = database.unwrap_or_else(default_database);
            let mut config = ServerConfig::new(database);
            if let Some(n) = engine_threads {
                config.services.engine_threads = n;
            }
            config.services.engine_movetime = Duration::from_millis(engine_movetime_ms);
            config.services.engine_games_per_address = max_engine_games_per_address;
            config.rate_limit = rate_limit;
            config.rate_burst = rate_burst;
            config.services.analysis_time = Duration::from_millis(analysis_ms.max(1));
            config.services.accuracy = mabula_server::services::accuracy::AccuracySettings {
                games_per_hour: accuracy_games_per_hour,
                playouts: accuracy_playouts.max(1),
            };
            config.header_timeout = Duration::from_millis(header_timeout_ms.max(1));
            config.body_timeout = Duration::from_millis(body_timeout_ms.max(1));
            config.idle_timeout = Duration::from_millis(idle_timeout_ms.max(1));
            config.max_connections_per_address = max_connections_per_address;
            config.max_connections = max_connections;
            config.max_websockets_per_address = max_websockets_per_address;
            config.socket_opens_per_minute = socket_opens_per_minute;
            config.max_websockets = max_websockets;
            config.max_seat_websockets = max_seat_websockets;
            config.max_websockets_per_seat = max_websockets_per_seat;
            config.max_uri_bytes = max_uri_bytes;
            config.max_header_bytes = max_header_bytes;
            config.services.signups_per_address_hour = signups_per_address_hour;
            config.services.house_bots = house_bots;
            config.trusted_proxies = trusted_proxies;
            if let Some(path) = clock_file {
                config.services.clock = mabula_server::clock::Clock::from_file(&path);
            }
            config.services.sweep_every = Duration::from_millis(sweep_ms.max(1));
            for (specs, weekly) in [(daily_tournaments, false), (weekly_tournaments, true)] {
                for spec in specs {
                    let schedule =
                        mabula_server::services::tournaments::Schedule::parse(&spec, weekly)
                            .map_err(|e| {
                                anyhow::anyhow!(
                                    "--{}-tournament {spec:?}: {e}",
                                    if weekly { "weekly" } else { "daily" }
                                )
                            })?;
                    config.services.tournament_schedules.push(schedule);
                }
            }
            runtime.block_on(async move {
                check_postgres(&config.database).await?;
                let listener = tokio::net::TcpListener::bind(&bind)
                    .await
                    .with_context(|| format!("cannot listen on {bind}"))?;
                let addr = listener.local_addr()?;
                println!(
                    "Mabula is served at http://{addr}/ (database: {})",
                    mabula_server::server::redact(&config.database)
                );
                // The server's error says its cause in its own message: print it once.
                mabula_server::run(listener, config, shutdown_signal())
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                Ok(())
            })
        }
        Command::Backup {
            database,
            force,
            out,
        } => {
            let database = database.unwrap_or_else(default_database);
            let size = runtime.block_on(mabula_server::store::backup::backup_sqlite(
                &database, &out, force,
            ))?;
            println!("Backed up {database} to {} ({size} bytes)", out.display());
            Ok(())
        }
        Command::Loadtest {
            urls,
            games,
            seconds,
            rate,
            spectators,
            watched_rate,
            rated,
            flags,
            arena,
            bots,
            level,
        } => {
            if bots > 0 {
                let config = mabula_client::loadtest::bots::BotsConfig {
                    urls,
                    bots,
                    duration: Duration::from_secs_f64(seconds),
                    chooser: engine_chooser(level),
                };
                let report = runtime.block_on(mabula_client::loadtest::bots::run(config))?;
                println!("{report}");
                return Ok(());
            }
            if arena > 0 {
                let config = mabula_client::loadtest::arena::ArenaConfig {
                    urls,
                    players: arena,
                    duration: Duration::from_secs_f64(seconds),
                };
                let report = runtime.block_on(mabula_client::loadtest::arena::run(config))?;
                println!("{report}");
                return Ok(());
            }
            let config = LoadtestConfig {
                urls,
                games,
                rate,
                duration: Duration::from_secs_f64(seconds),
                spectators,
                watched_rate,
                rated,
                flags,
            };
            let report = runtime.block_on(mabula_client::loadtest::run(config))?;
            println!("{report}");
            Ok(())
        }
    }
}

/// The bots' load test's moves: the built-in engine at `level`, 50 ms a move at most.
fn engine_chooser(level: u8) -> mabula_client::loadtest::bots::Chooser {
    std::sync::Arc::new(move |start: &str, scoring: &str, moves: &[String]| {
        let mut pos: mabula::Position = start.parse().ok()?;
        for m in moves {
            pos = pos.play(m.parse().ok()?).ok()?;
        }
        let scoring: mabula::Scoring = scoring.parse().ok()?;
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let mv =
            mabula_engine::choose_move(&pos, scoring, level, Some(Duration::from_millis(50)), seed);
        Some(mv.to_string())
    })
}

/// The database of `serve` and `backup` when none is named.
fn default_database() -> String {
    mabula_server::store::default_database_path()
        .display()
        .to_string()
}

/// How `serve` writes its logs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Lines for people, coloured on a terminal.
    Text,
    /// One JSON object a line: `timestamp`, `level`, `target`, `fields` (with `message`) and
    /// the request's `span` and `spans`.
    Json,
}

/// Logs to stderr, `RUST_LOG` style (default: info for the server, warnings for the rest).
fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,mabula_server=info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => {
            // Colour codes only for a terminal: a log file or a pipe gets plain text.
            let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr())
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            logs.with_ansi(ansi).try_init()
        }
        LogFormat::Json => logs.json().with_current_span(true).try_init(),
    };
}

/// How long `serve` waits for PostgreSQL's port before it gives up.
const DATABASE_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// For a PostgreSQL URL, checks that its server accepts connections, so that `serve` fails at
/// once with one message rather than after the pool's retries (and before saying it serves).
async fn check_postgres(url: &str) -> anyhow::Result<()> {
    let Some((host, port)) = postgres_address(url) else {
        return Ok(());
    };
    let shown = mabula_server::server::redact(url);
    let address = format!("{host}:{port}");
    match tokio::time::timeout(
        DATABASE_CONNECT_TIMEOUT,
        tokio::net::TcpStream::connect(address.as_str()),
    )
    .await
    {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => {
            anyhow::bail!("cannot reach the PostgreSQL server of {shown} at {address}: {e}")
        }
        Err(_) => anyhow::bail!(
            "cannot reach the PostgreSQL server of {shown} at {address}: no answer within {} s",
            DATABASE_CONNECT_TIMEOUT.as_secs()
        ),
    }
}

/// The host and port of a `postgres://` or `postgresql://` URL; `None` for other databases and
/// for URLs without a host (a Unix socket).
fn postgres_address(url: &str) -> Option<(String, u16)> {
    let rest = url
        .strip_prefix("postgres://")
        .or_else(|| url.strip_prefix("postgresql://"))?;
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    // Several hosts (`h1,h2`): the first is checked.
    let host_port = host_port.split(',').next().unwrap_or("");
    let (host, port) = if let Some(v6) = host_port.strip_prefix('[') {
        let (host, after) = v6.split_once(']')?;
        (host.to_string(), after.strip_prefix(':'))
    } else {
        match host_port.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p)),
            None => (host_port.to_string(), None),
        }
    };
    if host.is_empty() {
        return None;
    }
    let port = match port {
        Some(p) => p.parse().ok()?,
        None => 5432,
    };
    Some((host, port))
}

#[cfg(test)]
mod tests {
    use super::postgres_address;

    #[test]
    fn the_address_of_a_postgres_url_is_its_host_and_port() {
        let at = |u: &str| postgres_address(u);
        assert_eq!(
            at("postgres://mabula:secret@db.example:6543/mabula?sslmode=disable"),
            Some(("db.example".into(), 6543))
        );
        assert_eq!(
            at("postgresql://localhost/x"),
            Some(("localhost".into(), 5432))
        );
        assert_eq!(at("postgres://u@[::1]:5433/x"), Some(("::1".into(), 5433)));
        assert_eq!(at("postgres:///mabula?host=/run/postgresql"), None);
        assert_eq!(at("sqlite:///tmp/x.db"), None);
        assert_eq!(at("/tmp/mabula.db"), None);
    }
}
