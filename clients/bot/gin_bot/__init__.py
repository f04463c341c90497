"""``gin-bot``: plays whole Gin Rummy matches with a bot function of yours, through a Gin Rummy service.

A program beside the Python SDK (``ginrummy_client``), not part of it: it talks to the service only through
the SDK's ``Client`` and ``Game`` (If-Match, Idempotency-Keys, retries and typed errors are the SDK's).
Modules: ``play`` (one game played with a bot function, what every mode shares: the answers checked, the
opponent awaited on the event stream, outages waited out, results written and counted), ``chat`` (the table
chat: the bot's ``on_chat`` and the greetings), ``botaccount`` (``--account`` and ``--challenge``: a bot
account at work) and ``harness`` (the other modes — a house bot, an invitation, the lobby — and the command
line, ``main``).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
