"""The end of a hand, a game and a match drawn from a seat's view: both arrangements, the lay-offs, how
the points were made, each finished game's totals and bonuses, and how a match that ended early ended.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .screen import Part, Screen
from .table import score_line

END_TEXT = {
    "knock": "{knocker} knocked",
    "undercut": "{defender} undercut {knocker}",
    "gin": "{knocker} went gin",
    "big_gin": "{knocker} went big gin",
    "tie": "a tie: no score",
    "wall": "the wall: the hand is cancelled",
    "draw_limit": "too many draws from the discard pile: the hand is cancelled",
}


BONUS_LABELS = {
    "game": "game bonus",
    "box": "box bonus",
    "shutout_hand_points": "shutout (x2 points)",
}


def finished_by_last_hand(view: dict[str, Any]) -> list[int]:
    """The numbers of the games the hand on screen brought to an end (Hollywood: possibly several)."""
    games = (view.get("scores") or {}).get("games") or []
    hands = view.get("hands")
    if isinstance(hands, list) and hands and isinstance(hands[-1], dict) and "games" in hands[-1]:
        last = hands[-1]
        if last.get("number") in (None, view.get("hand_number")):
            credited = last.get("games") or []
            return [g["number"] for g in games if g.get("over") and g.get("number") in credited]
        return []
    # A service that does not say which games a hand counted in: the game phase tells.
    if view.get("phase") in ("game_over", "match_over"):
        return [g["number"] for g in games if g.get("over")][-1:]
    return []


def end_text(view: dict[str, Any], names: list[str]) -> str | None:
    """How a match that ended early ended, and who won it (None for a match played out).

    >>> names = ["You", "Bob"]
    >>> end_text({"seat": 0, "end_reason": "resigned", "forfeited_by": 1}, names)
    'Bob resigned: you win the match.'
    >>> end_text({"seat": 0, "end_reason": "timeout", "forfeited_by": 0}, names)
    'You ran out of time: Bob wins the match.'
    >>> end_text({"seat": 1, "end_reason": "aborted"}, ["Ann", "You"])
    'The match was aborted: no result.'
    """
    reason = view.get("end_reason")
    if not reason:
        return None
    if reason == "aborted":
        return "The match was aborted: no result."
    loser = view.get("forfeited_by")
    if not isinstance(loser, int) or loser not in (0, 1):
        return f"The match ended: {reason}."
    what = {"resigned": "resigned", "timeout": "ran out of time", "abandoned": "left the game"}.get(
        str(reason), str(reason)
    )
    winner = names[1 - loser]
    won = "you win the match" if winner == "You" else f"{winner} wins the match"
    return f"{names[loser]} {what}: {won}."


def render_hand_end(screen: Screen, view: dict[str, Any], names: list[str]) -> None:
    """The end of the hand just played, and the totals of the games it ended (in Hollywood a game may
    end while the others go on; usually the phase is game_over)."""
    render_result(screen, view, names)
    ended = finished_by_last_hand(view)
    if ended:
        render_game_over(screen, view, names, numbers=ended)


def render_match_end(
    screen: Screen, view: dict[str, Any], names: list[str], *, result_shown: bool, closing: str
) -> None:
    """The end of a match: the last hand's end (unless ``result_shown``), the totals of the game it
    ended, how the match ended when it ended early, and ``closing``."""
    if view.get("result") and not result_shown:
        render_result(screen, view, names)
    render_game_over(screen, view, names, numbers=finished_by_last_hand(view) or None)
    ended = end_text(view, names)
    if ended:
        screen.line((ended, "bold"))
    screen.line((closing, "bold"))


def render_result(screen: Screen, view: dict[str, Any], names: list[str], *, scores: bool = True) -> None:
    """Both arrangements, lay-offs and the points of the hand that just ended (``scores``: then the score
    line of the view)."""
    result = view.get("result") or {}
    outcome = result.get("outcome") or {}
    knocker = result.get("knocker") or {}
    defender = result.get("defender") or {}
    end = str(outcome.get("end", "over"))
    k_seat = int(knocker.get("seat", outcome.get("knocker")) or 0)
    d_seat = int(defender.get("seat", 1 - k_seat))
    what = END_TEXT.get(end, end).format(knocker=names[k_seat], defender=names[d_seat])
    winner = outcome.get("winner")
    title = f"Hand {view.get('hand_number', '?')} over: {what}"
    if isinstance(winner, int):
        title += f" · {names[winner]} +{outcome.get('points', 0)}"
    screen.rule(title)
    if knocker:
        parts: list[Part] = [
            (f"{names[k_seat]}", "bold"),
            ": ",
            *screen.melds(knocker.get("melds") or [], empty="no melds"),
        ]
        screen.line(*parts)
        deadwood = knocker.get("deadwood_cards") or []
        parts = [
            f"  deadwood {knocker.get('deadwood', 0)}",
            ": " if deadwood else "",
            *screen.cards(deadwood),
        ]
        if knocker.get("discard"):
            parts += ["  · discarded ", screen.card(knocker["discard"])]
        screen.line(*parts)
        screen.line(
            (f"{names[d_seat]}", "bold"), ": ", *screen.melds(defender.get("melds") or [], empty="no melds")
        )
        layoffs = defender.get("layoffs") or []
        if layoffs:
            # Grouped by the knocker's meld, in the order laid off: "4S 3S on [5S 6S 7S 8S]" (3S fits
            # only after 4S, so "3S on [5S 6S 7S 8S]" alone would look wrong); one line per meld.
            melds = knocker.get("melds") or []
            by_meld: dict[Any, list[str]] = {}
            for layoff in layoffs:
                by_meld.setdefault(layoff.get("meld"), []).append(layoff["card"])
            for index, cards in by_meld.items():
                target = melds[index] if isinstance(index, int) and 0 <= index < len(melds) else []
                screen.line("  laid off ", *screen.cards(cards), " on ", *screen.melds([target]))
        deadwood = defender.get("deadwood_cards") or []
        screen.line(
            f"  deadwood {defender.get('deadwood', 0)}", ": " if deadwood else "", *screen.cards(deadwood)
        )
    else:
        for seat, arrangement in enumerate(result.get("arrangements") or []):
            deadwood = arrangement.get("deadwood_cards") or []
            melds = screen.melds(arrangement.get("melds") or [], empty="no melds")
            screen.line((names[seat], "bold"), ": ", *melds, f"  deadwood {arrangement.get('deadwood', 0)}",
                        ": " if deadwood else "", *screen.cards(deadwood))  # fmt: skip
    if isinstance(winner, int):
        screen.line(points_text(outcome, names))
    if scores:
        score_line(screen, view, names)


def points_text(outcome: dict[str, Any], names: list[str]) -> str:
    """How the hand's points were made: difference, bonus, doubling. The difference is the loser's
    deadwood minus the winner's: the defender's minus the knocker's for a knock, the other way round for
    an undercut (the knocker has the more, or as much).

    >>> knock = {"end": "knock", "winner": 0, "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 8,
    ...          "difference": 5, "bonus": 0, "points": 5}
    >>> points_text(knock, ["You", "Bob"])
    'Points: deadwood 8 − 3 = 5 → You score 5'
    >>> undercut = {"end": "undercut", "winner": 1, "knocker": 0, "knocker_deadwood": 8,
    ...             "defender_deadwood": 3, "difference": 5, "bonus": 25, "points": 30}
    >>> points_text(undercut, ["You", "Bob"])
    'Points: deadwood 8 − 3 = 5 + 25 undercut bonus → Bob scores 30'
    """
    end = outcome.get("end")
    winner = names[outcome["winner"]]
    knocker, defender = outcome.get("knocker_deadwood", 0), outcome.get("defender_deadwood", 0)
    if end in ("gin", "big_gin"):
        text = f"Points: {defender} deadwood"
    else:
        loser, won = (knocker, defender) if end == "undercut" else (defender, knocker)
        text = f"Points: deadwood {loser} − {won} = {outcome.get('difference', 0)}"
    if outcome.get("bonus"):
        label = {"undercut": "undercut", "gin": "gin", "big_gin": "big gin"}.get(str(end), "")
        text += f" + {outcome['bonus']} {label} bonus".replace("  ", " ")
    if (outcome.get("multiplier") or 1) > 1:
        text += f", ×{outcome['multiplier']} (spade upcard)"
    verb = "score" if winner == "You" else "scores"
    return f"{text} → {winner} {verb} {outcome.get('points', 0)}"


def render_game_over(
    screen: Screen,
    view: dict[str, Any],
    names: list[str],
    *,
    all_games: bool = False,
    numbers: Collection[int] | None = None,
) -> None:
    """Finished games' totals, each bonus, and the match result once the match is over.

    Which games: ``numbers`` when given, every finished game with ``all_games``, else the last one.
    """
    scores = view.get("scores") or {}
    finished = [game for game in scores.get("games") or [] if game.get("over")]
    if numbers is not None:
        shown = [game for game in finished if game.get("number") in numbers]
    else:
        shown = finished if all_games else finished[-1:]
    for game in shown:
        winner = game.get("winner")
        title = f"Game {game.get('number', '?')} over"
        if isinstance(winner, int):
            title += f": {names[winner]} {'win' if names[winner] == 'You' else 'wins'}"
        screen.rule(title)
        rows: list[tuple[str, Any]] = [
            ("hand points", game.get("points")),
            ("hands won", game.get("hands_won")),
        ]
        bonuses = game.get("bonuses") or {}
        for key, value in bonuses.items():
            if isinstance(value, list) and any(value):
                rows.append((BONUS_LABELS.get(key, key.replace("_", " ")), value))
        rows.append(("grand total", game.get("grand_totals")))
        screen.line(f"{'':<22}{names[0][:14]:>16}{names[1][:14]:>16}")
        for label, value in rows:
            screen.line(f"{label:<22}" + "".join(f"{_cell(value, s):>16}" for s in (0, 1)))
        if bonuses.get("shutout"):
            screen.line(("Shutout: the loser did not win a hand.", "bold"))
    if scores.get("match_over"):
        won = scores.get("games_won") or [0, 0]
        winner = scores.get("match_winner")
        if len(scores.get("games") or []) > 1:
            who = names[winner] if isinstance(winner, int) else "nobody"
            verb = "win" if who == "You" else "wins"
            tally = f"{names[0]} {won[0]}, {names[1]} {won[1]}"
            screen.line((f"Match over: {who} {verb} the match (games won: {tally})", "bold"))


def _cell(value: Any, seat: int) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return str(value[seat])
    if isinstance(value, dict):
        return str(value.get(str(seat), value.get(seat, "")))
    return "" if value is None else str(value) if seat == 0 else ""
