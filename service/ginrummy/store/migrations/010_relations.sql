-- 010: relations (issue 33) — an account follows players (people and bots), or blocks one. A block is
-- the blocker's alone: never shown to the blocked (its challenges are declined as any, it is never paired
-- with the blocker in an arena's wave).
CREATE TABLE follows (
    follower_id  bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    followed_id  bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower_id, followed_id),
    CHECK (follower_id <> followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);

CREATE TABLE blocks (
    blocker_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    blocked_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);
