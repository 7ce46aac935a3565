//! How far `genmove` runs over its move time: whole games of `genmove` through the protocol
//! loop (in-process), timing every answer.
//!
//! ```text
//! cargo run --release -p mabula-engine --example overrun -- [MOVETIME_MS=1000] [GAMES=4] [largest|product]
//! ```

use mabula_engine::gtp::Gtp;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let movetime: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let scoring = args.get(2).cloned().unwrap_or_else(|| "largest".into());
    let mut overruns = Vec::new();
    for game in 0..games {
        let mut gtp = Gtp::new();
        for cmd in [
            format!("newgame {game}"),
            format!("movetime {movetime}"),
            format!("scoring {scoring}"),
        ] {
            gtp.execute(&cmd);
        }
        loop {
            let t = Instant::now();
            let (_, answer, _) = gtp.execute("genmove").expect("an answer");
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            if answer.is_err() {
                break;
            }
            overruns.push(ms - movetime as f64);
        }
    }
    overruns.sort_by(f64::total_cmp);
    let n = overruns.len();
    println!(
        "{n} genmoves at movetime {movetime} ms ({scoring}): overrun max {:+.1} ms, 99th percentile {:+.1} ms, median {:+.1} ms",
        overruns[n - 1],
        overruns[(n * 99 / 100).min(n - 1)],
        overruns[n / 2]
    );
}
