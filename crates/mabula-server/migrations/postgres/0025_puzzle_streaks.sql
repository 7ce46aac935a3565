-- Puzzle streaks kept in the account (issue 52): the puzzles solved in a row in the player's
-- streak now, and the best such run, the same on every device.
CREATE TABLE puzzle_streaks (
    account     TEXT PRIMARY KEY REFERENCES accounts (key) ON DELETE CASCADE,
    current     BIGINT NOT NULL,
    best        BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
