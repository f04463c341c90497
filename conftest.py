"""Shared pytest plugins: real Redis servers, a real PostgreSQL and a real running service."""

import os

import pytest

# Rate limits count per client address, and every test client is 127.0.0.1: the suite turns them off
# (for the apps it makes and the gunicorn processes it starts) and tests them where it means to.
os.environ.setdefault("GIN_RATE_LIMITS", "0")
# Password hashes at a fraction of production's cost (argon2id 8 MiB, one pass, one lane — still argon2id;
# tests/app/test_offload.py uses production's own): the suite signs many people up and in.
os.environ.setdefault("GIN_ARGON2_MEMORY_KIB", "8192")
os.environ.setdefault("GIN_ARGON2_TIME_COST", "1")
os.environ.setdefault("GIN_ARGON2_PARALLELISM", "1")

pytest_plugins = [
    "tests.fixtures.redis_servers",
    "tests.fixtures.postgres_servers",
    "tests.fixtures.live_service",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` (the longest, up to a minute) run first: under pytest-xdist a long test
    handed out last kept one worker busy while the other had nothing left to do. ``make test`` hands them
    out with ``--dist worksteal`` (a worker with nothing left takes half of another's queue): 473 s
    against 506 s with the default ``load`` on the same commit and machine."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: otherwise in order
