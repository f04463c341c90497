"""`gin`: a terminal client for the Gin Rummy service.

It talks to the service only through the Python SDK, ``ginrummy_client`` (its ``Client`` and ``Game``:
If-Match, Idempotency-Keys, retries and typed errors are the SDK's), and holds no rules of the game: what a
player may do comes from the seat view's ``legal_actions``, how a hand is grouped from the view's ``hand``.

``main`` is the command line; each group of commands is carried out in its ``commands_*`` module
(``commands_play``, ``commands_account``, ``commands_challenge``, ``commands_people``,
``commands_records``, ``commands_reference``), given what it needs (``context``: the output and the
connection; ``seats``: the games saved and in play). The rest is what they use: ``play`` (the
interactive game loop) and ``events``; ``screen`` (the terminal), ``table`` and ``results`` (a view
drawn); ``commands`` (what a line typed at the game prompt means), ``words``, ``cards``; ``saved``
(seat tokens and logins kept on disk); the screens and waits of ``accounts``, ``challenges``,
``people``, ``relations``, ``records``, ``replay``, ``review`` and ``watch``.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
