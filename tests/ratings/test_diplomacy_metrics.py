"""DSGBench's Diplomacy metrics (ratings/record/game_metrics.py) on hand-computed records."""

from __future__ import annotations

import random

from games import get_game
from games.bots import ladder
from ratings.record.game_metrics import diplomacy_alliances, diplomacy_metrics, diplomacy_social

AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY = range(7)

# -- DSGBench metrics on a hand-made record: France supports an English move in phase 1 (an alliance), then
# attacks England's Belgium in phase 2 (a betrayal); Germany only moves.

PHASES = [
    (
        [[], ["F NTH - BEL"], ["A PIC S F NTH - BEL", "A PAR H"], ["A MUN - RUH"], [], [], []],
        {"NTH": ENGLAND, "PIC": FRANCE, "PAR": FRANCE, "MUN": GERMANY},
    ),
    (
        [[], ["F BEL H"], ["A PIC - BEL", "A PAR S A PIC - BEL"], ["A RUH - HOL"], [], [], []],
        {"BEL": ENGLAND, "PIC": FRANCE, "PAR": FRANCE, "RUH": GERMANY},
    ),
]


def test_alliances_are_supports_and_convoys_of_another_powers_unit():
    assert diplomacy_alliances(PHASES) == [{frozenset((ENGLAND, FRANCE))}, set()]


def test_betrayal_and_alliance_counts_match_a_hand_computation():
    rows = diplomacy_social(PHASES)
    # France: allied in phase 1 of 2 (AD 1, ASR ½); phase 2's two orders both strike Belgium, held by its ally
    # of phase 1 (the move and the support of it): BIR = 2 betrayals / 4 orders.
    assert rows[FRANCE] == {"ad": 1, "phases": 2, "betrayals": 2, "orders": 4}
    assert rows[ENGLAND] == {"ad": 1, "phases": 2, "betrayals": 0, "orders": 2}
    assert rows[GERMANY] == {"ad": 0, "phases": 2, "betrayals": 0, "orders": 2}


def test_ccc_welfare_and_welfare_share_from_a_finished_state():
    game = get_game("diplomacy")
    state = game.initial_state(seed=1, message_rounds=0, welfare=True, max_year=1901)
    for orders in ({ENGLAND: "F LON - NTH"}, {ENGLAND: "F NTH - NWY"}, {ENGLAND: "WAIVE"}):
        start = len(state.history)
        while len(state.history) == start:
            seat = game.current_player(state)
            state = game.apply(state, game.parse_action(state, f"orders: {orders.get(seat, 'none')}"))
    rows = diplomacy_metrics(game.to_json(state))
    assert rows[ENGLAND]["ccc"] == 4
    assert rows[ENGLAND]["welfare"] == 1
    assert rows[ENGLAND]["ws"] == 1.0
    assert rows[FRANCE]["ccc"] == 3
    assert rows[FRANCE]["ws"] == 0.0
    # England's fleet moved alone: no support or convoy between powers, so no alliance and no betrayal
    assert rows[ENGLAND]["ad"] == 0
    assert rows[ENGLAND]["asr"] == 0.0
    assert rows[ENGLAND]["bir"] == 0.0


def test_negotiating_bots_give_the_social_measures_something_to_count():
    """Lv3 bots keep mutual pacts in Spring (supporting partners' units: alliances) and break them in Fall (moves
    onto those partners' provinces: betrayals), so a bot game has ASR and BIR above zero."""
    game, bot = get_game("diplomacy"), ladder("diplomacy")[3]
    state = game.initial_state(seed=2, max_year=1904)
    rngs = [random.Random(seat) for seat in range(7)]
    while (seat := game.current_player(state)) is not None:
        state = game.apply(state, bot.choose(game, state, rngs[seat]))
    rows = diplomacy_metrics(game.to_json(state))
    assert sum(row["ad"] for row in rows) > 0
    assert max(row["bir"] for row in rows) > 0
    assert all(0 <= row["asr"] <= 1 for row in rows)
