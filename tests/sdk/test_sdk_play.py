"""Stories of play through the SDK against the real service (gunicorn + Redis): a whole game against a
bot, two people at one table, a spectator, and the stateless calls."""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path

import pytest
from ginrummy_client import Client, Game, View

from tests.support import choose

END = ("game_over", "match_over")
README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"


def check_fair_shuffle(game: Game, number: int, commitment: str | None) -> None:
    """The finished hand's revealed deck is the one committed to at its deal (docs/api.md)."""
    record = game.hand(number)
    shuffle = record["shuffle"]
    assert shuffle["commitment"] == commitment
    digest = hashlib.sha256(f"{shuffle['salt']}:{','.join(shuffle['deck'])}".encode()).hexdigest()
    assert digest == commitment
    assert record["number"] == number and record["game_id"] == game.game_id


def test_a_whole_game_against_the_simple_bot(client: Client) -> None:
    game = client.games.create(bot="simple", name="Ann", seed=20250101)
    assert game.seat == 0 and game.version == 1 and game.invitation is None
    assert [e["type"] for e in game.last_events][:1] == ["deal"]
    hands_seen: list[int] = []
    commitment = game.view["commitment"]
    while game.phase not in END:
        assert game.your_move and game.play_actions, game.view
        before = game.version
        action = choose(game.view)
        result = game.deal() if action["type"] == "deal" else game.act(action)
        assert result["version"] == game.version == before + 1
        assert result["events"][0]["seat"] == game.seat or action["type"] == "deal"
        view: View = result["view"]
        if view["phase"] in ("hand_over", *END):
            number = view["hand_number"]
            hands_seen.append(number)
            assert view["result"] is not None
            check_fair_shuffle(game, number, commitment)
        if action["type"] == "deal":
            commitment = view["commitment"]
    assert game.view["scores"]["match_over"] and game.match_over
    assert (
        game.legal_actions == [{"type": "rematch", "kind": "match"}]
        and not game.your_move
        and game.play_actions == []
    )
    assert hands_seen == list(range(1, len(hands_seen) + 1)) and len(hands_seen) >= 2
    full = game.refresh()  # the full view: with the statistics a move's play view leaves out
    assert full["stats"][0]["hands_played"] == len(hands_seen) and "history" in full
    # A finished match's view is never answered 304: its "archived" turns true without a new version.
    deadline = time.monotonic() + 120  # until the archive has it (a guard)
    while not full.get("archived"):
        assert time.monotonic() < deadline, "never archived"
        time.sleep(0.05)
        full = game.refresh()
    assert game.refresh() is not full and game.view["archived"]  # read again, not kept from a 304


def test_hint_undo_and_the_convenience_moves(client: Client) -> None:
    game = client.games.create(bot="simple", seed=7)
    hint = game.hint()
    assert hint["action"] in game.legal_actions and hint["explanation"]
    if game.phase in ("upcard_nondealer", "upcard_dealer"):
        game.pass_()
    version = game.version
    moved = game.draw("stock")
    assert moved["events"][0] == {**moved["events"][0], "type": "draw", "source": "stock", "seat": 0}
    assert "card" in moved["events"][0]  # the drawer sees the card it drew
    undone = game.undo()
    assert undone["events"][0]["type"] == "undo" and undone["version"] == version + 2
    game.draw()
    discard = min(game.view["hand"]["discards"], key=lambda d: d["deadwood"])["card"]
    result = game.discard(discard)
    assert result["events"][0] == {**result["events"][0], "type": "discard", "card": discard}


def test_two_people_and_a_spectator(client: Client, live_service: str) -> None:
    host = client.games.create(human=True, name="Ann", preset="oklahoma", options={"target": 150})
    assert host.view["waiting_for_opponent"] and host.legal_actions == []
    code = host.invitation_code
    assert code == f"{host.game_id}:{host.invitation}"
    with Client(live_service) as other:
        guest = other.games.join(code, name="Bob")
        assert guest.seat == 1 and guest.game_id == host.game_id and guest.token != host.token
        assert guest.last_events[0]["type"] == "joined"
        host.refresh()
        assert host.view["rules"]["oklahoma"] and host.view["rules"]["target"] == 150
        players = {p["seat"]: p["name"] for p in host.view["players"]}
        assert players == {0: "Ann", 1: "Bob"}
        spectator = other.games.get(host.game_id)
        assert spectator.seat is None and spectator.token is None and spectator.legal_actions == []
        assert "hand" not in spectator.view
        mover = host if host.your_move else guest
        mover.act(mover.play_actions[0])
        for seat in (host, guest, spectator):
            seat.refresh()
            assert seat.version == mover.version


def test_the_stateless_calls(client: Client) -> None:
    assert client.service.health() == {"status": "ok"} and client.service.ready()["status"] == "ready"
    assert "standard" in [p["name"] for p in client.service.rules()["presets"]]
    bots = client.service.bots()
    assert "simple" in [b["name"] for b in bots["bots"]] and bots["default"]
    analysis = client.service.analyze(
        ["7h", "8h", "9h", "9s", "9d", "2c", "3c", "kd", "qd", "js"], knock_limit=10
    )
    assert analysis["melds"] and analysis["can_knock"] is False and analysis["cards"][0] == "2C"


@pytest.mark.slow
def test_the_readme_example_plays_a_whole_game(live_service: str, capsys: pytest.CaptureFixture[str]) -> None:
    example = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert example is not None
    code = compile(example.group(1).replace("http://127.0.0.1:8000", live_service), str(README), "exec")
    exec(code, {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("winner: seat ") and printed[0].split()[1] in ("pass", "draw")
    assert any(" hand_over " in line for line in printed) and any(" match_over " in line for line in printed)
