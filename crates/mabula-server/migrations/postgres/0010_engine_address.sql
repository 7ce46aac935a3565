-- The client address an engine game was made from, so that unfinished engine games can be capped
-- per address (counted when one is inserted); and the index for that count.
ALTER TABLE games ADD COLUMN engine_address TEXT;
CREATE INDEX games_by_engine_address ON games (engine_address);
