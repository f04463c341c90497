"""``client.games``: games in play — a new one against a bot or a person, a seat taken with an invitation,
a seat resumed (or a spectator's view), and the public games being played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .bodies import ClockSpec, clock_body, given, parse_invitation, rules_of
from .game import Game, game_path, seated
from .models import LiveGames
from .resource import Resource


class Games(Resource):
    """Games in play (``/v1/games``)."""

    def create(
        self,
        *,
        bot: str | None = None,
        human: bool = False,
        opponent_name: str | None = None,
        name: str | None = None,
        preset: str = "standard",
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        rated: bool = False,
        private: bool = False,
        clock: ClockSpec | None = None,
    ) -> Game:
        """A new game in which the caller is seat 0: against ``bot`` (default: the service's default
        bot), or with ``human=True`` against a person who joins with :attr:`Game.invitation_code`.

        ``preset`` and ``options`` are the rules (``client.service.rules()`` lists them), ``name`` the
        caller's name (default: the player's), ``opponent_name`` the bot's, ``seed`` fixed deals (only
        services run for tests accept one). ``rated``: the result changes ratings (the client's token must
        be a player's, the rules a preset without options). ``private``: not listed by :meth:`live`.
        ``clock``: a time control, ``"eaai"`` or ``{"per_move", "bank", "increment"}`` in seconds."""
        if human and (bot is not None or opponent_name is not None):
            raise ValueError("a human opponent chooses their own name and is no bot")
        body = {
            "rules": rules_of(preset, options),
            "opponent": {"type": "human" if human else "bot", **given(bot=bot, name=opponent_name)},
            **given(name=name, seed=seed, rated=rated or None, private=private or None),
            **given(clock=clock_body(clock)),
        }
        reply = self.requestor.request("POST", "/v1/games", token=self.token, json=body)
        return seated(self.client, reply)

    def join(self, game_id: str, invitation: str | None = None, *, name: str | None = None) -> Game:
        """Take seat 1 of a game with its invitation: ``join(game_id, invitation)``, or
        ``join("GAME_ID:INVITATION")`` with the code the creator shared. An invitation works once. With a
        player's token (the client's) the seat is the player's (a rated game requires that)."""
        if invitation is None:
            game_id, invitation = parse_invitation(game_id)
        body = {"invitation": invitation, **given(name=name)}
        reply = self.requestor.request(
            "POST", game_path(game_id, "join"), token=self.token, json=body, secrets=[invitation]
        )
        return seated(self.client, reply)

    def get(self, game_id: str, token: str | None = None) -> Game:
        """A game read now: the seat of ``token`` (default: the client's), or the spectator's view
        without one. This is how a saved seat is resumed."""
        game = Game(self.client, game_id, token=token if token is not None else self.token)
        view = game.refresh()
        game.seat = view.get("seat")
        return game

    def live(self, limit: int = 50) -> LiveGames:
        """The public games in play, newest first (read one with :meth:`get` and no token: a spectator)."""
        params = {"status": "live", "limit": limit}
        return cast(LiveGames, self.requestor.request("GET", "/v1/games", params=params).data)
