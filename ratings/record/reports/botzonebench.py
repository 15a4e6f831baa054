"""BotzoneBench: Table 2 (ladder level and progress per game), retry success at k, hold'em action frequencies
(Table 3), Mahjong scoring-pattern diversity (Table 4). Definitions in docs/metrics.md, "Reports → BotzoneBench".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from arena.models import Attempt, Decision, Match, Tournament
from arena.record.selectors import draw_rate_levels, ladder_levels, ladder_weight
from games import get_game
from ratings.maths import process_metrics as pm
from ratings.maths.ladder import Record, ladder_rating
from ratings.maths.metrics import proportion, wilson_interval
from ratings.record.game_metrics import mahjong_pattern_diversity
from ratings.record.models import ReferenceRecord
from ratings.record.report_record import seat_labels
from ratings.record.reports.base import Cell, Report, ReportFilters, Table, finished_matches, with_departures
from ratings.record.reports.published import with_published

TITLE = "BotzoneBench: anchored skill against graded bot ladders"
CITATION = "BotzoneBench §4.5 (ladder rating), Table 2, Table 3 (hold'em actions), Appendix C (prompt)."
#: Re-prompts after a first invalid reply: BotzoneBench gives three tries in all (§4.2, App. C; its code's
#: max_retries = 3 counts every try), so at most two.
RETRY_K = (1, 2)
#: Table 3's kinds, with all-in apart (the paper's finding is about all-ins) and call apart from check (Botzone's
#: 0 is either; the paper's Check column is our check + call).
ACTIONS = ("fold", "check", "call", "all-in", "raise")


@dataclass(frozen=True)
class LadderGame:
    """One ladder match as the rating needs it: the candidate, game, level, the candidate's score, the match id,
    and its weight toward the level (`arena.record.selectors.ladder_weight`)."""

    candidate: str
    game: str
    level: int
    score: float
    match: int
    weight: float = 1.0


def ladder_cell(games: list[LadderGame], *, top_level: int, draw_levels: frozenset[int]) -> Cell:
    """Table 2's cell for one candidate and game: progress toward the next level, the level in the note."""
    by_level: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0])
    for g in games:
        by_level[g.level][{1.0: 0, 0.5: 1, 0.0: 2}[g.score]] += g.weight
    records = [Record(*by_level[level]) for level in range(max(by_level) + 1)]
    rating = ladder_rating(records, top_level=top_level, draw_rate_levels=draw_levels)
    at = [g.match for g in games if g.level == rating.level] if not rating.topped else [g.match for g in games]
    level = f"Lv{rating.level}" + (", topped" if rating.topped else "")
    low = high = None
    if rating.progress is not None:  # the progress's own interval: its rate's Wilson 95%, transformed as it is
        record, draw_rule = records[rating.level], rating.level in draw_levels
        successes, trials = (
            (record.wins + record.draws, record.games) if draw_rule else (record.wins, record.wins + record.losses)
        )
        low, high = (bound if draw_rule else min(1.0, 2 * bound) for bound in wilson_interval(successes, trials))
    return Cell(rating.progress, low, high, len(at), tuple(sorted(at)), unit="%", note=level)


#: What our Table 2's levels are, printed in its title (docs/ladders.md, "BotzoneBench ladder profile").
ARENA_LADDER = "Arena's ladder, not Botzone's bots; Lv0 is identical"


def table_2(games: list[LadderGame], tops: dict[str, int], draw_levels: dict[str, frozenset[int]]) -> Table:
    grouped: dict[str, dict[str, list[LadderGame]]] = defaultdict(lambda: defaultdict(list))
    for g in games:
        grouped[g.candidate][g.game].append(g)
    columns = sorted({g.game for g in games})
    rows = [
        (
            candidate,
            [
                ladder_cell(by_game[game], top_level=tops[game], draw_levels=draw_levels[game])
                if game in by_game
                else None
                for game in columns
            ],
        )
        for candidate, by_game in sorted(grouped.items())
    ]
    return Table(
        key="table-2",
        title="Table 2: level reached and progress",
        source="BotzoneBench §4.5, Table 2",
        columns=columns,
        rows=rows,
        note="Progress = 2 × win rate (draws excluded) against the level not yet beaten, capped at 100%; tic-tac-toe's "
        "perfect top level uses the rate of games not lost and needs no loss to pass. n = games at that level.",
        level=None,
        intervals="Wilson 95% intervals on the progress (its win rate's, doubled and capped as the progress is); the "
        "paper gives point values",
    )


def retry_table(attempts: dict[str, list[pm.AttemptRecord]]) -> Table:
    rows = []
    for label, mine in sorted(attempts.items()):
        ids = sorted({a.match for a in mine})
        rows.append((label, [Cell.of(pm.retry_success_at(mine, k), ids, unit="%") for k in RETRY_K]))
    return Table(
        key="retry",
        title="Retry success at k",
        source="BotzoneBench §4.2 and App. C (re-prompting with the previous invalid outputs; three tries in all)",
        columns=[f"k = {k}" for k in RETRY_K],
        rows=rows,
        note="Decisions whose first invalid reply is followed by a valid one within k more tries / decisions with an "
        "invalid reply; provider errors are not counted as tries. Wilson 95%.",
        intervals="Wilson 95% intervals",
    )


def action_table(actions: dict[str, list[tuple[int, str]]]) -> Table:
    rows = []
    for label, mine in sorted(actions.items()):
        ids = sorted({m for m, _ in mine})
        rows.append(
            (
                label,
                [Cell.of(proportion(sum(a == kind for _, a in mine), len(mine)), ids, unit="%") for kind in ACTIONS],
            )
        )
    return Table(
        key="table-3",
        title="Table 3: hold'em action frequencies (% of decisions)",
        source="BotzoneBench Table 3",
        columns=list(ACTIONS),
        rows=rows,
        note="Share of the agent's hold'em decisions of each kind: all-in (every chip behind) apart from other "
        "raises, as the paper's Table 3; check and call apart (the paper's Check is both). Wilson 95%.",
        intervals="Wilson 95% intervals",
    )


def table_4(won: dict[str, list[tuple[int, list[tuple[int, int, str]]]]]) -> Table:
    """Mahjong scoring-pattern diversity per agent, over the hands it won: (match, fan breakdown) each."""
    rows = []
    for label, hands in sorted(won.items()):
        stats = mahjong_pattern_diversity([fans for _, fans in hands])
        ids = tuple(sorted({match for match, _ in hands}))

        def cell(value: float | None, unit: str = "", n: int = stats["hands"], ids: tuple = ids) -> Cell:
            return Cell(value, None, None, n, ids, unit)

        rows.append(
            (
                label,
                [
                    cell(stats["distinct"]),
                    cell(stats["high_distinct"]),
                    cell(stats["high_share"], "%"),
                    cell(stats["mid_distinct"]),
                    cell(stats["mid_share"], "%"),
                ],
            )
        )
    return Table(
        key="table-4",
        title="Table 4: Mahjong scoring-pattern diversity",
        source="BotzoneBench §6.1, Table 4",
        columns=["unique patterns", "≥ 8 fan: count", "≥ 8 fan: freq.", "4–6 fan: count", "4–6 fan: freq."],
        rows=rows,
        note="Over the agent's winning hands (n = hands won): distinct scoring patterns, and per band the distinct "
        "patterns and their share of all pattern appearances; a pattern counts once per hand it appears in.",
        level=None,
        intervals="no intervals: counts and shares of the hands won, as the paper's",
    )


def action_kind(text: str) -> str:
    """A hold'em decision's kind: fold, check, call, all-in or raise (any other raise size)."""
    word = text.strip().split(" ", 1)[0].lower()
    return word if word in ("fold", "check", "call", "all-in") else "raise"


def ladder_games(filters: ReportFilters) -> list[LadderGame]:
    """The candidates' games in ladder tournaments that fit the filters."""
    games = Match.objects.filter(tournament__format=Tournament.Format.LADDER).values_list("game", flat=True)
    matches = finished_matches(set(games), filters).filter(tournament__format=Tournament.Format.LADDER)
    labels = seat_labels(matches, filters.baseline)
    hidden = [slug for slug in set(games) if get_game(slug).hidden_teams]
    final_states = {  # for `ladder_weight`
        pk: (state, options)
        for pk, state, options in matches.filter(game__in=hidden).values_list("pk", "state", "options")
    }
    out = []
    for pk, game, record, scores in matches.values_list("pk", "game", "record", "scores"):
        info, seats = record.get("ladder", {}), labels.get(pk, {})
        seat = next(
            (i for i, label in seats.items() if label and label.partition(" (")[0] == info.get("candidate")), None
        )
        if seat is not None and filters.shows(seats[seat]):
            state, options = final_states.get(pk, (None, None))
            weight = ladder_weight(game, state, seat, options)
            out.append(LadderGame(seats[seat], game, int(info["level"]), float(scores[seat]), pk, weight))
    return out


def ladder_tops(games: list[LadderGame]) -> dict[str, int]:
    """Each game's top level in the ladders these games were played on (a profile's, e.g. BotzoneBench's, or the
    whole ladder's; the highest where both were played)."""
    tops: dict[str, int] = {}
    for tournament in Tournament.objects.filter(matches__in=[g.match for g in games]).distinct():
        for game in tournament.config.get("games", []):
            tops[game] = max(tops.get(game, 0), len(ladder_levels(tournament, game)) - 1)
    return tops


def reference_games(records: list[ReferenceRecord]) -> list[LadderGame]:
    """BotzoneBench's own ladder games (imported, replayed through our engines) as the candidates' games."""
    out = []
    for r in records:
        seat = next(i for i, name in enumerate(r.agents) if not name.startswith("botzone-lv"))
        out.append(LadderGame(r.agents[seat], r.game, int(r.level or 0), float(r.scores[seat]), 0))
    return out


def build(filters: ReportFilters) -> Report:
    games = ladder_games(filters)
    used = {g.game for g in games}
    ours = table_2(games, (tops := ladder_tops(games)), {g: draw_rate_levels(g, tops[g]) for g in used})
    # Our levels are Arena's calibrated bots, not Botzone's: said in the table, where its cells sit beside the paper's.
    ours.title += f" — {ARENA_LADDER}"
    tables = [ours]
    imported = list(ReferenceRecord.objects.filter(source="botzone"))
    if imported:
        reference = reference_games(imported)
        # Botzone's ladders have 7 levels (lv0–lv6), whatever ours have; tic-tac-toe's top keeps the draw rule.
        seen = {g.game for g in reference}
        table = table_2(
            reference, dict.fromkeys(seen, 6), {g: frozenset({6}) if g == "tic-tac-toe" else frozenset() for g in seen}
        )
        table.key, table.title = "reference-table-2", "Reference: Table 2 from BotzoneBench's published logs (imported)"
        table.source = (
            f"imported from {imported[0].repository}@{imported[0].commit}; every move replayed; not arena matches"
        )
        table.rows = [
            (label, [None if c is None else replace(c, matches=()) for c in cells]) for label, cells in table.rows
        ]
        tables.append(table)
    everything = finished_matches(set(Match.objects.values_list("game", flat=True).distinct()), filters)
    labels = seat_labels(everything, filters.baseline)
    attempts: dict[str, list[pm.AttemptRecord]] = defaultdict(list)
    fields = ("match_id", "ply", "seat", "number", "verdict", "transient")
    for match_id, ply, seat, number, verdict, transient in Attempt.objects.filter(match__in=everything).values_list(
        *fields
    ):
        label = labels.get(match_id, {}).get(seat)
        if label and filters.shows(label):
            attempts[label].append(pm.AttemptRecord((match_id, ply, seat), match_id, number, verdict, transient))
    tables.append(retry_table(attempts))
    actions: dict[str, list[tuple[int, str]]] = defaultdict(list)
    holdem = Decision.objects.filter(match__in=everything.filter(game="holdem"))
    for match_id, seat, text in holdem.values_list("match_id", "seat", "action_text"):
        label = labels.get(match_id, {}).get(seat)
        if label and filters.shows(label):
            actions[label].append((match_id, action_kind(text)))
    tables.append(action_table(actions))
    won: dict[str, list] = defaultdict(list)
    for match_id, state in everything.filter(game="mahjong").values_list("pk", "state"):
        winner, _dealt_in, fans = state.get("result") or [-1, -1, []]
        label = labels.get(match_id, {}).get(winner) if winner >= 0 else None
        if label and filters.shows(label):
            won[label].append((match_id, [tuple(f) for f in fans]))
    tables.append(table_4(won))
    return Report(
        "botzonebench",
        TITLE,
        with_departures("botzonebench", CITATION),
        with_published("botzonebench", tables),
        filters,
    )
