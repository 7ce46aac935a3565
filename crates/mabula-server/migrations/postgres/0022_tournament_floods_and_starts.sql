-- Hardening (issue 51): the tournament lists take the site's own tournaments and those made by
-- players with a settled rating first, so that a flood of tournaments from new accounts pushes
-- none of them off. Whether the creator's rating was settled is kept when the tournament is made.
ALTER TABLE tournaments ADD COLUMN creator_settled BOOLEAN NOT NULL DEFAULT TRUE;

-- A tournament its creator started before its time: a second start (at once, on another instance
-- whose clock reads a little earlier) finds it set and is refused, whatever the clocks say.
ALTER TABLE tournaments ADD COLUMN started_early BOOLEAN NOT NULL DEFAULT FALSE;
