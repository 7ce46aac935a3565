//! Rated games on clocks for `mabula loadtest --rated N --flags K`: pairs of fresh accounts meet
//! through the lobby (one seeks, the other accepts, on different instances) and play rated games
//! with their sessions; and flag probes, games where one side stops moving after the third move,
//! timing how late after its deadline the server's flag reaches a WebSocket watcher.

use super::accounts::{Session, post, sign_up};
use super::{Counts, Dice, Tally};
use futures_util::{SinkExt, StreamExt};
use mabula_api::lobby::Started;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio_tungstenite::tungstenite::Message;

#[derive(Deserialize)]
struct Id {
    id: String,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Two fresh accounts and a rated game between them with `clock`: the seek is opened on
/// `bases[first]` and accepted on the next instance. Answers the game id and the two sessions,
/// White's first.
async fn pair(
    client: &reqwest::Client,
    bases: &[String],
    first: usize,
    prefix: &str,
    clock: (u32, u32),
) -> Result<(String, [Session; 2]), String> {
    let n = bases.len();
    let (a_base, b_base) = (&bases[first % n], &bases[(first + 1) % n]);
    let a = sign_up(client, a_base, &format!("{prefix}a")).await?;
    let b = sign_up(client, b_base, &format!("{prefix}b")).await?;
    let seek = json!({"scoring": "largest", "rated": true, "color": "white",
        "clock": {"initial_s": clock.0, "increment_s": clock.1}});
    let r = post(client, format!("{a_base}/api/seeks"), &a, seek).await?;
    if r.status().as_u16() != 201 {
        return Err(format!("seek answered {}", r.status()));
    }
    let seek: Id = r.json().await.map_err(|e| e.to_string())?;
    let url = format!("{b_base}/api/seeks/{}/accept", seek.id);
    let r = post(client, url, &b, json!({})).await?;
    if !r.status().is_success() {
        return Err(format!("accept answered {}", r.status()));
    }
    let started: Started = r.json().await.map_err(|e| e.to_string())?;
    Ok((started.game_id, [a, b]))
}

/// The parts of a state the rated players read.
#[derive(Deserialize)]
struct State {
    status: String,
    to_move: Option<String>,
    moves: Vec<serde::de::IgnoredAny>,
    legal_moves: Vec<super::Legal>,
    clock: Option<ClockState>,
}

#[derive(Deserialize)]
struct ClockState {
    deadline: Option<i64>,
}

/// Plays one move of game `id` for `who`.
async fn play(
    client: &reqwest::Client,
    base: &str,
    id: &str,
    who: &Session,
    state: &State,
    dice: &mut Dice,
    tally: &mut Counts,
) -> Option<State> {
    let mv = &state.legal_moves[dice.below(state.legal_moves.len())].notation;
    let body = json!({ "move": mv, "number": state.moves.len() + 1 });
    let started = Instant::now();
    match post(client, format!("{base}/api/games/{id}/moves"), who, body).await {
        Ok(r) if r.status().is_success() => match r.json::<State>().await {
            Ok(s) => {
                tally
                    .latencies
                    .push(started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                tally.moves += 1;
                Some(s)
            }
            Err(_) => {
                tally.error("rated:bad_move_body");
                None
            }
        },
        Ok(r) => {
            tally.error(format!("rated:move_{}", r.status().as_u16()));
            None
        }
        Err(_) => {
            tally.error("rated:transport");
            None
        }
    }
}

async fn state_of(client: &reqwest::Client, base: &str, id: &str) -> Option<State> {
    client
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()
}

/// One pair playing rated 5+0 games with their sessions until `deadline`, one game after
/// another, the moves going round the instances.
pub(super) async fn rated_player(
    client: reqwest::Client,
    bases: Arc<[String]>,
    deadline: Instant,
    index: usize,
    prefix: String,
) -> Tally {
    let n = bases.len();
    let mut tally = Tally::new(n);
    let mut dice = Dice(0x5eed + index as u64 * 104_729);
    let mut round = 0;
    while Instant::now() < deadline {
        let name = format!("{prefix}{index}x{round}");
        round += 1;
        let (id, players) = match pair(&client, &bases, index + round, &name, (300, 0)).await {
            Ok(p) => p,
            Err(e) => {
                tally.at[index % n].error(format!("rated:setup ({e})"));
                return tally;
            }
        };
        tally.at[index % n].created += 1;
        let mut at = index % n;
        let Some(mut state) = state_of(&client, &bases[at], &id).await else {
            tally.at[at].error("rated:state");
            continue;
        };
        // A game begun gets its first move even when setting it up took the whole run.
        let mut first = true;
        while (first || Instant::now() < deadline)
            && state.status == "playing"
            && !state.legal_moves.is_empty()
        {
            first = false;
            at = (at + 1) % n;
            let who = match state.to_move.as_deref() {
                Some("white") => &players[0],
                _ => &players[1],
            };
            match play(
                &client,
                &bases[at],
                &id,
                who,
                &state,
                &mut dice,
                &mut tally.at[at],
            )
            .await
            {
                Some(next) => state = next,
                None => break,
            }
        }
        if state.status == "finished" {
            tally.finished += 1;
        }
    }
    tally
}

/// How late a flag fell: the deadline the last state gave, and when a watcher heard the end.
pub(super) struct FlagProbe {
    /// Milliseconds from the deadline to the `end` message (negative: early, a bug).
    pub late_ms: Option<i64>,
    /// Why the probe failed, if it did.
    pub error: Option<String>,
}

/// A flag probe: a rated 15+0 game where White makes the first and third moves and Black the
/// second, then nobody moves; a spectator on another instance times the `end` message against
/// the deadline the third move's answer gave.
pub(super) async fn flag_probe(
    client: reqwest::Client,
    bases: Arc<[String]>,
    index: usize,
    prefix: String,
) -> FlagProbe {
    let failed = |e: String| FlagProbe {
        late_ms: None,
        error: Some(e),
    };
    let n = bases.len();
    let (id, players) = match pair(
        &client,
        &bases,
        index,
        &format!("{prefix}f{index}"),
        (15, 0),
    )
    .await
    {
        Ok(p) => p,
        Err(e) => return failed(e),
    };
    let watch_base = &bases[(index + 2) % n];
    let ws_url = format!(
        "{}/api/games/{id}/ws",
        watch_base
            .replacen("http://", "ws://", 1)
            .replacen("https://", "wss://", 1)
    );
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&ws_url).await else {
        return failed("spectator_connect".into());
    };
    if ws
        .send(Message::text(json!({"type": "hello"}).to_string()))
        .await
        .is_err()
    {
        return failed("spectator_hello".into());
    }
    let mut dice = Dice(0xf1a6 + index as u64);
    let mut counts = Counts::default();
    let Some(mut state) = state_of(&client, &bases[index % n], &id).await else {
        return failed("state".into());
    };
    for k in 0..3 {
        let who = &players[k % 2];
        match play(
            &client,
            &bases[(index + k) % n],
            &id,
            who,
            &state,
            &mut dice,
            &mut counts,
        )
        .await
        {
            Some(s) => state = s,
            None => return failed(format!("probe move {}", k + 1)),
        }
    }
    let Some(deadline) = state.clock.and_then(|c| c.deadline) else {
        return failed("no deadline after move 3".into());
    };
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next()).await;
        match msg {
            Ok(Some(Ok(Message::Text(t)))) => {
                if t.contains("\"type\":\"end\"") {
                    return FlagProbe {
                        late_ms: Some(now_ms() - deadline),
                        error: None,
                    };
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => return failed("no end message".into()),
        }
    }
    failed("no end within a minute".into())
}
