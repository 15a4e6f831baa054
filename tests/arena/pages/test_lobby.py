"""The lobby form: a game's variants (Skirmish in real time), bots and open challenges, and bad choices refused
(a Botzone program under rules it has no requests for)."""

from __future__ import annotations

import pytest

from arena.models import Challenge, Match
from arena.record.agents import agent_create, bots_ensure
from games import get_game

pytestmark = pytest.mark.django_db

GUEST = {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": ""}


@pytest.fixture(autouse=True)
def bots():
    for slug in ("skirmish", "connect-four"):
        bots_ensure(game=slug)


def test_only_games_with_variants_offer_a_variant_choice(client):
    page = client.get("/play/?game=skirmish").content.decode()
    assert '<select name="variant" id="id_variant">' in page
    assert '<option value="real-time">real-time</option>' in page
    assert 'name="variant"' not in client.get("/play/?game=connect-four").content.decode()
    # Changing the game swaps the opponents in, and the variant field out of band.
    swapped = client.get("/play/opponents/?game=skirmish").content.decode()
    assert 'id="variant-field" hx-swap-oob="true"' in swapped
    assert 'value="real-time"' in swapped
    assert 'value="real-time"' not in client.get("/play/opponents/?game=connect-four").content.decode()


def test_a_real_time_skirmish_against_a_bot(client):
    response = client.post("/play/", {**GUEST, "game": "skirmish", "opponent": "skirmish-lv0", "variant": "real-time"})
    match = Match.objects.get()
    assert response.url == f"/play/{match.pk}/"
    game = get_game("skirmish")
    assert game.from_json(match.state).mode == "real-time"
    assert match.options == {"mode": "real-time"}
    standard = client.post("/play/", {**GUEST, "game": "skirmish", "opponent": "skirmish-lv0", "variant": ""})
    assert standard.status_code == 302
    assert game.from_json(Match.objects.latest("pk").state).mode == "turn-based"


def test_a_variant_the_game_does_not_have_is_refused_and_nothing_starts(client):
    response = client.post("/play/", {**GUEST, "game": "connect-four", "opponent": "connect-four-lv0",
                                      "variant": "real-time"})  # fmt: skip
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


def test_an_open_challenge_keeps_its_variant_until_someone_accepts(client, django_user_model):
    client.post("/play/", {**GUEST, "game": "skirmish", "opponent": "open-challenge", "variant": "real-time"})
    challenge = Challenge.objects.get()
    assert challenge.variant == "real-time"
    assert "skirmish (real-time)" in client.get("/play/").content.decode()
    other = django_user_model.objects.create_user("kim", password="pw-123456")
    client.force_login(other)
    client.post("/play/", {"game": "connect-four", "opponent": "connect-four-lv0", "seat": "0", "consent": "no"})
    response = client.post(f"/challenges/{challenge.pk}/accept/")
    challenge.refresh_from_db()
    assert response.url == f"/play/{challenge.match_id}/"
    assert get_game("skirmish").from_json(challenge.match.state).mode == "real-time"


@pytest.mark.parametrize(("game", "why"), [("holdem", "botzone variant"), ("mahjong", "duplicate mode")])
def test_a_program_is_offered_and_seated_only_in_the_variant_it_can_play(client, game, why):
    program = agent_create(slug="bz", name="Botzone bot", kind="program", config={"command": "/bin/true"})
    program.approved = True
    program.save()
    offered = client.get(f"/play/opponents/?game={game}").content.decode()
    assert "Botzone bot (botzone variant only)" in offered
    seats = {**GUEST, "game": game, "opponent": "bz", "seat": "random"}
    refused = client.post("/play/", {**seats, "variant": ""})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "Botzone bot is a Botzone program and cannot play these rules." in page
    assert why in page
    assert not Match.objects.exists()
    if game == "holdem":
        assert client.post("/play/", {**seats, "variant": "botzone"}).status_code == 302
        assert Match.objects.get().options == get_game("holdem").variants["botzone"]
