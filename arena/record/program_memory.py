"""What a Botzone program keeps between turns, in the record: `data` per seat of a match, `globaldata` per agent.

Kept in the database rather than in a process, so it outlives the runner letting go of a match while a
person thinks, a worker's restart and another worker taking the match over, as on Botzone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from arena.models import Agent, Seat

#: Largest `data` or `globaldata` kept, in bytes of JSON (Botzone's 100 KB).
MAX_MEMORY_BYTES = 100_000


@dataclass
class ProgramMemory:
    """A program's memory at one seat: Botzone's `data` and `globaldata`, and its own answers Arena did not play."""

    data: Any = None
    globaldata: Any = None
    #: The program's own answer at each of its turns (by number, from 0, as text) where Arena played another move.
    answers: dict[str, Any] = field(default_factory=dict)
    #: The answer the program already gave for its next turn (Botzone's Mahjong names its discard with a PENG).
    then: str = ""
    #: False once staff disable the agent: it plays no more moves, even in matches under way.
    active: bool = True


def too_big(value: Any) -> bool:
    """Whether `value` is more than a program may keep (MAX_MEMORY_BYTES of JSON)."""
    return len(json.dumps(value).encode()) > MAX_MEMORY_BYTES


def program_memory(*, match_id: int, seat: int) -> ProgramMemory:
    """The memory of the program at `seat` of the match, as its last turn left it (and whether it may still play)."""
    stored, globaldata, active = Seat.objects.filter(match_id=match_id, index=seat).values_list(
        "program_memory", "agent_version__agent__program_globaldata", "agent_version__agent__is_active"
    )[0]
    answers, then = stored.get("answers", {}), stored.get("then", "")
    return ProgramMemory(data=stored.get("data"), globaldata=globaldata, answers=answers, then=then, active=active)


@transaction.atomic
def program_memory_save(*, match_id: int, seat: int, memory: ProgramMemory) -> None:
    """Keep the program's `data`, answers and `then` for its next turn in this match, and its `globaldata` for all."""
    seats = Seat.objects.filter(match_id=match_id, index=seat)
    seats.update(program_memory={"data": memory.data, "answers": memory.answers, "then": memory.then})
    agent_id = seats.values_list("agent_version__agent_id", flat=True)[0]
    Agent.objects.filter(pk=agent_id).update(program_globaldata=memory.globaldata)
