"""Werewolf ladder: random, a rule-based player scoring suspicion, then a player inferring the likeliest wolves.

Lv1 and Lv2 read only what their seat may know (`Werewolf.known_roles`, the public debate and the tallied
votes): seer claims ("I am the seer. P3 is a werewolf."), accusations ("I suspect P5.") and the votes, and
speak in the same templated sentences, so bots understand one another.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations

from games.bots.base import Bot, random_chooser
from games.werewolf import NAMES, PLAYERS, Werewolf, WerewolfState, seat_of

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
    for event in state.events:  # players who voted for a cleared player look suspicious (once the votes are tallied)
        if event[0] == "vote" and event[1] < state.round and event[3] >= 0 and score[event[3]] < 0:
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


# -- Lv2: the inference player ------------------------------------------------------------------

#: Likelihood factors for one possible pair of werewolves, from how each role plays (why: villagers never
#: claim the seer and the seer tells the truth; wolves rarely accuse, vote for or bus their partner).
LIE = 0.02
FAKE_CLAIM = 0.1
PARTNER_ACCUSED = 0.3
SEER_ACCUSED_BY_VILLAGER = 0.3


def _claims(state: WerewolfState) -> dict[int, list[tuple[int, bool]]]:
    """Each seer claimant's statements: (seat, is a werewolf), in the order said."""
    claims: dict[int, list[tuple[int, bool]]] = {}
    for actor, text in _said(state):
        if CLAIM.search(text):
            said = claims.setdefault(actor, [])
            said += [(s, True) for s in map(seat_of, IS_WOLF.findall(text)) if s is not None]
            said += [(s, False) for s in map(seat_of, NOT_WOLF.findall(text)) if s is not None]
    return claims


def wolf_odds(game: Werewolf, state: WerewolfState, me: int | None) -> dict[int, float]:
    """Each seat's probability of being a werewolf, weighing every possible pair of wolves by the public record
    and what `me` knows (None: the public record alone)."""
    known = game.known_roles(state, me, reveal=False) if me is not None else {}
    night_victims = {e[3] for e in state.events if e[0] == "dawn" and e[3] >= 0}
    claims = _claims(state)
    accusations = [(actor, seat_of(name)) for actor, text in _said(state) for name in SUSPECT.findall(text)]
    # a round's votes are public once tallied, that is once the next round has begun
    votes = [(e[2], e[3]) for e in state.events if e[0] == "vote" and e[3] >= 0 and e[1] < state.round]
    weights: dict[tuple[int, int], float] = {}
    for pair in combinations(range(PLAYERS), 2):
        if any(known.get(s, "werewolf") != "werewolf" for s in pair) or night_victims & set(pair):
            continue
        if any(role == "werewolf" and s not in pair for s, role in known.items()):
            continue
        if not any(state.alive[s] for s in pair):
            continue
        weight = 1.0
        honest = [c for c in claims if c not in pair]
        if me is not None and known.get(me) == "seer":
            weight *= LIE ** len([c for c in honest if c != me])
        elif len(honest) > 1:
            weight *= LIE ** (len(honest) - 1)
        weight *= FAKE_CLAIM ** (len(claims) - len(honest))
        for claimant in honest:
            weight *= LIE ** sum((seat in pair) != wolf for seat, wolf in claims[claimant])
        for actor, target in accusations:
            if actor in pair and target in pair:
                weight *= PARTNER_ACCUSED
            elif actor not in pair and target in honest and len(claims) == 1:
                weight *= SEER_ACCUSED_BY_VILLAGER
        for voter, target in votes:
            if voter in pair and target in pair:
                weight *= PARTNER_ACCUSED
        weights[pair] = weight
    total = sum(weights.values()) or 1.0
    odds = dict.fromkeys(range(PLAYERS), 0.0)
    for pair, weight in weights.items():
        for s in pair:
            odds[s] += weight / total
    return {s: round(p, 9) for s, p in odds.items()}  # rounded so equal odds compare equal, ties go by seat


def _inferring(game: Werewolf, state: WerewolfState, rng: random.Random) -> tuple:
    """Village: vote, accuse and inspect the likeliest wolf (`wolf_odds`); the seer claims with every result at once;
    the doctor guards the trusted claimant. Wolves: hunt the seer claimant until the doctor saves it, counterclaim
    the seer, vote the claimant or with the crowd, never for the partner."""
    me = game.current_player(state)
    role = state.roles[me]
    known = game.known_roles(state, me, reveal=False)
    targets = game.targets(state, me)
    wolf = role == "werewolf"
    # All but the seer weigh the public record alone: villagers who also used "I am not a wolf" would rank the
    # others differently, split their votes and miss the majority (measured: 66% against random wolves, not 81%).
    odds = wolf_odds(game, state, me if role == "seer" else None)
    claims = _claims(state)
    claimants = [c for c in claims if state.alive[c] and c != me]
    honest = [c for c in claimants if known.get(c) != "werewolf"]
    trusted = sorted(honest, key=lambda c: (odds[c], c))
    if state.phase == "night":
        if wolf:
            partner_pick = [e[3] for e in state.events if e[0] == "kill" and e[1] == state.round]
            if partner_pick and partner_pick[-1] in targets:
                return ("kill", partner_pick[-1])
            saved = {e[3] for e in state.events if e[0] == "kill"} - {
                e[3] for e in state.events if e[0] == "dawn"
            }  # a pick that did not die was protected: the doctor guards it
            hunted = [c for c in trusted if c in targets and c not in saved]
            if hunted:
                return ("kill", hunted[0])
            return ("kill", min(targets, key=lambda s: (odds[s], rng.random())))
        if role == "seer":
            unknown = [s for s in targets if s not in known]
            return ("inspect", max(unknown or targets, key=lambda s: (odds[s], rng.random())))
        guarded = [c for c in trusted if c in targets]
        return ("protect", guarded[0] if guarded else me)
    if state.phase == "debate":
        if role == "seer":
            results = sorted(((r != "werewolf", s) for s, r in known.items() if s != me))
            if results:
                verdicts = [f"{NAMES[s]} is {'not ' if cleared else ''}a werewolf." for cleared, s in results]
                return ("say", "I am the seer. " + " ".join(verdicts))
        if wolf and honest:
            if me in claims or not any(known.get(c) == "werewolf" for c in claims):
                return ("say", f"I am the seer. {NAMES[trusted[0]]} is a werewolf.")
            return ("say", f"I suspect {NAMES[trusted[0]]}. A seer claim is easy to fake.")
    pool = [s for s in targets if known.get(s) not in ("werewolf", "not a werewolf")] or targets
    if wolf:
        pool = [s for s in targets if known.get(s) != "werewolf"]
        if state.phase == "vote" and honest:
            return ("vote", trusted[0])
    suspect = max(pool, key=lambda s: (odds[s], -s))
    if state.phase == "debate":
        return ("say", f"I suspect {NAMES[suspect]}.")
    if role == "seer":
        wolves = [s for s in targets if known.get(s) == "werewolf"]
        suspect = wolves[0] if wolves else suspect
    return ("vote", suspect)


LADDER = [
    Bot("werewolf", 0, "uniform random legal action (random targets, templated sentences)", random_chooser),
    Bot("werewolf", 1, "rule-based: seer claims, accusations and votes as scores; templated speech", _rule_based),
    Bot(
        "werewolf",
        2,
        "inference over every possible wolf pair (a lone seer claim trusted, votes, accusations, night kills); "
        "wolves hunt and counterclaim the seer, never vote their partner",
        _inferring,
    ),
]
