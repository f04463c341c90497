"""The whole suite checks every response against the OpenAPI document (``GIN_CHECK_RESPONSES``).

Each pytest process names a file of its own before any service starts; every service it starts — an app
in the process, or gunicorn in a child process, which inherits the variable — validates each JSON body and
each stream line it sends against its operation's schema (ginrummy.http.conformance) and appends what
disagrees to that file. After each test, what was appended during it fails the test, with the
disagreement: a shape cannot drift from its document without a test saying so.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

CHECK_VARIABLE = "GIN_CHECK_RESPONSES"


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(tempfile.gettempdir()) / f"gin-conformance-{os.getpid()}-{worker}.log"
    path.write_text("", encoding="utf-8")
    os.environ[CHECK_VARIABLE] = str(path)


def disagreements_since(path: Path, offset: int) -> list[str]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as log:
        log.seek(offset)
        return [line for line in log.read().splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def responses_agree_with_the_document() -> Iterator[None]:
    """Fails the test that received a response its operation does not document."""
    path = Path(os.environ[CHECK_VARIABLE])
    offset = path.stat().st_size if path.exists() else 0
    yield
    found = disagreements_since(path, offset)
    if found:
        pytest.fail(
            "responses disagree with the OpenAPI document (GIN_CHECK_RESPONSES):\n" + "\n".join(found[:20]),
            pytrace=False,
        )


@pytest.hookimpl(trylast=True)  # after pytest's own reordering (by fixtures), which would undo this
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``slow`` tests first — at the head of each worker's share (pytest-xdist's ``worksteal`` gives
    each of its W workers a contiguous share of the list, and steals from the tails): every worker starts
    on its few long tests, and none ends the run on one while the others wait."""
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))

    slow = [item for item in items if item.get_closest_marker("slow")]
    rest = [item for item in items if not item.get_closest_marker("slow")]
    ordered: list[pytest.Item] = []
    left = len(items)
    for share in range(workers):
        size = left // (workers - share)  # as worksteal sizes the shares
        head = slow[share::workers]
        ordered += head
        take = max(0, size - len(head))
        ordered += rest[:take]
        rest = rest[take:]
        left -= size
    items[:] = ordered + rest
