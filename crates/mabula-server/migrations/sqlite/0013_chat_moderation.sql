-- Chat, blocks, reports and moderation (issue 36). Times are milliseconds since the Unix epoch.

-- A moderator sees and resolves reports, mutes and closes accounts. A muted account cannot
-- chat until `muted_until`; a closed one cannot log in (its games stay).
ALTER TABLE accounts ADD COLUMN moderator BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE accounts ADD COLUMN muted_until BIGINT;
ALTER TABLE accounts ADD COLUMN closed_at BIGINT;

-- The chat of a game: `room` is 'players' (the seats only) or 'spectators'. `author` is the
-- writer's account key, NULL for a guest seat (then `side` says which); `name` as shown.
CREATE TABLE chat_lines (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   TEXT NOT NULL,
    room      TEXT NOT NULL,
    author    TEXT,
    side      TEXT,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    at        BIGINT NOT NULL
);
CREATE INDEX chat_lines_by_game ON chat_lines (game_id, id);
CREATE INDEX chat_lines_by_author ON chat_lines (author, at);

-- `blocker` does not want challenges or chat from `blocked`.
CREATE TABLE blocks (
    blocker     TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    blocked     TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked);

-- Reports of players to the moderators, open until resolved.
CREATE TABLE reports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter     TEXT NOT NULL,
    player       TEXT NOT NULL,
    reason       TEXT NOT NULL,
    text         TEXT NOT NULL,
    game_id      TEXT,
    chat_line    BIGINT,
    created_at   BIGINT NOT NULL,
    resolved_at  BIGINT,
    resolved_by  TEXT,
    resolution   TEXT
);
CREATE INDEX reports_open ON reports (resolved_at, created_at);
CREATE INDEX reports_by_reporter ON reports (reporter, created_at);
