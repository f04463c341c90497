"""The arena: bots of your own and the house bots against each other, in-process, on the real engine.

Standard library only, like the engine and the bots it ships with (the ``ginrummy-engine``
distribution). A bot is a function ``choose(view) -> action``, the same as ``gin-bot`` plays over
HTTP (:mod:`ginrummy.arena.entrants`); a run is a round robin of its entrants with mirrored deals, in
one process or several, reproducible from its seed (:mod:`ginrummy.arena.runner`); every game can be
written in the service's export format (:mod:`ginrummy.arena.records`); the results come as a table,
CSV and JSON with Wilson intervals (:mod:`ginrummy.arena.results`). ``ginrummy-arena`` is the command
(:mod:`ginrummy.arena.cli`); :mod:`ginrummy.arena.aec` is a PettingZoo environment over the same engine
(the ``pettingzoo`` extra).

>>> from ginrummy.engine import Rules
>>> table = Table(tuple(parse_entrants(["novice", "simple"])), Rules.from_options(target=25), seed=3)
>>> results = run(table, games=4)
>>> [(row["entrant"], row["games"]) for row in results.standings()]
[('novice', 4), ('simple', 4)]
"""

from .entrants import Chooser, Entrant, EntrantError, load_function, parse_entrants
from .games import Forfeit, GameOutcome, GameTask, Table, play_game
from .records import export_document
from .results import Results, percentile, wilson
from .runner import run, schedule

__all__ = [
    "Chooser",
    "Entrant",
    "EntrantError",
    "Forfeit",
    "GameOutcome",
    "GameTask",
    "Results",
    "Table",
    "export_document",
    "load_function",
    "parse_entrants",
    "percentile",
    "play_game",
    "run",
    "schedule",
    "wilson",
]
