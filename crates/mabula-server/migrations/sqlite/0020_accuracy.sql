-- Accuracy (issue 51): each finished rated game between two accounts is analysed once, after it
-- ends, and each player's share of moves that kept the engine's best value is kept. Times are
-- milliseconds since the Unix epoch.
--
-- The job of a game: the instance whose conditional claim wrote `owner` analyses it; another
-- instance takes the claim over only once `owner` stops beating (its row in `instances` grows
-- old). A job that could not run (the engine busy, an error) is given back with `retry_at`.
-- `done` is set in the transaction that stores the accuracies, on the condition that the claim
-- is still the storing instance's, so a game's accuracies are stored once.
CREATE TABLE accuracy_jobs (
    game_id     TEXT PRIMARY KEY,
    owner       TEXT,                     -- the instance analysing it; NULL when given back
    claimed_at  BIGINT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    retry_at    BIGINT NOT NULL DEFAULT 0,
    done        BOOLEAN NOT NULL DEFAULT FALSE
);

-- Each player's accuracy in an analysed game: of `moves` counted (moves with a choice), `kept`
-- kept the engine's best value. `rating` is the rating the game showed for the player when it
-- began; `ended_at` when the game ended (its last change).
CREATE TABLE game_accuracy (
    game_id     TEXT NOT NULL,
    color       TEXT NOT NULL CHECK (color IN ('white', 'black')),
    account     TEXT NOT NULL,
    rating      BIGINT,
    moves       BIGINT NOT NULL,
    kept        BIGINT NOT NULL,
    ended_at    BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE INDEX game_accuracy_by_account ON game_accuracy (account, ended_at DESC);
CREATE INDEX game_accuracy_by_rating ON game_accuracy (rating);
