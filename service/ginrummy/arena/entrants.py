"""Who plays in the arena: the house bots by name, and bots of your own named as ``gin-bot`` names them.

A bot of your own is a function ``choose(view) -> action``, exactly as ``gin-bot run`` takes it: given its
seat's view it answers with one element of ``view["legal_actions"]``. It is named ``module:function``
(imported as ``python -m`` would, the current directory first on the path) or
``path/to/file.py:function``; without ``:function`` the function is ``choose``. A house bot is named as
``GET /v1/bots`` lists it (``simple``, ``expert``, … ``master``). ``NAME=SPEC`` gives an
entrant the name the results show (the spec is the default; a name given twice is numbered).

>>> [(e.name, e.spec, e.house) for e in parse_entrants(["simple", "simple", "me=json:dumps"])]
[('simple', 'simple', True), ('simple#2', 'simple', True), ('me', 'json:dumps', False)]
>>> load_function("json:dumps")({"type": "pass"})
'{"type": "pass"}'
>>> load_function("json:no_such_thing")
Traceback (most recent call last):
...
ginrummy.arena.entrants.EntrantError: json has no function no_such_thing
"""

from __future__ import annotations

import importlib
import os
import runpy
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.bots import BOTS

Chooser = Callable[[dict[str, Any]], Any]
"""A bot: ``choose(view) -> action``."""

HOUSE_BOTS: tuple[str, ...] = tuple(BOTS)

_LOADED: dict[str, Chooser] = {}  # spec -> function, once per process (a forked worker inherits them)


class EntrantError(ValueError):
    """An entrant that cannot be named or loaded (no such bot, module, file or function)."""


@dataclass(frozen=True)
class Entrant:
    """One player of the arena: the name its results go under, and the bot it is (``spec``)."""

    name: str
    spec: str

    @property
    def house(self) -> bool:
        """Whether it is a house bot (a new one, seeded, for every game) rather than a function."""
        return self.spec in HOUSE_BOTS


def parse_entrants(texts: Sequence[str]) -> list[Entrant]:
    """Entrants from their command-line texts (``SPEC`` or ``NAME=SPEC``), with unique names."""
    entrants: list[Entrant] = []
    taken: set[str] = set()
    for text in texts:
        name, equals, spec = text.partition("=")
        if not equals:
            name, spec = text, text
        if not name or not spec:
            raise EntrantError(f"an entrant is SPEC or NAME=SPEC, not {text!r}")
        unique, number = name, 1
        while unique in taken:
            number += 1
            unique = f"{name}#{number}"
        taken.add(unique)
        entrants.append(Entrant(unique, spec))
    return entrants


def load_function(spec: str) -> Chooser:
    """The function ``spec`` names (see the module's docstring); loaded once per process."""
    found = _LOADED.get(spec)
    if found is None:
        found = _LOADED[spec] = _load(spec)
    return found


def check(entrant: Entrant) -> None:
    """Raise :class:`EntrantError` unless the entrant is a house bot or a function that loads."""
    if not entrant.house:
        load_function(entrant.spec)


def _load(spec: str) -> Chooser:
    target, colon, name = spec.rpartition(":")
    if not colon:
        target, name = spec, "choose"
    if not target or not name:
        raise EntrantError(f"a bot is a house bot, MODULE:FUNCTION or path/to/file.py:FUNCTION, not {spec!r}")
    namespace = _namespace(target, bare=not colon)
    first, *rest = name.split(".")
    found: Any = namespace.get(first)
    for part in rest:
        found = getattr(found, part, None)
    if found is None:
        raise EntrantError(f"{target} has no function {name}")
    if not callable(found):
        raise EntrantError(f"{target}:{name} is not a function but the {type(found).__name__} {found!r:.60}")
    chooser: Chooser = found
    return chooser


def _namespace(target: str, *, bare: bool) -> dict[str, Any]:
    """The globals of the bot's module: a file run as ``python path/to/file.py`` would run it (the
    folder it is in first on the path), or a module imported as ``python -m`` would import it."""
    path = Path(target)
    is_file = target.endswith(".py") or len(path.parts) > 1
    if is_file and not path.is_file():
        raise EntrantError(f"no file {target!r}")
    folder = str(path.resolve().parent) if is_file else os.getcwd()
    if folder not in sys.path and (is_file or "" not in sys.path):
        sys.path.insert(0, folder)
    try:
        if is_file:
            return runpy.run_path(target, run_name=path.stem)
        return vars(importlib.import_module(target))
    except ModuleNotFoundError as error:
        if is_file or error.name is None or not (target + ".").startswith(error.name + "."):
            raise EntrantError(f"cannot import {target}:\n{bot_traceback(error)}") from error
        if bare:  # a word that is neither a house bot nor a module: most likely a misspelt house bot
            raise EntrantError(
                f"unknown bot {target!r}: a house bot ({', '.join(HOUSE_BOTS)}), MODULE:FUNCTION or "
                "path/to/file.py:FUNCTION"
            ) from None
        raise EntrantError(
            f"no module named {target!r} in {os.getcwd()}: run the arena in the folder that holds it, "
            f"or name its file (path/to/{target.replace('.', '/')}.py:choose)"
        ) from None
    except Exception as error:  # the bot's own code failed while loading: show the author where
        raise EntrantError(f"cannot import {target}:\n{bot_traceback(error)}") from error


def bot_traceback(error: BaseException) -> str:
    """The traceback of a bot's exception without the arena's own frames (those of this package)."""
    here = str(Path(__file__).parent)
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not frame.filename.startswith((here, "<frozen "))  # nor the import machinery's
    ]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
    return "".join(lines).rstrip()
