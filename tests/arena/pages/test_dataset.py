"""/dataset.jsonl streams the same export the command writes, from a bounded cache that new results invalidate."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command

from arena.record.dataset import import_dataset
from arena.record.people import guest_agent_create, person_consent_set
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def var_dir(tmp_path, settings):
    settings.VAR_DIR = tmp_path
    return tmp_path


def play(bots, seed: int):
    agents = [bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv0"]]
    return async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=seed).pk)


def download(client, query: str = "") -> tuple[dict, list[str], bytes]:
    response = client.get(f"/dataset.jsonl{query}")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="arena-dataset.jsonl"'
    body = b"".join(response.streaming_content)
    lines = body.decode().splitlines()
    return json.loads(lines[0]), lines[1:], body


def cached_files(var_dir) -> list:
    return sorted((var_dir / "datasets").glob("*.jsonl"))


def test_the_download_is_the_commands_export_streamed_and_cached_until_a_match_finishes(client, ttt_bots, var_dir):
    play(ttt_bots, seed=1)
    manifest, records, body = download(client)
    command_file = var_dir / "command.jsonl"
    call_command("export_dataset", output=str(command_file))
    expected = command_file.read_text().splitlines()
    assert records == expected[1:]
    assert {**manifest, "exported_at": None} == {**json.loads(expected[0]), "exported_at": None}
    assert import_dataset(body.decode().splitlines(keepends=True)).rejected == []  # checksum and manifest hold
    again, _, _ = download(client)
    assert again["exported_at"] == manifest["exported_at"]  # the same file, not a new export
    assert len(cached_files(var_dir)) == 1
    play(ttt_bots, seed=2)
    fresh, records, _ = download(client)
    assert fresh["exported_at"] != manifest["exported_at"]
    assert fresh["counts"]["match"] == manifest["counts"]["match"] + 1


def test_withdrawn_consent_is_never_served_from_the_cache(client, ttt_bots):
    person = guest_agent_create(nickname="Pia")
    person_consent_set(agent=person, consent=True)
    match = match_claim(
        match_id=match_create(game="tic-tac-toe", agents=[person, ttt_bots["tic-tac-toe-lv0"]], seed=3).pk, worker="w"
    ).match
    for ply, cell in enumerate([0, 3, 1, 4, 2]):
        match = decision_record(match=match, ply=ply, action=cell)
    assert person.slug in download(client)[2].decode()
    person_consent_set(agent=person, consent=False)
    assert person.slug not in download(client)[2].decode()


def test_the_cache_keeps_a_bounded_number_of_files(client, ttt_bots, var_dir, settings):
    settings.ARENA_DATASET_CACHE_FILES = 2
    play(ttt_bots, seed=1)
    for query in ("", "?game=tic-tac-toe", "?agent=tic-tac-toe-lv2", "?agent=tic-tac-toe-lv0"):
        download(client, query)
    assert len(cached_files(var_dir)) == 2
    assert not list((var_dir / "datasets").glob("*.part"))


def test_unknown_filters_are_refused_and_build_nothing(client, var_dir):
    for query in ("?game=chess-960", "?agent=nobody", "?tournament=none"):
        response = client.get(f"/dataset.jsonl{query}")
        assert response.status_code == 400
        assert "is not known here" in response.content.decode()
    assert not (var_dir / "datasets").exists() or not cached_files(var_dir)
