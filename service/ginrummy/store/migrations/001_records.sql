-- 001: what lasts — players, their ratings and rating history, and the archive of finished games.
--
-- Applied once by ginrummy-migrate (ginrummy.store.schema), in one transaction. A shipped migration is
-- never edited: its checksum is recorded, and a changed file is refused. Change the schema with a new
-- numbered file. Timestamps are timestamptz (UTC inside); ids of games are the service's own text ids.

-- A player: a name unique whatever its case, and the digest of the token that signs in as them.
-- name_folded is the name case-folded by the service (Python's str.casefold, as Redis keys have it);
-- lower() would depend on the collation, and the embedded server's is C (ASCII only).
CREATE TABLE players (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         text NOT NULL CHECK (name <> ''),
    name_folded  text NOT NULL UNIQUE,
    -- NULL for players made by the service itself (the bots' fixed names) or copied without a token.
    token_digest text UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- Career counters: finished matches (aborted ones are not played), each won, lost or drawn.
    played       integer NOT NULL DEFAULT 0 CHECK (played >= 0),
    won          integer NOT NULL DEFAULT 0 CHECK (won >= 0),
    lost         integer NOT NULL DEFAULT 0 CHECK (lost >= 0),
    drawn        integer NOT NULL DEFAULT 0 CHECK (drawn >= 0)
);

-- Summed per-seat statistics of a player's games (hands_won, gins, knocks, …): one row per statistic,
-- so that recording a game adds to each with one INSERT … ON CONFLICT DO UPDATE.
CREATE TABLE player_stats (
    player_id bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    stat      text NOT NULL,
    total     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, stat)
);

-- A player's rating in a rules family (a preset name). The leaderboard ranks by the ordinal,
-- mu - 3 * sigma (ginrummy.app.ratings.ordinal), kept here as a generated column so that it can never
-- disagree with mu and sigma.
CREATE TABLE ratings (
    player_id  bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    family     text NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL CHECK (sigma > 0),
    games      integer NOT NULL DEFAULT 0 CHECK (games >= 0),
    ordinal    double precision GENERATED ALWAYS AS (mu - 3 * sigma) STORED,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, family)
);
-- The leaderboard of a family: best first, ties in a stable order; a player's rank counts the rows above.
CREATE INDEX ratings_leaderboard ON ratings (family, ordinal DESC, player_id);

-- Each rated game's change of each player's rating. One row per (game, player): a game is rated once.
-- game_id has no foreign key: games finished before the archive existed have history but no record.
CREATE TABLE rating_history (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id      text NOT NULL,
    player_id    bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    family       text NOT NULL,
    mu_before    double precision,  -- NULL: the player's first rated game in the family
    sigma_before double precision,
    mu_after     double precision NOT NULL,
    sigma_after  double precision NOT NULL,
    at           timestamptz NOT NULL DEFAULT now(),
    UNIQUE (game_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id, family, at DESC, id DESC);

-- The archive: every finished match, forever. document is the whole match as GET /v1/games/{id}/export
-- serves it (its format carries its own version); the columns beside it are what lists and filters use.
CREATE TABLE games (
    id          text PRIMARY KEY,
    player0_id  bigint REFERENCES players (id),  -- NULL: an anonymous seat (or a bot without a profile)
    player1_id  bigint REFERENCES players (id),
    rules       jsonb NOT NULL,
    family      text,                             -- the preset of a game without overrides, else NULL
    clock       jsonb,                            -- NULL: no clock
    winner      smallint CHECK (winner IN (0, 1)),  -- NULL: a draw, or no result (aborted)
    end_reason  text NOT NULL,                    -- how the match ended (finished, resigned, timeout, …)
    rated       boolean NOT NULL DEFAULT false,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    document    jsonb NOT NULL
);

-- A player's games, newest first: one row per (game, seat with a player), so that one index answers
-- "the games of P" in order, paged by (finished_at, game_id), with the filters beside it. (Two player
-- columns on games would need two indexes merged by a sort.)
CREATE TABLE game_players (
    game_id     text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        smallint NOT NULL CHECK (seat IN (0, 1)),
    player_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    opponent_id bigint REFERENCES players (id),
    result      text NOT NULL CHECK (result IN ('won', 'lost', 'drawn', 'aborted')),
    rated       boolean NOT NULL,
    family      text,
    finished_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_newest ON game_players (player_id, finished_at DESC, game_id DESC);

-- Every finished hand's record (deal, shuffle salt and commitment, actions, arrangements, lay-offs,
-- scoring), archived as each hand ends — before its match is over, so no foreign key to games. The
-- primary key makes a second write of the same hand a no-op (ON CONFLICT DO NOTHING): exactly once.
CREATE TABLE hands (
    game_id     text NOT NULL,
    number      integer NOT NULL CHECK (number >= 1),
    record      jsonb NOT NULL,
    finished_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, number)
);
