"""Rate limits count the address and the person both, cover every endpoint that creates work, and slow
repeated failed logins; refusals answer 429 with a reason and Retry-After, and other visitors are unaffected."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory, override_settings

from arena.config import ConfigError, from_env
from arena.models import Agent, Annotation, Challenge, Match, Tournament
from arena.play.ratelimit import ConnectionBudget, client_address, login_failed, login_wait, socket_address
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db

GUEST = {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": "", "game": "tic-tac-toe"}
LOBBY_GAME = {**GUEST, "opponent": "tic-tac-toe-lv0"}


def refused(response, reason: str) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert reason in response.content.decode()


@override_settings(ARENA_RATE_LIMITS={"match_create": (2, 60)})
def test_fresh_cookieless_clients_share_their_address_allowance(ttt_bots):
    statuses = [Client().post("/play/", LOBBY_GAME).status_code for _ in range(4)]
    assert statuses == [302, 302, 429, 429]
    assert Match.objects.count() == 2
    assert Client(REMOTE_ADDR="10.0.0.9").post("/play/", LOBBY_GAME).status_code == 302  # someone else still plays


@override_settings(ARENA_RATE_LIMITS={"match_create": (2, 60)})
def test_one_account_is_limited_whatever_address_it_comes_from(ttt_bots):
    user = get_user_model().objects.create_user("kim", password="pw-123456")
    answers = []
    for n in range(3):
        client = Client(REMOTE_ADDR=f"10.0.1.{n}")
        client.force_login(user)
        answers.append(client.post("/play/", {**LOBBY_GAME, "nickname": ""}))
    assert [a.status_code for a in answers] == [302, 302, 429]
    refused(answers[-1], "You are starting games too quickly")
    assert Match.objects.count() == 2


@override_settings(ARENA_RATE_LIMITS={"match_create": (1, 60)})
def test_accepting_challenges_counts_as_starting_games(ttt_bots, django_user_model):
    host = Client(REMOTE_ADDR="10.0.2.1")
    host.post("/play/", {**GUEST, "opponent": "open-challenge"})
    Client(REMOTE_ADDR="10.0.2.2").post("/play/", {**GUEST, "opponent": "open-challenge"})
    accepter = Client(REMOTE_ADDR="10.0.2.3")
    accepter.force_login(django_user_model.objects.create_user("acc", password="pw-123456"))
    first, second = Challenge.objects.order_by("pk")
    assert accepter.post(f"/challenges/{first.pk}/accept/").status_code == 302
    refused(accepter.post(f"/challenges/{second.pk}/accept/"), "too quickly")
    second.refresh_from_db()
    assert second.match is None


@override_settings(ARENA_RATE_LIMITS={"ladder_climb": (2, 600)})
def test_ladder_climbs_are_limited(ttt_bots):
    client = Client()
    client.post("/play/", LOBBY_GAME)  # become a person (one game)
    answers = [client.post("/play/ladder/", {"game": "tic-tac-toe"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [302, 302, 429]
    refused(answers[-1], "ladder climbs too quickly")
    assert Tournament.objects.filter(format=Tournament.Format.LADDER).count() == 2


@override_settings(ARENA_RATE_LIMITS={"signup": (2, 3600)})
def test_sign_ups_from_one_address_are_limited():
    def sign_up(name: str):
        return Client().post(
            "/accounts/signup/", {"username": name, "password1": "Sx9!long-pass", "password2": "Sx9!long-pass"}
        )

    assert [sign_up(n).status_code for n in ("ana", "ben")] == [302, 302]
    refused(sign_up("cai"), "Too many sign-ups")
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["ana", "ben"]


@override_settings(ARENA_RATE_LIMITS={"annotate": (2, 60)})
def test_annotations_are_limited(ttt_bots, django_user_model):
    match = async_to_sync(run_match)(
        match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv2"], ttt_bots["tic-tac-toe-lv0"]], seed=2).pk
    )
    client = Client()
    client.force_login(django_user_model.objects.create_user("ann", password="pw-123456"))
    answers = [client.post(f"/decisions/{d.pk}/annotate/", {"glyph": "!"}) for d in match.decisions.order_by("ply")[:3]]
    assert [a.status_code for a in answers][2] == 429
    refused(answers[2], "annotating too quickly")
    assert Annotation.objects.count() == 2


@override_settings(ARENA_RATE_LIMITS={"agent_edit": (1, 600)})
def test_saving_agents_is_limited(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True))
    form = {"name": "M", "base_url": "http://127.0.0.1:9/v1", "model": "m", "temperature": 0.2, "top_p": 1,
            "max_tokens": 64, "timeout_s": 30, "scaffold": "direct", "retries": 0, "price_in_per_mtok": 0,
            "price_out_per_mtok": 0}  # fmt: skip
    assert client.post("/agents/new/", {**form, "slug": "m1"}).status_code == 302
    refused(client.post("/agents/new/", {**form, "slug": "m2"}), "saving agents too quickly")
    assert list(Agent.objects.filter(kind="llm").values_list("slug", flat=True)) == ["m1"]


def test_dataset_downloads_are_limited(tmp_path, settings):
    settings.VAR_DIR, settings.ARENA_RATE_LIMITS = tmp_path, {"dataset": (1, 600)}
    assert Client().get("/dataset.jsonl").status_code == 200
    refused(Client().get("/dataset.jsonl"), "Too many dataset downloads")


def test_the_address_comes_from_the_proxy_header_only_when_the_proxy_is_trusted(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert client_address(request) == "10.9.9.9"  # not configured: the header is the client's word, ignored
    settings.ARENA_CLIENT_IP_HEADER = "X-Forwarded-For"
    assert client_address(request) == "203.0.113.7"  # the entry our proxy appended, not the forged one
    v6 = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:aaaa::1")
    assert client_address(v6) == client_address(RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:bbbb::9"))
    assert client_address(v6) == "2001:db8:1:2::/64"


@override_settings(ARENA_RATE_LIMITS={"match_create": (1, 60)}, ARENA_CLIENT_IP_HEADER="X-Real-IP")
def test_behind_a_trusted_proxy_each_client_has_its_own_allowance(ttt_bots):
    def start(address: str) -> int:
        return Client(REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP=address).post("/play/", LOBBY_GAME).status_code

    assert [start("198.51.100.1"), start("198.51.100.2"), start("198.51.100.1")] == [302, 302, 429]


LOCKOUT = {"failures": 3, "first_wait_s": 30, "max_wait_s": 3600}


@override_settings(ARENA_LOGIN_LOCKOUT=LOCKOUT)
def test_repeated_failed_logins_are_refused_for_a_while_but_the_owner_elsewhere_gets_in(django_user_model):
    django_user_model.objects.create_user("vic", password="right-horse-9")
    attacker = Client(REMOTE_ADDR="10.6.6.6")
    for guess in ("a", "b", "c"):
        assert attacker.post("/accounts/login/", {"username": "vic", "password": guess}).status_code == 200
    blocked = attacker.post("/accounts/login/", {"username": "vic", "password": "right-horse-9"})
    refused(blocked, "Too many failed logins")
    assert 25 <= int(blocked["Retry-After"]) <= 30
    assert "_auth_user_id" not in attacker.session  # even the right password waits
    # Another name from the same address waits too (the address is locked) ...
    refused(attacker.post("/accounts/login/", {"username": "zed", "password": "x"}), "Too many failed logins")
    # ... but the owner, from their own address, logs in.
    owner = Client(REMOTE_ADDR="10.1.1.1")
    assert owner.post("/accounts/login/", {"username": "vic", "password": "right-horse-9"}).status_code == 302


@override_settings(ARENA_LOGIN_LOCKOUT=LOCKOUT)
def test_the_admin_login_is_guarded_the_same_way(django_user_model):
    django_user_model.objects.create_user("boss", password="right-horse-9", is_staff=True)
    attacker = Client(REMOTE_ADDR="10.6.6.7")
    for guess in ("a", "b", "c"):
        assert attacker.post("/admin/login/", {"username": "boss", "password": guess}).status_code == 200
    refused(attacker.post("/admin/login/", {"username": "boss", "password": "right-horse-9"}), "Too many failed logins")
    assert (
        Client(REMOTE_ADDR="10.1.1.2")
        .post("/admin/login/", {"username": "boss", "password": "right-horse-9"})
        .status_code
        == 302
    )


@override_settings(ARENA_LOGIN_LOCKOUT=LOCKOUT)
def test_failures_spread_over_addresses_lock_the_account_name_for_those_addresses():
    for n in range(3):
        login_failed(username="vic", address=f"10.7.0.{n}")
    assert login_wait(username="vic", address="10.7.0.0") > 0  # it failed on vic before: it waits
    assert login_wait(username="vic", address="10.8.0.1") == 0  # a fresh address: the owner is not locked out


@override_settings(ARENA_LOGIN_LOCKOUT=LOCKOUT)
def test_the_wait_doubles_with_each_further_failure_up_to_the_maximum():
    waits = []
    for _ in range(12):
        login_failed(username="vic", address="10.6.6.6")
        waits.append(login_wait(username="vic", address="10.6.6.6"))
    assert waits[:2] == [0, 0]
    assert [round(w, -1) for w in waits[2:6]] == [30, 60, 120, 240]
    assert max(waits) == 3600


def test_operators_set_limits_and_the_proxy_header_in_the_environment(tmp_path):
    base = {"ARENA_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "x"}
    config = from_env(
        {**base, "ARENA_RATE_LIMITS": "signup=2/3600, dataset=0/60", "ARENA_CLIENT_IP_HEADER": "X-Real-IP"}
    )
    assert config.rate_limits == {"signup": (2, 3600), "dataset": (0, 60)}
    assert config.client_ip_header == "X-Real-IP"
    with pytest.raises(ConfigError, match="ARENA_RATE_LIMITS: 'signup=lots' is not name=hits/seconds"):
        from_env({**base, "ARENA_RATE_LIMITS": "signup=lots"})
    assert from_env({**base, "ARENA_LOGIN_LOCKOUT": "3/10/600"}).login_lockout == {
        "failures": 3,
        "first_wait_s": 10,
        "max_wait_s": 600,
    }
    with pytest.raises(ConfigError, match="ARENA_LOGIN_LOCKOUT='3/10' is not failures/first_wait_s/max_wait_s"):
        from_env({**base, "ARENA_LOGIN_LOCKOUT": "3/10"})


@override_settings(ARENA_CLIENT_IP_HEADER="X-Real-IP")
def test_a_websocket_counts_against_the_same_address_as_a_request():
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP="10.9.9.9, 203.0.113.7")
    scope = {"client": ("10.0.0.1", 5555), "headers": [(b"x-real-ip", b"10.9.9.9, 203.0.113.7")]}
    assert socket_address(scope) == client_address(request) == "203.0.113.7"
    v6 = {"client": ("2001:db8:1:2:aaaa::1", 5555), "headers": []}
    assert socket_address(v6) == "2001:db8:1:2::/64"


def test_a_person_clicking_fast_is_not_refused_but_a_flood_is():
    budget = ConnectionBudget("frames")
    # Pit's offers or a string of Mahjong discards: 8 clicks a second for ten seconds all go through …
    assert all(budget.allow() for _ in range(80))
    # … and a connection is still bounded: a script sending far faster is turned away within the window.
    assert sum(budget.allow() for _ in range(100)) == 20
