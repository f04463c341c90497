"""Accounts through the SDK against a real gunicorn with two workers: sign up, a second device that
plays the first one's game, API tokens revoked and refused at once by both workers, sign out — and the
whole log of the run holds none of the passwords and tokens issued."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from ginrummy_client import BadCredentials, Client, TokenScope, UnknownPlayer

from tests.fixtures.live_service import start_service, stop_gunicorn

PASSWORD = "a long enough password"


def test_accounts_across_devices_and_workers(redis_url: str, tmp_path: Path) -> None:
    process, base = start_service(
        redis_url, tmp_path, workers=2, extra_env={"GIN_ACCESS_LOG": "1", "GIN_LOG_LEVEL": "debug"}
    )
    secrets = [PASSWORD]
    name = "sdk" + uuid.uuid4().hex[:8]
    try:
        laptop, phone = Client(base, retries=0), Client(base, retries=0)
        secrets.append(laptop.account.sign_up(name, PASSWORD).token)
        with pytest.raises(BadCredentials):
            phone.account.sign_in(name, "not the password at all")
        session = phone.account.sign_in(name, PASSWORD)
        secrets.append(session.token)
        game = laptop.games.create(bot="simple")
        listed = phone.account.games()
        assert [g["game_id"] for g in listed] == [game.game_id]
        on_phone = phone.games.get(game.game_id)
        action = next(a for a in on_phone.refresh()["legal_actions"] if a["type"] in ("pass", "draw"))
        on_phone.act(action)
        assert len(phone.account.sessions()) == 2 and phone.account.get()["name"] == name

        made = phone.account.create_token("my bot", ["play"])
        reader = phone.account.create_token("read only", ["read"])
        secrets += [made["token"], reader["token"]]
        bot, dashboard = (
            Client(base, token=made["token"], retries=0),
            Client(base, token=reader["token"], retries=0),
        )
        with pytest.raises(TokenScope):
            dashboard.games.create(bot="simple")
        for _ in range(6):  # both workers have seen the token
            assert bot.account.get()["credential"]["kind"] == "token"
        assert [t["description"] for t in phone.account.tokens()] == ["read only", "my bot"]
        phone.account.revoke_token(made["id"])
        for _ in range(6):  # refused at once, by whichever worker answers
            with pytest.raises(UnknownPlayer):
                bot.account.get()
        assert laptop.account.sign_out() == 1 and laptop.token is None
        assert phone.account.sign_out("all") == 1
    finally:
        stop_gunicorn(process)
    log = "\n".join(path.read_text(errors="replace") for path in tmp_path.glob("gunicorn-*.log"))
    assert "/v1/account/sessions" in log, "the access log is not in this output: the check would be empty"
    assert [secret for secret in secrets if secret in log] == []
