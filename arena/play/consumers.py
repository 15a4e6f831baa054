"""The match websocket: a thin transport adapter (docs/architecture.md, Live play).

Each frame is parsed and validated, one service is called, and the match's pages are told `match.updated`
(ids only) through this process's hub (arena.play.hub); every page then renders the fragment for its viewer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.utils import await_many_dispatch
from django.db import close_old_connections

from arena.models import Agent, Decision, Match
from arena.pages.ratelimit import ConnectionBudget, person_key, socket_address
from arena.pages.rendering import live_match_html, live_seats
from arena.play.broadcast import broadcast_match, broadcast_match_updated
from arena.play.hub import Inbox, local_hub
from arena.play.live_limits import TOO_MANY_SOCKETS, SocketLease, socket_lease
from arena.record import turns
from arena.record.people import person_flag, person_move, person_resign
from arena.record.services import Recorded, ServiceError
from arena.record.visibility import Viewer, match_visible_to
from arena.runner.loop import calls_outside_agent, default_worker_id, run_match
from arena.runner.tasks import match_enqueue_once
from games import IllegalAction

logger = logging.getLogger(__name__)

#: Large enough for a plan game's JSON plan; anything bigger is refused before parsing.
MAX_FRAME_BYTES = 16384
FRAME_TYPES = {"move", "resign", "flag"}
#: A ply no match reaches; keeps absurd numbers out of every comparison and message.
MAX_PLY = 10**9

#: Bot and model turns started by this process; kept so the tasks are not garbage-collected.
_running: set[asyncio.Task] = set()


class FrameError(ValueError):
    """A frame that does not follow the protocol; the message goes back to the sender."""


def parse_frame(text: str | None) -> dict[str, Any]:
    """Validate a client frame: {"type": "move", "move": str, "ply": int} | {"type": "resign"} | {"type": "flag"}."""
    if text is None or len(text) > MAX_FRAME_BYTES or len(text.encode(errors="replace")) > MAX_FRAME_BYTES:
        raise FrameError(f"Frames must be text of at most {MAX_FRAME_BYTES} bytes.")
    try:
        frame = json.loads(text)
    except json.JSONDecodeError:
        raise FrameError("Frames must be JSON objects.") from None
    except ValueError:  # an integer longer than Python converts (4,300 digits)
        raise FrameError("A number in this frame is too long.") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str) or frame["type"] not in FRAME_TYPES:
        raise FrameError(f"Unknown frame; 'type' must be one of {', '.join(sorted(FRAME_TYPES))}.")
    if frame["type"] == "move":
        move = frame.get("move")
        if not isinstance(move, str) or not move.strip():
            raise FrameError("A move frame needs 'move', the move as text.")
        try:
            move.encode()
        except UnicodeEncodeError:  # a lone surrogate ("\ud800") the database could not store
            raise FrameError("A move must be valid Unicode text.") from None
        ply = frame.get("ply")
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply < MAX_PLY:
            raise FrameError("A move frame needs 'ply', the ply number you saw.")
    return frame


def viewer_agent(scope: dict[str, Any]) -> Agent | None:
    """The person behind this connection: their account's agent, or the guest seat in their session."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Agent.objects.filter(user=user).first()
    slug = scope.get("session", {}).get("guest_agent")
    return Agent.objects.filter(slug=slug, kind=Agent.Kind.HUMAN).first() if slug else None


def kick_runner(match_id: int, handed: Match | None = None) -> None:
    """Let bots and models take their turns in the background of this process (`handed`: see `run_match`)."""
    task = asyncio.get_running_loop().create_task(run_match(match_id, handed=handed))
    _running.add(task)
    task.add_done_callback(_running.discard)


def needs_runner(match: Match, seats: list[dict[str, Any]], mine: tuple[int, ...]) -> bool:
    """Whether this viewer's page must set a runner going (arena.record.turns.needs_runner); `seats` is
    `live_seats(match)`, which the consumer keeps, and `mine` the viewer's seats."""
    people = frozenset(seat["index"] for seat in seats if seat["agent"].kind == Agent.Kind.HUMAN)
    return turns.needs_runner(match, viewer_seats=mine, person_seats=people)


#: A pause comes after running at the same ply (the next decision's ply supersedes it), before the end.
STATUS_ORDER = [Match.Status.PENDING, Match.Status.RUNNING, turns.PAUSED, Match.Status.FINISHED, Match.Status.ABORTED]


def shown_key(ply: int, status: str) -> tuple[int, int]:
    """How far a fragment got: later plies, then later statuses, supersede earlier ones."""
    return ply, STATUS_ORDER.index(status)


#: What a page shows: how far the match got (`shown_key`) and the fragment's frame.
Shown = tuple[tuple[int, int], str]


class FragmentCache:
    """This process's recent live panels by (match, ply, status, the viewer's seats).

    Every spectator of a position shares one render and each seat has its own: a viewer's identity
    changes only which seats are theirs. A panel is reused for `fresh_for_s` only, as it also shows
    how long the side to move has been thinking. While one page renders the panel for an update,
    the other pages of its viewer kind wait for that render instead of queueing their own.
    """

    def __init__(self, size: int = 512, fresh_for_s: float = 2.0) -> None:
        self.size, self.fresh_for_s = size, fresh_for_s
        self.frames: OrderedDict[tuple, tuple[float, str]] = OrderedDict()
        self.rendering: dict[tuple, asyncio.Future] = {}

    def get(self, key: tuple) -> str | None:
        found = self.frames.get(key)
        if found is None or time.monotonic() - found[0] > self.fresh_for_s:
            return None
        return found[1]

    def frame(
        self,
        match: Match,
        viewer: Agent | None,
        seats: list[dict[str, Any]],
        mine: tuple[int, ...],
        recorded: Sequence[Decision] = (),
    ) -> str:
        """The viewer's live panel of `match` as a websocket frame, rendered unless a fresh one is kept;
        `recorded`: the decisions the write that left `match` so stored, if the caller has them."""
        key = (match.pk, match.ply, turns.shown_status(match), mine)
        frame = self.get(key)
        if frame is None:
            html = live_match_html(match, viewer, seats, recorded)
            frame = json.dumps({"type": "fragment", "ply": match.ply, "html": html})
            self.frames[key] = (time.monotonic(), frame)
            while len(self.frames) > self.size:
                self.frames.popitem(last=False)
        self.frames.move_to_end(key)
        return frame

    async def after(self, key: tuple, render: Callable[[Recorded | None], Awaitable[Shown]]) -> Shown:
        """The panel for the update `key` names: kept, or rendered once by `render` however many pages of the
        viewer kind ask at once. `render` is given the match as this process broadcast it at `key` with the
        decisions recorded, if it did (the runner's or a player's move here), and reads the match as it is now
        otherwise (a later position than `key`'s, perhaps)."""
        _, ply, status, _ = key
        frame = self.get(key)
        if frame is not None:
            return shown_key(ply, status), frame
        pending = self.rendering.get(key)
        if pending is None:
            pending = self.rendering[key] = asyncio.ensure_future(render(broadcast_match(*key[:3])))
            pending.add_done_callback(lambda _: self.rendering.pop(key, None))
        return await asyncio.shield(pending)  # one page closing does not cancel the others' render


#: Shared by every consumer of this process; they all render on Django's one database thread.
fragments = FragmentCache()


class MatchConsumer(AsyncWebsocketConsumer):
    """ws/matches/<id>/: live fragments for players and spectators; moves from players.

    Each step is one trip to the database thread (sync Django work), so a busy server interleaves
    many games fairly; an update this page has already shown (the bot replied before the person's
    own move was rendered) is not rendered twice, and pages of the same viewer kind share a render.
    """

    updates: Inbox  # what this process's hub heard about the match, in order
    lease: SocketLease | None = None
    renewing: asyncio.Task | None = None
    viewer: Agent | None = None
    seats: list[dict[str, Any]] | None = None  # read when this page first renders or acts
    mine: tuple[int, ...] = ()
    started: Match | None = None  # the match, if this page's `open` started it
    in_worker = False  # an outside agent sits in the match: its turns are a worker's, never this process's

    async def __call__(self, scope, receive, send) -> None:
        """As channels' AsyncConsumer, but the page's second source of messages is its inbox at this process's
        hub (arena.play.hub), not a channel of its own in the channel layer: one subscription per process."""
        self.scope, self.base_send, self.channel_layer = scope, send, None
        self.updates = Inbox()
        try:
            await await_many_dispatch([receive, self.updates.get], self.dispatch)
        except StopConsumer:
            pass
        finally:  # however the page ends (closed, refused, its task cancelled), it leaves the hub
            if hasattr(self, "match_id"):
                await local_hub().leave(self.match_id, self.updates)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Straight to the handler. Channels' dispatch first takes a trip of its own to Django's database thread,
        to close that thread's old connections, before every message: a page's steps that use a database
        connection do it in their own trip instead (`open`, `act`), and an update, a close or a crowd of
        watchers arriving does not queue on the thread that records the players' moves."""
        await getattr(self, get_handler_name(message))(message)

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.shown = (-1, -1)
        self.budget = ConnectionBudget("frames")
        # Joined before the first render, so no update between that render and joining is missed.
        await local_hub().join(self.match_id, self.updates)
        # An anonymous spectator's `open` is one read: done in a worker thread, so a crowd arriving does not
        # queue behind the games' moves on Django's database thread (SQLite's WAL lets readers run alongside),
        # and a crowd in the worker threads does not delay the players' own connects.
        anonymous = not self.scope["user"].is_authenticated and not self.scope["session"].session_key
        opened = await sync_to_async(self.open, thread_sensitive=not anonymous)()
        if opened is None:
            await self.close(code=4404)
            return
        key, frame, needs = opened
        lease = socket_lease(
            match_id=self.match_id,
            address=socket_address(self.scope),
            person=person_key(self.scope.get("user"), self.scope.get("session")),
            seated=bool(self.mine),
        )
        # With REDIS_URL a count is a few round trips to Redis: a crowd's are made off the database thread too.
        refusal = await sync_to_async(lease.acquire, thread_sensitive=not anonymous)()
        if not refusal:
            self.lease = lease
        try:
            await self.accept()
        except Exception:  # the client left, or daphne gave up on the handshake: give the lease back
            await self.disconnect(code=1006)
            raise
        if refusal:
            await local_hub().leave(self.match_id, self.updates)
            await self.send(text_data=json.dumps({"type": "error", "message": refusal}))
            await self.close(code=TOO_MANY_SOCKETS, reason=refusal)
            return
        self.renewing = asyncio.get_running_loop().create_task(self.renew_lease())
        if frame is None:  # a position nobody in this process has drawn: one render, however many arrive
            self.shown, frame = await fragments.after(key, self.render)
        await self.send(text_data=frame)
        if self.started is not None:
            await broadcast_match_updated(self.started)  # the match's other pages see it start
        if needs:
            await self.set_agents_going()

    def open(self) -> tuple[tuple, str | None, bool] | None:
        """Who is watching, the fragment key of the match as it stands, the first fragment (None: an anonymous
        spectator's, to render), and whether the match needs a runner. None: no such match.

        An anonymous spectator of a position this process has drawn costs one small query: the match's
        seats and record are read only to render.
        """
        close_old_connections()  # as a request starts (see `dispatch`)
        self.viewer = viewer_agent(self.scope)
        staff = getattr(self.scope.get("user"), "is_staff", False)
        match = match_visible_to(Viewer.of_person(self.viewer, staff=staff), self.match_id)
        if match is None:
            return None
        if self.viewer is None:
            self.shown = shown_key(match.ply, match.status)
            key = (self.match_id, match.ply, match.status, ())
            return key, fragments.get(key), False
        self.seats = live_seats(match)
        self.mine = tuple(seat["index"] for seat in self.seats if seat["agent"].pk == self.viewer.pk)
        self.in_worker = calls_outside_agent(match.uid)
        needs = needs_runner(match, self.seats, self.mine)
        if needs and match.status == Match.Status.PENDING and turns.to_move(match) in self.mine:
            # Nothing for a runner to play before this person's move: the match starts in this trip (the claim
            # holds it for nobody), and the page's first panel is the started match's, drawn once.
            turn = turns.match_claim(match_id=match.pk, worker=default_worker_id())
            if isinstance(turn, turns.AwaitingPerson):
                match, needs, self.started = turn.match, False, turn.match
        self.shown = shown_key(match.ply, turns.shown_status(match))
        frame = fragments.frame(match, self.viewer, self.seats, self.mine)
        return (match.pk, match.ply, turns.shown_status(match), self.mine), frame, needs

    async def renew_lease(self) -> None:
        """Keep this socket counted in its limits for as long as it stays open (see arena.play.live_limits)."""
        while True:
            await asyncio.sleep(SocketLease.renew_delay_s())
            await sync_to_async(self.lease.renew, thread_sensitive=False)()

    async def disconnect(self, code: int) -> None:
        if self.renewing is not None:
            self.renewing.cancel()
        if self.lease is not None:
            await sync_to_async(self.lease.release, thread_sensitive=False)()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if not self.budget.allow():
                raise FrameError("Too many messages; slow down.")
            frame = parse_frame(text_data)
            if self.viewer is None:
                raise FrameError("Spectators cannot move, resign or flag a clock; start your own game from the lobby.")
            recorded, needs, shown = await sync_to_async(self.act)(frame)
        except (FrameError, ServiceError, IllegalAction) as error:
            await self.send(text_data=json.dumps({"type": "error", "message": str(error)}))
            return
        except Exception:
            # A bug must cost the sender one answer, not the connection (a 1011 close) or anyone else's game.
            logger.exception("match %s: a frame could not be handled", self.match_id)
            await self.send(text_data=json.dumps({"type": "error", "message": "The server could not handle that."}))
            return
        if recorded is None:
            return  # nobody has run out of time: nothing changed
        await self.send(text_data=shown)
        await broadcast_match_updated(recorded.match, recorded.decisions)
        if needs:
            await self.set_agents_going(handed=recorded.match)

    async def set_agents_going(self, handed: Match | None = None) -> None:
        """Let the agents take their turns: bots and models in the background of this process, outside agents
        (whose I/O must not run in the web process) in a worker, queued; their moves reach the page by the bus."""
        if self.in_worker:
            await sync_to_async(match_enqueue_once)(self.match_id)
        else:
            kick_runner(self.match_id, handed)

    def act(self, frame: dict[str, Any]) -> tuple[Recorded | None, bool, str]:
        """Carry out a player's frame through the services: the match afterwards and the decisions recorded
        (None if nothing changed), whether a bot or model must now be set to move, and the player's new fragment.

        The fragment is rendered from the match the service returned, in the same trip to the
        database thread: the player sees their move without the match being read again.
        """
        close_old_connections()  # as a request starts (see `dispatch`)
        # This process's runner: a bot's or model's reply is handed to it; an outside agent's is left for a worker.
        runner = "" if self.in_worker else default_worker_id()
        if frame["type"] == "move":
            recorded = person_move(
                match_id=self.match_id, agent=self.viewer, text=frame["move"], ply=frame["ply"], runner=runner
            )
        else:
            if frame["type"] == "resign":
                ended = person_resign(match_id=self.match_id, agent=self.viewer)
            else:
                ended = person_flag(match_id=self.match_id, agent=self.viewer)
            if ended is None:
                return None, False, ""
            recorded = Recorded(ended, ())
        match = recorded.match
        self.shown = shown_key(match.ply, turns.shown_status(match))
        return (
            recorded,
            (bool(runner) and match.claimed_by == runner) or needs_runner(match, self.seats, self.mine),
            fragments.frame(match, self.viewer, self.seats, self.mine, recorded.decisions),
        )

    async def match_updated(self, event: dict[str, Any]) -> None:
        if shown_key(event["ply"], event["status"]) <= self.shown:
            return  # already on the page
        # A panel another page of this viewer kind rendered, or is rendering, is awaited on the event loop,
        # so a game's many spectators share one trip to the database thread.
        shown, frame = await fragments.after((self.match_id, event["ply"], event["status"], self.mine), self.render)
        if shown <= self.shown:
            return  # this page moved on while it waited
        self.shown = shown
        await self.send(text_data=frame)

    async def render(self, recorded: Recorded | None = None) -> Shown:
        """The panel of `recorded`'s match, or of the match as it is now, for this page's viewer kind."""
        return await sync_to_async(self.render_now)(recorded)

    def render_now(self, recorded: Recorded | None = None) -> Shown:
        match = recorded.match if recorded else Match.objects.get(pk=self.match_id)
        if self.seats is None:
            self.seats = live_seats(match)
        shown = shown_key(match.ply, turns.shown_status(match))
        return shown, fragments.frame(match, self.viewer, self.seats, self.mine, recorded.decisions if recorded else ())
