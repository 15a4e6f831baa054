"""Metrics particular to some games, read from final states and rejected attempts.

STAR (skirmish): unit preservation and game time for PWER, and Table 3's error rates. DSGBench
(Werewolf): identification (IRP: share of a villager-side player's votes that named a werewolf) and key-role survival
(KSR: share of games a seer or werewolf was still alive at the end). DSGBench (Diplomacy): CCC, WS, BIR, ASR, AD
and welfare points, read from the executed orders. Definitions in docs/metrics.md.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict

from arena.models import Attempt, Decision, Match, Seat
from games import get_game
from games.diplomacy.engine import board as diplomacy_board
from games.skirmish import classify_command_error
from games.skirmish.units import ARMY
from ratings.maths.metrics import proportion

KEY_ROLES = ("seer", "werewolf")


def _seat_agents(matches) -> dict[int, dict[int, str]]:
    seats: dict[int, dict[int, str]] = defaultdict(dict)
    for match_id, index, slug in Seat.objects.filter(match__in=matches).values_list(
        "match_id", "index", "agent_version__agent__slug"
    ):
        seats[match_id][index] = slug
    return seats


def star_performance(state: dict) -> tuple[int, int, int, int] | None:
    """STAR's PWER inputs from a finished skirmish state: the winner's surviving and total units, game time, horizon.

    Game time is turns (rounds) in turn-based play and clock ticks in real-time play, where the horizon
    is max_turns rounds of two windows. None for a draw (PWER uses M = 1 then).
    """
    winner = state["winner"]
    if winner not in (0, 1):
        return None
    surviving = sum(1 for unit in state["units"] if unit[1] == winner)  # units are (uid, side, …), the living ones
    if state["mode"] == "real-time":
        return surviving, len(ARMY), state["clock"], 2 * state["max_turns"] * state["window_ticks"]
    return surviving, len(ARMY), state["turn"], state["max_turns"]


def star_error_rates(matches=None, *, labels: dict[int, dict[int, str]] | None = None) -> list[dict]:
    """Per row over finished skirmish matches (or the given ones), STAR Table 3: actions per game, TCE and SAE.

    A row is the agent slug, or the key `labels[match][seat]` gives (the reports: agent, scaffold and mode);
    seats without a key are left out. Commands = decisions + rejected attempts; failed = rejected commands +
    accepted commands that failed on execution (counted in the final state: fog halts and late real-time
    commands). TCE = failed / commands; SAE = spatial / failed, where spatial counts only rejected commands
    that broke a spatial constraint: a march halted by an enemy it could not see broke none (`halts`, apart).
    """
    if matches is None:
        matches = Match.objects.filter(game="skirmish", status=Match.Status.FINISHED)
    seats = _seat_agents(matches) if labels is None else labels
    game = get_game("skirmish")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # commands, failed, spatial, games, halts
    played: dict[str, set[int]] = defaultdict(set)
    for match_id, final in matches.values_list("pk", "state"):
        for seat, key in seats.get(match_id, {}).items():
            counts[key][1] += final["failed"][seat]
            counts[key][4] += final["spatial"][seat]  # the engine's "spatial" count is its fog halts
            played[key].add(match_id)
    states = {}
    for match_id, ply, seat, before in Decision.objects.filter(match__in=matches).values_list(
        "match_id", "ply", "seat", "state_before"
    ):
        states[(match_id, ply)] = before
        if (key := seats.get(match_id, {}).get(seat)) is not None:
            counts[key][0] += 1
    rejected = Attempt.objects.filter(match__in=matches, transient=False).exclude(verdict=Attempt.Verdict.OK)
    for match_id, seat, ply, text, parsed in rejected.values_list(
        "match_id", "seat", "ply", "raw_text", "parsed_action"
    ):
        key = seats.get(match_id, {}).get(seat)
        if key is None:
            continue
        counts[key][0] += 1  # a rejected command was still a command given
        counts[key][1] += 1
        before = states.get((match_id, ply))
        if before is not None and classify_command_error(game.from_json(before), parsed or text) == "spatial":
            counts[key][2] += 1
    return [
        {
            "agent": key,
            "games": len(played[key]),
            "matches": sorted(played[key]),
            "commands": commands,
            "actions_per_game": commands / len(played[key]),
            "failed": asdict(proportion(failed, commands)),
            "spatial": asdict(proportion(spatial, failed)),
            "halts": halts,
        }
        for key, (commands, failed, spatial, _games, halts) in sorted(counts.items())
        if commands and played[key]
    ]


def werewolf_social(matches=None) -> list[dict]:
    """Per agent over finished Werewolf games (or the given ones): IRP from votes and KSR for key roles (DSGBench)."""
    if matches is None:
        matches = Match.objects.filter(game="werewolf", status=Match.Status.FINISHED)
    seats = _seat_agents(matches)
    votes: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # votes on wolves, votes cast (villager side)
    key: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # survived, key-role games
    for match in matches.only("pk", "state"):
        roles, alive = match.state["roles"], match.state["alive"]
        for kind, _round, actor, target, _text in match.state["events"]:
            if kind == "vote" and target >= 0 and roles[actor] != "werewolf":
                slug = seats[match.pk][actor]
                votes[slug][0] += roles[target] == "werewolf"
                votes[slug][1] += 1
        for seat, role in enumerate(roles):
            if role in KEY_ROLES:
                key[seats[match.pk][seat]][0] += bool(alive[seat])
                key[seats[match.pk][seat]][1] += 1
    agents = sorted(set(votes) | set(key))
    return [
        {
            "agent": slug,
            "irp": asdict(proportion(*votes[slug])) if votes[slug][1] else None,
            "ksr": asdict(proportion(*key[slug])) if key[slug][1] else None,
        }
        for slug in agents
    ]


def mahjong_pattern_diversity(hands: list[list[tuple[int, int, str]]]) -> dict:
    """BotzoneBench Table 4 over one agent's winning Mahjong hands, each a list of (fan, times, pattern name).

    A pattern counts once per hand it appears in. `distinct`: patterns seen; `high_*`: patterns worth 8 fan or
    more (distinct ones, and their share of all pattern appearances); `mid_*`: patterns worth 4–6 fan; `four_plus`:
    distinct patterns worth 4 fan or more; `min_fan_hands`: hands reaching 8 fan without the flowers.
    """
    appearances: dict[str, int] = defaultdict(int)
    worth: dict[str, int] = {}
    min_fan_hands = 0
    for fans in hands:
        for points, _times, name in fans:
            appearances[name] += 1
            worth[name] = points
        min_fan_hands += sum(p * t for p, t, name in fans if name != "Flower Tiles") >= 8
    total = sum(appearances.values())

    def share(names: list[str]) -> float | None:
        return sum(appearances[n] for n in names) / total if total else None

    high = [n for n in appearances if worth[n] >= 8]
    mid = [n for n in appearances if 4 <= worth[n] <= 6]
    return {
        "hands": len(hands),
        "distinct": len(appearances),
        "high_distinct": len(high),
        "high_share": share(high),
        "mid_distinct": len(mid),
        "mid_share": share(mid),
        "four_plus": sum(1 for n in appearances if worth[n] >= 4),
        "min_fan_hands": min_fan_hands,
    }


def mahjong_patterns() -> list[dict]:
    """Per agent over finished Mahjong games: `mahjong_pattern_diversity` of the hands it won."""
    matches = Match.objects.filter(game="mahjong", status=Match.Status.FINISHED)
    seats = _seat_agents(matches)
    won: dict[str, list] = defaultdict(list)
    for match in matches.only("pk", "state"):
        winner, _dealt_in, fans = match.state["result"] or [-1, -1, []]
        if winner >= 0:
            won[seats[match.pk][winner]].append([tuple(f) for f in fans])
    return [{"agent": slug, **mahjong_pattern_diversity(hands)} for slug, hands in sorted(won.items())]


# -- Diplomacy (DSGBench): the paper names the ratios but not how alliances and betrayals are detected, so
# they are read from executed movement orders (docs/metrics.md, "Diplomacy"): two powers are allied in a phase
# when one supports or convoys a unit of the other; a betrayal is a move (or a support of a move) onto a
# province held by a power one was allied with in the previous movement phase.


def diplomacy_phases(history: list) -> list[tuple[list[list[str]], dict[str, int]]]:
    """Each resolved movement phase of a final state's `history`: the orders per power and who held each province."""
    phases = []
    for index, (name, orders) in enumerate(history):
        if name.endswith("M"):
            before = diplomacy_board(tuple((n, tuple(map(tuple, o))) for n, o in history[:index]))
            holder = {unit.split()[1][:3]: seat for seat, units in enumerate(before.units) for unit in units}
            phases.append(([list(o) for o in orders], holder))
    return phases


def _helped(order: str) -> str:
    """The province of the unit an order supports or convoys ('' for holds and moves)."""
    words = order.split()
    return words[4][:3] if len(words) > 4 and words[2] in ("S", "C") else ""


def _attacked(order: str) -> str:
    """The province an order moves into or supports a move into ('' otherwise)."""
    words = order.split()
    if len(words) >= 4 and words[2] == "-":
        return words[3][:3]
    if len(words) >= 7 and words[2] == "S" and words[5] == "-":
        return words[6][:3]
    return ""


def diplomacy_alliances(phases: list[tuple[list[list[str]], dict[str, int]]]) -> list[set[frozenset[int]]]:
    """Per movement phase, the allied pairs: one power supported or convoyed a unit of the other."""
    allied = []
    for orders, holder in phases:
        pairs = set()
        for seat, power_orders in enumerate(orders):
            for order in power_orders:
                other = holder.get(_helped(order), seat)
                if other != seat:
                    pairs.add(frozenset((seat, other)))
        allied.append(pairs)
    return allied


def diplomacy_social(phases: list[tuple[list[list[str]], dict[str, int]]], seats: int = 7) -> list[dict[str, int]]:
    """Per power: AD (movement phases with an ally), phases played, betrayals (orders against last phase's
    allies) and orders given; ASR = AD / phases and BIR = betrayals / orders."""
    allied = diplomacy_alliances(phases)
    rows = [{"ad": 0, "phases": len(phases), "betrayals": 0, "orders": 0} for _ in range(seats)]
    for index, (orders, holder) in enumerate(phases):
        for seat, power_orders in enumerate(orders):
            rows[seat]["ad"] += any(seat in pair for pair in allied[index])
            rows[seat]["orders"] += len(power_orders)
            friends = {o for pair in allied[index - 1] if seat in pair for o in pair} - {seat} if index else set()
            rows[seat]["betrayals"] += sum(1 for o in power_orders if holder.get(_attacked(o), seat) in friends)
    return rows


def diplomacy_metrics(state: dict) -> list[dict]:
    """Per power of a finished Diplomacy state: CCC (centres held), welfare points, WS (share of all welfare
    points, None when nobody has any), BIR, ASR and AD."""
    final = diplomacy_board(tuple((n, tuple(map(tuple, o))) for n, o in state["history"]))
    points = state["points"]
    total = sum(p for p in points if p > 0)
    rows = []
    for seat, social in enumerate(diplomacy_social(diplomacy_phases(state["history"]), len(points))):
        rows.append(
            {
                "ccc": len(final.centres[seat]),
                "welfare": points[seat],
                "ws": max(points[seat], 0) / total if total else None,
                "bir": social["betrayals"] / social["orders"] if social["orders"] else None,
                "asr": social["ad"] / social["phases"] if social["phases"] else None,
                "ad": social["ad"],
            }
        )
    return rows


def diplomacy_report() -> list[dict]:
    """Per agent over finished Diplomacy games (both variants): mean CCC, WS, BIR, ASR, AD and welfare points."""
    matches = Match.objects.filter(game="diplomacy", status=Match.Status.FINISHED)
    seats = _seat_agents(matches)
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for match_id, state in matches.values_list("pk", "state"):
        for seat, metrics in enumerate(diplomacy_metrics(state)):
            for name, value in metrics.items():
                if value is not None:
                    rows[seats[match_id][seat]][name].append(value)
    return [
        {
            "agent": slug,
            **{name: sum(values) / len(values) for name, values in metrics.items()},
            "games": len(metrics["ad"]),
        }
        for slug, metrics in sorted(rows.items())
    ]
