"""Arctic Scavengers and Two Rooms and a Boom through the pages: a first run seeds and
shows them, a finished match's replay reveals what the seats' live views hid, and a Two Rooms tournament seats an
entrant alone in each seat in turn (the deal picks the teams in secret) and rates it on the game's leaderboard and
GameBench's columns."""

from __future__ import annotations

import io
import json

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import override_settings
from django.utils.html import escape

from arena.models import Match, Tournament
from arena.pages.rendering import board_html
from arena.record.agents import bots_ensure
from arena.record.dataset import import_dataset
from arena.record.selectors import match_state_at
from arena.record.services import match_create
from arena.runner.loop import run_match
from arena.tournaments.services import tournament_create
from games import get_game
from ratings.record.reports import gamebench
from ratings.record.services import snapshot_compute

pytestmark = pytest.mark.django_db

NEWEST = ["arctic-scavengers", "two-rooms-and-a-boom"]


def test_a_first_run_seeds_demos_and_queues_only_the_two_seat_game(client):
    out = io.StringIO()
    call_command("seed", *(a for slug in NEWEST for a in ("--game", slug)), "--first-run-matches", "36", stdout=out)
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    # Two seats: Lv1–Lv0 and Lv2–Lv1 in both seat orders; six seats: one match.
    assert finished.filter(game="arctic-scavengers").count() == 4
    [demo] = finished.filter(game="two-rooms-and-a-boom")
    # The deal picks the teams in secret, so the seating cannot follow them: Lv1 alone in the first seat, Lv0 the rest.
    seated = [seat.agent_version.agent.slug for seat in demo.seats.order_by("index")]
    assert seated == ["two-rooms-and-a-boom-lv1"] + ["two-rooms-and-a-boom-lv0"] * 5
    # The first run's round robin is for two-seat games: 36 // 1 game // (2 seat orders · 3 pairs) = 6 per seat.
    [tournament] = Tournament.objects.all()
    assert (tournament.slug, tournament.matches.count()) == ("first-run-arctic-scavengers", 36)
    for slug in NEWEST:
        assert f"{slug}-lv1" in client.get(f"/leaderboard/{slug}/").content.decode()
        rules = client.get(f"/games/{slug}/").content.decode()
        assert get_game(slug).name in rules


@pytest.mark.parametrize("slug", NEWEST)
def test_the_replay_of_a_finished_match_shows_what_the_live_views_hid(client, slug):
    game = get_game(slug)
    bots = {agent.slug: agent for agent in bots_ensure(game=slug)}
    agents = [bots[f"{slug}-lv1"]] + [bots[f"{slug}-lv0"]] * (game.num_players - 1)
    match = async_to_sync(run_match)(match_create(game=game.slug, agents=agents, seed=5).pk)
    assert match.status == Match.Status.FINISHED
    ply = match.ply // 2
    state = match_state_at(match, ply)
    revealed = board_html(game, state, None, reveal=True)
    body = client.get(f"/matches/{match.pk}/replay/?ply={ply}").content.decode()
    assert revealed in body
    for seat in range(game.num_players):
        assert board_html(game, state, seat) != revealed, f"seat {seat} saw everything mid-game"
    # the trace of the move that led here, as played (a finished match keeps nothing secret)
    assert escape(match.decisions.get(ply=ply - 1).action_text) in body


def downloaded(client, slug: str) -> list[str]:
    """The dataset download's lines for one game."""
    response = client.get(f"/dataset.jsonl?game={slug}")
    return b"".join(response.streaming_content).decode().splitlines(keepends=True)


@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_an_entrant_plays_each_two_rooms_seat_alone_and_is_rated_by_its_seat(client, settings, tmp_path):
    settings.VAR_DIR = tmp_path  # where the dataset download is cached
    slug = "two-rooms-and-a-boom"
    bots = {agent.slug: agent for agent in bots_ensure(game=slug)}
    strong, weak = bots[f"{slug}-lv2"], bots[f"{slug}-lv0"]
    tournament = tournament_create(
        slug="trb", name="TRB", format="round_robin", games=[slug], agents=[strong, weak], games_per_seat=1
    )
    game, wins = get_game(slug), {strong.slug: 0, weak.slug: 0}
    matches = list(tournament.matches.order_by("pk"))
    n = game.num_players
    assert len(matches) == 2 * n  # one seed: each agent alone in each seat in turn, the other in the rest
    assert len({match.seed for match in matches}) == 1
    for index, match in enumerate(matches):
        alone, rest = (strong, weak) if index < n else (weak, strong)
        seated = [s.agent_version.agent.slug for s in match.seats.order_by("index")]
        assert seated == [alone.slug if seat == index % n else rest.slug for seat in range(n)]
        match = async_to_sync(run_match)(match.pk)
        wins[alone.slug] += match.scores[index % n] == 1.0  # the lone seat's team won
        if match.pk == matches[0].pk:
            # its seed deals the cards of a match still to play: neither the page nor the download shows it
            assert f"seed {match.seed}" not in client.get(f"/matches/{match.pk}/").content.decode()
            assert json.loads(downloaded(client, slug)[0])["counts"].get("match", 0) == 0
    assert f"seed {matches[0].seed}" in client.get(f"/matches/{matches[0].pk}/").content.decode()
    lines = downloaded(client, slug)
    assert json.loads(lines[0])["counts"]["match"] == len(matches)
    assert import_dataset(lines).rejected == []  # checksum, manifest and records hold
    for scope in (slug, ""):  # the game's board and the all-games board
        rows = {row["slug"]: row for row in snapshot_compute(game=scope)["rows"]}
        for agent in (strong, weak):
            # Each agent's results are its lone seats' (five seats spread over both teams are no result of its own).
            assert rows[agent.slug]["matches"] == n
            assert rows[agent.slug]["wins"] == wins[agent.slug]
    assert set(NEWEST) <= set(gamebench.GAMES)
    report = io.StringIO()
    call_command("report", "gamebench", "--format", "md", "--bots", "show", stdout=report)  # scripted agents only here
    header = next(line for line in report.getvalue().splitlines() if line.startswith("| |"))
    assert f"| {slug} |" in header
    assert f"{strong.slug} |" in report.getvalue()
