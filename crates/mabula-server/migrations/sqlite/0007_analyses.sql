-- Analyses of positions shared by the instances on one database: the instance that claims a
-- position computes it and stores the final report; the others wait for it, and take the claim
-- over when its owner stops beating (its row in `instances` grows old).
CREATE TABLE analyses (
    position    TEXT NOT NULL,
    scoring     TEXT NOT NULL,
    owner       TEXT,                     -- the instance computing it; NULL when released
    claimed_at  BIGINT NOT NULL,
    report      TEXT,                     -- the final report (JSON), once done
    PRIMARY KEY (position, scoring)
);
