"""Tournaments on the real service, a director SIGKILLed in each: nothing lost, nothing doubled (issue 32).

It starts an embedded Redis and PostgreSQL (migrated; ``DATABASE_URL`` when set, as bench_load.py does),
gunicorn, a bot worker and TWO directors (``python -m ginrummy.director --every 0.5``). Each run signs up
bot accounts (``POST /v1/account``, ``/v1/account/bot``, an API token with the scope ``bot``), runs one real
``gin-bot run tests.support:choose --account`` process per bot, and an organiser creates the tournament
(casual, ``bots: true``, a blitz clock, matches to ``--target``: 50, or 1 with ``--short``); the bots join
with their tokens, the organiser starts it. Runs:

- ``arena``: 3 minutes, 16 bot accounts and 2 people (berserk is for people: a loop of this script plays
  each person's games through the HTTP API with its session token, berserking before its first move);
- ``swiss``: 5 rounds, 7 bots at the start (a bye), an 8th joining after round 1; the organiser starts
  each round (``POST …/start``);
- ``round_robin``: 6 bots, duplicate deals.

Mid-run the director that holds the tournament's lease (``tournaments.director`` is ``host:pid:…``) is
SIGKILLed, and the time until another one holds it is measured (a new director is then started, so that
two run again). At the end it checks: every pairing's game archived once (``GET …/games``: one export per
pairing with a game, unique ids, each export's ``tournament.id`` this one; one row each in ``games``),
no pairing made twice, and the standings (``GET …/results``) equal to a recomputation from the exported
games with the pure functions of ``ginrummy.app.tournaments`` (``result.winner``, ``result.end_reason``,
``tournament.berserk``, in the order of ``finished_at``; byes, which are no games, from the pairings; an
arena's matches still in play at its end, ``unscored`` in the pairings, left out). It prints the figures
either way and exits 1 if a check failed.

``--standings-load``: a running arena's ``GET /v1/tournaments/{id}`` (its standings) timed from one client,
without other load and then under bench_load.py's load (its ``game`` clients, in a process of their own).

    .venv/bin/python bench/bench_tournaments.py            # the three full runs, one after another
    .venv/bin/python bench/bench_tournaments.py --short    # the suite's: arena 30 s of 6, Swiss 3x5, RR 4
    .venv/bin/python bench/bench_tournaments.py --only swiss --players 8 --rounds 5
    .venv/bin/python bench/bench_tournaments.py --only standings --load-seconds 10
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import datetime as dt
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import psycopg
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT)]

from bench_load import bench_postgres, figures, service_env, start_bot_worker  # noqa: E402
from ginrummy.app.tournaments import scoring, swiss_pairing  # noqa: E402
from ginrummy.app.tournaments.scoring import Played, Result  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis, die_with_parent  # noqa: E402

from tests.fixtures.live_service import start_director, stop_bot_worker  # noqa: E402
from tests.support import choose, start_gunicorn, stop_gunicorn  # noqa: E402

PASSWORD = "a long enough password"
CLOCK = {"preset": "blitz"}  # berserk needs a clock; a player who never moves loses on time
GIN_BOT = str(Path(sys.executable).with_name("gin-bot"))


@dataclass(frozen=True)
class Sizes:
    """What a run of each format is: the issue's full runs, or the suite's short versions."""

    arena_bots: int
    arena_people: int
    arena_minutes: float
    swiss_players: int  # one of them joins after round 1
    swiss_rounds: int
    round_robin_bots: int
    target: int  # the matches' target score (standard: 100)
    timeout: float  # seconds a Swiss or a round robin may take before the run is called stuck


FULL = Sizes(16, 2, 3.0, 8, 5, 6, 50, 900.0)
SHORT = Sizes(4, 1, 0.5, 5, 3, 4, 1, 300.0)


# --- the service's processes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Takeover:
    killed: str  # the director SIGKILLed (host:pid:…)
    by: str | None  # the one that held the lease next (None: none within a minute)
    seconds: float  # from the SIGKILL to the lease held by another


class Directors:
    """The directors of the run: ``count`` alive; the one holding a tournament's lease may be SIGKILLed,
    and another is started in its place once the lease has been taken over. Thread-safe (the suite runs
    three tournaments at once). A director gets SIGTERM when the thread that started it ends
    (``die_with_parent``): one thread of the pool's, alive as long as the process, starts them all."""

    def __init__(
        self,
        start: Callable[[], subprocess.Popen[bytes]],
        database_url: str,
        count: int = 2,
        running: Sequence[subprocess.Popen[bytes]] = (),
    ) -> None:
        self.start = start
        self.database_url = database_url
        self.processes = list(running)
        self.started: list[subprocess.Popen[bytes]] = []  # the ones this pool started (and stops)
        self.lock = threading.Lock()
        self.orders: queue.Queue[queue.Queue[subprocess.Popen[bytes] | BaseException]] = queue.Queue()
        threading.Thread(target=self._starter, name="directors", daemon=True).start()
        while len(self.processes) < count:
            self._add()

    def _starter(self) -> None:
        while True:
            reply = self.orders.get()
            try:
                reply.put(self.start())
            except BaseException as error:  # handed to the caller of _add
                reply.put(error)

    def _add(self) -> None:
        reply: queue.Queue[subprocess.Popen[bytes] | BaseException] = queue.Queue()
        self.orders.put(reply)
        process = reply.get()
        if isinstance(process, BaseException):
            raise process
        self.processes.append(process)
        self.started.append(process)

    def holder(self, tournament_id: str) -> str | None:
        """The director holding the tournament's lease now (None: nobody)."""
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT director FROM tournaments WHERE id = %s AND lease_until > now()", [tournament_id]
            ).fetchone()
        return None if row is None else str(row[0])

    def kill_holder(self, tournament_id: str) -> Takeover:
        """SIGKILL the director holding the tournament's lease; wait until another holds it."""
        with self.lock:
            deadline = time.monotonic() + 30
            while (name := self.holder(tournament_id)) is None:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no director holds the lease of {tournament_id}")
                time.sleep(0.05)
            pid = int(name.split(":")[1])
            (process,) = [p for p in self.processes if p.pid == pid]  # a director of this pool
            process.send_signal(signal.SIGKILL)
            killed_at = time.monotonic()
            process.wait()
            self.processes.remove(process)
            by = None
            while time.monotonic() < killed_at + 60:
                now = self.holder(tournament_id)
                if now is not None and now != name:
                    by = now
                    break
                time.sleep(0.05)
            seconds = time.monotonic() - killed_at
            self._add()
            return Takeover(name, by, seconds)

    def stop(self) -> None:
        for process in self.started:
            stop_bot_worker(process)  # SIGTERM: a director ends its step


@dataclass
class Service:
    """The service a run plays on: its base URL, its PostgreSQL, a folder for logs, and its directors."""

    base: str
    database_url: str
    folder: Path
    directors: Directors

    def rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            cursor = conn.execute(sql, list(params))
            names = [c.name for c in cursor.description or []]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def log_dir(path: Path) -> Path:
    path.mkdir()
    return path


@contextlib.contextmanager
def bench_service(folder: Path) -> Iterator[Service]:
    """Redis, PostgreSQL, gunicorn, a bot worker and two directors, stopped after the block."""
    with EmbeddedRedis(folder / "redis") as redis, bench_postgres(folder) as (database_url, _):
        env = service_env(redis.url, database_url)
        gunicorn, port = start_gunicorn(env, folder, name="gunicorn", cwd=folder)
        worker = start_bot_worker(env, folder)
        os.environ["DATABASE_URL"] = database_url  # the directors' (start_director passes it on)
        numbers = iter(range(1, 1000))
        directors = Directors(
            lambda: start_director(redis.url, log_dir(folder / f"director-{next(numbers)}")), database_url
        )
        try:
            yield Service(f"http://127.0.0.1:{port}", database_url, folder, directors)
        finally:
            directors.stop()
            stop_bot_worker(worker)
            stop_gunicorn(gunicorn)


# --- players -------------------------------------------------------------------------------------------


def api(base: str, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
    """One JSON request; RuntimeError on an error status."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.request(method, base + path, headers=headers, timeout=30, **kwargs)
    if response.status_code >= 400:
        raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:300]}")
    return response.json()


def sign_up(base: str, name: str) -> str:
    """A new account: its session token."""
    return str(api(base, "POST", "/v1/account", json={"name": name, "password": PASSWORD})["token"])


def bot_account(base: str, name: str) -> str:
    """A new bot account: an API token of it with the scope ``bot``."""
    session = sign_up(base, name)
    api(base, "POST", "/v1/account/bot", session)
    made = api(base, "POST", "/v1/account/tokens", session, json={"description": "bench", "scopes": ["bot"]})
    return str(made["token"])


class Bots:
    """Bot accounts, each played by its own ``gin-bot run … --account`` process."""

    def __init__(self, base: str, folder: Path) -> None:
        self.base = base
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.tokens: dict[str, str] = {}
        self.processes: list[subprocess.Popen[bytes]] = []

    def add(self, name: str) -> str:
        """Sign the bot account up and start its gin-bot; its API token."""
        token = self.tokens[name] = bot_account(self.base, name)
        token_file = self.folder / f"{name}.token"
        token_file.write_text(token)
        env = {
            k: v for k, v in os.environ.items() if k not in ("GIN_SERVER", "GIN_TOKEN", "GIN_PLAYER_TOKEN")
        }
        env["PYTHONPATH"] = str(ROOT)  # the bot is tests.support's choose, as the people's moves are
        command = [GIN_BOT, "run", "tests.support:choose", "--account", "--token-file", str(token_file)]
        command += ["--server", self.base, "--max-games", "4"]
        with (self.folder / f"{name}.log").open("wb") as log:
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=self.folder,
                    env={**env, "PYTHONUNBUFFERED": "1"},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    preexec_fn=die_with_parent(),
                )
            )
        return token

    def stop(self) -> None:
        """SIGTERM (their games are over; a run started with SIGINT ignored would ignore Ctrl-C)."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def play_person(base: str, token: str, tournament_id: str, stop: threading.Event) -> None:
    """A person in an arena: each game it is paired in, berserk, then sensible moves (tests.support's
    ``choose``) to the match's end — also a match still in play when the arena ends."""
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    played: set[str] = set()
    while not stop.is_set():
        info = http.get(f"{base}/v1/tournaments/{tournament_id}", timeout=30).json()
        game_id = (info.get("me") or {}).get("playing")
        if game_id and game_id not in played:
            play_game(http, base, game_id, stop)
            played.add(game_id)
        elif info["status"] in ("finished", "canceled"):
            return
        else:
            time.sleep(0.2)


def play_game(http: requests.Session, base: str, game_id: str, stop: threading.Event) -> None:
    url = f"{base}/v1/games/{game_id}"
    berserked = False
    after = ""
    while not stop.is_set():
        response = http.get(url, timeout=30)
        if response.status_code == 404:  # the pairing is written before its game is made
            time.sleep(0.1)
            continue
        response.raise_for_status()
        view = response.json()
        if view["scores"]["match_over"]:
            return
        if not berserked:  # before its first move: half the bank, no increment; a win scores 1 more
            berserked = True
            http.post(f"{url}/berserk", headers={"If-Match": response.headers["ETag"]}, timeout=30)
            continue
        if view["your_move"] and any(a["type"] not in ("resign", "abort") for a in view["legal_actions"]):
            http.post(
                f"{url}/actions", json=choose(view), headers={"If-Match": f'"{view["version"]}"'}, timeout=30
            )
            continue
        waited = http.get(
            f"{url}/events", params={"wait": "5", "after": after} if after else {"wait": "5"}, timeout=30
        )
        after = waited.json().get("cursor") or after


# --- a run ---------------------------------------------------------------------------------------------


@dataclass
class Report:
    """What a run printed and what failed."""

    name: str
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    takeovers: list[Takeover] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # players, matches, byes, berserked

    def say(self, line: str) -> None:
        self.lines.append(line)

    def check(self, ok: bool, failure: str) -> None:
        if not ok:
            self.failures.append(failure)

    def print(self) -> None:
        print(f"== {self.name}")
        for line in self.lines:
            print("  " + line)
        for failure in self.failures:
            print("  FAILED: " + failure)
        print(f"  checks: {'OK' if not self.failures else f'{len(self.failures)} failed'}")


class Tournament:
    """One tournament of a run: its organiser, its bots (and people), the API calls a run makes."""

    def __init__(self, service: Service, kind: str, sizes: Sizes) -> None:
        self.service = service
        self.base = service.base
        self.tag = uuid.uuid4().hex[:6]
        self.organiser = sign_up(self.base, f"org{self.tag}")
        self.bots = Bots(self.base, service.folder / f"{kind}-{self.tag}")
        self.people: dict[str, str] = {}
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.rules = {"preset": "standard", "options": {"target": sizes.target}}
        self.id = ""

    def create(self, **body: Any) -> None:
        body = {"name": f"Bench {self.tag}", "rules": self.rules, "clock": CLOCK, "bots": True, **body}
        self.id = api(self.base, "POST", "/v1/tournaments", self.organiser, json={**body, "starts_in": 3600})[
            "tournament"
        ]["id"]

    def join_bot(self, number: int) -> None:
        name = f"b{self.tag}{number:02d}"
        api(self.base, "POST", f"/v1/tournaments/{self.id}/join", self.bots.add(name), json={})

    def join_person(self, number: int) -> None:
        name = f"p{self.tag}{number:02d}"
        token = self.people[name] = sign_up(self.base, name)
        api(self.base, "POST", f"/v1/tournaments/{self.id}/join", token, json={})
        thread = threading.Thread(
            target=play_person, args=(self.base, token, self.id, self.stop), daemon=True
        )
        thread.start()
        self.threads.append(thread)

    def start(self) -> None:
        api(self.base, "POST", f"/v1/tournaments/{self.id}/start", self.organiser)

    def info(self) -> Any:
        return api(self.base, "GET", f"/v1/tournaments/{self.id}")

    def wait(self, done: Callable[[Any], bool], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        while not done(info := self.info()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"tournament {self.id}: timed out waiting for {what}")
            time.sleep(0.2)
        return info

    def pairings(self) -> list[dict[str, Any]]:
        return self.service.rows(
            "SELECT * FROM tournament_pairings WHERE tournament_id = %s ORDER BY number", self.id
        )

    def ndjson(self, path: str) -> list[Any]:
        response = requests.get(
            f"{self.base}/v1/tournaments/{self.id}/{path}",
            headers={"Accept": "application/x-ndjson"},
            timeout=60,
        )
        response.raise_for_status()
        return [orjson.loads(line) for line in response.content.splitlines() if line]

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)
        self.bots.stop()


def run_arena(service: Service, sizes: Sizes) -> Report:
    """An arena of bot accounts and people (berserk), its lease holder SIGKILLed at 40% of its time."""
    report = Report(
        f"arena: {sizes.arena_minutes:g} min, {sizes.arena_bots} bot accounts, {sizes.arena_people} people"
    )
    t = Tournament(service, "arena", sizes)
    try:
        t.create(format="arena", minutes=sizes.arena_minutes, berserk=True)
        for n in range(sizes.arena_bots):
            t.join_bot(n)
        for n in range(sizes.arena_people):
            t.join_person(n)
        started = time.monotonic()
        t.start()
        t.wait(lambda info: info["status"] == "started", 60, "the start")
        kill_at = started + 0.4 * sizes.arena_minutes * 60
        t.wait(lambda _: time.monotonic() >= kill_at and len(t.pairings()) > 0, 600, "pairings")
        report.takeovers.append(service.directors.kill_holder(t.id))
        t.wait(lambda info: info["status"] == "finished", sizes.arena_minutes * 60 + 300, "the end")
        wall = time.monotonic() - started
        finish(t, report, wall, "arena")
    finally:
        t.close()
    return report


def run_swiss(service: Service, sizes: Sizes) -> Report:
    """A Swiss: all but one bot at the start, the last after round 1; the organiser starts each round;
    the lease holder SIGKILLed once round 2 is paired."""
    report = Report(
        f"swiss: {sizes.swiss_rounds} rounds, {sizes.swiss_players} bot accounts (one joins late)"
    )
    t = Tournament(service, "swiss", sizes)
    try:
        t.create(format="swiss", rounds=sizes.swiss_rounds)
        for n in range(sizes.swiss_players - 1):
            t.join_bot(n)
        started = time.monotonic()
        t.start()
        for number in range(1, sizes.swiss_rounds):
            t.wait(partial(round_reached, number=number), sizes.timeout, f"round {number}")
            if number == 1:
                t.join_bot(sizes.swiss_players - 1)  # late: allowed until half the rounds are paired
            if number == 2:
                report.takeovers.append(service.directors.kill_holder(t.id))
            t.start()  # the next round, as soon as this one is over
        t.wait(lambda info: info["status"] == "finished", sizes.timeout, "the end")
        finish(t, report, time.monotonic() - started, "swiss")
    finally:
        t.close()
    return report


def round_reached(info: Mapping[str, Any], number: int) -> bool:
    return bool(info["round"] >= number)


def run_round_robin(service: Service, sizes: Sizes) -> Report:
    """A round robin of bot accounts with duplicate deals; the lease holder SIGKILLed in round 2."""
    report = Report(f"round robin: {sizes.round_robin_bots} bot accounts, duplicate deals")
    t = Tournament(service, "rr", sizes)
    try:
        t.create(format="round_robin", duplicate=True)
        for n in range(sizes.round_robin_bots):
            t.join_bot(n)
        started = time.monotonic()
        t.start()
        t.wait(lambda info: info["round"] >= 2, sizes.timeout, "round 2")
        report.takeovers.append(service.directors.kill_holder(t.id))
        t.wait(lambda info: info["status"] == "finished", sizes.timeout, "the end")
        finish(t, report, time.monotonic() - started, "round_robin")
    finally:
        t.close()
    return report


RUNS: dict[str, Callable[[Service, Sizes], Report]] = {
    "arena": run_arena,
    "swiss": run_swiss,
    "round_robin": run_round_robin,
}


# --- the checks ----------------------------------------------------------------------------------------


def finish(t: Tournament, report: Report, wall: float, format: str) -> None:
    """Wait for every pairing's game in the archive, then print the figures and check."""
    pairings = t.pairings()
    with_game = [p for p in pairings if p["game_id"]]
    deadline = time.monotonic() + 240  # an arena's matches still in play at its end are played out
    while len(exports := t.ndjson("games")) < len(with_game) and time.monotonic() < deadline:
        time.sleep(0.5)
    results = t.ndjson("results")
    info = t.info()
    statuses = collections.Counter(p["status"] for p in pairings)
    rounds = collections.Counter(p["round"] for p in pairings)
    unit = "wave" if format == "arena" else "round"
    report.counts.update(players=len(results), matches=len(with_game), byes=statuses["bye"])
    report.say(f"wall {wall:.1f} s; tournament {t.id}, {len(results)} players")
    report.say(
        f"matches {len(with_game)}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
        + f"; aborted {sum(p['outcome'] == 'aborted' for p in pairings)}"
    )
    report.say(f"pairings per {unit}: " + " ".join(f"{r}:{n}" for r, n in sorted(rounds.items())))
    for takeover in report.takeovers:
        report.say(
            f"director {takeover.killed} SIGKILLed: the lease held by {takeover.by} "
            f"{takeover.seconds:.2f} s later"
        )
        report.check(takeover.by is not None, f"no director took over from {takeover.killed}")
    report.check(info["status"] == "finished", f"the tournament is {info['status']}")
    report.check(statuses["playing"] == 0, f"{statuses['playing']} pairings still playing")
    check_pairings(report, format, pairings)
    check_archive(t, report, with_game, exports)
    check_standings(report, format, pairings, exports, results, info)


def check_pairings(report: Report, format: str, pairings: Sequence[Mapping[str, Any]]) -> None:
    """No pairing made twice: a game per pairing; a player once a round (an arena's wave; a round robin's:
    its two matches of duplicate deals); a Swiss never pairs two players again, a round robin pairs each
    two twice, the seats swapped."""
    games = [p["game_id"] for p in pairings if p["game_id"]]
    report.check(len(games) == len(set(games)), "a game id in two pairings")
    seen: collections.Counter[tuple[int, str]] = collections.Counter()
    for p in pairings:
        for player in (p["seat0"], p["seat1"]):
            if player is not None:
                seen[p["round"], player.casefold()] += 1
    once = 2 if format == "round_robin" else 1  # duplicate deals: a pairing's two matches in one round
    twice = [key for key, n in seen.items() if n > once]
    report.check(not twice, f"players paired too often in a {format} round: {twice[:5]}")
    pairs = collections.Counter(
        frozenset((p["seat0"].casefold(), p["seat1"].casefold())) for p in pairings if p["seat1"] is not None
    )
    if format == "swiss":
        again = [sorted(pair) for pair, n in pairs.items() if n > 1]
        report.check(not again, f"a Swiss paired two players again: {again[:5]}")
        byes = collections.Counter(p["seat0"] for p in pairings if p["status"] == "bye")
        report.say(f"byes: {dict(byes)}")
        report.check(bool(byes) and max(byes.values()) == 1, f"byes {dict(byes)}: none, or one twice")
    if format == "round_robin":
        players = {name for pair in pairs for name in pair}
        expected = len(players) * (len(players) - 1) // 2
        report.check(len(pairs) == expected, f"{len(pairs)} pairs of players met, not {expected}")
        report.check(set(pairs.values()) == {2}, f"pairs met {set(pairs.values())} times, not twice each")
        seats = collections.Counter((p["seat0"], p["seat1"]) for p in pairings)
        report.check(max(seats.values()) == 1, "a pairing's seats not swapped in its mirrored match")
        mirrors = sum(p["mirror_of"] is not None for p in pairings)
        report.check(mirrors == len(pairings) // 2, f"{mirrors} mirrored matches of {len(pairings)}")


def check_archive(
    t: Tournament,
    report: Report,
    with_game: Sequence[Mapping[str, Any]],
    exports: Sequence[Mapping[str, Any]],
) -> None:
    """Every pairing's game archived exactly once, and exported as this tournament's."""
    ids = [e["game_id"] for e in exports]
    wanted = {p["game_id"] for p in with_game}
    report.say(f"archive: {len(exports)} exports for {len(wanted)} pairings with a game")
    report.check(len(ids) == len(set(ids)), "a game exported twice")
    report.check(set(ids) == wanted, f"exports and pairings differ: {sorted(set(ids) ^ wanted)[:5]}")
    foreign = [e["game_id"] for e in exports if (e.get("tournament") or {}).get("id") != t.id]
    report.check(not foreign, f"exports not marked as this tournament's: {foreign[:5]}")
    rows = t.service.rows("SELECT id FROM games WHERE id = ANY(%s)", list(wanted))
    report.check(len(rows) == len(wanted), f"{len(rows)} archived games for {len(wanted)} pairings")
    sides = t.service.rows("SELECT game_id FROM game_players WHERE game_id = ANY(%s)", list(wanted))
    report.check(len(sides) == 2 * len(wanted), f"{len(sides)} players' records of {len(wanted)} games")


def iso(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def recompute(
    format: str,
    exports: Sequence[Mapping[str, Any]],
    ratings: Mapping[str, float],
    byes: Sequence[str],
) -> list[tuple[Any, ...]]:
    """The standings from the exported games (in the order they finished) and the byes, as rows to
    compare with :func:`shown_rows`."""
    played: dict[str, list[Played]] = {player: [] for player in ratings}
    for player in byes:
        played[player].append(Played(None, "won", None))
    for export in sorted(exports, key=lambda e: iso(e["finished_at"])):
        result = export["result"]
        if result["end_reason"] == "aborted":
            continue
        names = [seat["player"] for seat in export["players"]]
        berserk = export["tournament"]["berserk"]
        for seat in (0, 1):
            outcome: Result = (
                "drawn" if result["winner"] is None else "won" if result["winner"] == seat else "lost"
            )
            opponent = names[1 - seat]
            played[names[seat]].append(Played(opponent, outcome, ratings[opponent], berserk[seat]))
    rows: list[tuple[Any, ...]] = []
    if format == "arena":
        for a in scoring.arena_standings(played):
            s = a.sheet
            rows.append(
                (a.rank, a.player, float(s.points), s.wins + s.losses + s.draws, s.wins, s.losses, s.draws)
                + (_round(s.performance), list(s.scores), s.fire, s.berserks)
            )
    elif format == "swiss":
        for w in swiss_pairing.swiss_standings(played):
            rows.append(
                (w.rank, w.player, float(w.points), w.wins + w.losses + w.draws, w.wins, w.losses, w.draws)
                + (_round(w.performance), float(w.sonneborn_berger), w.byes)
            )
    else:
        for r in scoring.round_robin_standings(played):
            performance = scoring.performance(played[r.player])
            rows.append(
                (r.rank, r.player, float(r.points), r.games, r.wins, r.losses, r.draws, _round(performance))
                + (float(r.sonneborn_berger), [round(x, 9) for x in r.interval])
            )
    return rows


def shown_rows(format: str, results: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """The service's standings (``GET …/results``) as :func:`recompute`'s rows."""
    rows = []
    for r in results:
        row: tuple[Any, ...] = (
            r["rank"],
            r["player"],
            float(r["points"]),
            r["games"],
            r["wins"],
            r["losses"],
        )
        row += (r["draws"], r["performance"])
        if format == "arena":
            row += (r["sheet"], r["fire"], r["berserks"])
        elif format == "swiss":
            row += (float(r["sonneborn_berger"]), r["byes"])
        else:
            row += (float(r["sonneborn_berger"]), [round(x, 9) for x in r["interval"]])
        rows.append(row)
    return rows


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def check_standings(
    report: Report,
    format: str,
    pairings: Sequence[Mapping[str, Any]],
    exports: Sequence[Mapping[str, Any]],
    results: Sequence[Mapping[str, Any]],
    info: Mapping[str, Any],
) -> None:
    """The standings equal a recomputation from the games. An arena's matches still in play at its end
    (``unscored``) count for nothing: each must have finished after the end."""
    unscored = {p["game_id"] for p in pairings if p["status"] == "unscored"}
    if format == "arena" and info["ends_at"] is not None:
        ends_at = dt.datetime.fromtimestamp(info["ends_at"], dt.UTC)
        early = [
            e["game_id"] for e in exports if e["game_id"] in unscored and iso(e["finished_at"]) < ends_at
        ]
        report.check(not early, f"unscored matches that finished before the end: {early[:5]}")
    counted = [e for e in exports if e["game_id"] not in unscored]
    ratings = {r["player"]: float(r["rating"]) for r in results}
    byes = [p["seat0"] for p in pairings if p["status"] == "bye"]
    mine = recompute(format, counted, ratings, byes)
    shown = shown_rows(format, results)
    differences: list[tuple[Any, Any]] = [(a, b) for a, b in zip(mine, shown, strict=False) if a != b]
    if len(mine) != len(shown):
        differences.append((f"{len(mine)} rows", f"{len(shown)} rows"))
    report.check(not differences, f"standings differ from the games: {differences[:3]}")
    report.say(f"standings check: {'OK' if not differences else f'{len(differences)} differences'}")
    top = ", ".join(f"{r['player']} {r['points']:g}" for r in results[:3])
    report.say(f"top: {top}")
    if format == "arena":
        berserked = report.counts["berserked"] = sum(any(e["tournament"]["berserk"]) for e in exports)
        on_fire = sum(score >= 4 for r in results for score in r["sheet"])
        report.say(f"berserked matches {berserked}; wins scored double (on a streak) {on_fire}")


# --- the standings read under load ---------------------------------------------------------------------

LOAD = """
import asyncio, sys
sys.path.insert(0, {bench!r})
import bench_load
recorder, games = asyncio.run(bench_load.run_load("game", {port}, {clients}, 1.0, {seconds}))
print(f"{{len(recorder.latencies) / {seconds}:.0f}} req/s, {{bench_load.figures(recorder.latencies)}}")
"""


def time_reads(base: str, tournament_id: str, seconds: float) -> tuple[list[float], float]:
    """GET /v1/tournaments/{id} again and again for ``seconds`` from one client: latencies, requests/s."""
    http = requests.Session()
    latencies = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        response = http.get(f"{base}/v1/tournaments/{tournament_id}", timeout=30)
        latencies.append(time.perf_counter() - started)
        response.raise_for_status()
    return latencies, len(latencies) / seconds


def standings_load(service: Service, bots: int, seconds: float, clients: int) -> Report:
    """A running arena's standings read without load, then under bench_load.py's load (its matches to one
    point: the standings change all the time)."""
    report = Report(
        f"standings read: an arena of {bots} bot accounts, {seconds:g} s each, load {clients} clients"
    )
    t = Tournament(service, "load", SHORT)
    try:
        t.create(format="arena", minutes=max(3.0, (2 * seconds + 120) / 60))
        for n in range(bots):
            t.join_bot(n)
        t.start()
        t.wait(lambda info: bool(info["playing"]), 120, "pairings")
        quiet, rate = time_reads(service.base, t.id, seconds)
        report.say(f"alone:      {rate:6.0f} req/s  {figures(quiet)}")
        port = service.base.rsplit(":", 1)[1]
        script = LOAD.format(bench=str(ROOT / "bench"), port=port, clients=clients, seconds=seconds + 1)
        load = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)  # the load's warm-up
        loaded, rate = time_reads(service.base, t.id, seconds)
        out, _ = load.communicate(timeout=120)
        report.say(f"under load: {rate:6.0f} req/s  {figures(loaded)}")
        report.say(f"the load (moves vs simple): {out.strip()}")
        api(service.base, "POST", f"/v1/tournaments/{t.id}/terminate", t.organiser)
        t.wait(lambda info: info["status"] == "finished", 120, "the end")
    finally:
        t.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only",
        nargs="+",
        choices=[*RUNS, "standings"],
        default=list(RUNS),
        help="the runs (default: all 3)",
    )
    parser.add_argument("--short", action="store_true", help="the suite's short versions")
    parser.add_argument("--together", action="store_true", help="the runs at the same time (as the suite)")
    parser.add_argument("--bots", type=int, help="arena: bot accounts (16; --short 6)")
    parser.add_argument("--people", type=int, help="arena: people who berserk (2; --short 1)")
    parser.add_argument("--minutes", type=float, help="arena: its length (3; --short 0.5)")
    parser.add_argument("--players", type=int, help="Swiss: players, one of them late (8; --short 5)")
    parser.add_argument("--rounds", type=int, help="Swiss: rounds (5; --short 3)")
    parser.add_argument("--rr-bots", type=int, help="round robin: bot accounts (6; --short 4)")
    parser.add_argument("--target", type=int, help="the matches' target score (50; --short 1)")
    parser.add_argument("--standings-load", action="store_true", help="also the standings read under load")
    parser.add_argument("--load-seconds", type=float, default=10.0, help="standings read: seconds each (10)")
    parser.add_argument("--load-clients", type=int, default=16, help="standings read: load clients (16)")
    args = parser.parse_args(argv)
    base = SHORT if args.short else FULL
    sizes = Sizes(
        arena_bots=args.bots or base.arena_bots,
        arena_people=base.arena_people if args.people is None else args.people,
        arena_minutes=args.minutes or base.arena_minutes,
        swiss_players=args.players or base.swiss_players,
        swiss_rounds=args.rounds or base.swiss_rounds,
        round_robin_bots=args.rr_bots or base.round_robin_bots,
        target=args.target or base.target,
        timeout=base.timeout,
    )
    runs = [name for name in args.only if name in RUNS]
    folder = Path(tempfile.mkdtemp(prefix="gin-bench-tournaments-"))
    print(f"logs in {folder}; load average {os.getloadavg()[0]:.1f}; {sizes}")
    reports: list[Report] = []
    with bench_service(folder) as service:
        if args.together:
            with ThreadPoolExecutor(len(runs) or 1) as pool:
                reports += pool.map(lambda name: RUNS[name](service, sizes), runs)
        else:
            for name in runs:
                reports.append(RUNS[name](service, sizes))
                reports[-1].print()
        if args.standings_load or "standings" in args.only:
            reports.append(standings_load(service, sizes.arena_bots, args.load_seconds, args.load_clients))
            reports[-1].print()
    if args.together:
        for report in reports:
            report.print()
    failed = sum(len(r.failures) for r in reports)
    print(
        f"load average {os.getloadavg()[0]:.1f}; "
        + ("all checks OK" if not failed else f"{failed} checks FAILED")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
