//! Criterion benchmarks of the hot paths: move generation, playing a move, scoring, perft, and
//! the position string (the server writes dozens per answer).
//! Each checks its result, so a fast wrong answer cannot pass as progress.

use criterion::{Criterion, criterion_group, criterion_main};
use mabula::{Color, Position, Scoring, deal, perft};
use std::hint::black_box;

fn midgame() -> Position {
    let mut pos = deal::random(1, Color::White);
    for i in 0..8 {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[i * 7 % moves.len()]);
    }
    pos
}

fn bench(c: &mut Criterion) {
    let opening = deal::random(1, Color::White);
    let mid = midgame();
    assert_eq!(opening.legal_moves().len(), 72);
    c.bench_function("legal_moves/opening", |b| {
        b.iter(|| black_box(&opening).legal_moves())
    });
    c.bench_function("legal_moves/midgame", |b| {
        b.iter(|| black_box(&mid).legal_moves())
    });
    let mv = mid.legal_moves()[0];
    c.bench_function("play_unchecked/midgame", |b| {
        b.iter(|| {
            let mut p = *black_box(&mid);
            p.play_unchecked(black_box(mv));
            p
        })
    });
    let mut end = mid;
    while let Some(&m) = end.legal_moves().first() {
        end.play_unchecked(m);
    }
    assert!(end.is_game_over());
    c.bench_function("scores/largest", |b| {
        b.iter(|| black_box(&end).scores(Scoring::Largest))
    });
    c.bench_function("scores/product", |b| {
        b.iter(|| black_box(&end).scores(Scoring::Product))
    });
    let text = "1wbb1wb1/2b1w2w/1w4ww/wb5b/b6w/2bb4/w2w3b/4bbw1 w";
    assert_eq!(mid.to_string(), text);
    c.bench_function("position_string/midgame", |b| {
        b.iter(|| assert_eq!(black_box(&mid).to_string(), text))
    });
    let expected = perft(&opening, 3);
    c.bench_function("perft/opening/3", |b| {
        b.iter(|| assert_eq!(perft(black_box(&opening), 3), expected))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
