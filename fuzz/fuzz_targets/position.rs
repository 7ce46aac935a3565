//! Position strings: the reader never panics, and what it accepts prints back to a string it
//! reads as the same position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mabula::Position;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(pos) = text.parse::<Position>() {
            let again: Position = pos.to_string().parse().expect("printed positions read back");
            assert_eq!(again, pos);
            let _ = pos.legal_moves();
            let _ = pos.is_game_over();
        }
    }
});
