"""Archive benchmark: a million archived hands, and what reading and writing them costs.

1. **Synthesis.** A few dozen real matches are played in-process (the engine, the house bots, the
   service's own dealing with its shuffle commitments) and each finished hand's and match's outbox
   record is taken exactly as a commit writes it (:func:`ginrummy.app.playing.recording.outbox_records`). From
   them ``--hands`` hands (~5 per match) are made, varying the game ids, the players (a population with
   a Zipf-like activity and three heavy players, ``Heavy-1`` with ``--heavy-games`` games), the times
   (two years) and whether a match is rated, and written through the drainer's own path
   (:func:`~ginrummy.app.archive.writing.archive_records`, then :meth:`~ginrummy.store.archive.Archive.write`
   with the service's ratings, counters, statistics and history): ``--writers`` processes, 50 matches
   with their hands in each write. The synthesis sessions run with ``synchronous_commit=off``;
   everything measured afterwards commits durably.
2. **Size.** ``pg_database_size`` and each table's size (heap, TOAST, indexes), bytes per match and per
   hand.
3. **Pages.** A real service (gunicorn, 2 workers, an embedded Redis) on that database: latency of
   ``GET /v1/players/{name}/games`` — first pages of the heavy player and of ordinary ones, every page
   of the heavy player through its cursors, filtered pages (rated, family, result, opponent, a month),
   one client at a time; then 4 clients at once.
4. **Export.** ``Accept: application/x-ndjson`` of ``Heavy-1``'s games: time, bytes, lines, and the
   serving worker's RSS before, during (sampled every 20 ms) and after.
5. **Writes.** Fresh matches archived as the service archives them: in 1 and then 2 processes, the
   commits of 200 matches played at the same time — each finished hand's outbox, the last one's with the
   match, committed by the store's Lua script into a real Redis (an embedded one), announced and handed
   to the process's drainer thread (:class:`~ginrummy.app.archive.writing.Drainer`) — as fast as Redis takes
   them, until the drainers have archived everything; with transactions of up to 1 game (the drainer
   before it wrote what had queued up together) and up to ``DRAIN_TX`` (the service's). Durable
   commits; matches/s, transactions, and the CPU a match takes (process and PostgreSQL), which a busy
   machine does not inflate as much as the time.
6. **Redis.** Matches played to the end (and resigned) through the service: ``MEMORY USAGE`` of every
   key of each game once it is over, and again after ``GIN_FINISHED_TTL`` (set to a few seconds here).

The database is an embedded PostgreSQL 16 in ``--data-dir`` (durable, as ``ginrummy-serve`` runs it), or
``DATABASE_URL`` when set (synthesised only when its archive is empty). ``--keep`` keeps the synthesised
database for the next run and reuses it (a run without it starts afresh and deletes it at the end).
Exits 0 whatever the figures: it measures, it does not judge.

    .venv/bin/python bench/bench_archive.py                        # 1,000,000 hands (~15 min here)
    .venv/bin/python bench/bench_archive.py --hands 100000         # ~3 min
    .venv/bin/python bench/bench_archive.py --keep --phases pages,export
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import datetime as dt
import http.client
import multiprocessing
import os
import queue
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT)]

import psycopg  # noqa: E402
from bench_load import children_of, cpu_by_pid, own_cpu, postgres_pids, service_env  # noqa: E402
from ginrummy import bots  # noqa: E402
from ginrummy.app import metrics, security  # noqa: E402
from ginrummy.app.archive import writing as archive_writing  # noqa: E402
from ginrummy.app.archive.writing import Archiving, Drainer, archive_records  # noqa: E402
from ginrummy.app.config import Config  # noqa: E402
from ginrummy.app.encoding import compact  # noqa: E402
from ginrummy.app.players import ratings  # noqa: E402
from ginrummy.app.playing import dealing  # noqa: E402
from ginrummy.app.playing.metadata import MatchMeta, Seat  # noqa: E402
from ginrummy.app.playing.recording import outbox_records  # noqa: E402
from ginrummy.app.playing.render import BOT_VIEW_OMITS  # noqa: E402
from ginrummy.app.playing.starting import bot_player  # noqa: E402
from ginrummy.engine import Action, Rules, seat_view  # noqa: E402
from ginrummy.store.archive import Archive, HandRecord, MatchRecord  # noqa: E402
from ginrummy.store.connection import make_client  # noqa: E402
from ginrummy.store.database import Database  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis  # noqa: E402
from ginrummy.store.embedded_postgres import EmbeddedPostgres  # noqa: E402
from ginrummy.store.games import GameStore  # noqa: E402
from ginrummy.store.players import PlayerStore  # noqa: E402
from ginrummy.store.schema import migrate  # noqa: E402

from tests.support import choose, start_gunicorn, stop_gunicorn  # noqa: E402

PHASES = ("synth", "size", "pages", "export", "writes", "redis")
HEAVY = ("Heavy-1", "Heavy-2", "Heavy-3")
SEAT_NAMES = ("Seat0-template", "Seat1-template")  # the templates' players, replaced in every copy
GUEST = "Player 1"  # an anonymous seat's name (the service's default)
HAND_SECONDS = 150.0  # a hand's length in the synthesised times
SPAN_DAYS = 730  # the synthesised matches finished over the last two years
BATCH = 50  # matches (with their hands) per write of the synthesis
PRESETS = ("standard", "oklahoma", "straight", "big-gin-50")
PAGE = 50
# The synthesis is a bulk load: its sessions do not wait for each commit to reach the disk (a crash would
# lose the last ones, never corrupt anything). What is measured afterwards commits durably.
BULK = "-c synchronous_commit=off"


# --- templates: real matches, played in-process ------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """A real finished match's outbox records, decoded: the copies differ in ids, players and times."""

    bot: str | None  # the house bot in seat 1; None: two people
    hands: dict[str, dict[str, Any]]  # outbox field ("h:<n>") -> the hand's record
    match: dict[str, Any]  # the match's outbox entry
    meta: dict[str, Any]  # the first line of its final state (the service's metadata)
    engine: str  # the rest of its final state (the engine's)

    @property
    def winner(self) -> int | None:
        return self.match["winner"]  # type: ignore[no-any-return]


def play_template(seed: int, preset: str, bot: str | None, resign_in_hand: int | None) -> Template:
    """One match played by two house bots through the service's dealing (shuffle commitments and all),
    to its end or until a seat resigns in hand ``resign_in_hand``; every outbox record it made."""
    seats = (
        Seat.human(SEAT_NAMES[0], token_digest=security.digest(f"a{seed}"), player=SEAT_NAMES[0]),
        Seat.house_bot(bot, player=bot_player(bot))
        if bot
        else Seat.human(SEAT_NAMES[1], token_digest=security.digest(f"b{seed}"), player=SEAT_NAMES[1]),
    )
    meta = MatchMeta(seats=seats, bot_salt=f"salt{seed}", test_seed=seed, rating_family=preset, created_ms=0)
    match, _ = dealing.start(security.new_game_id(), meta, Rules.from_options(preset))
    players = [bots.make_bot("expert", seed), bots.make_bot(bot or "simple", seed + 1)]
    rng = random.Random(seed)
    records: dict[str, str] = {}
    while not match.game.match_over:
        game = match.game
        if game.to_act is None:
            dealing.deal(match)
        elif resign_in_hand is not None and game.hand_number >= resign_in_hand:
            game.apply(rng.randrange(2), Action.resign())
        else:
            seat = game.to_act
            game.apply(seat, dict(players[seat].choose(seat_view(game, seat, BOT_VIEW_OMITS))))
        match.version += 1
        records.update(outbox_records(match))  # what the commit of this move would write to the outbox
        match.hand_before, match.over_before = (game.hand_over, game.hand_number), game.match_over
    entry = orjson.loads(records.pop("m"))
    meta_line, _, engine = entry["state"].partition("\n")
    hands = {name: orjson.loads(text)["r"] for name, text in records.items()}
    meta_json = orjson.loads(meta_line)
    meta_json.pop("sd", None)  # the test seed: the service's own games have none
    return Template(bot, hands, entry, meta_json, engine)


def template_specs(count: int, seed: int) -> list[tuple[int, str, str | None, int | None]]:
    """What the templates are: presets in turn, half of them against a house bot, one in four resigned
    in one of its first three hands (people resign; bots do not time out)."""
    rng = random.Random(seed)
    house = [name for name in bots.BOTS if name != "random"]
    specs = []
    for n in range(count):
        bot = house[n % len(house)] if n % 2 else None
        resign = rng.randint(1, 3) if rng.random() < 0.25 else None
        specs.append((seed * 1000 + n, PRESETS[n % len(PRESETS)], bot, resign))
    return specs


def _play(spec: tuple[int, str, str | None, int | None]) -> Template:
    return play_template(*spec)


def make_templates(count: int, seed: int, jobs: int) -> list[Template]:
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return pool.map(_play, template_specs(count, seed))


# --- the population and the plan of matches ---------------------------------------------------------
@dataclass(slots=True)
class Plan:
    """One synthesised match."""

    game_id: str
    template: int
    players: list[str | None]  # per seat; None: an anonymous seat, or a bot outside rated games
    rated: bool
    finished: float


@dataclass(frozen=True)
class Population:
    names: list[str]  # ordinary players
    weights: list[float]  # cumulative: a Zipf-like activity (a few play a lot, most a little)

    @staticmethod
    def of(count: int) -> Population:
        names = [f"player{n:06d}" for n in range(count)]
        cumulative, total = [], 0.0
        for rank in range(count):
            total += 1.0 / (rank + 20)
            cumulative.append(total)
        return Population(names, cumulative)

    def pick(self, rng: random.Random, other: str | None = None) -> str:
        while True:
            name = rng.choices(self.names, cum_weights=self.weights)[0]
            if name != other:
                return name


def plan_matches(
    templates: Sequence[Template],
    population: Population,
    rng: random.Random,
    *,
    hands: int | None = None,
    matches: int | None = None,
    finished_from: float,
    finished_until: float,
) -> list[Plan]:
    """Matches until there are ``hands`` hands (or ``matches`` matches): 45 % between two players (70 % of
    them rated), 35 % a player against a house bot (20 % rated: the bot's player then has the seat),
    20 % an anonymous guest against a bot (in the archive, in no player's list). Finished in order
    between the two times."""
    people = [n for n, t in enumerate(templates) if t.bot is None]
    house = [n for n, t in enumerate(templates) if t.bot is not None]
    plans: list[Plan] = []
    total = 0
    while (hands is not None and total < hands) or (matches is not None and len(plans) < matches):
        kind = rng.random()
        number = rng.choice(people if kind < 0.45 else house)
        template = templates[number]
        decided = template.winner is not None and template.match["family"] is not None
        if kind < 0.45:
            first = population.pick(rng)
            players: list[str | None] = [first, population.pick(rng, first)]
            rated = decided and rng.random() < 0.7
        elif kind < 0.80:
            rated = decided and rng.random() < 0.2
            assert template.bot is not None
            players = [population.pick(rng), bot_player(template.bot) if rated else None]
        else:
            players, rated = [None, None], False
        game_id = "g" + base64.urlsafe_b64encode(rng.randbytes(15)).decode()
        plans.append(Plan(game_id, number, players, rated, 0.0))
        total += len(template.hands)
    step = (finished_until - finished_from) / max(1, len(plans))
    for n, plan in enumerate(plans):
        plan.finished = finished_from + (n + rng.random()) * step
    return plans


def give_heavy(plans: Sequence[Plan], counts: Sequence[int], rng: random.Random) -> None:
    """Seat the heavy players: ``HEAVY[k]`` in ``counts[k]`` matches that have a player (Heavy-1's
    opponent is Heavy-2 in one in seven of its games between two people)."""
    eligible = [n for n, plan in enumerate(plans) if plan.players[0] is not None]
    rng.shuffle(eligible)
    start = 0
    for name, count in zip(HEAVY, counts, strict=True):
        for n in eligible[start : start + count]:
            plan = plans[n]
            two_people = plan.players[1] is not None and not plan.players[1].startswith("bot-")
            seat = rng.randrange(2) if two_people else 0
            plan.players[seat] = name
            if name == HEAVY[0] and two_people and rng.random() < 1 / 7:
                plan.players[1 - seat] = HEAVY[1]
        start += count


# --- a planned match's records, as the drainer reads them from the outbox ----------------------------
def _iso(seconds: float) -> str:
    at = dt.datetime.fromtimestamp(seconds, dt.UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def outbox_of(plan: Plan, template: Template) -> dict[str, str]:
    """The outbox fields a real commit would have written for this match: its template's records with
    the plan's id, players and times."""
    started = plan.finished - HAND_SECONDS * max(1, len(template.hands))
    records = {}
    for number, (name, hand) in enumerate(sorted(template.hands.items(), key=lambda i: int(i[0][2:])), 1):
        record = {**hand, "game_id": plan.game_id}
        records[name] = compact({"at": started + number * HAND_SECONDS, "r": record})
    entry = dict(template.match)
    names = [plan.players[seat] or (template.bot if seat == 1 and template.bot else GUEST) for seat in (0, 1)]
    entry["seats"] = [
        {**seat, "n": names[n], "p": plan.players[n]} for n, seat in enumerate(template.match["seats"])
    ]
    meta = dict(template.meta)
    meta["p"] = [
        {k: v for k, v in {**seat, "n": names[n], "pl": plan.players[n]}.items() if v is not None}
        for n, seat in enumerate(template.meta["p"])
    ]
    meta["c"] = int(started * 1000)
    if not plan.rated:
        meta.pop("r", None)
    doc = dict(template.match["doc"])
    doc["players"] = [
        {**person, "name": names[n], "player": plan.players[n]}
        for n, person in enumerate(template.match["doc"]["players"])
    ]
    doc.update(
        game_id=plan.game_id, rated=plan.rated, started_at=_iso(started), finished_at=_iso(plan.finished)
    )
    entry.update(
        id=plan.game_id,
        rated=plan.rated,
        started=started,
        finished=plan.finished,
        state=compact(meta) + "\n" + template.engine,
        doc=doc,
    )
    records["m"] = compact(entry)
    return records


def records_of(plan: Plan, template: Template) -> tuple[list[HandRecord], list[MatchRecord]]:
    """What the drainer hands :meth:`Archive.write` for this match's outbox."""
    return archive_records(plan.game_id, outbox_of(plan, template))


Commit = tuple[str, int, dict[str, str]]  # a game, the version its commit makes, its outbox fields

# --- writers (processes) -----------------------------------------------------------------------------
# Set in the parent before the writers fork; read by them.
_WORK: dict[str, Any] = {}


def _archive(url: str) -> tuple[Database, Archive]:
    database = Database(url, min_size=1, max_size=1)
    database.pool.wait(30)
    return database, Archive(database, ordinal=ratings.ordinal)


def _synthesise(worker: int) -> tuple[int, int]:
    """A synthesis writer: batches ``worker``, ``worker + writers``, …, each in one write (its matches'
    hands and the matches); returns (matches, hands)."""
    os.environ["PGOPTIONS"] = BULK  # this writer's sessions only
    plans: list[Plan] = _WORK["plans"]
    templates: list[Template] = _WORK["templates"]
    done: Any = _WORK["done"]
    database, archive = _archive(_WORK["url"])
    matches = hands = 0
    try:
        for start in range(worker * BATCH, len(plans), _WORK["writers"] * BATCH):
            batch = [records_of(plan, templates[plan.template]) for plan in plans[start : start + BATCH]]
            archive.write(
                [hand for found, _ in batch for hand in found],
                [match for _, found in batch for match in found],
                ratings.rate,
            )
            matches += len(batch)
            hands += sum(len(found) for found, _ in batch)
            with done.get_lock():
                done.value += len(batch)
    finally:
        database.close()
    return matches, hands


def commits_in_turn(outboxes: Sequence[tuple[str, dict[str, str]]], at_once: int) -> list[Commit]:
    """The commits that write to the outboxes when ``at_once`` matches are played at the same time: each
    finished hand's (its record), the last one's with the match's, game after game in turn."""
    games = []
    for game_id, records in outboxes:
        hands = sorted((name for name in records if name != "m"), key=lambda name: int(name[2:]))
        parts = [{name: records[name]} for name in hands] or [{}]  # (resigned in its first hand: no hand)
        parts[-1]["m"] = records["m"]
        games.append([(game_id, version, part) for version, part in enumerate(parts, 1)])
    out: list[Commit] = []
    playing: list[Iterator[Commit]] = []
    waiting = iter(games)
    while True:
        while len(playing) < at_once:
            following = next(waiting, None)
            if following is None:
                break
            playing.append(iter(following))
        if not playing:
            return out
        for game in list(playing):
            entry = next(game, None)
            if entry is None:
                playing.remove(game)
            else:
                out.append(entry)


def _drain_for_real(worker: int) -> tuple[int, float, float]:
    """A service process of the write-rate phase, less its HTTP: the commits of 200 matches played at
    the same time, as fast as Redis takes them — each announced, committed with its outbox by the store's
    Lua script and handed to the process's drainer (:class:`~ginrummy.app.archive.writing.Drainer`, its
    thread, ``DRAIN_TX`` games a transaction at most) — until the drainer has archived them all.
    Returns the transactions it made, its seconds and CPU seconds."""
    barrier: Any = _WORK["barrier"]
    try:
        return _drain_as_the_service(barrier, _WORK["plans"][worker :: _WORK["writers"]])
    except BaseException:
        barrier.abort()  # the parent is not left waiting: it gets this error from the pool
        raise


def _drain_as_the_service(barrier: Any, plans: list[Plan]) -> tuple[int, float, float]:
    archive_writing.DRAIN_TX = _WORK["drain_tx"]
    templates: list[Template] = _WORK["templates"]
    commits = commits_in_turn([(p.game_id, outbox_of(p, templates[p.template])) for p in plans], 200)
    store = GameStore(make_client(_WORK["redis_url"]), live_ttl=3600, events_maxlen=5)
    database = Database(_WORK["url"], min_size=1, max_size=2)
    try:
        database.pool.wait(30)
        archiving = Archiving(store, Archive(database, ordinal=ratings.ordinal), Config(finished_ttl=60))
        archiving.handoff = queue.Queue()  # (unbounded: a full one would leave games to the passes)
        drainer = Drainer(archiving)

        def play() -> None:
            for game_id, version, records in commits:
                announced = store.announce(game_id)
                if version == 1:
                    store.create(game_id, "played", ["e"], outbox=records)
                else:
                    store.commit(game_id, version - 1, "played", ["e"], outbox=records)
                archiving.committed(game_id, announced)

        if _WORK["backlog"]:
            play()  # before the clock: the drainers catch up with what waits
        barrier.wait()
        cpu = own_cpu()
        began = time.perf_counter()
        written = transactions()
        drainer.start()
        if not _WORK["backlog"]:
            play()
        while archiving.handoff.qsize() or store.pending_summary()[0]:  # (settled: archived)
            time.sleep(0.01)
        seconds, cpu = time.perf_counter() - began, own_cpu() - cpu
        drainer.stop()
        barrier.wait()  # all done: PostgreSQL's CPU is read while its backends are still there
        barrier.wait()
    finally:
        database.close()
    return int(transactions() - written), seconds, cpu


def transactions() -> float:
    """The archive transactions this process made so far (its ``gin_archive_write_seconds`` count)."""
    return sum(
        sample.value
        for metric in metrics.ARCHIVE_WRITE.collect()
        for sample in metric.samples
        if sample.name.endswith("_count")
    )


# --- the database ------------------------------------------------------------------------------------
def counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {
            table: int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # type: ignore[index]
            for table in ("games", "hands", "game_players", "rating_history", "players")
        }


def create_players(url: str, population: Population) -> None:
    """Every player of the population, signed up as the service signs them up (a token's digest)."""
    os.environ["PGOPTIONS"] = BULK  # this process's sessions only, until the players are made
    database = Database(url, min_size=1, max_size=1)
    players = PlayerStore(database)
    try:
        for name in (*HEAVY, *population.names):
            players.create(name, security.digest(f"token of {name}"))
    finally:
        database.close()
        del os.environ["PGOPTIONS"]


def synthesise(url: str, args: argparse.Namespace, templates: list[Template]) -> dict[str, Any]:
    rng = random.Random(args.seed)
    until = time.time() - 86_400
    population = Population.of(max(100, args.hands // 5 // 25))  # a player per 25 matches
    plans = plan_matches(
        templates,
        population,
        rng,
        hands=args.hands,
        finished_from=until - SPAN_DAYS * 86_400,
        finished_until=until,
    )
    heavy = min(args.heavy_games, len(plans) // 2)
    give_heavy(plans, [heavy, len(plans) // 50, len(plans) // 100], rng)
    started = time.perf_counter()
    create_players(url, population)
    done = multiprocessing.get_context("fork").Value("q", 0)
    _WORK.update(plans=plans, templates=templates, url=url, writers=args.writers, done=done)
    print(f"synthesising {len(plans):,} matches with {args.writers} writers ...", flush=True)
    with multiprocessing.get_context("fork").Pool(args.writers) as pool:
        result = pool.map_async(_synthesise, range(args.writers))
        while not result.ready():
            result.wait(15)
            elapsed = time.perf_counter() - started
            rate = done.value / elapsed if elapsed else 0.0
            left = (len(plans) - done.value) / rate if rate else 0.0
            print(
                f"  {done.value:>9,} matches  {rate:6.0f}/s  {elapsed:6.0f} s  ~{left:5.0f} s left",
                flush=True,
            )
        totals = result.get()
    took = time.perf_counter() - started
    matches, hands = (sum(column) for column in zip(*totals, strict=True))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    return {"seconds": took, "matches": matches, "hands": hands, "with_vacuum": time.perf_counter() - started}


TABLES = ("games", "hands", "game_players", "rating_history", "players", "player_stats", "ratings")


def sizes(url: str) -> dict[str, Any]:
    with psycopg.connect(url) as conn:

        def one(query: str, *params: Any) -> Any:
            return conn.execute(query, params).fetchone()[0]  # type: ignore[index]

        out: dict[str, Any] = {"database": one("SELECT pg_database_size(current_database())")}
        for table in TABLES:
            out[table] = {
                "total": one("SELECT pg_total_relation_size(%s::regclass)", table),
                "heap": one("SELECT pg_relation_size(%s::regclass)", table),
                "toast": one(
                    "SELECT coalesce(pg_total_relation_size(reltoastrelid), 0) FROM pg_class"
                    " WHERE oid = %s::regclass",
                    table,
                ),
                "indexes": one("SELECT pg_indexes_size(%s::regclass)", table),
                "rows": one(f"SELECT count(*) FROM {table}"),
            }
    return out


def print_sizes(found: dict[str, Any]) -> None:
    mib = 1024 * 1024
    print(f"database: {found['database'] / mib:,.0f} MiB (pg_database_size)")
    for table in TABLES:
        t = found[table]
        print(
            f"  {table:<15} {t['total'] / mib:8,.0f} MiB  (heap {t['heap'] / mib:,.0f}, TOAST"
            f" {t['toast'] / mib:,.0f}, indexes {t['indexes'] / mib:,.0f})  {t['rows']:>10,} rows"
        )
    games, hands = found["games"]["rows"], found["hands"]["rows"]
    per_match = sum(found[t]["total"] for t in ("games", "game_players", "rating_history")) / max(1, games)
    per_hand = found["hands"]["total"] / max(1, hands)
    print(
        f"  per match (games + game_players + rating_history): {per_match:,.0f} B;"
        f" per hand: {per_hand:,.0f} B; {hands / max(1, games):.2f} hands per match"
    )
    print(
        f"  per archived match with its hands: {found['database'] / max(1, games):,.0f} B of the database"
        f" -> {found['database'] / max(1, games) * 1000 / mib:,.1f} MiB per 1,000 matches"
    )


# --- HTTP ----------------------------------------------------------------------------------------------
class Client:
    """One keep-alive connection to the service."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        started = time.perf_counter()
        try:
            self.connection.request("GET", path, headers=headers or {})
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.connection.close()  # the server closed an idle keep-alive connection: a new one
            started = time.perf_counter()
            self.connection.request("GET", path, headers=headers or {})
            response = self.connection.getresponse()
        body = response.read()
        return response.status, body, time.perf_counter() - started

    def send(self, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        self.connection.request(
            method, path, body=orjson.dumps(body), headers={"Content-Type": "application/json", **headers}
        )
        response = self.connection.getresponse()
        data = response.read()
        return response.status, orjson.loads(data) if data else None


def games_path(name: str, **query: Any) -> str:
    query = {k: v for k, v in query.items() if v is not None}
    return f"/v1/players/{urllib.parse.quote(name)}/games?" + urllib.parse.urlencode({"limit": PAGE, **query})


def percentiles(seconds: Sequence[float]) -> str:
    if not seconds:
        return "no data"
    ms = sorted(s * 1000 for s in seconds)

    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(len(ms) * q))]

    return (
        f"p50 {statistics.median(ms):6.2f}  p95 {at(0.95):6.2f}  p99 {at(0.99):6.2f}  max {ms[-1]:6.2f} ms"
        f"  (n={len(ms)})"
    )


def walk(client: Client, name: str, pages: int | None, **query: Any) -> list[float]:
    """Read a player's list page after page through its cursors (``pages`` at most); each request's
    seconds."""
    took, cursor = [], None
    while pages is None or len(took) < pages:
        status, body, seconds = client.get(games_path(name, cursor=cursor, **query))
        if status != 200:
            raise RuntimeError(f"{name} {query}: {status} {body[:200]!r}")
        took.append(seconds)
        cursor = orjson.loads(body)["next"]
        if cursor is None:
            break
    return took


def measure_pages(port: int, url: str, rng: random.Random) -> dict[str, list[float]]:
    """Latency of player pages, one client at a time, by kind."""
    with psycopg.connect(url) as conn:
        ordinary = [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM players WHERE name LIKE 'player%' AND played > 0 ORDER BY name"
            ).fetchall()
        ]
        first, last = conn.execute(
            "SELECT min(finished_at), max(finished_at) FROM game_players gp JOIN players p"
            " ON p.id = gp.player_id WHERE p.name = %s",
            [HEAVY[0]],
        ).fetchone()  # type: ignore[misc]
    middle = first + (last - first) / 2
    month = {"since": middle.isoformat(), "until": (middle + dt.timedelta(days=30)).isoformat()}
    client = Client(port)
    for name in rng.sample(ordinary, min(50, len(ordinary))):  # warm up both workers and the pools
        client.get(games_path(name))
    out: dict[str, list[float]] = {}
    out["first page, Heavy-1"] = [client.get(games_path(HEAVY[0]))[2] for _ in range(200)]
    out["first page, ordinary players"] = [
        client.get(games_path(name))[2] for name in rng.choices(ordinary, k=300)
    ]
    out["every page of Heavy-1 by cursor"] = walk(client, HEAVY[0], None)
    filters: dict[str, dict[str, Any]] = {
        "rated": {"rated": "true"},
        "family=oklahoma": {"family": "oklahoma"},
        "result=won": {"result": "won"},
        "opponent=Heavy-2": {"opponent": HEAVY[1]},
        "a month (since/until)": month,
        "rated+family+result": {"rated": "true", "family": "standard", "result": "lost"},
    }
    for label, query in filters.items():
        took: list[float] = []
        for _ in range(10):  # the first 10 pages of the filtered list, ten times
            took += walk(client, HEAVY[0], 10, **query)
        out[f"Heavy-1, {label}"] = took
    out["ordinary players, rated, 2 pages"] = [
        s for name in rng.choices(ordinary, k=100) for s in walk(client, name, 2, rated="true")
    ]
    return out


def concurrent_pages(port: int, url: str, clients: int, seconds: float) -> tuple[list[float], float]:
    """``clients`` threads reading first and deeper pages of random players (Heavy-1 one time in five)
    for ``seconds``: every request's seconds, and the pages per second."""
    with psycopg.connect(url) as conn:
        names = [str(r[0]) for r in conn.execute("SELECT name FROM players WHERE played > 0").fetchall()]
    took: list[float] = []
    stop = time.monotonic() + seconds

    def run(seed: int) -> None:
        rng, client = random.Random(seed), Client(port)
        while time.monotonic() < stop:
            name = HEAVY[0] if rng.random() < 0.2 else rng.choice(names)
            took.extend(walk(client, name, rng.randint(1, 4)))

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return took, len(took) / (time.perf_counter() - started)


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure_export(port: int, master: int, postgres_pid: int | None) -> dict[str, Any]:
    """Stream Heavy-1's NDJSON export; its time, size, the serving worker's RSS, and the CPU it took."""
    workers = children_of(master)
    postgres_before = cpu_by_pid(postgres_pids(postgres_pid))
    samples: dict[int, list[int]] = {pid: [] for pid in workers}
    before = {pid: rss_kib(pid) for pid in workers}
    cpu_before = cpu_by_pid(workers)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid in workers:
                samples[pid].append(rss_kib(pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request("GET", f"/v1/players/{HEAVY[0]}/games", headers={"Accept": "application/x-ndjson"})
    response = connection.getresponse()
    first_byte = None
    size = lines = 0
    while chunk := response.read1(1 << 16):
        if first_byte is None:
            first_byte = time.perf_counter() - started
        size += len(chunk)
        lines += chunk.count(b"\n")
    took = time.perf_counter() - started
    time.sleep(1.0)
    done.set()
    sampler.join()
    after = {pid: rss_kib(pid) for pid in workers}
    used = cpu_by_pid(workers)
    postgres_used = cpu_by_pid(postgres_pids(postgres_pid))
    serving = max(workers, key=lambda pid: used.get(pid, 0.0) - cpu_before.get(pid, 0.0))
    connection.close()
    return {
        "status": response.status,
        "seconds": took,
        "first_byte": first_byte or took,
        "bytes": size,
        "lines": lines,
        "rss_before": before[serving],
        "rss_peak": max(samples[serving] or [0]),
        "rss_after": after[serving],
        "rss_samples": samples[serving],
        "worker_cpu": used.get(serving, 0.0) - cpu_before.get(serving, 0.0),
        "postgres_cpu": sum(cpu - postgres_before.get(pid, 0.0) for pid, cpu in postgres_used.items()),
    }


def measure_writes(
    url: str,
    redis_url: str,
    postgres_pid: int | None,
    templates: list[Template],
    matches: int,
    writers: int,
    drain_tx: int,
    seed: int,
    backlog: bool,
) -> dict[str, Any]:
    """Fresh matches archived by the drainers of ``writers`` processes, ``drain_tx`` games a transaction
    at most, while they are committed (or ``backlog``: after); durable commits. With the CPU the processes
    and PostgreSQL (when it is ours) used."""
    with psycopg.connect(url) as conn:
        known = [str(r[0]) for r in conn.execute("SELECT name FROM players WHERE name LIKE 'player%'")]
    rng = random.Random(seed)
    population = Population(known, Population.of(len(known)).weights) if known else Population.of(1000)
    now = time.time()
    plans = plan_matches(
        templates, population, rng, matches=matches, finished_from=now - 3600, finished_until=now
    )
    for plan in plans:  # new ids on every run: a kept database has the last run's (a rewrite is a no-op)
        plan.game_id = security.new_game_id()
    # Heavy-2 and Heavy-3, whose rows two writers then lock in turn; Heavy-1 keeps its 10,000 games.
    give_heavy(plans, [0, matches // 20, matches // 50], rng)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(writers + 1)
    _WORK.update(
        plans=plans,
        templates=templates,
        url=url,
        redis_url=redis_url,
        writers=writers,
        barrier=barrier,
        drain_tx=drain_tx,
        backlog=backlog,
    )
    with context.Pool(writers) as pool:
        result = pool.map_async(_drain_for_real, range(writers))
        try:
            barrier.wait()  # the writers have prepared their commits and opened their connections
            server_cpu = cpu_by_pid(postgres_pids(postgres_pid))
            started = time.perf_counter()
            barrier.wait()  # the writers are done
            seconds = time.perf_counter() - started
            server_used = cpu_by_pid(postgres_pids(postgres_pid))
            barrier.wait()
        except threading.BrokenBarrierError:
            result.get()  # raises the writer's error
            raise
        parts = result.get()
    postgres_cpu = sum(cpu - server_cpu.get(pid, 0.0) for pid, cpu in server_used.items())
    return {
        "matches": len(plans),
        "hands": sum(len(templates[p.template].hands) for p in plans),
        "rated": sum(p.rated for p in plans),
        "seconds": seconds,
        "per_second": len(plans) / seconds,
        "transactions": sum(made for made, _, _ in parts),
        "writer_cpu": sum(cpu for _, _, cpu in parts) / len(plans),
        "postgres_cpu": postgres_cpu / len(plans) if postgres_pid else None,
    }


def play_to_the_end(client: Client, resign: bool) -> str:
    """A match against the simple bot through the service, played out (or resigned after a move)."""
    status, created = client.send(
        "POST",
        "/v1/games",
        {"opponent": {"type": "bot", "bot": "simple"}, "rules": {"preset": "straight"}},
        {},
    )
    assert status == 201, created
    game_id, token, view = created["game_id"], created["token"], created["view"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(5000):
        if view["phase"] == "match_over":
            return str(game_id)
        if not view["your_move"] and view["phase"] != "hand_over":  # (the bot replies in the same request)
            _, body, _ = client.get(f"/v1/games/{game_id}", auth)
            view = orjson.loads(body)
            continue
        action = {"type": "resign"} if resign and view["version"] > 2 else choose(view)
        status, answer = client.send(
            "POST", f"/v1/games/{game_id}/actions", action, {**auth, "If-Match": f'"{view["version"]}"'}
        )
        assert status == 200, answer
        view = answer["view"]
    raise RuntimeError("the match did not end")


def redis_bytes(redis: Any, game_id: str) -> tuple[int, int]:
    keys = list(redis.scan_iter(match=f"gin:{{{game_id}}}:*", count=1000))
    return len(keys), sum(redis.memory_usage(k, samples=0) or 0 for k in keys)


def measure_redis(port: int, redis: Any, grace: int, played: int, resigned: int) -> dict[str, Any]:
    client = Client(port)
    games, over = [], []
    for resign in [False] * played + [True] * resigned:
        games.append(play_to_the_end(client, resign))
        over.append(redis_bytes(redis, games[-1]))  # at once: its keys expire GIN_FINISHED_TTL later
    time.sleep(grace + 3)
    after = [redis_bytes(redis, game_id) for game_id in games]
    pending = [g for g in games if redis.zscore("gin:archive:pending", g) is not None]
    archived = sum(client.get(f"/v1/games/{game_id}/export")[0] == 200 for game_id in games)
    return {"games": len(games), "over": over, "after": after, "pending": pending, "archived": archived}


# --- the run ---------------------------------------------------------------------------------------------
@contextlib.contextmanager
def database(args: argparse.Namespace) -> Iterator[tuple[str, bool, int | None]]:
    """The benchmark's database: ``(url, fresh, pid)``; fresh: it must be synthesised; pid: the
    embedded server's (None: DATABASE_URL's)."""
    external = os.environ.get("DATABASE_URL")
    if external:
        migrate(external)
        found = counts(external)
        if found["games"] and not args.keep:
            raise SystemExit(
                "DATABASE_URL's archive is not empty: use --keep to measure it as it is, or an empty database"
            )
        yield external, not found["games"], None
        return
    data_dir = Path(args.data_dir)
    if data_dir.exists() and not args.keep:
        shutil.rmtree(data_dir)
    server = EmbeddedPostgres(data_dir)
    try:
        with server:
            migrate(server.url)
            found = counts(server.url)
            enough = found["hands"] >= args.hands * 0.99 and found["games"] > 0
            if found["games"] and not enough:
                raise SystemExit(
                    f"{data_dir} holds {found['hands']:,} hands, not {args.hands:,}: drop --keep"
                )
            assert server.process is not None
            yield server.url, not enough, server.process.pid
    finally:
        if not args.keep:
            shutil.rmtree(data_dir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="archived hands (default 1,000,000)")
    parser.add_argument("--heavy-games", type=int, default=10_000, help="games of Heavy-1 (default 10,000)")
    parser.add_argument("--writers", type=int, default=2, help="synthesis processes (default 2)")
    parser.add_argument("--templates", type=int, default=48, help="real matches played to copy (default 48)")
    parser.add_argument("--write-matches", type=int, default=2000, help="matches of the write-rate phase")
    parser.add_argument(
        "--drain-tx",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, archive_writing.DRAIN_TX],
        help="games a drainer's transaction takes at most in the write-rate phase (default 1 and the"
        f" service's {archive_writing.DRAIN_TX}; 1: the drainer before it wrote what queued up together)",
    )
    parser.add_argument("--grace", type=int, default=5, help="GIN_FINISHED_TTL of the Redis phase (seconds)")
    parser.add_argument("--data-dir", default="/tmp/gin-bench-archive/postgres")
    parser.add_argument("--keep", action="store_true", help="reuse the synthesised database, and keep it")
    parser.add_argument("--phases", default=",".join(PHASES), help=f"some of {','.join(PHASES)}")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args(argv)
    phases = set(args.phases.split(","))
    begun = time.perf_counter()
    print(f"templates: {args.templates} real matches played in-process ...", flush=True)
    templates = make_templates(args.templates, args.seed, os.cpu_count() or 2)
    per_match = sum(len(t.hands) for t in templates) / len(templates)
    print(f"  {sum(len(t.hands) for t in templates)} hands, {per_match:.1f} per match", flush=True)
    with database(args) as (url, fresh, postgres_pid):
        if fresh:
            made = synthesise(url, args, templates)
            print(
                f"synthesis: {made['matches']:,} matches, {made['hands']:,} hands in {made['seconds']:,.0f} s"
                f" ({made['matches'] / made['seconds']:,.0f} matches/s,"
                f" {made['hands'] / made['seconds']:,.0f} hands/s; {made['with_vacuum']:,.0f} s with VACUUM"
                " ANALYZE)",
                flush=True,
            )
        if "size" in phases:
            print_sizes(sizes(url))
        report_service(url, postgres_pid, args, phases)
        if "writes" in phases:
            report_writes(url, postgres_pid, templates, args)
    print(f"whole run: {time.perf_counter() - begun:,.0f} s")
    return 0


def machine_load() -> str:
    """The machine's load average now: the figures of a busy machine are slower than its own."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def report_writes(
    url: str, postgres_pid: int | None, templates: list[Template], args: argparse.Namespace
) -> None:
    print(
        "archive writes: fresh matches with their hands, committed to Redis with their outboxes and archived"
        f" by the processes' drainers, durable commits ({machine_load()}):"
    )
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-archive-writes-"))
    with EmbeddedRedis(workdir / "redis") as server:
        for backlog, drain_tx in [(False, n) for n in args.drain_tx] + [(True, max(args.drain_tx))]:
            if backlog:
                print("  a backlog (every commit made before the drainers start; what they catch up with):")
            for writers in (1, 2):
                found = measure_writes(
                    url,
                    server.url,
                    postgres_pid,
                    templates,
                    args.write_matches,
                    writers,
                    drain_tx,
                    args.seed + writers + drain_tx + backlog,
                    backlog,
                )
                cpu = found["writer_cpu"] + (found["postgres_cpu"] or 0.0)
                postgres = (
                    ""
                    if found["postgres_cpu"] is None
                    else f" + PostgreSQL {found['postgres_cpu'] * 1000:.2f}"
                )
                each = found["matches"] / max(1, found["transactions"])
                print(
                    f"  {writers} process(es), up to {drain_tx:>2} games a transaction:"
                    f" {found['per_second']:6,.0f} matches/s ({found['matches']:,} matches,"
                    f" {found['rated']:,} rated, {found['hands']:,} hands in {found['seconds']:.1f} s;"
                    f" {found['transactions']:,} transactions, {each:.1f} matches each);"
                    f" CPU a match: process {found['writer_cpu'] * 1000:.2f}{postgres} ms"
                    f" (CPU-bound at {(os.cpu_count() or 1) / cpu:,.0f}/s on an idle machine's cores)",
                    flush=True,
                )
    shutil.rmtree(workdir, ignore_errors=True)


def report_service(url: str, postgres_pid: int | None, args: argparse.Namespace, phases: set[str]) -> None:
    """The phases that need the service: pages, export, Redis."""
    if not phases & {"pages", "export", "redis"}:
        return
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-archive-service-"))
    with EmbeddedRedis(workdir / "redis") as server:
        env = service_env(server.url, url, workers=2)
        env["GIN_FINISHED_TTL"] = str(args.grace)
        master, port = start_gunicorn(env, workdir, name="service", cwd=workdir)
        try:
            if "pages" in phases:
                found = measure_pages(port, url, random.Random(args.seed))
                print("player pages (GET /v1/players/{name}/games, 50 a page, one client):")
                for label, took in found.items():
                    print(f"  {label:<36} {percentiles(took)}")
                print(f"  {'all of them':<36} {percentiles([s for t in found.values() for s in t])}")
                took, rate = concurrent_pages(port, url, 4, 10.0)
                print(f"  {'4 clients at once, 10 s':<36} {percentiles(took)}  {rate:,.0f} pages/s")
            if "export" in phases:
                for attempt in (1, 2):
                    found = measure_export(port, master.pid, postgres_pid)
                    print(
                        f"NDJSON export of {HEAVY[0]} (run {attempt}): {found['lines']:,} games,"
                        f" {found['bytes'] / 1e6:,.1f} MB in {found['seconds']:.2f} s (first byte"
                        f" {found['first_byte'] * 1000:.0f} ms; status {found['status']}); serving worker RSS"
                        f" {found['rss_before'] / 1024:.1f} MiB before, {found['rss_peak'] / 1024:.1f} MiB at"
                        f" most during ({len(found['rss_samples'])} samples), {found['rss_after'] / 1024:.1f}"
                        f" MiB after; CPU: the worker {found['worker_cpu']:.2f} s, PostgreSQL"
                        f" {found['postgres_cpu']:.2f} s ({machine_load()})",
                        flush=True,
                    )
            if "redis" in phases:
                found = measure_redis(port, server.client(), args.grace, 8, 4)
                over = [b for _, b in found["over"]]
                after = [b for _, b in found["after"]]
                print(
                    f"Redis per finished match ({found['games']} matches through the service, 8 played out,"
                    f" 4 resigned): {statistics.mean(over):,.0f} B when over (MEMORY USAGE of its keys,"
                    f" {min(over):,}-{max(over):,}); after GIN_FINISHED_TTL={args.grace} s:"
                    f" {sum(after):,} B in {sum(k for k, _ in found['after'])} keys; still pending:"
                    f" {len(found['pending'])}; exports from the archive:"
                    f" {found['archived']}/{found['games']}",
                    flush=True,
                )
        finally:
            stop_gunicorn(master)
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
