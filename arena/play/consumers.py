"""The match websocket: a thin transport adapter (DESIGN §2).

Each frame is parsed and validated, one service is called, and the match group is told
`match.updated` (ids only); every connected consumer then renders the fragment for its own viewer.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from arena.models import Agent, Match
from arena.play.people import person_flag, person_move, person_resign
from arena.play.ratelimit import ConnectionBudget
from arena.play.rendering import live_match_html, live_seats
from arena.record.services import STALE_AFTER_S, ServiceError
from arena.runner.loop import broadcast_match_updated, match_group, run_match
from games import IllegalAction, get_game

#: Large enough for a plan game's JSON plan; anything bigger is refused before parsing.
MAX_FRAME_BYTES = 16384
FRAME_TYPES = {"move", "resign", "flag"}
STALE_AFTER = timezone.timedelta(seconds=STALE_AFTER_S)

#: Bot and model turns started by this process; kept so the tasks are not garbage-collected.
_running: set[asyncio.Task] = set()


class FrameError(ValueError):
    """A frame that does not follow the protocol; the message goes back to the sender."""


def parse_frame(text: str | None) -> dict[str, Any]:
    """Validate a client frame: {"type": "move", "move": str, "ply": int} | {"type": "resign"} | {"type": "flag"}."""
    if text is None or len(text.encode()) > MAX_FRAME_BYTES:
        raise FrameError(f"Frames must be text of at most {MAX_FRAME_BYTES} bytes.")
    try:
        frame = json.loads(text)
    except json.JSONDecodeError:
        raise FrameError("Frames must be JSON objects.") from None
    if not isinstance(frame, dict) or frame.get("type") not in FRAME_TYPES:
        raise FrameError(f"Unknown frame; 'type' must be one of {', '.join(sorted(FRAME_TYPES))}.")
    if frame["type"] == "move":
        if not isinstance(frame.get("move"), str) or not frame["move"].strip():
            raise FrameError("A move frame needs 'move', the move as text.")
        if not isinstance(frame.get("ply"), int) or isinstance(frame.get("ply"), bool):
            raise FrameError("A move frame needs 'ply', the ply number you saw.")
    return frame


def viewer_agent(scope: dict[str, Any]) -> Agent | None:
    """The person behind this connection: their account's agent, or the guest seat in their session."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Agent.objects.filter(user=user).first()
    slug = scope.get("session", {}).get("guest_agent")
    return Agent.objects.filter(slug=slug, kind=Agent.Kind.HUMAN).first() if slug else None


def kick_runner(match_id: int) -> None:
    """Let bots and models take their turns in the background of this process."""
    task = asyncio.get_running_loop().create_task(run_match(match_id))
    _running.add(task)
    task.add_done_callback(_running.discard)


def needs_runner(match: Match, seats: list[dict[str, Any]]) -> bool:
    """True when the match must be started, or a bot or model is to move and nobody runs it.

    `seats` is `live_seats(match)`, which the consumer keeps.
    """
    if match.status == Match.Status.PENDING:
        return True  # the runner starts it, plays any opening bot moves, then waits for the person
    if match.status != Match.Status.RUNNING:
        return False
    if match.claimed_by and match.heartbeat_at and timezone.now() - match.heartbeat_at < STALE_AFTER:
        return False  # its holder is alive and on it
    game = get_game(match.game)
    seat = game.current_player(game.from_json(match.state))
    if seat is None:
        return False
    return seats[seat]["agent"].kind != Agent.Kind.HUMAN


def fragment_frame(match: Match, viewer: Agent | None, seats: list[dict[str, Any]]) -> str:
    """The viewer's live panel as a websocket frame."""
    return json.dumps({"type": "fragment", "ply": match.ply, "html": live_match_html(match, viewer, seats)})


STATUS_ORDER = [Match.Status.PENDING, Match.Status.RUNNING, Match.Status.FINISHED, Match.Status.ABORTED]


def shown_key(ply: int, status: str) -> tuple[int, int]:
    """How far a fragment got: later plies, then later statuses, supersede earlier ones."""
    return ply, STATUS_ORDER.index(status)


class MatchConsumer(AsyncWebsocketConsumer):
    """ws/matches/<id>/: live fragments for players and spectators; moves from players.

    Each step is one trip to the database thread (sync Django work), so a busy server interleaves
    many games fairly; an update this page has already shown (the bot replied before the person's
    own move was rendered) is not rendered twice.
    """

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.shown = (-1, -1)
        self.budget = ConnectionBudget("frames")
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        opened = await sync_to_async(self.open)()
        if opened is None:
            await self.channel_layer.group_discard(match_group(self.match_id), self.channel_name)
            await self.close(code=4404)
            return
        frame, needs = opened
        await self.accept()
        await self.send(text_data=frame)
        if needs:
            kick_runner(self.match_id)

    def open(self) -> tuple[str, bool] | None:
        """Who is watching, their first fragment, and whether the match needs a runner (None: no match)."""
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return None
        self.viewer = viewer_agent(self.scope)
        self.seats = live_seats(match)
        self.shown = shown_key(match.ply, match.status)
        return fragment_frame(match, self.viewer, self.seats), needs_runner(match, self.seats)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "match_id"):
            await self.channel_layer.group_discard(match_group(self.match_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if not self.budget.allow():
                raise FrameError("Too many messages; slow down.")
            frame = parse_frame(text_data)
            if self.viewer is None:
                raise FrameError("Spectators cannot move; start your own game from the lobby.")
            match, needs = await sync_to_async(self.act)(frame)
        except (FrameError, ServiceError, IllegalAction) as error:
            await self.send(text_data=json.dumps({"type": "error", "message": str(error)}))
            return
        if match is None:
            return  # nobody has run out of time: nothing changed
        await broadcast_match_updated(match)
        if needs:
            kick_runner(self.match_id)

    def act(self, frame: dict[str, Any]) -> tuple[Match | None, bool]:
        """Carry out a player's frame through the services: the match afterwards (None if nothing
        changed), and whether a bot or model must now be set to move."""
        if frame["type"] == "move":
            match = person_move(match_id=self.match_id, agent=self.viewer, text=frame["move"], ply=frame["ply"])
        elif frame["type"] == "resign":
            match = person_resign(match_id=self.match_id, agent=self.viewer)
        else:
            match = person_flag(match_id=self.match_id)
        return match, match is not None and needs_runner(match, self.seats)

    async def match_updated(self, event: dict[str, Any]) -> None:
        if shown_key(event["ply"], event["status"]) <= self.shown:
            return  # already on the page
        frame = await sync_to_async(self.render)()
        if frame is not None:
            await self.send(text_data=frame)

    def render(self) -> str | None:
        """The current fragment, unless this page already shows that position."""
        match = Match.objects.get(pk=self.match_id)
        key = shown_key(match.ply, match.status)
        if key <= self.shown:
            return None
        self.shown = key
        return fragment_frame(match, self.viewer, self.seats)
