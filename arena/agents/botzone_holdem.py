"""Botzone's TexasHoldem2p requests and responses: each seat is told its own hole cards, the board and the betting.

As Botzone's judge sends them (`botzone/online/game/TexasHoldem2p.py36` in BotzoneBench), every request is
`{"num_players": 2, "dealer_id", "my_id", "my_chips", "my_cards", "public_cards", "history", "hand", "max_hand",
"total_win_chips", "total_win_games"}`: the seat's chips behind, its two cards and the face-up board as Botzone's
card numbers (rank − 2 = number // 4; suit = number % 4: hearts, diamonds, spades, clubs), this hand's actions
after the blinds as `{"round", "player_id", "action", "action_type"}`, and the match so far. Botzone's dealer
posts the big blind, so its `dealer_id` is the seat without Arena's button. A response is one number: −1 fold,
0 check or call, −2 all-in, N > 0 put N more chips in (a raise). Programs play the `botzone` variant only: its
rules are the judge's.
"""

from __future__ import annotations

from typing import Any

from games import Game, IllegalAction
from games.holdem import Holdem, HoldemState, hand_betting, hand_cards
from games.holdem.betting import CALL, FOLD, STACK
from games.holdem.cards import RANKS

SLUG = "holdem"
HOLDEM = Holdem()
FOLD_NUMBER, CALL_NUMBER, ALL_IN_NUMBER = -1, 0, -2


def card_number(card: str) -> int:
    """Arena's card ("As") as Botzone's number."""
    return RANKS.index(card[0]) * 4 + "hdsc".index(card[1])


def action_numbers(state: HoldemState, hand: int, actions: tuple) -> list[dict[str, Any]]:
    """`actions` of `hand` as the judge's `history` entries: what each seat answered and what it did."""
    entries = []
    for index, action in enumerate(actions):
        before = hand_betting(state, hand, actions[:index])
        seat = before.to_act
        after = hand_betting(state, hand, actions[: index + 1])
        if action == FOLD:
            number, kind = FOLD_NUMBER, "fold"
        elif after.committed[seat] == STACK:
            number, kind = ALL_IN_NUMBER, "allin"
        elif action == CALL:
            number, kind = CALL_NUMBER, "call" if before.to_call(seat) else "check"
        else:
            number, kind = action[1] - before.street_bet[seat], "raise"
        entries.append({"round": before.street, "player_id": seat, "action": number, "action_type": kind})
    return entries


def match_so_far(state: HoldemState) -> dict[str, Any]:
    """The judge's `matchdata`: this hand's number, the match's length, chips and hands each seat won so far."""
    results = [HOLDEM.hand_result_of(state, hand) for hand in range(len(state.past))]
    won = sum(results)
    return {
        "hand": state.hand,
        "max_hand": state.hands,
        "total_win_chips": [won, -won],
        "total_win_games": [sum(r > 0 for r in results), sum(r < 0 for r in results)],
    }


def request(state: HoldemState, seat: int) -> dict[str, Any]:
    """What `seat` is told when it is to act in `state`."""
    betting = HOLDEM.betting(state)
    *holes, board = hand_cards(state, state.hand)
    return {
        "num_players": 2,
        "dealer_id": 1 - betting.button,
        "my_id": seat,
        "my_chips": betting.stack(seat),
        "my_cards": [card_number(card) for card in holes[seat]],
        "public_cards": [card_number(card) for card in board[: betting.board_shown()]],
        "history": action_numbers(state, state.hand, state.actions),
        **match_so_far(state),
    }


def response(state_before: HoldemState, action: Any) -> int:
    """The number the seat answered with `action` from `state_before`."""
    return action_numbers(state_before, state_before.hand, (*state_before.actions, action))[-1]["action"]


def history(seat: int, decisions: list[tuple[int, Any, Any]], state: Any) -> tuple[list[Any], list[Any]]:
    """The seat's `requests` and `responses` so far, from the match's (seat, state_before, action) and its state."""
    own = [(before, action) for mover, before, action in decisions if mover == seat]
    requests = [request(before, seat) for before, _ in own]
    requests.append(request(state, seat))
    return requests, [response(before, action) for before, action in own]


def decode(game: Game, state: HoldemState, answer: Any) -> Any:
    """The action a response names (legality is checked after)."""
    if type(answer) is not int or answer < ALL_IN_NUMBER:
        raise IllegalAction(
            "A TexasHoldem2p response is one number: -1 fold, 0 check/call, -2 all-in, N > 0 raise by N."
        )
    return game.parse_action(state, str(answer))


def unplayable(state: HoldemState) -> str:
    """Why a program cannot play this match ("" when it can)."""
    if state.rules != "botzone":
        return "Botzone's TexasHoldem2p has its own betting rules: programs play hold'em's botzone variant."
    return ""
