"""What a new visitor reads: chess moves numbered as players count them and named in SAN everywhere, a rules page
that leads to a game, and pages that load only the stylesheets of the game they show."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync

from arena.models import Annotation
from arena.record.agents import bots_ensure
from arena.record.annotations import annotation_save
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def chess_match():
    bots = {bot.slug: bot for bot in bots_ensure(game="chess")}
    agents = [bots["chess-lv0"], bots["chess-lv0"]]
    return async_to_sync(run_match)(match_create(game="chess", agents=agents, seed=3).pk)


def test_chess_moves_are_numbered_by_full_move_and_annotations_name_them_in_san(client, chess_match, django_user_model):
    html = client.get(f"/matches/{chess_match.pk}/").content.decode()
    numbers = re.findall(r'<span class="move-number">(\d+)\.</span>', html)
    assert numbers[:3] == ["1", "2", "3"]
    assert int(numbers[-1]) == (chess_match.ply + 1) // 2  # the last full move, not the last ply
    assert html.count('<li class="second">') + html.count('<li class="fallback second">') == chess_match.ply // 2
    decision = chess_match.decisions.get(ply=1)  # Black's first move, recorded in UCI
    assert re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", decision.action_text)
    person = django_user_model.objects.create_user("ann", password="pw-123456")
    annotation_save(author=person, decision=decision, glyph="?!", tags=[], comment="")
    assert Annotation.objects.count() == 1
    listed = client.get("/annotations/").content.decode()
    label = re.search(r"move 2</a> <code>([^<]+)</code>", listed)[1]
    assert label != decision.action_text
    assert re.fullmatch(r"[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?|O-O(-O)?[+#]?", label)


def test_a_rules_page_leads_to_the_lobby_with_its_game_chosen(client):
    page = client.get("/games/reversi/").content.decode()
    assert '<a class="button primary" href="/play/?game=reversi">Play this game</a>' in page
    lobby = client.get("/play/?game=reversi").content.decode()
    assert re.search(r'<option value="reversi" selected>', lobby)


def test_pages_load_only_the_stylesheets_of_the_game_they_show(client):
    linked = lambda url: re.findall(r'href="/static/games/([\w-]+)\.css"', client.get(url).content.decode())  # noqa: E731
    assert linked("/games/chess/") == ["chess"]
    assert linked("/games/tower-defense/") == ["plan-games", "tower-defense"]  # a shared sheet first
    assert linked("/") == []
    assert linked("/games/") == []


def test_a_bot_s_trace_says_what_the_bot_is_and_how_long_it_thought(client, chess_match):
    decision = chess_match.decisions.get(ply=0)
    html = client.get(f"/matches/{chess_match.pk}/?ply=1").content.decode()
    bot = chess_match.seats.get(index=0).agent_version.agent
    assert f"{bot.name} is a bot: {bot.description}. It decided in one step, in {decision.elapsed_ms} ms" in html
    assert "No attempts recorded" not in html
