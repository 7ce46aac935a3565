-- Hardening (issue 51): the analysis requests in progress, per client address, so that the
-- analysis board's bound per client (4 at once) holds for all instances together, not for each.
-- A request of an instance no longer heard from does not count.
CREATE TABLE analysis_requests (
    id         TEXT PRIMARY KEY,
    client     TEXT NOT NULL,
    instance   TEXT NOT NULL,
    opened_at  BIGINT NOT NULL
);
CREATE INDEX analysis_requests_by_client ON analysis_requests (client);
