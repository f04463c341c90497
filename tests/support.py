"""What the test suite and the benchmarks share: the service run by a real gunicorn, a sensible move, and
a match of house bots played on the engine with its hands' records.

One plain module rather than a pytest plugin, so that both can import it: the tests as ``tests.support``,
and the scripts in bench/ the same way once the checkout's root is on ``sys.path`` (they already put
``service/`` there, and bench_leaks.py imports ``tests.api.leaks`` so). It imports no pytest and no test
fixture, only the standard library, ``ginrummy.store.embedded`` (for a free port), the engine and the bots,
so a benchmark loads nothing of the suite.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ginrummy.bots import make_bot
from ginrummy.engine import Game, Rules, hand_record, seat_view
from ginrummy.store.embedded import die_with_parent, free_port

ROOT = Path(__file__).resolve().parents[1]
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
SERVICE_APP = "ginrummy.http.wsgi:app"


def start_gunicorn(
    env: Mapping[str, str],
    log_dir: Path,
    *,
    app: str = SERVICE_APP,
    name: str | None = None,
    cwd: Path = ROOT,
) -> tuple[subprocess.Popen[bytes], int]:
    """Start gunicorn with deploy/gunicorn.conf.py, serving ``app`` on a free loopback port with the
    environment ``env`` (complete: nothing is added but ``GIN_BIND``), and wait until ``/readyz`` answers
    200. Returns the process and its port; its output goes to ``log_dir/<name>.log`` (default name:
    ``gunicorn-<port>``). RuntimeError, naming the log, when it exits or is not ready within 60 s.
    gunicorn gets SIGTERM when the thread that started it ends (``die_with_parent``: a test run killed,
    even by SIGKILL, leaves no gunicorn behind; its workers follow their master): start it from the
    thread that lives as long as it should (a fixture's, the main thread)."""
    port = free_port()
    log_path = log_dir / f"{name or f'gunicorn-{port}'}.log"
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "--config",
        str(GUNICORN_CONF),
        "--bind",
        f"127.0.0.1:{port}",
        app,
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            env={**env, "GIN_BIND": f"127.0.0.1:{port}"},
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            preexec_fn=die_with_parent(),
        )
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}; see {log_path}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as response:
                if response.status == 200:
                    return process, port
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"gunicorn did not become ready; see {log_path}")
        time.sleep(0.1)


def stop_gunicorn(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (gunicorn drains its requests), SIGKILL if it has not exited after 20 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A sensible human move from a view: lay off best, knock when allowed, draw from the stock,
    discard the card that leaves the least deadwood."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    for kind in ("deal", "layoff", "knock"):
        if kind in by_type:
            return by_type[kind][0]
    if "draw" in by_type:
        stock = [a for a in by_type["draw"] if a["source"] == "stock"]
        if stock:
            return stock[0]
        return by_type.get("pass", by_type["draw"])[0]
    if "discard" in by_type:
        allowed = {a["card"] for a in by_type["discard"]}
        options = [d for d in view["hand"].get("discards") or [] if d["card"] in allowed]
        if options:
            best = min(options, key=lambda d: d["deadwood"])
            return {"type": "discard", "card": best["card"]}
        return by_type["discard"][0]
    return legal[0]


Decision = Callable[[int, dict[str, Any], dict[str, Any]], None]


def bot_match(
    bots: tuple[str, str], rules: Rules, seed: int, *, hands: int | None = None, seen: Decision | None = None
) -> tuple[Game, list[dict[str, Any]]]:
    """Two house bots (seeded ``seed`` and ``seed + 1``) play a match on the engine, its deals from
    ``seed``, to its end or ``hands`` finished hands: the game and each finished hand's record (as an
    export holds them). ``seen(seat, view, action)`` is told every decision."""
    rng = random.Random(seed)
    game = Game.new(rules, rng)
    players = [make_bot(bots[0], seed), make_bot(bots[1], seed + 1)]
    records: list[dict[str, Any]] = []
    while not game.match_over and (hands is None or len(records) < hands):
        seat = game.to_act
        if seat is None:
            game.apply(0, {"type": "deal"}, rng=rng)
            continue
        view = seat_view(game, seat)
        action = players[seat].choose(view)
        if seen is not None:
            seen(seat, view, action)
        game.apply(seat, action)
        if game.hand_over:
            records.append(hand_record(game))
    return game, records
