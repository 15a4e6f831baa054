"""End-of-game text names players, says each result once, and the finished board shows everything."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone

from arena.models import Agent, Decision, Match
from arena.pages.rendering import board_html, live_match_html
from arena.pages.results import result_text
from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create, person_move, person_resign
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.runner.loop import run_match
from games import get_game

pytestmark = pytest.mark.django_db


def seats_of(*agents: Agent) -> list[dict]:
    return [{"index": i, "name": f"Seat {i + 1}", "agent": agent} for i, agent in enumerate(agents)]


def test_a_team_of_one_bot_wins_once_and_a_bot_on_both_sides_is_told_apart():
    wolf, person = Agent(pk=1, name="Werewolf Lv1"), Agent(pk=2, name="Pia")
    six = seats_of(wolf, wolf, person, wolf, wolf, wolf)
    assert (
        result_text("wolves equal villagers", six, [1, 1, 0, 1, 1, 1]) == "wolves equal villagers. Werewolf Lv1 wins."
    )
    two_wolves = result_text("wolves equal villagers", six, [1, 1, 0, 0, 0, 0])
    assert two_wolves == "wolves equal villagers. Werewolf Lv1 (Seat 1 and Seat 2) wins."
    assert result_text("the village is safe", seats_of(wolf, wolf, person), [1, 1, 1]) == "the village is safe. Draw."
    assert (
        result_text("resignation by seat 1", seats_of(wolf, person), [1, 0]) == "resignation by Pia. Werewolf Lv1 wins."
    )
    team = seats_of(person, wolf, wolf)
    assert result_text("four in a row", team, [1, 1, 0]) == "four in a row. Pia and Werewolf Lv1 (Seat 2) win."


def test_a_reason_that_ends_its_own_sentence_gets_no_second_stop():
    bot, person = Agent(pk=1, name="Mahjong Lv2"), Agent(pk=2, name="Pia")
    four = seats_of(bot, person, bot, bot)
    drawn = result_text("The wall ran out: a drawn hand.", four, [0.5] * 4)
    assert drawn == "The wall ran out: a drawn hand. Draw."
    landlord = result_text("the landlord seat 1 went out first (base 1).", seats_of(bot, person, bot), [0, 1, 0])
    assert landlord == "the landlord Pia went out first (base 1). Pia wins."
    assert result_text("time ran out!", seats_of(bot, person), None) == "time ran out!"


def test_the_live_panel_names_who_resigned():
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    person = guest_agent_create(nickname="Robin")
    match = match_create(game="tic-tac-toe", agents=[person, bots["tic-tac-toe-lv0"]], seed=1)
    match = person_resign(match_id=match.pk, agent=person)
    html = live_match_html(match, person)
    assert "by seat" not in html
    assert "by Robin" in html
    assert html.count(" wins.") == 1


def test_a_finished_werewolf_game_shows_every_role_to_everyone():
    bots = {a.slug: a for a in bots_ensure(game="werewolf")}
    game = get_game("werewolf")
    agents = [bots["werewolf-lv1"]] * game.num_players
    match = async_to_sync(run_match)(match_create(game="werewolf", agents=agents, seed=3).pk)
    assert match.status == "finished"
    state = game.from_json(match.state)
    revealed = board_html(game, state, None, reveal=True)
    assert revealed != board_html(game, state, None)  # the spectator's view hides roles while it is secret
    assert revealed in live_match_html(match, None)


def test_a_random_fallback_is_marked_in_the_live_move_list_and_counted_for_its_player():
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    person = guest_agent_create(nickname="Robin")
    match = match_claim(
        match_id=match_create(game="tic-tac-toe", agents=[bots["tic-tac-toe-lv1"], person], seed=1).pk, worker="w"
    ).match
    match = decision_record(match=match, ply=0, action=4, fallback="random_legal")
    match = decision_record(match=match, ply=1, action=0)
    html = live_match_html(match, person)
    moves = re.search(r'<div class="move-list".*?</div>', html, re.S).group(0)
    assert moves.count("random fallback") == 1
    assert re.search(r'<li class="fallback">[^<]*<span[^>]*>random fallback', moves)
    assert "1 random fallback<" in html  # the players list counts them


def test_a_person_s_thinking_time_is_recorded_on_their_move():
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    person = guest_agent_create(nickname="Robin")
    match = match_create(game="tic-tac-toe", agents=[person, bots["tic-tac-toe-lv0"]], seed=1)
    Match.objects.filter(pk=match.pk).update(status="running", started_at=timezone.now() - timedelta(seconds=5))
    person_move(match_id=match.pk, agent=person, text="b2", ply=0)
    decision = Decision.objects.get(match=match)
    assert 5000 <= decision.elapsed_ms < 60_000
    assert decision.attempts.get().latency_ms == decision.elapsed_ms
