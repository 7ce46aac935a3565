//! Reading the record files `mabula match --records` writes (shared by the examples).

use mabula::Game;

/// The games of a record file: records one after another, each beginning with its `White` tag.
pub fn read(file: &str) -> Vec<Game> {
    let text = std::fs::read_to_string(file).expect("a record file");
    text.split("\n\n[White")
        .map(|record| {
            let record = if record.starts_with('[') {
                record.to_string()
            } else {
                format!("[White{record}")
            };
            Game::parse(&record).expect("a game record")
        })
        .collect()
}
