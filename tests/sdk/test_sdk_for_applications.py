"""What an application built on the SDK (the terminal client ``gin`` is one) needs besides the calls: to
name itself in ``User-Agent``, and to say in its own words why the service could not be reached."""

from __future__ import annotations

import pytest
from ginrummy.store.embedded import free_port
from ginrummy_client import Client, ConnectionFailed, __version__

from .proxy import Proxy


def test_an_application_names_itself_before_the_sdk(proxy: Proxy) -> None:
    with Client(proxy.url, user_agent="gin-cli/0.1.0") as client:
        client.service.bots()
    with Client(proxy.url) as client:
        client.service.rules()
    (named,) = proxy.requests_to("GET /v1/bots ")
    assert named.headers["user-agent"] == f"gin-cli/0.1.0 ginrummy-client/{__version__}"
    (plain,) = proxy.requests_to("GET /v1/rules ")
    assert plain.headers["user-agent"] == f"ginrummy-client/{__version__}"


def test_a_connection_failure_says_why_in_a_few_words() -> None:
    server = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    with Client(server, retries=0) as client, pytest.raises(ConnectionFailed) as failed:
        client.service.bots()
    assert failed.value.reason == "connection refused"
    assert str(failed.value) == f"GET /v1/bots: cannot reach {server} (connection refused)"
    assert ConnectionFailed("made by hand").reason == ""  # the reason is optional
