-- Arenas pair only the players who are there, and a player may pause (issue 52). `seen_at` is
-- when the player's account last read the tournament (its page's socket says so while it is
-- open; a program reads it by the API); `paused` is set by the player, or by a first move missed
-- in an arena game, and cleared when they join again.
ALTER TABLE tournament_players ADD COLUMN seen_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_players ADD COLUMN paused BOOLEAN NOT NULL DEFAULT FALSE;
