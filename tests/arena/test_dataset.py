"""Export → import reproduces the record on a fresh instance; tampering is caught; verify_replays finds mismatches."""

from __future__ import annotations

import hashlib
import io
import json

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.core.management.base import CommandError

from arena.agents.base import AttemptData
from arena.models import Agent, Annotation, Attempt, Decision, Match, Seat
from arena.record.agents import agent_create
from arena.record.dataset import DatasetError, export_dataset, import_dataset
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


def standings() -> dict[str, tuple[float, int]]:
    """Points and games per agent: what any leaderboard is computed from."""
    table: dict[str, list[float]] = {}
    for slug, score in Seat.objects.filter(score__isnull=False).values_list("agent_version__agent__slug", "score"):
        table.setdefault(slug, []).append(score)
    return {slug: (sum(scores), len(scores)) for slug, scores in table.items()}


@pytest.fixture
def played(ttt_bots, django_user_model):
    agents = [ttt_bots[f"tic-tac-toe-lv{n}"] for n in (0, 2, 4)]
    tournament = tournament_create(
        slug="t", name="t", format="round_robin", games=["tic-tac-toe"], agents=agents, games_per_seat=2, first_seed=0
    )
    async_to_sync(run_tournament)(tournament.pk)
    model = agent_create(slug="m", name="M", kind="llm", config={"model": "x", "api_key_env": "M_KEY"})
    created = match_create(game="tic-tac-toe", agents=[model, agents[0]], seed=9)
    match = match_claim(match_id=created.pk, worker="w").match
    for ply, cell in enumerate([0, 3, 1, 4, 2]):
        attempts = [AttemptData(verdict="ok", raw_text=f"Answer: {cell}", completion_tokens=4)] if ply % 2 == 0 else []
        match = decision_record(match=match, ply=ply, action=cell, attempts=attempts)
    annotator = django_user_model.objects.create_user("ann", password="pw-123456")
    Annotation.objects.create(decision=match.decisions.get(ply=4), author=annotator, glyph="!", comment="wins")
    return match


def export() -> str:
    out = io.StringIO()
    export_dataset(out)
    return out.getvalue()


def wipe() -> None:
    Match.objects.all().delete()
    Agent.objects.all().delete()


def leaderboard() -> dict[str, tuple]:
    """The overall leaderboard's ratings and records, as the page would show them."""
    from django.test import override_settings

    from ratings.record.services import snapshot_compute

    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        rows = snapshot_compute(game="")["rows"]
    return {r["slug"]: (round(r["rating"], 6), r["elo"], r["wins"], r["draws"], r["losses"]) for r in rows}


def test_export_then_import_reproduces_the_record(played):
    before = standings()
    board = leaderboard()
    decisions, attempts = Decision.objects.count(), Attempt.objects.count()
    text = export()
    manifest = json.loads(text.splitlines()[0])
    assert manifest["counts"] == {"agent": 4, "match": 13, "decision": Decision.objects.count(), "annotation": 1}
    assert manifest["game_versions"] == {"tic-tac-toe": "1"}
    assert "M_KEY" in text  # the variable's name, never a key
    assert "ann" not in [json.loads(line).get("author") for line in text.splitlines()[1:]]
    wipe()
    report = import_dataset(text.splitlines(keepends=True))
    assert report.rejected == []
    assert report.added["match"] == 13
    assert standings() == before
    assert leaderboard() == board  # identical ratings on the instance that imported the file
    assert (Decision.objects.count(), Attempt.objects.count()) == (decisions, attempts)
    assert Annotation.objects.get().comment == "wins"
    again = import_dataset(text.splitlines(keepends=True))  # idempotent
    assert again.added == {}
    assert again.already_present == 13
    assert standings() == before


def test_tampered_files_are_refused_or_reported(played):
    lines = export().splitlines(keepends=True)
    with pytest.raises(DatasetError, match="Checksum"):
        import_dataset([lines[0], *lines[1:-1]])
    # A consistent checksum over a forged move: the match is rejected with a reason, the rest imported.
    records = [json.loads(line) for line in lines[1:]]
    forged = next(r for r in records if r["type"] == "decision" and r["ply"] == 1)
    forged["action"] = forged["state_before"]["board"].index(-1) if forged["action"] != 8 else 7
    body = [json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records]
    manifest = {**json.loads(lines[0]), "sha256": hashlib.sha256("".join(body).encode()).hexdigest()}
    wipe()
    report = import_dataset([json.dumps(manifest) + "\n", *body])
    assert len(report.rejected) == 1
    assert forged["match"] in report.rejected[0]
    assert report.added["match"] == 12


def test_import_command_reports_garbage(tmp_path, db):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(CommandError, match="manifest"):
        call_command("import_dataset", str(bad))


def test_export_command_and_verify_replays_catch_a_corrupt_record(played, tmp_path):
    path = tmp_path / "out.jsonl"
    call_command("export_dataset", "--output", str(path), "--game", "tic-tac-toe", stderr=io.StringIO())
    assert json.loads(path.read_text().splitlines()[0])["filters"] == {"game": "tic-tac-toe"}
    out = io.StringIO()
    call_command("verify_replays", stdout=out)
    assert "all 13 matches replay exactly" in out.getvalue()
    Decision.objects.filter(match=played, ply=2).update(action=5, action_text="c2")
    with pytest.raises(CommandError, match="1 of 13 matches do not replay"):
        call_command("verify_replays", stdout=io.StringIO())
    Decision.objects.filter(match=played, ply=2).update(action=1, action_text="b3")  # let the autouse check pass


def test_download_button_serves_the_same_dataset(client, played, tmp_path, settings):
    settings.VAR_DIR = tmp_path  # where the export cache lives
    response = client.get("/dataset.jsonl?game=tic-tac-toe")
    assert response["Content-Disposition"] == 'attachment; filename="arena-dataset.jsonl"'
    lines = b"".join(response.streaming_content).decode().splitlines(keepends=True)
    assert json.loads(lines[0])["counts"]["match"] == 13
    wipe()
    assert import_dataset(lines).added["match"] == 13
