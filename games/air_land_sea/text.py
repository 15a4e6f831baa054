"""Air, Land & Sea's text for models: the rules (GameBench's Appendix K, then ours and every card) and observations."""

from __future__ import annotations

from games.air_land_sea.cards import CARDS, SIDES, TARGET_VP, card_text
from games.air_land_sea.rules import AirLandSeaState, controller, strength


def public_history(state: AirLandSeaState) -> str:
    return "\n".join(f"- {line}" for line in state.log)


def observation_text(state: AirLandSeaState, player: int, legal_moves: list[str] | None) -> str:
    """What `player` knows, as text; `legal_moves` are its moves' texts when it is to act, else None."""
    other = 1 - player
    lines = [
        f"You are {SIDES[player]}. Battle {state.battle}. Victory points: you {state.vp[player]}, "
        f"opponent {state.vp[other]} (first to {TARGET_VP} wins).",
        f"{SIDES[state.first]} holds the 1st Player Supreme Commander card this battle (wins ties).",
        f"Theaters, left to right: {', '.join(state.order)}.",
        "",
    ]
    for p, name in enumerate(state.order):
        lines.append(f"{name} (controlled by {SIDES[controller(state, p)]}):")
        for seat in (player, other):
            cards = [
                card_text(card) + ("" if up else " [face down]") if up or seat == player else "a face-down card"
                for card, up in state.board[p][seat]
            ]
            who = "your side" if seat == player else "opponent's side"
            lines.append(f"  {who}, strength {strength(state, p, seat)}: {'; '.join(cards) or 'no cards'}")
    lines += ["", "Your hand: " + ("; ".join(card_text(c) for c in state.hands[player]) or "empty")]
    lines.append(f"Opponent's hand: {len(state.hands[other])} cards. Deck: {len(state.deck)} cards.")
    if state.air_drop == player:
        lines.append("Air Drop: this turn you may deploy a card to a non-matching theater.")
    if state.log:
        lines += ["", "Events:", public_history(state)]
    if legal_moves is not None:
        if state.pending:
            _, ability, p = state.pending[0]
            lines += ["", f"Resolve {ability} (from {state.order[p]})."]
            if ability == "reinforce":
                lines.append(f"The top card of the deck is {card_text(state.deck[0])}.")
        lines += ["", "Legal moves: " + ", ".join(legal_moves)]
    return "\n".join(lines)


def rules_text() -> str:
    cards = "\n".join(f"- {card_text(card)}" for card in CARDS)
    return (
        "Air, Land & Sea (GameBench). A strategic card game where two players compete over a series of battles "
        "to control different Theaters of war: Air, Land, and Sea. Each player is dealt 6 cards representing "
        "various military units and tactics. Players win a battle by controlling more Theaters than their "
        "opponent or convincing their opponent to withdraw. Victory Points (VPs) are earned by winning battles, "
        "and the first player to reach 12 VPs wins the game.\n"
        "- Turns: players alternate, starting with the 1st player. On your turn take one action: Deploy (play a "
        "card face up to the theater of its type; its tactical ability takes effect), Improvise (play a card face "
        "down to any theater: strength 2, no ability), or Withdraw (your opponent wins the battle).\n"
        "- Control: a theater is controlled by the side with the higher total strength; the 1st player wins ties "
        "and empty theaters. When both hands are empty, whoever controls two theaters wins the battle: 6 VP.\n"
        "- Withdrawing: if the 1st player withdraws, the 2nd player scores 2 VP (4+ cards left in the "
        "withdrawer's hand), 3 (2-3), 4 (1), 6 (0); if the 2nd player withdraws, the 1st scores 2 (5+), 3 (3-4), "
        "4 (2), 6 (0-1).\n"
        "- Cards played later cover earlier ones in the same theater; 'uncovered' is the top card. Flip turns a "
        "card face up (its instant ability then takes effect) or face down. Destroyed cards leave the game for "
        "the battle. Instant abilities that need a choice are separate moves: 'flip <side> <theater>' flips "
        "that side's uncovered card; 'move <theater> <n> <to theater>' (n counts from the bottom card, 1); "
        "'return <theater> <n>'; 'reinforce <theater>'; 'pass' declines a 'may'.\n"
        "- After each battle the theaters rotate (rightmost to the left), the 1st player card changes hands, "
        "and all 18 cards are shuffled and dealt again.\n"
        "Cards (id, name, theater, strength, ability):\n"
        f"{cards}\n"
        "Answer with exactly one of the legal moves listed in the observation, e.g. 'deploy A3 Air'."
    )
