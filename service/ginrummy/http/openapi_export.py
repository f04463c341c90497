"""Write the service's OpenAPI document: ``python -m ginrummy.http.openapi_export openapi/openapi.json``.

The document is generated from the app (no Redis needed) and checked in; a test fails when it is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def document() -> dict[str, Any]:
    from . import create_app

    app = create_app(
        {"redis_url": "redis://127.0.0.1:1/0", "database_url": "postgresql://127.0.0.1:1/none"}
    )  # never contacted
    spec: dict[str, Any] = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return spec


def render() -> str:
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m ginrummy.http.openapi_export <path/to/openapi.json>", file=sys.stderr)
        return 2
    path = Path(args[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
