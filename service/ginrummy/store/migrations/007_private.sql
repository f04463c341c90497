-- 007: a finished private game ("private": true at its creation) is left out of its players' public
-- lists — the games list and export of GET /v1/players/{name}/games, the profile's recent games and the
-- rating history's game ids — for everyone but that player. Kept per seat, beside the other columns the
-- lists filter on, so a page stays a walk down the player's index.
ALTER TABLE game_players ADD COLUMN private boolean NOT NULL DEFAULT false;
