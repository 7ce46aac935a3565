//! Solves every move of labelled positions: the data of the playout-policy fit (`policy_fit`).
//!
//! ```text
//! cargo run --release -p mabula-engine --example siblings -- LABELS.mlb COUNT OUT.txt
//! ```
//!
//! For each of the first `COUNT` labels of `LABELS.mlb` it writes one line to `OUT.txt`: the
//! position, a tab, then every legal move with the exact result it keeps for the mover (1 win,
//! 0 draw, -1 loss), as `move:result` separated by spaces. Resumable: lines already in `OUT.txt`
//! are kept and skipped.
//!
//! `siblings --children largest|product IN.txt OUT.mlb` writes the positions after those moves
//! as result-only labels (the mover's result negated), for `mabula train fit`.

use mabula::{Move, Position, Scoring};
use mabula_engine::learn::labels::{Label, Source, read_labels, write_labels};
use mabula_engine::{Limits, SolveMode, Solver};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, scoring, input, out] = &args[..]
        && flag == "--children"
    {
        return children(scoring.parse().expect("scoring"), input, out);
    }
    let [labels, count, out] = &args[..] else {
        eprintln!("usage: siblings LABELS.mlb COUNT OUT.txt");
        std::process::exit(2);
    };
    let labels = read_labels(std::fs::File::open(labels).expect("labels")).expect("labels");
    let count: usize = count.parse().expect("count");
    let done = std::fs::read_to_string(out).map_or(0, |s| s.lines().count());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .expect("output");
    let Some(scoring) = labels.first().map(|l| l.scoring) else {
        return;
    };
    let mut solver = Solver::new(scoring, 64);
    for (i, label) in labels.iter().enumerate().take(count).skip(done) {
        let pos = label.position;
        let mut line = format!("{pos}\t");
        for mv in pos.legal_moves().iter() {
            let mut next = pos;
            next.play_unchecked(*mv);
            let kept = -result(&mut solver, &next, scoring);
            line.push_str(&format!("{mv}:{kept} "));
        }
        writeln!(file, "{}", line.trim_end()).expect("write");
        if (i + 1) % 10 == 0 {
            eprintln!("{} / {count}", i + 1);
        }
    }
}

/// The exact result for the side to move of `pos`.
fn result(solver: &mut Solver, pos: &Position, scoring: Scoring) -> i32 {
    if pos.is_game_over() {
        return pos.scores(scoring).margin(pos.side_to_move()).signum();
    }
    solver
        .solve(pos, SolveMode::Result, &Limits::none())
        .expect("a solve without limits finishes")
        .value
        .signum()
}

/// Writes the positions after every move of the lines of `input` as labels.
fn children(scoring: Scoring, input: &str, out: &str) {
    let mut labels = Vec::new();
    for line in std::fs::read_to_string(input).expect("siblings").lines() {
        let (pos, moves) = line.split_once('\t').expect("a tab");
        let pos: Position = pos.parse().expect("position");
        for m in moves.split(' ') {
            let (mv, kept) = m.split_once(':').expect("move:result");
            let mut next = pos;
            next.play_unchecked(mv.parse().expect("move"));
            let kept: i8 = kept.parse().expect("result");
            labels.push(Label {
                position: next,
                scoring,
                margin: -kept,
                best: Move::PASS,
                source: Source::ExactResult,
            });
        }
    }
    write_labels(std::fs::File::create(out).expect("output"), &labels).expect("write");
    eprintln!("{} labels", labels.len());
}
