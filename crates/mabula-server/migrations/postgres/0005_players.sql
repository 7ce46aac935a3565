-- Players: accounts and their sessions, ratings per scoring mode and speed with their history,
-- open seeks and challenges; and in games, the players' accounts, the ratings they brought,
-- and the clock. Times are milliseconds since the Unix epoch.
CREATE TABLE accounts (
    key            TEXT PRIMARY KEY,          -- the name in lower case: names are unique ignoring case
    name           TEXT NOT NULL,
    password_hash  TEXT NOT NULL,             -- argon2id, in the PHC string format
    created_at     BIGINT NOT NULL
);

CREATE TABLE sessions (
    id_hash     BYTEA PRIMARY KEY,            -- SHA-256 of the cookie's secret
    account     TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    csrf        TEXT NOT NULL,                -- sent back in X-CSRF-Token with every write
    created_at  BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account);

-- Failed log-ins, per name ('n:KEY') and per address ('a:ADDRESS'), for the rate limit.
CREATE TABLE login_failures (
    key  TEXT NOT NULL,
    at   BIGINT NOT NULL
);
CREATE INDEX login_failures_by_key ON login_failures (key, at);

CREATE TABLE ratings (
    account     TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    scoring     TEXT NOT NULL,
    speed       TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (account, scoring, speed)
);

CREATE TABLE rating_history (
    account    TEXT NOT NULL,
    scoring    TEXT NOT NULL,
    speed      TEXT NOT NULL,
    at         BIGINT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    game_id    TEXT NOT NULL
);
CREATE INDEX rating_history_by_account ON rating_history (account, scoring, speed, at);

-- Open seeks of the lobby; a seek with a target is a challenge to that account.
CREATE TABLE seeks (
    id           TEXT PRIMARY KEY,
    account      TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    rating       BIGINT NOT NULL,
    provisional  BOOLEAN NOT NULL,
    target       TEXT,
    scoring      TEXT NOT NULL,
    rated        BOOLEAN NOT NULL,
    initial_s    BIGINT,
    increment_s  BIGINT,
    days         BIGINT,
    color        TEXT NOT NULL,
    rating_min   BIGINT,
    rating_max   BIGINT,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX seeks_by_target ON seeks (target);

ALTER TABLE games ADD COLUMN white_account TEXT;
ALTER TABLE games ADD COLUMN black_account TEXT;
ALTER TABLE games ADD COLUMN white_name TEXT;
ALTER TABLE games ADD COLUMN black_name TEXT;
ALTER TABLE games ADD COLUMN white_rating BIGINT;
ALTER TABLE games ADD COLUMN black_rating BIGINT;
ALTER TABLE games ADD COLUMN white_provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN black_provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN white_rating_diff BIGINT;
ALTER TABLE games ADD COLUMN black_rating_diff BIGINT;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
-- The rating job has run: ratings move exactly once per game.
ALTER TABLE games ADD COLUMN rating_applied BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN clock_initial_s BIGINT;
ALTER TABLE games ADD COLUMN clock_increment_s BIGINT;
ALTER TABLE games ADD COLUMN clock_days BIGINT;
ALTER TABLE games ADD COLUMN white_clock_ms BIGINT;
ALTER TABLE games ADD COLUMN black_clock_ms BIGINT;
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
-- When the side to move runs out of time (or the game is aborted): the clock job's index.
ALTER TABLE games ADD COLUMN deadline_at BIGINT;
CREATE INDEX games_by_deadline ON games (deadline_at) WHERE finished = FALSE;
CREATE INDEX games_by_white_account ON games (white_account, created_at DESC);
CREATE INDEX games_by_black_account ON games (black_account, created_at DESC);
CREATE INDEX games_rating_pending ON games (updated_at) WHERE rated = TRUE AND finished = TRUE AND rating_applied = FALSE;
