"""Tournaments and play_match on any number of seats, with variants and options from the shell."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from arena.models import Match, Tournament
from arena.record.agents import bots_ensure
from arena.record.selectors import ladder_weight
from arena.tournaments.services import seatings
from games import get_game
from ratings.record.services import snapshot_compute

pytestmark = pytest.mark.django_db


def test_seatings_rotate_the_agent_over_its_sides_seats_with_a_partner():
    # Codenames: red seats 0–1, blue 2–3. A takes each seat of each side in turn, P the other seat of its side.
    assert seatings("codenames", {}, "A", "B", "P") == [
        ["A", "P", "B", "B"],
        ["P", "A", "B", "B"],
        ["B", "B", "A", "P"],
        ["B", "B", "P", "A"],
    ]
    # Without a partner A fills its whole side: one match per side.
    assert seatings("codenames", {}, "A", "B", None) == [["A", "A", "B", "B"], ["B", "B", "A", "A"]]


@pytest.mark.parametrize("game", ["werewolf", "are-you-the-traitor", "two-rooms-and-a-boom"])
def test_games_that_deal_teams_in_secret_seat_the_entrant_alone_in_each_seat_whatever_the_deal(game):
    rules = get_game(game)
    assert rules.hidden_teams
    n = rules.num_players
    # A alone in each seat in turn, B everywhere else (a ladder: only the candidate's results count) ...
    alone = [["A" if seat == mine else "B" for seat in range(n)] for mine in range(n)]
    assert seatings(game, {}, "A", "B", None, one_way=True) == alone
    # ... and in a tournament between the two, B alone the same way: the seating names no team.
    swap = {"A": "B", "B": "A"}
    assert seatings(game, {}, "A", "B", None) == alone + [[swap[x] for x in order] for order in alone]
    # The matches a tournament makes seat the same whatever their seeds, so the deals stay unknown.
    bots_ensure(game=game)
    seatings_by_tournament = []
    for slug, first_seed in (("deal-a", 0), ("deal-b", 977)):
        call_command(
            "tournament", "create", "--slug", slug, "--format", "round_robin", "--games", game,
            "--agents", f"{game}-lv1", f"{game}-lv0", "--games-per-seat", "3", "--first-seed", str(first_seed),
            stdout=StringIO(),
        )  # fmt: skip
        matches = Match.objects.filter(tournament__slug=slug).order_by("pk")
        deals = {m.seed: tuple(rules.team_of(rules.initial_state(seed=m.seed), s) for s in range(n)) for m in matches}
        assert len(set(deals.values())) > 1  # the seeds dealt different teams ...
        seatings_by_tournament.append(
            [[seat.agent_version.agent.slug[-3:] for seat in m.seats.order_by("index")] for m in matches]
        )
    assert seatings_by_tournament[0] == seatings_by_tournament[1]  # ... and nobody sat differently for it
    assert len(seatings_by_tournament[0]) == 3 * 2 * n  # each seed: each entrant alone in each seat once


@pytest.mark.parametrize("game", ["werewolf", "are-you-the-traitor", "two-rooms-and-a-boom"])
def test_a_ladder_weighs_each_secret_team_as_half_of_a_set(game):
    # The candidate sits alone in each seat of a seed in turn; weighted, each team's seats count n/2 in all, so
    # a candidate exactly as strong as the level (its team wins as often as with the level's bot) scores 50%.
    rules = get_game(game)
    n = rules.num_players
    for seed in range(20):
        state = rules.to_json(rules.initial_state(seed=seed))
        teams = [rules.team_of(rules.initial_state(seed=seed), seat) for seat in range(n)]
        weights = [ladder_weight(game, state, seat) for seat in range(n)]
        assert {side: sum(w for w, t in zip(weights, teams, strict=True) if t == side) for side in (0, 1)} == {
            0: pytest.approx(n / 2),
            1: pytest.approx(n / 2),
        }
    assert ladder_weight("codenames", None, 0) == ladder_weight("kuhn-poker", {}, 1) == 1.0


def test_werewolf_with_seated_teams_seats_each_agent_as_a_whole_team_and_weighs_each_match_fully():
    # DSGBench's role scenarios: the wolves sit in P1 and P2, so one agent fills the village and the other the wolves.
    b_village, b_wolves = ["A", "A"] + ["B"] * 6, ["B", "B"] + ["A"] * 6
    assert seatings("werewolf", {"teams": "seated"}, "B", "A", None) == [b_village, b_wolves]
    state = get_game("werewolf").to_json(get_game("werewolf").initial_state(seed=4, teams="seated"))
    assert [ladder_weight("werewolf", state, seat, {"teams": "seated"}) for seat in (0, 2)] == [1.0, 1.0]
    assert [ladder_weight("werewolf", state, seat) for seat in (0, 2)] == [2.0, 8 / 12]  # a dealt game's weights


def test_games_that_deal_teams_in_secret_take_no_partner():
    bots_ensure(game="werewolf")
    with pytest.raises(CommandError, match="deals its teams in secret"):
        call_command(
            "tournament", "create", "--slug", "ww", "--format", "ladder", "--games", "werewolf",
            "--agents", "werewolf-lv1", "--partner", "werewolf-lv2", stdout=StringIO(),
        )  # fmt: skip


def test_codenames_tournament_from_the_shell():
    bots_ensure(game="codenames")
    call_command(
        "tournament", "create", "--slug", "cn", "--format", "round_robin", "--games", "codenames",
        "--agents", "codenames-lv2", "codenames-lv0", "--games-per-seat", "1", "--partner", "codenames-lv1",
        stdout=StringIO(),
    )  # fmt: skip
    tournament = Tournament.objects.get(slug="cn")
    assert not tournament.fixed_seeds  # no --first-seed: a fresh random seed
    assert tournament.matches.count() == 4  # one seed, the entrant in each of its side's two seats, both sides
    call_command("tournament", "run", "cn", "--json", stdout=StringIO())
    assert set(tournament.matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        rows = {r["slug"]: r for r in snapshot_compute(game="codenames")["rows"]}
    assert rows["codenames-lv2"]["matches"] == 4


def test_turn_based_and_real_time_tournaments_give_two_different_leaderboards():
    bots_ensure(game="skirmish")
    common = ["--format", "round_robin", "--games", "skirmish", "--agents", "skirmish-lv2", "skirmish-lv0"]
    common += ["--games-per-seat", "2", "--option", "max_turns=6", "--first-seed", "0"]
    call_command("tournament", "create", "--slug", "tb", *common, stdout=StringIO())
    # Real time with windows of 3 ticks: every command takes at least a tick, so a side acts 3 times a turn.
    realtime = [*common, "--variant", "real-time", "--option", "window_ticks=3"]
    call_command("tournament", "create", "--slug", "rt", *realtime, stdout=StringIO())
    for slug in ("tb", "rt"):
        call_command("tournament", "run", slug, "--json", stdout=StringIO())
    realtime = Match.objects.filter(tournament__slug="rt")
    assert {m.options["mode"] for m in realtime} == {"real-time"}
    assert {m.record["variant"] for m in realtime} == {"real-time"}
    assert {m.options["max_turns"] for m in Match.objects.all()} == {6}
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        standard, timed = snapshot_compute(game="skirmish"), snapshot_compute(game="skirmish:real-time")
        everything = snapshot_compute()
    assert standard["matches"] == timed["matches"] == 4  # kept apart: neither holds the other's matches
    assert everything["matches"] == 8
    boards = [{r["slug"]: (r["elo"], r["pwer"]) for r in board["rows"]} for board in (standard, timed)]
    assert boards[0] != boards[1]


def test_play_match_with_a_variant_and_options():
    bots_ensure(game="skirmish")
    out = StringIO()
    call_command(
        "play_match", "--game", "skirmish", "--agents", "skirmish-lv1", "skirmish-lv0", "--seed", "3",
        "--variant", "real-time", "--option", "max_turns=2", "--json", stdout=out,
    )  # fmt: skip
    match = Match.objects.get()
    assert match.options == {"mode": "real-time", "max_turns": 2}
    assert json.loads(out.getvalue())["scores"] == match.scores
    with pytest.raises(CommandError, match="no variant 'blitz'"):
        call_command(
            "play_match", "--game", "skirmish", "--agents", "skirmish-lv1", "skirmish-lv0", "--variant", "blitz"
        )
    with pytest.raises(CommandError, match="max_turns"):
        call_command(
            "play_match", "--game", "skirmish", "--agents", "skirmish-lv1", "skirmish-lv0", "--option", "max_turns=x"
        )


@pytest.mark.parametrize(
    ("game", "variant", "agents"),
    [
        ("stratego", "fixed-placement", ["stratego-lv1", "stratego-lv0"]),
        ("werewolf", "seated-teams", ["werewolf-lv1"] * 2 + ["werewolf-lv0"] * 6),
    ],
)
def test_dsgbench_scenario_variants_play_to_the_end_and_replay(game, variant, agents):
    bots_ensure(game=game)
    call_command(
        "play_match", "--game", game, "--agents", *agents, "--seed", "5", "--variant", variant, stdout=StringIO()
    )
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    assert match.options == get_game(game).variants[variant]
    out = StringIO()
    call_command("verify_replays", stdout=out)  # the stored moves from initial_state(seed, **options) reproduce it
    assert "all 1 matches replay exactly" in out.getvalue()


def test_variant_pages(client):
    assert client.get("/leaderboard/skirmish/?variant=real-time").status_code == 200
    assert client.get("/leaderboard/skirmish/?variant=blitz").status_code == 404
    body = client.get("/analysis/?game=skirmish&variant=real-time").content.decode()
    assert 'aria-current="page">real-time</a>' in body
    assert client.get("/analysis/?game=skirmish&variant=blitz").status_code == 404


@pytest.mark.django_db(transaction=True)  # follow-up matches are scheduled when a result commits
def test_adaptive_tournament_on_a_team_game():
    bots_ensure(game="codenames")
    call_command(
        "tournament", "create", "--slug", "ad", "--format", "adaptive", "--games", "codenames",
        "--agents", "codenames-lv2", "codenames-lv0", "--budget", "6", "--target-width", "1",
        stdout=StringIO(),
    )  # fmt: skip
    call_command("tournament", "run", "ad", "--json", stdout=StringIO())
    tournament = Tournament.objects.get(slug="ad")
    assert tournament.status == Tournament.Status.FINISHED
    # One seat-swapped pair, then pairs where the intervals are widest, until the budget of 6 matches.
    assert tournament.matches.filter(status=Match.Status.FINISHED).count() == 6
    assert tournament.matches.filter(record__adaptive=True).count() == 4


def test_pit_seats_one_trader_against_three_and_gamebench_pits_two_hands_against_two():
    # Standard Pit is every trader for themselves: A takes each seat in turn against B on the other three.
    assert seatings("pit", {}, "A", "B", None) == [
        ["A", "B", "B", "B"],
        ["B", "A", "B", "B"],
        ["B", "B", "A", "B"],
        ["B", "B", "B", "A"],
    ]
    # GameBench gave each of its two agents two of the four hands (games/pit/pit.py, setup_virtual_players).
    assert seatings("pit", {"gamebench": True}, "A", "B", None) == [["A", "A", "B", "B"], ["B", "B", "A", "A"]]


def test_a_gamebench_pit_tournament_rates_each_side_by_its_share_of_the_points():
    bots_ensure(game="pit")
    call_command(
        "tournament", "create", "--slug", "gb", "--format", "round_robin", "--games", "pit",
        "--agents", "pit-lv1", "pit-lv0", "--games-per-seat", "1", "--variant", "gamebench",
        stdout=StringIO(),
    )  # fmt: skip
    call_command("tournament", "run", "gb", "--json", stdout=StringIO())
    matches = Match.objects.filter(tournament__slug="gb")
    assert matches.count() == 2  # one seed, each agent on each side
    for match in matches:
        seats = [seat.agent_version.agent.slug for seat in match.seats.order_by("index")]
        assert seats[0] == seats[1] != seats[2] == seats[3]
        assert match.options == {"gamebench": True}
        assert match.scores[0] == match.scores[1]
        assert match.scores[0] + match.scores[2] == pytest.approx(1.0)  # the two sides' shares of the points
