-- Fair play (issue 51): the positions each live rated game keeps from the engine, as keys (the
-- Zobrist hash of a position's canonical image under the board's symmetries, so one key for all
-- eight images): its standing position and every position one move after it. Replaced with each
-- change of the game, in the same transaction; none once it is over. The analysis, hints and
-- engine games set up from a position refuse a position whose key is here.
CREATE TABLE kept_positions (
    game_id  TEXT NOT NULL,
    key      BIGINT NOT NULL
);
CREATE INDEX kept_positions_by_key ON kept_positions (key);
CREATE INDEX kept_positions_by_game ON kept_positions (game_id);
