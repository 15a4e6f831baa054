"""Bot accounts over a websocket (like lichess's bot API): a token's agents play their seats as they come up.

An agent of kind "remote" with config {"transport": "websocket"}, owned by the token's person, sits in
matches like a person: the runner waits at its turns. Connected to /ws/bot/ with `Authorization: Bearer
<token>` (scope "agents"), the bot receives {"type": "turn", "match", "ply", "seat", "agent", "game",
"observation", "legal_actions", "history"} for each of its turns (its seat's view only), answers {"type":
"move", "match", "ply", "action"}, and gets {"type": "error", "match", "message"} when a move or a frame
is refused (the socket stays open). Frames are held to the match sockets' rules (size, shape, numbers in
range, a frame budget); sockets are counted per token and per client address like match sockets
(arena.play.live_limits), and a revoked token's sockets close (4401) at its next poll.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from arena.agents.history import match_moves
from arena.agents.presence import bot_presence_clear, bot_presence_mark
from arena.limits import play_limit
from arena.models import Agent, ApiToken, Match, Seat
from arena.pages.ratelimit import ConnectionBudget, socket_address
from arena.play.broadcast import broadcast_match_updated
from arena.play.consumers import MAX_FRAME_BYTES, MAX_PLY, FrameError
from arena.play.live_limits import TOO_MANY_SOCKETS, SocketLease
from arena.record.people import person_move
from arena.record.services import Recorded, ServiceError
from arena.record.tokens import api_token_touch, live_token
from arena.runner.loop import calls_outside_agent, run_match
from arena.runner.tasks import match_enqueue_once
from games import IllegalAction, get_game
from games.base import to_jsonable

logger = logging.getLogger(__name__)

#: How often a connected bot's turns (and its token) are looked up, in seconds.
POLL_S = 0.5
#: Close code of a socket whose token is unknown, revoked or lacks the "agents" scope.
UNAUTHORISED = 4401
#: Match ids are the database's 64-bit keys; a larger number is refused before any query.
MAX_MATCH_ID = 2**63
MOVE_FRAME = '{"type": "move", "match": <id>, "ply": <ply>, "action": "<move>"}'
#: The refusal of a move for a match id that does not exist or that none of the person's agents plays.
NOT_YOURS = "None of your agents plays a match with this id."


def parse_bot_frame(text: str | None) -> tuple[int, int, str]:
    """A bot's move frame as (match, ply, action); FrameError with what to send instead."""
    if text is None or len(text) > MAX_FRAME_BYTES or len(text.encode(errors="replace")) > MAX_FRAME_BYTES:
        raise FrameError(f"Frames must be text of at most {MAX_FRAME_BYTES} bytes.")
    try:
        frame = json.loads(text)
    except json.JSONDecodeError:
        raise FrameError(f"Frames must be JSON objects: {MOVE_FRAME}.") from None
    except ValueError:  # an integer longer than Python converts (4,300 digits)
        raise FrameError("A number in this frame is too long.") from None
    except RecursionError:
        raise FrameError("This frame nests too deeply.") from None
    if not isinstance(frame, dict) or frame.get("type") != "move":
        raise FrameError(f"Send {MOVE_FRAME}.")
    match, ply, action = frame.get("match"), frame.get("ply"), frame.get("action")
    for name, number, bound in (("match", match, MAX_MATCH_ID), ("ply", ply, MAX_PLY)):
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < bound:
            raise FrameError(f"'{name}' must be a whole number from the turn frame; send {MOVE_FRAME}.")
    if not isinstance(action, str) or not action.strip():
        raise FrameError(f"'action' must be the move as text; send {MOVE_FRAME}.")
    try:
        action.encode()
    except UnicodeEncodeError:  # a lone surrogate the database could not store
        raise FrameError("'action' must be valid Unicode text.") from None
    return match, ply, action


def websocket_agents(user) -> list[Agent]:
    """The user's agents that play over the bot websocket."""
    owned = Agent.objects.filter(owner=user, kind=Agent.Kind.REMOTE, is_active=True)
    return [agent for agent in owned if agent.current_version().config.get("transport") == "websocket"]


def _token_from(scope: dict[str, Any]) -> ApiToken | None:
    headers = dict(scope.get("headers") or [])
    value = headers.get(b"authorization", b"").decode(errors="replace")
    if not value.lower().startswith("bearer "):
        return None
    record = live_token(value[7:].strip())
    if record is None or ApiToken.Scope.AGENTS not in record.scopes:
        return None
    api_token_touch(token=record)
    return record


def _still_live(token: ApiToken) -> bool:
    """Whether `token` still opens the bot socket (not revoked, its person active, with the "agents" scope)."""
    record = ApiToken.objects.select_related("user").filter(pk=token.pk, revoked_at=None).first()
    return record is not None and record.user.is_active and ApiToken.Scope.AGENTS in record.scopes


def _turns(token: ApiToken) -> list[tuple[Match, int, Agent]] | None:
    """Running matches where one of the token's person's websocket agents is to move: (match, seat, agent);
    None once the token no longer opens the socket."""
    if not _still_live(token):
        return None
    user = token.user
    agents = {agent.pk: agent for agent in websocket_agents(user)}
    seats = Seat.objects.filter(agent_version__agent__in=agents, match__status=Match.Status.RUNNING).select_related(
        "match", "agent_version"
    )
    turns = []
    for seat in seats:
        game = get_game(seat.match.game)
        if game.current_player(game.from_json(seat.match.state)) == seat.index:
            turns.append((seat.match, seat.index, agents[seat.agent_version.agent_id]))
    return turns


class BotConsumer(AsyncWebsocketConsumer):
    """One bot account's connection: turns out, moves in."""

    token: ApiToken | None = None
    poller: asyncio.Task | None = None
    renewing: asyncio.Task | None = None
    lease: SocketLease | None = None

    async def __call__(self, scope, receive, send) -> None:
        """As channels' consumer; however the socket ends (closed, refused, a crash), its tasks and lease end too."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._stop()

    async def connect(self) -> None:
        self.token = await sync_to_async(_token_from)(self.scope)
        if self.token is None:
            await self.close(code=UNAUTHORISED)
            return
        self.sent: set[tuple[int, int]] = set()
        self.budget = ConnectionBudget("frames")
        lease = SocketLease(
            {
                f"bot-token:{self.token.pk}": play_limit("bot_sockets_per_token"),
                f"address:{socket_address(self.scope)}": play_limit("sockets_per_address"),
            }
        )
        refusal = await sync_to_async(lease.acquire, thread_sensitive=False)()
        if not refusal:
            self.lease = lease
            await bot_presence_mark(self.token.user_id)  # offered in the lobby once the bot holds an open socket
        await self.accept()
        if refusal:
            await self.send(text_data=json.dumps({"type": "error", "match": None, "message": refusal}))
            await self.close(code=TOO_MANY_SOCKETS, reason=refusal)
            return
        self.poller = asyncio.create_task(self._poll())
        self.renewing = asyncio.create_task(self._renew_lease())

    async def disconnect(self, code: int) -> None:
        await self._stop()

    async def _stop(self) -> None:
        """End the poll and lease tasks and give the lease back (idempotent; never from the poll task itself)."""
        current = asyncio.current_task()
        for task in (self.poller, self.renewing):
            if task is not None and task is not current:
                task.cancel()
        if self.poller is not None:
            self.poller = None
            await bot_presence_clear(self.token.user_id)
        self.renewing = None
        lease, self.lease = self.lease, None
        if lease is not None:
            await sync_to_async(lease.release, thread_sensitive=False)()

    async def _renew_lease(self) -> None:
        while True:
            await asyncio.sleep(SocketLease.renew_delay_s())
            await sync_to_async(self.lease.renew, thread_sensitive=False)()

    async def _poll(self) -> None:
        try:
            while True:
                turns = await sync_to_async(_turns)(self.token)
                if turns is None:
                    message = "This token was revoked or no longer has the agents scope."
                    await self.send(text_data=json.dumps({"type": "error", "match": None, "message": message}))
                    await self.close(code=UNAUTHORISED, reason=message)
                    return
                await bot_presence_mark(self.token.user_id)  # kept fresh while the socket lasts
                for match, seat, agent in turns:
                    if (match.pk, match.ply) not in self.sent:
                        self.sent.add((match.pk, match.ply))
                        await self.send(text_data=json.dumps(await _turn_frame(match, seat, agent)))
                await asyncio.sleep(POLL_S)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("bot socket of token %s: its turns could not be looked up", self.token.pk)
            await self.close(code=1011)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        match_id = None
        try:
            if not self.budget.allow():
                raise FrameError("Too many messages; slow down.")
            match_id, ply, action = parse_bot_frame(text_data)
            recorded = await sync_to_async(self._move)(match_id, ply, action)
        except (ServiceError, IllegalAction) as error:
            self.sent.discard((match_id, ply))  # ask again: the turn is still this bot's if the move was refused
            await self.send(text_data=json.dumps({"type": "error", "match": match_id, "message": str(error)}))
            return
        except FrameError as error:
            await self.send(text_data=json.dumps({"type": "error", "match": None, "message": str(error)}))
            return
        except Exception:
            # A bug costs the sender one answer, not the connection (a 1011 close) nor a leftover task.
            logger.exception("bot socket of token %s: a frame could not be handled", self.token.pk)
            message = "The server could not handle that."
            await self.send(text_data=json.dumps({"type": "error", "match": match_id, "message": message}))
            return
        await broadcast_match_updated(recorded.match, recorded.decisions)  # a person playing this bot sees its move
        if await sync_to_async(calls_outside_agent)(recorded.match.uid):
            await sync_to_async(match_enqueue_once)(match_id)  # an outside agent's I/O runs in a worker, never here
        else:
            await run_match(match_id)  # the other seats' bots and models move until this bot's next turn

    def _move(self, match_id: int, ply: int, action: str) -> Recorded:
        """Record the move of this token's agent seated in the match; a match that does not exist and one the
        token's person does not play get the same refusal, so the socket does not tell which ids exist."""
        seat = (
            Seat.objects.filter(match_id=match_id, agent_version__agent__owner_id=self.token.user.pk)
            .select_related("agent_version__agent")
            .order_by("index")
            .first()
        )
        if seat is None:
            raise ServiceError(NOT_YOURS)
        return person_move(match_id=match_id, agent=seat.agent_version.agent, text=action, ply=ply)


async def _turn_frame(match: Match, seat: int, agent: Agent) -> dict[str, Any]:
    game = get_game(match.game)
    state = game.from_json(match.state)
    moves = await match_moves(match.pk, game, seat)
    return {
        "type": "turn",
        "match": match.pk,
        "ply": match.ply,
        "seat": seat,
        "agent": agent.slug,
        "game": game.slug,
        "observation": to_jsonable(game.player_view(state, seat)),
        "legal_actions": [game.action_to_text(state, action) for action in game.legal_actions(state)],
        "history": [{"seat": m.who, "ply": m.ply, "action": m.text} for m in moves],
    }
