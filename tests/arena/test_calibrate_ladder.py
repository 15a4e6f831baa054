"""calibrate_ladder: resumable, parallel, and its pages come from the units it played."""

from __future__ import annotations

import json
import warnings

from django.core.management import call_command

from arena.management.commands import calibrate_ladder
from games.bots.calibration import play_unit


def test_calibration_resumes_and_writes_the_pages(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrate_ladder, "PROGRESS_DIR", tmp_path / "progress")
    results, output = tmp_path / "ladders.json", tmp_path / "ladders.md"
    args = ["--game", "werewolf", "--results", str(results), "--output", str(output)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call_command("calibrate_ladder", *args, "--games-per-seat", "2", "--workers", "2")
    # Workers are not forked from this threaded process (Python warns that such a fork may deadlock).
    assert not [w for w in caught if "fork" in str(w.message)]
    log = tmp_path / "progress" / "werewolf.jsonl"
    units = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted((u["pair"], u["seed"]) for u in units) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # What a worker recorded is what the same unit plays in this process: seeded, so reproducible.
    replayed = play_unit(("werewolf", 1, 1))
    recorded = next(u for u in units if (u["pair"], u["seed"]) == (1, 1))
    assert {k: replayed[k] for k in ("wins", "draws", "losses", "moves", "levels")} == {
        k: recorded[k] for k in ("wins", "draws", "losses", "moves", "levels")
    }
    # An interrupted run: one unit lost and half a line written. The rerun plays only the missing ones.
    kept = log.read_text().splitlines()[:-1]
    log.write_text("\n".join(kept) + '\n{"game": "werew')
    call_command("calibrate_ladder", *args, "--games-per-seat", "3", "--workers", "1")
    units = calibrate_ladder.read_units("werewolf")
    assert len(units) == 6  # 3 kept + 1 replayed + 2 new (seed 2 of both pairs)
    assert sorted((u["pair"], u["seed"]) for u in units) == [(p, s) for p in (0, 1) for s in (0, 1, 2)]
    data = json.loads(results.read_text())["werewolf"]
    assert data["games_per_seat"] == 3
    first = data["pairs"][0]
    played = [u for u in units if u["pair"] == 0]
    assert (first["wins"], first["draws"], first["losses"]) == tuple(
        sum(u[k] for u in played) for k in ("wins", "draws", "losses")
    )
    assert first["wins"] + first["draws"] + first["losses"] == 6  # 3 seeds × both sides
    # A unit played before a level was retuned (another description) is not counted: the pair is measured afresh.
    stale = {**units[-1], "seed": 7, "levels": ["an older Lv2", units[-1]["levels"][1]]}
    with log.open("a") as file:
        file.write(json.dumps(stale) + "\n")
    assert len(calibrate_ladder.read_units("werewolf")) == 6
    page = output.read_text()
    assert "`werewolf-lv2` vs `werewolf-lv1` | 3 |" in page
