//! Record files as the commands read them (`analyze`, `play --load`): one game or several (as
//! `mabula match --records` writes them), chosen by number, with errors that say once what is
//! wrong and where.

use anyhow::{Result, anyhow, bail};
use mabula::Game;
use mabula::record::split;
use std::path::Path;

/// The text of a record file; a missing file is reported as one.
pub fn read_text(path: &Path) -> Result<String> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| anyhow!("{} is not UTF-8 text, so not a game record", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("there is no file {}", path.display())
        }
        Err(e) => bail!("cannot read {}: {e}", path.display()),
    }
}

/// Every game of a record file, numbered from 1; the first bad record stops the reading.
pub fn games(path: &Path) -> Result<Vec<(usize, Game)>> {
    let text = read_text(path)?;
    let parts = split(&text);
    if parts.is_empty() {
        bail!("{} holds no game record", path.display());
    }
    let several = parts.len() > 1;
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            part.parse()
                .map(|g| (i + 1, g))
                .map_err(|e| record_error(path, several.then_some(i + 1), &e))
        })
        .collect()
}

/// One game of a record file: game `number` (1 first), which must be given when the file holds
/// several.
pub fn game(path: &Path, number: Option<usize>) -> Result<Game> {
    let text = read_text(path)?;
    let parts = split(&text);
    let count = parts.len();
    let n = match (number, count) {
        (_, 0) => bail!("{} holds no game record", path.display()),
        (None, 1) => 1,
        (None, _) => bail!(
            "{} holds {count} games: choose one with --game N (1 to {count})",
            path.display()
        ),
        (Some(n), _) if n == 0 || n > count => bail!(
            "{} holds {count} game{}: --game takes 1 to {count}",
            path.display(),
            if count == 1 { "" } else { "s" }
        ),
        (Some(n), _) => n,
    };
    parts[n - 1]
        .parse()
        .map_err(|e| record_error(path, (count > 1).then_some(n), &e))
}

fn record_error(path: &Path, game: Option<usize>, e: &mabula::RecordError) -> anyhow::Error {
    match game {
        Some(n) => anyhow!("{}, game {n}, is not a valid record: {e}", path.display()),
        None => anyhow!("{} is not a valid record: {e}", path.display()),
    }
}
