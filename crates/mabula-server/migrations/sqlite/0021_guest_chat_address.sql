-- Hardening (issue 51): a guest's chat lines are counted per client address, whatever their
-- games and seats, so that one address cannot open many games and chat in each. The address is
-- kept with guests' lines only (NULL for accounts, counted by account).
ALTER TABLE chat_lines ADD COLUMN address TEXT;
CREATE INDEX chat_lines_by_address ON chat_lines (address, at);
