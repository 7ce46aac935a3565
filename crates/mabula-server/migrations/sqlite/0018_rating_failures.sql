-- Rated games the rating job could not rate (issue 51). Such a game is skipped, not retried at
-- once: the sweep takes the next game, so one game that cannot be rated never holds up the
-- others; it tries again after `retry_at`, waiting longer after each failure. Moderators see
-- the games listed here that are still not rated, with why. Times are milliseconds since the
-- Unix epoch.
CREATE TABLE rating_failures (
    game_id     TEXT PRIMARY KEY,
    reason      TEXT NOT NULL,            -- the last error, as the job logged it
    attempts    BIGINT NOT NULL,
    first_at    BIGINT NOT NULL,
    last_at     BIGINT NOT NULL,
    retry_at    BIGINT NOT NULL
);
