"""Werewolf ladder: random, a rule-based player on most of its actions, then the rule-based player throughout.

Lv1 reads only what its seat may know (`Werewolf.known_roles` and the public debate): seer claims
("I am the seer. P3 is a werewolf."), accusations ("I suspect P5.") and the votes, and speaks in the same
templated sentences, so Lv1 players understand one another.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from games.bots.base import Bot, random_chooser
from games.werewolf import NAMES, Werewolf, WerewolfState, seat_of

CLAIM = re.compile(r"\bI am the seer\b", re.IGNORECASE)
IS_WOLF = re.compile(r"\b(P\d) is a werewolf\b", re.IGNORECASE)
NOT_WOLF = re.compile(r"\b(P\d) is not a werewolf\b", re.IGNORECASE)
SUSPECT = re.compile(r"\bI suspect (P\d)\b", re.IGNORECASE)


def _said(state: WerewolfState) -> list[tuple[int, str]]:
    return [(e[2], e[4]) for e in state.events if e[0] == "say"]


def _seer_claimants(state: WerewolfState) -> list[int]:
    return [actor for actor, text in _said(state) if CLAIM.search(text)]


def suspicion(game: Werewolf, state: WerewolfState, me: int) -> Counter:
    """Public evidence against each living player other than `me`: seer claims weigh most, then accusations."""
    score: Counter = Counter()
    claimants = set(_seer_claimants(state))
    for actor, text in _said(state):
        weight = 5 if actor in claimants and len(claimants) == 1 else 1
        for name in IS_WOLF.findall(text):
            score[seat_of(name)] += weight
        for name in NOT_WOLF.findall(text):
            score[seat_of(name)] -= weight
        for name in SUSPECT.findall(text):
            score[seat_of(name)] += 1
    for event in state.events:  # players who voted for a cleared player look suspicious
        if event[0] == "vote" and event[3] >= 0 and score[event[3]] < 0:
            score[event[2]] += 1
    return Counter({s: v for s, v in score.items() if s is not None and s != me and state.alive[s]})


def _most(candidates: list[int], score: Counter) -> int | None:
    """The most suspected candidate; ties go to the lowest seat, so players who agree vote alike."""
    if not candidates:
        return None
    return max(candidates, key=lambda c: (score.get(c, 0), -c))


def _rule_based(game: Werewolf, state: WerewolfState, rng: random.Random) -> tuple:
    """Night: wolves hunt the seer claimant, the seer inspects unknowns, the doctor guards the claimant.
    Day: say the strongest evidence; vote for the most suspected player, ties to the lowest seat."""
    me = game.current_player(state)
    role = state.roles[me]
    known = game.known_roles(state, me, reveal=False)
    score = suspicion(game, state, me)
    targets = game.targets(state, me)
    claimants = [s for s in _seer_claimants(state) if state.alive[s]]
    if state.phase == "night":
        if role == "werewolf":
            partner_pick = [e[3] for e in state.events if e[0] == "kill" and e[1] == state.round]
            if partner_pick and partner_pick[-1] in targets:
                return ("kill", partner_pick[-1])
            hunted = [s for s in claimants if s in targets]
            return ("kill", hunted[0] if hunted else rng.choice(targets))
        if role == "seer":
            unknown = [s for s in targets if s not in known]
            return ("inspect", rng.choice(unknown or targets))
        guarded = [s for s in claimants if s in targets and s != me]
        return ("protect", guarded[0] if guarded else me)
    if state.phase == "debate":
        if role == "seer":
            wolves = [s for s, r in known.items() if r == "werewolf" and state.alive[s]]
            if wolves:
                return ("say", f"I am the seer. {NAMES[wolves[0]]} is a werewolf.")
            cleared = [s for s, r in known.items() if r == "not a werewolf" and s != me]
            if cleared:
                return ("say", "I am the seer. " + " ".join(f"{NAMES[s]} is not a werewolf." for s in cleared))
        pool = [s for s in targets if known.get(s) != "werewolf"] if role == "werewolf" else targets
        pool = [s for s in pool if known.get(s) != "not a werewolf"] or pool
        if role == "werewolf" and claimants:
            return ("say", f"I suspect {NAMES[claimants[0]]}. A seer claim is easy to fake.")
        suspect = _most(pool, score)
        if suspect is None:
            return ("say", "I am a villager. I have no evidence yet.")
        return ("say", f"I suspect {NAMES[suspect]}.")
    # the vote
    if role == "seer":
        wolves = [s for s in targets if known.get(s) == "werewolf"]
        if wolves:
            return ("vote", wolves[0])
    if role == "werewolf":
        pool = [s for s in targets if known.get(s) != "werewolf"]
        return ("vote", _most(pool, score))
    # Without evidence a villager still votes (for the lowest uncleared seat): a day without a removal
    # only helps the werewolves, who remove someone every night.
    pool = [s for s in targets if known.get(s) != "not a werewolf"] or targets
    return ("vote", _most(pool, score))


#: Lv1's share of rule-based actions, tuned so both steps of the ladder are near 70% (docs/ladders.md;
#: 50% made Lv1 beat Lv0 in only 62% of games).
RULED_SHARE = 0.7


def _partly_ruled(game: Werewolf, state: WerewolfState, rng: random.Random) -> tuple:
    """The rule-based action on RULED_SHARE of actions, a uniformly random one on the rest."""
    if rng.random() < RULED_SHARE:
        return _rule_based(game, state, rng)
    return random_chooser(game, state, rng)


LADDER = [
    Bot("werewolf", 0, "uniform random legal action (random targets, templated sentences)", random_chooser),
    Bot("werewolf", 1, f"Lv2's rule-based action on {RULED_SHARE:.0%} of actions, a random one else", _partly_ruled),
    Bot("werewolf", 2, "rule-based: seer claims, accusations and votes as evidence; templated speech", _rule_based),
]
