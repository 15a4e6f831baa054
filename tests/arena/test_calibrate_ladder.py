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


def test_the_page_counts_steps_in_range_and_intervals_wider_than_seven_points():
    def row(challenger: str, wins: int, draws: int, losses: int, ci95: list[float]) -> dict:
        defender = challenger[:-1] + str(int(challenger[-1]) - 1)
        rate = wins / (wins + losses) if wins + losses else None
        return {"challenger": challenger, "defender": defender, "games_per_seat": 100, "wins": wins, "draws": draws,
                "losses": losses, "win_rate": rate, "ci95": ci95, "challenger_ms_per_move": 1.0}  # fmt: skip

    def entry(*rows: dict) -> dict:
        return {"date": "2026-11-23", "commands": ["c"], "games_per_seat": 100, "levels": [], "pairs": list(rows)}

    top = f"tic-tac-toe-lv{len(calibrate_ladder.ladder('tic-tac-toe')) - 1}"
    page = calibrate_ladder.render_markdown(
        {
            "chess": entry(row("chess-lv1", 36, 157, 7, [0.70, 0.92]), row("chess-lv2", 160, 0, 40, [0.74, 0.85])),
            "holdem": entry(row("holdem-lv3", 136, 1, 63, [0.62, 0.74])),
            "tic-tac-toe": entry(row(top, 20, 180, 0, [0.84, 1.0])),
        }
    )
    assert "4 pairs; in 70–90%: 2; outside: 1; ending at a perfect player" in page
    assert "Pairs whose interval is wider than ±7 points: 1." in page  # chess Lv1 (±11); the perfect player not counted
    assert "tic-tac-toe's top level plays perfectly" in page


def test_one_step_can_be_played_further_and_every_run_stays_named(tmp_path, monkeypatch):
    monkeypatch.setattr(calibrate_ladder, "PROGRESS_DIR", tmp_path / "progress")
    results, output = tmp_path / "ladders.json", tmp_path / "ladders.md"
    args = ["--game", "tic-tac-toe", "--results", str(results), "--output", str(output), "--workers", "1"]
    call_command("calibrate_ladder", *args, "--games-per-seat", "1")
    call_command("calibrate_ladder", *args, "--games-per-seat", "3", "--pair", "2")
    units = calibrate_ladder.read_units("tic-tac-toe")
    seeds = {pair: sorted(u["seed"] for u in units if u["pair"] == pair) for pair in {u["pair"] for u in units}}
    assert seeds[1] == [0, 1, 2]
    assert all(seeds[p] == [0] for p in seeds if p != 1)
    data = json.loads(results.read_text())["tic-tac-toe"]
    assert [r["games_per_seat"] for r in data["pairs"]][:2] == [1, 3]
    assert len(data["commands"]) == 2
    assert "--pair 2" in data["commands"][1]
    call_command("calibrate_ladder", "--write-only", *args)
    assert len(json.loads(results.read_text())["tic-tac-toe"]["commands"]) == 2  # writing the page plays nothing
    assert "--pair 2" in output.read_text()


def test_a_ladder_measured_in_a_variant_plays_it_and_says_so(tmp_path, monkeypatch):
    # Pit's ladder plays the gamebench variant: two sides of two hands, so one seed is two games, not four.
    unit = play_unit(("pit", 0, 0))
    assert unit["variant"] == "gamebench"
    assert unit["wins"] + unit["draws"] + unit["losses"] == 2
    monkeypatch.setattr(calibrate_ladder, "PROGRESS_DIR", tmp_path)
    standard = {**unit, "seed": 1, "variant": ""}  # a unit played under the standard rules is not counted
    (tmp_path / "pit.jsonl").write_text(json.dumps(unit) + "\n" + json.dumps(standard) + "\n")
    assert calibrate_ladder.read_units("pit") == [unit]
    step = play_unit(("pit", 1, 0))
    entry = calibrate_ladder.summarize("pit", [unit, step], ["c"])
    assert entry["variant"] == "gamebench"
    page = calibrate_ladder.render_markdown({"pit": entry})
    assert f"## pit\n\nMeasured {entry['date']} in the `gamebench` variant, 1 games per seat." in page
    # The runs named before were in the standard rules: none of their units counts, so they are named no more.
    results = tmp_path / "ladders.json"
    results.write_text(json.dumps({"pit": {"commands": ["a standard-rules run"]}}))
    args = ["--game", "pit", "--games-per-seat", "1", "--workers", "1", "--results", str(results)]
    call_command("calibrate_ladder", *args, "--output", str(tmp_path / "ladders.md"))
    assert json.loads(results.read_text())["pit"]["commands"] == [
        "manage.py calibrate_ladder --game pit --games-per-seat 1 --workers 1"
    ]
