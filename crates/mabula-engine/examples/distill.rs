//! Labels the moves of opening and middle-game positions by a long level-10 search: the data for
//! fitting a move prior that gives a short search what a long one knows.
//!
//! ```text
//! cargo run --release -p mabula-engine --example distill -- largest|product LEFT,LEFT,.. COUNT PLAYOUTS OUT.txt
//! ```
//!
//! For `i` in `0..COUNT` and each `LEFT`, the labeller's self-play position `i` with `LEFT`
//! marbles on edge spaces (seed 1, as `mabula train label`) is searched by level 10 on one thread
//! for `PLAYOUTS` playouts, and one line goes to `OUT.txt`: the position, a tab, then every legal
//! move as `move:visits:score`, the score being the search's expected score for the mover (win 1,
//! draw 1/2, loss 0; exact results as 1, 0.5, 0). Resumable: lines already written are skipped.
//! With `FROM=N` in the environment the run starts at position `N` (for a second process).

use mabula::Scoring;
use mabula_engine::learn::labels::LabelRun;
use mabula_engine::{Engine, EngineConfig, Level, Limits};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scoring, lefts, count, playouts, out] = &args[..] else {
        eprintln!("usage: distill largest|product LEFT,LEFT,.. COUNT PLAYOUTS OUT.txt");
        std::process::exit(2);
    };
    let scoring: Scoring = scoring.parse().expect("scoring");
    let lefts: Vec<u32> = lefts.split(',').map(|l| l.parse().expect("left")).collect();
    let count: u64 = count.parse().expect("count");
    let playouts: u64 = playouts.parse().expect("playouts");
    let done = std::fs::read_to_string(out).map_or(0, |s| s.lines().count());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .expect("output");
    let config = EngineConfig {
        threads: 1,
        reuse: false,
        ..Level::new(10, 1).config
    };
    let mut engine = Engine::new(config, scoring);
    let from: u64 = std::env::var("FROM").map_or(0, |f| f.parse().expect("FROM"));
    let jobs = (from..count).flat_map(|i| lefts.iter().map(move |&left| (i, left)));
    for (n, (i, left)) in jobs.enumerate().skip(done) {
        let run = LabelRun {
            scoring,
            left,
            seed: 1,
            result_only: true,
        };
        let pos = run.position(i);
        engine.clear();
        let analysis = engine.analyze(&pos, &Limits::nodes(playouts));
        let mut line = format!("{pos}\t");
        for m in &analysis.moves {
            line += &format!("{}:{}:{:.4} ", m.mv, m.visits, m.value.expected());
        }
        writeln!(file, "{}", line.trim_end()).expect("write");
        eprintln!("{} lines", n + 1);
    }
}
