-- Several server instances on one database. Every change to a game row bumps `version`, and is
-- made only if the row still has the version the instance read (so a stale instance or a racing
-- request is refused instead of forking the game). A pending undo offer is stored with the game.
-- `engine_owner` names the instance that computes the engine's next move.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN undo_by TEXT;
ALTER TABLE games ADD COLUMN undo_moves INTEGER;
ALTER TABLE games ADD COLUMN engine_owner TEXT;
CREATE INDEX games_engine_waiting ON games (updated_at) WHERE finished = FALSE AND mode = 'engine';

-- The running instances; one whose heartbeat is old is taken for dead and its work is taken over.
CREATE TABLE instances (
    id            TEXT PRIMARY KEY NOT NULL,
    started_at    INTEGER NOT NULL,
    heartbeat_at  INTEGER NOT NULL
);

-- Open WebSockets per instance and game; a game's presence is the sum over live instances.
CREATE TABLE presence (
    instance    TEXT NOT NULL,
    game_id     TEXT NOT NULL,
    white       INTEGER NOT NULL,
    black       INTEGER NOT NULL,
    spectators  INTEGER NOT NULL,
    PRIMARY KEY (instance, game_id)
);
CREATE INDEX presence_by_game ON presence (game_id);
