-- Games and their moves (PostgreSQL). Times are milliseconds since the Unix epoch.
CREATE TABLE games (
    id                  TEXT PRIMARY KEY,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL,
    mode                TEXT NOT NULL CHECK (mode IN ('engine', 'friend', 'local')),
    scoring             TEXT NOT NULL CHECK (scoring IN ('largest', 'product')),
    seed                TEXT,
    start               TEXT NOT NULL,
    engine_color        TEXT,
    engine_level        BIGINT,
    engine_movetime_ms  BIGINT,
    -- SHA-256 hashes of the seat tokens and of the join code; the secrets are never stored.
    white_token         BYTEA,
    black_token         BYTEA,
    join_code           BYTEA,
    -- Derived from the moves, kept for lists and for resuming engines after a restart.
    position            TEXT NOT NULL,
    to_move             TEXT,
    move_count          BIGINT NOT NULL DEFAULT 0,
    finished            BOOLEAN NOT NULL DEFAULT FALSE,
    epoch               BIGINT NOT NULL DEFAULT 0,
    result              TEXT NOT NULL DEFAULT '*',
    end_reason          TEXT,
    rematch_of          TEXT,
    rematch_id          TEXT
);

CREATE INDEX games_by_update ON games (updated_at DESC);
CREATE INDEX games_by_state ON games (finished, updated_at DESC);

CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        BIGINT NOT NULL,
    notation   TEXT NOT NULL,
    played_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
