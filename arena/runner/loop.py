"""One async runner plays any match, whoever sits in it, and can resume it from its record."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from asgiref.sync import sync_to_async
from django.db import InterfaceError, OperationalError, connections

from arena.agents.base import DecisionResult, SeatAgent
from arena.agents.bots import BotAgent, decision_rng
from arena.agents.llm.agent import LLMAgent
from arena.agents.outside import OUTSIDE_AGENTS, close_agents
from arena.models import Agent, AgentVersion, Match
from arena.record.selectors import moves_arrive_by_socket, seat_versions
from arena.record.services import (
    Recorded,
    ServiceError,
    attempt_record_rejected,
    decisions_record,
    match_abort,
    match_resign,
)
from arena.record.signals import decision_due, match_updated
from arena.record.turns import (
    HEARTBEAT_INTERVAL_S,
    AwaitingPerson,
    Claimed,
    GaveUp,
    Paused,
    Refused,
    match_adjourn,
    match_claim,
    match_heartbeat,
    match_pause,
)
from games import Game, IllegalAction, get_game

logger = logging.getLogger(__name__)


def default_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class HumanSeat:
    """A person's seat: the runner stops and waits; their move arrives through the websocket."""


def player_for(version: AgentVersion, *, match_id: int | None = None) -> SeatAgent | HumanSeat:
    """The seat agent that plays for `version` (outside agents read their match's moves by `match_id`)."""
    agent = version.agent
    if moves_arrive_by_socket(version):
        return HumanSeat()  # a person's, or a bot account's: like a person's, its moves arrive through a websocket
    if agent.kind in OUTSIDE_AGENTS:
        return OUTSIDE_AGENTS[agent.kind](version.config, match_id=match_id)
    if agent.kind == Agent.Kind.BOT:
        return BotAgent(version.config["bot"])
    if agent.kind == Agent.Kind.LLM:
        return LLMAgent(version.config)
    raise ServiceError(f"{agent.slug} is a {agent.get_kind_display()}; the runner cannot seat it yet.")


def calls_outside_agent(match_uid: uuid.UUID) -> bool:
    """Whether the runner would call an outside agent in this match (a program, an engine, a remote agent over
    HTTP): such a match's turns are played by a worker, never in the web process (docs/architecture.md)."""
    return any(
        version.agent.kind in OUTSIDE_AGENTS and not moves_arrive_by_socket(version)
        for version in seat_versions(match_uid)
    )


def _load(match_id: int, worker: str, handed: Match | None = None) -> tuple[Claimed | AwaitingPerson | Refused, list]:
    """Claim the match (unless it was `handed` to this worker: it holds it already), and its agents."""
    if handed is not None and handed.claimed_by == worker:
        turn = Claimed(handed, started=False)
    else:
        turn = match_claim(match_id=match_id, worker=worker)
    if isinstance(turn, Refused):
        return turn, []
    return turn, [player_for(version, match_id=turn.match.pk) for version in seat_versions(turn.match.uid)]


async def _heartbeat(match_id: int, worker: str) -> None:
    """Keep the claim fresh while the run holds the match, however long an agent thinks: one task for the whole
    run (its writes refresh the claim too), not one per decision, which cost a task's start and cancellation at
    every move."""
    while True:
        await asyncio.sleep(HEARTBEAT_INTERVAL_S)
        try:
            await sync_to_async(match_heartbeat)(match_id=match_id, worker=worker)
        except (OperationalError, InterfaceError):
            logger.warning("database unavailable for a heartbeat of match %s; will try again", match_id)


async def run_match(match_id: int, *, worker: str | None = None, handed: Match | None = None) -> Match | None:
    """Play `match_id` from wherever its record stands, until it ends or a person is to move.

    `handed`: the match as a person's move just recorded it, claimed for this worker in the same write (see
    `person_move`): it is run as it is, without a claim of its own. Returns None when another worker holds
    the match or it is already over.
    """
    worker = worker or default_worker_id()
    turn, agents = await sync_to_async(_load)(match_id, worker, handed)
    if isinstance(turn, Refused):
        return None
    if turn.started:
        await match_updated.asend(sender=Match, match=turn.match)  # watchers see the match start
    if isinstance(turn, AwaitingPerson):
        return turn.match  # a person is to move: started, and held by nobody until that move
    game = get_game(turn.match.game)
    # A handed match is as the person's move left it: no tries wait at its ply, so its first write need not read it.
    as_left = handed is turn.match
    played: Match | None = None
    try:
        played = await _play(turn.match, agents, game.from_json(turn.match.state), game, worker, as_left)
        return played
    finally:
        # Kept-running programs and engines stop with the run, but programs wait out a person's turn in this process.
        person_next = played is not None and played.status == Match.Status.RUNNING and played.paused_until is None
        await close_agents(agents, park=person_next)


async def _play(match: Match, agents: list, state: Any, game: Game, worker: str, as_left: bool) -> Match:
    """Take the bots' and models' turns from `state` on, while this worker holds the match: the record lets go of
    it in the write that leaves a person to move (or ends it). `as_left`: `match` is as the last write left it."""
    beating = asyncio.create_task(_heartbeat(match.pk, worker))
    try:
        return await _take_turns(match, agents, state, game, worker, as_left)
    finally:
        beating.cancel()


async def _take_turns(match: Match, agents: list, state: Any, game: Game, worker: str, as_left: bool) -> Match:
    """`_play`'s turns, one write each (a run of bots' turns: one write for the run)."""
    match_id = match.pk
    people = {index for index, agent in enumerate(agents) if isinstance(agent, HumanSeat)}
    held: str | None = None  # why the seat to move may not decide, when the last write asked already
    while (seat := game.current_player(state)) is not None and seat not in people:
        if not isinstance(agents[seat], BotAgent) and held is None:
            held = await sync_to_async(_held_back)(match, seat)
        if held:
            adjourned = await sync_to_async(match_adjourn)(match_id=match_id, worker=worker, reason=held)
            return adjourned or await Match.objects.aget(pk=match_id)
        decisions = await _decide(game, state, agents, seat, match.seed)
        if decisions[0].action is None and (outage := _outage(decisions[0])):
            paused = await sync_to_async(_pause)(match, seat, decisions[0], outage, worker)
            await match_updated.asend(sender=Match, match=paused)
            return paused
        if decisions[0].action is None:
            result, ended = await sync_to_async(_apply_fallback)(match, game, state, seat, decisions[0])
            if ended is not None:
                await match_updated.asend(sender=Match, match=ended)
                return ended
            decisions = [_arrived(game, state, result)]
        if not isinstance(agents[seat], BotAgent):
            decisions += _instant_replies(game, state, decisions[0], agents, match.seed)
        try:
            recorded, state, held = await _with_database_retries(
                _record_then_hold,
                game=game,
                agents=agents,
                match=match,
                ply=match.ply,
                decisions=decisions,
                worker=worker,
                release_to=people,
                as_left=as_left,
            )
            as_left = True  # this write left it so: the next one need not read it
        except ServiceError:
            # The match ended (resignation, time) or changed hands while the agent thought.
            return await sync_to_async(_after_refusal)(match, seat, decisions[0])
        match = recorded.match
        await match_updated.asend(sender=Match, match=match, decisions=recorded.decisions)
        if not match.claimed_by:
            return match  # over, or a person is to move: the record let go of the match
    return match


def _held_back(match: Match, seat: int) -> str:
    """Why `seat` may not decide now (`decision_due`'s first reason), or ""."""
    return next((reason for _, reason in decision_due.send(sender=Match, match=match, seat=seat) if reason), "")


def _record_then_hold(*, game: Game, agents: list, **write: Any) -> tuple[Recorded, Any, str | None]:
    """Record the decisions (`decisions_record(**write)`), then ask in the same thread hop whether the seat to move
    next may decide, when it is a model's or a program's. Returns the record, the state it left and the reason
    (None when not asked: a bot's or a person's turn, the match let go, or the database failed after the write)."""
    recorded = decisions_record(**write)
    if not recorded.match.claimed_by:
        return recorded, None, None  # over, or a person is to move
    state = game.from_json(recorded.match.state)
    seat = game.current_player(state)
    if seat is None or isinstance(agents[seat], (BotAgent, HumanSeat)):
        return recorded, state, None
    try:
        return recorded, state, _held_back(recorded.match, seat)
    except (OperationalError, InterfaceError):
        return recorded, state, None  # the write stands; the runner asks again before the decision


#: Bots' consecutive turns are decided in one go and recorded in one transaction, a run cut after this many
#: decisions or this much thinking: watchers see the match move, and a worker killed mid-run loses at most
#: that much work, which the next one re-decides identically (a bot's randomness is its seat and ply's).
BATCH_MAX_DECISIONS = 64
BATCH_MAX_SECONDS = 0.25

#: Threads for the bots' thinking, shared by every run in the process (a worker's matches, a web process's replies,
#: `tournament run`'s loops), so no event loop starts threads of its own for them.
BOT_THREADS = ThreadPoolExecutor(thread_name_prefix="arena-bots")


async def _decide(game: Game, state: Any, agents: list, seat: int, seed: int) -> list[DecisionResult]:
    """What the seat to move decides (bots: the run of bots' turns from here on), each action as it arrives;
    an agent that gave no answer is returned as it is, for the fallback policy."""
    if isinstance(agents[seat], BotAgent):
        if all(agent.instant for agent in agents if isinstance(agent, BotAgent)):
            return _bots_decide(game, state, agents, seed)  # random legal moves: cheaper than two thread hops
        # Bot search is CPU-bound: a worker thread keeps the event loop and the database thread free.
        return await sync_to_async(_bots_decide, thread_sensitive=False, executor=BOT_THREADS)(
            game, state, agents, seed
        )
    result = await agents[seat].decide(game, state, seat, seed)
    return [result if result.action is None else _arrived(game, state, result)]


def _bots_decide(game: Game, state: Any, agents: list, seed: int) -> list[DecisionResult]:
    """The bots' decisions from `state` on, until a seat that is not a bot's, the end or a bound of the run."""
    started = time.perf_counter()
    decisions = []
    while (seat := game.current_player(state)) is not None and isinstance(agents[seat], BotAgent):
        decisions.append(_arrived(game, state, agents[seat].choose(game, state, seat, seed)))
        state = game.apply(state, decisions[-1].action)
        if len(decisions) >= BATCH_MAX_DECISIONS or time.perf_counter() - started >= BATCH_MAX_SECONDS:
            break
    return decisions


def _instant_replies(game: Game, state: Any, decided: DecisionResult, agents: list, seed: int) -> list[DecisionResult]:
    """The random-move bots' turns that follow `decided` (an agent's decision from `state`), decided now so one
    write records them with it: what the next turns of the loop would decide, without their writes."""
    bots = [agent for agent in agents if isinstance(agent, BotAgent)]
    if not bots or not all(bot.instant for bot in bots):
        return []
    try:
        after = game.apply(state, decided.action)
    except IllegalAction:
        return []  # the write refuses the decision itself
    if (seat := game.current_player(after)) is None or not isinstance(agents[seat], BotAgent):
        return []
    return _bots_decide(game, after, agents, seed)


def _arrived(game: Game, state: Any, result: DecisionResult) -> DecisionResult:
    """Real-time games: the command takes effect when it arrives, after the agent's thinking time."""
    return replace(result, action=game.arrival(state, result.action, result.elapsed_ms / 1000))


def _outage(result: DecisionResult) -> str:
    """Why the agent's server could not be reached for this decision ("" when it answered, however badly)."""
    if result.outage:
        return result.outage
    if result.attempts and all(a.transient for a in result.attempts):
        return "the agent's server is not answering"
    return ""


def _pause(match: Match, seat: int, result: DecisionResult, outage: str, worker: str) -> Match:
    """The agent's server is down: keep its tries in the trace and pause the match (arena.record.turns) until it
    may answer again, queueing its resumption; an outage that outlasts the longest pause aborts it instead."""
    for attempt in result.attempts:
        attempt_record_rejected(match=match, ply=match.ply, seat=seat, attempt=attempt)
    step = match_pause(match_id=match.pk, worker=worker, outage=outage)
    if isinstance(step, GaveUp):
        return match_abort(match=match, reason=step.reason, transient=True)
    if isinstance(step, Paused):  # its resumption is queued by whoever listens (arena.runner.tasks)
        logger.warning("match %s paused until %s: %s", match.pk, step.until.isoformat(), step.reason)
    return Match.objects.get(pk=match.pk)


def _after_refusal(match: Match, seat: int, result: DecisionResult) -> Match:
    """The match as it is now that the agent's decision was refused; if it is over (a person resigned, time ran
    out), the decision's tries (a model's timed-out and answered calls) stay in its trace at the ply they were for.
    A match that changed hands is left to its new holder, whose own decision records that ply's tries."""
    now = Match.objects.get(pk=match.pk)
    if now.status in (Match.Status.FINISHED, Match.Status.ABORTED) and now.ply == match.ply:
        for attempt in result.attempts:
            attempt_record_rejected(match=now, ply=match.ply, seat=seat, attempt=attempt)
    return now


def _apply_fallback(
    match: Match, game: Game, state: Any, seat: int, result: DecisionResult
) -> tuple[DecisionResult, Match | None]:
    """An agent ran out of tries with its server answering: apply the match's fallback policy (and record why).

    Returns the decision to record instead, or the match if the policy ended it. An agent whose own protocol ends
    the game on an invalid answer (`forfeits`: a Botzone program, as Botzone's judge) forfeits under any policy.
    """
    policy = "forfeit" if result.forfeits else match.record.get("policies", {}).get("fallback", "random_legal")
    if policy in ("forfeit", "abort"):
        for attempt in result.attempts:
            attempt_record_rejected(match=match, ply=match.ply, seat=seat, attempt=attempt)
        if policy == "forfeit":
            reason = "forfeit: an invalid answer ends the game, as on Botzone" if result.forfeits else None
            return result, match_resign(match=match, seat=seat, reason=reason or "forfeit after invalid answers")
        return result, match_abort(match=match, reason=f"seat {seat} gave no valid answer (abort policy)")
    action = game.random_action(state, decision_rng(match.seed, seat, match.ply))
    return replace(result, action=action, fallback="random_legal"), None


#: A database outage is waited out for about a minute (1 + 2 + 4 + 8 + 16 + 30 s) before the run gives up.
DATABASE_RETRY_DELAYS_S = (1, 2, 4, 8, 16, 30)


async def _with_database_retries[Written](write: Callable[..., Written], **kwargs: Any) -> Written:
    """Call a (sync, atomic) service, retrying while the database is unreachable; nothing is half-written."""
    for delay in (*DATABASE_RETRY_DELAYS_S, None):
        try:
            return await sync_to_async(write)(**kwargs)
        except (OperationalError, InterfaceError):
            if delay is None:
                raise
            logger.warning("database unavailable while recording a decision; retrying in %s s", delay)
            await sync_to_async(connections.close_all)()
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")
