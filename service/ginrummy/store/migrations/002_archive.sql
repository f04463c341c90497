-- 002: the archive in use — what the service writes when a hand or a match ends, and what lists read.
--
-- Nothing had been written to these tables by the release of 001 (it laid the foundation only), so the
-- changes below need no backfill.

-- The ordinal (the leaderboard's order) is computed by the service (ginrummy.app.ratings.ordinal), the
-- one owner of the formula, and written with mu and sigma in the same statement: a generated column
-- here would be a second copy of the formula that could disagree with the first.
DROP INDEX ratings_leaderboard;
ALTER TABLE ratings DROP COLUMN ordinal;
ALTER TABLE ratings ADD COLUMN ordinal double precision NOT NULL;
-- Best first; ties by the newer player first (the order the leaderboard query and the rank agree on).
CREATE INDEX ratings_leaderboard ON ratings (family, ordinal DESC, player_id DESC);

-- Each rated game's change, with the ordinal before and after as the leaderboard saw them.
ALTER TABLE rating_history ADD COLUMN ordinal_before double precision;
ALTER TABLE rating_history ADD COLUMN ordinal_after double precision NOT NULL;

-- A finished match as the service last held it: the final state (the service's own encoding, which
-- holds digests of the seats' tokens: it is never served, only decoded to render the final views) and
-- its version, and how many hands were played to their end.
ALTER TABLE games ADD COLUMN state text NOT NULL;
ALTER TABLE games ADD COLUMN version integer NOT NULL CHECK (version >= 1);
ALTER TABLE games ADD COLUMN hands integer NOT NULL DEFAULT 0 CHECK (hands >= 0);

-- What a player's list shows and filters by, beside the seat: the final points of each side and the
-- opponent's name as it was shown (an anonymous opponent or a bot without a profile has no id).
ALTER TABLE game_players ADD COLUMN points integer NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN opponent_points integer NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN opponent_name text;
ALTER TABLE game_players ADD COLUMN end_reason text NOT NULL DEFAULT 'finished';
-- "the games of P against Q", newest first.
CREATE INDEX game_players_opponent ON game_players (player_id, opponent_id, finished_at DESC, game_id DESC);

-- Records are written once and read whole (a hand's page, a match's export, a player's NDJSON export):
-- json keeps the service's compact text as it was written, so a read sends it back without re-encoding
-- it (jsonb would parse it on the way in and print it again on every way out).
ALTER TABLE games ALTER COLUMN document TYPE json USING document::json;
ALTER TABLE hands ALTER COLUMN record TYPE json USING record::json;
