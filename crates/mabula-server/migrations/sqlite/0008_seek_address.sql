-- The address a seek was opened from, so that open seeks can be capped per address as well as
-- per account; and indexes for both counts.
ALTER TABLE seeks ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE INDEX seeks_by_account ON seeks (account);
CREATE INDEX seeks_by_address ON seeks (address);
