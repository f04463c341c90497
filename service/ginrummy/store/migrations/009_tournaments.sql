-- 009: tournaments (issue 32) — arenas, Swiss and round robins. What lasts is here: the tournament, its
-- entries, every pairing with its game and result, and the standings at the end. What is live (the live
-- standings, the tournament's stream of events) is in Redis (ginrummy.store.tournaments).
--
-- One director acts on a tournament at a time: the one named in `director` while `lease_until` is in the
-- future. Every write a director makes checks, in its own statement, that it still holds the lease (a
-- fence): a director that stalled past its lease and wakes up again writes nothing.
CREATE TABLE tournaments (
    id             text PRIMARY KEY,
    format         text NOT NULL CHECK (format IN ('arena', 'swiss', 'round_robin')),
    name           text NOT NULL CHECK (name <> ''),
    organiser      text NOT NULL,
    organiser_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    -- rules, clock, rated, bots, min_rated_games, and the format's own: minutes and berserk (arena),
    -- rounds and round_interval (Swiss), duplicate (round robin)
    settings       jsonb NOT NULL,
    entry_code_digest text,  -- a private tournament: the digest of its entry code (never the code)
    status         text NOT NULL DEFAULT 'created'
                   CHECK (status IN ('created', 'started', 'finished', 'canceled')),
    starts_at      timestamptz NOT NULL,
    started_at     timestamptz,
    ends_at        timestamptz,  -- an arena: when it ends (its start + its minutes)
    finished_at    timestamptz,
    round          integer NOT NULL DEFAULT 0,  -- Swiss and round robin: the round paired last
    next_round_at  timestamptz,  -- Swiss: when the next round is paired (NULL: when the organiser says)
    director       text,
    lease_until    timestamptz,
    standings      jsonb,  -- the standings at the end
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at DESC);
CREATE INDEX tournaments_organiser ON tournaments (organiser_id, created_at DESC);

CREATE TABLE tournament_entries (
    tournament_id  text NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player         text NOT NULL,  -- as shown; a house bot is bot-<name>
    player_folded  text NOT NULL,
    bot            boolean NOT NULL DEFAULT false,  -- a bot account or a house bot
    house          text,  -- a house bot's name (expert); NULL for an account
    rating         double precision NOT NULL,  -- when it joined: the arena's and the Swiss' pairing order
    joined_at      timestamptz NOT NULL DEFAULT now(),
    joined_round   integer NOT NULL DEFAULT 0,  -- Swiss: the rounds paired before it joined
    active         boolean NOT NULL DEFAULT true,  -- false: paused (arena) or withdrawn
    PRIMARY KEY (tournament_id, player_folded)
);

CREATE TABLE tournament_pairings (
    tournament_id  text NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number         integer NOT NULL,  -- 1, 2, … in the order made
    round          integer NOT NULL,  -- Swiss and round robin: the round; an arena: its wave
    seat0          text NOT NULL,
    seat1          text,  -- NULL: a bye (Swiss)
    game_id        text UNIQUE,  -- made with the pairing, before the game: a new director makes it if missing
    deal_seed      text,  -- duplicate deals: the secret seed both matches of a pair are dealt from
    mirror_of      integer,  -- duplicate deals: the pairing whose deals this one plays with the seats swapped
    status         text NOT NULL CHECK (status IN ('playing', 'finished', 'bye', 'unscored')),
    outcome        text CHECK (outcome IN ('seat0', 'seat1', 'drawn', 'aborted')),
    end_reason     text,
    berserk0       boolean NOT NULL DEFAULT false,
    berserk1       boolean NOT NULL DEFAULT false,
    no_show        smallint,  -- the seat that never moved and lost on time (Swiss: withdrawn)
    finished_seq   integer,  -- the order the results were recorded in (an arena's streaks follow it)
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    PRIMARY KEY (tournament_id, number),
    UNIQUE (tournament_id, finished_seq)
);
CREATE INDEX tournament_pairings_playing ON tournament_pairings (tournament_id) WHERE status = 'playing';
