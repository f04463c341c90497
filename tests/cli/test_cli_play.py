"""`gin play` against a bot on the real service, driven by scripted input, to the end of the game."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import GinProcess, highest_deadwood, last_line, play_to_end


def saved_games(config_home: Path) -> dict[str, object]:
    path = config_home / "gin" / "games.json"
    return json.loads(path.read_text())["games"] if path.exists() else {}


def test_a_whole_game_against_a_bot_in_plain_text(run_gin, config_home: Path) -> None:
    gin: GinProcess = run_gin("play", "--bot", "simple", "--seed", "7", "--name", "Ann")
    first = gin.wait_prompt()
    assert first is not None
    assert "Your hand:" in first and "Deadwood:" in first and "Stock:" in first and "Discard pile:" in first
    assert "Moves:" in first and "Score: You 0" in first
    (game_id,) = saved_games(config_home)

    # Mistakes are explained and asked again, never a crash.
    gin.send("discard ZZ")
    assert "'zz' is not a card" in (gin.wait_prompt() or "")
    gin.send("fly away")
    assert "Unknown command" in (gin.wait_prompt() or "")
    gin.send("help")
    assert "big gin" in (gin.wait_prompt() or "")
    gin.send("hint")
    assert "Hint:" in (gin.wait_prompt() or "")

    status = play_to_end(gin)
    out = gin.output
    assert status == 0, gin.errors
    assert re.search(r"Hand \d+ over: ", out)
    # The bot's moves are told from each move's response (its events), as they happen.
    assert re.search(r"simple \(bot\) (drew from the stock|took \S+ from the discard pile|passed)\.", out)
    assert re.search(r"simple \(bot\) discarded \S+\.", out)
    assert "Game 1 over" in out and "grand total" in out and "game bonus" in out
    assert "Game over." in out
    assert game_id not in saved_games(config_home)  # finished games are forgotten
    assert gin.errors == ""


def test_a_move_not_on_offer_is_explained_in_the_games_words(run_gin) -> None:
    gin: GinProcess = run_gin("play", "--seed", "11")
    first = gin.wait_prompt() or ""
    assert "Moves: pile 4D (p) · pass · help · resign · abort" in first  # the upcard is offered
    # A move of a kind not on offer is not sent: gin says why, in the game's words, and what is offered.
    gin.send("discard 7h")
    said = gin.wait_prompt() or ""
    assert said == (
        "You cannot discard now: the upcard is on offer — take it or pass.\n"
        "Moves: pile 4D (p) · pass · help · resign · abort\n> "
    )
    gin.send("p")
    assert "Moves: discard CARD · help · resign" in (gin.wait_prompt() or "")
    for typed, answer in (
        ("pass", "You cannot pass now: you have drawn — discard a card, or knock."),
        ("d", "You cannot draw from the stock now: you have drawn — discard a card, or knock."),
        ("abort", "The match can no longer be aborted: a card of its first hand has been drawn."),
        # No knock is on offer: the view's deadwood figures and knock limit say why.
        ("knock", "You cannot knock: 34 deadwood after the best discard, the knock limit is 10."),
        ("knock jd", "You cannot knock: 34 deadwood after discarding JD, the knock limit is 10."),
        # The card just taken has no figure: the knock is sent, and the service says why not.
        ("knock 4d", "4D was just taken from the discard pile: it may not be discarded this turn."),
    ):
        gin.send(typed)
        assert (gin.wait_prompt() or "").startswith(answer + "\n"), typed
    # A discard is on offer, but not of the card just taken: the service says why, and that is game words.
    gin.send("discard 4d")
    assert (gin.wait_prompt() or "").startswith(
        "4D was just taken from the discard pile: it may not be discarded this turn."
    )
    gin.send("discard jd")
    assert gin.wait_prompt() is not None
    gin.send("undo")  # against a bot the service lets a player take a move back
    assert "Your last move is taken back." in (gin.wait_prompt() or "")
    gin.send("quit")
    assert gin.wait() == 5
    assert "gin resume" in gin.output
    for internal in ("phase", "upcard_", "illegal_action", "not_on_offer", "seat 0", "seat 1"):
        assert internal not in gin.output + gin.errors, internal


def test_json_lines_while_playing(run_gin) -> None:
    gin: GinProcess = run_gin("play", "--json", "--seed", "3", "-o", "target=25")
    lines: list[dict[str, object]] = []
    done = False
    for _ in range(3000):
        prompt_seen = False
        while not prompt_seen:
            line = _next_json_line(gin)
            if line is None:
                done = True
                break
            lines.append(line)
            prompt_seen = line["type"] == "prompt"
        if done:
            break
        view = next(item["view"] for item in reversed(lines) if item["type"] == "view")
        gin.send(_json_strategy(view))  # type: ignore[arg-type]
    assert gin.wait() == 0, gin.errors
    assert lines[0]["type"] == "created"
    over = lines[-1]
    assert over["type"] == "over"
    assert over["scores"]["match_over"] is True  # type: ignore[index]


def _next_json_line(gin: GinProcess) -> dict[str, object] | None:
    line = gin.next_line()
    return None if line is None else json.loads(line)


def _json_strategy(view: dict) -> str:  # type: ignore[type-arg]
    kinds = {(a["type"], a.get("source")) for a in view["legal_actions"]}
    knocks = [a for a in view["legal_actions"] if a["type"] == "knock"]
    if ("deal", None) in kinds:
        return "deal"
    if ("layoff", None) in kinds:
        return "layoff"
    if knocks:
        return "big gin" if knocks[0]["discard"] is None else "knock"
    if ("pass", None) in kinds:
        return "pass"
    if ("draw", "stock") in kinds:
        return "d"
    dead = view["hand"]["deadwood_cards"] or view["hand"]["cards"][-1:]
    values = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}
    return max(dead, key=lambda c: (values[c[0]], c))


def test_ctrl_c_leaves_cleanly_and_says_how_to_resume(run_gin, config_home: Path) -> None:
    gin: GinProcess = run_gin("play", "--seed", "5")
    assert gin.wait_prompt() is not None
    gin.interrupt()
    assert gin.wait() == 130
    (game_id,) = saved_games(config_home)
    assert f"gin resume {game_id}" in gin.errors
    assert "Traceback" not in gin.errors


def patient_reply(output: str) -> str:
    """Never knock: draw from the stock, throw the highest deadwood, lay off the best way — a defender
    against the knocker, whose early knocks this undercuts now and then."""
    moves = last_line(output, "Moves:") or ""
    for offered, reply in (("deal", "deal"), ("layoff", "layoff"), ("pass", "pass"), ("draw (d)", "draw")):
        if offered in moves:
            return reply
    return f"discard {highest_deadwood(output)}"


def test_an_undercut_counts_the_knockers_deadwood_first(run_gin) -> None:
    # The knocker bot knocks the moment it can; a player who never knocks undercuts it within a few
    # hands of this deal (the seed fixes the deals and the bot's choices).
    gin: GinProcess = run_gin("play", "--bot", "knocker", "--seed", "1", "-o", "target=1000")
    for _ in range(1000):
        screen = gin.wait_prompt() or ""
        if "undercut" in screen:
            break
        gin.send(patient_reply(screen))
    title = re.search(r"Hand \d+ over: You undercut knocker \(bot\) · You \+(\d+)", screen)
    assert title is not None, screen
    points = re.search(
        r"Points: deadwood (\d+) − (\d+) = (\d+) \+ 25 undercut bonus → You score (\d+)", screen
    )
    assert points is not None, screen
    knocker, defender, difference, scored = map(int, points.groups())
    # The knocker had the more deadwood (or as much): the subtraction reads the right way round.
    assert knocker >= defender and knocker - defender == difference
    assert scored == difference + 25 == int(title[1])
    knocked = re.search(r"knocker \(bot\): .*\n  deadwood (\d+)", screen)
    assert knocked is not None and int(knocked[1]) == knocker
    gin.send("quit")
    assert gin.wait() == 5
