"""Ratings: OpenSkill's Plackett-Luce model (the ``openskill`` library), on a familiar scale.

OpenSkill's defaults (mu 25, sigma 25/3) scaled by 60: a new player is 1500 ± 500, like Glicko's. The
rating shown is ``mu`` (rounded); the leaderboard orders by the conservative ``mu - 3 sigma``, so a
player who has played a few lucky games does not top it. A rating family is a rules preset: a rated
game is played under a preset without option overrides, and rates in that preset's family.

>>> after = rate(((1500.0, 500.0), None), winner=0)
>>> after[0][0] > 1500 > after[1][0]
True
"""

from __future__ import annotations

from openskill.models import PlackettLuce

from ..shapes.playing import ShownRating

DEFAULT_MU = 1500.0
DEFAULT_SIGMA = 500.0
MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=DEFAULT_SIGMA / 2, tau=DEFAULT_SIGMA / 100)
PROVISIONAL_SIGMA = 250.0  # above this the rating is shown as provisional ("1620?")

Rating = tuple[float, float]


def rate(before: tuple[Rating | None, Rating | None], winner: int) -> tuple[Rating, Rating]:
    """Both seats' (mu, sigma) after a game ``winner`` won; None: a player's first rated game."""
    teams = [[MODEL.rating(*(r if r is not None else (DEFAULT_MU, DEFAULT_SIGMA)))] for r in before]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    (a,), (b,) = MODEL.rate(teams, ranks=ranks)
    return (a.mu, a.sigma), (b.mu, b.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating the leaderboards rank by.

    >>> ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    0.0
    """
    return mu - 3 * sigma


def shown(mu: float, sigma: float) -> ShownRating:
    """A rating as the API shows it."""
    return {
        "rating": round(mu),
        "deviation": round(sigma),
        "provisional": sigma > PROVISIONAL_SIGMA,
        "ordinal": round(ordinal(mu, sigma)),
    }
