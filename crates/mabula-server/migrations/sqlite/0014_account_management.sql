-- Accounts people can manage, following, who is online, and seeks that live with their owner's
-- lobby socket (issue 36). Times are milliseconds since the Unix epoch.

-- What the account page shows of a session: the device it was started on (a label read from the
-- User-Agent, such as "Firefox on Linux"). `seen_at` (0005) is now kept up to date, at most once
-- a minute per session.
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';

-- When the account last showed a sign of life (a request with its session, or its lobby socket
-- open), at most once a minute: who is online, on every instance.
ALTER TABLE accounts ADD COLUMN last_seen BIGINT NOT NULL DEFAULT 0;
CREATE INDEX accounts_by_last_seen ON accounts (last_seen);

-- A real-time seek open to all lives while its owner holds a lobby socket: the socket pushes
-- this forward, and the sweep of lapsed seeks removes the seek once it passes. NULL: the seek
-- lives until `expires_at` (correspondence seeks, challenges).
ALTER TABLE seeks ADD COLUMN alive_until BIGINT;

-- Who follows whom.
CREATE TABLE follows (
    follower    TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    followed    TEXT NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_by_followed ON follows (followed);

-- The names of deleted accounts (their keys): never given again, so that nobody takes over the
-- name that old games, links and other players knew.
CREATE TABLE retired_names (
    key         TEXT PRIMARY KEY,
    label       TEXT NOT NULL,            -- the name that replaced it in the games
    retired_at  BIGINT NOT NULL
);
