"""What a line typed at the game prompt means.

A line becomes either a move (an action in the JSON form of the API, ``abort`` included), a resignation
(``resign``: a move too, which the prompt confirms first), a line of the table chat (``say TEXT``, a
preset phrase ``/gg``; ``/mute``, ``/unmute``, and ``/`` alone lists the phrases: :mod:`chat`) or a client
command (hint, undo, help, quit, show). Moves are looked up in the view's ``legal_actions``: the client
never decides what is legal. A move that is well formed but not on offer is still returned
(``offered=False``) so that the service, which knows the rules, can explain why it is refused. A chat
line starts with ``say`` or ``/``, which no move does.

>>> view = {"legal_actions": [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]}
>>> parse_line("d", view)
Command(kind='move', action={'type': 'draw', 'source': 'stock'}, offered=True)
>>> parse_line("discard 10h", view)
Command(kind='move', action={'type': 'discard', 'card': 'TH'}, offered=False)
>>> parse_line("resign", {"legal_actions": [{"type": "resign"}]})
Command(kind='resign', action={'type': 'resign'}, offered=True)
>>> parse_line("say Well played, Bob!", view).said, parse_line("/GG", view).said
({'text': 'Well played, Bob!'}, {'preset': 'good_game'})
>>> parse_line("discard 1x", view)
Traceback (most recent call last):
...
gin_cli.commands.InputError: '1x' is not a card: type a card like 7h, 10♥ or TH
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import normalize_card
from .chat import PRESET_WORDS, preset_of
from .words import not_on_offer

HELP = """\
Moves (what is on offer right now is listed after "Moves:"):
  d, draw            draw the top card of the stock
  p, pile, take      take the top card of the discard pile (or the upcard)
  pass               refuse the upcard
  discard 7h, 7h     discard a card (7h, 10♥, TH and QS all work)
  knock 9s           knock, discarding 9S face down; "knock" alone discards the card that leaves
                     the least deadwood
  gin 9s, gin        knock with no deadwood
  big gin            lay down all eleven cards in melds
  layoff             lay down your melds and lay off the best way onto the knocker's melds
  deal, Enter        deal the next hand
  resign             give up the match: your opponent wins it (asks you to confirm)
  abort              call the match off before the first card is drawn: no result
Other commands:
  hint               ask the service for a suggestion
  undo               take back your last move (when the service allows it)
  show               draw the table again
  help               this text
  quit               leave; the game is kept and `gin resume` brings you back
Chat (at your prompt; your opponent's lines are shown as they come):
  say TEXT           say TEXT to your opponent (free text needs an account)
  /gg, /gl, /ty …    say a phrase: /hi /gl /hf /ty /gg /wp /nh /oops /bye /+1
                     /smile /wow /sad /clap (/ alone lists them)
  /mute, /unmute     stop (start again) reading your opponent in this game"""

_DRAW = ("d", "draw", "s", "stock")
_PILE = ("p", "pile", "take", "t", "upcard", "up")
_BIG_GIN = ("big gin", "biggin", "big-gin", "bg")
_LAYOFF = ("layoff", "lay off", "l", "lay", "layoff best", "lay off best")
_LOCAL = {
    "hint": "hint", "h": "hint", "?": "hint",
    "undo": "undo", "u": "undo",
    "help": "help",
    "quit": "quit", "q": "quit", "exit": "quit",
    "show": "show", "r": "show", "redraw": "show", "board": "show",
}  # fmt: skip


class InputError(ValueError):
    """The line cannot be understood; the message says what to type instead."""


@dataclass(frozen=True)
class Command:
    """A parsed line: ``kind`` is ``move`` (with ``action``), ``say`` (``said``: the chat line's
    ``{"text"}`` or ``{"preset"}``), ``mute``, ``unmute``, ``phrases`` or a client command."""

    kind: str
    action: dict[str, Any] | None = None
    offered: bool = False
    said: dict[str, str] | None = field(default=None, repr=False)


def find_legal(view: dict[str, Any], **wanted: Any) -> list[dict[str, Any]]:
    """The legal actions whose fields include ``wanted``."""
    return [
        action
        for action in view.get("legal_actions") or []
        if all(action.get(key) == value and (key in action or value is None) for key, value in wanted.items())
    ]


def parse_line(line: str, view: dict[str, Any]) -> Command:
    """Understand one line typed at the prompt (``view`` is the seat view it answers)."""
    chat = parse_chat(line)
    if chat is not None:
        return chat
    text = " ".join(line.strip().lower().split())
    if text in _LOCAL:
        return Command(_LOCAL[text])
    if text in ("", "deal", "next", "n"):
        if find_legal(view, type="deal"):
            return _move(view, {"type": "deal"})
        if text:
            return _move(view, {"type": "deal"})
        return Command("show")
    if text in _DRAW or text in ("draw stock", "draw from stock"):
        return _move(view, {"type": "draw", "source": "stock"})
    if text in _PILE or text in ("draw pile", "draw discard", "draw upcard"):
        return _move(view, {"type": "draw", "source": "discard"})
    if text == "pass":
        return _move(view, {"type": "pass"})
    if text == "resign":
        move = _move(view, {"type": "resign"})
        return Command("resign", move.action, offered=move.offered)
    if text == "abort":
        return _move(view, {"type": "abort"})
    if text in _BIG_GIN:
        return _move(view, {"type": "knock", "discard": None})
    if text in _LAYOFF:
        return _move(view, {"type": "layoff", "best": True})
    words = text.split(" ")
    verb, args = words[0], words[1:]
    if verb in ("discard", "x") and len(args) == 1:
        return _move(view, {"type": "discard", "card": _card(args[0])})
    if verb in ("knock", "k"):
        return _knock(view, args, gin=False)
    if verb in ("gin", "g"):
        return _knock(view, args, gin=True)
    if len(words) == 1 and normalize_card(words[0]) is not None:
        return _move(view, {"type": "discard", "card": _card(words[0])})
    raise InputError(f"unknown command {line.strip()!r}: type help for the list")


def parse_chat(line: str) -> Command | None:
    """A line of the table chat (``say TEXT``, ``/WORD``), or None for any other line. The text is said as
    typed (the service cleans it); a phrase is named by its short word (``PRESET_WORDS``) or its id.

    >>> parse_chat("/mute"), parse_chat("/")
    (Command(kind='mute', action=None, offered=False), Command(kind='phrases', action=None, offered=False))
    >>> parse_chat("draw") is None
    True
    """
    text = line.strip()
    if text.startswith("/"):
        word = text[1:].strip().lower()
        if word in ("mute", "unmute"):
            return Command(word)
        if word in ("", "?", "help"):
            return Command("phrases")
        preset = preset_of(word)
        if preset is None:
            raise InputError(f"there is no phrase /{word}: type / for the list ({_words()})")
        return Command("say", said={"preset": preset})
    verb, _, rest = text.partition(" ")
    if verb.lower() != "say":
        return None
    rest = rest.strip()
    if not rest:
        raise InputError(f"say what? type say and your words (say good game), or a phrase: {_words()}")
    return parse_chat(rest) if rest.startswith("/") else Command("say", said={"text": rest})


def _words() -> str:
    return " ".join(f"/{word}" for word in list(PRESET_WORDS)[:5]) + " …"


def _card(text: str) -> str:
    card = normalize_card(text)
    if card is None:
        raise InputError(f"{text!r} is not a card: type a card like 7h, 10♥ or TH")
    return card


def _move(view: dict[str, Any], action: dict[str, Any]) -> Command:
    legal = find_legal(view, **action)
    if legal:
        return Command("move", legal[0], offered=True)
    return Command("move", action, offered=False)


def _deadwood_after(view: dict[str, Any]) -> dict[str, int]:
    """Deadwood after each discard, as the service listed it in the view's hand."""
    options = (view.get("hand") or {}).get("discards") or []
    return {o["card"]: o["deadwood"] for o in options if "card" in o and "deadwood" in o}


def _knock(view: dict[str, Any], args: list[str], *, gin: bool) -> Command:
    word = "gin" if gin else "knock"
    if len(args) > 1:
        raise InputError(f"{word} takes one card, the discard: for example {word} 9s")
    after = _deadwood_after(view)
    if args:
        card = _card(args[0])
        if gin and card in after and after[card] != 0:
            # Knocking with that card is suggested only when legal_actions offer it.
            instead = f" (type knock {card.lower()})" if find_legal(view, type="knock", discard=card) else ""
            raise InputError(f"discarding {card} leaves {after[card]} deadwood: not gin{instead}")
        return _move(view, {"type": "knock", "discard": card})
    knocks = [a for a in find_legal(view, type="knock") if a.get("discard") is not None]
    if gin:
        knocks = [a for a in knocks if after.get(a["discard"]) == 0]
    if not knocks:
        if gin and find_legal(view, type="knock", discard=None):
            raise InputError("all eleven cards are in melds: type big gin")
        if gin and find_legal(view, type="knock"):
            raise InputError("you cannot go gin now: no discard leaves you without deadwood")
        raise InputError(not_on_offer({"type": "knock"}, view) or f"you cannot {word} now")
    # Without a card, discard the one the service says leaves the least deadwood.
    best = min(knocks, key=lambda a: (after.get(a["discard"], 99), a["discard"]))
    return Command("move", best, offered=True)


def action_words(action: dict[str, Any]) -> str:
    """An action in the words the prompt accepts.

    >>> action_words({"type": "knock", "discard": "9S"}), action_words({"type": "draw", "source": "discard"})
    ('knock 9S', 'pile')
    """
    kind = action.get("type")
    if kind == "draw":
        return "draw" if action.get("source") == "stock" else "pile"
    if kind == "discard":
        return f"discard {action.get('card')}"
    if kind == "knock":
        return "big gin" if action.get("discard") is None else f"knock {action['discard']}"
    if kind == "layoff":
        return "layoff"
    return str(kind)
