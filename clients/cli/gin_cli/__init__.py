"""`gin`: a terminal client for the Gin Rummy service.

It talks to the service only through the Python SDK, ``ginrummy_client`` (its ``Client`` and ``Game``:
If-Match, Idempotency-Keys, retries and typed errors are the SDK's), and holds no rules of the game: what a
player may do comes from the seat view's ``legal_actions``, how a hand is grouped from the view's ``hand``.

Modules: ``cards`` (card text in and out), ``saved`` (seat tokens and logins kept on disk, for
``gin resume``, ``gin rematch`` and the signed-in session), ``screen`` (drawing views on a terminal),
``commands`` (what a typed line means), ``play`` (the interactive game loop), ``people`` (the lobby,
profiles, the leaderboard, ``--clock``), ``accounts`` (signing up and in, passwords, sessions, API
tokens), ``watch`` (a game followed as a spectator) and ``main`` (the command line).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
