"""Container health check: exit 0 when GET /healthz answers 200, else 1 (the slim image has no curl).

Used by the Dockerfile's HEALTHCHECK and compose; reads the port from ``PORT``/``GIN_BIND`` like
gunicorn.conf.py. ``python deploy/healthcheck.py [URL]`` checks another URL.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def default_url() -> str:
    bind = os.environ.get("GIN_BIND", "").split(",")[0].strip()
    port = bind.rsplit(":", 1)[1] if ":" in bind else os.environ.get("PORT", "8000")
    return f"http://127.0.0.1:{port}/healthz"


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else default_url()
    try:
        with urllib.request.urlopen(url, timeout=3) as response:  # noqa: S310 - a fixed local URL
            ok = response.status == 200
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: {url}: {exc}", file=sys.stderr)
        return 1
    if not ok:
        print(f"unhealthy: {url} answered {response.status}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
