"""A guest who signs up keeps their seat: same agent, games and consent, one name."""

from __future__ import annotations

import pytest

from arena.models import Agent, Match
from arena.record.agents import bots_ensure
from arena.record.people import guest_claim
from arena.record.services import ServiceError

pytestmark = pytest.mark.django_db

PASSWORD = "Sx9!long-pass"


def test_signing_up_after_playing_as_a_guest_keeps_the_same_agent_under_the_account_name(client):
    bots_ensure(game="tic-tac-toe")
    client.post("/play/", {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": "",
                           "game": "tic-tac-toe", "opponent": "tic-tac-toe-lv0"})  # fmt: skip
    guest = Agent.objects.get(kind=Agent.Kind.HUMAN)
    assert "playing as <strong>Robin</strong>" in client.get("/accounts/signup/").content.decode()
    client.post("/accounts/signup/", {"username": "robin42", "password1": PASSWORD, "password2": PASSWORD})
    assert Agent.objects.filter(kind=Agent.Kind.HUMAN).count() == 1
    claimed = Agent.objects.get(pk=guest.pk)
    assert claimed.user.username == "robin42"
    assert claimed.name == "robin42"
    assert claimed.baseline_consent is True
    match = Match.objects.get()
    # Reopening the game signed in (on any browser) shows it as the player's own, not as a spectator's.
    page = client.get(f"/play/{match.pk}/").content.decode()
    assert "(you)" in page
    # Every list and live page names agents by their display name (the slug is only the link and its title).
    bot = Agent.objects.get(slug="tic-tac-toe-lv0")
    for html in (page, client.get("/matches/").content.decode()):
        assert '<span class="kind-dot" aria-hidden="true"></span>robin42</a>' in html
        assert f'<span class="kind-dot" aria-hidden="true"></span>{bot.name}</a>' in html
        assert f">{guest.slug}<" not in html


def test_a_claimed_guest_or_an_account_with_a_seat_cannot_claim_again(django_user_model):
    first, second = (django_user_model.objects.create_user(name, password=PASSWORD) for name in ("a", "b"))
    guest = Agent.objects.create(slug="guest-x", name="X", kind=Agent.Kind.HUMAN)
    guest_claim(guest=guest, user=first)
    with pytest.raises(ServiceError):
        guest_claim(guest=guest, user=second)
    other = Agent.objects.create(slug="guest-y", name="Y", kind=Agent.Kind.HUMAN)
    with pytest.raises(ServiceError):
        guest_claim(guest=other, user=first)
