-- Bots and programs (issue 38): personal API tokens, bot accounts, house bots. Times are
-- milliseconds since the Unix epoch.

-- A personal token: only the SHA-256 of its secret is kept. It acts as its account for what its
-- scopes allow, and is checked against this table on every request (revoking it deletes the row,
-- so every instance refuses it at once).
CREATE TABLE api_tokens (
    id          TEXT PRIMARY KEY,
    account     TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    hash        BLOB NOT NULL UNIQUE,
    description TEXT NOT NULL,
    scopes      TEXT NOT NULL,            -- space-separated: bot:play board:play challenge:write
    created_at  BIGINT NOT NULL,
    used_at     BIGINT                    -- to the minute; NULL: never used
);
CREATE INDEX api_tokens_by_account ON api_tokens (account);

-- A bot account (for ever): plays only through the API, marked as a bot wherever it is shown.
ALTER TABLE accounts ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
-- A house bot's engine level (1 to 10), kept by `mabula serve --house-bots`; NULL otherwise.
ALTER TABLE accounts ADD COLUMN house_level BIGINT;

-- A seek that does not want to meet bots, and whether a seek's owner is a bot (shown in the lobby).
ALTER TABLE seeks ADD COLUMN no_bots BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seeks ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
