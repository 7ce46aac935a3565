-- Tournaments (issue 37): Swiss tournaments of duplicate matches or single games, and arenas.
-- Times are milliseconds since the Unix epoch. Every change of a tournament (its start, a
-- round or an arena's wave paired, a player withdrawn, its end) is one transaction conditional
-- on `version`, so that it happens once whichever instance makes it.
CREATE TABLE tournaments (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    format        TEXT NOT NULL,             -- swiss, arena
    scoring       TEXT NOT NULL,             -- largest, product
    clock_initial_s BIGINT NOT NULL,
    clock_increment_s BIGINT NOT NULL,
    rounds        BIGINT,                    -- a Swiss tournament's rounds
    minutes       BIGINT,                    -- an arena's length
    duplicate     BOOLEAN NOT NULL,
    sequential    BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    starts_at     BIGINT NOT NULL,
    min_rating    BIGINT,
    password_hash TEXT,                      -- argon2id (PHC string), NULL: open to all
    creator       TEXT,                      -- account key; NULL: the site's schedule
    status        TEXT NOT NULL,             -- created, running, finished
    seed          TEXT NOT NULL,             -- the deals' seed (a u64 as text)
    version       BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    finished_at   BIGINT,
    schedule_key  TEXT,                      -- a scheduled occurrence: `daily 2026-11-29`
    winner        TEXT                       -- the winner's account key, once finished
);
CREATE UNIQUE INDEX tournaments_by_schedule_key ON tournaments (schedule_key);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (creator, status);

CREATE TABLE tournament_players (
    tournament    TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    account       TEXT NOT NULL,             -- account key
    name          TEXT NOT NULL,
    rating        BIGINT NOT NULL,           -- when they joined
    joined_at     BIGINT NOT NULL,
    withdrawn     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament, account)
);
CREATE INDEX tournament_players_by_account ON tournament_players (account);

-- A pairing of a round (Swiss) or a wave (arena). Its games' ids are derived from
-- (tournament, round, board, half), so whichever instance creates them creates the same ones,
-- once. The outcome columns are filled when a game is first seen finished (the margin on the
-- final board needs the game replayed, once).
CREATE TABLE tournament_pairings (
    tournament    TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         BIGINT NOT NULL,
    board         BIGINT NOT NULL,
    white         TEXT NOT NULL,             -- account key
    black         TEXT,                      -- NULL: a bye
    game1         TEXT,
    game2         TEXT,                      -- a duplicate match's second game
    result1       TEXT,
    margin1       BIGINT,
    no_show1      TEXT,
    result2       TEXT,
    margin2       BIGINT,
    no_show2      TEXT,
    created_at    BIGINT NOT NULL,
    PRIMARY KEY (tournament, round, board)
);

-- The tournament a game belongs to (no abort, no rematch in it; a side that never moves loses
-- by the clock).
ALTER TABLE games ADD COLUMN tournament TEXT;
