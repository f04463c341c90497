"""A finished match's view says ``archived`` as soon as the archive has it — its keys stay in Redis a
while longer (GIN_FINISHED_TTL), and a spectator waiting for the replay link was kept waiting all that
time — and, finished, is never answered 304 (a view kept from before the archive had it would stay
``archived: false``)."""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from .gameplay import Table, archived


def test_the_view_says_archived_once_the_archive_has_the_match(table: Table, client: FlaskClient) -> None:
    ann, _ = table.human_game()
    view = ann.view()
    ann.act({"type": "resign"}, view["version"])
    archived(client, ann.game_id)  # its export answers: the archive has it
    deadline = time.monotonic() + 120  # the outbox is cleared right after the archive's write (a guard)
    while not (seen := client.get(f"/v1/games/{ann.game_id}")).get_json()["archived"]:
        assert time.monotonic() < deadline, "the view never said archived"
        time.sleep(0.05)
    assert seen.get_json()["phase"] == "match_over"
    assert (
        client.get(f"/v1/games/{ann.game_id}", headers={"If-None-Match": seen.headers["ETag"]}).status_code
        == 200
    )
