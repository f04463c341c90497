"""The game drawn from a seat's view: the players' names, the table (scores, clocks, the hands as far as
they are seen, the piles, the moves on offer) and the moves told in words.

Everything shown comes from the view; nothing here knows the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .screen import WIDTH, Part, Screen


def player_names(view: dict[str, Any], my_name: str = "You") -> list[str]:
    """Names for seats 0 and 1 from the view's ``players``; the viewer is ``my_name``."""
    names = ["Player 1", "Player 2"]
    players = view.get("players")
    entries: list[Any] = []
    if isinstance(players, list):
        entries = players
    elif isinstance(players, dict):
        entries = [players.get(str(seat)) or players.get(seat) for seat in (0, 1)]
    for seat, entry in enumerate(entries[:2]):
        if isinstance(entry, dict):
            name = entry.get("name") or entry.get("bot")
            if entry.get("bot") and name != entry.get("bot"):
                name = f"{name} ({entry['bot']} bot)"
            elif entry.get("bot") or entry.get("type") == "bot":
                name = f"{name} (bot)"
            if name:
                names[seat] = str(name)
        elif isinstance(entry, str) and entry:
            names[seat] = entry
    viewer = view.get("seat")
    if isinstance(viewer, int) and viewer in (0, 1):
        names[viewer] = my_name
        if names[1 - viewer] in ("Player 1", "Player 2"):
            names[1 - viewer] = "Opponent"
    return names


# --- the table -------------------------------------------------------------------------------------


def current_game(view: dict[str, Any]) -> dict[str, Any]:
    """The game in progress (or just finished) from the view's ``scores``."""
    games = (view.get("scores") or {}).get("games") or []
    return dict(games[-1]) if games else {}


def score_line(screen: Screen, view: dict[str, Any], names: list[str]) -> None:
    rules = view.get("rules") or {}
    scores = view.get("scores") or {}
    games = scores.get("games") or []
    target = rules.get("target")
    if rules.get("hollywood") and len(games) > 1:
        # Hollywood: the games are scored at once, so every game's points are shown, game 1 first.
        def tally(seat: int) -> str:
            return "/".join(str((game.get("points") or [0, 0])[seat]) for game in games)

        numbers = "/".join(str(game.get("number", i + 1)) for i, game in enumerate(games))
        screen.line(
            "Score: ",
            (f"{names[0]} {tally(0)}", "bold"),
            " · ",
            (f"{names[1]} {tally(1)}", "bold"),
            f"   (games {numbers}" + (f", each to {target})" if target else ")"),
        )
        return
    game = current_game(view)
    points = game.get("points") or [0, 0]
    parts: list[Part] = [
        "Score: ",
        (f"{names[0]} {points[0]}", "bold"),
        " · ",
        (f"{names[1]} {points[1]}", "bold"),
    ]
    if target:
        parts.append(f"   (game to {target})")
    won = scores.get("games_won")
    if len(games) > 1 or (rules.get("games") or 1) > 1:
        parts.append(f"   games won {won[0]}–{won[1]}" if won else "")
    screen.line(*parts)


def describe_move(
    screen: Screen, item: dict[str, Any], name: str, view: dict[str, Any] | None = None
) -> list[Part]:
    """One history entry in words (cards drawn as on the table); ``view`` tells a gin from a knock."""
    kind = item.get("type")
    card = item.get("card")
    shown: list[Part] = [screen.card(card)] if isinstance(card, str) and card else []
    if kind == "draw":
        if item.get("source") == "discard":
            return (
                [f"{name} took ", *shown, " from the discard pile"] if shown else [f"{name} took the discard"]
            )
        return [f"{name} drew ", *shown, " from the stock"] if shown else [f"{name} drew from the stock"]
    if kind == "discard":
        return [f"{name} discarded ", *shown]
    if kind == "pass":
        return [f"{name} passed"]
    if kind == "knock":
        if item.get("discard") is None and "discard" in item:
            return [f"{name} went big gin"]
        verb = "went gin" if _was_gin(item, view or {}) else "knocked"
        if item.get("discard"):
            return [f"{name} {verb}, discarding ", screen.card(item["discard"])]
        return [f"{name} {verb}"]
    if kind == "layoff":
        return [f"{name} laid down and laid off"]
    if kind == "deal":
        return [f"{name} dealt"]
    return [f"{name}: {kind}"]


def _was_gin(item: dict[str, Any], view: dict[str, Any]) -> bool:
    """Whether the knock in ``item`` was a gin, as the view's knock or hand result says."""
    knock = view.get("knock") or {}
    if knock.get("knocker") == item.get("seat") and (knock.get("gin") or knock.get("big_gin")):
        return True
    outcome = (view.get("result") or {}).get("outcome") or {}
    return outcome.get("knocker") == item.get("seat") and outcome.get("end") in ("gin", "big_gin")


def render_table(screen: Screen, view: dict[str, Any], names: list[str], *, clock: bool = True) -> None:
    """The game screen: scores (``clock``: and the clocks), the opponent, the piles, the hand and the
    moves on offer. A spectator's view (``seat`` None) shows what is public of both hands instead."""
    seat = view.get("seat", 0)
    dealer = view.get("dealer")
    title = f"Hand {view.get('hand_number', '?')}"
    rules = view.get("rules") or {}
    if (rules.get("games") or 1) > 1 and not rules.get("hollywood") and current_game(view).get("number"):
        title = f"Game {current_game(view)['number']} · {title}"
    if isinstance(dealer, int):
        title += f" · {names[dealer]} dealt" if dealer != seat else " · you dealt"
    title += f" · knock at {view.get('knock_limit')}" if view.get("knock_limit") else " · gin only"
    if view.get("spades_double"):
        title += " · spades double"
    screen.rule(title)
    score_line(screen, view, names)
    if clock:
        clock_line(screen, view, names)

    if seat is None:
        for number, player in enumerate((view.get("players") or [])[:2]):
            screen.line(*holding_parts(screen, names[number], player if isinstance(player, dict) else {}))
    else:
        screen.line(*holding_parts(screen, names[1 - seat], view.get("opponent") or {}))

    screen.line(*pile_parts(screen, view.get("discard_pile") or [], view.get("stock_size", "?")))

    hand = view.get("hand")
    if hand:
        melds = hand.get("melds") or []
        deadwood_cards = hand.get("deadwood_cards") or []
        screen.line("Your hand: ", *screen.melds(melds), " " if melds and deadwood_cards else "",
                    *screen.cards(deadwood_cards))  # fmt: skip
        screen.line(f"Deadwood: {hand.get('deadwood', 0)} (", *screen.cards(deadwood_cards), ")")
        discards = hand.get("discards") or []
        if discards:
            best = sorted(discards, key=lambda d: (d.get("deadwood", 0), d.get("card", "")))[:5]
            parts: list[Part] = ["Deadwood after discarding: "]
            for i, option in enumerate(best):
                parts += [", " if i else "", screen.card(option["card"]), f" {option['deadwood']}"]
            screen.line(*parts)
    knock = view.get("knock")
    if knock and view.get("phase") == "layoff":
        render_knock(screen, knock, names)


def holding_parts(screen: Screen, name: str, player: dict[str, Any]) -> list[Part]:
    """What the table knows of a hand it does not see: how many cards, and those known (taken from the
    discard pile and still held, or laid down by a knock)."""
    known = player.get("known_cards") or []
    parts: list[Part] = [f"{name}: {player.get('card_count', '?')} cards"]
    if known:
        parts += [" · known: ", *screen.cards(known)]
    return parts


def pile_parts(screen: Screen, pile: Sequence[str], stock_size: object) -> list[Part]:
    """The stock's size and the discard pile: its top card and the few below it."""
    parts: list[Part] = [f"Stock: {stock_size} · Discard pile: "]
    if pile:
        parts += [*screen.cards(pile[-1:]), " (top)"]
        if len(pile) > 1:
            parts += ["  below: ", *screen.cards(list(reversed(pile[-6:-1])))]
    else:
        parts.append("empty")
    return parts


def render_knock(screen: Screen, knock: dict[str, Any], names: list[str]) -> None:
    """The knocker's melds while the defender lays off (numbered: lay-offs name them)."""
    who = names[knock.get("knocker", 0)]
    kind = "big gin" if knock.get("big_gin") else "gin" if knock.get("gin") else "knocked"
    screen.line((f"{who} {kind}", "bold"), f" with deadwood {knock.get('deadwood', 0)}:")
    for number, meld in enumerate(knock.get("melds") or [], start=1):
        screen.line(f"  meld {number}: ", *screen.cards(meld))
    if knock.get("deadwood_cards"):
        screen.line("  deadwood: ", *screen.cards(knock["deadwood_cards"]))


def moves_line(screen: Screen, view: dict[str, Any]) -> None:
    """The moves on offer, in the words the prompt accepts (from ``legal_actions`` only)."""
    screen.line(*moves_parts(screen, view))


def moves_parts(screen: Screen, view: dict[str, Any]) -> list[Part]:
    """The ``Moves:`` line: the words to type in cyan, the cards named (the pile's top, the discards a
    knock or a gin may make) drawn as on the table (``10♠`` in colour, ``TS`` in plain text)."""
    legal = view.get("legal_actions") or []
    discards = {d.get("card"): d.get("deadwood") for d in (view.get("hand") or {}).get("discards") or []}
    pile = view.get("discard_pile") or []
    offers: list[list[Part]] = []
    kinds: set[str] = set()
    knock_cards: list[str] = []
    gin_cards: list[str] = []

    def words(text: str) -> Part:
        return (text, "cyan")

    for action in legal:
        kind = action.get("type")
        if kind == "draw" and action.get("source") == "stock":
            offers.append([words("draw (d)")])
        elif kind == "draw":
            top: list[Part] = [words("pile "), screen.card(pile[-1]), words(" (p)")] if pile else []
            offers.append(top or [words("pile (p)")])
        elif kind == "pass":
            offers.append([words("pass")])
        elif kind in ("discard", "layoff") and kind not in kinds:
            kinds.add(kind)
            offers.append([words("discard CARD" if kind == "discard" else "layoff")])
        elif kind == "knock" and action.get("discard") is None:
            offers.append([words("big gin")])
        elif kind == "knock":
            (gin_cards if discards.get(action["discard"]) == 0 else knock_cards).append(action["discard"])
        elif kind == "deal":
            offers.append([words("deal (Enter)")])
    if gin_cards:
        offers.append([words("gin CARD: "), *screen.cards(gin_cards)])
    if knock_cards:
        offers.append([words("knock CARD: "), *screen.cards(knock_cards)])
    parts: list[Part] = ["Moves: "]
    for i, offer in enumerate(offers):
        parts += [words(" · ")] if i else []
        parts += offer
    parts += [] if offers else [words("none (wait)")]
    parts.append(" · help")
    # Actions on the match (resign, abort) are on offer nearly always: named while the line keeps within 80
    # columns. Each listed action says its kind: gin keeps no list of its own.
    length = sum(len(p if isinstance(p, str) else p[0]) for p in parts)
    for action in legal:
        word = f" · {action.get('type')}"
        if action.get("kind") == "match" and length + len(word) <= WIDTH:
            parts.append(word)
            length += len(word)
    return parts


def format_seconds(seconds: float) -> str:
    """A time left on a clock: ``m:ss``, with tenths under ten seconds.

    >>> format_seconds(754.2), format_seconds(30), format_seconds(7.25), format_seconds(-1)
    ('12:34', '0:30', '7.2 s', '0.0 s')
    """
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def clock_text(view: dict[str, Any], names: list[str], elapsed: float = 0.0) -> str | None:
    """The clocks of a game with a time control: each seat's bank left, whose clock runs and how long
    its move has left (None without a time control); ``elapsed``: seconds since the view was read, taken
    off the running clock.

    >>> view = {"seat": 0, "clock": {"per_move": None, "bank": 30, "increment": 0,
    ...         "remaining": [21.5, 30.0], "running": 0, "move_remaining": 21.5}}
    >>> clock_text(view, ["You", "Bob"])
    'Clock: You 0:21 · Bob 0:30 · your move: 0:21 left'
    >>> view["clock"].update(per_move=60, bank=None, remaining=None, running=1, move_remaining=42)
    >>> clock_text(view, ["You", "Bob"])
    "Clock: 60 s a move · Bob's move: 0:42 left"
    >>> clock_text(view, ["You", "Bob"], elapsed=40)
    "Clock: 60 s a move · Bob's move: 2.0 s left"
    """
    clock = view.get("clock")
    if not isinstance(clock, dict):
        return None
    parts: list[str] = []
    running, left = clock.get("running"), clock.get("move_remaining")
    if not (isinstance(running, int) and running in (0, 1)):
        running, elapsed = None, 0.0  # nobody's clock runs: the banks stand still
    remaining = clock.get("remaining")
    if isinstance(remaining, list) and len(remaining) == 2:
        banks = [float(remaining[seat]) - (elapsed if seat == running else 0.0) for seat in (0, 1)]
        parts += [f"{names[seat]} {format_seconds(banks[seat])}" for seat in (0, 1)]
    elif clock.get("per_move"):
        parts.append(f"{clock['per_move']} s a move")
    if clock.get("increment"):
        parts.append(f"+{clock['increment']} s a move")
    if running is not None and isinstance(left, int | float):
        whose = "your move" if running == view.get("seat") else f"{names[running]}'s move"
        parts.append(f"{whose}: {format_seconds(float(left) - elapsed)} left")
    return "Clock: " + " · ".join(parts)


def clock_line(screen: Screen, view: dict[str, Any], names: list[str]) -> None:
    """The clocks, under the score line (nothing without a time control)."""
    text = clock_text(view, names)
    if text is not None:
        screen.line(text)
