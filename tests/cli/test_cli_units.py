"""The client's own pieces, without a service: input parsing, card text, the saved-games file, imports."""

from __future__ import annotations

import argparse
import ast
import io
import os
import re
import stat
from pathlib import Path

import gin_cli
import pytest
from gin_cli.cards import normalize_card
from gin_cli.challenges import DECLINE_WORDS, not_accepted
from gin_cli.commands import InputError, parse_line
from gin_cli.main import build_parser, main
from gin_cli.people import parse_clock, rule_options
from gin_cli.replay import Keys, Replay, step_through
from gin_cli.review import Judged
from gin_cli.saved import PLAYER, SESSION, Login, Logins, SavedGame, SavedGames
from gin_cli.screen import Screen
from ginrummy_client import DECLINE_REASONS

VIEW = {
    "legal_actions": [
        {"type": "discard", "card": "9S"},
        {"type": "discard", "card": "KH"},
        {"type": "knock", "discard": "9S"},
        {"type": "knock", "discard": "KH"},
    ],
    "hand": {"discards": [{"card": "KH", "deadwood": 4}, {"card": "9S", "deadwood": 8}]},
}


def test_the_client_imports_nothing_from_the_service() -> None:
    package = Path(gin_cli.__file__).parent
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n.split(".")[0] == "ginrummy" for n in names), module.name


def test_the_client_talks_to_the_service_only_through_the_sdk() -> None:
    # One HTTP layer: requests, If-Match, Idempotency-Keys, retries and errors are ginrummy_client's.
    package = Path(gin_cli.__file__).parent
    imported: set[str] = set()
    for module in package.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module.split(".")[0])
    assert "ginrummy_client" in imported
    assert not imported & {"requests", "urllib3", "urllib", "http", "httpx", "socket"}
    assert not (package / "client.py").exists()


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("7h", "7H"),
        ("10♥", "TH"),
        ("TH", "TH"),
        ("a♠", "AS"),
        ("Q♢", "QD"),
        ("10d", "TD"),
        ("11h", None),
        ("", None),
    ],
)
def test_card_texts(typed: str, card: str | None) -> None:
    assert normalize_card(typed) == card


def test_lines_become_legal_actions() -> None:
    assert parse_line("KH", VIEW).action == {"type": "discard", "card": "KH"}
    assert parse_line("discard k♥", VIEW).offered
    assert parse_line("knock", VIEW).action == {"type": "knock", "discard": "KH"}  # least deadwood left
    assert parse_line("knock 9s", VIEW).action == {"type": "knock", "discard": "9S"}
    assert parse_line("discard 2c", VIEW).offered is False  # the service will say why
    assert parse_line("hint", VIEW).kind == "hint"
    assert parse_line("Q", VIEW).kind == "quit"
    for bad in ("gin", "gin kh", "discard 1x", "knock 9s kh", "dance"):
        with pytest.raises(InputError):
            parse_line(bad, VIEW)


def test_option_values() -> None:
    assert rule_options(["target=50", "oklahoma=true", "wall=cancel"]) == {
        "target": 50,
        "oklahoma": True,
        "wall": "cancel",
    }


def test_saved_games_are_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    saved = SavedGames()
    saved.save(SavedGame(game_id="g1", server="http://s", seat=0, token="t1"))
    saved.save(SavedGame(game_id="g2", server="http://s", seat=1, token="t2"))
    assert stat.S_IMODE((tmp_path / "gin").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "gin" / "games.json").stat().st_mode) == 0o600
    latest = saved.latest()
    assert latest is not None and latest.game_id == "g2"
    saved.forget("g2")
    assert set(saved.load()) == {"g1"}
    (tmp_path / "gin" / "games.json").write_text("not json")
    assert saved.load() == {}


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--no-such-flag"])
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_the_docstring_examples_run() -> None:
    import doctest
    import importlib

    for name in (
        "accounts", "challenges", "cards", "chat", "commands", "commands_play", "main", "people", "play",
        "records", "relations", "replay", "results", "review", "table", "tournaments", "watch", "words",
    ):  # fmt: skip
        module = importlib.import_module(f"gin_cli.{name}")
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, name


def test_each_command_is_carried_out_in_the_commands_module_of_its_group() -> None:
    # A reader finds where `gin X` is carried out from the file names: commands_<group>.py, whose class
    # has a method named X; every command of the parser in exactly one group.
    import importlib

    package = Path(gin_cli.__file__).parent
    groups = sorted(path.stem for path in package.glob("commands_*.py"))
    assert len(groups) == 7, groups
    carried: list[str] = []
    for name in groups:
        module = importlib.import_module(f"gin_cli.{name}")
        (group,) = [
            value
            for key, value in vars(module).items()
            if key.endswith("Commands") and value.__module__ == module.__name__
        ]
        for command in module.COMMANDS:
            assert callable(getattr(group, command, None)), (name, command)
        carried += module.COMMANDS
    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert sorted(carried) == sorted(commands.choices)


def test_every_decline_reason_of_the_api_has_words_and_is_listed_in_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert set(DECLINE_WORDS) == set(DECLINE_REASONS)  # the SDK's copy of the service's list
    with pytest.raises(SystemExit) as exit_info:
        main(["challenges", "decline", "--help"])
    assert exit_info.value.code == 0
    shown = capsys.readouterr().out
    for reason, (meaning, _) in DECLINE_WORDS.items():
        assert re.search(rf"^  {reason} +{re.escape(meaning)}$", shown, re.M), reason
    for reason in DECLINE_REASONS:
        said = not_accepted({"status": "declined", "decline_reason": reason, "opponent": {"name": "Bob"}})
        assert said.startswith("Bob declined your challenge") and "_" not in said
    with pytest.raises(SystemExit) as exit_info:
        main(["challenges", "decline", "c1", "--reason", "bored"])
    assert exit_info.value.code == 2 and "invalid choice: 'bored'" in capsys.readouterr().err


def test_logins_are_kept_per_server_and_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    logins = Logins()
    logins.save("http://a:8000/", Login("Ann", "secret-a"))
    logins.save("http://b:8000", Login("Bob", "secret-b"))
    assert stat.S_IMODE((tmp_path / "gin" / "players.json").stat().st_mode) == 0o600
    assert logins.get("http://a:8000") == Login("Ann", "secret-a")
    assert "secret" not in repr(Login("A", "secret"))
    assert logins.forget("http://a:8000") == Login("Ann", "secret-a")
    assert logins.get("http://a:8000") is None and logins.get("http://b:8000") is not None
    logins.save("http://c:8000", Login("Cy", "gin_s_secret", SESSION))
    assert logins.get("http://c:8000") == Login("Cy", "gin_s_secret", SESSION)
    # A file written before accounts: its logins are name-and-token players.
    (tmp_path / "gin" / "players.json").write_text(
        '{"players": {"http://a:8000": {"name": "A", "token": "t"}}}'
    )
    assert logins.get("http://a:8000") == Login("A", "t", PLAYER)


def test_finished_games_are_kept_for_a_rematch_not_for_resume(tmp_path: Path) -> None:
    saved = SavedGames(tmp_path / "games.json")
    game = SavedGame(game_id="g1", server="http://s", seat=0, token="t1")
    saved.save(game)
    saved.finish(game)
    assert saved.load() == {} and saved.latest() is None
    finished = saved.latest_finished("http://s")
    assert finished is not None and finished.token == "t1"
    saved.forget("g1")
    assert saved.load_finished() == {}


def test_resign_is_confirmed_and_abort_is_a_move() -> None:
    view = {"legal_actions": [{"type": "resign"}, {"type": "abort"}]}
    assert parse_line("resign", view).kind == "resign"
    assert parse_line("abort", view).action == {"type": "abort"}
    # Not on offer: sent anyway, for the service to say why.
    assert parse_line("abort", {"legal_actions": [{"type": "resign"}]}).offered is False


def test_any_clock_preset_name_goes_to_the_service_which_knows_them() -> None:
    # gin keeps no list of presets: rapid, blitz, classical (and names the service adds later) are sent.
    assert [parse_clock(name) for name in ("rapid", "Blitz", "classical", "eaai")] == [
        "rapid",
        "blitz",
        "classical",
        "eaai",
    ]
    assert parse_clock("600+5") == {"bank": 600, "increment": 5} and parse_clock("60") == {"per_move": 60}
    for bad in ("10 minutes", "+5", "0", "-3"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_clock(bad)


def test_the_docs_show_people_a_clock_people_can_play() -> None:
    # eaai is 30 s for a whole match, the bots' competition control: no page shows it to a person.
    root = Path(__file__).resolve().parents[2]
    for page in ("README.md", "docs/cli.md", "clients/cli/README.md"):
        text = (root / page).read_text(encoding="utf-8")
        assert "--clock eaai" not in text, page
    assert "gin seek --rated --clock rapid" in (root / "README.md").read_text(encoding="utf-8")


def two_hands() -> dict[str, object]:
    """A made-up export of a match of two short hands (the replay reads only what a record says)."""

    def hand(number: int, winner: int, points: int) -> dict[str, object]:
        return {
            "number": number, "dealer": 1 - winner, "knock_limit": 10, "upcard": "2H",
            "initial_hands": [["TC", "KC"], ["7C", "9C"]],
            "actions": [{"seat": 1, "type": "draw", "source": "discard", "card": "2H"},
                        {"seat": 1, "type": "discard", "card": "9C"}][: 3 - number],
            "result": {"outcome": {"end": "knock", "winner": winner, "knocker": winner, "points": points,
                                   "knocker_deadwood": 1, "defender_deadwood": 1 + points, "difference": points}},
        }  # fmt: skip

    return {
        "game_id": "gAbc", "players": [{"name": "Ann", "type": "human"}, {"name": "Bob", "type": "human"}],
        "rules": {"target": 10}, "hands": [hand(1, 0, 4), hand(2, 1, 12)],
        "result": {"winner": 1, "end_reason": "finished", "match_winner": 1, "match_over": True,
                   "games": [{"number": 1, "points": [4, 12], "over": True, "winner": 1, "grand_totals": [4, 137]}]},
    }  # fmt: skip


def stepped(replay: Replay, pressed: bytes) -> list[str]:
    """The frames the replay of :func:`two_hands` shows as the keys ``pressed`` are read from a pipe."""
    read, write = os.pipe()
    os.write(write, pressed)
    os.close(write)
    out = io.StringIO()
    keys = Keys(read)
    step_through(Screen(color=False, out=out, live=False), replay, keys)
    keys.close()
    os.close(read)
    return out.getvalue().split("Replay of game gAbc · Ann vs Bob\n")[1:]


def test_a_replay_is_stepped_through_with_keys_without_a_service() -> None:
    replay = Replay(two_hands())
    assert [f.kind for f in replay.frames] == [
        "deal",
        "move",
        "move",
        "result",
        "deal",
        "move",
        "result",
        "end",
    ]
    assert [replay.next_hand(i) for i in (0, 3, 4, 7)] == [4, 4, 7, 7]
    assert [replay.previous_hand(i) for i in (0, 2, 4, 5, 7)] == [0, 0, 0, 4, 4]
    assert [(s.before, s.after) for s in replay.standings] == [((0, 0), (4, 0)), ((4, 0), (4, 12))]
    frames = stepped(replay, b"nnpNNxnpq")  # x: no such key; n at the end: nowhere to go
    assert [frame.splitlines()[0] for frame in frames] == [
        "── Hand 1 · Bob dealt · knock at 10 ─" + "─" * 43,
        "── Hand 1 · Bob dealt · knock at 10 ─" + "─" * 43,
        "── Hand 1 · Bob dealt · knock at 10 ─" + "─" * 43,
        "── Hand 1 · Bob dealt · knock at 10 ─" + "─" * 43,
        "── Hand 2 · Ann dealt · knock at 10 ─" + "─" * 43,
        "── Game 1 over: Bob wins ─" + "─" * 54,
        "── Hand 2 over: Bob knocked · Bob +12 ─" + "─" * 41,
    ]
    assert "Move 2 of 2: Bob discarded 9C" in frames[2] and "Score: Ann 4 · Bob 0" in frames[4]
    assert "Final score: Ann 4 · Bob 137" in frames[5] and "Bob wins the match." in frames[5]
    # Ann's hand: as dealt; Bob's: the upcard taken, 9C thrown.
    assert "  Ann  TC KC\n  Bob  7C 2H\n  Stock: 47 · Discard pile: 9C (top)" in frames[2]


def test_a_reviewed_replay_shows_the_verdicts_and_goes_from_mark_to_mark_without_a_service() -> None:
    def judged(
        hand: int, index: int, played: dict[str, str], best: dict[str, str], loss: float
    ) -> dict[str, object]:
        verdict = "blunder" if loss >= 10 else "mistake" if loss >= 5 else None
        return {
            "hand": hand,
            "index": index,
            "seat": 1,
            "played": played,
            "best": best,
            "loss": loss,
            "verdict": verdict,
        }

    take, stock = {"type": "draw", "source": "discard"}, {"type": "draw", "source": "stock"}
    review = {
        "seats": [
            {"seat": 0, "accuracy": None, "decisions": 0, "points_lost": 0.0, "inaccuracies": 0, "mistakes": 0, "blunders": 0},
            {"seat": 1, "accuracy": 76.0, "decisions": 3, "points_lost": 17.5, "inaccuracies": 0, "mistakes": 1, "blunders": 1},
        ],
        "moves": [
            judged(1, 0, take, {"type": "pass"}, 5.5),
            judged(1, 1, {"type": "discard", "card": "9C"}, {"type": "discard", "card": "9C"}, 0.0),
            judged(2, 0, take, stock, 12.0),
        ],
        "thresholds": {"blunder": 10.0, "mistake": 5.0, "inaccuracy": 2.0},
        "samples": 48,
    }  # fmt: skip
    replay = Replay(two_hands())
    replay.notes.update(Judged(Screen(color=False), replay, review).notes())
    assert [replay.next_mark(i) for i in (0, 1, 5)] == [1, 5, 5]  # frames 1 and 5 are marked moves
    assert [replay.previous_mark(i) for i in (0, 5, 7)] == [0, 1, 5]
    frames = stepped(replay, b"mmMnq")
    assert [re.findall(r"^Move .*\n  .*", frame, re.MULTILINE) for frame in frames] == [
        [],
        ["Move 1 of 2: Bob took 2H from the discard pile\n  ?  mistake: better pass (5.5 points given up)"],
        [
            "Move 1 of 1: Bob took 2H from the discard pile\n  ?? blunder: better draw from the stock (12.0 points given up)"
        ],
        ["Move 1 of 2: Bob took 2H from the discard pile\n  ?  mistake: better pass (5.5 points given up)"],
        ["Move 2 of 2: Bob discarded 9C\n  good: the best move"],
    ]
    assert (
        frames[0].rstrip().endswith("m/M next/previous marked move (?! inaccuracy · ? mistake · ?? blunder)")
    )

    text = io.StringIO()
    Judged(Screen(color=False, out=text), replay, review).render(every=False)
    assert (
        "  Bob                 76.0%         3            0        1        1      17.5\n" in text.getvalue()
    )
    assert "── Marked moves: 2 of 3 judged ─" in text.getvalue()
    assert (
        "  ?   Hand 1 · move 1 · Bob took 2H from the discard pile\n"
        "        mistake: better pass (5.5 points given up)\n"
        "  ??  Hand 2 · move 1 · Bob took 2H from the discard pile\n"
        "        blunder: better draw from the stock (12.0 points given up)\n"
    ) in text.getvalue()
