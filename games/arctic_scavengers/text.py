"""Arctic Scavengers as text: move notation, the rules for prompts and the help page, a seat's observation."""

from __future__ import annotations

import re

from games.arctic_scavengers.cards import CARDS, CONTESTED, count_text, fight_score, sort_cards, tribe_size
from games.arctic_scavengers.rules import (
    HAND_SIZE,
    MERCENARY_NAMES,
    ROUNDS,
    SEATS,
    STOP,
    Action,
    ArcticState,
    owned,
)
from games.base import IllegalAction

VERBS = ("dig", "draw", "hunt", "hire", "trash", "keep", "snipe", "sabotage", "stop")
_KEY = {re.sub(r"[^a-z]", "", name.lower()): name for name in CARDS}
HIDDEN_KEEP = "keep (a dug card, hidden)"


def card_lines() -> list[str]:
    """One line per card: its skills, and what a mercenary costs to hire."""
    return [
        f"- {card.describe()}"
        + (f" (hire: {card.food_cost} food, {card.medicine_cost} medicine)" if name in MERCENARY_NAMES else "")
        for name, card in CARDS.items()
    ]


#: GameBench's rules summary, word for word as its models saw it (Appendix K), then the rules as played here.
RULES_TEXT = (
    "Arctic Scavengers (GameBench). The game is played in 6 rounds, with each round consisting of a resource "
    "gathering phase and a skirmish phase. In the resource gathering phase, players draw cards from their deck and "
    "take actions to gather resources from the mercenary piles and the junkyard pile. In the skirmish phase, players "
    "compare the strength of their tribes and the winner of the skirmish gains a contested resource card. The game "
    "ends when all contested resource cards have been won, and the player with the largest tribe is the winner.\n\n"
    f"Details as played here. Two tribes. There are {ROUNDS} contested resources, so {ROUNDS} rounds. Each tribe "
    "starts with 10 cards (4 Refugee, 3 Scavenger, Brawler, Spear, Shovel) and draws "
    f"{HAND_SIZE} each round (the discard pile is shuffled into a new deck when the deck runs out). "
    "Gathering: the round's first player (alternating) takes actions, then stops; then the other. Each of DIG, "
    "DRAW, HUNT, HIRE and TRASH at most once a round; the cards you play go to your discard pile. An action plays "
    "cards that have its skill: at least one person (a STANDARD value), each tool (a MODIFIER without tribe members) "
    "needs its own person, Group Leaders add on top. DIG n: look at the top n junkyard cards, keep one, the rest go "
    "to the junkyard's bottom. DRAW n: draw n cards into your hand. HUNT n: gain n food for this round. HIRE: take a "
    "mercenary by paying its food cost from this round's food and its medicine cost with medicine cards. TRASH: "
    "put any cards of your hand into the junkyard for good. "
    "Skirmish: the cards still in hand are shown to both; the first player, then the other, may use each Sniper "
    "Team in hand to snipe (discard) one tribe member of the other hand and each Saboteur to sabotage (discard) one "
    "tool. Fight score: each person's FIGHT value, plus the best tool for each fighting person, plus Group Leaders. "
    "The higher score wins the contested resource (it joins the winner's discard pile); equal scores: more tribe "
    "members in hand wins; still equal: the resource is lost to the junkyard. "
    "At the end the tribe with more tribe members among all its cards wins; equal tribes draw.\n\n"
    "Cards:\n"
    + "\n".join(card_lines())
    + "\n\nAnswer with one move: 'dig Scavenger+Shovel', 'draw Scavenger', 'hunt Refugee+Spear', "
    "'hire Hunter with Pills', 'trash Refugee+Junk', 'stop', 'keep Medkit' (after a dig), 'snipe Brawler' or "
    "'sabotage Spear' (in the skirmish)."
)


def action_text(action: Action) -> str:
    verb, cards, target = action
    if verb == "stop":
        return "stop"
    if verb == "hire":
        return f"hire {target}" + (f" with {'+'.join(cards)}" if cards else "")
    return f"{verb} {target or '+'.join(cards)}"


def parse(text: str) -> Action:
    """Read a move; the cards are matched by name, ignoring case, spaces and punctuation."""
    words = text.strip().lower()
    verb, _, rest = words.partition(" ")
    if verb not in VERBS:
        raise IllegalAction(
            f"Could not read {text.strip()[:80]!r}: start with one of {', '.join(VERBS)}, e.g. 'dig Scavenger+Shovel'."
        )
    if verb == "stop":
        return STOP
    target, _, paid = rest.partition(" with ") if verb == "hire" else ("", "", rest)
    if verb in ("keep", "snipe", "sabotage"):
        target, paid = rest, ""
    names = [card_name(part) for part in re.split(r"[+,]", paid) if part.strip()]
    chosen = card_name(target) if target.strip() else ""
    if verb not in ("keep", "snipe", "sabotage", "hire") and not names:
        raise IllegalAction(f"Name the cards you play for {verb}, joined by '+', e.g. '{verb} Scavenger+Shovel'.")
    return (verb, sort_cards(names), chosen)


def card_name(text: str) -> str:
    key = re.sub(r"[^a-z]", "", text.lower())
    if key not in _KEY:
        raise IllegalAction(f"There is no card called {text.strip()[:40]!r}. Cards: {', '.join(CARDS)}.")
    return _KEY[key]


def observation(state: ArcticState, seat: int) -> str:
    """What `seat` knows: its hand, food and used actions, its own cards, both tribes' public counts.

    The prompt adds the public log (`public_history`) and the legal moves, so neither is repeated here."""
    foe = 1 - seat
    lines = [f"You lead {SEATS[seat]}. Round {min(state.round, ROUNDS)} of {ROUNDS}, phase: {state.phase}."]
    lines.append(f"Your hand: {count_text(state.hands[seat]) or 'nothing'}.")
    lines += [f"  {CARDS[n].describe()}" for n in sort_cards(set(state.hands[seat]))]
    lines.append(
        f"Food this round: {state.food[seat]}. Actions used this round: {', '.join(state.used[seat]) or 'none'}."
    )
    lines.append(
        f"Your tribe: {tribe_size(owned(state, seat))} members; deck {len(state.decks[seat])} cards, discard pile: "
        f"{count_text(state.discards[seat]) or 'nothing'}. All your cards: {count_text(owned(state, seat))}."
    )
    lines.append(
        f"{SEATS[foe]}: {tribe_size(owned(state, foe))} tribe members, {len(state.hands[foe])} cards in hand, "
        f"food {state.food[foe]}, contested resources won: {', '.join(state.won[foe]) or 'none'}."
    )
    if state.phase == "skirmish":
        for who in (seat, foe):
            hand = state.hands[who]
            lines.append(
                f"Skirmish hand of {SEATS[who]}: {count_text(hand) or 'nothing'} (fight {fight_score(hand)}, "
                f"{tribe_size(hand)} tribe members)."
            )
    if state.phase == "dig" and state.turn == seat:
        lines.append(f"Your dig turned up: {count_text(state.dug) or 'nothing'}. Keep one.")
    lines.append(
        f"Contested resources left: {len(state.contested)} of {len(CONTESTED)}; junkyard: {len(state.junkyard)} cards."
    )
    lines.append(
        "Mercenaries for hire: "
        + "; ".join(
            f"{name} x{left} ({CARDS[name].food_cost} food, {CARDS[name].medicine_cost} medicine)"
            for name, left in zip(MERCENARY_NAMES, state.supply, strict=True)
        )
        + "."
    )
    return "\n".join(lines)
