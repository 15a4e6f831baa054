"""A study's tables for its researchers: one row per match (duration, plies, outcome) and one per decision (who
moved, what, how long it took), as CSV and JSON lines, staff only; the general dataset still leaves them out."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timedelta

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from arena.models import Agent, Match
from arena.record.services import decision_record
from arena.record.turns import match_claim
from tests.arena.test_studies import WINS, join, staff, study  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def play(client: Client, *, person_wins: bool, seconds: int) -> Match:
    """The participant's next match, won or lost, each decision taking (ply + 1) seconds, the match `seconds` long."""
    response = client.post("/studies/two-games/next/")
    match = Match.objects.get(pk=int(re.fullmatch(r"/play/(\d+)/", response.url).group(1)))
    seat = next(s.index for s in match.seats.all() if s.agent_version.agent.kind == Agent.Kind.HUMAN)
    match = match_claim(match_id=match.pk, worker="w").match
    for ply, action in enumerate(WINS[match.game][seat if person_wins else 1 - seat]):
        match = decision_record(match=match, ply=ply, action=action, elapsed_ms=(ply + 1) * 1000)
    start = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk=match.pk).update(started_at=start, finished_at=start + timedelta(seconds=seconds))
    return match


def test_the_match_and_decision_tables_hold_every_move_and_duration(study, staff):  # noqa: F811
    player = Client()
    participant = join(player, "recruit-1")
    first = play(player, person_wins=True, seconds=42)  # tic-tac-toe first: the Latin square's first row
    second = play(player, person_wins=False, seconds=90)

    matches = [json.loads(line) for line in staff.get("/studies/two-games/export/matches.jsonl").content.splitlines()]
    assert [(m["game"], m["match_uid"], m["duration_s"], m["score"]) for m in matches] == [
        ("tic-tac-toe", str(first.uid), 42.0, 1.0),
        ("connect-four", str(second.uid), 90.0, 0.0),
    ]
    assert [m["plies"] for m in matches] == [len(WINS["tic-tac-toe"][0]), len(WINS["connect-four"][1])]
    assert {(m["participant"], m["participant_status"], m["match_status"]) for m in matches} == {
        (participant.code, "completed", "finished")
    }

    rows = list(csv.DictReader(io.StringIO(staff.get("/studies/two-games/export/decisions.csv").content.decode())))
    assert len(rows) == first.ply + second.ply
    ttt = [r for r in rows if r["match_uid"] == str(first.uid)]
    assert [r["ply"] for r in ttt] == ["0", "1", "2", "3", "4"]
    assert [r["time_to_decide_ms"] for r in ttt] == ["1000", "2000", "3000", "4000", "5000"]
    assert [r["action"] for r in ttt] == ["a3", "a2", "b3", "b2", "c3"]  # the game's notation for 0, 3, 1, 4, 2
    seat = next(a.seat for a in participant.assignments.all() if a.game == "tic-tac-toe")
    assert {r["mover"] for r in ttt if int(r["seat"]) == seat} == {"participant"}
    assert {r["mover"] for r in ttt if int(r["seat"]) != seat} == {"opponent"}
    assert {(r["participant"], r["opponent"]) for r in ttt} == {(participant.code, "tic-tac-toe-lv0")}

    # The per-participant table names the two statuses apart.
    header = staff.get("/studies/two-games/export.csv").content.decode().splitlines()[0].split(",")
    assert {"participant_status", "match_status"} <= set(header)
    assert "status" not in header
    export = staff.get("/studies/two-games/export/decisions.jsonl").content.decode()
    assert len(export.splitlines()) == len(rows)
    assert "recruit-1" not in export


def test_study_tables_are_staff_only_and_refuse_unknown_names(study, staff):  # noqa: F811
    for path in ("export/matches.csv", "export/decisions.jsonl"):
        assert Client().get(f"/studies/two-games/{path}").status_code == 404
        assert staff.get(f"/studies/two-games/{path}").status_code == 200
    assert staff.get("/studies/two-games/export/moves.csv").status_code == 404
    assert staff.get("/studies/two-games/export/matches.xlsx").status_code == 404


def test_the_general_dataset_keeps_study_matches_out(study, tmp_path):  # noqa: F811
    player = Client()
    join(player, "recruit-2")
    match = play(player, person_wins=True, seconds=30)
    out = tmp_path / "dataset.jsonl"
    call_command("export_dataset", "--output", str(out))
    assert str(match.uid) not in out.read_text()


def test_the_parquet_tables_hold_the_json_lines_rows_with_typed_columns(study, staff):  # noqa: F811
    player = Client()
    join(player, "recruit-3")
    play(player, person_wins=True, seconds=42)
    play(player, person_wins=False, seconds=90)

    for table in ("participants", "matches", "decisions", "answers"):
        response = staff.get(f"/studies/two-games/export/{table}.parquet")
        assert response["Content-Type"] == "application/vnd.apache.parquet"
        read = pq.read_table(pa.BufferReader(response.content))
        lines = staff.get(f"/studies/two-games/export/{table}.jsonl").content.splitlines()
        header = staff.get(f"/studies/two-games/export/{table}.csv").content.decode().splitlines()[0]
        assert read.column_names == header.split(",")  # the CSV's columns, in its order
        rows = [
            {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()} for row in read.to_pylist()
        ]
        assert rows == [{k: json.loads(line)[k] for k in read.column_names} for line in lines], table
    decisions = pq.read_table(pa.BufferReader(staff.get("/studies/two-games/export/decisions.parquet").content))
    assert len(decisions) > 0
    schema = decisions.schema
    assert (schema.field("ply").type, schema.field("void").type) == (pa.int64(), pa.bool_())
    assert schema.field("decided_at").type == pa.timestamp("us", tz="UTC")
    matches = pq.read_table(pa.BufferReader(staff.get("/studies/two-games/export.parquet").content)).schema
    assert (matches.field("score").type, matches.field("consent_version").type) == (pa.float64(), pa.int64())
    assert Client().get("/studies/two-games/export/decisions.parquet").status_code == 404
