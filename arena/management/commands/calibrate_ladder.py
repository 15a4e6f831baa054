"""Measure each bot ladder: every level against the one below, seat-balanced, fixed seeds."""

from __future__ import annotations

import itertools
import json
from datetime import date
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games import get_game
from games.bots import LADDER_MODULES, ladder
from games.bots.calibration import play_series
from ratings.metrics import wilson_interval

DOCS = Path(settings.BASE_DIR) / "docs"


class Command(BaseCommand):
    help = "Play adjacent ladder levels and write the win rates with 95% intervals to docs/ladders.md."

    def add_arguments(self, parser):
        parser.add_argument("--game", action="append", help="Only this game (repeatable). Default: all.")
        parser.add_argument("--games-per-seat", type=int, default=16)
        parser.add_argument("--results", default=str(DOCS / "ladders.json"), help="Machine-readable results file.")
        parser.add_argument("--output", default=str(DOCS / "ladders.md"))

    def handle(self, *args, game=None, games_per_seat: int, results: str, output: str, **options):
        games = game or list(LADDER_MODULES)
        unknown = sorted(set(games) - set(LADDER_MODULES))
        if unknown:
            raise CommandError(f"No ladder for {', '.join(unknown)}; games with ladders: {', '.join(LADDER_MODULES)}.")
        results_path = Path(results)
        data = json.loads(results_path.read_text()) if results_path.exists() else {}
        total = sum(len(ladder(slug)) - 1 for slug in games) * games_per_seat * 2
        with tqdm(total=total, desc="calibrating", unit="game", disable=None) as progress:
            for slug in games:
                data[slug] = self._calibrate(slug, games_per_seat, progress)
        results_path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        Path(output).write_text(render_markdown(data))
        self.stdout.write(f"wrote {output}")

    def _calibrate(self, slug: str, games_per_seat: int, progress: tqdm) -> dict:
        game, bots = get_game(slug), ladder(slug)
        rows = []
        for lower, upper in itertools.pairwise(bots):
            progress.set_postfix_str(f"{upper.slug} vs {lower.slug}")
            result = play_series(game, upper, lower, games_per_seat, on_game=progress.update)
            low, high = wilson_interval(result.wins, result.decisive)
            rows.append(
                {
                    "challenger": upper.slug,
                    "defender": lower.slug,
                    "wins": result.wins,
                    "draws": result.draws,
                    "losses": result.losses,
                    "win_rate": result.win_rate,
                    "ci95": [low, high],
                    "challenger_ms_per_move": round(result.challenger_ms_per_move, 1),
                }
            )
        return {
            "date": date.today().isoformat(),
            "games_per_seat": games_per_seat,
            "levels": [{"slug": b.slug, "description": b.description} for b in bots],
            "pairs": rows,
        }


def render_markdown(data: dict) -> str:
    """docs/ladders.md from the results of every calibrated game."""
    lines = [
        "# Bot ladders",
        "",
        "Each level should beat the one below it in 70–90% of decisive games (BotzoneBench §4.4).",
        "Measured by `manage.py calibrate_ladder` (or `make calibrate`): every adjacent pair plays the",
        "same fixed seeds with each bot in each seat; draws are excluded from the win rate, and the",
        "interval is the 95% Wilson interval over decisive games. Re-run it whenever a bot changes.",
        "",
    ]
    for slug in sorted(data):
        entry = data[slug]
        lines += [f"## {slug}", "", f"Measured {entry['date']}, {entry['games_per_seat']} games per seat.", ""]
        lines += ["| level | plays |", "|---|---|"]
        lines += [f"| `{level['slug']}` | {level['description']} |" for level in entry["levels"]]
        lines += [
            "",
            "| challenger vs defender | W–D–L | win rate (decisive) | 95% interval | challenger ms/move |",
            "|---|---|---|---|---|",
        ]
        for row in entry["pairs"]:
            rate = "—" if row["win_rate"] is None else f"{row['win_rate']:.0%}"
            low, high = row["ci95"]
            lines.append(
                f"| `{row['challenger']}` vs `{row['defender']}` | {row['wins']}–{row['draws']}–{row['losses']} "
                f"| {rate} | {low:.0%}–{high:.0%} | {row['challenger_ms_per_move']:.1f} |"
            )
        lines.append("")
    return "\n".join(lines)
