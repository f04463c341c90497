"""The reference commands: ``gin analyze`` (the melds, deadwood and best discards of a hand, as the
service's analysis says), ``gin rules`` (the presets and every option) and ``gin bots`` (the computer
opponents, and the bot accounts online)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ginrummy_client import Client

from .context import Output
from .exits import EXIT_OK
from .people import rating_words
from .play import plain
from .screen import Screen

COMMANDS = ("analyze", "rules", "bots")
"""The commands carried out here, each by the method of its name."""


class ReferenceCommands:
    """The reference commands, as ``args`` gives them: ``client`` asks the service."""

    def __init__(self, args: argparse.Namespace, client: Client, out: Output) -> None:
        self.args = args
        self.client = client
        self.out = out
        self.screen = out.screen

    def analyze(self) -> int:
        return self.out.present(plain(self.client.service.analyze(list(self.args.cards))), render_analysis)

    def rules(self) -> int:
        rules: Any = self.client.service.rules()
        if self.out.json_mode:
            self.out.document(rules)
            return EXIT_OK
        presets = rules.get("presets") if isinstance(rules, dict) else None
        options = rules.get("options") if isinstance(rules, dict) else None
        if isinstance(presets, dict):
            self.screen.rule("Presets (gin play --rules PRESET)")
            for name, value in presets.items():
                self.screen.para(_preset_summary(value), first=f"  {name:<12} ", indent=15)
        elif isinstance(presets, list):
            self.screen.rule("Presets (gin play --rules PRESET)")
            for preset in presets:
                if isinstance(preset, dict):
                    label = preset.get("name", "?")
                    self.screen.para(str(preset.get("description", "")), first=f"  {label:<12} ", indent=15)
                else:
                    self.screen.line(f"  {preset}")
        if options:
            self.screen.rule("Options (gin play -o KEY=VALUE)")
            items = options.items() if isinstance(options, dict) else ((o.get("name"), o) for o in options)
            for name, doc in items:
                doc = doc if isinstance(doc, dict) else {"description": doc}
                choices = doc.get("choices")
                default = json.dumps(doc.get("default"))
                extra = f" ({' | '.join(map(str, choices))})" if choices else ""
                self.screen.line((f"  {name}", "bold"), f" = {default}{extra}")
                if doc.get("description"):
                    self.screen.para(str(doc["description"]), first="      ", indent=6)
        return EXIT_OK

    def bots(self) -> int:
        bots: Any = self.client.service.bots()
        if self.out.json_mode:
            self.out.document(bots)
            return EXIT_OK
        entries = bots.get("bots", bots) if isinstance(bots, dict) else bots
        self.screen.rule("Bots (gin play --bot NAME · gin challenge bot-NAME)")
        for bot in entries or []:
            if isinstance(bot, dict):
                level = f" (level {bot['level']})" if bot.get("level") is not None else ""
                self.screen.line((f"  {bot.get('name', '?')}", "bold"), level)
                self.screen.para(str(bot.get("description", "")), first="      ", indent=6)
            else:
                self.screen.line(f"  {bot}")
        accounts = bots.get("accounts") if isinstance(bots, dict) else None
        if accounts:  # the bot accounts whose program is running now: they answer challenges
            self.screen.rule("Bot accounts online (gin challenge NAME)")
            for account in accounts:
                ratings = account.get("ratings") or {}
                rated = " · ".join(f"{family} {rating_words(r)}" for family, r in ratings.items())
                self.screen.line((f"  {account.get('name', '?')}", "bold"), f"  {rated or 'unrated'}")
        return EXIT_OK


def render_analysis(screen: Screen, analysis: dict[str, Any]) -> None:
    """``gin analyze``: the hand's melds and deadwood, the deadwood after each discard, and whether it may
    knock or go gin."""
    screen.line("Cards: ", *screen.cards(analysis.get("cards") or []))
    melds = analysis.get("melds") or []
    dead = analysis.get("deadwood_cards") or []
    screen.line("Melds: ", *(screen.melds(melds) if melds else ["none"]))
    screen.line(
        f"Deadwood: {analysis.get('deadwood', '?')}",
        " (" if dead else "",
        *screen.cards(dead),
        ")" if dead else "",
    )
    count = analysis.get("arrangements")
    if isinstance(count, int) and count > 1:
        screen.line(f"({count} arrangements leave this deadwood)")
    discards = analysis.get("discards") or []
    if discards:
        screen.line("Deadwood after discarding:")
        for row in range(0, len(discards), 6):
            parts: list[Any] = [" "]
            for option in discards[row : row + 6]:
                card = screen.card(option["card"])
                pad = " " * (3 - len(card if isinstance(card, str) else card[0]))  # 10♥ is wider
                parts += ["  ", card, f"{pad} {option['deadwood']:>2}"]
            screen.line(*parts)
    verdicts = [
        f"{label}: {'yes' if analysis[key] else 'no'}"
        for key, label in (("can_knock", "knock"), ("can_gin", "gin"), ("big_gin", "big gin"))
        if analysis.get(key) is not None  # no verdict on fewer than 10 cards
    ]
    if verdicts:
        screen.line(" · ".join(verdicts))


def _preset_summary(value: Any) -> str:
    if isinstance(value, dict):
        if "description" in value:
            return str(value["description"])
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)
