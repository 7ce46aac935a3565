-- Players who left a game on a real-time clock: since when a seat has had no connection on any
-- instance. After a while on their turn, the other player may claim the win. A row goes when the
-- seat is connected again or the game ends.
CREATE TABLE absences (
    game_id  TEXT NOT NULL,
    side     TEXT NOT NULL,             -- 'white' or 'black'
    since    BIGINT NOT NULL,           -- ms since the Unix epoch
    PRIMARY KEY (game_id, side)
);
