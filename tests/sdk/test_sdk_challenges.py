"""Bot accounts, challenges and the account stream through the SDK, against the real service: a new
user becomes a bot, is listed online while its stream is open, is challenged, accepts, declines with a
reason and sees a challenge cancelled — each side told on its account stream, which resumes from the last
id across ended streams and dropped connections; the refusals as their own exception classes."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
from ginrummy.app.meeting.challenges import DECLINE_REASONS as SERVICE_REASONS
from ginrummy_client import (
    DECLINE_REASONS,
    AccountEvent,
    AccountHasGames,
    AlreadyBot,
    ApiError,
    BadRules,
    ChallengeClosed,
    ChallengeNotFound,
    ChallengeSelf,
    Client,
    NotArchived,
    PlayerNotFound,
    PlayerRequired,
    RatedNeedsPreset,
    TokenScope,
    UnknownBot,
)

from .conftest import Answer, Reader, stub_service, wait_until
from .proxy import Proxy

PASSWORD = "a long enough password"


class Listener(Reader[AccountEvent]):
    """An account stream read on a thread of its own, as a bot reads it."""

    def of(self, kind: str) -> list[AccountEvent]:
        return [event for event in self.events if event["type"] == kind]

    def wait_for(self, kind: str, count: int = 1) -> list[AccountEvent]:
        wait_until(lambda: len(self.of(kind)) >= count or self.error is not None, f"{count} {kind}")
        assert self.error is None, self.error
        return self.of(kind)


def unique(prefix: str) -> str:
    return prefix + uuid.uuid4().hex[:8]


@pytest.fixture
def people(live_service: str) -> Iterator[tuple[Client, Client, str]]:
    """A person (signed in) and a bot account as a new user makes one: sign up, become a bot, an API
    token with scope bot — the client that plays holds that token. Returns (person, bot, bot's name)."""
    name = unique("sdkbot")
    with Client(live_service) as person, Client(live_service) as owner:
        person.account.sign_up(unique("ann"), PASSWORD)
        owner.account.sign_up(name, PASSWORD)
        assert owner.account.become_bot()["bot"] is True
        with pytest.raises(AlreadyBot):
            owner.account.become_bot()
        with pytest.raises(TokenScope):  # a bot account's session only reads
            owner.games.create(bot="simple")
        token = owner.account.create_token("engine", ["bot"])["token"]
        with Client(live_service, token=token) as bot:
            yield person, bot, name


def test_a_bot_account_is_challenged_accepts_declines_and_is_told_of_all(
    people: tuple[Client, Client, str],
) -> None:
    person, bot, name = people
    assert name not in [entry["name"] for entry in bot.service.bots().get("accounts", [])]
    listener = Listener(bot.account.stream(wait=30))
    mine = Listener(person.account.stream(wait=30))
    try:
        wait_until(lambda: name in [a["name"] for a in person.service.bots().get("accounts", [])], "online")

        # Challenged: the bot hears of it, lists it, reads it, accepts it; both sides get gameStart.
        sent = person.challenges.create(name, rules={"preset": "standard", "options": {"target": 1}})
        assert sent.status == "open" and sent.game_id is None and sent.token not in repr(sent)
        [heard] = listener.wait_for("challenge")
        assert heard["challenge"]["id"] == sent.id and heard["id"]
        assert heard["challenge"]["opponent"] == {"name": name, "player": name, "bot": True}
        assert [c["id"] for c in bot.challenges.list()["in"]] == [sent.id]
        assert [c["id"] for c in person.challenges.list()["out"]] == [sent.id]
        assert bot.challenges.get(sent.id)["rules"]["options"] == {"target": 1}
        game = bot.challenges.accept(sent.id)
        assert game.seat == 1 and game.view["seat"] == 1
        with pytest.raises(ChallengeClosed) as closed:
            bot.challenges.accept(sent.id)
        assert closed.value.challenge_status == "accepted"
        [started] = listener.wait_for("gameStart")
        assert started["game"]["game_id"] == game.game_id and started["game"]["seat"] == 1
        [theirs] = mine.wait_for("gameStart")
        assert theirs["game"]["seat"] == 0 and theirs["game"]["opponent"]["name"] == name
        assert person.challenges.get(sent.id)["game_id"] == game.game_id
        # Seats belong to accounts: the person plays seat 0 with its session, no seat token.
        assert person.games.get(game.game_id).seat == 0

        # Declined with a reason: the challenger is told.
        second = person.challenges.create(name, rated=True, rules="oklahoma")
        listener.wait_for("challenge", 2)
        declined = bot.challenges.decline(second.id, "casual")
        assert declined["status"] == "declined" and declined["decline_reason"] == "casual"
        [told] = mine.wait_for("challengeDeclined")
        assert told["challenge"]["id"] == second.id and told["challenge"]["decline_reason"] == "casual"

        # Cancelled: the challenged is told.
        third = person.challenges.create(name, clock="rapid")
        listener.wait_for("challenge", 3)
        assert person.challenges.cancel(third.id)["status"] == "canceled"
        [cancelled] = listener.wait_for("challengeCanceled")
        assert cancelled["challenge"]["id"] == third.id
        assert bot.challenges.list()["in"] == []

        # The game ends: both sides hear how.
        person.games.get(game.game_id).resign()
        [finished] = listener.wait_for("gameFinish")
        assert finished["game"]["result"] == "won" and finished["game"]["end_reason"] == "resigned"
        assert mine.wait_for("gameFinish")[0]["game"]["result"] == "lost"
    finally:
        listener.stop()
        mine.stop()
    # An account that has played may not become a bot (once the game is archived, a moment after it ends).
    wait_until(lambda: archived(person, game.game_id), "the resigned game in the archive", timeout=30)
    with pytest.raises(AccountHasGames):
        person.account.become_bot()


def archived(client: Client, game_id: str) -> bool:
    try:
        client.archive.export(game_id)
    except NotArchived:
        return False
    return True


def test_the_account_stream_starts_with_the_present_and_resumes_after_its_last_id(
    people: tuple[Client, Client, str], live_service: str
) -> None:
    person, bot, name = people
    first = person.challenges.create(name, rules={"preset": "standard", "options": {"target": 1}})
    game = bot.challenges.accept(first.id)
    waiting = person.challenges.create(name)
    # Afresh: a gameStart for the game in play, a challenge for the one still open.
    stream = bot.account.stream(wait=1)
    present = [next(stream), next(stream)]
    assert sorted(event["type"] for event in present) == ["challenge", "gameStart"]
    assert {event["id"] for event in present} == {present[0]["id"]}
    stream.close()
    # Resumed from the last id: only what came since — across streams the service ends every second.
    resumed = Listener(bot.account.stream(since=present[0]["id"], wait=1))
    try:
        person.challenges.cancel(waiting.id)
        resumed.wait_for("challengeCanceled")
        wait_until(lambda: resumed.feed.last_id != present[0]["id"], "the stream to move on")
        threading.Event().wait(1.5)  # the service ends the stream at least once meanwhile
        person.games.get(game.game_id).resign()
        resumed.wait_for("gameFinish")
    finally:
        events = resumed.stop()
    assert [event["type"] for event in events] == ["challengeCanceled", "gameFinish"]
    assert resumed.feed.last_id == events[-1]["id"]


def test_a_page_of_the_account_stream_is_a_mark_after_which_nothing_is_missed(
    people: tuple[Client, Client, str],
) -> None:
    person, bot, name = people
    mark = person.account.events()  # afresh: the present (nothing in play, nothing received) and a mark
    assert mark["events"] == [] and mark["last_id"]
    sent = person.challenges.create(name)
    present = bot.account.events()["events"]  # the challenged: the challenge received, in the present
    assert [(e["type"], e["challenge"]["id"]) for e in present] == [("challenge", sent.id)]
    bot.challenges.decline(sent.id, "later")  # answered before the challenger looks: still after the mark
    page = person.account.events(since=mark["last_id"])
    assert [(e["type"], e["challenge"]["id"]) for e in page["events"]] == [
        ("challenge", sent.id),
        ("challengeDeclined", sent.id),
    ]
    assert page["events"][1]["challenge"]["decline_reason"] == "later"
    assert page["last_id"] == page["events"][-1]["id"] != mark["last_id"]
    # Nothing new: a short long poll answers an empty page that keeps the mark.
    quiet = person.account.events(since=page["last_id"], wait=0.5)
    assert quiet == {"events": [], "last_id": page["last_id"]}
    # A long poll answers with what comes while it waits (or came just before it asked).
    later: list[str] = []
    sender = threading.Thread(target=lambda: later.append(person.challenges.create(name).id))
    sender.start()
    waited = person.account.events(since=page["last_id"], wait=30)
    sender.join()
    assert [(e["type"], e["challenge"]["id"]) for e in waited["events"]] == [("challenge", later[0])]
    person.challenges.cancel(later[0])


def test_the_account_stream_rides_out_dropped_connections(
    people: tuple[Client, Client, str], live_service: str, proxy: Proxy
) -> None:
    person, bot, name = people
    with Client(proxy.url, token=bot.token) as through_proxy:
        listener = Listener(through_proxy.account.stream(wait=30))
        try:
            sent = []
            for n in range(3):
                wait_until(lambda n=n: len(proxy.requests_to("GET /v1/account/stream")) > n, "a stream")
                sent.append(person.challenges.create(name).id)
                listener.wait_for("challenge", n + 1)
                # Once the stream stands after it (a fresh stream tells the present again until then).
                wait_until(lambda: listener.feed.last_id is not None, "the challenge's id kept")
                assert proxy.cut() >= 1
        finally:
            events = listener.stop()
    assert [event["challenge"]["id"] for event in events] == sent  # each once, in order
    resumed_from = [head.line for head in proxy.requests_to("GET /v1/account/stream")]
    assert len(resumed_from) >= 3 and all("since=" in line for line in resumed_from[1:])


def test_a_house_bot_accepts_at_once_and_rated_works_with_an_account(
    people: tuple[Client, Client, str],
) -> None:
    person, bot, name = people
    listed = person.service.bots()
    expert = next(entry for entry in listed["bots"] if entry["name"] == "expert")
    assert expert.get("player") == "bot-expert" and expert.get("ratings", {})["standard"]["rating"]
    made = bot.challenges.create("bot-expert", rated=True)
    assert made.status == "accepted" and made.game_id
    view = bot.games.get(made.game_id).view
    assert view["rated"] is True and view["seat"] == 0 and view["players"][1]["name"] == "expert"


def test_challenges_refused_raise_their_own_errors(people: tuple[Client, Client, str]) -> None:
    person, bot, name = people
    me = person.account.get()["name"]
    with pytest.raises(ChallengeSelf):
        person.challenges.create(me)
    with pytest.raises(PlayerNotFound):
        person.challenges.create(unique("nobody"))
    with pytest.raises(BadRules):
        person.challenges.create(name, rules="backgammon")
    with pytest.raises(RatedNeedsPreset):
        person.challenges.create(name, rated=True, rules={"preset": "standard", "options": {"target": 50}})
    with pytest.raises(UnknownBot):
        person.challenges.create("bot-grandmaster")
    with pytest.raises(ChallengeNotFound):
        bot.challenges.get("no-such-challenge")
    assert DECLINE_REASONS == SERVICE_REASONS  # the SDK's copy of the service's list
    with Client(person.server) as anonymous:
        with pytest.raises(PlayerRequired):
            anonymous.challenges.create(name, rated=True)
        guest = anonymous.challenges.create(name, name="Guest")  # anonymous: its token is the key
        assert anonymous.challenges.get(guest.id, token=guest.token)["challenger"]["player"] is None
        assert anonymous.challenges.cancel(guest.id, token=guest.token)["status"] == "canceled"


# --- resuming, against a stub that speaks the service's lines -----------------------------------------

STREAM_LINES = {
    None: [
        {"type": "keepalive"},
        {"type": "gameStart", "id": "5-0", "game": {"game_id": "g1", "seat": 1}},  # the present
        {"type": "keepalive"},
        {"type": "challengeDeclined", "id": "6-0", "challenge": {"id": "c1", "decline_reason": "later"}},
        {"type": "error", "code": "store_unavailable", "detail": "Redis is down", "retry_after": 0.1},
    ],
    "6-0": [{"type": "keepalive"}, {"type": "gameFinish", "id": "7-0", "game": {"game_id": "g1"}}],
    "7-0": [
        {"type": "keepalive"},
        {"type": "challenge", "id": "8-0", "challenge": {"id": "c2"}},
        {"type": "error", "code": "something_new", "detail": "no more"},
    ],
}


def test_the_account_stream_resumes_after_error_lines_and_a_503_from_the_last_id() -> None:
    unavailable = ["once"]

    def answer(query: dict[str, str]) -> Answer:
        since = query.get("since")
        if since == "7-0" and unavailable:  # a 503 with Retry-After: sent again
            unavailable.clear()
            return 503, {"Retry-After": "0"}, [{"code": "store_unavailable", "status": 503}]
        return 200, {}, STREAM_LINES[since]

    with stub_service(answer) as server, Client(server.url, token="gin_p_secret") as client:
        stream = client.account.stream(wait=5)
        delivered = []
        with pytest.raises(ApiError) as raised:
            for event in stream:
                delivered.append((event["type"], event["id"]))
    assert delivered == [
        ("gameStart", "5-0"),
        ("challengeDeclined", "6-0"),
        ("gameFinish", "7-0"),
        ("challenge", "8-0"),
    ]
    # Afresh, then after the last id each time: past the present, an error line, an ended stream, a 503.
    assert [query.get("since") for _, query in server.seen] == [None, "6-0", "7-0", "7-0"]
    assert stream.last_id == "8-0" and raised.value.code == "something_new"
    assert "gin_p_secret" not in str(raised.value)
