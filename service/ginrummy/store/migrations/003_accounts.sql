-- 003: accounts — a password on a player, the sessions of signed-in devices, personal API tokens.
--
-- A player made with POST /v1/players (a name and a token) keeps its token; setting a password claims the
-- name as an account. Sessions and API tokens are kept as digests only (SHA-256, as every token here):
-- the token itself is shown once and never stored. Revoking deletes a session, and marks a token revoked
-- (its row stays, so its owner's list can say when it was revoked); both are refused at once, since no
-- process caches them (ginrummy.store.accounts).

-- The player's password as argon2-cffi encodes it ($argon2id$v=19$m=…,t=…,p=…$salt$hash): the parameters
-- travel with the hash, so raising them later rehashes each password at its next sign-in.
-- NULL: no password (a name-and-token player, or a house bot).
ALTER TABLE players ADD COLUMN password_hash text;

-- A signed-in device: expires (sliding: each use, at most once a minute, pushes it to now + lifetime).
CREATE TABLE sessions (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id    bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    token_digest text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used    timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    -- What the owner sees to tell devices apart: the User-Agent (cut to 200 characters) and the address
    -- with its last part hidden (198.51.100.x) — never the token.
    user_agent   text NOT NULL DEFAULT '',
    address      text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_player ON sessions (player_id, created_at DESC);

-- A personal API token: its owner's description and scopes (play, bot, read).
CREATE TABLE api_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id    bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    token_digest text NOT NULL UNIQUE,
    description  text NOT NULL,
    scopes       text[] NOT NULL CHECK (scopes <@ ARRAY['play', 'bot', 'read']::text[] AND cardinality(scopes) > 0),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used    timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX api_tokens_player ON api_tokens (player_id, created_at DESC);
