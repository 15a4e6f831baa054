"""The lobby starts a newcomer against a model or the next bot level, plays again against the same opponent,
shows the person's running games, and lets them withdraw an open challenge."""

from __future__ import annotations

import re
import threading

import pytest

from arena.agents.llm.local import completion_check, local_llm_agents
from arena.models import Agent, Challenge, Match
from arena.pages.rendering import live_match_html
from arena.record.agents import agent_ensure, bots_ensure
from arena.record.services import decision_record
from arena.record.turns import match_claim
from tests.arena.llm.scripted_server import ScriptedServer, slow

pytestmark = pytest.mark.django_db

GUEST = {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": ""}


def selected_opponent(html: str) -> str:
    select = re.search(r'<select name="opponent".*?</select>', html, re.S).group(0)
    return re.search(r'<option value="([^"]+)"[^>]*selected', select).group(1)


@pytest.fixture(autouse=True)
def bots():
    bots_ensure(game="tic-tac-toe")


def test_without_models_the_lobby_offers_the_lowest_bot_level_not_yet_beaten(client):
    assert selected_opponent(client.get("/play/?game=tic-tac-toe").content.decode()) == "tic-tac-toe-lv0"
    client.post("/play/", {**GUEST, "game": "tic-tac-toe", "opponent": "tic-tac-toe-lv0"})
    match = match_claim(match_id=Match.objects.get().pk, worker="w").match
    for ply, cell in enumerate([0, 3, 1, 4, 2]):  # Lv0 plays what we give it here: the top row wins
        match = decision_record(match=match, ply=ply, action=cell)
    assert match.scores == [1.0, 0.0]
    assert selected_opponent(client.get("/play/?game=tic-tac-toe").content.decode()) == "tic-tac-toe-lv1"
    # The game select swaps in the same default.
    assert selected_opponent(client.get("/play/opponents/?game=tic-tac-toe").content.decode()) == "tic-tac-toe-lv1"


def test_a_model_is_preselected_the_one_that_answers_with_legal_moves_first(client):
    with ScriptedServer() as server:  # the local models' server, answering
        for spec in local_llm_agents(server.port):
            agent_ensure(**spec)
        grammar = [s["slug"] for s in local_llm_agents() if s["config"]["scaffold"] == "grammar-reasoning"]
        assert selected_opponent(client.get("/play/?game=tic-tac-toe").content.decode()) == grammar[0]
        assert "Open challenge" in client.get("/play/").content.decode()  # still offered, last


def test_a_local_model_whose_server_is_busy_with_another_game_is_still_offered_and_preselected(client):
    # Its one slot taken, as a llama-server sized so: the lobby's probe (/health) answers all the same.
    with ScriptedServer(lambda body: slow(3.0), slots=1) as server:
        for spec in local_llm_agents(server.port):
            agent_ensure(**spec)
        busy = threading.Thread(target=completion_check, args=(server.base_url, "smollm2-135m"))
        busy.start()
        server.until_busy()
        grammar = [s["slug"] for s in local_llm_agents() if s["config"]["scaffold"] == "grammar-reasoning"]
        assert selected_opponent(client.get("/play/?game=tic-tac-toe").content.decode()) == grammar[0]
        busy.join()


def test_a_local_model_whose_server_does_not_answer_is_neither_offered_nor_preselected(client):
    with ScriptedServer() as server:
        port = server.port
    for spec in local_llm_agents(port):  # the server is gone: nothing listens on its port
        agent_ensure(**spec)
    lobby = client.get("/play/?game=tic-tac-toe").content.decode()
    assert selected_opponent(lobby) == "tic-tac-toe-lv0"
    assert "(local)" not in lobby
    assert "(local)" not in client.get("/play/opponents/?game=tic-tac-toe").content.decode()


def test_play_again_keeps_the_game_and_opponent_and_the_lobby_lists_running_games(client):
    client.post("/play/", {**GUEST, "game": "tic-tac-toe", "opponent": "tic-tac-toe-lv2"})
    match = Match.objects.get()
    lobby = client.get("/play/").content.decode()
    assert "Your games in progress" in lobby
    assert f"/play/{match.pk}/" in lobby
    person = Agent.objects.get(kind=Agent.Kind.HUMAN)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, scores=[0.0, 1.0])
    match.refresh_from_db()
    again = re.search(r'href="([^"]+)">Play again', live_match_html(match, person)).group(1).replace("&amp;", "&")
    assert again == "/play/?game=tic-tac-toe&opponent=tic-tac-toe-lv2"
    assert selected_opponent(client.get(again).content.decode()) == "tic-tac-toe-lv2"
    assert "Your games in progress" not in client.get("/play/").content.decode()


def test_an_open_challenge_can_be_withdrawn_by_its_creator_only(client):
    client.post("/play/", {**GUEST, "game": "tic-tac-toe", "opponent": "open-challenge"})
    challenge = Challenge.objects.get()
    assert "Cancel</button>" in client.get("/play/").content.decode()
    other = client.__class__()
    other.post("/play/", {**GUEST, "nickname": "Sam", "game": "tic-tac-toe", "opponent": "tic-tac-toe-lv0"})
    other.post(f"/challenges/{challenge.pk}/cancel/")
    assert Challenge.objects.filter(pk=challenge.pk).exists()
    assert client.get(f"/challenges/{challenge.pk}/cancel/").status_code == 405
    client.post(f"/challenges/{challenge.pk}/cancel/")
    assert not Challenge.objects.exists()


def test_seats_are_named_by_their_role_and_swapped_with_the_game(client):
    bots_ensure(game="codenames")
    page = client.get("/play/?game=codenames").content.decode()
    assert '<option value="2">Blue spymaster</option>' in page
    swapped = client.get("/play/opponents/?game=tic-tac-toe").content.decode()
    assert '<div id="seat-field" hx-swap-oob="true">' in swapped
    assert '<option value="1">second (O)</option>' in swapped
    assert "spymaster" not in swapped
    client.post("/play/", {**GUEST, "seat": "2", "game": "codenames", "opponent": "codenames-lv0"})
    match = Match.objects.get()
    assert match.seats.get(index=2).agent_version.agent.kind == Agent.Kind.HUMAN


@pytest.mark.parametrize("nickname", ["", "   "])
def test_an_empty_nickname_is_refused_with_the_reason_shown_and_the_choices_kept(client, nickname):
    response = client.post(
        "/play/", {**GUEST, "nickname": nickname, "game": "tic-tac-toe", "opponent": "tic-tac-toe-lv2"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    # Below the fold on a phone: the field at fault takes the focus, which scrolls it and its error into view.
    field = re.search(r'<input[^>]*name="nickname"[^>]*>', page).group(0)
    assert "autofocus" in field
    assert "Choose a nickname of 1 to 40 characters." in page
    assert selected_opponent(page) == "tic-tac-toe-lv2"
    assert not Match.objects.exists()
