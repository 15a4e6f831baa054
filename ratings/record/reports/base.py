"""What every report is made of: checked filters, the matches they select, and tables of cells with intervals.

A report module computes its tables from plain inputs (pure, testable by hand) after reading the
record once; the page and `manage.py report` both render the same `Report` (ratings/record/reports/render.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from django.db.models import QuerySet

from arena.agents.llm_config import SCAFFOLDS
from arena.evaluate.protocols import PROTOCOLS
from arena.models import Agent, Match
from ratings.maths.metrics import Estimate
from ratings.record.filters import FilterError, choice, strict_date
from ratings.record.report_record import Baseline, study_baseline

#: The query parameters every report accepts, in the order forms and links write them.
FILTER_NAMES = ("agent", "scaffold", "prompt", "since", "until", "bots", "study")
#: `bots=show` adds scripted and programmed agents to the across-agent views (correlations, radars, Figure 1),
#: which by default hold models and the human baseline only, as the papers' do.
BOTS_SHOWN = "show"


@dataclass(frozen=True)
class ReportFilters:
    """A checked report request; empty values mean "any"."""

    agent: str = ""
    scaffold: str = ""
    prompt: str = ""
    since: str = ""
    until: str = ""
    bots: str = ""
    #: A study's slug: its included participants are the human baseline instead of pooled human play.
    study: str = ""

    @cached_property
    def baseline(self) -> Baseline:
        """Whose play the report's human baseline is (read once per filters)."""
        return study_baseline(self.study)

    @property
    def with_bots(self) -> bool:
        return self.bots == BOTS_SHOWN

    def items(self) -> list[tuple[str, str]]:
        return [(name, getattr(self, name)) for name in FILTER_NAMES if getattr(self, name)]

    def shows(self, label: str) -> bool:
        """Whether a report row (an agent label: "slug", "slug (scaffold)", "slug v3 (scaffold)") is asked for."""
        name, _, scaffold = label.partition(" (")
        slug = name.partition(" v")[0]
        if self.agent and slug != self.agent:
            return False
        return not self.scaffold or not scaffold or scaffold.rstrip(")") == self.scaffold


def report_filters(
    params: Mapping[str, str],
    *,
    prompt_versions: Callable[[], list[str]],
    studies: Callable[[], list[str]] = list,
) -> ReportFilters:
    """Check every report parameter like the leaderboard does (ratings/record/filters.py); FilterError names the first
    bad one.

    `studies` gives the slugs of the studies whose baseline the requester may use. The agent, prompt and study lists
    read the record, so they are read only when asked for."""
    values = {name: params.get(name, "") or "" for name in FILTER_NAMES}
    if values["agent"]:
        known = list(Agent.objects.filter(slug=values["agent"]).values_list("slug", flat=True))
        if not known:
            raise FilterError(f"agent={values['agent'][:40]!r} is not known; give the slug of an agent on /agents/.")
    if values["scaffold"]:
        choice("scaffold", values["scaffold"], SCAFFOLDS)
    choice("bots", values["bots"], ("", BOTS_SHOWN))
    if values["prompt"]:
        choice("prompt", values["prompt"], prompt_versions())
    if values["study"] and values["study"] not in studies():
        raise FilterError(f"study={values['study'][:60]!r} is not a study whose baseline can be shown here.")
    for name in ("since", "until"):
        if values[name]:
            values[name] = strict_date(name, values[name])
    if values["since"] and values["until"] and values["since"] >= values["until"]:
        raise FilterError(f"since={values['since']} is not before until={values['until']}; the period would be empty.")
    return ReportFilters(**values)


def finished_matches(games: Iterable[str], filters: ReportFilters) -> QuerySet[Match]:
    """Finished matches of `games` that fit the filters: the agent and scaffold sat in them, prompt and dates match."""
    matches = Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False, game__in=list(games))
    if filters.agent:
        matches = matches.filter(seats__agent_version__agent__slug=filters.agent)
    if filters.scaffold:
        matches = matches.filter(seats__agent_version__config__scaffold=filters.scaffold)
    if filters.prompt:
        matches = matches.filter(record__prompt_version=filters.prompt)
    if filters.since:
        matches = matches.filter(finished_at__date__gte=date.fromisoformat(filters.since))
    if filters.until:
        matches = matches.filter(finished_at__date__lt=date.fromisoformat(filters.until))
    return matches.distinct().order_by("finished_at", "pk")


#: Agent kinds counted as models in across-agent views: LLM agents, and remote agents (a participant's own
#: agent over HTTP, which we cannot look inside; usually a model). Bots, programs and UCI engines are scripted.
MODEL_KINDS = (Agent.Kind.LLM, Agent.Kind.REMOTE)


def across_agents(labels: Iterable[str], kinds: dict[str, str], filters: ReportFilters, *, people: bool = True):
    """The labels an across-agent view counts: models (a label of unknown kind counts as one), the human baseline
    when `people`, and scripted agents only when the filters ask for them (`bots=show`)."""
    out = []
    for label in labels:
        kind = kinds.get(label, Agent.Kind.LLM)
        if kind == Agent.Kind.HUMAN:
            if people:
                out.append(label)
        elif kind in MODEL_KINDS or filters.with_bots:
            out.append(label)
    return out


@dataclass(frozen=True)
class Cell:
    """One number of a table: value, interval, n, and the matches behind it (ids); value None when undefined."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    matches: tuple[int, ...] = ()
    unit: str = ""  # "%" for proportions shown as percentages, "" for plain numbers
    note: str = ""  # e.g. "thin" when too few games to rank on

    @classmethod
    def of(cls, estimate: Estimate, matches: Iterable[int] = (), *, unit: str = "", note: str = "") -> Cell:
        return cls(estimate.value, estimate.low, estimate.high, estimate.n, tuple(sorted(set(matches))), unit, note)

    def as_dict(self) -> dict:
        return {
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "n": self.n,
            "matches": list(self.matches),
            **({"note": self.note} if self.note else {}),
        }


@dataclass
class Table:
    """A paper's table: a title naming the source (section, table or figure), column headings, labelled rows.

    Each row is (label, cells) with one cell per column; a cell may be text (a level such as "Lv2, 50%")."""

    key: str
    title: str
    source: str
    columns: list[str]
    rows: list[tuple[str, list[Cell | str | None]]] = field(default_factory=list)
    note: str = ""
    level: float | None = 0.95  # the confidence level of the intervals; None when they are not confidence intervals
    #: What the intervals are, said on the page beside the table ("" for "intervals at <level>").
    intervals: str = ""
    #: Drawn as a figure too: (x column, y column, log x axis); a row label "agent · series" names its series.
    chart: tuple[int, int, bool] | None = None
    #: Drawn as a dot plot instead: one series per row, its cells along x with their intervals, columns on y.
    dot_plot: bool = False
    #: Drawn as a radar too: one series per row, the columns as its axes (undefined cells left out).
    radar: bool = False

    @property
    def interval_text(self) -> str:
        """What the table's intervals are, as the page and the Markdown say it."""
        if self.intervals:
            return self.intervals
        return f"intervals at {self.level:.0%}" if self.level is not None else "no intervals"


@dataclass
class Report:
    paper: str
    title: str
    citation: str
    tables: list[Table]
    filters: ReportFilters
    notes: list[str] = field(default_factory=list)

    @property
    def baseline(self) -> dict:
        """Which human baseline the report used, as its header says it: pooled human play, or a study with its n
        (the study's participants with a match behind some number of the report)."""
        ids = {m for t in self.tables for _, cells in t.rows for c in cells if isinstance(c, Cell) for m in c.matches}
        return self.filters.baseline.summary(ids)


def with_departures(report: str, citation: str) -> str:
    """The report's citation, followed by where `manage.py evaluate` does not run the paper's experiment."""
    found = [p.departures for p in PROTOCOLS.values() if p.report == report and p.departures]
    return " ".join([citation, *(f"Not the paper's setup: {text}" for text in found)])
