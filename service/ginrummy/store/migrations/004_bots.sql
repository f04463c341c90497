-- 004: bot accounts, and the house bots' profiles and ratings from the start.
--
-- A bot account (lichess's BOT title) is an account its owner marked as a bot, for good: it plays only
-- through API tokens and is listed by GET /v1/bots while its account stream is open. bot_since: when.
ALTER TABLE players ADD COLUMN bot boolean NOT NULL DEFAULT false;
ALTER TABLE players ADD COLUMN bot_since timestamptz;

-- The house bots (their player names start with 'bot-', which no one else may take) are bot accounts
-- with a profile and a rating in every family from the start, so that people see how strong each is
-- before anyone has played it rated. The seeds (docs/api.md, "Bots") come from bench/tournament.py,
-- 200 games on mirrored deals against simple, which is put at 1500 (a new player's rating): a bot that
-- wins a share p of its games against simple starts at 1500 + 354 ln(p / (1 - p)) — 354 being the
-- Plackett-Luce scale of two players at the service's beta of 250 (app/ratings.py) — with sigma 150 (not
-- provisional), so that its first games move it. random (0 of 200) is put where 3 % would put it.
--   random  0.0 %  ->  270      novice  25.5 %  -> 1120      simple  (anchor) -> 1500
--   knocker 53.0 %  -> 1540     trapper 71.5 %  -> 1830      expert  71.8 %   -> 1830
-- The ordinal is mu - 3 sigma, as ginrummy.app.ratings.ordinal computes it (a test checks they agree).
INSERT INTO players (name, name_folded, bot, bot_since)
SELECT name, name, true, now()
FROM (VALUES ('bot-random'), ('bot-novice'), ('bot-simple'), ('bot-knocker'), ('bot-trapper'), ('bot-expert'))
    AS house(name)
ON CONFLICT (name_folded) DO UPDATE SET bot = true, bot_since = coalesce(players.bot_since, now());

INSERT INTO ratings (player_id, family, mu, sigma, games, ordinal, updated_at)
SELECT p.id, f.family, s.mu, 150.0, 0, s.mu - 3 * 150.0, now()
FROM (VALUES ('bot-random', 270.0), ('bot-novice', 1120.0), ('bot-simple', 1500.0),
             ('bot-knocker', 1540.0), ('bot-trapper', 1830.0), ('bot-expert', 1830.0)) AS s(name, mu)
JOIN players p ON p.name_folded = s.name
CROSS JOIN (VALUES ('standard'), ('tournament'), ('big-gin-50'), ('oklahoma'), ('hollywood'), ('straight'))
    AS f(family)
ON CONFLICT (player_id, family) DO NOTHING;
