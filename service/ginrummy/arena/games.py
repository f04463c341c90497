"""One arena game: two entrants play a whole match on the real engine, each seeing only its seat view.

Everything in a game follows from its deal seed: the cut for the first dealer and every deal shuffle
with ``random.Random(deal_seed)`` (the arena deals between hands: a bot is never asked to), a house bot
in seat ``s`` is ``make_bot(name, seed=deal_seed * 2 + s)``, and the ``random`` module is seeded with
``deal_seed * 2 + (the seat of the first entrant)`` before the game, for bot functions that use it. The
two games of a mirrored deal share the deal seed: the same decks, the seats swapped.

A house bot is shown the view the service shows it (``seat_view`` without ``stats`` and ``analysis``); a
bot function the whole seat view, which is what ``GET /v1/games/{id}`` shows its seat less the service's
own members (``game_id``, ``version``, ``players``, ``clock``, …). An answer must be one of
``view["legal_actions"]`` (its ``kind`` may be left out, as for ``gin-bot``). Any other answer, or an
exception, forfeits the game (``end_reason`` ``"disqualified"``): it is reported, never replaced.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ginrummy.bots import make_bot
from ginrummy.engine import Game, MatchEnd, Rules, seat_view
from ginrummy.engine.errors import GinRummyError

from .entrants import Chooser, Entrant, bot_traceback, load_function
from .records import EPOCH, export_document, ndjson_line, revealed_hand

HOUSE_VIEW_OMITS = frozenset({"stats", "analysis"})
"""What a house bot's view leaves out, as in the service (``ginrummy.app.playing.render.BOT_VIEW_OMITS``)."""
DEAL = {"type": "deal"}
MAX_DECISIONS = 200_000  # a guard against a match that cannot end: no real one comes near


class UnfinishedGame(RuntimeError):
    """A match that did not end within :data:`MAX_DECISIONS` (players that never win a hand)."""


@dataclass(frozen=True)
class GameTask:
    """Game ``number`` of a run: ``seats`` are the indexes of the entrants in seat 0 and seat 1."""

    number: int
    seats: tuple[int, int]
    deal_seed: int


@dataclass(frozen=True)
class Forfeit:
    """A game lost by ``seat`` for an illegal answer or an exception (``problem``; ``detail``: the
    bot's traceback, or the view's legal actions)."""

    seat: int
    hand: int
    problem: str
    detail: str


@dataclass(frozen=True)
class GameOutcome:
    """What the arena keeps of a game: the result by seat, how each hand ended (``ends``: end, winner,
    points), each seat's statistics and decision times, the forfeit if any, the export document."""

    task: GameTask
    winner: int | None
    end_reason: str
    points: tuple[int, int]
    ends: tuple[tuple[str, int | None, int], ...]
    stats: tuple[dict[str, int], dict[str, int]]
    decisions: tuple[tuple[float, ...], tuple[float, ...]]
    forfeit: Forfeit | None = None
    record: str | None = None

    @property
    def hands(self) -> int:
        return len(self.ends)


@dataclass(frozen=True)
class Table:
    """What every game of a run shares: the entrants, the rules, and what to record."""

    entrants: tuple[Entrant, ...]
    rules: Rules
    seed: int
    records: bool = False
    date: str = EPOCH

    def game_id(self, task: GameTask) -> str:
        return f"arena-{self.seed}-{task.number:06d}"


def play_game(table: Table, task: GameTask) -> GameOutcome:
    """Play the game ``task`` names to the end of the match (or the first forfeit)."""
    entrants = [table.entrants[task.seats[0]], table.entrants[task.seats[1]]]
    rng = random.Random(task.deal_seed)
    random.seed(task.deal_seed * 2 + (task.seats[0] > task.seats[1]))
    choosers: list[Chooser] = [
        make_bot(e.spec, seed=task.deal_seed * 2 + seat).choose if e.house else load_function(e.spec)
        for seat, e in enumerate(entrants)
    ]
    omits = [HOUSE_VIEW_OMITS if e.house else frozenset[str]() for e in entrants]
    game = Game.new(table.rules, rng)
    game_id = table.game_id(task)
    hands: list[dict[str, Any]] = []
    times: tuple[list[float], list[float]] = ([], [])
    forfeit: Forfeit | None = None
    clock = time.perf_counter
    for _ in range(MAX_DECISIONS):
        seat = game.to_act
        if seat is None:
            if game.match_over:
                break
            game.apply(0, DEAL, rng=rng)
            continue
        view = seat_view(game, seat, omits[seat])
        legal: list[dict[str, Any]] = view["legal_actions"]
        if not entrants[seat].house:
            legal = [dict(action) for action in legal]  # what the bot may not change
        started = clock()
        try:
            answer = choosers[seat](view)
        except Exception as error:  # the bot's bug: it forfeits the game, with its traceback
            times[seat].append(clock() - started)
            forfeit = Forfeit(
                seat, game.hand_number, f"raised {type(error).__name__}: {error}", bot_traceback(error)
            )
            break
        times[seat].append(clock() - started)
        action = listed(answer, legal)
        try:
            if action is None:
                raise GinRummyError("not one of the legal actions")
            game.apply(seat, action)
        except GinRummyError:
            forfeit = Forfeit(
                seat,
                game.hand_number,
                f"answered {short(answer)}, which is not one of the legal actions",
                "legal actions: " + short(legal, 2000),
            )
            break
        if table.records and game.hand_over and (not hands or hands[-1]["number"] != game.hand_number):
            hands.append(revealed_hand(game, game_id, task.deal_seed))
    else:
        raise UnfinishedGame(
            f"game {task.number} (deal seed {task.deal_seed}) did not end in {MAX_DECISIONS} decisions"
        )
    if forfeit is not None:
        game.forfeit(forfeit.seat, MatchEnd.DISQUALIFIED)
    return outcome(table, task, game, times, forfeit, hands)


def outcome(
    table: Table,
    task: GameTask,
    game: Game,
    times: tuple[list[float], list[float]],
    forfeit: Forfeit | None,
    hands: list[dict[str, Any]],
) -> GameOutcome:
    totals = [0, 0]
    for score in game.scores:
        settled = score.settle(game.rules)
        for seat in (0, 1):
            totals[seat] += settled["grand_totals"][seat]
    stats = game.stats()
    counts = tuple({k: v for k, v in seat.items() if isinstance(v, int)} for seat in stats)
    record = None
    if table.records:
        players = [(table.entrants[i].name, table.entrants[i].spec) for i in task.seats]
        record = ndjson_line(export_document(game, table.game_id(task), players, hands, table.date))
    return GameOutcome(
        task=task,
        winner=game.match_winner,
        end_reason=game.end_reason.value if game.end_reason else "finished",
        points=(totals[0], totals[1]),
        ends=tuple((s.end.value, s.winner, s.points) for s in game.summaries),
        stats=(counts[0], counts[1]),
        decisions=(tuple(times[0]), tuple(times[1])),
        forfeit=forfeit,
        record=record,
    )


def listed(answer: Any, legal: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The element of ``legal`` that ``answer`` is — the very object, or the same action with or
    without its ``kind`` (as ``gin-bot`` takes it) — or None.

    >>> listed({"type": "pass"}, [{"type": "pass", "kind": "play"}])
    {'type': 'pass', 'kind': 'play'}
    >>> listed({"type": "deal"}, [{"type": "pass", "kind": "play"}]) is None
    True
    """
    for action in legal:
        same = answer is action  # (not in the if: mypy would take the action for the Any it is compared to)
        if same:
            return action
    if not isinstance(answer, Mapping):
        return None
    wanted = {key: value for key, value in answer.items() if key != "kind"}
    for action in legal:
        if {k: v for k, v in action.items() if k != "kind"} == wanted and answer.get(
            "kind", action.get("kind")
        ) == action.get("kind"):
            return action
    return None


def short(value: Any, limit: int = 200) -> str:
    """A bot's answer for a report: its JSON when it has one, cut at ``limit`` characters."""
    try:
        text = json.dumps(value, separators=(",", ":"), default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
