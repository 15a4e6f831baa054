"""Are You the Traitor? ladder: random, then rule-based players that read only their own seat's knowledge.

Lv1: Evil never shouts Stop (an unfinished round is Evil's) and everyone vouches for the Good team; the Good Wizard
and the Guard wait for their last talking turn, then point at random. Lv2 adds a team code (the Traitor
names the Key Holder as "I trust P<n>.", the Evil Wizard points there; the Good Wizard says so, the Key Holder gives
it the key) and remembers who past Stops showed Good.
"""

from __future__ import annotations

import random
import re

from games.bots.base import Bot, random_chooser
from games.traitor import EVIL, LAPS, NAMES, PLAYERS, AreYouTheTraitor, TraitorState, seat_of

CLAIM = "I am on the Good team."
CODE_RATE = 0.2  # how often Lv2's speakers give their team's code: always would make Lv2 beat Lv1 in every game
WIZARD = "I can destroy the key."
TRUST = re.compile(r"I trust (P\d)\.")
REVEALED = re.compile(r"\|(P\d) was (.+)$")


def revealed_good(state: TraitorState) -> set[int]:
    """Seats a past round's Stop showed to be Good (teams last the whole game)."""
    found = (REVEALED.search(e[4]) for e in state.events if e[0] == "result")
    return {seat_of(m[1]) for m in found if m and m[2] not in EVIL} - {None}


def _rule_based(game: AreYouTheTraitor, state: TraitorState, rng: random.Random) -> tuple:
    """Evil talks like Good; Good points on its last turn at a random other player."""
    return _patient(game, state, rng, remember=False)


def _remembering(game: AreYouTheTraitor, state: TraitorState, rng: random.Random) -> tuple:
    """As Lv1, with the Evil team's code and Good's memory of who past Stops showed Good."""
    return _patient(game, state, rng, remember=True)


def _patient(game: AreYouTheTraitor, state: TraitorState, rng: random.Random, *, remember: bool) -> tuple:
    me = game.current_player(state)
    assert me is not None  # bots are asked only while the game runs
    role = state.roles[me]
    last_turn = state.turn >= (LAPS - 1) * PLAYERS
    if remember and role == "traitor" and rng.random() < CODE_RATE:
        return ("say", f"I trust {NAMES[state.roles.index('key holder')]}.")
    signal = [e[4] for e in state.events if e[0] == "say" and e[1] == state.round and TRUST.fullmatch(e[4])]
    if remember and role == "evil wizard" and signal and seat_of(TRUST.fullmatch(signal[0])[1]) != me:
        return ("stop", seat_of(TRUST.fullmatch(signal[0])[1]))
    if remember and role == "good wizard" and rng.random() < CODE_RATE:
        return ("say", WIZARD)
    claimants = [e[2] for e in state.events if e[0] == "say" and e[1] == state.round and e[4] == WIZARD]
    if remember and role == "key holder" and claimants:
        return ("stop", claimants[0])
    if role in EVIL or role == "key holder" or not last_turn:
        return ("say", CLAIM)
    others = [s for s in range(PLAYERS) if s != me]
    shown_good = revealed_good(state) if remember else set()
    return ("stop", rng.choice([s for s in others if s not in shown_good] or others))


LADDER = [
    Bot("are-you-the-traitor", 0, "uniform random legal action (templated sentences, random Stop)", random_chooser),
    Bot(
        "are-you-the-traitor",
        1,
        "rule-based: Evil never stops; the Good Wizard and Guard point at random on their last turn",
        _rule_based,
    ),
    Bot(
        "are-you-the-traitor",
        2,
        "as Lv1, plus team codes: the Traitor names the Key Holder for the Evil Wizard, the Good Wizard "
        "names itself for the Key Holder; Good never points at a player a past Stop showed Good",
        _remembering,
    ),
]
