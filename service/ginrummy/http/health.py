"""The ``health`` resource: liveness (the process answers) and readiness (the stores answer)."""

from __future__ import annotations

from flask import Response

from ginrummy.app.shapes.players import Liveness, Readiness

from . import contract
from .docs import doc, error_responses, op
from .errors import RETRY_AFTER, RequestRefused
from .games import services
from .parsing import ApiBlueprint
from .requests import json_body

blp = ApiBlueprint("health", __name__, description="Liveness and readiness")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, contract.ref(Liveness))
@blp.doc(**op("healthz"))
def healthz() -> Response:
    """The process is up (does not check Redis)"""
    return json_body({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.response(200, contract.ref(Readiness))
@blp.doc(**doc("readyz", error_responses(503, limited=False)))
def readyz() -> Response:
    """Ready to serve: Redis and PostgreSQL answer; with the archive's outbox depth and lag"""
    found = services()
    down = found.unavailable()
    if down:
        raise RequestRefused(
            "store_unavailable",
            f"{' and '.join(down)} {'does' if len(down) == 1 else 'do'} not answer",
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    return json_body({"status": "ready", "archive": found.archiving.status()})
