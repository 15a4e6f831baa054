"""Are You the Traitor? ladder: random, then rule-based players that read only their own seat's knowledge.

Lv1: Evil never shouts Stop (an unfinished round is Evil's) and everyone vouches for the Good team; the Good Wizard
and the Guard wait for their last talking turn, then point at random. Lv2 adds a team code (the Traitor
names the Key Holder as "I trust P<n>.", the Evil Wizard points there; the Good Wizard says so, the Key Holder gives
it the key) and remembers who past Stops showed Good. Lv3 talks and listens: the Good Wizard claims its role,
the Key Holder accuses whoever shows it knows who holds the key, the Traitor names the Key Holder as the Good
Wizard, the Evil Wizard claims to be the Good Wizard; each points at whom the claims and accusations it has heard,
and the roles and teams past Stops revealed, single out (on 65% of its decisions; Lv2's way on the others). It
reads only what its seat knows (`known_roles`) and the public conversation.
"""

from __future__ import annotations

import random
import re

from games.bots.base import Bot, random_chooser
from games.traitor import EVIL, LAPS, NAMES, PLAYERS, AreYouTheTraitor, TraitorState, seat_of

CLAIM = "I am on the Good team."
# Lv1 and Lv2 vouch for the Good team in these words, one picked from public facts (the round, the turn, the seat,
# the talk so far): a game reads like talk, the same seed says the same things, and the words give nothing away
# (the seed deals the roles, so it picks nothing). None reads as a claim, a name or an accusation.
VOUCHES = (
    CLAIM,
    "I'm Good, I promise.",
    "Nothing to hide here: I am on the Good team.",
    "Count me with the Good team.",
    "I want the key destroyed as much as anyone.",
    "Good team. Ask me anything.",
    "I'm Good. Let's find who isn't.",
    "Trust me, I'm on your side.",
)
TALK_RATE = 0.65  # Lv3 talks and listens on this share of its decisions, else plays Lv2: always won 99% of games
CODE_RATE = 0.2  # how often Lv2's speakers give their team's code: always would make Lv2 beat Lv1 in every game
WIZARD = "I can destroy the key."
TRUST = re.compile(r"I trust (P\d)\.")
REVEALED = re.compile(r"\|(P\d) was (.+)$")
# Lv3's phrases, and what it hears in anyone's words (Lv2's code included).
CLAIM_WIZARD = "I am the Good Wizard. Key Holder, give me the key."
WIZARD_CLAIM = re.compile(r"I am the Good Wizard|I can destroy the key", re.IGNORECASE)
NAMING = re.compile(r"(P\d) is the Good Wizard|I trust (P\d)", re.IGNORECASE)
ACCUSATION = re.compile(r"(P\d) is the Traitor", re.IGNORECASE)


def revealed_roles(state: TraitorState) -> dict[int, str]:
    """The roles past rounds' Stops revealed, by seat (teams last the whole game, roles do not)."""
    found = (REVEALED.search(e[4]) for e in state.events if e[0] == "result")
    return {seat_of(m[1]): m[2] for m in found if m}


def revealed_good(state: TraitorState) -> set[int]:
    """Seats a past round's Stop showed to be Good."""
    return {seat for seat, role in revealed_roles(state).items() if role not in EVIL}


def known_teams(game: AreYouTheTraitor, state: TraitorState, me: int) -> tuple[set[int], set[int]]:
    """The seats `me` knows to be Good and to be Evil: what its seat knows this round (its own role; the Key
    Holder, for the Traitor) and the roles past Stops revealed (teams last the whole game)."""
    good: set[int] = set()
    evil: set[int] = set()
    known = [*game.known_roles(state, me, reveal=False).items(), *revealed_roles(state).items()]
    for seat, role in known:
        (evil if role in EVIL else good).add(seat)
    if len(evil) == len(EVIL):
        good |= set(range(PLAYERS)) - evil
    if len(good) == PLAYERS - len(EVIL):
        evil |= set(range(PLAYERS)) - good
    return good, evil


def this_rounds_talk(state: TraitorState) -> list[tuple[int, str]]:
    return [(e[2], e[4]) for e in state.events if e[0] == "say" and e[1] == state.round]


def named_in(talk: list[tuple[int, str]], pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """(speaker, seat named) for each message matching `pattern`, whose groups name a seat."""
    found = ((speaker, pattern.search(text)) for speaker, text in talk)
    return [(speaker, seat_of(next(g for g in m.groups() if g))) for speaker, m in found if m]


def talk_and_listen(game: AreYouTheTraitor, state: TraitorState, rng: random.Random) -> tuple:
    """Lv3: says what its role lets it say, and points where the claims and accusations it heard lead."""
    me = game.current_player(state)
    assert me is not None  # bots are asked only while the game runs
    role = state.roles[me]
    good, evil = known_teams(game, state, me)
    talk = this_rounds_talk(state)
    spoke = [text for speaker, text in talk if speaker == me]
    last_turn = state.turn >= (LAPS - 1) * PLAYERS
    others = [s for s in range(PLAYERS) if s != me]
    claimants = {speaker for speaker, text in talk if speaker != me and WIZARD_CLAIM.search(text)}
    namings = [(speaker, seat) for speaker, seat in named_in(talk, NAMING) if speaker != me]
    accused = [seat for speaker, seat in named_in(talk, ACCUSATION) if speaker not in evil and speaker != me]
    if role == "traitor":
        key_holder = next(s for s, r in game.known_roles(state, me, reveal=False).items() if r == "key holder")
        return ("say", CLAIM if spoke else f"{NAMES[key_holder]} is the Good Wizard.")
    if role == "evil wizard":
        # The Traitor (only it knows) names the Key Holder; whoever answers with an accusation is likely it.
        named = [seat for _, seat in namings if seat != me and seat not in evil]
        if named:
            return ("stop", named[0])
        if not last_turn:
            return ("say", CLAIM_WIZARD if not spoke else CLAIM)
        pool = [s for s in others if s not in evil and s not in claimants] or others
        accusers = [speaker for speaker, _ in named_in(talk, ACCUSATION) if speaker in pool]
        return ("stop", rng.choice(accusers or pool))
    if role == "key holder":
        # Only the Traitor knows who holds the key: whoever names me knows too much.
        knowers = [speaker for speaker, seat in namings if seat == me and speaker not in good]
        accusation = f"{NAMES[knowers[0]]} is the Traitor." if knowers else ""
        if accusation and accusation not in spoke:
            return ("say", accusation)
        wizards = [s for s in claimants if s not in evil and s not in knowers]
        if len(wizards) == 1 and (state.turn >= PLAYERS or last_turn):
            return ("stop", wizards[0])
        if last_turn:
            return ("stop", rng.choice(wizards or [s for s in others if s not in evil and s not in knowers] or others))
        return ("say", CLAIM)
    # The Good Wizard and the Guard point at the Traitor. The Good Wizard knows any other wizard claim is a lie.
    if role == "good wizard":
        evil |= claimants
    suspects = [seat for seat in accused if seat != me and seat not in good]
    suspects += [speaker for speaker, _ in namings if speaker not in good]
    # The Evil Wizard claims to be the Good Wizard; the Traitor is the Evil player who does not.
    suspects += [seat for seat in evil if seat not in claimants] if len(evil) == len(EVIL) else []
    if suspects:
        return ("stop", suspects[0])
    if last_turn:
        return ("stop", rng.choice([s for s in others if s not in good and s not in claimants] or others))
    return ("say", CLAIM_WIZARD if role == "good wizard" else CLAIM)


def vouch(state: TraitorState, me: int) -> str:
    """One of the vouching lines, fixed by public facts only (no draw from the bot's RNG, which the seed drives)."""
    return VOUCHES[(state.round * 5 + state.turn * 3 + me + len(state.events)) % len(VOUCHES)]


def talking_chooser(*, focus: float):
    """Lv3's way on a share `focus` of its decisions, Lv2's on the others."""

    def choose(game: AreYouTheTraitor, state: TraitorState, rng: random.Random) -> tuple:
        return (talk_and_listen if rng.random() < focus else _remembering)(game, state, rng)

    return choose


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
        return ("say", vouch(state, me))
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
    Bot(
        "are-you-the-traitor",
        3,
        "talks and listens on 65% of its decisions (Lv2 otherwise): the Good Wizard claims its role, the Key Holder "
        "accuses whoever knows who holds the key, the Traitor names the Key Holder as the Good Wizard, the Evil "
        "Wizard claims to be it; each points at whom the claims, accusations and past Stops single out",
        talking_chooser(focus=TALK_RATE),
    ),
]
