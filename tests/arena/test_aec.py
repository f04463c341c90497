"""The PettingZoo AEC environment over the engine passes PettingZoo's own api_test, and random agents that
follow the action mask play hands and whole matches to their end, exactly by the rules."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from ginrummy.arena.aec import ACTIONS, AGENTS, BIG_GIN, KNOCK, action_index, encode, env, raw_env
from ginrummy.engine import Rules
from ginrummy.engine.cards import parse_card
from pettingzoo.test import api_test


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"episode": "match", "rules": Rules.from_options("oklahoma", target=30)}],
    ids=["hand", "match"],
)
def test_pettingzoos_api_test_passes(kwargs: dict[str, object]) -> None:
    api_test(env(**kwargs), num_cycles=300)


def play(environment: raw_env, rng: np.random.Generator) -> tuple[dict[str, float], int]:
    """An episode of agents picking at random among the masked actions — a knock whenever one is allowed,
    as the README's example does, so that hands end — : the rewards and the steps."""
    totals = dict.fromkeys(AGENTS, 0.0)
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        legal = {action_index(a) for a in info["view"]["legal_actions"]} - {None}
        assert set(np.flatnonzero(mask)) == legal  # the mask is the view's legal actions
        planes = observation["observation"]
        hand = {parse_card(card) for card in info["view"]["hand"]["cards"]}
        assert set(np.flatnonzero(planes[0])) == hand
        # Hand, top, rest of the pile, the opponent's known cards and the unseen ones: each card in one of them.
        assert (planes[[0, 1, 2, 3, 5]].sum(axis=0) == 1).all()
        assert not (planes[4] & planes[3]).any()  # what it turned down is not what it is known to hold
        knocks = np.flatnonzero(mask[KNOCK : BIG_GIN + 1]) + KNOCK
        environment.step(int(rng.choice(knocks if len(knocks) else np.flatnonzero(mask))))
        steps += 1
    return totals, steps


def test_random_masked_agents_play_hands_and_matches_to_the_end() -> None:
    rng = np.random.default_rng(7)
    hands = raw_env()
    for seed in range(3):
        hands.reset(seed=seed)
        totals, steps = play(hands, rng)
        assert steps > 2 and totals["player_0"] == -totals["player_1"]  # zero-sum hand points
        game = hands.game
        assert game is not None and game.hand_over and game.hand_number == 1
        last = game.summaries[-1]
        assert abs(totals["player_0"]) == last.points
    match = raw_env(rules=Rules(), episode="match")
    match.reset(seed=3)
    totals, _ = play(match, rng)
    assert match.game is not None and match.game.match_over and match.game.hand_number > 1
    assert sorted(totals.values()) == [-1.0, 1.0] and totals[AGENTS[match.game.match_winner or 0]] == 1.0


def test_the_same_seed_deals_the_same_hands() -> None:
    first, second = raw_env(), raw_env()
    first.reset(seed=11)
    second.reset(seed=11)
    agent = first.agent_selection
    assert agent == second.agent_selection
    assert (first.observe(agent)["observation"] == second.observe(agent)["observation"]).all()
    assert first.infos[agent]["view"] == second.infos[agent]["view"]


def test_illegal_actions_are_refused_or_end_the_episode() -> None:
    bare = raw_env()
    bare.reset(seed=1)
    mask = bare.observe(bare.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        bare.step(illegal)
    wrapped = env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(illegal)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_the_encoding_reads_the_view() -> None:
    environment = raw_env()
    environment.reset(seed=2)
    view = environment.infos[environment.agent_selection]["view"]
    planes = encode(view)
    assert planes.shape == (6, 52) and planes.dtype == np.int8
    assert planes[1].sum() == 1 and np.flatnonzero(planes[1])[0] == parse_card(view["discard_pile"][-1])
    assert planes[0].sum() == 10 and planes[5].sum() == 52 - 10 - 1  # all but its hand and the upcard unseen
    assert ACTIONS == 109 and action_index({"type": "knock", "discard": None}) == 107
    assert action_index({"type": "layoff", "best": True}) == 108 and action_index({"type": "resign"}) is None


def test_without_the_extra_the_import_says_which_extra_to_install() -> None:
    hide = "import sys; sys.modules['gymnasium'] = None; import ginrummy.arena.aec"  # as if not installed
    ran = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1
    last = ran.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: ginrummy.arena.aec needs gymnasium")
    assert "pip install 'ginrummy-engine[pettingzoo]'" in last
