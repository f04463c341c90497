"""Error answers become the exception class of their code, with the problem's members; no secret ever
shows in a repr or a message."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from ginrummy.engine import errors as engine_errors
from ginrummy.http.errors import HTTP_CODES, STATUS, engine_status
from ginrummy_client import (
    BadCard,
    CannotUndo,
    Client,
    Forbidden,
    IdempotencyKeyReused,
    IllegalAction,
    NotFound,
    NotYourTurn,
    PreconditionRequired,
    Unauthorized,
    UnknownBot,
    ValidationError,
    WaitingForOpponent,
)
from ginrummy_client.errors import ERRORS_BY_CODE, ERRORS_BY_STATUS, ApiError, error_from_problem

ROOT = Path(__file__).resolve().parents[2]


def test_refused_cards_and_moves(client: Client) -> None:
    game = client.games.create(bot="simple", seed=8)
    if game.phase != "draw":
        game.pass_()
    game.draw("stock")
    with pytest.raises(BadCard) as bad:
        game.discard("ZZ")
    assert isinstance(bad.value, ValidationError) and bad.value.status == 422 and bad.value.code == "bad_card"
    assert "ZZ" in bad.value.detail
    absent = next(c for c in ("AH", "AS", "AD", "AC", "2H") if c not in game.view["hand"]["cards"])
    with pytest.raises(IllegalAction) as illegal:
        game.discard(absent)
    assert illegal.value.code == "illegal_action" and illegal.value.status == 409
    assert illegal.value.legal_actions == game.legal_actions and illegal.value.turn == 0
    with pytest.raises(ValidationError) as schema:
        game.act({"type": "shuffle"})
    assert type(schema.value) is ValidationError and "type" in schema.value.errors["json"]
    with pytest.raises(UnknownBot) as unknown:
        client.games.create(bot="nobody")
    assert "simple" in unknown.value.problem["bots"]


def test_turns_seats_and_games(client: Client, live_service: str) -> None:
    host = client.games.create(human=True)
    with pytest.raises(WaitingForOpponent):
        host.act({"type": "pass"})
    guest = client.games.join(host.game_id, host.invitation)
    host.refresh()
    idle, mover = (host, guest) if guest.your_move else (guest, host)
    assert (
        not idle.your_move
        and idle.play_actions == []
        and {"type": "resign", "kind": "match"} in idle.legal_actions
    )
    with pytest.raises(NotYourTurn) as turn:
        idle.act(mover.play_actions[0])
    assert isinstance(turn.value, IllegalAction) and turn.value.turn == mover.seat
    assert turn.value.legal_actions == idle.legal_actions  # resign and abort: never the play's moves
    with pytest.raises(Forbidden) as used:
        client.games.join(f"{host.game_id}:{host.invitation}")
    assert used.value.code == "bad_invitation"
    with pytest.raises(Unauthorized):
        client.games.get(host.game_id).act(mover.play_actions[0])  # a spectator cannot move
    with pytest.raises(NotFound) as missing:
        client.games.get("no-such-game")
    assert missing.value.code == "game_not_found" and missing.value.status == 404
    with pytest.raises(NotFound) as live:
        host.hand(1)
    assert live.value.code == "hand_not_found"


def test_undo_and_the_headers_the_sdk_always_sends(client: Client) -> None:
    game = client.games.create(bot="simple", seed=9)
    with pytest.raises(CannotUndo):
        game.undo()
    path = f"/v1/games/{game.game_id}/actions"
    with pytest.raises(PreconditionRequired):  # what Game.act prevents by always sending If-Match
        client._request("POST", path, token=game.token, json=game.legal_actions[0])
    key = {"Idempotency-Key": "one-key-two-requests", "If-Match": f'"{game.version}"'}
    client._request("POST", path, token=game.token, json=game.legal_actions[0], headers=key)
    with pytest.raises(IdempotencyKeyReused):
        client._request("POST", path, token=game.token, json={"type": "deal"}, headers=key)


def test_no_secret_in_reprs_or_messages(client: Client, live_service: str) -> None:
    host = client.games.create(human=True, name="Ann")
    assert host.token and host.invitation
    secrets = (host.token, host.invitation)
    texts = [repr(host), str(host), repr(Client(live_service, token=host.token))]
    with pytest.raises(Forbidden) as wrong:
        client.games.get(host.game_id, token=host.invitation)  # an invitation is no seat token
    with pytest.raises(Forbidden) as reused:
        client.games.join(host.game_id, host.token)
    for error in (wrong.value, reused.value):
        texts += [str(error), repr(error), error.detail, error.title]
    for text in texts:
        assert not any(secret in text for secret in secrets), text
    assert "***" in repr(Client(live_service, token=host.token))


# --- every code the service can answer maps to its class ------------------------------------------------


def raised_codes() -> set[tuple[int, str]]:
    """(status, code) of every error the service's source raises (its use cases, its HTTP adapter and
    its engine), with the status of the adapter's one table."""
    found: set[tuple[int, str]] = set()
    for folder in ("app", "http"):
        for path in (ROOT / "service" / "ginrummy" / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) in REFUSALS:
                    first = node.args[0] if node.args else None
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.add((STATUS[first.value], first.value))
    for cls in vars(engine_errors).values():
        if isinstance(cls, type) and issubclass(cls, engine_errors.GinRummyError):
            found.add((engine_status(cls()), cls.code))
    return found | set(HTTP_CODES.items())


def documented_codes() -> set[tuple[int, str]]:
    """(status, code) of the table of errors in docs/api.md: the codes clients may rely on."""
    found: set[tuple[int, str]] = set()
    for row in re.finditer(r"^\| (\d{3}) \| (.+?) \|", (ROOT / "docs" / "api.md").read_text(), re.M):
        found |= {(int(row.group(1)), code) for code in re.findall(r"`([a-z_]+)`", row.group(2))}
    return found


REFUSALS = {"ServiceError", "RequestRefused"}

# Documented codes outside the game API (a wrong method): they fall back to the class of their status.
BY_STATUS_ONLY = {"method_not_allowed"}


def test_every_documented_code_has_its_class() -> None:
    documented = documented_codes()
    assert len(documented) > 30
    for status, code in sorted(documented):
        assert code in ERRORS_BY_CODE or code in BY_STATUS_ONLY, f"no class for {code} ({status})"
        assert isinstance(error_from_problem(status, {"code": code}), ERRORS_BY_STATUS.get(status, ApiError))


def test_every_code_the_service_raises_lands_in_its_status_family() -> None:
    """A code newer than this SDK (not documented yet) still gets the class of its status."""
    for status, code in sorted(raised_codes()):
        error = error_from_problem(status, {"code": code, "status": status})
        assert isinstance(error, ERRORS_BY_STATUS.get(status, ApiError)), (status, code, type(error))
        assert error.code == code and error.status == status
