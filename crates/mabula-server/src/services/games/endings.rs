//! Ends the players agree on or call off: draw offers (offer, accept, decline, on lichess's
//! habits) and the abort of a game before each side has moved. Each is an ordinary change through
//! [`Games::transact`], judged on the latest stored state, so a draw accepted on two instances
//! at once ends the game once.
//!
//! An offer is stored with the game and carried by its state (`draw_offer`), so every instance's
//! sockets hear it with the game's usual update. It stands until the other side moves, accepts
//! or declines; a side whose offer was declined waits [`DRAW_AGAIN_AFTER`] moves before offering
//! again, and may not offer while its own offer stands.
//!
//! [`DRAW_AGAIN_AFTER`]: crate::model::DRAW_AGAIN_AFTER

use super::{Change, Games, Plan, seats_for};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::services::now_ms;
use crate::view::GameState;
use std::sync::Arc;

impl Games {
    /// Offers a draw for the holder of `token`, or accepts the other side's standing offer (the
    /// game ends as a draw, rated as one when rated).
    pub async fn draw(self: &Arc<Games>, id: &str, token: &Caller) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        self.enforce_clock(&h, &mut slot).await?;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let (me, accept) = g.check_draw(seats)?;
                let mut next = g.clone();
                if accept {
                    next.agree_draw(now_ms());
                    return Ok(Plan::new(next, Change::Resigned, seats));
                }
                next.offer_draw(me);
                Ok(Plan::new(next, Change::Update("draw_offered"), seats))
            })
            .await?;
        Ok(super::actions::with_you(state, seats))
    }

    /// Declines the other side's draw offer.
    pub async fn decline_draw(
        self: &Arc<Games>,
        id: &str,
        token: &Caller,
    ) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                let by = g.check_decline_draw(seats)?;
                let mut next = g.clone();
                next.decline_draw(by);
                Ok(Plan::new(next, Change::Update("draw_declined"), seats))
            })
            .await?;
        Ok(super::actions::with_you(state, seats))
    }

    /// Aborts the game for the holder of `token`, before each side has made its first move: it
    /// ends with no result and no rating.
    pub async fn abort(self: &Arc<Games>, id: &str, token: &Caller) -> Result<GameState, ApiError> {
        let h = self.handle(id).await?;
        let mut slot = h.slot.lock().await;
        let (seats, state) = self
            .transact(&h, &mut slot, |g| {
                let seats = seats_for(g, token)?;
                g.check_abort(seats)?;
                let mut next = g.clone();
                next.abort(now_ms());
                Ok(Plan::new(next, Change::Resigned, seats))
            })
            .await?;
        Ok(super::actions::with_you(state, seats))
    }
}
