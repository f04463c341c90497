"""The commands of challenges: ``gin challenge NAME`` (a player, a bot account or a house bot; the game
played here once accepted) and ``gin challenges`` (the account's open challenges; ``accept``, ``decline``
or ``cancel`` one). The wait for an answer and the table are :mod:`challenges`'."""

from __future__ import annotations

from ginrummy_client import Challenge, ChallengeClosed

from .challenges import not_accepted, render_challenges, terms, until, wait_for_answer
from .context import PlayerCommands
from .exits import EXIT_NOT_ACCEPTED, EXIT_OK
from .people import rule_options
from .play import plain
from .seats import leaving_withdraws

COMMANDS = ("challenge", "challenges")
"""The commands carried out here, each by the method of its name."""


class ChallengeCommands(PlayerCommands):
    """The commands of challenges, as ``args`` gives them: ``connection`` sends and answers them, a game
    accepted is played on the player's ``seats``."""

    def challenge(self) -> int:
        options = rule_options(self.args.option)
        rules = {"preset": self.args.rules.strip().lower(), **({"options": options} if options else {})}
        # Signed in, the answer comes on the account stream: its mark, taken before the challenge is
        # sent, so that no answer can come before gin waits for it.
        mark = self.client.account.events()["last_id"] if self.connection.login is not None else None
        made = self.client.challenges.create(
            self.args.opponent,
            rules=rules,
            clock=self.args.clock,
            rated=self.args.rated,
            name=self.args.name or None,
        )
        game_id = made.game_id or self._wait_for_answer(made, mark)  # a house bot's game is made at once
        if game_id is None:
            return EXIT_NOT_ACCEPTED
        # The challenge's token is the challenger's seat token: saved with the game (gin resume).
        return self.seats.matched(self.client.games.get(game_id, made.token), name=self.args.name or "")

    def _wait_for_answer(self, made: Challenge, mark: str | None) -> str | None:
        """Wait for the answer to a challenge sent to a person; Ctrl-C (or a closed terminal) withdraws
        it. The game's id once accepted; None, and why said, when declined, expired or withdrawn."""
        info = made.info
        who = str((info.get("opponent") or {}).get("name") or self.args.opponent)
        with leaving_withdraws():
            try:  # from the first line shown: an interrupt right after it still withdraws the challenge
                if self.out.json_mode:
                    self.out.event({"type": "challenged", "challenge": info})
                else:
                    left = until(info.get("expires"))
                    expires = f"; it expires in {left}" if left not in ("", "now") else ""
                    self.screen.line(f"Challenge {made.id} sent to {who} ({terms(info)}){expires}.")
                    waiting = f"Waiting for {who} to answer… (Ctrl-C withdraws the challenge)"
                    self.screen.line((waiting, "dim"))
                info = wait_for_answer(self.client, made, mark)
            except KeyboardInterrupt:
                self._withdraw(made, who)
                raise
        if info.get("status") == "accepted" and info.get("game_id"):
            return str(info["game_id"])
        if self.out.json_mode:
            self.out.event({"type": info.get("status"), "challenge": info})
        else:
            self.screen.error(not_accepted(info))
        return None

    def _withdraw(self, made: Challenge, who: str) -> None:
        """Cancel a challenge the player no longer waits for, and say so; should it have been accepted
        at that very moment, the game is saved (``gin resume`` plays it)."""
        try:
            self.client.challenges.cancel(made.id, token=made.token)
        except ChallengeClosed:
            info = self.client.challenges.get(made.id, token=made.token)
            game_id = info.get("game_id")
            if info.get("status") != "accepted" or not game_id:
                self.screen.error(not_accepted(info))
                return
            game = self.client.games.get(game_id, made.token)
            said = f"{who} accepted the challenge as you left: game {game_id}."
            self.seats.take_seat(game, "matched", said, name=self.args.name or "")
        else:
            self.screen.error(f"your challenge to {who} is withdrawn")

    def challenges(self) -> int:
        self.connection.need_login("gin challenges")
        action = self.args.challenge_command
        if action == "accept":
            return self.seats.matched(self.client.challenges.accept(self.args.challenge_id))
        if action == "decline":
            reason = self.args.reason
            info = plain(self.client.challenges.decline(self.args.challenge_id, reason))
            who = (info.get("challenger") or {}).get("name") or "the challenger"
            said = f"Challenge {info.get('id')} from {who} declined ({reason}): {who} is told."
        elif action == "cancel":
            info = plain(self.client.challenges.cancel(self.args.challenge_id))
            who = (info.get("opponent") or {}).get("name") or "the opponent"
            said = f"Challenge {info.get('id')} to {who} withdrawn: {who} is told."
        else:
            me = self.connection.my_name() or "?"
            listing = plain(self.client.challenges.list())
            return self.out.present(listing, lambda screen, data: render_challenges(screen, me, data))
        if self.out.json_mode:
            self.out.document(info)
        else:
            self.screen.line(said)
        return EXIT_OK
