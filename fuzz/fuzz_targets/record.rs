//! Game records: the reader never panics, and what it accepts is written as a record that reads
//! back as the same game.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mabula::Game;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(game) = text.parse::<Game>() {
            let again: Game = game.to_string().parse().expect("written records read back");
            assert_eq!(again, game);
        }
    }
});
