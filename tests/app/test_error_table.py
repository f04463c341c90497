"""Every refusal's code has its status in the one table (ginrummy.http.errors.STATUS)."""

from __future__ import annotations

import ast
from pathlib import Path

import ginrummy
from ginrummy.engine import errors as engine_errors
from ginrummy.http.errors import STATUS

PACKAGE = Path(ginrummy.__file__).parent
REFUSALS = {"ServiceError", "RequestRefused"}


def raised_codes() -> set[str]:
    """The literal codes of every ServiceError/RequestRefused the application and the adapter raise."""
    found: set[str] = set()
    for folder in ("app", "http"):
        for path in (PACKAGE / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) in REFUSALS:
                    first = node.args[0] if node.args else None
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.add(first.value)
    return found


def test_every_raised_code_has_a_status() -> None:
    codes = raised_codes()
    assert {"game_not_found", "stale_version", "rematch_offered", "rate_limited"} <= codes
    assert len(codes) > 30
    missing = sorted(code for code in codes if code not in STATUS)
    assert not missing, f"codes without a status in ginrummy.http.errors.STATUS: {missing}"


def test_every_engine_code_has_a_status() -> None:
    for cls in vars(engine_errors).values():
        if isinstance(cls, type) and issubclass(cls, engine_errors.GinRummyError):
            assert cls.code in STATUS, cls
