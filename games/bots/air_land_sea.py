"""Air, Land & Sea bots: a one-move lookahead on theater control, mixed with random moves below Lv3, and at Lv4
a commander who withdraws from battles its greedy playouts expect to lose, for fewer points.

Bots see only what their seat may know: before looking ahead they deal the cards hidden from them (the
opponent's hand, the opponent's face-down cards, the deck) again at random among the same places, so flipping
an opponent's face-down card is judged on a guess, never on the real card.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from games.air_land_sea import (
    TARGET_VP,
    WITHDRAW_VP,
    Action,
    AirLandSea,
    AirLandSeaState,
    controller,
    strength,
)
from games.bots.base import Bot, random_chooser


def redeal_hidden(state: AirLandSeaState, seat: int, rng: random.Random) -> AirLandSeaState:
    """`state` with everything `seat` cannot see shuffled among its places (a determinisation)."""
    other = 1 - seat
    hidden = [*state.hands[other], *state.deck]
    hidden += [card for sides in state.board for card, up in sides[other] if not up]
    rng.shuffle(hidden)
    cards = iter(hidden)
    hand = tuple(sorted(next(cards) for _ in state.hands[other]))
    deck = tuple(next(cards) for _ in state.deck)
    board = tuple(
        tuple(
            stack if owner == seat else tuple((card, True) if up else (next(cards), False) for card, up in stack)
            for owner, stack in enumerate(sides)
        )
        for sides in state.board
    )
    hands = (state.hands[0], hand) if seat == 0 else (hand, state.hands[1])
    return replace(state, hands=hands, deck=deck, board=board)  # type: ignore[arg-type]


def position_value(state: AirLandSeaState, seat: int) -> float:
    """How well the battle stands for `seat`: theaters held count most, then strength margins (capped)."""
    value = 0.0
    for p in range(3):
        margin = strength(state, p, seat) - strength(state, p, 1 - seat)
        value += (3.0 if controller(state, p) == seat else -3.0) + max(-6, min(6, margin)) * 0.5
    return value


def value_after(game: AirLandSea, state: AirLandSeaState, action: Action, seat: int) -> float:
    after = game.apply(state, action)
    if after.battle != state.battle or game.outcome(after) is not None:
        gained = (after.vp[seat] - state.vp[seat]) - (after.vp[1 - seat] - state.vp[1 - seat])
        return 10.0 * gained
    return position_value(after, seat)


def greedy_move(game: AirLandSea, state: AirLandSeaState, seat: int, rng: random.Random) -> Action:
    """The non-withdrawal with the best value one move ahead in `state` (ties broken at random)."""
    actions = [a for a in game.legal_actions(state) if a != ("withdraw",)]
    scored = [(value_after(game, state, a, seat), a) for a in actions]
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v >= best - 1e-9])


def lookahead_chooser(*, focus: float):
    """Picks the move with the best value one move ahead with chance `focus`, else a random one; never withdraws."""

    def choose(game: AirLandSea, state: AirLandSeaState, rng: random.Random) -> Action:
        seat = game.current_player(state)
        if rng.random() >= focus:
            return rng.choice([a for a in game.legal_actions(state) if a != ("withdraw",)])
        return greedy_move(game, redeal_hidden(state, seat, rng), seat, rng)

    return choose


def withdrawal_cost(state: AirLandSeaState, seat: int) -> int:
    """The VP the opponent scores if `seat` withdraws now (the Supreme Commander tables)."""
    return WITHDRAW_VP[0 if seat == state.first else 1][min(len(state.hands[seat]), 6)]


def battle_odds(game: AirLandSea, state: AirLandSeaState, seat: int, rng: random.Random, playouts: int) -> float:
    """The share of `playouts` greedy playouts to the battle's end, each on a fresh guessed deal, that `seat` wins."""
    won = 0
    for _ in range(playouts):
        playout = redeal_hidden(state, seat, rng)
        while playout.battle == state.battle and game.outcome(playout) is None:
            mover = game.current_player(playout)
            playout = game.apply(playout, greedy_move(game, playout, mover, rng))
        won += playout.vp[seat] > state.vp[seat]
    return won / playouts


@cache
def match_odds(mine: int, theirs: int) -> float:
    """The chance of reaching TARGET_VP first from this score if every later battle is a coin toss, won outright
    (6 VP) seven times in ten and by a withdrawal for 2, 3 or 4 VP otherwise: a rough price of the points at stake."""
    if mine >= TARGET_VP or theirs >= TARGET_VP:
        return 1.0 if mine >= TARGET_VP else 0.0
    odds = 0.0
    for gain, chance in ((6, 0.7), (2, 0.1), (3, 0.1), (4, 0.1)):
        odds += chance * (match_odds(mine + gain, theirs) + match_odds(mine, theirs + gain)) / 2
    return odds


def solve_battle(game: AirLandSea, state: AirLandSeaState, seat: int, start: AirLandSeaState) -> int:
    """+1 if `seat` wins the battle begun in `start` with best play by both sides on this deal, else -1."""
    if state.battle != start.battle or game.outcome(state) is not None:
        return 1 if state.vp[seat] > start.vp[seat] else -1
    mine = game.current_player(state) == seat
    for action in game.legal_actions(state):
        if action != ("withdraw",) and solve_battle(game, game.apply(state, action), seat, start) == (
            1 if mine else -1
        ):
            return 1 if mine else -1
    return -1 if mine else 1


def endgame_move(game: AirLandSea, state: AirLandSeaState, seat: int, rng: random.Random) -> Action:
    """Among the moves that win the battle with best play on this deal (all, if none does), the greedy best."""
    actions = [a for a in game.legal_actions(state) if a != ("withdraw",)]
    scored = [
        (solve_battle(game, game.apply(state, a), seat, state), value_after(game, state, a, seat), a) for a in actions
    ]
    best = max((won, value) for won, value, _ in scored)
    return rng.choice([a for won, value, a in scored if won == best[0] and value >= best[1] - 1e-9])


def withdrawing_chooser(*, playouts: int, max_cost: int, endgame_cards: int):
    """Lv3's move, solved exactly once at most `endgame_cards` are left in both hands, unless withdrawing (at a
    cost of at most `max_cost` VP) keeps more of the match in hand than fighting on with the odds the playouts
    give the battle."""

    def choose(game: AirLandSea, state: AirLandSeaState, rng: random.Random) -> Action:
        seat = game.current_player(state)
        cost = withdrawal_cost(state, seat)
        if not state.pending and cost <= max_cost:
            mine, theirs = state.vp[seat], state.vp[1 - seat]
            odds = battle_odds(game, state, seat, rng, playouts)
            fight = odds * match_odds(mine + 6, theirs) + (1 - odds) * match_odds(mine, theirs + 6)
            if match_odds(mine, theirs + cost) > fight:
                return ("withdraw",)
        guess = redeal_hidden(state, seat, rng)
        if len(state.hands[0]) + len(state.hands[1]) <= endgame_cards:
            return endgame_move(game, guess, seat, rng)
        return greedy_move(game, guess, seat, rng)

    return choose


LADDER = [
    Bot("air-land-sea", 0, "Uniformly random legal move (withdrawals included).", random_chooser),
    Bot(
        "air-land-sea",
        1,
        "Never withdraws; 15% of its moves are Lv3's, the rest random.",
        lookahead_chooser(focus=0.15),
    ),
    Bot(
        "air-land-sea",
        2,
        "Never withdraws; half its moves are Lv3's, the rest random.",
        lookahead_chooser(focus=0.5),
    ),
    Bot(
        "air-land-sea",
        3,
        "Never withdraws; plays the move that leaves it holding the most theaters by the widest margins.",
        lookahead_chooser(focus=1.0),
    ),
    Bot(
        "air-land-sea",
        4,
        "Plays Lv3's move, solving the battle exactly once at most 4 cards are left in both hands; withdraws (for "
        "4 VP or fewer to the opponent) when 12 greedy playouts on guessed deals give the battle too little chance "
        "for the match's sake.",
        withdrawing_chooser(playouts=12, max_cost=4, endgame_cards=4),
    ),
]
