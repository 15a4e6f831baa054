"""Reads of evaluations: their tournaments, their spend, and the rows the /evaluate/ page lists."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, OuterRef, QuerySet, Sum

from arena.models import Attempt, Match, Seat, Tournament


def evaluation_tournaments(key: str) -> QuerySet[Tournament]:
    """The tournaments of the evaluation with this key, in the protocol's order of parts."""
    return Tournament.objects.filter(config__evaluation__key=key).order_by("pk")


def find_evaluations(agent: str = "") -> dict[str, list[Tournament]]:
    """Every evaluation (of `agent`, or of anyone) by key, its tournaments in order."""
    found: dict[str, list[Tournament]] = {}
    tournaments = Tournament.objects.filter(config__evaluation__isnull=False).order_by("pk")
    if agent:
        tournaments = tournaments.filter(config__evaluation__agent=agent)
    for tournament in tournaments:
        found.setdefault(tournament.config["evaluation"]["key"], []).append(tournament)
    return found


def evaluation_matches(tournaments: list[Tournament]) -> QuerySet[Match]:
    return Match.objects.filter(tournament__in=tournaments)


def evaluation_spend(tournaments: list[Tournament]) -> dict[str, float]:
    """Tokens and cost of the evaluated agent's attempts in the evaluation's matches, and its finished matches."""
    seated = {t.config["evaluation"]["seated"] for t in tournaments}
    its_seat = Seat.objects.filter(
        match_id=OuterRef("match_id"), index=OuterRef("seat"), agent_version__agent__slug__in=seated
    )
    spent = Attempt.objects.filter(Exists(its_seat), match__tournament__in=tournaments).aggregate(
        tokens=Sum(F("prompt_tokens") + F("completion_tokens")), cost=Sum("cost")
    )
    tokens, cost = float(spent["tokens"] or 0), float(spent["cost"] or 0)
    finished = evaluation_matches(tournaments).filter(status=Match.Status.FINISHED).count()
    return {"tokens": tokens, "cost": cost, "finished": finished}


def evaluation_rows(limit: int = 50) -> list[dict[str, Any]]:
    """The newest evaluations: label, agent, tournaments, matches done of all, the agent's spend, and its budget."""
    rows = []
    for key, tournaments in list(find_evaluations().items())[::-1][:limit]:
        evaluation = tournaments[0].config["evaluation"]
        counts = dict(
            evaluation_matches(tournaments).values_list("status").annotate(n=Count("pk")).values_list("status", "n")
        )
        total = sum(counts.values())
        done = counts.get(Match.Status.FINISHED, 0) + counts.get(Match.Status.ABORTED, 0)
        rows.append(
            {
                "key": key,
                "label": evaluation["label"],
                "agent": evaluation["agent"],
                "seated": evaluation["seated"],
                "protocol": evaluation["protocol"],
                "tournaments": tournaments,
                "done": done,
                "total": total,
                "paused": evaluation_matches(tournaments)
                .filter(status=Match.Status.RUNNING)
                .exclude(paused_until=None)
                .count(),
                "percent": round(100 * done / total) if total else 0,
                "spend": evaluation_spend(tournaments),
                "budget_usd": evaluation.get("budget_usd"),
                "budget_tokens": evaluation.get("budget_tokens"),
                "stopped": next((t.config["stopped"] for t in tournaments if t.config.get("stopped")), ""),
            }
        )
    return rows
