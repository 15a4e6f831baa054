"""Are You the Traitor? ladder: random, then a rule-based player that reads only its own seat's knowledge.

Lv1: Evil never shouts Stop (an unfinished round is Evil's), and the Traitor passes as a guard; the Good Wizard and
the Guard wait for their last talking turn, then point at a player who never claimed to be on the Good team.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.traitor import EVIL, LAPS, PLAYERS, AreYouTheTraitor, TraitorState

CLAIM = "I am on the Good team."


def _rule_based(game: AreYouTheTraitor, state: TraitorState, rng: random.Random) -> tuple:
    """Evil talks like Good; Good points on its last turn, preferring players who never vouched for themselves."""
    me = game.current_player(state)
    assert me is not None  # bots are asked only while the game runs
    role = state.roles[me]
    last_turn = state.turn >= (LAPS - 1) * PLAYERS
    if role in EVIL or role == "key holder" or not last_turn:
        return ("say", CLAIM)
    vouched = {e[2] for e in state.events if e[0] == "say" and e[1] == state.round and e[4] == CLAIM}
    others = [s for s in range(PLAYERS) if s != me]
    return ("stop", rng.choice([s for s in others if s not in vouched] or others))


LADDER = [
    Bot("are-you-the-traitor", 0, "uniform random legal action (templated sentences, random Stop)", random_chooser),
    Bot(
        "are-you-the-traitor",
        1,
        "rule-based: Evil never stops; the Good Wizard and Guard point on their last turn",
        _rule_based,
    ),
]
