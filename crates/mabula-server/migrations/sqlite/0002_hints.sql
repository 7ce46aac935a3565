-- Hints asked for by each side in games against the engine (shown in the record).
ALTER TABLE games ADD COLUMN white_hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_hints INTEGER NOT NULL DEFAULT 0;
