-- 011: table chat (issue 33) — the lines said in a game's two rooms: the players' room (read by the two
-- seats) and the spectators' room (read by anyone watching; by the players too once the match is over).
-- A line is kept with its game for good: the replay shows it, a report quotes it. Lines are numbered per
-- game from 1 across both rooms, in the order they were said (the unique key serialises two at once).
CREATE TABLE chat_lines (
    game_id      text NOT NULL,
    n            integer NOT NULL CHECK (n > 0),
    room         text NOT NULL CHECK (room IN ('player', 'spectator')),
    -- The author: a named player (NULL: an anonymous seat, known only by its seat and shown name).
    author_id    bigint REFERENCES players (id) ON DELETE SET NULL,
    author_name  text NOT NULL,
    seat         smallint CHECK (seat IN (0, 1)),  -- the author's seat in the players' room
    bot          boolean NOT NULL DEFAULT false,
    preset       text,                             -- a preset phrase's id, or NULL for free text
    body         text NOT NULL CHECK (body <> ''),
    said_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, n)
);
CREATE INDEX chat_lines_author ON chat_lines (author_id, said_at DESC) WHERE author_id IS NOT NULL;

-- A seat that muted the other seat at the table: the other's lines are not shown to it in that game.
CREATE TABLE chat_mutes (
    game_id      text NOT NULL,
    seat         smallint NOT NULL CHECK (seat IN (0, 1)),
    muted_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);
