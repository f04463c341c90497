"""``ginrummy-arena`` (also ``python -m ginrummy.arena``): your bots and the house bots against each other,
in this process or in several, on the real engine — no service, no network.

    ginrummy-arena my_bot:choose simple --games 200 --jobs 2
    ginrummy-arena bots/mine.py:choose old=bots/old.py:choose expert --csv results.csv --records games.ndjson
    ginrummy-arena simple expert --rules oklahoma -o target=150 --seed 7 --json results.json

Every pairing of the entrants plays ``--games`` games, each deal twice with the seats swapped. The same
``--seed`` plays the same games again, move for move, with any ``--jobs``. Exit statuses: 0 the run was
played; 1 a match did not end (200,000 decisions); 2 a bad command line, a bot that cannot be loaded or a
file that cannot be written; 4 ``--strict`` and a bot forfeited a game; 130 interrupted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from pathlib import Path
from typing import Any

from ginrummy.engine import OPTION_DOCS, PRESETS, Rules
from ginrummy.engine.errors import BadRulesError

from .entrants import EntrantError, parse_entrants
from .games import GameOutcome, Table, UnfinishedGame
from .records import EPOCH
from .runner import run

EXIT_OK, EXIT_UNFINISHED, EXIT_USAGE, EXIT_STRICT, EXIT_INTERRUPTED = 0, 1, 2, 4, 130
_TYPES = {doc["name"]: doc["type"] for doc in OPTION_DOCS}


def option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of a rule option, the value typed as the option is.

    >>> option("target=150"), option("big_gin=false"), option("wall=fiftieth_card")
    (('target', 150), ('big_gin', False), ('wall', 'fiftieth_card'))
    """
    key, equals, value = text.partition("=")
    key = key.strip().replace("-", "_")
    if not equals or key not in _TYPES:
        raise argparse.ArgumentTypeError(f"a rule option is KEY=VALUE with KEY one of {', '.join(_TYPES)}")
    kind = _TYPES[key]
    if kind == "integer":
        try:
            return key, int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{key} takes a whole number, not {value!r}") from None
    if kind == "boolean":
        if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise argparse.ArgumentTypeError(f"{key} takes true or false, not {value!r}")
        return key, value.lower() in ("true", "1", "yes")
    return key, value


def iso_date(text: str) -> str:
    """An ISO 8601 time, kept as written (the records' ``started_at`` and ``finished_at``).

    >>> iso_date("2026-11-24T17:00:00.000Z")
    '2026-11-24T17:00:00.000Z'
    """
    try:
        dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"an ISO 8601 time such as {EPOCH}, not {text!r}") from None
    return text


def unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written (checked before the games, not after them), or None.

    >>> unwritable(Path("/no/such/folder/results.csv"))
    'no folder /no/such/folder'
    """
    folder = path.parent
    if path.is_dir():
        return f"{path} is a folder"
    if not folder.is_dir():
        return f"no folder {folder}"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return "permission denied"
    return None


def parser() -> argparse.ArgumentParser:
    doc = __doc__ or ""
    made = argparse.ArgumentParser(
        prog="ginrummy-arena",
        description=doc.split("\n\n")[0],
        epilog=doc.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    made.add_argument(
        "entrants",
        nargs="+",
        metavar="BOT",
        help="a house bot (random, novice, simple, knocker, trapper, expert, master), MODULE:FUNCTION or "
        "path/to/file.py:FUNCTION (a function choose(view) -> action, as gin-bot takes it); "
        "NAME=BOT names it",
    )
    made.add_argument("--games", type=int, default=100, help="games per pairing, rounded up to even (100)")
    made.add_argument("--seed", type=int, default=1, help="the first deal seed (1): same seed, same games")
    made.add_argument("--jobs", type=int, default=1, help="worker processes (1: this one)")
    made.add_argument("--rules", default="standard", help=f"a preset: {', '.join(PRESETS)} (standard)")
    made.add_argument(
        "-o", "--option", dest="options", type=option, action="append", default=[], metavar="KEY=VALUE",
        help="a rule option over the preset, e.g. -o target=50 (repeatable)",
    )  # fmt: skip
    made.add_argument("--csv", type=Path, metavar="FILE", help="write the standings and head-to-head as CSV")
    made.add_argument("--json", type=Path, metavar="FILE", help="write the results as JSON")
    made.add_argument(
        "--records", type=Path, metavar="FILE", help="write every game as an export document, NDJSON"
    )
    made.add_argument(
        "--date",
        type=iso_date,
        default=EPOCH,
        help=f"the records' started_at/finished_at (ISO 8601; {EPOCH}: no clock)",
    )
    made.add_argument(
        "--strict", action="store_true", help="stop at the first forfeit (an illegal answer or an exception)"
    )
    made.add_argument(
        "--no-timing",
        dest="timing",
        action="store_false",
        help="leave out decision times and speed: the same seed then writes the same bytes",
    )
    made.add_argument("--quiet", action="store_true", help="print nothing but problems")
    return made


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    err = sys.stderr
    if args.games < 1 or args.jobs < 1:
        print("ginrummy-arena: --games and --jobs are at least 1", file=err)
        return EXIT_USAGE
    try:
        entrants = parse_entrants(args.entrants)
        if len(entrants) < 2:
            raise EntrantError("an arena needs two entrants at least (the same bot twice will do)")
        rules = Rules.from_options(args.rules, **dict(args.options))
    except (EntrantError, BadRulesError) as error:
        print(f"ginrummy-arena: {error}", file=err)
        return EXIT_USAGE
    outputs: list[tuple[str, Path | None]] = [
        ("csv", args.csv),
        ("json", args.json),
        ("records", args.records),
    ]
    for flag, path in outputs:
        why = path is not None and unwritable(path)
        if why:
            print(f"ginrummy-arena: --{flag} {path}: cannot write it ({why})", file=err)
            return EXIT_USAGE
    table = Table(tuple(entrants), rules, args.seed, records=args.records is not None, date=args.date)
    explained: set[str] = set()  # the entrants whose forfeit was printed with its traceback or legal moves

    def progress(outcome: GameOutcome) -> None:
        forfeit = outcome.forfeit
        if forfeit is not None:
            who = entrants[outcome.task.seats[forfeit.seat]].name
            print(f"ginrummy-arena: game {outcome.task.number}: {who} {forfeit.problem}", file=err)
            if who not in explained:  # the first of an entrant's forfeits in full; the others in a line
                explained.add(who)
                print(forfeit.detail, file=err)

    try:
        results = run(table, args.games, jobs=args.jobs, strict=args.strict, progress=progress)
    except EntrantError as error:
        print(f"ginrummy-arena: {error}", file=err)
        return EXIT_USAGE
    except UnfinishedGame as error:  # e.g. random players under straight gin: no hand is ever won
        print(f"ginrummy-arena: {error}", file=err)
        return EXIT_UNFINISHED
    except KeyboardInterrupt:
        print("ginrummy-arena: interrupted", file=err)
        return EXIT_INTERRUPTED
    if not args.quiet:  # first: a file that cannot be written after all loses nothing of what was played
        print(results.text(args.timing), end="")
    for flag, path in outputs:
        if path is None:
            continue
        try:
            with path.open("w", encoding="utf-8") as out:
                if flag == "records":
                    out.writelines(f"{outcome.record}\n" for outcome in results.outcomes)
                elif flag == "csv":
                    out.write(results.csv_text(args.timing))
                else:
                    out.write(results.json_text(args.timing))
        except OSError as error:
            print(f"ginrummy-arena: --{flag} {path}: cannot write it ({error.strerror or error})", file=err)
            return EXIT_USAGE
    return EXIT_STRICT if args.strict and results.stopped else EXIT_OK
