"""The no-hidden-card property over every channel a seat can read, for random games with random probes.

One game = one hand between two humans, played to its end with random legal moves through HTTP. Before
each move, each seat (and a spectator) reads every channel it has: the view, the events as a JSON page,
as an NDJSON stream and as SSE, the hint, the revealed record of the live hand (must be 404), and it
provokes errors with random actions of every type (the errors carry the caller's legal actions). After
the move, everything each seat received since the last check is scanned for cards it may not see (the
opponent's hidden cards, the stock, a face-down knock discard), as tests/api/test_hidden_information.py
does for one game. Used by that test module (a few games) and by bench/bench_leaks.py (≥ 1,000 games).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient

from tests.support import choose

ALL_CARDS = {r + s for r in "A23456789TJQK" for s in "CDHS"}
CARD_TOKEN = re.compile(r'"([A2-9TJQK][CDHS])"|\b([A2-9TJQK][CDHS])\b')
OVER = ("hand_over", "game_over", "match_over")
CHANNELS = [
    ("/events", "application/json"),
    ("/events?wait=0.001", "application/x-ndjson"),
    ("/events?wait=0.001", "text/event-stream"),
]
PROBES = [
    {"type": "deal"},
    {"type": "draw", "source": "stock"},
    {"type": "draw", "source": "discard"},
    {"type": "pass"},
    {"type": "knock", "discard": None},
    {"type": "layoff", "best": True},
    {"type": "layoff", "melds": [], "layoffs": []},
]


@dataclass
class Figures:
    games: int = 0
    moves: int = 0
    reads: int = 0
    probes: int = 0
    leaks: list[str] = field(default_factory=list)


def plays(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal actions less resign and abort: the probes and moves go on with the game."""
    return [a for a in view["legal_actions"] if a["type"] not in ("resign", "abort")]


def named_cards(texts: list[str]) -> set[str]:
    found: set[str] = set()
    for text in texts:
        for quoted, bare in CARD_TOKEN.findall(text):
            found.add(quoted or bare)
    return found


def _without_ids(text: str) -> str:
    # Game ids, cursors and commitments are random text that may contain e.g. "-7H-": not cards.
    text = re.sub(r'"(game_id|id|commitment|cursor|request_id)":\s*"[^"]*"', "", text)
    return re.sub(r"/v1/games/[A-Za-z0-9_-]+", "/v1/games/ID", text)  # links to games (a list's "spectate")


def play_one(client: FlaskClient, rng: random.Random, figures: Figures, *, sample: float = 1.0) -> None:
    """Play one hand and scan. ``sample`` < 1: each moment reads only that share of the event channels
    and hints, picked at random (a long run covers them all, faster)."""
    created = client.post("/v1/games", json={"opponent": {"type": "human"}, "seed": rng.randrange(1 << 30)})
    game = created.get_json()
    game_id = game["game_id"]
    joined = client.post(f"/v1/games/{game_id}/join", json={"invitation": game["invitation"]}).get_json()
    tokens = [game["token"], joined["token"]]
    url = f"/v1/games/{game_id}"
    seen_by: list[list[str]] = [[], []]
    ever_public: list[set[str]] = [set(), set()]
    spectator: list[str] = []
    spectator_public: set[str] = set()
    figures.games += 1

    def read(seat: int | None, path: str, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}))
        if seat is not None:
            headers["Authorization"] = f"Bearer {tokens[seat]}"
        method = kwargs.pop("method", "GET")
        response = client.open(url + path, method=method, headers=headers, **kwargs)
        text = _without_ids(response.get_data(as_text=True))
        (spectator if seat is None else seen_by[seat]).append(text)
        figures.reads += 1
        return response

    for _ in range(400):
        views = [read(s, "").get_json() for s in (0, 1)]
        if views[0]["phase"] in OVER:
            return
        for s in (0, 1):
            ever_public[s] |= set(views[s]["hand"]["cards"]) | set(views[s]["discard_pile"])
            ever_public[s] |= set(views[s]["opponent"]["known_cards"])
        version = views[0]["version"]
        hand_number = views[0]["hand_number"]
        for s in (0, 1, None):
            for path, accept in CHANNELS:
                if rng.random() < sample:
                    read(s, path, headers={"Accept": accept})
            if rng.random() < sample:
                assert read(s, f"/hands/{hand_number}").status_code == 404  # not revealed while live
        if rng.random() < sample:  # the lists anyone may read: the public games in play, the lobby
            for listing in ("/v1/games?status=live&limit=200", "/v1/lobby"):
                spectator.append(_without_ids(client.get(listing).get_data(as_text=True)))
        for s in (0, 1):
            if rng.random() < sample:
                read(s, "/hint")
            probe = rng.choice(PROBES + [rng.choice(plays(views[s]) or PROBES)])
            read(s, "/actions", method="POST", json=probe, headers={"If-Match": f'"{version}"'})
            figures.probes += 1
        mover = views[0]["turn"] if views[0]["turn"] is not None else 0
        # Mostly a sensible move (hands then end by knocks and gins, not only by walls), sometimes any.
        legal = plays(views[mover])
        action = choose(views[mover]) if rng.random() < 0.7 else rng.choice(legal)
        moved = read(mover, "/actions", method="POST", json=action, headers={"If-Match": f'"{version}"'})
        assert moved.status_code in (200, 412), moved.get_data(as_text=True)
        figures.moves += 1
        after = [client.get(url, headers={"Authorization": f"Bearer {t}"}).get_json() for t in tokens]
        if after[0]["phase"] in OVER:
            return  # the hand is revealed from here on: the scan below covered every live moment
        for s in (0, 1):
            other = after[1 - s]
            allowed = ever_public[s] | set(after[s]["hand"]["cards"]) | set(after[s]["discard_pile"])
            allowed |= set(after[s]["opponent"]["known_cards"])
            if after[s]["knock"] is not None:  # the knocker's melds and deadwood are laid down face up
                allowed |= set(other["hand"]["cards"]) if after[s]["knock"]["knocker"] != s else set()
            leaked = named_cards(seen_by[s]) - allowed
            if leaked:
                figures.leaks.append(f"game {game_id} seat {s}: {sorted(leaked)}")
            seen_by[s].clear()
        spectator_public |= set(after[0]["discard_pile"]) | set(after[0]["opponent"]["known_cards"])
        spectator_public |= set(after[1]["opponent"]["known_cards"])
        if after[0]["knock"] is not None:
            spectator_public |= set(after[after[0]["knock"]["knocker"]]["hand"]["cards"])
        leaked = named_cards(spectator) - spectator_public
        if leaked:
            figures.leaks.append(f"game {game_id} spectator: {sorted(leaked)}")
        spectator.clear()
    raise AssertionError("the hand did not end")
