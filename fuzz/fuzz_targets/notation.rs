//! Move notation: the reader never panics, and what it accepts prints back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mabula::Move;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(mv) = text.parse::<Move>() {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
    }
});
