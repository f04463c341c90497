-- 005: the master, the searching house bot the service offers since its bot workers (ginrummy-bots)
-- play its turns off the web requests, gets its profile and ratings as the other house bots did in 004:
-- from bench/tournament.py against simple on mirrored deals, 71.7 % of 300 games -> 1500 + 354 ln(p/(1-p))
-- = 1830 (the expert's seed: the measured master is the expert's equal so far; docs/bots.md), sigma 150.
INSERT INTO players (name, name_folded, bot, bot_since)
VALUES ('bot-master', 'bot-master', true, now())
ON CONFLICT (name_folded) DO UPDATE SET bot = true, bot_since = coalesce(players.bot_since, now());

INSERT INTO ratings (player_id, family, mu, sigma, games, ordinal, updated_at)
SELECT p.id, f.family, 1830.0, 150.0, 0, 1830.0 - 3 * 150.0, now()
FROM players p
CROSS JOIN (VALUES ('standard'), ('tournament'), ('big-gin-50'), ('oklahoma'), ('hollywood'), ('straight'))
    AS f(family)
WHERE p.name_folded = 'bot-master'
ON CONFLICT (player_id, family) DO NOTHING;
