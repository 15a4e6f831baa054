"""Air, Land & Sea's 18 battle cards, their theaters and the withdrawal table (the published game's texts)."""

from __future__ import annotations

TARGET_VP = 12
HAND_SIZE = 6
THEATERS = ("Air", "Land", "Sea")
SIDES = ("Blue", "Red")
#: card id -> (name, strength, kind, text); kind is "instant", "ongoing" or "" (no ability).
CARDS: dict[str, tuple[str, int, str, str]] = {
    "A1": ("Support", 1, "ongoing", "You gain +3 strength in each adjacent theater."),
    "A2": ("Air Drop", 2, "instant", "On your next turn, you may play a battle card to a non-matching theater."),
    "A3": ("Maneuver", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    "A4": ("Aerodrome", 4, "ongoing", "You may play cards of strength 3 or less to non-matching theaters."),
    "A5": ("Containment", 5, "ongoing", "If either player plays a card face down, destroy that card."),
    "A6": ("Heavy Bombers", 6, "", ""),
    "L1": (
        "Reinforce",
        1,
        "instant",
        "Look at the top card of the deck. You may play it face down to an adjacent theater.",
    ),
    "L2": ("Ambush", 2, "instant", "Flip an uncovered card in any theater."),
    "L3": ("Maneuver", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    "L4": ("Cover Fire", 4, "ongoing", "All cards covered by this card are now strength 4."),
    "L5": ("Disrupt", 5, "instant", "Starting with you, both players choose and flip 1 of their uncovered cards."),
    "L6": ("Heavy Tanks", 6, "", ""),
    "S1": ("Transport", 1, "instant", "You may move 1 of your cards to a different theater."),
    "S2": ("Escalation", 2, "ongoing", "All of your face-down cards are now strength 4."),
    "S3": ("Maneuver", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    "S4": (
        "Redeploy",
        4,
        "instant",
        "You may return 1 of your face-down cards to your hand. If you do, gain an extra turn.",
    ),
    "S5": (
        "Blockade",
        5,
        "ongoing",
        "If a card is played in an adjacent theater occupied by at least 3 other cards, destroy that card.",
    ),
    "S6": ("Super Battleship", 6, "", ""),
}
#: What a withdrawal scores for the opponent, by cards left in the withdrawer's hand: (1st player withdraws, 2nd does).
WITHDRAW_VP = ((6, 4, 3, 3, 2, 2, 2), (6, 6, 4, 3, 3, 2, 2))
PENDING_BY_CARD = {
    "A3": "maneuver",
    "L3": "maneuver",
    "S3": "maneuver",
    "L2": "ambush",
    "L5": "disrupt",
    "S1": "transport",
    "S4": "redeploy",
    "L1": "reinforce",
}


def card_text(card: str) -> str:
    name, strength, kind, text = CARDS[card]
    return f"{card} {name} ({THEATERS['ALS'.index(card[0])]} {strength}{f', {kind}: {text}' if kind else ''})"


def theater_of(card: str) -> str:
    return THEATERS["ALS".index(card[0])]


def adjacent(position: int) -> list[int]:
    return [p for p in (position - 1, position + 1) if 0 <= p < 3]
