"""The one registry of the codes (ginrummy.http.codes) holds every code the service raises, and no other;
the adapter answers each with the registry's status and title, and the adapter's tables are its views."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ginrummy
import orjson
from ginrummy.app.errors import ServiceError
from ginrummy.engine import errors as engine_errors
from ginrummy.http.codes import CODES, HTTP_CODES
from ginrummy.http.errors import STATUS, ProblemApi, handle_engine_error, handle_service_error
from werkzeug.exceptions import NotFound, RequestedRangeNotSatisfiable

PACKAGE = Path(ginrummy.__file__).parent
REFUSALS = {"ServiceError", "RequestRefused"}
# The engine's codes no answer carries: the base class's (never raised by the engine itself), and a stored
# game that cannot be read, which the adapter answers as internal_error.
NEVER_ANSWERED = {engine_errors.GinRummyError, engine_errors.BadStateError}


def raised_codes() -> set[str]:
    """The literal codes of every ServiceError/RequestRefused raised in the service, of every problem the
    adapter writes itself (``problem(status, code, …)``), and of the engine's errors."""
    found: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None)
            args = node.args if name in REFUSALS else node.args[1:] if name == "problem" else []
            if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                found.add(args[0].value)
    return found | {cls.code for cls in engine_classes() if cls not in NEVER_ANSWERED}


def engine_classes() -> list[type[engine_errors.GinRummyError]]:
    return [
        cls
        for cls in vars(engine_errors).values()
        if isinstance(cls, type) and issubclass(cls, engine_errors.GinRummyError)
    ]


def test_every_raised_code_is_in_the_registry() -> None:
    codes = raised_codes()
    assert {"game_not_found", "stale_version", "rate_limited", "overloaded", "not_your_turn"} <= codes
    assert len(codes) > 60
    missing = sorted(codes - set(CODES))
    assert not missing, f"codes raised but not in ginrummy.http.codes: {missing}"


def test_every_code_of_the_registry_is_raised() -> None:
    """Werkzeug's codes are raised by werkzeug (routing, methods, bodies); every other one by the service."""
    werkzeug = {code for code, entry in CODES.items() if entry.werkzeug}
    never = sorted(set(CODES) - raised_codes() - werkzeug)
    assert not never, f"codes in ginrummy.http.codes that nothing raises: {never}"


def test_werkzeug_has_one_code_per_status() -> None:
    werkzeug = [entry.status for entry in CODES.values() if entry.werkzeug and entry.status is not None]
    assert len(werkzeug) == len(set(werkzeug)) == len(HTTP_CODES)
    assert HTTP_CODES[404] == "not_found" and HTTP_CODES[422] == "validation_error"
    assert CODES["http_error"].werkzeug and CODES["http_error"].status is None  # any other status


def test_the_status_table_is_a_view_of_the_registry() -> None:
    assert {code: entry.status for code, entry in CODES.items() if entry.status is not None} == STATUS
    assert set(STATUS) == set(CODES) - {"http_error"}


def test_every_code_has_a_title_and_a_sentence_for_people() -> None:
    for code, entry in CODES.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code), code
        assert entry.status is None or 400 <= entry.status <= 599, code
        assert 0 < len(entry.title) <= 30 and entry.title[0].isupper(), code
        sentence = entry.sentence
        assert sentence[0].isupper() and sentence.endswith(".") and len(sentence) <= 100, code
        assert code not in sentence and not re.search(r"\bseat \d|\bHTTP\b|/v1/", sentence), code


def body(response: object) -> dict[str, object]:
    return orjson.loads(response.get_data())  # type: ignore[attr-defined,no-any-return]


def test_a_refusal_is_answered_with_its_codes_status_and_title() -> None:
    answer = handle_service_error(ServiceError("too_early", "the opponent still has time", seconds_left=3.5))
    assert answer.status_code == 409
    assert body(answer) == {
        "type": "urn:ginrummy:problem:too_early",
        "title": "Too early",
        "status": 409,
        "detail": "the opponent still has time",
        "code": "too_early",
        "seconds_left": 3.5,
    }
    refused = handle_engine_error(engine_errors.DuplicateCardError("card given twice: 7H"))
    assert refused.status_code == 422 and body(refused)["title"] == "Duplicate card"


def test_a_code_outside_the_registry_is_answered_as_a_bug() -> None:
    unknown = handle_service_error(ServiceError("no_such_code", "a refusal nobody registered"))
    assert unknown.status_code == 500 and body(unknown)["code"] == "internal_error"
    unreadable = handle_engine_error(engine_errors.BadStateError("not a saved game"))
    assert unreadable.status_code == 500 and body(unreadable)["code"] == "internal_error"


def test_werkzeugs_errors_get_werkzeugs_codes() -> None:
    api = ProblemApi.__new__(ProblemApi)  # the handler uses nothing of an initialized Api
    missing = api.handle_http_exception(NotFound())
    assert missing.status_code == 404 and body(missing)["code"] == "not_found"
    assert body(missing)["title"] == "Not found"
    beyond = api.handle_http_exception(RequestedRangeNotSatisfiable())
    assert beyond.status_code == 416 and body(beyond)["code"] == "http_error"
