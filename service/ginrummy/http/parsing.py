"""Reading request bodies and queries: webargs' parser with orjson, whole numbers as JSON Schema reads
them, and a query parameter given twice refused; the blueprint class every resource uses."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from flask_smorest import Blueprint
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from .errors import RequestRefused

_FRACTION_OR_EXPONENT = re.compile(rb"[0-9][.eE]")


class BodyParser(FlaskParser):
    """webargs' parser reading JSON bodies with orjson: faster, and a body nested deeper than orjson's
    limit (1,024 levels) is a 400 like any other malformed body — the standard json module ran out of
    stack on it (RecursionError, a 500)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return missing
        data = req.get_data(cache=True)
        try:
            body = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            # webargs reads an error whose `doc` is empty as "no body"; orjson leaves it empty for bytes
            # that are not UTF-8, and such a body would have been taken for none.
            raise json.JSONDecodeError(str(exc), data.decode("utf-8", "replace") or exc.doc, exc.pos) from exc
        return whole_numbers(body) if _FRACTION_OR_EXPONENT.search(data) else body

    def load_querystring(self, req: Any, schema: Any) -> Any:
        """The query, where a parameter that takes one value is refused when given twice (webargs would
        silently take the first)."""
        for key in req.args:
            if len(req.args.getlist(key)) > 1:
                raise RequestRefused(
                    "validation_error", f"the query parameter {key!r} is given more than once"
                )
        return super().load_querystring(req, schema)


def whole_numbers(value: Any) -> Any:
    """JSON has one number type: 46.0 and 4.6e1 are the integer 46 (JSON Schema agrees), so a card number
    or an option written that way is an int to the engine. Other numbers stay floats (and are refused
    where an integer is needed).

    >>> whole_numbers({"cards": [46.0, "7H", 1.5], "n": {"target": 1.5e2}})
    {'cards': [46, '7H', 1.5], 'n': {'target': 150}}
    """
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if not isinstance(value, (list, dict)):
        return value
    pending = [value]  # in place, without recursion: a body may nest up to orjson's 1,024 levels
    while pending:
        node = pending.pop()
        for key, item in enumerate(node) if isinstance(node, list) else list(node.items()):
            if isinstance(item, float) and item.is_integer():
                node[key] = int(item)
            elif isinstance(item, (list, dict)):
                pending.append(item)
    return value


class ApiBlueprint(Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = BodyParser()
