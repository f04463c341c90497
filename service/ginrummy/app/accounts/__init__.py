"""Accounts: a player with a password — signing up, in and out, sessions, the password, personal API
tokens, bot accounts, who am I and the account's matches in play (:mod:`.account`, hashing by
:mod:`.passwords`) — and the account stream (:mod:`.stream`), which starts with the account's matches in
play and open challenges. The highest context: it imports every other."""

from .account import Accounts
from .stream import AccountStreams

__all__ = ["AccountStreams", "Accounts"]
