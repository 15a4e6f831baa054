"""How a match ended, in words a person reads: names instead of seat numbers, each result said once."""

from __future__ import annotations

import re
from typing import Any

SEAT_NUMBER = re.compile(r"\bseat (\d+)\b")


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def seat_label(seats: list[dict[str, Any]], index: int) -> str:
    """The player in seat `index`: the agent's name, with the seat's name when that agent holds several seats."""
    agent = seats[index]["agent"]
    if sum(1 for seat in seats if seat["agent"].pk == agent.pk) > 1:
        return f"{agent.name} ({seats[index]['name']})"
    return agent.name


def result_text(termination: str, seats: list[dict[str, Any]], scores: list[float] | None) -> str:
    """How the match ended (seat numbers named) and who won, or "Draw.", each said once; `seats` are `live_seats`
    rows in seat order."""
    how = SEAT_NUMBER.sub(
        lambda m: seat_label(seats, int(m[1])) if int(m[1]) < len(seats) else m[0], termination or "the game ended"
    )
    how = how.rstrip()
    how += "" if how.endswith((".", "!", "?")) else "."  # a game's reason may already end its sentence
    if not scores or len(scores) != len(seats):
        return how
    if len(set(scores)) == 1:
        return f"{how} Draw."
    best = max(scores)
    winners: list[str] = []
    for seat in seats:
        if scores[seat["index"]] != best:
            continue
        own = [s for s in seats if s["agent"].pk == seat["agent"].pk]
        if all(scores[s["index"]] == best for s in own):
            label = seat["agent"].name
        else:  # the same agent also sat on the losing side (a bot filling several seats): say which seats won
            label = f"{seat['agent'].name} ({_names([s['name'] for s in own if scores[s['index']] == best])})"
        if label not in winners:
            winners.append(label)
    return f"{how} {_names(winners)} {'wins' if len(winners) == 1 else 'win'}."
