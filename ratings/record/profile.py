"""The charts of an agent's profile: rating history and a per-game radar against the human baseline."""

from __future__ import annotations

from django.db.models import Count, Q

from arena.models import Agent, Match, Seat
from arena.studies.selectors import score_shares, studies_shown
from ratings.record import charts
from ratings.record.plan_metrics import RADAR_AXES
from ratings.record.selectors import KINDS, leaderboard_rows, snapshot_for


def human_baseline_by_game() -> dict[str, float]:
    """Score share per game of all people who consented to baseline use."""
    seats = Seat.objects.filter(
        match__status=Match.Status.FINISHED,
        score__isnull=False,
        agent_version__agent__kind=Agent.Kind.HUMAN,
        agent_version__agent__baseline_consent=True,
    )
    rows = seats.values("match__game").annotate(
        n=Count("pk"), wins=Count("pk", filter=Q(score=1.0)), draws=Count("pk", filter=Q(score=0.5))
    )
    return {r["match__game"]: (r["wins"] + 0.5 * r["draws"]) / r["n"] for r in rows}


def study_series(slug: str, games: list[str], *, staff: bool) -> tuple[str, list[float | None]] | None:
    """Study `slug`'s baseline on `games` (its included participants' score share), named with the study and n
    (participants with a finished match in those games); None if it may not be shown or has nothing there."""
    study = next((s for s in studies_shown(staff=staff) if s.slug == slug), None)
    shares = score_shares(study) if study else {}
    if not any(g in shares for g in games):
        return None
    people = set().union(*(shares[g]["people"] for g in games if g in shares))
    name = f"Human baseline ({study.title}, n = {len(people)})"
    return name, [shares[g]["share"] if g in shares else None for g in games]


def agent_profile_charts(agent: Agent, records: list[dict], *, study: str = "", staff: bool = False) -> dict:
    """Figures for the profile page (None where there is nothing to draw yet); with `study`, that study's baseline
    beside the pooled one on the per-game radar."""
    snapshot = snapshot_for(game="", filters={})
    rows = leaderboard_rows(snapshot, kinds=set(KINDS)) if snapshot else []
    row = next((r for r in rows if r["slug"] == agent.slug), None)
    history = charts.rating_history({agent.name: row["history"]}) if row and len(row["history"]) > 1 else None
    games = [r["game"] for r in records]
    radar = None
    if games:
        mine = [(r["wins"] + 0.5 * r["draws"]) / r["matches"] for r in records]
        baseline = human_baseline_by_game()
        series = {agent.name: mine}
        if any(g in baseline for g in games):
            series["Human baseline"] = [baseline.get(g) for g in games]
        if study and (chosen := study_series(study, games, staff=staff)):
            series[chosen[0]] = chosen[1]
        counts = [r["matches"] for r in records]
        # A radar needs three axes to be a shape; with one or two games the same numbers are bars.
        radar = charts.radar(games, series) if len(games) >= 3 else charts.score_bars(games, series, counts)
    process_radar = None
    radar_data = snapshot.data.get("radar", {}) if snapshot else {}
    if agent.slug in radar_data:
        series = {agent.name: radar_data[agent.slug]}
        if "human-baseline" in radar_data:
            series["Human baseline"] = radar_data["human-baseline"]
        process_radar = charts.radar(RADAR_AXES, series)
    return {
        "rating_row": row,
        "history_chart": history,
        "radar_chart": radar,
        "process_radar_chart": process_radar,
        "studies": [s for s in studies_shown(staff=staff) if set(s.games()) & set(games)],
        "study": study,
    }
