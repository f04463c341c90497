"""412 through the SDK: one seat playing from two places. The move chosen from an outdated view is
refused with StaleVersion (nothing applied); the caller re-reads the view and chooses again."""

from __future__ import annotations

import pytest
from ginrummy_client import Client, StaleVersion

from tests.support import choose


def test_a_stale_move_is_refused_then_played_after_re_reading_the_view(client: Client) -> None:
    created = client.games.create(bot="simple", seed=5150)
    here = client.games.get(created.game_id, created.token)  # the same seat, the same token, twice
    there = client.games.get(created.game_id, created.token)
    chosen_here = choose(here.view)
    there.act(choose(there.view))
    with pytest.raises(StaleVersion) as stale:
        here.act(chosen_here)
    assert stale.value.status == 412 and stale.value.version == there.version
    assert here.version == there.version - 1  # nothing re-read behind the caller's back
    # The documented pattern: read the view again, choose again.
    here.refresh()
    assert here.version == there.version
    result = here.act(choose(here.view))
    assert result["version"] == there.version + 1


def test_refresh_on_stale_re_reads_the_view_before_raising(client: Client) -> None:
    created = client.games.create(bot="simple", seed=5151)
    here = client.games.get(created.game_id, created.token)
    created.act(choose(created.view))
    played = 0
    while played < 1:
        try:
            here.act(choose(here.view), refresh_on_stale=True)
            played += 1
        except StaleVersion:
            assert here.version == created.version  # already re-read: just choose again
    assert here.version == created.version + 1
