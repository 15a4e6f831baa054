"""No-limit betting of one heads-up hand, replayed from its actions.

Actions are tuples: ("fold",), ("call",) (a check when nothing is owed) and ("raise", to) where
`to` is the player's total bet in this betting round after the raise (raise-to). Both players
start every hand with `STACK` chips; the button posts the small blind and acts first before the
flop, the other player posts the big blind and acts first after it. A raise must be at least the
current bet plus the last raise (at least one big blind), unless it puts the player all-in.
"""

from __future__ import annotations

from dataclasses import dataclass

STACK = 20_000
SMALL_BLIND, BIG_BLIND = 50, 100
STREETS = ("preflop", "flop", "turn", "river")
BOARD_SHOWN = (0, 3, 4, 5)  # board cards face up during each street

Action = tuple  # ("fold",) | ("call",) | ("raise", int)
FOLD: Action = ("fold",)
CALL: Action = ("call",)


@dataclass(frozen=True)
class Betting:
    """Where a hand stands after its actions."""

    button: int
    street: int  # 0 preflop … 3 river; 4 after the last call of a hand that goes to a showdown
    to_act: int | None
    committed: tuple[int, int]  # chips each seat has put in this hand
    street_bet: tuple[int, int]  # chips each seat has put in this betting round
    min_raise_to: int  # smallest legal raise-to (ignoring the all-in exception)
    folded: int | None
    showdown: bool
    #: Every action as (street, seat, action, all-in after it), for history texts.
    log: tuple[tuple[int, int, Action, bool], ...]

    @property
    def over(self) -> bool:
        return self.to_act is None

    @property
    def pot(self) -> int:
        return self.committed[0] + self.committed[1]

    def stack(self, seat: int) -> int:
        """Chips `seat` has left behind."""
        return STACK - self.committed[seat]

    def to_call(self, seat: int) -> int:
        return max(self.street_bet) - self.street_bet[seat]

    def max_raise_to(self, seat: int) -> int:
        """The all-in raise-to: this round's bet plus everything left."""
        return self.street_bet[seat] + self.stack(seat)

    def can_raise(self, seat: int) -> bool:
        return self.max_raise_to(seat) > max(self.street_bet) and self.stack(1 - seat) > 0

    def board_shown(self) -> int:
        """How many board cards are face up."""
        if self.showdown:
            return 5
        return BOARD_SHOWN[min(self.street, 3)]


def replay(actions: tuple[Action, ...], button: int) -> Betting:
    """The betting state after `actions`; raises ValueError on an action the rules do not allow."""
    committed = [0, 0]
    street_bet = [0, 0]
    other = 1 - button
    committed[button] = street_bet[button] = SMALL_BLIND
    committed[other] = street_bet[other] = BIG_BLIND
    street, to_act = 0, button
    raise_size = BIG_BLIND
    acted: set[int] = set()
    log: list[tuple[int, int, Action, bool]] = []
    for index, action in enumerate(actions):
        seat = to_act
        high = max(street_bet)
        if action == FOLD:
            log.append((street, seat, action, False))
            if street_bet[seat] >= high:
                raise ValueError("nothing to call: check instead of folding")
            if index != len(actions) - 1:
                raise ValueError("the hand is over after a fold")
            # `street` stays the round of the fold: the board cards not yet dealt are never shown.
            return Betting(
                button,
                street,
                None,
                (committed[0], committed[1]),
                (street_bet[0], street_bet[1]),
                0,
                seat,
                False,
                tuple(log),
            )
        if action == CALL:
            pay = min(high - street_bet[seat], STACK - committed[seat])
        elif len(action) == 2 and action[0] == "raise" and isinstance(action[1], int):
            to = action[1]
            all_in = street_bet[seat] + STACK - committed[seat]
            lowest = min(high + raise_size, all_in)
            if not (lowest <= to <= all_in and to > high and STACK - committed[1 - seat] > 0):
                raise ValueError(f"raise-to must be at least {lowest:,} and at most your stack of {all_in:,}")
            raise_size = max(raise_size, to - high)
            pay = to - street_bet[seat]
            acted.clear()
        else:
            raise ValueError(f"not an action: {action!r}")
        committed[seat] += pay
        street_bet[seat] += pay
        log.append((street, seat, action, committed[seat] == STACK))
        acted.add(seat)
        to_act = 1 - seat
        if len(acted) == 2 and street_bet[0] == street_bet[1]:
            all_in = STACK in committed
            street += 1
            if street == 4 or all_in:
                if index != len(actions) - 1:
                    raise ValueError("the hand is over")
                return Betting(button, 4, None, (committed[0], committed[1]), (0, 0), 0, None, True, tuple(log))
            street_bet = [0, 0]
            raise_size = BIG_BLIND
            acted = set()
            to_act = other
    high = max(street_bet)
    return Betting(
        button,
        street,
        to_act,
        (committed[0], committed[1]),
        (street_bet[0], street_bet[1]),
        high + raise_size,
        None,
        False,
        tuple(log),
    )


def botzone_replay(actions: tuple[Action, ...], button: int) -> Betting:
    """The betting state after `actions` under Botzone's judge (`TexasHoldem2p`); ValueError when it refuses one.

    The button posts the small blind and acts first on every street (Botzone's "dealer" is the big
    blind). A raise puts N > 0 more chips in, written here as ("raise", to) with to = the round's bet
    after it; it needs to ≥ twice the largest N of the round (the big blind counts as the first N
    before the flop; after it the largest N starts at half a big blind) and must leave chips behind.
    All-in is ("raise", everything); facing it a player may only fold or call it (all-in too). A
    player may fold with nothing to call. A round ends once each player has acted (before the flop,
    after the blinds) and the bets are level.
    """
    committed = [SMALL_BLIND, BIG_BLIND] if button == 0 else [BIG_BLIND, SMALL_BLIND]
    street_bet = list(committed)
    street, to_act = 0, button
    largest = BIG_BLIND  # the largest N put in at once this round
    left = 2  # actions still owed before the round may end
    all_in = [False, False]
    log: list[tuple[int, int, Action, bool]] = []

    def bottom() -> int:
        return max(2 * largest, street_bet[to_act] + 1)

    for index, action in enumerate(actions):
        seat = to_act
        stack = STACK - committed[seat]
        if action == FOLD:
            log.append((street, seat, action, False))
            if index != len(actions) - 1:
                raise ValueError("the hand is over after a fold")
            return Betting(
                button, street, None, (committed[0], committed[1]), (street_bet[0], street_bet[1]), 0, seat, False,
                tuple(log),
            )  # fmt: skip
        if action == CALL:
            pay = stack if all_in[1 - seat] else max(street_bet) - street_bet[seat]
        elif len(action) == 2 and action[0] == "raise" and isinstance(action[1], int):
            to, top = action[1], street_bet[seat] + stack
            if all_in[1 - seat]:
                if to != top:
                    raise ValueError("facing an all-in you can only call it (all-in) or fold")
            elif to != top and not bottom() <= to < top:
                raise ValueError(f"raise-to must be at least {bottom():,} and below {top:,}, or all-in ({top:,})")
            pay = to - street_bet[seat]
            if to != top:
                largest = max(largest, pay)
        else:
            raise ValueError(f"not an action: {action!r}")
        committed[seat] += pay
        street_bet[seat] += pay
        all_in[seat] = committed[seat] == STACK
        log.append((street, seat, action, all_in[seat]))
        left -= 1
        to_act = 1 - seat
        if left <= 0 and (all(all_in) or (not any(all_in) and street_bet[0] == street_bet[1])):
            street += 1
            if street == 4 or all(all_in):
                if index != len(actions) - 1:
                    raise ValueError("the hand is over")
                return Betting(button, 4, None, (committed[0], committed[1]), (0, 0), 0, None, True, tuple(log))
            street_bet, largest, left, to_act = [0, 0], BIG_BLIND // 2, 2, button
    return Betting(
        button, street, to_act, (committed[0], committed[1]), (street_bet[0], street_bet[1]), bottom(), None, False,
        tuple(log),
    )  # fmt: skip
