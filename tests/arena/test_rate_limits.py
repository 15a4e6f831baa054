"""Rate limits count the address and the person both, cover every endpoint that creates work, and lock
repeated failed logins (django-axes); refusals answer 429 with a reason and Retry-After, and other visitors are
unaffected."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory, override_settings

from arena.config import ConfigError, from_env
from arena.models import Agent, Annotation, Challenge, Match, Tournament
from arena.pages.ratelimit import ConnectionBudget, client_address, socket_address
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


@override_settings(ARENA_RATE_LIMITS={"annotate": (2, 3600)})  # a window the three posts cannot straddle
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


LOCKOUT = {"AXES_FAILURE_LIMIT": 3, "AXES_COOLOFF_TIME": timedelta(seconds=600)}
BOB = "right-horse-9"


def log_in(client: Client, username: str, password: str, path: str = "/accounts/login/"):
    return client.post(path, {"username": username, "password": password})


@override_settings(**LOCKOUT)
def test_failed_logins_lock_that_name_from_that_address_only_and_even_the_right_password_waits(django_user_model):
    django_user_model.objects.create_user("vic", password=BOB)
    attacker = Client(REMOTE_ADDR="10.6.6.6")
    assert [log_in(attacker, "vic", guess).status_code for guess in ("a", "b")] == [200, 200]
    refused(log_in(attacker, "vic", "c"), "Too many failed logins")  # the third failure locks
    blocked = log_in(attacker, "vic", BOB)
    refused(blocked, "Too many failed logins")
    assert int(blocked["Retry-After"]) == 600
    assert "_auth_user_id" not in attacker.session  # even the right password waits
    # The victim, from their own address, is not locked by the attacker's failures, and a typo costs them one try.
    victim = Client(REMOTE_ADDR="10.1.1.1")
    assert log_in(victim, "vic", "typo").status_code == 200
    assert log_in(victim, "vic", BOB).status_code == 302


@override_settings(**LOCKOUT)
def test_lookalike_spellings_of_a_name_share_its_count(django_user_model):
    django_user_model.objects.create_user("bob", password=BOB)
    attacker = Client(REMOTE_ADDR="10.6.6.8")
    # Fullwidth, bold and bold-italic b: Django logs each in as bob (NFKC), so each failure counts against bob.
    assert log_in(attacker, "ｂob", "a").status_code == 200
    assert log_in(attacker, "𝐛ob", "b").status_code == 200
    refused(log_in(attacker, "𝒃ob", "c"), "Too many failed logins")
    refused(log_in(attacker, "BOB", BOB), "Too many failed logins")  # casefolded too
    refused(log_in(attacker, "bob", BOB), "Too many failed logins")
    assert "_auth_user_id" not in attacker.session
    assert log_in(Client(REMOTE_ADDR="10.1.1.3"), "𝒃ob", BOB).status_code == 302  # bob, from elsewhere


@override_settings(**LOCKOUT)
def test_logging_into_ones_own_account_does_not_reset_the_count_against_another(django_user_model):
    django_user_model.objects.create_user("vic", password=BOB)
    django_user_model.objects.create_user("mallory", password="mallory-pw-77")
    attacker = Client(REMOTE_ADDR="10.6.6.9")
    for guess in ("a", "b"):
        assert log_in(attacker, "vic", guess).status_code == 200
        assert log_in(attacker, "mallory", "mallory-pw-77").status_code == 302
        attacker.logout()
    refused(log_in(attacker, "vic", "c"), "Too many failed logins")  # vic's count kept growing: 3 failures


@override_settings(**LOCKOUT)
def test_the_admin_login_is_guarded_the_same_way(django_user_model):
    django_user_model.objects.create_user("boss", password=BOB, is_staff=True)
    attacker = Client(REMOTE_ADDR="10.6.6.7")
    for guess in ("a", "b"):
        assert log_in(attacker, "boss", guess, "/admin/login/").status_code == 200
    refused(log_in(attacker, "boss", "c", "/admin/login/"), "Too many failed logins")
    refused(log_in(attacker, "boss", BOB, "/accounts/login/"), "Too many failed logins")  # one count for both forms
    assert log_in(Client(REMOTE_ADDR="10.1.1.2"), "boss", BOB, "/admin/login/").status_code == 302


@override_settings(ARENA_RATE_LIMITS={"login": (4, 900)})
def test_an_address_has_a_cap_on_logins_whatever_the_names(django_user_model):
    django_user_model.objects.create_user("vic", password=BOB)
    sprayer = Client(REMOTE_ADDR="10.6.7.7")
    assert [log_in(sprayer, f"user{n}", "guess").status_code for n in range(4)] == [200] * 4
    refused(log_in(sprayer, "vic", BOB), "Too many logins from here")
    assert log_in(Client(REMOTE_ADDR="10.1.1.4"), "vic", BOB).status_code == 302


@override_settings(ARENA_RATE_LIMITS={"password_reset": (2, 3600)})
def test_password_reset_requests_are_limited(django_user_model, mailoutbox):
    django_user_model.objects.create_user("vic", password=BOB, email="vic@example.org")
    client = Client(REMOTE_ADDR="10.6.8.8")
    for _ in range(2):
        assert client.post("/accounts/password_reset/", {"email": "vic@example.org"}).status_code == 302
    refused(client.post("/accounts/password_reset/", {"email": "vic@example.org"}), "Too many password reset")
    assert len(mailoutbox) == 2


def test_operators_set_limits_and_the_proxy_header_in_the_environment(tmp_path):
    base = {"ARENA_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "x"}
    config = from_env(
        {**base, "ARENA_RATE_LIMITS": "signup=2/3600, dataset=0/60", "ARENA_CLIENT_IP_HEADER": "X-Real-IP"}
    )
    assert config.rate_limits == {"signup": (2, 3600), "dataset": (0, 60)}
    assert config.client_ip_header == "X-Real-IP"
    with pytest.raises(ConfigError, match="ARENA_RATE_LIMITS: 'signup=lots' is not name=hits/seconds"):
        from_env({**base, "ARENA_RATE_LIMITS": "signup=lots"})
    assert from_env(base).login_lockout == {"failures": 5, "cooloff_s": 900}
    assert from_env({**base, "ARENA_LOGIN_LOCKOUT": "3/600"}).login_lockout == {"failures": 3, "cooloff_s": 600}
    with pytest.raises(ConfigError, match="ARENA_LOGIN_LOCKOUT='3/10/600' is not failures/cooloff_s"):
        from_env({**base, "ARENA_LOGIN_LOCKOUT": "3/10/600"})


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
