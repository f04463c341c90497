"""A client generated from openapi/openapi.json by a mainstream generator (openapi-python-client, from
PyPI) plays a complete hand against a house bot on the real service — no hand-written HTTP: every
request is a generated function, every body a generated model, every action one the view's
``legal_actions`` offered, posted back as the generated model it was parsed into."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "gin_rummy_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("generated")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(ROOT / "openapi" / "openapi.json"), "--meta", "none"],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # The generator reports what it could not turn into code as warnings and still exits 0: none allowed.
    assert result.returncode == 0 and "WARNING" not in result.stdout + result.stderr, result.stdout
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_every_operation_is_generated(generated: ModuleType) -> None:
    games = importlib.import_module(f"{PACKAGE}.api.games")
    names = {p.stem for p in Path(games.__file__).parent.glob("*.py")}
    assert {"create_game", "get_game", "post_action", "get_events", "join_game", "undo", "get_hand"} <= names


def test_the_generated_client_plays_a_whole_hand_against_a_bot(
    generated: ModuleType, live_service: str
) -> None:
    api = importlib.import_module(f"{PACKAGE}.api.games")
    for name in ("create_game", "get_game", "post_action", "get_events", "get_hand"):
        importlib.import_module(f"{PACKAGE}.api.games.{name}")
    models = importlib.import_module(f"{PACKAGE}.models")

    anonymous = generated.Client(base_url=live_service)
    body = models.CreateGameIn(
        opponent=models.OpponentIn(type_=models.OpponentInType.BOT, bot="simple"),
        rules=models.RulesIn(preset=models.RulesInPreset.STANDARD),
        seed=2026,
    )
    created = api.create_game.sync(client=anonymous, body=body)
    assert isinstance(created, models.CreatedGame), created
    seat = generated.AuthenticatedClient(base_url=live_service, token=created.token)

    view = api.get_game.sync(created.game_id, client=seat)
    moves = 0
    while view.phase not in ("hand_over", "game_over", "match_over"):
        assert view.turn == view.seat and view.legal_actions, view.to_dict()
        action = choose(view.legal_actions)
        moved = api.post_action.sync(created.game_id, client=seat, body=action, if_match=f'"{view.version}"')
        assert isinstance(moved, models.Moved), moved  # a Problem model would mean a refused move
        assert moved.version > view.version
        view = api.get_game.sync(created.game_id, client=seat)
        moves += 1
        assert moves < 200
    assert view.result is not None and view.hand_number == 1

    types: list[str] = []
    page = api.get_events.sync(created.game_id, client=seat)
    while page.events:  # pages of events, resumed from each page's cursor
        types += [event.type_.value for event in page.events]
        page = api.get_events.sync(created.game_id, client=seat, after=page.cursor)
    assert types[-1] == "hand_over" and {"draw", "discard"} <= set(types), types  # older ones may be trimmed
    record = api.get_hand.sync(created.game_id, 1, client=seat)
    assert isinstance(record, models.FinishedHand) and len(record.shuffle.deck) == 52


def choose(legal: list[object]) -> object:
    """The first legal knock, else a draw from the stock, else the first legal action: any legal play
    ends the hand (a knock, gin, or the wall)."""
    by_type = {}
    for action in legal:
        by_type.setdefault(action.type_.value, action)  # type: ignore[attr-defined]
    for kind in ("knock", "layoff", "draw", "discard", "pass", "deal"):
        if kind in by_type:
            return by_type[kind]
    raise AssertionError(f"no action to choose from {legal}")
