"""`manage.py evaluate`: each paper's protocol creates the matches it prescribes, once, resumably, within budget."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from arena.evaluate.protocols import BOTZONE_PAPER_LEVELS, BOTZONE_PROFILE
from arena.evaluate.selectors import evaluation_spend, find_evaluations
from arena.evaluate.services import evaluation_create
from arena.models import Agent, Match, Tournament
from arena.record.agents import agent_create
from arena.record.services import secret_seeds, variant_options
from arena.runner.loop import run_match
from arena.tournaments.services import _schedule_ladder_level
from tests.arena.llm.scripted_server import MODEL, ScriptedServer, first_legal_move

# Transactional: tournaments advance in on-commit callbacks, as they do in production.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def scripted():
    with ScriptedServer(first_legal_move) as server:
        yield server


def _model(slug: str, base_url: str = "http://127.0.0.1:9/v1", **config) -> Agent:
    return agent_create(
        slug=slug,
        name=slug,
        kind="llm",
        config={
            "base_url": base_url,
            "model": MODEL,
            "timeout_s": 5.0,
            "backoff_base_s": 0.001,
            "backoff_max_s": 0.01,
            **config,
        },
    )


def _evaluate(*args: str) -> str:
    """`manage.py evaluate` on fixed seeds from 0, so the matches it makes can be written out here."""
    out = StringIO()
    call_command("evaluate", *args, "--first-seed", "0", stdout=out)
    return out.getvalue()


def _seatings(tournament: Tournament) -> Counter:
    """(game, ladder level, seed, seat order) of every match, counted."""
    found = Counter()
    for match in tournament.matches.prefetch_related("seats__agent_version__agent"):
        order = tuple(s.agent_version.agent.slug for s in match.seats.order_by("index"))
        found[(match.game, match.record.get("ladder", {}).get("level"), match.seed, order)] += 1
    return found


def test_botzonebench_starts_each_ladder_at_lv0_with_the_papers_16_games_8_a_side():
    _model("m")
    out = _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe,gomoku")
    assert "BotzoneBench protocol (changed: games)" in out
    assert "Not the paper's setup: Arena's ladder, not Botzone's bots" in out
    [(_key, tournaments)] = find_evaluations("m").items()
    assert [t.config["games"] for t in tournaments] == [["tic-tac-toe"], ["gomoku"]]
    seated = Agent.objects.get(slug="m--botzonebench-botzone")  # the model under the paper's prompt and retries
    assert seated.current_version().config["scaffold"] == "botzone"
    assert seated.current_version().config["retries"] == 2  # three tries in all, as the paper
    assert seated.current_version().config["decision_budget_s"] == 300  # per decision, all three tries together
    for tournament, game in zip(tournaments, ("tic-tac-toe", "gomoku"), strict=True):
        assert tournament.format == "ladder"
        assert tournament.name.startswith("BotzoneBench protocol (changed: games): m--botzonebench-botzone")
        assert tournament.config["evaluation"]["changed"] == ["games"]
        seatings = _seatings(tournament)
        lv0 = f"{game}-lv0"
        expected = {
            (game, 0, seed, order): 1 for seed in range(8) for order in ((seated.slug, lv0), (lv0, seated.slug))
        }
        assert dict(seatings) == expected  # 8 seeds, each with the model on each side, all at Lv0: 16 games
        assert {m.record["policies"]["fallback"] for m in tournament.matches.all()} == {"forfeit"}
        labels = {m.record["evaluation"]["label"] for m in tournament.matches.all()}
        assert labels == {"BotzoneBench protocol (changed: games)"}  # each match says under which protocol


def test_botzonebench_plays_botzones_rules_and_the_papers_games_per_level():
    _model("m")
    _evaluate("m", "--protocol", "botzonebench")
    [(_key, tournaments)] = find_evaluations("m").items()
    seated = Agent.objects.get(slug="m--botzonebench-botzone")
    # (variant, matches at Lv0, at Lv1, the model's seats at Lv1): 16 and 32 games a level with perfect information,
    # 32 and 64 with deals, pooled over the seatings (Mahjong: the model alone in each of the four seats).
    expected = {
        "tic-tac-toe": ("", 16, 32, {0: 16, 1: 16}),
        "gomoku": ("", 16, 32, {0: 16, 1: 16}),
        "ataxx": ("botzone", 16, 32, {0: 16, 1: 16}),
        "reversi": ("", 16, 32, {0: 16, 1: 16}),
        "chess": ("botzone", 16, 32, {0: 16, 1: 16}),
        "holdem": ("botzone", 32, 64, {0: 32, 1: 32}),
        "fight-the-landlord": ("botzone", 32, 64, {0: 32, 1: 32, 2: 32}),  # the landlord, or both peasants
        "mahjong": ("botzone", 32, 64, {0: 16, 1: 16, 2: 16, 3: 16}),
    }
    found = {}
    for tournament in tournaments:
        [game] = tournament.config["games"]
        candidate = Agent.objects.get(slug=seated.slug)
        _schedule_ladder_level(tournament, game, candidate, level=1)  # as the ladder does once Lv0 is passed
        seats = Counter()
        for match in tournament.matches.filter(record__ladder__level=1).prefetch_related("seats__agent_version"):
            for seat in match.seats.all():
                seats[seat.index] += seat.agent_version.agent_id == seated.pk
        bots = {
            s.agent_version.agent.slug
            for m in tournament.matches.filter(record__ladder__level=1).prefetch_related("seats__agent_version__agent")
            for s in m.seats.all()
        } - {seated.slug}
        assert bots == {"tic-tac-toe-lv4" if game == "tic-tac-toe" else f"{game}-lv1"}  # the profile's Lv1
        assert tournament.config["ladder_levels"] == {game: list(BOTZONE_PROFILE[game])}
        level0 = tournament.matches.filter(record__ladder__level=0).count()
        level1 = tournament.matches.filter(record__ladder__level=1).count()
        variants = {m.options == variant_options(game, tournament.config["variant"]) for m in tournament.matches.all()}
        assert variants == {True}
        found[game] = (tournament.config["variant"], level0, level1, {s: n for s, n in seats.items() if n})
    assert found == expected


def test_the_botzonebench_ladder_profile_follows_the_papers_rule_on_our_measurements():
    measured = json.loads((Path(__file__).resolve().parents[2] / "docs" / "ladders.json").read_text())
    for game, levels in BOTZONE_PROFILE.items():
        pairs = {(p["challenger"], p["defender"]): p for p in measured[game]["pairs"]}
        assert levels[0] == 0  # Lv0 is uniform random, as Botzone's
        if game == "tic-tac-toe":  # the paper's one level: a bot that never loses
            top = f"{game}-lv{levels[1]}"
            assert len(levels) == 2
            assert "never loses" in measured[game]["levels"][levels[1]]["description"]
            assert pairs[(top, f"{game}-lv{levels[1] - 1}")]["losses"] == 0
            continue
        steps = [pairs[(f"{game}-lv{high}", f"{game}-lv{low}")] for low, high in itertools.pairwise(levels)]
        assert all(0.70 <= step["win_rate"] <= 0.90 for step in steps), game  # 70–90% over the level below
        available = len(measured[game]["levels"]) - 1
        assert len(levels) - 1 == min(BOTZONE_PAPER_LEVELS[game], available), game  # the paper's count where we can


def _pairings(protocol: str) -> Counter:
    """Matches per (game, variant, the two agents' base slugs), over every evaluation of `protocol`."""
    found = Counter()
    for match in Match.objects.filter(record__evaluation__protocol=protocol).prefetch_related(
        "seats__agent_version__agent"
    ):
        pair = tuple(sorted({s.agent_version.agent.slug.partition("--")[0] for s in match.seats.all()}))
        found[(match.game, match.options.get("mode", match.tournament.config["variant"]), pair)] += 1
    return found


def test_a_cohort_of_three_plays_the_papers_round_robin_and_a_fourth_only_its_new_pairings():
    for slug in ("a", "b", "c", "d"):
        _model(slug, scaffold="direct")
    out = _evaluate("a", "b", "c", "--protocol", "star")
    assert "a: plays the cohort's later agents" in out
    # STAR: every pair of the three, in both modes, 2 seeds × both seat orders.
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    assert _pairings("star") == {("skirmish", v, p): 4 for v in ("", "real-time") for p in pairs}
    _evaluate("a", "b", "c", "d", "--protocol", "star")  # d joins: only its three pairings are new
    pairs += [("a", "d"), ("b", "d"), ("c", "d")]
    assert _pairings("star") == {("skirmish", v, p): 4 for v in ("", "real-time") for p in pairs}
    # GameBench: each model plays the random baseline (oversampled: 5 per game) and the models before it (3).
    _evaluate("a", "b", "c", "--protocol", "gamebench", "--games", "hive")
    against_random = {("hive", "", (m, "hive-lv0")): 5 for m in "abc"}
    assert _pairings("gamebench") == {
        **against_random,
        **{("hive", "", p): 3 for p in [("a", "b"), ("a", "c"), ("b", "c")]},
    }
    with pytest.raises(CommandError, match="one agent at a time"):
        _evaluate("a", "b", "--protocol", "botzonebench")


def test_the_same_command_twice_finds_the_evaluation_instead_of_doubling_it():
    _model("m")
    _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe")
    again = _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe")
    assert Tournament.objects.count() == 1
    assert Match.objects.count() == 16
    assert "0/16 matches done" in again
    # Other options are another evaluation.
    _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe", "--games-per-seat", "2")
    assert Match.objects.count() == 16 + 4
    assert "(changed: games, games per seat)" in Tournament.objects.order_by("pk").last().name


def test_gamebench_plays_the_random_baseline_five_times_per_game_with_cot_and_three_tries():
    _model("m")
    _key, [tournament] = evaluation_create(agent=Agent.objects.get(slug="m"), protocol="gamebench", games=["santorini"])
    assert not tournament.fixed_seeds  # random seeds unless fixed ones are asked for
    _key, [tournament] = evaluation_create(
        agent=Agent.objects.get(slug="m"), protocol="gamebench", games=["santorini"], first_seed=0
    )
    assert tournament.fixed_seeds
    assert tournament.format == "adversarial"
    seated = tournament.config["agents"][0]
    assert seated == "m--gamebench-cot"
    config = Agent.objects.get(slug=seated).current_version().config
    assert (config["scaffold"], config["retries"]) == ("cot", 2)  # GameBench's code: 3 tries in all
    assert {m.record["policies"]["fallback"] for m in tournament.matches.all()} == {"random_legal"}
    # 5 matches: sides in turn over 3 seeds, the odd one to the agent moving first
    first, second = (seated, "santorini-lv0"), ("santorini-lv0", seated)
    assert dict(_seatings(tournament)) == {
        ("santorini", None, seed, order): 1
        for seed, order in [(0, first), (0, second), (1, first), (1, second), (2, first)]
    }
    # The paper's other scaffolds are the paper's too: not a change.
    _, [rap] = evaluation_create(
        agent=Agent.objects.get(slug="m"), protocol="gamebench", games=["santorini"], scaffold="rap"
    )
    assert rap.config["evaluation"]["changed"] == ["games"]


def test_advgamebench_needs_opponents_and_plays_four_per_move_order_at_temperature_0_3():
    _model("m")
    _model("rival")
    with pytest.raises(CommandError, match="--opponents"):
        _evaluate("m", "--protocol", "advgamebench")
    _evaluate("m", "--protocol", "advgamebench", "--games", "battle-card", "--opponents", "rival")
    [tournament] = Tournament.objects.all()
    seats = _seatings(tournament)
    me, rival = "m--advgamebench-direct", "rival--advgamebench-direct"
    assert dict(seats) == {("battle-card", None, s, o): 1 for s in range(4) for o in ((me, rival), (rival, me))}
    assert Agent.objects.get(slug=me).current_version().config["temperature"] == 0.3
    assert Agent.objects.get(slug=rival).current_version().config["temperature"] == 0.3
    assert tournament.config["evaluation"]["changed"] == ["games"]  # named opponents are the protocol's rule


def test_star_plays_both_modes_and_its_named_opponents_play_each_other_too():
    for slug in ("m", "x", "y"):
        _model(slug, scaffold="direct")
    _evaluate("m", "--protocol", "star", "--opponents", "x,y")
    turn_based, real_time, *round_robins = Tournament.objects.order_by("pk")
    assert (turn_based.config["variant"], real_time.config["variant"]) == ("", "real-time")
    assert turn_based.config["agents"] == ["m"]  # its config already is the protocol's: seated as it is
    pairs = [("m", "x"), ("m", "y"), ("x", "y")]  # the leaderboard's round robin: x and y meet too
    assert _pairings("star") == {("skirmish", v, p): 4 for v in ("", "real-time") for p in pairs}
    assert [t.format for t in round_robins] == ["round_robin", "round_robin"]
    _evaluate("m", "--protocol", "star", "--opponents", "x,y")  # found again, not doubled
    assert _pairings("star") == {("skirmish", v, p): 4 for v in ("", "real-time") for p in pairs}


def test_dsgbench_plays_the_papers_scenarios_ten_matches_each_against_the_strongest_bot():
    _model("m", scaffold="direct")
    me = "m--dsgbench-direct"
    _evaluate("m", "--protocol", "dsgbench")
    random_placement, fixed_placement, werewolf, diplomacy = Tournament.objects.order_by("pk")
    for tournament, variant in ((random_placement, "random-placement"), (fixed_placement, "fixed-placement")):
        assert (tournament.config["variant"], tournament.config["opponents"]) == (variant, ["stratego-lv3"])
        sides = Counter(m.seats.get(agent_version__agent__slug=me).index for m in tournament.matches.all())
        assert sides == {0: 5, 1: 5}  # 10 per scenario, 5 per side
    # Werewolf's two role scenarios: the agent as the whole village in 10 matches and as both wolves in 10.
    assert werewolf.config["options"] == {"teams": "seated"}
    roles = Counter(
        tuple(m.seats.filter(agent_version__agent__slug=me).values_list("index", flat=True))
        for m in werewolf.matches.all()
    )
    assert roles == {(0, 1): 10, (2, 3, 4, 5, 6, 7): 10}
    assert len({m.seed for m in werewolf.matches.all()}) == 10  # each seed played from both sides
    # Diplomacy: one scenario of 10; 7 powers cannot share it equally, the first three get the extra matches.
    assert diplomacy.config["variant"] == "welfare"
    powers = Counter(m.seats.get(agent_version__agent__slug=me).index for m in diplomacy.matches.all())
    assert powers == {0: 2, 1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}


def test_an_interrupted_evaluation_resumes_to_the_same_matches_as_one_played_straight(scripted):
    for slug in ("straight", "interrupted"):
        _model(slug, base_url=scripted.base_url, scaffold="botzone", retries=2, decision_budget_s=300.0)
    args = ("--protocol", "botzonebench", "--games", "tic-tac-toe", "--games-per-seat", "1")
    _evaluate("straight", *args, "--run")
    _evaluate("interrupted", *args)  # queued, then a worker dies mid-way
    [(_, [tournament])] = find_evaluations("interrupted").items()
    first, second = tournament.matches.order_by("pk")[:2]
    async_to_sync(run_match)(first.pk)
    Match.objects.filter(pk=second.pk).update(
        status=Match.Status.RUNNING, claimed_by="dead-worker", heartbeat_at=timezone.now() - timezone.timedelta(hours=1)
    )
    out = _evaluate("interrupted", *args, "--run")
    assert Tournament.objects.filter(config__evaluation__agent="interrupted").count() == 1

    def played(agent: str) -> Counter:
        [(_, [t])] = find_evaluations(agent).items()
        assert set(t.matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
        return Counter(
            (level, seed, order.replace(agent, "M"))
            for (_, level, seed, order_tuple) in _seatings(t)
            for order in [" ".join(order_tuple)]
        )

    assert played("interrupted") == played("straight")
    assert {m.record["evaluation"]["protocol"] for m in Match.objects.all()} == {"botzonebench"}  # later levels too
    assert len(played("straight")) > 2  # it climbed past Lv0
    assert "Table 2: level reached and progress — Arena's ladder, not Botzone's bots; Lv0 is identical" in out
    assert "GPT-5.2 — published (BotzoneBench, Table 2): tic-tac-toe: Lv1, 46.9%" in out  # the paper's, beside ours
    assert "interrupted (botzone) [BotzoneBench protocol (changed: games, games per seat)]: tic-tac-toe: " in out


def test_the_token_budget_stops_scheduling_before_it_would_be_passed(scripted):
    _model("m", base_url=scripted.base_url, scaffold="botzone", price_in_per_mtok=1.0, price_out_per_mtok=4.0)
    args = ("m", "--protocol", "botzonebench", "--games", "tic-tac-toe", "--games-per-seat", "2")
    out = _evaluate(*args, "--run", "--budget-tokens", "200")
    # A tic-tac-toe game takes the model at least 3 calls of 55 tokens: after one match, a second would pass 200.
    [(_, [tournament])] = find_evaluations("m").items()
    assert tournament.matches.filter(status=Match.Status.FINISHED).count() == 1
    assert tournament.matches.filter(status=Match.Status.PENDING).count() == 3
    assert "stopped scheduling: budget reached" in out
    # A larger budget lets it go on: the same evaluation, now allowed to finish Lv0 and climb.
    out = _evaluate(*args, "--run", "--budget-tokens", "1000000", "--budget-usd", "1")
    assert "stopped scheduling" not in out
    assert tournament.matches.filter(status=Match.Status.PENDING).count() == 0
    assert tournament.matches.count() > 4


def test_agents_evaluated_on_one_protocol_meet_the_same_secret_deals_from_both_seats():
    for slug in ("m1", "m2"):
        _model(slug)
        call_command("evaluate", slug, "--protocol", "botzonebench", "--games", "tic-tac-toe", stdout=StringIO())
    deals = {}
    for slug in ("m1", "m2"):
        [(_, [tournament])] = find_evaluations(slug).items()
        seated = tournament.config["evaluation"]["seated"]
        seats = Counter()
        for match in tournament.matches.prefetch_related("seats__agent_version__agent"):
            order = [s.agent_version.agent.slug for s in match.seats.order_by("index")]
            seats[(match.seed, order.index(seated))] += 1
        deals[slug] = seats
    seeds = {seed for seed, _ in deals["m1"]}
    assert len(seeds) == 8
    assert deals["m1"] == deals["m2"] == Counter({(seed, seat): 1 for seed in seeds for seat in (0, 1)})
    assert not seeds & set(range(10_000))  # the site's secret set, not 0, 1, 2, …
    # Drawn once per site and protocol part: the same set whoever is evaluated, keyed by the site's secret.
    label = tournament.config["seed_set"]
    assert label.startswith("evaluate/botzonebench/tic-tac-toe/")
    assert seeds == set(secret_seeds(label, 0, 8))


def test_a_token_budget_is_a_cap_a_match_past_it_is_adjourned_and_resumes_when_raised(scripted):
    _model("m", base_url=scripted.base_url, scaffold="botzone")
    args = ("m", "--protocol", "botzonebench", "--games", "tic-tac-toe", "--games-per-seat", "1")
    out = _evaluate(*args, "--run", "--budget-tokens", "100")
    # Each call costs 55 tokens: the second reaches 110, so the model's third decision is never asked for.
    [(_, [tournament])] = find_evaluations("m").items()
    spent = evaluation_spend([tournament])["tokens"]
    assert 100 <= spent <= 100 + 55  # the budget plus at most one decision
    [adjourned] = tournament.matches.filter(status=Match.Status.RUNNING)
    assert (adjourned.claimed_by, adjourned.pause["adjourned"]) == ("", True)
    assert adjourned.pause["reason"].startswith("budget reached: 110 tokens spent of 100")
    assert "stopped scheduling: budget reached" in out
    ply = adjourned.ply
    out = _evaluate(*args, "--run", "--budget-tokens", "1000000")  # raised: the same match goes on from its ply
    adjourned.refresh_from_db()
    assert (adjourned.status, adjourned.pause) == (Match.Status.FINISHED, None)
    assert adjourned.ply > ply
    assert tournament.matches.exclude(status=Match.Status.FINISHED).count() == 0


def test_a_queued_evaluation_is_stopped_by_its_budget_when_a_worker_finishes_a_match(scripted):
    _model("m", base_url=scripted.base_url, scaffold="botzone")
    out = _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe", "--budget-tokens", "200")
    assert "queued 16 matches" in out
    assert "queued 0 matches" in _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe")  # once
    [(_, [tournament])] = find_evaluations("m").items()
    async_to_sync(run_match)(tournament.matches.order_by("pk").first().pk)  # as a db_worker would
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.config["stopped"].startswith("budget reached")
    assert tournament.matches.filter(status=Match.Status.FINISHED).count() == 1
    assert tournament.matches.filter(status=Match.Status.ABORTED).count() == 15
    again = _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe")  # the budget is kept
    assert "stopped scheduling: budget reached" in again


def test_changing_the_opponents_or_scaffold_is_labelled_and_a_bot_takes_no_scaffold():
    _model("m")
    _evaluate("m", "--protocol", "botzonebench", "--games", "tic-tac-toe", "--opponents", "tic-tac-toe-lv2")
    [tournament] = Tournament.objects.all()
    assert tournament.name.startswith("BotzoneBench protocol (changed: games, opponents)")
    assert tournament.format == "adversarial"  # a fixed opponent instead of the climb
    assert Counter(_seatings(tournament).values()) == {1: 32}  # still 16 per side
    assert tournament.config["opponents"] == ["tic-tac-toe-lv2"]
    _evaluate("m", "--protocol", "gamebench", "--games", "hive", "--scaffold", "self-consistency")
    hive = Tournament.objects.get(config__games=["hive"])
    assert hive.config["evaluation"]["changed"] == ["games", "scaffold"]
    assert hive.config["agents"] == ["m--gamebench-self-consistency"]
    with pytest.raises(CommandError, match="not a model"):
        _evaluate("tic-tac-toe-lv1", "--protocol", "botzonebench", "--games", "tic-tac-toe", "--scaffold", "cot")
