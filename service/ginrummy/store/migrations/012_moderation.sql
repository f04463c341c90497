-- 012: reports and moderators (issue 33) — an account reports a player (a chat line quoted as it was); a
-- moderator, appointed only from the command line (ginrummy-admin), reads the reports, closes them, mutes a
-- player's chat for a while or closes an account; each of its acts is written to the moderation log.

-- moderator: appointed by ginrummy-admin, never over the API. chat_muted_until: the player may not chat
-- until then. closed_at: the account was closed by a moderator (its credentials ended with it; its games
-- and its archive stay, its profile says so).
ALTER TABLE players
    ADD COLUMN moderator boolean NOT NULL DEFAULT false,
    ADD COLUMN chat_muted_until timestamptz,
    ADD COLUMN closed_at timestamptz;

CREATE TABLE reports (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reporter_id  bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    reported_id  bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    reason       text NOT NULL CHECK (reason IN ('abuse', 'spam', 'cheating', 'other')),
    text         text NOT NULL DEFAULT '',
    game_id      text,
    -- The chat line reported (chat_lines.n of game_id), as it was when reported: its author's shown name,
    -- its body and when it was said — a copy, so the report stands whatever becomes of the line.
    line         integer,
    line_author  text,
    line_body    text,
    line_said_at timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    closed_at    timestamptz,
    closed_by    bigint REFERENCES players (id) ON DELETE SET NULL,
    CHECK (reporter_id <> reported_id),
    CHECK (line IS NULL OR (game_id IS NOT NULL AND line_body IS NOT NULL))
);
-- The moderators' list: open ones first, newest first (keyset-paged on this order).
CREATE INDEX reports_queue ON reports ((closed_at IS NOT NULL), id DESC);
-- A reporter's reports of the last day (the daily limit).
CREATE INDEX reports_reporter ON reports (reporter_id, created_at DESC);

-- Every act of a moderator, and every appointment from the command line (moderator_id NULL).
CREATE TABLE moderation_log (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    moderator_id bigint REFERENCES players (id) ON DELETE SET NULL,
    action       text NOT NULL CHECK (action IN ('close_report', 'chat_mute', 'close_account',
                                                 'grant_moderator', 'revoke_moderator')),
    player_id    bigint REFERENCES players (id) ON DELETE SET NULL,  -- the player acted on
    report_id    bigint REFERENCES reports (id) ON DELETE SET NULL,  -- the report closed
    detail       text NOT NULL DEFAULT '',
    at           timestamptz NOT NULL DEFAULT now()
);
