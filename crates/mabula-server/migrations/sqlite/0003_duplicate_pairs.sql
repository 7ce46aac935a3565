-- A game's place in a duplicate pair ('first' or 'second'; NULL: no pair). The second game is
-- the first one's rematch (rematch_of), from the same start with the colours swapped.
ALTER TABLE games ADD COLUMN pair_half TEXT;
