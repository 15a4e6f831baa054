"""Two Rooms and a Boom: the deal of a known seed, a hand-traced round with a vote and a hostage exchange, both ends
of the President/Bomber condition, who hears what, the refusals, and the bots' solved positions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.base import IllegalAction
from games.bots import ladder
from games.bots.two_rooms_plan import matrix_game, red_chance
from games.two_rooms import TwoRoomsAndABoom
from games.two_rooms.state import known_cards

GAME = TwoRoomsAndABoom()
P1, P2, P3, P4, P5, P6 = range(6)


def play(state, *texts: str):
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


# Seed 1's deal (tested below): Room 1 holds P1 (Leader, the Bomber), P3 and P6 (Red); Room 2 holds P2 (the
# President), P4 and P5 (Leader), all Blue. Players talk in seat order, Room 1 first.
ROUND_1_TALK = (
    "ask P3 Room one secret question?",
    "say Room one secret answer.",
    "show P6",
    "show",
    "ask P1 Leader, your card?",
    "show",
    "show P5",
    "say Thank you.",
    "ask P2 Room two secret question?",
    "say I am blue.",
    "ask P4 Your card, please?",
    "show",
)
ROUND_1_VOTES = ("vote P1", "vote P3", "vote P3", "vote P2", "vote P5", "vote P5")


def after_round_1():
    return play(GAME.initial_state(seed=1), *ROUND_1_TALK, *ROUND_1_VOTES, "send P1", "send P4")


def quiet_round(state, *hostages: str):
    """Every player asks its first room-mate and is answered; everyone votes for the sitting Leader; then hostages."""
    for _ in range(6):
        seat = GAME.current_player(state)
        mate = next(s for s in range(6) if s != seat and state.rooms[s] == state.rooms[seat])
        state = play(state, f"ask P{mate + 1} Hello?", "say Hello.")
    for _ in range(6):
        seat = GAME.current_player(state)
        state = play(state, f"vote P{state.leaders[state.rooms[seat]] + 1}")
    return play(state, *hostages)


def test_seed_1_deals_three_cards_of_each_team_three_players_a_room_and_a_leader_in_each():
    state = GAME.initial_state(seed=1)
    assert state.cards == ("bomber", "president", "red team", "blue team", "blue team", "red team")
    assert state.rooms == (0, 1, 0, 1, 1, 0)
    assert state.leaders == (P1, P5)
    assert [GAME.team_of(state, s) for s in range(6)] == [1, 0, 1, 0, 0, 1]  # 0 Blue, 1 Red
    assert GAME.current_player(state) == P1


def test_a_hand_traced_round_with_a_vote_and_a_hostage_exchange():
    state = play(GAME.initial_state(seed=1), *ROUND_1_TALK)
    assert GAME.current_player(state) == P1  # the vote, in the talking order
    assert known_cards(state, P6) == {P1: "bomber", P3: "red team", P6: "red team"}
    assert known_cards(state, P1) == {P1: "bomber"}  # P1 showed its card; no one showed P1 theirs
    assert known_cards(state, P5) == {P2: "president", P4: "blue team", P5: "blue team"}
    assert known_cards(state, P2) == {P2: "president"}  # P5 answered in words
    state = play(state, *ROUND_1_VOTES)
    assert state.leaders == (P3, P5)  # two of Room 1's votes make P3 its Leader; Room 2 keeps P5
    assert state.events[-2][5] == "P1 for P1, P3 for P3, P6 for P3"
    state = play(state, "send P1")
    assert state.picks == (P1, -1)
    assert GAME.player_view(state, P5)["rooms"][0]["players"][0]["name"] == "P1"  # P1 has not moved yet
    assert "picks" not in GAME.player_view(state, P5)  # the other Leader's hostage stays secret
    state = play(state, "send P4")
    assert state.rooms == (1, 1, 0, 0, 1, 0)  # the Bomber joined the President in Room 2
    assert (state.round, state.turn, state.leaders) == (2, 0, (P3, P5))
    assert GAME.current_player(state) == P3  # Room 1 (P3, P4, P6) talks first


def test_red_wins_when_the_president_and_the_bomber_end_in_the_same_room():
    state = quiet_round(after_round_1(), "send P4", "send P1")  # the Bomber comes back to Room 1
    assert state.rooms == (0, 1, 0, 1, 1, 0)
    state = quiet_round(state, "send P1", "send P4")
    assert state.result == "red"
    assert GAME.outcome(state).scores == (1.0, 0.0, 1.0, 0.0, 0.0, 1.0)
    assert "same room: Red wins" in GAME.outcome(state).reason
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, ("vote", P1))


def test_blue_wins_when_they_end_apart():
    state = quiet_round(after_round_1(), "send P4", "send P1")
    state = quiet_round(state, "send P1", "send P2")  # the two swap rooms: still apart
    assert state.rooms[P1] != state.rooms[P2]
    assert state.result == "blue"
    assert GAME.outcome(state).scores == (0.0, 1.0, 0.0, 1.0, 1.0, 0.0)


def test_a_seat_hears_only_its_own_rooms_talk_and_sees_only_cards_shown_to_it():
    state = after_round_1()
    room_2_player = GAME.observation_text(state, P2)
    assert "Room two secret question?" in room_2_player
    assert "Room one secret" not in room_2_player
    assert "Room one secret answer." in GAME.observation_text(state, P1)  # P1 moved, but heard round 1 in Room 1
    assert "P6 showed P3 their card: a Red team card" in GAME.observation_text(state, P3)
    assert "P6 showed P3 their card\n" in GAME.observation_text(state, P1)  # in the room, but not shown the card
    spectator = GAME.player_view(state, None)
    assert all(e["kind"] in ("leader", "exchange") for room in spectator["rooms"] for e in room["log"])
    assert all(p["card"] == "" for room in spectator["rooms"] for p in room["players"])
    cards = {p["name"]: p["card"] for room in GAME.player_view(state, P2)["rooms"] for p in room["players"]}
    assert {n: c for n, c in cards.items() if c} == {"P2": "president"}
    assert "seed" not in GAME.player_view(state, P2)
    assert GAME.shown_to_move(state, P3) == P3
    assert GAME.shown_to_move(state, P2) is None  # Room 2 waits without learning who talks in Room 1


def test_refusals_name_what_is_allowed():
    state = GAME.initial_state(seed=1)
    with pytest.raises(IllegalAction, match="P3, P6"):
        GAME.apply(state, ("ask", P2, "Across the rooms?"))
    with pytest.raises(IllegalAction, match="limit is 300"):
        GAME.apply(state, ("ask", P3, "x" * 301))
    with pytest.raises(IllegalAction, match="not an action now"):
        GAME.apply(state, ("send", P3))
    with pytest.raises(IllegalAction, match="P1–P6"):
        GAME.parse_action(state, "show P7")
    state = play(state, "show P3")
    with pytest.raises(IllegalAction, match="Answer P1"):
        GAME.apply(state, ("show", P6))
    state = play(state, "say ok", *ROUND_1_TALK[2:], *ROUND_1_VOTES)
    with pytest.raises(IllegalAction, match="P1, P6"):  # a Leader cannot send itself
        GAME.apply(state, ("send", P3))


# -- the bots -------------------------------------------------------------------------------------------------

DEAL = ("bomber", "president", "red team", "blue team", "blue team", "red team")  # seed 1's


def test_matrix_games_known_values():
    assert matrix_game([[1.0, 0.0], [0.0, 1.0]]) == (0.5, [0.5, 0.5], [0.5, 0.5])  # matching pennies
    assert matrix_game([[0.2, 0.7], [0.4, 0.9]]) == (0.4, [0.0, 1.0], [1.0, 0.0])  # a saddle point


def test_the_last_exchange_solved_by_hand():
    # Room 1: P1 (Leader, the Bomber), P2 (the President), P3; Room 2: P4, P5 (Leader), P6. Red keeps the President.
    assert red_chance(DEAL, (P1, P5), (0, 0, 0, 1, 1, 1), 3) == 1.0
    # Room 1: P3 (Red Leader), P1 (the Bomber), P4; Room 2: P5 (Blue Leader), P2 (the President), P6. Red wins when
    # exactly one of the two is sent: matching pennies, worth one half.
    assert red_chance(DEAL, (P3, P5), (0, 1, 0, 0, 1, 1), 3) == 0.5


def test_a_bomber_leader_who_has_seen_the_president_keeps_it_at_every_level_above_random():
    shown = (("show", 1, 0, P2, P1, ""), ("show", 1, 0, P3, P1, ""))  # P2 and P3 showed P1 their cards
    state = replace(
        GAME.initial_state(seed=1), room_history=((0, 0, 0, 1, 1, 1),), leaders=(P1, P4), round=3, turn=12, events=shown
    )
    assert GAME.current_player(state) == P1
    for bot in ladder("two-rooms-and-a-boom")[1:]:
        assert bot.choose(GAME, state, random.Random(0)) == ("send", P3)


def test_the_answer_box_says_what_is_answered_and_a_repeated_show_reads_again():
    state = play(GAME.initial_state(seed=1), "show P3")
    view = GAME.player_view(state, P3)
    assert (view["answering_to"], view["answering_question"]) == ("P1", "")  # a card was shown: no question
    state = play(state, "say Nice.", "ask P1 Show me again?")
    view = GAME.player_view(state, P1)
    assert (view["answering_to"], view["answering_question"]) == ("P3", "Show me again?")
    assert GAME.player_view(state, P6)["answering_question"] == ""  # not P6's turn: nothing to answer
    state = play(state, "show")
    notices = [e["notice"] for e in GAME.player_view(state, P3)["rooms"][0]["log"] if e["kind"] == "show"]
    assert notices[0].startswith("P1 showed P3 their card:")
    assert notices[1].startswith("P1 showed P3 their card again:")
