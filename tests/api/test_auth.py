"""Seat tokens: a token acts only for its seat in its game; anything else is 401/403 and changes nothing."""

from __future__ import annotations

from flask.testing import FlaskClient
from ginrummy.app import security

from tests.support import choose

from .gameplay import Table, problem


def test_an_action_without_a_token_is_401(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    view = me.view()
    response = client.post(
        f"/v1/games/{me.game_id}/actions", json=choose(view), headers={"If-Match": f'"{view["version"]}"'}
    )
    problem(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert me.view()["version"] == view["version"]


def test_a_malformed_authorization_header_is_401(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    response = client.get(f"/v1/games/{me.game_id}", headers={"Authorization": "Basic abc"})
    problem(response, 401, "unauthorized")


def test_a_wrong_token_is_403_and_changes_nothing(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    view = me.view()
    headers = {"Authorization": "Bearer not-a-real-token", "If-Match": f'"{view["version"]}"'}
    problem(
        client.post(f"/v1/games/{me.game_id}/actions", json=choose(view), headers=headers), 403, "forbidden"
    )
    problem(client.get(f"/v1/games/{me.game_id}", headers=headers), 403, "forbidden")
    assert me.view()["version"] == view["version"]


def test_another_games_token_is_403(table: Table, client: FlaskClient) -> None:
    mine = table.bot_game()
    other = table.bot_game()
    view = mine.view()
    headers = {"Authorization": f"Bearer {other.token}", "If-Match": f'"{view["version"]}"'}
    problem(
        client.post(f"/v1/games/{mine.game_id}/actions", json=choose(view), headers=headers), 403, "forbidden"
    )
    problem(client.get(f"/v1/games/{mine.game_id}/hint", headers=headers), 403, "forbidden")
    assert mine.view()["version"] == view["version"]


def test_the_other_seats_token_acts_only_for_the_other_seat(table: Table) -> None:
    ann, bob = table.human_game()
    view = ann.view()
    waiting, acting = (bob, ann) if view["turn"] == 0 else (ann, bob)
    turn_view = acting.view()
    # The waiting seat posts the move its opponent could make: refused as not its turn.
    response = waiting.post("/actions", choose(turn_view), version=turn_view["version"])
    body = problem(response, 409, "not_your_turn")
    assert body["legal_actions"] == waiting.view()["legal_actions"]
    assert acting.view()["version"] == turn_view["version"]


def test_a_spectator_sees_no_hand_and_cannot_act(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    response = client.get(f"/v1/games/{me.game_id}")
    assert response.status_code == 200
    view = response.get_json()
    assert view["seat"] is None and "hand" not in view and view["legal_actions"] == []
    assert [p["card_count"] for p in view["players"]] == [
        len(me.view()["hand"]["cards"]),
        view["players"][1]["card_count"],
    ]
    problem(client.get(f"/v1/games/{me.game_id}/hint"), 401, "unauthorized")


def test_an_invitation_lets_exactly_one_player_join(table: Table, client: FlaskClient) -> None:
    ann, created = table.create(opponent={"type": "human"})
    path = f"/v1/games/{ann.game_id}/join"
    problem(client.post(path, json={"invitation": "guess"}), 403, "bad_invitation")
    assert client.post(path, json={"invitation": created["invitation"]}).status_code == 200
    problem(client.post(path, json={"invitation": created["invitation"]}), 403, "bad_invitation")


def test_nobody_acts_before_the_opponent_joins(table: Table) -> None:
    ann, created = table.create(opponent={"type": "human"})
    view = ann.view()
    assert view["waiting_for_opponent"] is True and view["legal_actions"] == []
    problem(ann.post("/actions", {"type": "pass"}, version=view["version"]), 409, "waiting_for_opponent")


def test_tokens_are_stored_only_as_hashes(table: Table, raw_redis: object) -> None:
    ann, bob = table.human_game()
    stored = b"".join(raw_redis.get(k) or b"" for k in raw_redis.keys(f"gin:{{{ann.game_id}}}:s"))  # type: ignore[attr-defined]
    assert stored
    assert ann.token.encode() not in stored and bob.token.encode() not in stored


def test_game_ids_start_with_a_letter_so_command_lines_never_read_them_as_options() -> None:
    ids = [security.new_game_id() for _ in range(2000)] + [
        security.game_id_for_key("a:127.0.0.1", str(i)) for i in range(2000)
    ]
    assert all(i[0].isalpha() and security.GAME_ID.match(i) for i in ids)
    assert len(set(ids)) == len(ids)


def test_secrets_never_start_with_a_dash_so_command_lines_never_read_them_as_options() -> None:
    # One in 64 did: `gin-bot run … --player-token -Xy…` answered "expected one argument".
    secrets = [security.new_secret() for _ in range(4000)]
    assert not any(secret.startswith("-") for secret in secrets)
    assert len(set(secrets)) == len(secrets) and {len(secret) for secret in secrets} == {32}
