"""A run of the arena: every pairing of the entrants (round robin), each deal played twice with the seats
swapped (mirrored deals), in this process or in ``jobs`` worker processes.

The schedule is a list of :class:`~ginrummy.arena.games.GameTask`: pairing by pairing (``a`` against
``b`` for ``a`` before ``b`` in the entrants' order), deal ``k`` = seed ``seed + k`` (the same deals for
every pairing), first with ``a`` in seat 0, then with ``b`` there. Outcomes come back in the schedule's
order whatever the number of processes, so the results and the records of a seed are the same bytes
with one process or eight.

>>> from ginrummy.engine import Rules
>>> from ginrummy.arena.entrants import parse_entrants
>>> table = Table(tuple(parse_entrants(["random", "simple"])), Rules.from_options(target=10), seed=5)
>>> [(t.number, t.seats, t.deal_seed) for t in schedule(table, games=4)]
[(0, (0, 1), 5), (1, (1, 0), 5), (2, (0, 1), 6), (3, (1, 0), 6)]
>>> results = run(table, games=2)
>>> [row["wins"] for row in results.standings()]
[0, 2]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Callable, Generator
from itertools import combinations

from .entrants import check
from .games import GameOutcome, GameTask, Table, play_game
from .results import Results

_TABLE: Table | None = None  # a worker process's table, set once by its initializer


def schedule(table: Table, games: int) -> list[GameTask]:
    """The games of a run: ``games`` per pairing (rounded up to even: whole mirrored deals)."""
    deals = (games + 1) // 2
    tasks: list[GameTask] = []
    for a, b in combinations(range(len(table.entrants)), 2):
        for k in range(deals):
            for seats in ((a, b), (b, a)):
                tasks.append(GameTask(len(tasks), seats, table.seed + k))
    return tasks


def run(
    table: Table,
    games: int,
    *,
    jobs: int = 1,
    strict: bool = False,
    progress: Callable[[GameOutcome], None] | None = None,
) -> Results:
    """Play the run; ``strict``: stop at the first forfeit (it is the last outcome of the results).
    Raises :class:`~ginrummy.arena.entrants.EntrantError` before any game for an entrant that does not
    load."""
    for entrant in table.entrants:
        check(entrant)
    tasks = schedule(table, games)
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []
    with contextlib.closing(_outcomes(table, tasks, jobs)) as played:  # closing it stops the workers
        for outcome in played:
            outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
            if strict and outcome.forfeit is not None:
                break
    return Results(table, (games + 1) // 2 * 2, outcomes, time.perf_counter() - started, jobs)


def _outcomes(table: Table, tasks: list[GameTask], jobs: int) -> Generator[GameOutcome, None, None]:
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_game(table, task)
        return
    chunk = max(1, min(16, len(tasks) // (jobs * 8)))
    with multiprocessing.Pool(min(jobs, len(tasks)), initializer=_start_worker, initargs=(table,)) as pool:
        # In the schedule's order, whichever worker played what.
        yield from pool.imap(_play, tasks, chunksize=chunk)


def _start_worker(table: Table) -> None:
    global _TABLE
    _TABLE = table
    for entrant in table.entrants:
        check(entrant)  # the bot functions, loaded once per worker


def _play(task: GameTask) -> GameOutcome:
    assert _TABLE is not None
    return play_game(_TABLE, task)
