-- Puzzles (issue 39): the shipped puzzles, loaded at start by every instance (an upsert by id:
-- the file is the truth for a puzzle's line, the database for its rating), the players' puzzle
-- ratings (apart from game ratings), and one attempt row per account and puzzle, inserted in the
-- transaction that moves both ratings, so that an attempt counts once however many instances
-- receive it. Times are milliseconds since the Unix epoch.

CREATE TABLE puzzles (
    id            TEXT PRIMARY KEY,
    position      TEXT NOT NULL,            -- the start, the player to move
    scoring       TEXT NOT NULL,            -- largest or product
    line          TEXT NOT NULL,            -- the solution, both sides, spaces between
    result        BIGINT NOT NULL,          -- 1: the player keeps a win; 0: a draw
    themes        TEXT NOT NULL,            -- ',join,last_push,' (commas around each name)
    start_rating  BIGINT NOT NULL,          -- the file's starting rating
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    plays         BIGINT NOT NULL DEFAULT 0, -- rated attempts
    solved        BIGINT NOT NULL DEFAULT 0  -- rated attempts that solved it
);
CREATE INDEX puzzles_by_rating ON puzzles (scoring, rating);

-- The versions of the shipped file loaded already (a SHA-256 of its text), so that a start
-- after the first skips the upsert.
CREATE TABLE puzzle_sets (
    hash       TEXT PRIMARY KEY,
    loaded_at  BIGINT NOT NULL
);

-- A player's puzzle rating (Glicko-2).
CREATE TABLE puzzle_ratings (
    account     TEXT PRIMARY KEY REFERENCES accounts (key) ON DELETE CASCADE,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    BIGINT NOT NULL,
    solved      BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- An account's first attempt at a puzzle (a hint asked first makes it unrated): the primary key
-- is what makes an attempt count once.
CREATE TABLE puzzle_attempts (
    account        TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    puzzle         TEXT NOT NULL REFERENCES puzzles (id),
    at             BIGINT NOT NULL,
    correct        BOOLEAN NOT NULL,
    rated          BOOLEAN NOT NULL,
    rating_before  DOUBLE PRECISION,
    rating_after   DOUBLE PRECISION,
    PRIMARY KEY (account, puzzle)
);
CREATE INDEX puzzle_attempts_by_time ON puzzle_attempts (account, at);
