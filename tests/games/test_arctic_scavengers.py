"""Arctic Scavengers: the deal, action values, hires, a dig, hand-computed skirmishes, the tribe score, the end,
what each seat may see, and the Lv4 planner's hunt."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games import IllegalAction, get_game
from games.arctic_scavengers.cards import action_value, fight_score, tribe_size
from games.arctic_scavengers.rules import ArcticState
from games.bots import ladder

GAME = get_game("arctic-scavengers")


def table(hand0: tuple[str, ...], hand1: tuple[str, ...], *, turn: int = 0, round: int = 1, **fields) -> ArcticState:
    """The seed-1 deal with the given hands (catalogue order) in the gathering phase of `round`."""
    start = GAME.initial_state(seed=1)
    return replace(start, hands=(hand0, hand1), turn=turn, round=round, **fields)


def play(state: ArcticState, *moves: str) -> ArcticState:
    for move in moves:
        state = GAME.apply(state, GAME.parse_action(state, move))
    return state


def test_the_deal_gives_each_tribe_ten_cards_and_a_hand_of_five():
    state = GAME.initial_state(seed=5)
    for seat in (0, 1):
        assert len(state.hands[seat]) == 5
        assert len(state.decks[seat]) == 5
        cards = Counter(state.hands[seat] + state.decks[seat])
        assert cards == {"Refugee": 4, "Scavenger": 3, "Brawler": 1, "Spear": 1, "Shovel": 1}
    assert len(state.junkyard) == 42
    assert sorted(state.contested) == ["Field Crew", "Grenade", "Sled Team", "Tribe Family", "Wolf Pack"]
    assert state.supply == (8, 8, 8, 8, 5, 5, 5, 14)
    assert GAME.player_view(state, 0)["players"][0]["tribe"] == 8  # 4 Refugees, 3 Scavengers, a Brawler
    assert (GAME.current_player(state), state.phase, state.round) == (0, "gather", 1)
    with pytest.raises(ValueError, match="takes no options"):
        GAME.initial_state(seed=5, rounds=6)


def test_an_action_needs_a_person_and_each_tool_its_own_person():
    assert action_value("dig", ("Scavenger", "Shovel")) == 3
    assert action_value("dig", ("Shovel",)) is None  # a tool alone does nothing
    assert action_value("dig", ("Scavenger", "Pickaxe", "Shovel")) is None  # two tools, one person
    assert action_value("dig", ("Scavenger", "Group Leaders", "Shovel")) == 5  # leaders add on top of a tool
    assert action_value("hunt", ("Refugee", "Spear")) == 1
    assert action_value("draw", ("Brawler",)) is None


def test_hunting_food_pays_for_a_hire_with_medicine_cards_none_spare():
    state = table(("Hunter", "Hunter", "Net", "Pills", "Medkit"), ("Refugee",) * 5)
    state = play(state, "hunt Hunter+Hunter+Net")
    assert state.food[0] == 6
    hires = [GAME.action_to_text(state, a) for a in GAME.legal_actions(state) if a[0] == "hire"]
    assert "hire Thug" in hires
    assert "hire Group Leaders with Medkit" in hires
    assert "hire Group Leaders with Pills+Medkit" not in hires  # the Pills would be spare
    after = play(state, "hire Thug")
    assert after.food[0] == 0
    assert after.supply[6] == 4
    assert after.discards[0] == ("Hunter", "Hunter", "Net", "Thug")
    assert after.log[-1] == "R1 Tribe 1 hires a Thug for 6 food."
    with pytest.raises(IllegalAction):
        play(after, "hunt Hunter")  # hunting is done for this round, and the Hunters are discarded


def test_a_dig_shows_the_top_cards_to_the_digger_alone_and_keeps_one():
    state = table(("Brawler", "Scavenger", "Shovel", "Refugee", "Refugee"), ("Refugee",) * 5)
    state = replace(state, junkyard=("Junk", "Medkit", "Net", "Pills", "Spear"))
    dug = play(state, "dig Scavenger+Shovel")
    assert dug.phase == "dig"
    assert dug.dug == ("Junk", "Medkit", "Net")
    assert [c["name"] for c in GAME.player_view(dug, 0)["dug"]] == ["Junk", "Net", "Medkit"]
    assert GAME.player_view(dug, 1)["dug"] == []
    assert GAME.player_view(dug, None)["dug"] == []
    kept = play(dug, "keep Medkit")
    assert kept.junkyard == ("Pills", "Spear", "Junk", "Net")
    assert kept.discards[0] == ("Scavenger", "Shovel", "Medkit")
    assert GAME.public_action_text("keep Medkit") == "keep (a dug card, hidden)"
    assert "Medkit" not in GAME.observation_text(kept, 1).split("Mercenaries")[0]


def test_a_hand_computed_skirmish_gives_the_stronger_hand_the_resource():
    # Tribe 1: fighters Brawler 2 + Scavenger 1, their two best tools Grenade 3 + Spear 2 (Shovel left out): 8.
    # Tribe 2: fighter Thug 3 with one tool, Pickaxe 2 (Refugees do not fight): 5.
    mine, theirs = ("Scavenger", "Brawler", "Spear", "Shovel", "Grenade"), ("Refugee", "Refugee", "Thug", "Pickaxe")
    assert (fight_score(mine), fight_score(theirs)) == (8, 5)
    state = table(mine, theirs, contested=("Tribe Family", "Grenade", "Sled Team", "Field Crew", "Wolf Pack"))
    after = play(state, "stop", "stop")
    assert after.log[-1] == "R1 Skirmish 8 fight (2 in tribe) to 5 fight (5 in tribe): Tribe 1 wins Tribe Family."
    assert after.won == (("Tribe Family",), ())
    assert "Tribe Family" in after.decks[0] + after.discards[0] + after.hands[0]
    assert (after.round, after.phase, GAME.current_player(after)) == (2, "gather", 1)  # Tribe 2 opens round 2
    assert len(after.hands[0]) == 5
    assert len(after.hands[1]) == 5


def test_a_sniper_strikes_before_the_fight_and_a_tie_goes_to_the_larger_tribe():
    mine, theirs = ("Scavenger", "Sniper Team", "Spear"), ("Brawler", "Thug", "Spear")
    state = table(mine, theirs, contested=("Field Crew", "Grenade", "Sled Team", "Tribe Family", "Wolf Pack"))
    at_skirmish = play(state, "stop", "stop")
    assert at_skirmish.phase == "skirmish"
    assert GAME.current_player(at_skirmish) == 0
    view = GAME.player_view(at_skirmish, 1)
    assert [c["name"] for c in view["players"][0]["hand"]] == ["Scavenger", "Sniper Team", "Spear"]  # shown to all
    assert [GAME.action_to_text(at_skirmish, a) for a in GAME.legal_actions(at_skirmish)] == [
        "snipe Brawler",
        "snipe Thug",
        "stop",
    ]
    # After the snipe: 1 + Spear 2 = 3 against Brawler 2 + Spear 2 = 4 ... Tribe 2 still wins on fight.
    sniped = play(at_skirmish, "snipe Thug")
    assert sniped.log[-1] == "R1 Skirmish 3 fight (3 in tribe) to 4 fight (1 in tribe): Tribe 2 wins Field Crew."
    # Equal fight (3 to 3): Tribe 1's 3 people beat Tribe 2's 1.
    tied = table(mine, ("Brawler", "Multitool"), contested=state.contested)
    assert play(tied, "stop", "stop", "stop").won == (("Field Crew",), ())  # the third stop: no snipe
    # Equal fight and people: the resource is lost to the junkyard's bottom.
    even = table(("Brawler",), ("Brawler",), contested=state.contested)
    lost = play(even, "stop", "stop")
    assert lost.won == ((), ())
    assert lost.junkyard[-1] == "Field Crew"


def test_the_larger_tribe_wins_when_the_last_resource_is_fought_for():
    tribe = ("Refugee", "Thug", "Group Leaders", "Tribe Family", "Spear")
    assert tribe_size(tribe) == 11
    state = table(
        ("Brawler",),
        ("Scavenger",),
        round=5,
        contested=("Wolf Pack",),
        decks=(tribe, ("Refugee",) * 10),
        discards=((), ()),
    )
    over = play(state, "stop", "stop")
    assert GAME.current_player(over) is None
    assert GAME.legal_actions(over) == []
    outcome = GAME.outcome(over)
    assert outcome.scores == (1.0, 0.0)
    assert outcome.reason == "Tribe 1 has the larger tribe (12 to 11 tribe members)"  # 11 + the Brawler; 10 + 1


def test_hands_decks_and_discards_stay_with_their_owner_until_the_skirmish():
    state = play(table(("Scavenger", "Scout", "Refugee"), ("Hunter", "Thug", "Medkit")), "draw Scavenger")
    for viewer in (1, None):
        tribe = GAME.player_view(state, viewer)["players"][0]
        assert tribe["hand"] == []
        assert tribe["discard"] == ""
        assert tribe["cards"] == ""
        assert tribe["hand_size"] == 3  # drew one for the Scavenger played
    own = GAME.player_view(state, 0)["players"][0]
    assert own["discard"] == "Scavenger"
    assert len(own["hand"]) == 3
    observation = GAME.observation_text(state, 1)
    assert "Your hand: Hunter, Thug, Medkit." in observation
    assert "Scout" not in observation.split("Mercenaries")[0]  # Tribe 1's hand; Tribe 2 owns no Scout


def test_unreadable_moves_raise_readable_errors():
    state = table(("Brawler", "Scavenger"), ("Refugee",))
    with pytest.raises(IllegalAction, match="start with one of"):
        GAME.parse_action(state, "scavenge everything")
    with pytest.raises(IllegalAction, match="no card called"):
        GAME.parse_action(state, "dig Bulldozer")
    with pytest.raises(IllegalAction):
        GAME.apply(state, GAME.parse_action(state, "dig Spear"))  # not in hand
    assert GAME.parse_action(state, "DIG brawler + scavenger") == ("dig", ("Scavenger", "Brawler"), "")


def test_the_planner_hunts_with_the_fewest_cards_that_pay_for_the_best_hire():
    # Hunter+Hunter+Net is 6 food, a Thug (worth 12), leaving Brawler+Spear to fight (4): 16, the best plan.
    state = table(("Hunter", "Hunter", "Brawler", "Net", "Spear"), ("Refugee",) * 5)
    assert ladder("arctic-scavengers")[4].choose(GAME, state, random.Random(0)) == (
        "hunt",
        ("Hunter", "Hunter", "Net"),
        "",
    )
    assert ladder("arctic-scavengers")[4].choose(GAME, play(state, "hunt Hunter+Hunter+Net"), random.Random(0)) == (
        "hire",
        (),
        "Thug",
    )


def test_a_person_clicks_the_verb_then_the_cards_left_to_right():
    state = table(("Refugee", "Refugee", "Scavenger", "Spear", "Pills"), ("Brawler",), food=(2, 0))
    cells = {GAME.action_to_text(state, a): GAME.action_cells(state, a) for a in GAME.legal_actions(state)}
    assert cells["hunt Refugee+Scavenger+Spear"] == ("hunt", "hand-0", "hand-2", "hand-3")
    assert cells["trash Refugee+Refugee"] == ("trash", "hand-0", "hand-1")
    assert cells["hire Brawler"] == ("hire", "hire-brawler")
    assert cells["hire Hunter with Pills"] == ("hire", "hire-hunter", "hand-4")
    assert cells["stop"] == ("stop",)
