-- 006: reviews of finished matches — every decision judged by the master (ginrummy.bots.review), asked
-- for by anyone who may read the match (POST /v1/games/{id}/review) and computed by a bot worker. A
-- match has one review, kept with it (and deleted with it); a failed one may be asked for again.
CREATE TABLE reviews (
    game_id      text PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status       text NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
    review       json,                          -- the review (done), as the worker wrote it
    requested_at timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    cpu_seconds  real                           -- what it cost the worker
);
