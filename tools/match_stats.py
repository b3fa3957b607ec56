"""The score of a match and its Elo difference with a 95% interval, shared by the match tools."""

import math


def score_interval(wins, draws, losses):
    """Score, Elo difference and its 95% interval (None where unbounded)."""
    n = wins + draws + losses
    if n == 0:
        return 0.5, 0.0, None, None
    s = (wins + draws / 2) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    z = 1.96
    centre = (s + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(var / n + z * z / (4 * n * n)) / (1 + z * z / n)

    def elo(x):
        return -400 * math.log10(1 / x - 1) if 0 < x < 1 else None

    return s, elo(s), elo(centre - half), elo(centre + half)
