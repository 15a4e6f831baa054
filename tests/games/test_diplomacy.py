"""Diplomacy: adjudication through our wrapper (DATC cases), sealing, negotiation privacy, Welfare points."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.diplomacy import PROPOSAL
from games.diplomacy.engine import board

GAME = get_game("diplomacy")
AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY = range(7)


def phase(state, orders: dict[int, str]):
    """Play one phase to resolution with `orders` in its last round (0 message rounds: one round)."""
    start = len(state.history)
    while len(state.history) == start:
        seat = GAME.current_player(state)
        state = GAME.apply(state, GAME.parse_action(state, f"orders: {orders.get(seat, 'none')}"))
    return state


def quiet(**options):
    return GAME.initial_state(seed=1, message_rounds=0, **options)


def units(state, seat: int) -> tuple[str, ...]:
    return GAME.board(state).units[seat]


def test_datc_6a5_a_move_to_the_own_sector_is_illegal_and_a_bounce_keeps_both_units_home():
    state = quiet()
    with pytest.raises(IllegalAction, match="not an order"):
        GAME.apply(state, GAME.parse_action(state, "orders: A VIE - VIE"))
    state = phase(state, {FRANCE: "A PAR - BUR", GERMANY: "A MUN - BUR"})
    assert "A PAR" in units(state, FRANCE)
    assert "A MUN" in units(state, GERMANY)
    assert GAME.player_view(state, None)["last_results"]["A PAR"] == ["bounce"]


def test_datc_supported_attack_dislodges_and_the_loser_retreats_in_a_retreat_phase():
    state = quiet()
    state = phase(state, {GERMANY: "A MUN - TYR", AUSTRIA: "F TRI - ADR"})
    state = phase(state, {GERMANY: "A TYR H", AUSTRIA: "F ADR - APU"})
    assert GAME.board(state).phase == "S1902M"  # no centre changed hands: the engine skips the Winter
    state = phase(state, {GERMANY: "A TYR - VEN", AUSTRIA: "F APU S A TYR - VEN"})
    now = GAME.board(state)
    assert now.phase == "S1902R"
    assert "*A VEN" in now.units[ITALY]
    assert "A VEN" in now.units[GERMANY]
    assert GAME.current_player(state) == ITALY  # only the dislodged power orders in the retreat phase
    with pytest.raises(IllegalAction, match="negotiate only in movement"):
        GAME.apply(state, GAME.parse_action(state, "orders: A VEN R TUS\nto France: help"))
    state = GAME.apply(state, GAME.parse_action(state, "A VEN R TUS"))
    assert "A TUS" in units(state, ITALY)


def test_convoy_in_standard_syntax_without_via():
    state = quiet()
    state = phase(state, {ENGLAND: "F LON - NTH; A LVP - YOR"})
    state = phase(state, {ENGLAND: "F NTH C A YOR - NWY; A YOR - NWY"})
    assert "A NWY" in units(state, ENGLAND)
    assert "NWY" in GAME.board(state).centres[ENGLAND]


def test_welfare_points_are_centres_minus_units_each_year_and_the_game_ends_after_the_last_winter():
    state = quiet(welfare=True, max_year=1901)
    assert GAME.variant_of({"welfare": True}) == "welfare"
    state = phase(state, {ENGLAND: "F LON - NTH"})
    state = phase(state, {ENGLAND: "F NTH - NWY"})
    assert GAME.board(state).phase == "W1901A"
    assert GAME.current_player(state) == ENGLAND  # the only power with a build
    state = phase(state, {ENGLAND: "WAIVE"})  # 4 centres, 3 units: 1 welfare point
    assert state.points == (0, 1, 0, 0, 0, 0, 0)
    assert state.over
    outcome = GAME.outcome(state)
    assert outcome.scores == (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert "England" in outcome.reason


def test_builds_are_limited_to_the_count_owed():
    state = quiet()
    state = phase(state, {ENGLAND: "F LON - NTH"})
    state = phase(state, {ENGLAND: "F NTH - NWY"})
    with pytest.raises(IllegalAction, match="may build 1"):
        GAME.apply(state, GAME.parse_action(state, "orders: A LON B; WAIVE"))


def test_orders_stay_sealed_and_messages_private_until_their_round_closes():
    state = GAME.initial_state(seed=3)
    text = "orders: A VIE - GAL\nto Russia: Galicia is mine this spring.\nto ALL: peace"
    state = GAME.apply(state, GAME.parse_action(state, text))
    for viewer in (None, ENGLAND, RUSSIA):
        view = json.dumps(GAME.player_view(state, viewer))
        assert GAME.player_view(state, viewer)["powers"][AUSTRIA]["sealed_orders"] is None
        assert "Galicia is mine" not in view
        assert "peace" not in view
    assert GAME.player_view(state, AUSTRIA)["powers"][AUSTRIA]["sealed_orders"] == ["A VIE - GAL"]
    for _ in range(6):  # the other six powers close round 1
        state = GAME.apply(state, ((), ()))
    assert state.round == 1
    russia = json.dumps(GAME.player_view(state, RUSSIA))
    england = json.dumps(GAME.player_view(state, ENGLAND))
    assert "Galicia is mine" in russia
    assert "peace" in russia
    assert "Galicia is mine" not in england
    assert "peace" in england
    assert "Galicia is mine" not in json.dumps(GAME.player_view(state, None))
    assert "Galicia is mine" in json.dumps(GAME.full_view(state))
    assert GAME.player_view(state, ENGLAND)["powers"][AUSTRIA]["sealed_orders"] is None  # drafts stay private


def test_only_the_last_rounds_orders_are_executed():
    state = GAME.initial_state(seed=3)
    state = GAME.apply(state, GAME.parse_action(state, "orders: A VIE - GAL"))  # round 1 draft
    for _ in range(6):
        state = GAME.apply(state, ((), ()))
    for _ in range(7):  # round 2: everyone seals nothing, so Austria's army holds
        state = GAME.apply(state, ((), ()))
    assert GAME.board(state).phase == "F1901M"
    assert "A VIE" in units(state, AUSTRIA)


def test_parse_reads_dsgbench_json_and_rejects_nonsense():
    state = GAME.initial_state(seed=3)
    action = GAME.parse_action(state, '{"orders": ["A VIE-GAL", "f tri h"], "messages": {"Global": "hi", "Italy": ""}}')
    assert action == (("A VIE - GAL", "F TRI H"), (("ALL", "hi"),))
    assert GAME.parse_action(state, GAME.action_to_text(state, action)) == action
    for bad in ("to Atlantis: hi", '{"orders": "A VIE H"}', "hello there"):
        with pytest.raises(IllegalAction):
            GAME.parse_action(state, bad)
    with pytest.raises(IllegalAction, match="yourself"):
        GAME.apply(state, GAME.parse_action(state, "to Austria: note to self"))
    with pytest.raises(IllegalAction, match="one order per unit"):
        GAME.apply(state, GAME.parse_action(state, "orders: A VIE H; A VIE - GAL"))


def test_state_json_round_trip_rebuilds_the_board_from_the_order_history():
    state = GAME.initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(80):
        state = GAME.apply(state, GAME.random_action(state, rng))
    data = json.loads(json.dumps(GAME.to_json(state)))
    again = GAME.from_json(data)
    assert again == state
    board.cache_clear()  # the engine replays the history from scratch
    assert GAME.board(again).units == GAME.board(state).units


def test_greedy_bot_takes_centres_and_beats_random_bots():
    bots = ladder("diplomacy")
    state = GAME.initial_state(seed=0)
    rngs = [random.Random(seat) for seat in range(7)]
    while (seat := GAME.current_player(state)) is not None:
        bot = bots[-1] if seat == FRANCE else bots[0]
        state = GAME.apply(state, bot.choose(GAME, state, rngs[seat]))
    centres = [len(c) for c in GAME.board(state).centres]
    assert centres[FRANCE] == max(centres)
    assert centres[FRANCE] > 5
    assert GAME.outcome(state).scores[FRANCE] == 1.0


def bot_game(levels: list[int], seed: int, **options):
    """A whole game of the ladder's bots, `levels` per seat, each with its own seeded RNG."""
    bots = ladder("diplomacy")
    state = GAME.initial_state(seed=seed, **options)
    rngs = [random.Random(seed * 7919 + seat) for seat in range(7)]
    while (seat := GAME.current_player(state)) is not None:
        state = GAME.apply(state, bots[levels[seat]].choose(GAME, state, rngs[seat]))
    return state


def test_negotiating_bots_propose_pacts_to_neighbours_in_the_first_round_only():
    state = bot_game([3, 2, 3, 2, 3, 2, 1], seed=4, max_year=1902)
    proposals = [m for m in state.messages if m[4] == PROPOSAL]
    assert {sender for _, _, sender, _, _ in proposals} == {AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA}
    assert all(number == 0 and phase.endswith("M") for phase, number, *_ in proposals)
    assert all(recipient >= 0 for *_, recipient, _ in proposals)  # to a neighbour, never to ALL
    # at most two neighbours a phase, each a power with units next to the sender's
    per_phase = {}
    for phase, _, sender, recipient, _ in proposals:
        per_phase.setdefault((phase, sender), set()).add(recipient)
    assert max(len(r) for r in per_phase.values()) == 2
    assert bot_game([3, 2, 3, 2, 3, 2, 1], seed=4, max_year=1902) == state  # deterministic given the seed


def test_silent_bots_never_propose():
    state = bot_game([0, 1, 0, 1, 0, 1, 0], seed=4, max_year=1902)
    assert not [m for m in state.messages if m[4] == PROPOSAL]
