"""The skeleton: pages, health check, configuration errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.config import ConfigError, from_env, private_file
from arena.pages.rendering import board_html
from games import all_games
from tests.arena.llm.test_local_model import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_home_explains_and_links(client):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Every decision is recorded" in body
    assert 'href="/games/"' in body
    assert "Content-Security-Policy" in response.headers
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"].split("script-src")[1].split(";")[0]


@pytest.mark.django_db(transaction=True)
def test_healthz_reports_database_channel_layer_and_local_models(client, monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_VAR_DIR", str(tmp_path))  # no supervisor has written a word here
    monkeypatch.setenv("LLM_PORT", str(free_port()))  # and nothing listens
    response = client.get("/healthz")
    assert response.status_code == 200  # the site serves without local models
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok", "local_models": "not running"}


@pytest.mark.django_db
def test_every_game_has_a_rules_page_with_its_board(client):
    for game in all_games():
        response = client.get(f"/games/{game.slug}/")
        assert response.status_code == 200, game.slug
        body = response.content.decode()
        assert f"board-{game.slug}" in body
        if not game.has_controls:  # click-to-move games mark the cells the player to move may click
            state = game.initial_state(seed=0)
            assert "data-cell=" in board_html(game, state, game.current_player(state)), game.slug
    assert client.get("/games/no-such-game/").status_code == 404


@pytest.mark.django_db
def test_a_stylesheet_shared_by_several_games_is_linked_once_before_theirs(client):
    body = client.get("/games/tower-defense/").content.decode()
    assert body.count("games/plan-games.css") == 1
    assert body.index("games/plan-games.css") < body.index("games/tower-defense.css")
    assert client.get("/static/games/plan-games.css").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["kuhn-poker", "leduc-holdem", "holdem"])
def test_every_poker_game_links_the_shared_poker_table_stylesheet(client, slug):
    body = client.get(f"/games/{slug}/").content.decode()
    assert body.count("games/poker.css") == 1
    assert ".poker-table" in client.get("/static/games/poker.css").getvalue().decode()


def test_static_assets_are_served_offline(client):
    for path in ("/static/css/arena.css", "/static/django_htmx/htmx-2.min.js", "/static/vendor/plotly.min.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert len(body) > 100


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"DATABASE_URL": "mysql//nope"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgres://u:p@host:notaport/db"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://localhost"}, "REDIS_URL"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG"),
        ({"DJANGO_ALLOWED_HOSTS": " , "}, "DJANGO_ALLOWED_HOSTS"),
        ({"ARENA_SEED_MATCHES": "many"}, "ARENA_SEED_MATCHES"),
        ({"ARENA_RANK_MIN_GAMES": "0"}, "ARENA_RANK_MIN_GAMES"),
    ],
)
def test_bad_configuration_names_the_variable(tmp_path, env, variable):
    with pytest.raises(ConfigError, match=variable):
        from_env({"ARENA_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "x", **env})


def test_the_first_run_seeding_can_be_switched_off(tmp_path):
    base = {"ARENA_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "x"}
    assert from_env(base).seed_matches == 8832  # the measured first run, arena.tournaments.first_run
    assert from_env({**base, "ARENA_SEED_MATCHES": "0"}).seed_matches == 0


def test_secret_key_is_generated_once_into_var(tmp_path):
    first = from_env({"ARENA_VAR_DIR": str(tmp_path)})
    second = from_env({"ARENA_VAR_DIR": str(tmp_path)})
    assert len(first.secret_key) > 40
    assert first.secret_key == second.secret_key
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert first.debug is False


def test_var_the_database_and_the_secret_key_are_private_to_arenas_user(tmp_path):
    var = tmp_path / "var"
    from_env({"ARENA_VAR_DIR": str(var)})
    assert var.stat().st_mode & 0o777 == 0o700
    assert (var / "secret_key").stat().st_mode & 0o777 == 0o600
    database = private_file(var / "arena.sqlite3")
    assert database.stat().st_mode & 0o777 == 0o600
    assert database.read_bytes() == b""  # SQLite takes an empty file for an empty database
    # Made before they were private: tightened on the next start.
    var.chmod(0o755)
    database.chmod(0o644)
    (var / "secret_key").chmod(0o644)
    from_env({"ARENA_VAR_DIR": str(var)})
    private_file(database)
    assert [path.stat().st_mode & 0o777 for path in (var, var / "secret_key", database)] == [0o700, 0o600, 0o600]


def test_manage_py_prints_one_clear_line_for_bad_configuration(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "ARENA_VAR_DIR": str(tmp_path), "DATABASE_URL": "postgres://u:p@h:xx/db"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "arena: configuration error: DATABASE_URL has a port that is not a number."
    ]


def test_runserver_is_daphnes_so_it_serves_the_websockets_too():
    from django.apps import apps
    from django.core.management import get_commands, load_command_class

    from arena.apps import ArenaConfig

    assert get_commands()["runserver"] == "daphne"
    assert type(apps.get_app_config("arena")) is ArenaConfig  # its receivers connected, beside daphne's config
    assert load_command_class("daphne", "runserver").server_cls.__module__ == "daphne.server"
