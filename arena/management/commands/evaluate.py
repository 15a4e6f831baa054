"""Evaluate one agent the way a paper did (docs/evaluate.md): create, resume, run or queue, then its table rows."""

from __future__ import annotations

import asyncio
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from arena.evaluate.protocols import NAMED_BY_RESEARCHER, PROTOCOLS
from arena.evaluate.run import run_evaluation
from arena.evaluate.selectors import evaluation_spend
from arena.evaluate.services import budget_reached, evaluation_create, evaluation_queue
from arena.models import Agent, Decision, Match
from arena.record.services import ServiceError
from arena.record.turns import matches_hand_back
from arena.runner.loop import default_worker_id
from games import UnknownGame
from ratings.record.reports import paper
from ratings.record.reports.base import ReportFilters
from ratings.record.reports.render import cell_text


def _list(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


class Command(BaseCommand):
    help = (
        "Evaluate AGENT (or a cohort: AGENT AGENT …) under a paper's protocol: the paper's games, opponents, seats, "
        "scaffold and retries. Where the paper plays the evaluated models against each other (GameBench, STAR, "
        "AdvGameBench), each agent of a cohort plays those listed before it: a round robin, and a model added later "
        "(listed last) plays only its new pairings."
    )

    def add_arguments(self, parser):
        parser.add_argument("agents", nargs="+", help="The agent's slug (several: a cohort).")
        parser.add_argument("--protocol", required=True, choices=list(PROTOCOLS))
        parser.add_argument("--games", help="Comma-separated: only these of the paper's games.")
        parser.add_argument("--opponents", help="Comma-separated agent slugs to play instead of the paper's.")
        parser.add_argument("--scaffold", help="The scaffold to seat a model with (default: the paper's).")
        parser.add_argument("--games-per-seat", type=int, help="Seeds per side per opponent or ladder level.")
        parser.add_argument("--budget-usd", type=float, help="Stop scheduling before the agent's spend passes this.")
        parser.add_argument("--budget-tokens", type=int, help="Stop scheduling before the agent's tokens pass this.")
        parser.add_argument(
            "--first-seed",
            type=int,
            help="Consecutive seeds from this one, to reproduce a run (marked as fixed; default: random seeds).",
        )
        parser.add_argument(
            "--max-in-flight",
            type=int,
            default=8,
            help="With --run: matches played at once in this process (default 8, at most 256).",
        )
        parser.add_argument("--run", action="store_true", help="Play it in this process (default: queue it).")

    def handle(self, *args, agents: list[str], protocol: str, run: bool, **options):
        cohort = PROTOCOLS[protocol].cohort and len(agents) > 1
        if len(agents) > 1 and not cohort:
            raise CommandError(f"{PROTOCOLS[protocol].paper}'s protocol evaluates one agent at a time.")
        for index, agent in enumerate(agents):
            earlier = agents[:index] if cohort else None
            if (
                cohort
                and not earlier
                and PROTOCOLS[protocol].opponents == NAMED_BY_RESEARCHER
                and not options.get("opponents")
            ):
                self.stdout.write(f"{agent}: plays the cohort's later agents (its evaluation is theirs)")
                continue
            self._evaluate(agent, protocol, run, earlier, options)

    def _evaluate(self, agent: str, protocol: str, run: bool, cohort: list[str] | None, options: dict) -> None:
        found = Agent.objects.filter(slug=agent).first()
        if found is None:
            raise CommandError(f"No agent {agent!r}.")
        try:
            key, tournaments = evaluation_create(
                agent=found,
                protocol=protocol,
                games=_list(options.get("games")),
                opponents=_list(options.get("opponents")),
                scaffold=options.get("scaffold"),
                games_per_seat=options.get("games_per_seat"),
                budget_usd=options.get("budget_usd"),
                budget_tokens=options.get("budget_tokens"),
                first_seed=options.get("first_seed"),
                cohort=cohort,
            )
        except (ServiceError, UnknownGame) as error:
            raise CommandError(str(error)) from None
        evaluation = tournaments[0].config["evaluation"]
        self.stdout.write(f"{evaluation['label']}: {evaluation['seated']} — evaluation {key}")
        if departures := PROTOCOLS[protocol].departures:
            self.stdout.write(f"Not the paper's setup: {departures}")
        for tournament in tournaments:
            self.stdout.write(f"  {tournament.slug}: {tournament.name}")
        if run:
            if not 1 <= options["max_in_flight"] <= 256:
                raise CommandError("--max-in-flight must be from 1 to 256.")
            reason = self._run(tournaments, options["max_in_flight"])
        elif reason := budget_reached(tournaments):
            pass
        else:
            queued = evaluation_queue(tournaments=tournaments)
            self.stdout.write(f"queued {len(queued)} matches for the workers; run this again to see progress")
        if reason:
            self.stdout.write(f"stopped scheduling: {reason}")
        self._rows(tournaments)

    def _counts(self, tournaments) -> tuple[int, int]:
        matches = Match.objects.filter(tournament__in=tournaments)
        done = matches.filter(status__in=(Match.Status.FINISHED, Match.Status.ABORTED)).count()
        return done, matches.count()

    def _run(self, tournaments, in_flight: int) -> str:
        done, total = self._counts(tournaments)
        started = time.monotonic()
        first_decisions = Decision.objects.filter(match__tournament__in=tournaments).count()
        with tqdm(total=total, initial=done, unit="match", dynamic_ncols=True) as bar:

            def on_match(_match) -> None:
                now_done, now_total = self._counts(tournaments)
                spend = evaluation_spend(tournaments)
                decisions = Decision.objects.filter(match__tournament__in=tournaments).count() - first_decisions
                elapsed = max(time.monotonic() - started, 1e-9)
                bar.total, bar.n = now_total, now_done
                bar.set_postfix(
                    {
                        "decisions/s": f"{decisions / elapsed:.2f}",
                        "tokens": f"{spend['tokens']:,.0f}",
                        "cost": f"${spend['cost']:.4f}",
                    }
                )
                bar.refresh()

            worker = default_worker_id()
            try:
                # On this thread's own loop: Ctrl-C cancels the run; once it has stopped, its matches in play are
                # handed back, whatever each slot was doing when it was cancelled.
                return asyncio.run(run_evaluation(tournaments, worker=worker, in_flight=in_flight, on_match=on_match))
            except KeyboardInterrupt:
                matches_hand_back(worker=worker)
                raise CommandError(
                    "interrupted: the matches in play are pending again; run this again to go on", returncode=130
                ) from None

    def _rows(self, tournaments) -> None:
        """The paper's tables as our report builds them, this agent's rows only."""
        evaluation = tournaments[0].config["evaluation"]
        done, total = self._counts(tournaments)
        spend = evaluation_spend(tournaments)
        self.stdout.write(
            f"{done}/{total} matches done; {evaluation['seated']} used {spend['tokens']:,.0f} tokens, "
            f"${spend['cost']:.4f}"
        )
        protocol = PROTOCOLS[evaluation["protocol"]]
        report = paper(protocol.report).build(ReportFilters(agent=evaluation["seated"]))
        for table in report.tables:
            published = table.key.startswith("published-")  # the paper's own numbers, to read ours against
            mine = [(label, cells) for label, cells in table.rows if label.partition(" (")[0] == evaluation["seated"]]
            rows = table.rows if published else mine
            if not rows:
                continue
            self.stdout.write(f"{table.title} — {table.source}")
            for label, cells in rows:
                pairs = zip(table.columns, cells, strict=False)
                shown = "; ".join(f"{column}: {cell_text(cell)}" for column, cell in pairs if cell)
                self.stdout.write(f"  {label}: {shown}" if published else f"  {label} [{evaluation['label']}]: {shown}")
