"""A PettingZoo AEC environment over the engine, for training agents (the ``pettingzoo`` extra:
``pip install 'ginrummy-engine[pettingzoo]'``).

The game is this engine's, exact to the rule book and its options (``rules``: a preset's name or a
:class:`~ginrummy.engine.Rules`); what an agent sees is its seat view, nothing more. ``env()`` is the
environment wrapped as PettingZoo's classic games are (an illegal action ends the episode with a reward of
-1 for its agent; actions out of range are refused); ``raw_env`` is the bare one, which raises
``ValueError`` for an illegal action.

Agents ``player_0`` and ``player_1`` are seats 0 and 1; the first dealer is cut for and every deal
shuffled with the ``random.Random`` of ``reset(seed=…)`` (a reset without a seed goes on with it). An
episode is one hand (``episode="hand"``, the default; rewards: the hand's points, plus for the winner,
minus for the loser, times ``reward_scale``) or a whole match (``"match"``: the environment deals the
hands; +1 for the match winner and -1 for the loser at the end). The same seat may act twice in a row
(a draw, then a discard).

**Actions** — ``Discrete(109)``, each standing for one listed legal action:

- 0 draw from the stock; 1 take the discard (the upcard, or the top of the pile); 2 pass;
- 3 + c: discard card c; 55 + c: knock discarding card c (the engine lays down a minimum-deadwood
  arrangement; a knock with no deadwood is gin); 107: big gin; 108: lay off (the engine's best lay-off).

A card ``c`` is the engine's int: ``suit * 13 + rank``, suits clubs, diamonds, hearts, spades, rank 0 the
ace (``AC`` = 0, ``KS`` = 51). The observation's ``action_mask`` marks the legal ones (all zeros for the
agent not to move).

**Observation** — ``observation``: ``int8`` planes of shape ``(6, 52)``, one bit a card, all read from
the seat's view: 0 its hand; 1 the top card of the discard pile; 2 the rest of the pile; 3 the opponent's
cards it knows (taken from the pile and not thrown since, or laid down after a knock); 4 the cards the
opponent turned down (discarded, or passed over when they were on top: most of them are in the pile
too); 5 the cards it has not seen (the stock and the opponent's hidden cards). Planes 0, 1, 2, 3 and 5
hold each card exactly once. ``infos[agent]["view"]`` is the seat view itself
(``ginrummy.engine.seat_view``: scores, knock limit, history, the result of a finished hand, …).

>>> e = env()
>>> e.reset(seed=1)
>>> observation, reward, terminated, truncated, info = e.last()
>>> mask = observation["action_mask"]
>>> info["view"]["phase"], observation["observation"].shape, [int(i) for i in mask.nonzero()[0]]
('upcard_nondealer', (6, 52), [1, 2])
>>> e.step(PASS)
"""

from __future__ import annotations

import random
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from numpy.typing import NDArray
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:  # the extra is not installed: say which one
    raise ModuleNotFoundError(
        f"ginrummy.arena.aec needs {missing.name}, which the pettingzoo extra installs: "
        "pip install 'ginrummy-engine[pettingzoo]' (from a checkout: pip install './service[pettingzoo]')",
        name=missing.name,
    ) from None

from ginrummy.bots.analysis import read_view
from ginrummy.engine import Game, Rules, seat_view
from ginrummy.engine.cards import parse_card

AGENTS = ("player_0", "player_1")
DRAW_STOCK, DRAW_DISCARD, PASS, DISCARD, KNOCK, BIG_GIN, LAYOFF = 0, 1, 2, 3, 55, 107, 108
ACTIONS = 109
PLANES = 6
DEAL = {"type": "deal"}


def action_index(action: dict[str, Any]) -> int | None:
    """The index of a listed legal action (None for those the environment does not offer: resign, abort,
    a deal, an explicit lay-off).

    >>> action_index({"type": "discard", "card": "AC"}), action_index({"type": "knock", "discard": "KS"})
    (3, 106)
    """
    kind = action["type"]
    if kind == "draw":
        return DRAW_STOCK if action["source"] == "stock" else DRAW_DISCARD
    if kind == "pass":
        return PASS
    if kind == "discard":
        return DISCARD + parse_card(action["card"])
    if kind == "knock" and "melds" not in action:
        return BIG_GIN if action["discard"] is None else KNOCK + parse_card(action["discard"])
    if kind == "layoff" and action.get("best"):
        return LAYOFF
    return None


def encode(view: dict[str, Any]) -> NDArray[np.int8]:
    """The observation planes of a seat view (see the module's docstring)."""
    know = read_view(view)
    pile = know.discard_pile
    top = 1 << pile[-1] if pile else 0
    masks = (
        know.hand,
        top,
        sum(1 << card for card in pile) & ~top,
        know.opp_known,
        (know.opp_discarded | know.opp_passed) & ~know.opp_known,
        know.unseen,
    )
    bits = np.array([[mask >> card & 1 for card in range(52)] for mask in masks], dtype=np.int8)
    return bits


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for classic games."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 — PettingZoo's name for the unwrapped environment
    metadata = {"render_modes": ["human", "ansi"], "name": "ginrummy_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules | str = "standard",
        episode: str = "hand",
        reward_scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if episode not in ("hand", "match"):
            raise ValueError(f"an episode is a 'hand' or a 'match', not {episode!r}")
        self.rules = Rules.from_options(rules) if isinstance(rules, str) else rules
        self.episode = episode
        self.reward_scale = reward_scale
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in AGENTS}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=(PLANES, 52), dtype=np.int8),
                    "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self._rng = random.Random()
        self.game: Game | None = None
        self._legal: dict[int, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            for number, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + number)
        self.game = Game.new(self.rules, self._rng)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move()

    def observe(self, agent: str) -> dict[str, NDArray[np.int8]]:
        view = self.infos[agent]["view"] if agent in self.infos else self._view(agent)
        mask = np.zeros(ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask[list(self._legal)] = 1
        return {"observation": encode(view), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        chosen = self._legal.get(int(action))
        if chosen is None:
            raise ValueError(f"action {action} is not legal now; legal: {sorted(self._legal)}")
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        game.apply(AGENTS.index(agent), chosen)
        if game.hand_over:
            self._hand_over(game)
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _hand_over(self, game: Game) -> None:
        if self.episode == "hand":
            last = (
                game.summaries[-1]
                if game.summaries and game.summaries[-1].number == game.hand_number
                else None
            )
            if last is not None and last.winner is not None:
                self.rewards[AGENTS[last.winner]] = last.points * self.reward_scale
                self.rewards[AGENTS[1 - last.winner]] = -last.points * self.reward_scale
            self.terminations = dict.fromkeys(self.agents, True)
        elif game.match_over:
            if game.match_winner is not None:
                self.rewards[AGENTS[game.match_winner]] = 1.0
                self.rewards[AGENTS[1 - game.match_winner]] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            game.apply(0, DEAL, rng=self._rng)

    def _view(self, agent: str) -> dict[str, Any]:
        assert self.game is not None
        return seat_view(self.game, AGENTS.index(agent))

    def _after_move(self) -> None:
        """The views, the legal actions of the seat to move, and whose turn it is."""
        game = self.game
        assert game is not None
        for agent in self.agents:
            self.infos[agent] = {"view": self._view(agent)}
        seat = game.to_act
        if seat is None:  # the episode is over: the agents are stepped out in turn
            self._legal = {}
            self.agent_selection = self.agents[0]
            return
        agent = AGENTS[seat]
        self.agent_selection = agent
        self._legal = {}
        for action in self.infos[agent]["view"]["legal_actions"]:
            index = action_index(action)
            if index is not None:
                self._legal.setdefault(index, action)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (human or ansi)")
            return None
        assert self.game is not None
        view = seat_view(self.game, None)
        players = "  ".join(
            f"{AGENTS[p['seat']]}: {p['card_count']} cards, known {' '.join(p['known_cards']) or '-'}"
            for p in view["players"]
        )
        text = (
            f"hand {view['hand_number']} {view['phase']}, to move: {view['turn']}; "
            f"pile {' '.join(view['discard_pile'][-5:]) or '-'}; stock {view['stock_size']}\n{players}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
