-- Signs of life of a game's seats besides an open socket: when the seat last asked about the game
-- over HTTP (or opened a socket on it), and whether it ever held a socket there. A claim of the
-- win counts the other side's absence from its last sign of life by any channel: this, its last
-- move, or the end of its last socket (the `absences` row of a seat that held one).
CREATE TABLE seen (
    game_id  TEXT NOT NULL,
    side     TEXT NOT NULL,             -- 'white' or 'black'
    at       BIGINT NOT NULL,           -- ms since the Unix epoch
    socket   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, side)
);
