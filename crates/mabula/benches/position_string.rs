//! The position-string writer against the server's own copy of it, side by side over the same
//! positions, to decide whether the server can drop its copy (temporary: removed with that copy).

use criterion::{Criterion, criterion_group, criterion_main};
use mabula::{Color, Position, Square, deal};
use std::hint::black_box;

/// `mabula_server::view::position_string`, copied verbatim.
fn server_position_string(pos: &Position) -> String {
    let mut s = String::with_capacity(48);
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let marble = Square::from_coords(file, rank).and_then(|sq| pos.color_at(sq));
            match marble {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(c.char());
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(pos.side_to_move().char());
    s
}

/// 1,000 positions: random deals after 0 to 24 random legal moves.
fn positions() -> Vec<Position> {
    let mut state = 7u64;
    let mut below = |n: usize| {
        // SplitMix64: enough for picking moves.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    };
    (0..1000u64)
        .map(|seed| {
            let first = if seed % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut pos = deal::random(seed, first);
            for _ in 0..below(25) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[below(moves.len())]);
            }
            pos
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    for pos in &positions {
        assert_eq!(server_position_string(pos), pos.to_string());
    }
    let mut group = c.benchmark_group("position_string/1000");
    group.bench_function("server", |b| {
        b.iter(|| {
            for pos in black_box(&positions) {
                black_box(server_position_string(pos));
            }
        })
    });
    group.bench_function("display", |b| {
        b.iter(|| {
            for pos in black_box(&positions) {
                black_box(pos.to_string());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
