"""Measure each bot ladder: every level against the one below, seat-balanced, fixed seeds, resumable."""

from __future__ import annotations

import json
import multiprocessing
import shlex
from datetime import date
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from arena.evaluate.protocols import BOTZONE_PAPER_LEVELS, BOTZONE_PROFILE
from arena.record.selectors import draw_rate_levels
from games.bots import LADDER_MODULES, ladder, ladder_variant
from games.bots.calibration import play_unit
from ratings.maths.metrics import wilson_interval

DOCS = Path(settings.BASE_DIR) / "docs"
#: One file of finished units per game, appended as they finish: a rerun skips what is in it.
PROGRESS_DIR = Path(settings.BASE_DIR) / "var" / "ladders"
#: BotzoneBench §4.4: each level should beat the one below in 70–90% of decisive games.
TARGET = (0.70, 0.90)


def read_units(slug: str) -> list[dict]:
    """The finished units of a game from its progress file, only those of the ladder as it is now (its levels, in
    the variant it is measured in)."""
    path = PROGRESS_DIR / f"{slug}.jsonl"
    if not path.exists():
        return []
    bots = ladder(slug)
    variant = ladder_variant(slug)
    units = []
    for line in path.read_text().splitlines():
        try:
            unit = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interruption: that unit is played again
        pair = unit.get("pair", -1)
        current = 0 <= pair < len(bots) - 1 and unit.get("variant", "") == variant
        if current and unit.get("levels") == [bots[pair + 1].description, bots[pair].description]:
            units.append(unit)
    return units


class Command(BaseCommand):
    help = (
        "Play adjacent ladder levels (resumable, in parallel) and write docs/ladders.md and docs/ladders.json "
        "with the win rates and their 95% intervals."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", action="append", help="Only this game (repeatable), in this order. Default: all.")
        parser.add_argument("--games-per-seat", type=int, default=100)
        parser.add_argument(
            "--pair",
            type=int,
            action="append",
            help="Only the step up to this level (repeatable; e.g. 2 = Lv2 vs Lv1). Default: every step.",
        )
        parser.add_argument(
            "--workers", type=int, default=multiprocessing.cpu_count(), help="Processes (default: cores)."
        )
        parser.add_argument("--results", default=str(DOCS / "ladders.json"), help="Machine-readable results file.")
        parser.add_argument("--output", default=str(DOCS / "ladders.md"))
        parser.add_argument(
            "--write-only", action="store_true", help="Write the pages from the finished units; play nothing."
        )

    def handle(self, *args, game=None, games_per_seat: int, workers: int, results: str, output: str, **options):
        """Play what is not in the progress files yet; after each game, rewrite both pages."""
        games = game or list(LADDER_MODULES)
        unknown = sorted(set(games) - set(LADDER_MODULES))
        if unknown:
            raise CommandError(f"No ladder for {', '.join(unknown)}; games with ladders: {', '.join(LADDER_MODULES)}.")
        if games_per_seat < 1 or workers < 1:
            raise CommandError("--games-per-seat and --workers must be at least 1.")
        steps = options.get("pair")
        if steps and any(not 1 <= level < len(ladder(slug)) for slug in games for level in steps):
            raise CommandError(f"--pair names a level 1 … top of every game given; got {steps}.")
        PROGRESS_DIR.mkdir(parents=True, exist_ok=True)
        done = set()
        for slug in games:
            units = read_units(slug)
            # Rewritten with only whole, current units, so an interrupted last line is not appended to.
            (PROGRESS_DIR / f"{slug}.jsonl").write_text("".join(json.dumps(u, sort_keys=True) + "\n" for u in units))
            done |= {(u["game"], u["pair"], u["seed"]) for u in units}
        todo = [
            (slug, pair, seed)
            for slug in games
            for pair in range(len(ladder(slug)) - 1)
            if not steps or pair + 1 in steps
            for seed in range(games_per_seat)
            if (slug, pair, seed) not in done
        ]
        if options.get("write_only"):
            todo = []
        total = len(todo) + sum(
            1 for slug in games for unit in read_units(slug) if not steps or unit["pair"] + 1 in steps
        )
        results_path = Path(results)
        data = json.loads(results_path.read_text()) if results_path.exists() else {}
        # The run as a command line that plays the same units (seeded), whoever called it (a shell, a test).
        command = " ".join(
            [
                "manage.py calibrate_ladder",
                *(f"--game {shlex.quote(slug)}" for slug in game or []),
                f"--games-per-seat {games_per_seat}",
                *(f"--pair {level}" for level in steps or []),
                f"--workers {workers}",
            ]
        )
        last_of_game = {unit[0]: index for index, unit in enumerate(todo)}

        played = {slug for slug, _, _ in todo}

        def write(slugs: list[str]) -> None:
            for slug in slugs:
                # Every run that played some of the units stays named: a game's figures can come from several.
                # Runs in another variant played none of the units counted now.
                entry = data.get(slug, {})
                before = entry.get("commands", []) if entry.get("variant", "") == ladder_variant(slug) else []
                commands = [*before, command] if slug in played and command not in before else before
                data[slug] = summarize(slug, read_units(slug), commands)
            results_path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
            Path(output).write_text(render_markdown(data))

        with tqdm(total=total, initial=total - len(todo), desc="calibrating", unit="seed", mininterval=2) as bar:
            # forkserver, not fork: this process has threads (tqdm's monitor, Stockfish's I/O), and forking a
            # threaded process can deadlock the child. Workers import only games/ (play_unit is pure computation).
            pool = multiprocessing.get_context("forkserver").Pool(workers) if workers > 1 else None
            try:
                finished = pool.imap(play_unit, todo) if pool else map(play_unit, todo)
                for index, unit in enumerate(finished):  # in order: a game's pages are written once its units are in
                    with (PROGRESS_DIR / f"{unit['game']}.jsonl").open("a") as log:
                        log.write(json.dumps(unit, sort_keys=True) + "\n")
                    bar.set_postfix_str(f"{unit['challenger']} vs {unit['defender']}")
                    bar.update()
                    if last_of_game[unit["game"]] == index:
                        write([unit["game"]])
            finally:
                if pool:
                    pool.terminate()
        write([slug for slug in games if read_units(slug)])
        self.stdout.write(f"wrote {output} and {results}")


def summarize(slug: str, units: list[dict], commands: list[str]) -> dict:
    """A game's ladder entry from its finished units: per adjacent pair W–D–L, win rate, interval, time."""
    bots = ladder(slug)
    rows = []
    for pair in range(len(bots) - 1):
        mine = [u for u in units if u["pair"] == pair]
        wins, draws, losses = (sum(u[k] for u in mine) for k in ("wins", "draws", "losses"))
        seconds, moves = sum(u["seconds"] for u in mine), sum(u["moves"] for u in mine)
        decisive = wins + losses
        low, high = wilson_interval(wins, decisive)
        rows.append(
            {
                "challenger": bots[pair + 1].slug,
                "defender": bots[pair].slug,
                "games_per_seat": len({u["seed"] for u in mine}),
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": wins / decisive if decisive else None,
                "ci95": [low, high],
                "challenger_ms_per_move": round(1000 * seconds / moves, 1) if moves else 0.0,
            }
        )
    return {
        "date": date.today().isoformat(),
        "commands": commands,
        "games_per_seat": min((r["games_per_seat"] for r in rows), default=0),
        "variant": ladder_variant(slug),
        "levels": [{"slug": b.slug, "description": b.description} for b in bots],
        "pairs": rows,
    }


def _verdict(row: dict) -> str:
    """Whether the pair meets the 70–90% target; a perfect player (the draw-rate rule) cannot and need not."""
    if int(row["challenger"].rsplit("-lv", 1)[1]) in draw_rate_levels(row["challenger"].rsplit("-lv", 1)[0]):
        return "perfect play: never loses (draw-rate rule)" if row["losses"] == 0 else "perfect player lost a game"
    rate = row["win_rate"]
    if rate is None:
        return "no decisive game"
    return "in 70–90%" if TARGET[0] <= rate <= TARGET[1] else "outside 70–90%"


def profile_lines(data: dict) -> list[str]:
    """The BotzoneBench ladder profile (`arena.evaluate.protocols.BOTZONE_PROFILE`) with the measurements behind it,
    for the games `data` has measured (none: no section)."""
    games = [game for game in BOTZONE_PROFILE if game in data]
    if not games:
        return []
    lines = [
        "## BotzoneBench ladder profile",
        "",
        "`manage.py evaluate --protocol botzonebench` climbs these of our levels as the paper's Lv0, Lv1, …: Lv0 is",
        "uniform random, as Botzone's; each level above was chosen by the paper's rule (§4.4), beating the one below",
        "in 70–90% of decisive games, and tic-tac-toe's one level is the bot that never loses (full minimax; its",
        "measured step over our Lv3 is shown). They are Arena's bots, not Botzone's (which need Botzone's platform),",
        "so a level here is not the paper's level: the report says so in its Table 2. Where our ladder has fewer",
        "levels than the paper's, the profile stops at our top.",
        "",
        "| game | paper's levels | profile | steps measured (W–D–L, win rate) |",
        "|---|---|---|---|",
    ]
    for game in games:
        levels = BOTZONE_PROFILE[game]
        pairs = {(p["challenger"], p["defender"]): p for p in data[game]["pairs"]}
        chosen = ", ".join(f"Lv{k} = `{game}-lv{level}`" for k, level in enumerate(levels))
        steps = []
        for high in levels[1:]:  # each chosen level's measured step over our level below it
            row = pairs.get((f"{game}-lv{high}", f"{game}-lv{high - 1}"))
            rate = "—" if row is None or row["win_rate"] is None else f"{row['win_rate']:.0%}"
            record = "not measured" if row is None else f"{row['wins']}–{row['draws']}–{row['losses']}, {rate}"
            steps.append(f"lv{high} over lv{high - 1}: {record}")
        short = len(levels) - 1 < BOTZONE_PAPER_LEVELS[game]
        paper = f"{BOTZONE_PAPER_LEVELS[game]}" + (f" (ours: {len(levels) - 1})" if short else "")
        lines.append(f"| {game} | {paper} | {chosen} | {'; '.join(steps)} |")
    return [*lines, ""]


def render_markdown(data: dict) -> str:
    """docs/ladders.md from the results of every calibrated game."""
    measured = [r for entry in data.values() for r in entry["pairs"] if r.get("games_per_seat", 0) >= 100]
    inside = [r for r in measured if _verdict(r) == "in 70–90%"]
    perfect = [r for r in measured if _verdict(r).startswith("perfect play")]
    # The issue asks for intervals of at most ±7 points; a perfect player's step has no win rate to bound.
    wide = [r for r in measured if r not in perfect and (r["ci95"][1] - r["ci95"][0]) / 2 > 0.07]
    lines = [
        "# Bot ladders",
        "",
        "Each level should beat the one below it in 70–90% of decisive games (BotzoneBench §4.4).",
        "Measured by `manage.py calibrate_ladder` (or `make calibrate`): every adjacent pair plays the",
        "same fixed seeds with each bot on each side (in team games the bot fills every seat of its side);",
        "draws are excluded from the win rate, and the interval is the 95% Wilson interval over decisive",
        "games. The command resumes an interrupted run from `var/ladders/<game>.jsonl` and writes this page",
        "and `docs/ladders.json`; re-run it whenever a bot changes (`--pair N` plays only the step up to LvN, e.g.",
        "to narrow one interval with more seeds). Each game's section gives the exact commands",
        "and date of its measurement; a pair measured with fewer than 100 games per seat is marked *preliminary*.",
        "",
        f"Summary of the pairs measured with at least 100 games per seat: {len(measured)} pairs; in 70–90%: "
        f"{len(inside)}; outside: {len(measured) - len(inside) - len(perfect)}; ending at a perfect player (never "
        f"loses; rated by the draw-rate rule instead): {len(perfect)}. Pairs whose interval is wider than ±7 "
        f"points: {len(wide)}.",
        "",
        "The one exception to the 70–90% target is by design: tic-tac-toe's top level plays perfectly, so it",
        "can never lose and wins only the games the level below gives away. Its step is judged by never losing",
        "(BotzoneBench's draw-rate rule), not by a win rate.",
        "",
        *profile_lines(data),
    ]
    for slug in sorted(data):
        entry = data[slug]
        variant = f" in the `{entry['variant']}` variant" if entry.get("variant") else ""
        lines += [f"## {slug}", "", f"Measured {entry['date']}{variant}, {entry['games_per_seat']} games per seat."]
        if entry.get("commands"):
            lines.append("Commands: " + "; then ".join(f"`{c}`" for c in entry["commands"]) + ".")
        lines += ["", "| level | plays |", "|---|---|"]
        lines += [f"| `{level['slug']}` | {level['description']} |" for level in entry["levels"]]
        lines += [
            "",
            "| challenger vs defender | games per seat | W–D–L | win rate (decisive) | 95% interval | verdict "
            "| challenger ms/move |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in entry["pairs"]:
            per_seat = row.get("games_per_seat", entry["games_per_seat"])
            rate = "—" if row["win_rate"] is None else f"{row['win_rate']:.0%}"
            low, high = row["ci95"]
            verdict = _verdict(row) + ("" if per_seat >= 100 else ", *preliminary*")
            lines.append(
                f"| `{row['challenger']}` vs `{row['defender']}` | {per_seat} "
                f"| {row['wins']}–{row['draws']}–{row['losses']} | {rate} | {low:.0%}–{high:.0%} | {verdict} "
                f"| {row['challenger_ms_per_move']:.1f} |"
            )
        lines.append("")
    return "\n".join(lines)
