"""The move list through the real pages: the game's own notation, hand/round headings, plan summaries with their
JSON folded, and nothing of a hidden move beyond its public text."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.utils.html import escape

from arena.models import Agent
from arena.pages.move_list import move_list_html
from arena.pages.rendering import live_match_html
from arena.record.agents import bots_ensure
from arena.record.decisions import DecisionResult
from arena.record.people import guest_agent_create, person_match_create
from arena.record.services import decision_record, decisions_record, match_create
from arena.record.turns import match_claim
from arena.runner.loop import run_match
from games import get_game

pytestmark = pytest.mark.django_db


#: A chess move list's entries: White's move after its number ("12."), Black's beside it.
CHESS_MOVE = re.compile(r'<li(?: class="second")?>(?:<span class="move-number">\d+\.</span> )?(\S+)</li>')


def move_list(html: str) -> str:
    return re.search(r'<div class="move-list".*?</div>\s*(?=<|$)', html, re.S).group(0)


def test_chess_moves_read_as_san_live_and_in_the_replay(client):
    bots = bots_ensure(game="chess")
    match = match_claim(match_id=match_create(game="chess", agents=bots[:2], seed=1).pk, worker="t").match
    for ply, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1"]):
        match = decision_record(match=match, ply=ply, action=uci)
    live = live_match_html(match, None)
    assert CHESS_MOVE.findall(live) == ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O"]
    assert re.findall(r'<span class="move-number">(\d+)\.</span>', live) == ["1", "2", "3", "4"]  # by full move
    replay = client.get(f"/matches/{match.pk}/replay/?ply=3").content.decode()
    links = re.findall(r'href="\?ply=(\d+)"[^>]*>([^<]+)</a>', move_list(replay))
    assert links == [("1", "e4"), ("2", "e5"), ("3", "Nf3"), ("4", "Nc6"), ("5", "Bb5"), ("6", "Nf6"), ("7", "O-O")]
    assert 'href="?ply=3" hx-get' in replay
    assert 'aria-current="step">Nf3<' in replay
    assert "<p><strong>Nf3</strong> <code>g1f3</code>" in replay  # the trace names the move both ways


def test_poker_moves_are_grouped_by_hand_and_numbered_on(client):
    bots = {a.slug: a for a in bots_ensure(game="kuhn-poker")}
    match = match_create(game="kuhn-poker", agents=[bots["kuhn-poker-lv1"]] * 2, seed=5, options={"hands": 3})
    match = async_to_sync(run_match)(match.pk)
    assert match.status == "finished"
    replay = client.get(f"/matches/{match.pk}/replay/?ply=1").content.decode()
    headings = re.findall(r'<h3 class="move-group">([^<]+)</h3>', replay)
    assert headings == ["Hand 1 of 3", "Hand 2 of 3", "Hand 3 of 3"]
    starts = [int(n) for n in re.findall(r'<ol start="(\d+)">', replay)]
    assert starts[0] == 1
    assert starts == sorted(starts)
    assert len(set(starts)) == 3
    assert len(re.findall(r"<li[ >]", move_list(replay))) == match.ply


def test_a_plan_reads_as_its_summary_with_the_json_one_click_away_once_the_match_is_over(client):
    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    match = match_create(game="battle-card", agents=[bots["battle-card-lv1"], bots["battle-card-lv0"]], seed=2)
    match = async_to_sync(run_match)(match.pk)
    assert match.status == "finished"
    html = move_list(client.get(f"/matches/{match.pk}/replay/?ply=1").content.decode())
    first = match.decisions.get(ply=0)
    assert re.search(r">invader: \d+ minions[^<]*, cost \d+</a>", html)
    folded = (
        f'<details class="move-detail"><summary>plan JSON</summary><pre class="model-text">{escape(first.action_text)}'
    )
    assert folded in html
    assert "Round 1, leg 1: Blue attacks" in html


def test_a_sealed_plan_s_summary_shows_only_to_its_author_while_the_match_runs():
    bots_ensure(game="battle-card")
    person = guest_agent_create(nickname="Planner")
    opponent = Agent.objects.get(slug="battle-card-lv0")
    match = person_match_create(person=person, opponent=opponent, game="battle-card", seat=0)
    match = match_claim(match_id=match.pk, worker="t").match
    game = get_game("battle-card")
    plan = json.dumps(game.example_plans(0, dict(game.from_json(match.state).options))[0])
    match = decision_record(match=match, ply=0, action=game.parse_action(game.from_json(match.state), plan))
    mine = move_list(live_match_html(match, person))
    assert "invader: 5 minions, target leftmost, cost 9" in mine
    assert "plan JSON" in mine
    other = guest_agent_create(nickname="Onlooker")
    for viewer in (None, other):
        theirs = move_list(live_match_html(match, viewer))
        assert "(sealed plan)" in theirs
        assert "minions" not in theirs
        assert "cost" not in theirs
        assert "plan JSON" not in theirs


def test_the_move_list_escapes_every_text_and_marks_fallbacks_and_the_shown_move():
    groups = [
        {
            "title": "Hand <1>",
            "moves": [
                {"ply": 4, "who": "A&B", "label": "<b>", "detail": "", "fallback": ""},
                {"ply": 5, "who": "", "label": "x", "detail": '{"c": "<i>"}', "fallback": "random"},
            ],
        }
    ]
    live = move_list_html(groups)
    assert '<h3 class="move-group">Hand &lt;1&gt;</h3>\n    <ol start="5">' in live
    assert '<li><span class="muted">A&amp;B:</span> &lt;b&gt;</li>' in live
    assert '<li class="fallback">x <span class="badge badge-over_budget"' in live
    assert '<pre class="model-text">{&quot;c&quot;: &quot;&lt;i&gt;&quot;}</pre>' in live
    assert "<b>" not in live
    assert "<i>" not in live
    assert "No moves yet" not in live
    replay = move_list_html(groups, replay=(7, 6))
    assert (
        '<li class="fallback"><a href="?ply=6" hx-get="/matches/7/replay/?ply=6" hx-target="#match-7-replay" '
        'hx-swap="outerHTML" hx-push-url="?ply=6" aria-current="step">x</a>\n <span class="badge' in replay
    )
    assert 'hx-push-url="?ply=5">&lt;b&gt;</a>' in replay
    assert move_list_html([]).endswith('</div>\n<p class="muted">No moves yet.</p>\n')


def test_the_kept_rows_draw_the_live_panel_a_fresh_read_draws_and_a_ply_already_read_is_not_read_again():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from arena.pages import move_list as kept

    bots = bots_ensure(game="chess")
    match = match_claim(match_id=match_create(game="chess", agents=bots[:2], seed=1).pk, worker="t").match
    for ply, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1"]):
        recorded = decisions_record(match=match, ply=ply, decisions=[DecisionResult(action=uci)])
        match = recorded.match
        with CaptureQueriesContext(connection) as queries:
            live_match_html(match, None, recorded=recorded.decisions)  # the new ply comes with its write
        assert not [q["sql"] for q in queries if 'FROM "arena_decision"' in q["sql"]]

    def drawn():  # the panel without its clock, the seconds since the last move
        html = live_match_html(match, None)
        return re.sub(r'data-thinking="\d+"|data-clock>\d+ s<', "", html)

    with CaptureQueriesContext(connection) as queries:
        from_kept = drawn()
    assert not [q["sql"] for q in queries if 'FROM "arena_decision"' in q["sql"]]
    with kept._labels_lock:
        kept._labels.clear()  # labels dropped, rows kept: the positions are read again for the labels
    assert drawn() == from_kept
    with kept._labels_lock:
        kept._rows.clear()
        kept._labels.clear()
    assert drawn() == from_kept
    assert CHESS_MOVE.findall(from_kept) == ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O"]
