"""Bot accounts over a websocket (like lichess's bot API): a token's agents play their seats as they come up.

An agent of kind "remote" with config {"transport": "websocket"}, owned by the token's person, sits in
matches like a person: the runner waits at its turns. Connected to /ws/bot/ with `Authorization: Bearer
<token>` (scope "agents"), the bot receives {"type": "turn", "match", "ply", "seat", "agent", "game",
"observation", "legal_actions", "history"} for each of its turns (its seat's view only), answers {"type":
"move", "match", "ply", "action"}, and gets {"type": "error", "match", "message"} when a move is refused.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from arena.agents.history import match_moves
from arena.api.presence import bot_presence_clear, bot_presence_mark
from arena.api.services import MAX_ID, api_token_touch, live_token
from arena.models import Agent, ApiToken, Match, Seat
from arena.play.people import person_move
from arena.record.services import ServiceError
from arena.runner.loop import broadcast_match_updated, run_match
from games import IllegalAction, get_game
from games.base import to_jsonable

#: How often a connected bot's turns are looked up, in seconds.
POLL_S = 0.5
#: Largest frame a bot may send, in characters.
MAX_FRAME = 10_000


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


def _turns(user) -> list[tuple[Match, int, Agent]]:
    """Running matches where one of the user's websocket agents is to move: (match, seat, agent)."""
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

    async def connect(self) -> None:
        self.token = await sync_to_async(_token_from)(self.scope)
        if self.token is None:
            await self.close(code=4401)
            return
        self.sent: set[tuple[int, int]] = set()
        await self.accept()
        self.poller = asyncio.create_task(self._poll())

    async def disconnect(self, code: int) -> None:
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
            await bot_presence_clear(self.token.user_id)

    async def _poll(self) -> None:
        while True:
            await bot_presence_mark(self.token.user_id)  # the lobby offers this person's bots while it lasts
            for match, seat, agent in await sync_to_async(_turns)(self.token.user):
                if (match.pk, match.ply) not in self.sent:
                    self.sent.add((match.pk, match.ply))
                    await self.send(text_data=json.dumps(await _turn_frame(match, seat, agent)))
            await asyncio.sleep(POLL_S)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None or len(text_data) > MAX_FRAME:
                raise ValueError(f"Send text frames of at most {MAX_FRAME} characters.")
            frame = json.loads(text_data)
            if frame.get("type") != "move":
                raise ValueError('Send {"type": "move", "match": …, "ply": …, "action": "…"}.')
            match_id, ply, action = int(frame["match"]), int(frame["ply"]), str(frame["action"])
            if not (0 <= match_id <= MAX_ID and 0 <= ply <= MAX_ID):
                raise ValueError(f"'match' and 'ply' are whole numbers from 0 to {MAX_ID}.")
        except (ValueError, KeyError, TypeError) as error:
            await self.send(text_data=json.dumps({"type": "error", "match": None, "message": str(error)}))
            return
        try:
            match = await sync_to_async(self._move)(match_id, ply, action)
        except (ServiceError, IllegalAction, Match.DoesNotExist) as error:
            self.sent.discard((match_id, ply))  # ask again: the turn is still this bot's if the move was refused
            await self.send(text_data=json.dumps({"type": "error", "match": match_id, "message": str(error)}))
            return
        await broadcast_match_updated(match)  # a person playing this bot sees its move
        await run_match(match_id)  # the other seats' bots and models move until this bot's next turn

    def _move(self, match_id: int, ply: int, action: str) -> Match:
        match = Match.objects.get(pk=match_id)
        mine = [
            seat.agent_version.agent
            for seat in match.seats.select_related("agent_version__agent")
            if seat.agent_version.agent.owner_id == self.token.user.pk
        ]
        if not mine:
            raise ServiceError("None of your agents plays this match.")
        return person_move(match_id=match_id, agent=mine[0], text=action, ply=ply)


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
