"""Password hashing under gevent runs in gevent's pool of real threads: the event loop keeps serving
while a hash is computed (with the work inline, no other greenlet would run until it is done). Checked in
a process of its own, patched by gevent as gunicorn's gevent workers are."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
from gevent import monkey
monkey.patch_all()
import gevent
from argon2 import PasswordHasher
from ginrummy.http.offload import run

hasher = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4)
ticks = []

def ticker():
    while True:
        ticks.append(1)
        gevent.sleep(0.005)

background = gevent.spawn(ticker)
gevent.sleep(0.02)
before = len(ticks)
run(lambda: hasher.hash("a password of some length"))
during = len(ticks) - before
inline_before = len(ticks)
hasher.hash("a password of some length")  # inline: nothing else runs meanwhile
inline = len(ticks) - inline_before
background.kill()
print(during, inline)
"""


def test_a_hash_under_gevent_leaves_the_event_loop_free() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    during, inline = map(int, done.stdout.split())
    assert inline == 0  # the loop was blocked: the baseline the offload is for
    assert during >= 3, (during, inline)  # the ticker kept running while the hash was computed


def test_without_gevent_the_work_runs_inline() -> None:
    from ginrummy.http.offload import run

    assert run(lambda: 41 + 1) == 42
