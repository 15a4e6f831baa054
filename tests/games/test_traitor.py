"""Are You the Traitor?: known outcomes of a Stop, what each seat may see, treasure and the end of the game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.base import IllegalAction
from games.bots import ladder
from games.bots.traitor import CLAIM_WIZARD, VOUCHES, talk_and_listen
from games.traitor import LAPS, PLAYERS, AreYouTheTraitor, points

GAME = AreYouTheTraitor()


def dealt(roles: tuple[str, ...], seed: int = 1):
    return replace(GAME.initial_state(seed=seed), roles=roles)


ROLES = ("good wizard", "traitor", "key holder", "evil wizard", "guard")  # P1 speaks first in round 1


def test_good_wizard_pointing_at_the_traitor_wins_the_round_for_good():
    state = GAME.apply(dealt(ROLES), ("stop", 1))
    assert state.events[-1][4].startswith("good|")
    assert [len(h) for h in state.hands] == [1, 0, 1, 0, 1]  # Good's three draw a card each


def test_a_wrong_point_gives_the_round_to_the_other_team():
    state = GAME.apply(dealt(ROLES), ("stop", 3))  # the Evil Wizard is not the Traitor
    assert state.events[-1][4].startswith("evil|")
    assert sum(len(h) for h in state.hands) == 2


def test_evil_wizard_finding_the_key_holder_wins_for_evil():
    roles = ("evil wizard", "traitor", "key holder", "good wizard", "guard")
    state = GAME.apply(dealt(roles), ("stop", 2))
    assert state.events[-1][4].startswith("evil|")


def test_no_stop_within_three_laps_leaves_the_key_with_evil():
    state = dealt(ROLES)
    for _ in range(LAPS * PLAYERS):
        state = GAME.apply(state, ("say", "hello"))
    assert state.events[-1][4].startswith("evil|no one shouted Stop")
    assert state.round == 2
    assert state.turn == 0


def test_the_traitor_cannot_shout_stop_and_bad_input_is_refused():
    state = replace(dealt(ROLES), turn=1)  # P2, the Traitor, speaks
    with pytest.raises(IllegalAction, match="Traitor cannot"):
        GAME.apply(state, ("stop", 0))
    with pytest.raises(IllegalAction, match="limit is 300"):
        GAME.apply(state, ("say", "x" * 301))
    with pytest.raises(IllegalAction, match="P1–P5"):
        GAME.parse_action(state, "stop P9")


def test_each_seat_sees_only_its_role_and_the_traitor_also_the_key_holder():
    state = dealt(ROLES)
    for seat in range(PLAYERS):
        roles = {p["name"]: p["role"] for p in GAME.player_view(state, seat)["players"] if p["role"]}
        expected = {f"P{seat + 1}": ROLES[seat]} | ({"P3": "key holder"} if ROLES[seat] == "traitor" else {})
        assert roles == expected
    assert all(not p["role"] for p in GAME.player_view(state, None)["players"])
    assert "seed" not in GAME.player_view(state, 0)


def test_a_magic_ring_steals_from_the_other_team():
    state = replace(dealt(ROLES), hands=(("magic ring",), (), (), ("bag of gold",), ()), deck=("silver goblet",) * 10)
    state = GAME.apply(state, ("stop", 1))  # Good wins; P1's ring takes the Evil Wizard's gold
    assert "bag of gold" in state.hands[0]
    assert "magic ring" not in state.hands[0]
    assert state.hands[3] == ()


def test_ten_points_end_the_game_for_the_richest_players_team():
    state = replace(dealt(ROLES), hands=((), (), ("crown jewels",) * 2, (), ()), deck=("bag of gold",) * 10)
    state = GAME.apply(state, ("stop", 1))
    assert points(state.hands[2]) == 13
    assert state.result == "good"
    assert GAME.outcome(state).scores == (1.0, 0.0, 1.0, 0.0, 1.0)
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, ("say", "hi"))


def test_teams_last_the_game_while_roles_are_dealt_again_within_them():
    state = GAME.initial_state(seed=5)
    evil = {s for s, r in enumerate(state.roles) if r in ("traitor", "evil wizard")}
    deals = set()
    while state.result == "" and state.round < 8:
        state = GAME.apply(state, ("say", "hello"))
        assert {s for s, r in enumerate(state.roles) if r in ("traitor", "evil wizard")} == evil
        deals.add(state.roles)
    assert len(deals) > 1  # the roles did change between rounds


def test_only_the_pointed_at_role_is_revealed():
    state = GAME.apply(dealt(ROLES), ("stop", 1))
    assert state.events[-1][4] == "good|P2 was traitor"


def said(state, *texts: str):
    for text in texts:
        state = GAME.apply(state, ("say", text))
    return state


def test_lv3_claims_names_accuses_and_points_where_the_words_lead():
    state = dealt(ROLES)  # P1 good wizard, P2 traitor, P3 key holder, P4 evil wizard, P5 guard
    rng = random.Random(0)
    assert talk_and_listen(GAME, state, rng) == ("say", CLAIM_WIZARD)  # the Good Wizard claims its role
    state = said(state, CLAIM_WIZARD)
    assert talk_and_listen(GAME, state, rng) == ("say", "P3 is the Good Wizard.")  # the Traitor names the key
    state = said(state, "P3 is the Good Wizard.")
    # The Key Holder knows it is no wizard: only the Traitor knows where the key is, so P2 is the Traitor.
    assert talk_and_listen(GAME, state, rng) == ("say", "P2 is the Traitor.")
    state = said(state, "P2 is the Traitor.")
    assert talk_and_listen(GAME, state, rng) == ("stop", 2)  # the Evil Wizard points where the Traitor named
    state = said(state, "I am on the Good team.")
    assert talk_and_listen(GAME, state, rng) == ("stop", 1)  # the Guard points at the accused
    assert GAME.apply(state, ("stop", 1)).events[-1][4] == "good|P2 was traitor"


def test_lv3_key_holder_gives_the_key_to_the_only_wizard_claimant_after_a_lap():
    roles = ("key holder", "good wizard", "guard", "traitor", "evil wizard")
    state = said(dealt(roles), "Hello.", CLAIM_WIZARD, "Hello.", "Hello.", "Hello.")
    assert talk_and_listen(GAME, state, random.Random(0)) == ("stop", 1)
    # A second claimant (the Evil Wizard lying) leaves it unsure: it waits and talks instead
    state = said(dealt(roles), "Hello.", CLAIM_WIZARD, "Hello.", "Hello.", CLAIM_WIZARD)
    assert talk_and_listen(GAME, state, random.Random(0)) == ("say", "I am on the Good team.")


def test_lv3_decides_only_on_what_its_seat_knows():
    """Dealing the roles a seat does not know differently never changes its decision."""
    game_rng, shuffle = random.Random(3), random.Random(4)
    bots = ladder("are-you-the-traitor")
    checked = 0
    for seed in range(6):
        state = GAME.initial_state(seed=seed)
        while GAME.current_player(state) is not None:
            me = GAME.current_player(state)
            known = GAME.known_roles(state, me, reveal=False)
            unknown = [s for s in range(PLAYERS) if s not in known]
            roles = list(state.roles)
            for _ in range(3):
                dealt_again = [state.roles[s] for s in unknown]
                shuffle.shuffle(dealt_again)
                for seat, role in zip(unknown, dealt_again, strict=True):
                    roles[seat] = role
                other = replace(state, roles=tuple(roles))
                assert talk_and_listen(GAME, other, random.Random(9)) == talk_and_listen(GAME, state, random.Random(9))
                checked += 1
            state = GAME.apply(state, bots[3].choose(GAME, state, game_rng))
    assert checked > 100


def test_rule_based_bots_vouch_in_varied_words_the_same_for_the_same_seed():
    bots = ladder("are-you-the-traitor")

    def talk(seed: int) -> list[str]:
        state, rng = GAME.initial_state(seed=seed), random.Random(seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, bots[2].choose(GAME, state, rng))
        return [e[4] for e in state.events if e[0] == "say"]

    said = talk(3)
    assert said == talk(3)
    vouches = [line for line in said if line in VOUCHES]
    assert len(set(vouches)) >= 4  # not one sentence over and over
    assert all(not line.startswith("say ") for line in said)
