"""How one match of any size becomes pairwise results for Bradley–Terry and Elo (docs/metrics.md, "Multi-seat").

Every agent meets every agent of each other side once; an agent holding several seats of one side is one
agent; an agent on two sides (a bot filling seats on both) is not paired with itself; the pairs of one
match share a weight of 1, so a match counts as one match whatever its size. Pure Python.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    """One pairwise result of a match: a's score against b (1, ½, 0, or a fraction) and the pair's weight."""

    a: Hashable
    b: Hashable
    score_a: float
    weight: float


def match_pairs(agents: Sequence[Hashable], sides: Sequence[int], scores: Sequence[float]) -> list[Pair]:
    """The weighted pairwise results of one match: `agents`, `sides` and `scores` are per seat.

    With two sides a's score is its side's score (complementary in every game); with more sides
    (free-for-all) a pair's score is 1, ½ or 0 as a's seat scored more, the same or less.
    """
    if not len(agents) == len(sides) == len(scores):
        raise ValueError("agents, sides and scores need one entry per seat")
    side_agents: dict[int, dict[Hashable, float]] = {}
    for agent, side, score in zip(agents, sides, scores, strict=True):
        side_agents.setdefault(side, {}).setdefault(agent, float(score))
    two_sides = len(side_agents) == 2
    raw = []
    for members_a, members_b in itertools.combinations([side_agents[side] for side in sorted(side_agents)], 2):
        for (a, score_a), (b, score_b) in itertools.product(members_a.items(), members_b.items()):
            if a == b:
                continue  # self-play says nothing about strength
            if two_sides:
                raw.append((a, b, score_a))
            else:
                raw.append((a, b, 1.0 if score_a > score_b else 0.5 if score_a == score_b else 0.0))
    return [Pair(a, b, score, 1.0 / len(raw)) for a, b, score in raw]
