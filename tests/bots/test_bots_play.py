"""Every bot plays only legal actions on the real engine, deterministically, from its view alone."""

from __future__ import annotations

import ast
import itertools
import pathlib

import pytest
from ginrummy.bots import BOTS, UnknownBotError, list_bots, make_bot

from .games import play

NAMES = list(BOTS)
RULE_BOTS = [name for name, cls in BOTS.items() if not cls.searches]
"""The bots that follow rules. The master (a search over the expert's moves) is played under every preset
in tests/bots/test_bots_master.py; here it meets the expert once instead of every bot under every rule."""
BOTS_DIR = pathlib.Path(__file__).resolve().parents[2] / "service" / "ginrummy" / "bots"


def test_list_bots_names_levels_and_styles():
    bots = list_bots()
    assert [b["name"] for b in bots] == [
        "random",
        "novice",
        "simple",
        "knocker",
        "trapper",
        "expert",
        "master",
    ]
    assert [b["level"] for b in bots] == [0, 1, 2, 3, 4, 5, 6]
    for bot in bots:
        assert set(bot) == {"name", "level", "description"}
        assert bot["description"] and "\n" not in bot["description"]


def test_unknown_bot_is_a_clear_error():
    with pytest.raises(UnknownBotError) as info:
        make_bot("grandmaster", seed=1)
    assert isinstance(info.value, KeyError)
    message = str(info.value)
    assert "grandmaster" in message
    for name in NAMES:
        assert name in message


@pytest.mark.parametrize("name", RULE_BOTS)
@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("standard", {"target": 60}),
        ("oklahoma", {"target": 60}),
        ("straight", {"target": 40}),
        ("tournament", {"target": 60, "games": 1}),
        ("hollywood", {"target": 30}),
    ],
    ids=["standard", "oklahoma", "straight", "tournament-wall", "hollywood"],
)
def test_only_legal_actions_under_every_preset(name, preset, options):
    # play() asserts that each action is one of the view's legal actions (the very dict).
    opponent = "simple" if name == "random" else "random"
    for seed in range(2):
        game, moves = play((name, opponent), seed, preset=preset, options=options)
        assert game.match_over
        assert moves


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_moves(name):
    _, first = play((name, "simple"), 7, options={"target": 50})
    _, second = play((name, "simple"), 7, options={"target": 50})
    assert first == second


def test_different_seeds_give_different_random_choices():
    bot_a, bot_b = make_bot("random", seed=1), make_bot("random", seed=2)
    legal = [{"type": "discard", "card": c} for c in ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]]
    view = {"seat": 0, "legal_actions": legal}
    assert [bot_a.choose(view) for _ in range(8)] != [bot_b.choose(view) for _ in range(8)]


@pytest.mark.parametrize("name", NAMES)
def test_a_bot_decides_from_the_view_alone(name):
    # The same match with every view round-tripped through JSON (no shared objects with the game)
    # gives the same moves: a bot has nothing but the seat view to go on.
    _, direct = play((name, "expert"), 3, options={"target": 50})
    _, copied = play((name, "expert"), 3, options={"target": 50}, json_views=True)
    assert direct == copied


def test_bots_import_nothing_that_holds_hidden_state():
    # The bots may use the card and meld helpers of the engine and its action vocabulary, never the
    # game, hand, views or serialization modules (which hold the stock and the opponent's cards).
    allowed_engine = {
        "ginrummy.engine.cards",
        "ginrummy.engine.melds",
        "ginrummy.engine.errors",
        "ginrummy.engine.actions",
    }
    for path in BOTS_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
                if node.module == "ginrummy.engine":
                    modules = [f"ginrummy.engine.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                if module.startswith("ginrummy"):
                    assert module in allowed_engine, f"{path.name} imports {module}"


def test_a_view_without_legal_actions_is_a_clear_error():
    from ginrummy.bots import BotError

    with pytest.raises(BotError, match="no legal action"):
        make_bot("expert", seed=1).choose({"seat": 0, "legal_actions": []})


@pytest.mark.parametrize(("a", "b"), [*itertools.combinations(RULE_BOTS, 2), ("expert", "master")])
def test_smoke_match_between_every_pair(a, b):
    game, _ = play((a, b), 11, options={"target": 40})
    assert game.match_over
    assert game.match_winner in (0, 1)
