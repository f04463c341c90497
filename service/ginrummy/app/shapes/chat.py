"""The JSON of table chat, typed: a line (also a line of a game's stream, with ``?chat=true``), a page of
lines, the preset phrases, a table mute (:mod:`ginrummy.app.playing.chat`)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from ginrummy.engine.shapes import Schema, Seat

Room = Annotated[
    Literal["player", "spectator"],
    "The players' room (the two seats) or the spectators' room (anyone watching; the players too once the "
    "match is over)",
]
# The preset phrases: what a player without an account may say, and one click for anyone (their ids are
# the contract's; their text is what the line says).
PRESETS: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "have_fun": "Have fun!",
    "thanks": "Thanks!",
    "good_game": "Good game!",
    "well_played": "Well played!",
    "nice_hand": "Nice hand!",
    "oops": "Oops!",
    "bye": "Bye!",
    "thumbs_up": "👍",
    "smile": "🙂",
    "wow": "😮",
    "sad": "😢",
    "clap": "👏",
}
PresetId = Annotated[str, Schema(enum=[*PRESETS])]


class ChatLine(TypedDict):
    """A line said in a game's chat. Show its text as text: never as markup, links not made clickable."""

    type: Literal["chatLine"]
    n: Annotated[int, "The line's number in its game (both rooms), from 1: pass the last as ?after="]
    room: Room
    author: Annotated[str, "Who said it: a player's name, or an anonymous seat's shown name"]
    seat: Annotated[Seat | None, "The author's seat (players' room); null in the spectators' room"]
    bot: Annotated[bool, "Said by a bot account"]
    preset: Annotated[PresetId | None, "The preset phrase said (its text is text), or null: free text"]
    text: Annotated[str, "What was said (at most 140 characters, control characters dropped)"]
    at: Annotated[int, "When, in Unix milliseconds"]


class ChatPage(TypedDict):
    """The lines of a game's chat the caller reads, oldest first (a long poll's answer too)."""

    lines: list[ChatLine]
    last: Annotated[int, "The last line's number given (or ?after= when none): pass it as ?after="]
    rooms: Annotated[list[Room], "The rooms the caller reads in this game now"]
    muted: Annotated[bool, "The caller's seat muted the other seat at this table"]


class ChatPreset(TypedDict):
    id: PresetId
    text: str


class ChatPresets(TypedDict):
    """The preset phrases (what a player without an account may say; one click for anyone)."""

    presets: list[ChatPreset]


class TableMute(TypedDict):
    """A seat muted (or heard again) the other seat's lines at this table."""

    game_id: str
    muted: bool
    player: Annotated[str, "The other seat's player"]
