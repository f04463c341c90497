"""`gin`: a terminal client for the Gin Rummy service.

It talks to the service only over HTTP (``requests``) and holds no rules of the game: what a player may
do comes from the seat view's ``legal_actions``, how a hand is grouped from the view's ``hand``.

Modules: ``client`` (the HTTP client), ``cards`` (card text in and out), ``saved`` (seat tokens kept on
disk for ``gin resume``), ``screen`` (drawing views on a terminal), ``commands`` (what a typed line
means), ``play`` (the interactive game loop) and ``main`` (the command line).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
