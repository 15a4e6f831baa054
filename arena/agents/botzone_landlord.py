"""Botzone's FightTheLandlord requests and responses: each seat is told only its own hand and the plays it saw.

As Botzone's judge sends them (its wiki, and `botzone/envs/botzone/fightthelandlord.py` in BotzoneBench): a
seat's first request is `{"history": [upup, up], "publiccard": [3 ids], "own": [its ids]}` (the landlord's own
20 include the public cards), every later one `{"history": [upup, up]}`: the card ids the two seats before it
played since (`[]` for a pass or for nobody yet). A response is the list of card ids played, `[]` to pass.
Card ids are Arena's and Botzone's alike, 0–53 (rank id // 4 from the 3s up, 52 the black joker, 53 the red).
Suits carry no meaning in the game: Arena plays the ranks a response names, taking the holder's lowest suits.
"""

from __future__ import annotations

from typing import Any

from games import Game, IllegalAction
from games.fight_the_landlord import take
from games.fight_the_landlord.combos import rank_of

SLUG = "fight-the-landlord"
CARD_IDS = 54


def request(state: Any, seat: int, *, first: bool) -> dict[str, Any]:
    """What `seat` is told when it is to play in `state`: the last two plays, and on its first turn its hand."""
    recent = [list(cards) for _, cards in state.plays[-2:]]
    told: dict[str, Any] = {"history": [[]] * (2 - len(recent)) + recent}
    if first:
        told |= {"publiccard": list(state.bottom), "own": list(state.hands[seat])}
    return told


def response(state_before: Any, seat: int, action: Any) -> list[int]:
    """The card ids `seat` played with `action` from `state_before` ([] for a pass)."""
    return list(take(state_before.hands[seat], action[1]) or ())


def history(seat: int, decisions: list[tuple[int, Any, Any]], state: Any) -> tuple[list[Any], list[Any]]:
    """The seat's `requests` and `responses` so far, from the match's (seat, state_before, action) and its state."""
    own = [(before, action) for mover, before, action in decisions if mover == seat]
    requests = [request(before, seat, first=turn == 0) for turn, (before, _) in enumerate(own)]
    requests.append(request(state, seat, first=not own))
    return requests, [response(before, seat, action) for before, action in own]


def decode(game: Game, state: Any, answer: Any) -> Any:
    """The play a response names: its cards' ranks (legality is checked after)."""
    if not isinstance(answer, list) or not all(type(card) is int and 0 <= card < CARD_IDS for card in answer):
        raise IllegalAction("A Fight the Landlord response is a list of card ids 0–53 ([] to pass).")
    if len(set(answer)) != len(answer):
        raise IllegalAction(f"{answer} names a card twice.")
    return ("play", tuple(sorted(rank_of(card) for card in answer)))


def unplayable(state: Any) -> str:
    """Why a program cannot play this deal ("" when it can)."""
    if state.bidding:
        return "Botzone's FightTheLandlord has no bidding: programs play the standard rules or the botzone variant."
    return ""
