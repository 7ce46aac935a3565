-- What keeps accounts and ratings from abuse (issue 35). Times are milliseconds since the Unix
-- epoch.

-- Events counted per key over a window, for the limits: 's:ADDRESS' an account made from a
-- client address, 'p:LOW HIGH' a rated game made between two accounts.
CREATE TABLE quotas (
    key  TEXT NOT NULL,
    at   BIGINT NOT NULL
);
CREATE INDEX quotas_by_key ON quotas (key, at);

-- Devices that logged in before (OWASP's device cookies): the SHA-256 of the cookie's secret
-- and the account it logged in. A log-in with it is counted against the device, not the name.
CREATE TABLE devices (
    hash        BLOB PRIMARY KEY,
    account     TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL
);

-- Pairs of accounts that played more rated games together in a day than count as rated, for the
-- moderators: the two keys in order, how many games were made casual, and when first and last.
CREATE TABLE pair_flags (
    low         TEXT NOT NULL,
    high        TEXT NOT NULL,
    games       BIGINT NOT NULL,
    first_at    BIGINT NOT NULL,
    last_at     BIGINT NOT NULL,
    PRIMARY KEY (low, high)
);
