"""No token or invitation the service issued ever appears in its log output (access log on, debug level),
whatever clients send: good requests, bad tokens, malformed headers, replays, errors."""

from __future__ import annotations

from pathlib import Path

import requests

from tests.fixtures.live_service import start_service
from tests.support import choose, stop_gunicorn

T = 10


def test_the_whole_log_of_a_session_holds_no_secret(redis_url: str, tmp_path: Path) -> None:
    process, base = start_service(
        redis_url, tmp_path, workers=1, extra_env={"GIN_ACCESS_LOG": "1", "GIN_LOG_LEVEL": "debug"}
    )
    secrets: list[str] = []
    try:
        # A bot game, created twice with the same Idempotency-Key (the replay returns the same token).
        key = {"Idempotency-Key": "log-test-create-1"}
        created = requests.post(
            f"{base}/v1/games", json={"opponent": {"type": "bot"}}, headers=key, timeout=T
        )
        replayed = requests.post(
            f"{base}/v1/games", json={"opponent": {"type": "bot"}}, headers=key, timeout=T
        )
        assert created.status_code == 201 and replayed.json()["token"] == created.json()["token"]
        game, token = created.json()["game_id"], created.json()["token"]
        secrets.append(token)
        url, auth = f"{base}/v1/games/{game}", {"Authorization": f"Bearer {token}"}
        for _ in range(3):
            view = requests.get(url, headers=auth, timeout=T).json()
            moved = requests.post(
                f"{url}/actions",
                json=choose(view),
                headers={**auth, "If-Match": f'"{view["version"]}"'},
                timeout=T,
            )
            assert moved.status_code == 200
        stale = requests.post(
            f"{url}/actions", json={"type": "pass"}, headers={**auth, "If-Match": '"1"'}, timeout=T
        )
        assert stale.status_code == 412
        assert requests.get(f"{url}/hint", headers=auth, timeout=T).status_code == 200
        assert requests.post(f"{url}/undo", headers={**auth, "If-Match": "*"}, timeout=T).status_code in (
            200,
            409,
        )
        assert requests.get(f"{url}/events?wait=0.2", headers=auth, timeout=T).status_code == 200

        # A game between two people: the invitation, then the second seat's token.
        hosted = requests.post(f"{base}/v1/games", json={"opponent": {"type": "human"}}, timeout=T).json()
        secrets += [hosted["token"], hosted["invitation"]]
        join_url = f"{base}/v1/games/{hosted['game_id']}/join"
        joined = requests.post(join_url, json={"invitation": hosted["invitation"]}, timeout=T).json()
        secrets.append(joined["token"])
        again = requests.post(join_url, json={"invitation": hosted["invitation"]}, timeout=T)
        assert again.status_code == 403

        # Secrets where they do not belong: another game's token, broken headers, a token as a body.
        assert (
            requests.get(url, headers={"Authorization": f"Bearer {joined['token']}"}, timeout=T).status_code
            == 403
        )
        assert requests.get(url, headers={"Authorization": f"Basic {token}"}, timeout=T).status_code == 401
        assert (
            requests.get(url, headers={"Authorization": f"Bearer {token} {token}"}, timeout=T).status_code
            == 403
        )
        bad = requests.post(
            f"{url}/discard", json={"card": token}, headers={**auth, "If-Match": "*"}, timeout=T
        )
        assert bad.status_code in (409, 422)
        odd = requests.post(join_url, json={"invitation": token, "name": token[:40]}, timeout=T)
        assert odd.status_code == 403

        # Accounts: passwords, sessions, API tokens, challenges' tokens, the account stream — and refusals.
        name, password, new_password = f"Log{game[:6]}", "a long password one", "a long password two"
        secrets += [password, new_password]
        signed = requests.post(f"{base}/v1/account", json={"name": name, "password": password}, timeout=T)
        assert signed.status_code == 201
        session = signed.json()["token"]
        wrong = requests.post(
            f"{base}/v1/account/sessions", json={"name": name, "password": new_password}, timeout=T
        )
        assert wrong.status_code == 401
        other = requests.post(
            f"{base}/v1/account/sessions", json={"name": name, "password": password}, timeout=T
        )
        secrets += [session, other.json()["token"]]
        me = {"Authorization": f"Bearer {session}"}
        api = requests.post(
            f"{base}/v1/account/tokens",
            json={"description": "log", "scopes": ["play"]},
            headers=me,
            timeout=T,
        ).json()["token"]
        secrets.append(api)
        mine = {"Authorization": f"Bearer {api}"}
        assert requests.get(f"{base}/v1/account", headers=mine, timeout=T).status_code == 200
        made = requests.post(
            f"{base}/v1/challenges", json={"opponent": name, "name": "Anon"}, timeout=T
        ).json()
        secrets.append(made["token"])
        challenge = made["challenge"]["id"]
        stream = requests.get(f"{base}/v1/account/stream?wait=1", headers=mine, timeout=T)
        assert stream.status_code == 200 and challenge in stream.text
        accepted = requests.post(f"{base}/v1/challenges/{challenge}/accept", headers=mine, timeout=T).json()
        secrets.append(accepted["token"])
        assert (
            requests.get(
                f"{base}/v1/challenges/{challenge}",
                headers={"Authorization": f"Bearer {made['token']}"},
                timeout=T,
            ).status_code
            == 200
        )
        token_id = requests.get(f"{base}/v1/account/tokens", headers=me, timeout=T).json()["tokens"][0]["id"]
        assert (
            requests.delete(f"{base}/v1/account/tokens/{token_id}", headers=me, timeout=T).status_code == 200
        )
        assert (
            requests.get(f"{base}/v1/account", headers=mine, timeout=T).status_code == 401
        )  # revoked: at once
        changed = requests.post(
            f"{base}/v1/account/password",
            json={"current": password, "new": new_password},
            headers=me,
            timeout=T,
        )
        assert changed.status_code == 200
    finally:
        stop_gunicorn(process)
    log = "\n".join(path.read_text(errors="replace") for path in tmp_path.glob("gunicorn-*.log"))
    assert f"/v1/games/{game}" in log, "the access log is not in this output: the check would be empty"
    leaked = [secret for secret in secrets if secret in log]
    assert leaked == [], f"{len(leaked)} secrets appear in the log"
