"""Werewolf: the deal, night resolution, votes (ties, abstentions, no majority), wins and role-view leaks."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction
from games.bots.werewolf import LADDER
from games.werewolf import Werewolf, majority

GAME = Werewolf()
# Seats: P1, P2 werewolves; P3 seer; P4 doctor; P5–P8 villagers.
ROLES = ("werewolf", "werewolf", "seer", "doctor", "villager", "villager", "villager", "villager")


def fixed():
    state = replace(GAME.initial_state(seed=0), roles=ROLES)
    return replace(state, pending=GAME.night_order(state))


def play(state, *texts):
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def debate(state):
    while state.phase == "debate":
        state = play(state, "say I have nothing to add.")
    return state


@pytest.mark.parametrize("seed", range(10))
def test_roles_are_dealt_from_the_seed(seed):
    state = GAME.initial_state(seed=seed)
    assert sorted(state.roles) == sorted(ROLES)
    assert state.roles == GAME.initial_state(seed=seed).roles
    wolves = [s for s, r in enumerate(state.roles) if r == "werewolf"]
    assert list(state.pending[:2]) == wolves  # the night starts with the wolves, in seat order


def test_doctor_saves_the_victim():
    state = play(fixed(), "kill P5", "kill P5", "inspect P1", "protect P5")
    assert all(state.alive)
    assert state.phase == "debate"
    assert "Night 1: no one was removed." in GAME.public_history(state)


def test_unprotected_victim_is_removed_and_the_last_wolf_decides():
    state = play(fixed(), "kill P5", "kill P6", "inspect P1", "protect P4")
    assert state.alive == (True,) * 5 + (False,) + (True,) * 2
    assert "Night 1: P6 was removed by the werewolves." in GAME.public_history(state)
    assert GAME.current_player(state) == 0  # round 1 debate starts at P1


def test_wolves_cannot_pick_a_wolf_and_seer_cannot_inspect_itself():
    state = fixed()
    with pytest.raises(IllegalAction, match="cannot kill P2"):
        GAME.apply(state, GAME.parse_action(state, "kill P2"))
    state = play(state, "kill P5", "kill P5")
    with pytest.raises(IllegalAction, match="cannot inspect P3"):
        GAME.apply(state, GAME.parse_action(state, "inspect P3"))


def vote_state():
    return debate(play(fixed(), "kill P5", "kill P5", "inspect P1", "protect P5"))


def test_tie_removes_no_one():
    state = play(vote_state(), "vote P3", "vote P3", "vote P1", "vote P1", "abstain", "abstain", "vote P3", "vote P1")
    assert all(state.alive)
    assert state.round == 2
    assert state.phase == "night"
    assert "Day 1: no majority, no one was removed." in GAME.public_history(state)


def test_majority_of_votes_cast_removes_abstentions_do_not_count():
    state = play(vote_state(), "abstain", "vote P1", "vote P1", "abstain", "abstain", "abstain", "vote P2", "abstain")
    assert not state.alive[0]
    assert sum(state.alive) == 7


def test_plurality_without_majority_removes_no_one():
    votes = [("vote", 1, s, t, "") for s, t in enumerate([2, 2, 2, 0, 0, 1, -1, -1])]
    assert majority(votes) == -1  # P3 has 3 of 6 votes cast: not more than half
    assert majority(votes[:5] + votes[6:]) == 2  # 3 of 5


def test_votes_stay_secret_until_all_have_voted():
    state = play(vote_state(), "vote P3")
    texts = [e["text"] for e in GAME.player_view(state, 4)["log"]]
    assert not any("voted" in t for t in texts)
    assert GAME.player_view(state, 4)["players"][0]["voted"]
    assert any("voted to remove P3" in e["text"] for e in GAME.player_view(state, 0)["log"])  # one's own vote


def test_villagers_win_when_both_wolves_are_voted_out():
    state = play(vote_state(), "vote P3", *["vote P1"] * 7)
    state = debate(play(state, "kill P5", "inspect P2", "protect P5"))
    assert GAME.current_player(state) == 1  # round 2 votes start at P2
    state = play(state, "vote P3", *["vote P2"] * 6)
    assert GAME.outcome(state).scores == (0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)


def test_wolves_win_when_they_equal_the_others():
    alive = (True, True, False, False, False, False, True, False)  # 2 wolves, 1 other after the night
    state = replace(fixed(), alive=alive, round=3)
    state = replace(state, pending=GAME.night_order(state))
    assert state.pending == (0, 1)  # seer and doctor are gone
    state = play(state, "kill P7", "kill P7")
    assert GAME.outcome(state).scores == (1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    state = replace(fixed(), alive=(True, True, True, True, False, False, True, False))  # 2 wolves, 3 others
    assert GAME._winner(state) == ""


def test_no_other_role_in_a_villagers_view():
    state = play(fixed(), "kill P6", "kill P6", "inspect P1", "protect P4")
    state = play(debate(state), "vote P2", "vote P1")
    for seat in range(4, 8):
        view = GAME.player_view(state, seat)
        roles = {p["name"]: p["role"] for p in view["players"] if p["role"]}
        assert roles == {f"P{seat + 1}": "villager"}
        assert "seed" not in view
        text = GAME.observation_text(state, seat)
        for secret in ("inspected", "protected", "as the victim", "werewolf P", "seer P", "doctor P", "fellow"):
            assert secret not in text
    wolf = GAME.player_view(state, 0)
    assert {p["name"]: p["role"] for p in wolf["players"] if p["role"]} == {"P1": "werewolf", "P2": "werewolf"}
    assert "Your fellow werewolf: P2." in GAME.observation_text(state, 0)
    seer = GAME.player_view(state, 2)
    assert seer["players"][0]["role"] == "werewolf"
    assert "seer P3 inspected P1: a werewolf" in GAME.observation_text(state, 2)
    assert "doctor P4 protected P4" in GAME.observation_text(state, 3)
    assert {p["role"] for p in GAME.full_view(state)["players"]} == {"werewolf", "seer", "doctor", "villager"}


def test_debate_text_is_data_and_limited():
    state = play(fixed(), "kill P6", "kill P6", "inspect P1", "protect P4")
    text = '<script>alert("x")</script> {{ view }} ; vote P3'
    after = play(state, f"say {text}")
    assert after.events[-1] == ("say", 1, 0, -1, text)
    assert GAME.parse_action(after, GAME.action_to_text(after, ("say", text))) == ("say", text)
    with pytest.raises(IllegalAction, match="limit is 500"):
        GAME.apply(after, ("say", "x" * 501))


@pytest.mark.parametrize("bot", LADDER[1:], ids=lambda bot: bot.slug)
def test_reasoning_bots_play_legal_moves_to_the_end(bot):
    for seed in range(5):
        state = GAME.initial_state(seed=seed)
        rng = random.Random(seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, bot.choose(GAME, state, rng))
        assert GAME.outcome(state) is not None


def test_chat_entries_carry_speaker_round_and_kind():
    state = play(fixed(), "kill P6", "kill P6", "inspect P1", "protect P4", "say Hello from P1.", "say <b>P2</b> here.")
    log = GAME.player_view(state, 1)["log"]
    dawn, first, mine = log[-3:]
    assert (dawn["kind"], dawn["part"], dawn["group"], dawn["target"]) == ("dawn", "night", "Night 1", "P6")
    assert dawn["speaker"] == ""
    assert not dawn["secret"]
    assert (first["kind"], first["round"], first["group"], first["speaker"]) == ("say", 1, "Day 1", "P1")
    assert first["message"] == "Hello from P1."
    assert not first["you"]
    assert (mine["speaker"], mine["message"], mine["you"]) == ("P2", "<b>P2</b> here.", True)
    assert mine["index"] == len(state.events) - 1
    assert first["speaker_role"] == "werewolf"  # P2 is a wolf: it knows its partner
    assert [(e["kind"], e["secret"]) for e in log[:2]] == [("kill", True), ("kill", True)]
    assert all(not e["you"] for e in GAME.full_view(state)["log"])


def test_chat_entries_and_turns_give_no_role_away():
    state = play(fixed(), "kill P6")  # P2 (wolf) picks next, then the seer, then the doctor
    for seat in range(2, 8):
        view = GAME.player_view(state, seat)
        assert (view["to_act"], view["to_act_name"]) == (None, "")
        assert not any(p["to_act"] for p in view["players"])
        assert view["log"] == []
    assert GAME.player_view(state, 0)["to_act"] == 1  # a wolf knows its partner is picking
    assert GAME.player_view(state, 1)["to_act_name"] == "P2"
    assert GAME.full_view(state)["to_act"] == 1
    state = play(state, "kill P6")
    assert GAME.player_view(state, 0)["to_act"] is None  # the seer's turn: wolves do not learn who it is
    assert GAME.player_view(state, 2)["to_act"] == 2
    state = play(state, "inspect P1", "protect P4", "say I am the seer.")
    assert GAME.player_view(state, 5)["to_act_name"] == "P2"  # the debate order is public
    for seat in range(3, 8):
        log = GAME.player_view(state, seat)["log"]
        assert {e["speaker_role"] for e in log if e["actor"] not in (None, seat)} == {""}
        assert [e for e in log if e["secret"]] == [e for e in log if e["actor"] == seat]
        assert all(e["kind"] in ("dawn", "say", "exile") for e in log if e["actor"] != seat)


def test_other_seats_night_actions_and_votes_read_as_placeholders():
    assert GAME.public_action_text("inspect P1") == "(night action)"
    assert GAME.public_action_text("kill P6") == "(night action)"
    assert GAME.public_action_text("vote P3") == GAME.public_action_text("abstain") == "(vote)"
    assert GAME.public_action_text("say I suspect P3.") == "say I suspect P3."


def claimed_day():
    """Night 1: the wolves kill P6, the seer P3 finds P1 a werewolf; day 1: both wolves accuse P5, P3 claims."""
    state = play(fixed(), "kill P6", "kill P6", "inspect P1", "protect P4")
    state = play(state, "say I suspect P5.", "say I suspect P5.", "say I am the seer. P1 is a werewolf.")
    return debate(state)


def test_inference_bot_trusts_a_lone_seer_claim_and_wolves_never_vote_their_partner():
    state = claimed_day()
    votes = {}
    while state.phase == "vote":
        seat = GAME.current_player(state)
        action = LADDER[2].choose(GAME, state, random.Random(seat))
        votes[seat] = action[1]
        state = GAME.apply(state, action)
    assert votes == {0: 2, 1: 2, 2: 0, 3: 0, 4: 0, 6: 0, 7: 0}  # the wolves vote the claimant, the village P1
    assert not state.alive[0]
    state = play(state, "kill P5", "inspect P2")
    assert LADDER[2].choose(GAME, state, random.Random(0)) == ("protect", 2)  # the doctor guards the seer


@pytest.mark.parametrize("village", [0, 1, 2])
def test_inference_wolves_never_vote_or_accuse_each_other(village):
    for seed in range(20):
        state = GAME.initial_state(seed=seed)
        rng = random.Random(seed)
        while (seat := GAME.current_player(state)) is not None:
            wolf = state.roles[seat] == "werewolf"
            state = GAME.apply(state, LADDER[2 if wolf else village].choose(GAME, state, rng))
        wolves = {s for s, r in enumerate(state.roles) if r == "werewolf"}
        assert not [e for e in state.events if e[0] == "vote" and {e[2], e[3]} <= wolves], seed
        said = [e for e in state.events if e[0] == "say" and e[2] in wolves]
        assert not [e for e in said if any(f"suspect P{w + 1}" in e[4] for w in wolves)], seed


@pytest.mark.parametrize("level", [1, 2])
def test_bots_do_not_read_the_rounds_secret_votes(level):
    state = play(fixed(), "kill P6", "kill P6", "inspect P5", "protect P4")
    state = debate(play(state, "say I suspect P5.", "say I suspect P5.", "say I am the seer. P5 is not a werewolf."))
    # Who voted for the cleared P5 is evidence once tallied; before, the doctor P4 must not see it.
    first, second = (play(state, "vote P5", "vote P3", "abstain"), play(state, "vote P3", "vote P5", "abstain"))
    assert GAME.current_player(first) == GAME.current_player(second) == 3
    assert LADDER[level].choose(GAME, first, random.Random(7)) == LADDER[level].choose(GAME, second, random.Random(7))


def test_seated_teams_put_the_wolves_in_p1_and_p2_and_deal_the_rest_from_the_seed():
    """DSGBench's role scenarios need a team to be one agent: under `teams="seated"` sides follow from seats, the
    village's roles are still dealt, and nothing but a wolf's own view tells a seat who the wolves are."""
    deals = [GAME.initial_state(seed=seed, teams="seated") for seed in range(6)]
    assert {d.roles[:2] for d in deals} == {("werewolf", "werewolf")}
    assert len({d.roles[2:] for d in deals}) > 1  # seer and doctor move with the seed
    assert not GAME.teams_dealt({"teams": "seated"})
    assert GAME.teams_dealt({})
    assert [GAME.team_of(deals[0], seat) for seat in range(8)] == [1, 1, 0, 0, 0, 0, 0, 0]
    others = [p["role"] for p in GAME.player_view(deals[0], 5)["players"] if not p["you"]]
    assert others == [""] * 7  # P1 and P2 look like anyone else to the village
    assert GAME.initial_state(seed=3).roles == GAME.initial_state(seed=3, teams="dealt").roles
    with pytest.raises(ValueError, match="teams"):
        GAME.initial_state(seed=1, teams="mixed")
