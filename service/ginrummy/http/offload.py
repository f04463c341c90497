"""Running CPU-heavy work that releases the GIL — password hashing (argon2-cffi) — off the event loop.

Under gunicorn's gevent workers every request of a worker shares one OS thread: 0.1–0.5 s of argon2 run
there would stall them all. :func:`run` hands such work to gevent's pool of real OS threads, where it
runs in parallel with the loop (argon2-cffi releases the GIL while it hashes), and waits for it
cooperatively. Without gevent's patches (tests, a sync worker) the work simply runs where it is called.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def run(work: Callable[[], T]) -> T:
    """``work()``, in gevent's thread pool when gevent has patched threading, else here."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        import gevent  # type: ignore[import-untyped]  # noqa: PLC0415 — loaded only when gevent is

        result: T = gevent.get_hub().threadpool.apply(work)
        return result
    return work()
