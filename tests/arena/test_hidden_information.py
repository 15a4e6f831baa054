"""Hidden information never reaches a viewer who may not see it: every frame a player and a spectator
receive during a live poker, Arctic Scavengers or Two Rooms match is checked against the deal."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings
from django.utils.html import escape

from arena.asgi import application
from arena.models import Agent, Match
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user, person_match_create
from arena.record.selectors import match_state_at
from games import get_game
from tests.arena.sockets import Socket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("bot_turns_finish"),
]


async def frames_until_over(ws, person: bool, moves: list, limit: int = 60) -> list[dict]:
    """Every fragment a connection receives; as the player, answer each turn with its first legal move."""
    seen = []
    for _ in range(limit):
        if not person and await ws.receive_nothing(timeout=2):
            return seen  # a spectator has read everything pushed so far
        message = json.loads(await ws.receive_from(timeout=60))
        if message["type"] != "fragment":
            continue
        seen.append(message)
        html = message["html"]
        if "Game over" in html:
            return seen
        if person and "Your move." in html:
            legal = json.loads(html.split('type="application/json">')[1].split("</script>")[0])
            moves.append(legal[0]["text"])
            await ws.send_to(text_data=json.dumps({"type": "move", "move": legal[0]["text"], "ply": message["ply"]}))
    return seen


async def live_match_frames(client, django_user_model, slug: str, limit: int = 60):
    """A person in seat 0 against the game's Lv0 bot, played over the websocket to the end (or `limit` frames):
    the finished match, the frames the person and a spectator received, and the person's moves."""
    user = await sync_to_async(django_user_model.objects.create_user)("pat", password="pw-123456")
    await sync_to_async(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    def create() -> Match:
        bots_ensure(game=slug)
        person = person_agent_for_user(user=user)
        return person_match_create(person=person, opponent=Agent.objects.get(slug=f"{slug}-lv0"), game=slug, seat=0)

    match = await sync_to_async(create)()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    player = Socket(application, f"/ws/matches/{match.pk}/", headers=[*headers, (b"cookie", cookie)])
    spectator = Socket(application, f"/ws/matches/{match.pk}/", headers=headers)
    assert (await player.connect())[0]
    assert (await spectator.connect())[0]
    moves: list[str] = []
    player_frames = await frames_until_over(player, True, moves, limit)
    spectator_frames = await frames_until_over(spectator, False, [], limit)
    await player.disconnect()
    await spectator.disconnect()
    return await Match.objects.aget(pk=match.pk), player_frames, spectator_frames, moves


@pytest.mark.parametrize("slug", ["kuhn-poker", "leduc-holdem"])
# The scripted player answers faster than a person may (30 frames per 10 s): lift the frame limit here.
@override_settings(ARENA_RATE_LIMITS={"frames": (10_000, 10)})
async def test_no_frame_shows_a_card_its_viewer_may_not_see(client, django_user_model, slug):
    match, player_frames, spectator_frames, moves = await live_match_frames(client, django_user_model, slug)
    assert moves, "the person never got to act"

    game = get_game(slug)
    checked = 0
    for frames, hidden_seats in ((player_frames, (1,)), (spectator_frames, (0, 1))):
        for frame in frames:
            if 'data-status="running"' not in frame["html"]:
                continue
            state = await sync_to_async(match_state_at)(match, frame["ply"])
            status = game.status(state)
            if status.showdown or status.folded is not None or state.hand >= state.hands:
                continue  # cards may be face up now
            cards = game.deal(state)
            for seat in hidden_seats:
                assert f'data-card="{cards[seat]}"' not in frame["html"], (slug, frame["ply"], seat)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("slug", ["tower-defense", "battle-card", "attribute-battle"])
async def test_a_sealed_plan_stays_sealed_for_the_other_seat_and_spectators(django_user_model, slug):
    from arena.pages.rendering import live_match_html, replay_html
    from arena.record.visibility import MatchView, Viewer
    from arena.runner.loop import run_match

    def setup():
        bots_ensure(game=slug)
        user = django_user_model.objects.create_user("opp", password="pw-123456")
        person = person_agent_for_user(user=user)
        match = person_match_create(person=person, opponent=Agent.objects.get(slug=f"{slug}-lv0"), game=slug, seat=1)
        return person, user, match

    person, user, match = await sync_to_async(setup)()
    match = await run_match(match.pk)  # the bot (seat 0) seals its plan; then it is the person's turn
    match = await Match.objects.aget(pk=match.pk)
    plan = (await match.decisions.aget(ply=0)).action_text
    assert len(plan) > 20
    for viewer in (person, None):
        live = await sync_to_async(live_match_html)(match, viewer)
        replay = await sync_to_async(replay_html)(MatchView.for_viewer(match, Viewer.of_person(viewer)), 1, user)
        for html in (live, replay):
            assert "(sealed plan)" in html
            assert plan not in html
            assert escape(plan) not in html


async def test_a_stratego_setup_is_not_shown_to_the_other_seat(django_user_model):
    from arena.pages.rendering import live_match_html
    from arena.runner.loop import run_match

    def setup():
        bots_ensure(game="stratego")
        user = django_user_model.objects.create_user("gen", password="pw-123456")
        person = person_agent_for_user(user=user)
        opponent = Agent.objects.get(slug="stratego-lv0")
        return person, person_match_create(person=person, opponent=opponent, game="stratego", seat=1)

    person, match = await sync_to_async(setup)()
    match = await run_match(match.pk)  # the bot (seat 0) submits its setup; then the person sets up
    match = await Match.objects.aget(pk=match.pk)
    setup_text = (await match.decisions.aget(ply=0)).action_text
    for viewer in (person, None):
        html = await sync_to_async(live_match_html)(match, viewer)
        assert "setup (hidden)" in html
        assert f"<li>{escape(setup_text)}</li>" not in html


def unseen_secrets(slug: str, state, viewer: int | None) -> list[str]:
    """Markup of the board that would show `viewer` what it may not know at `state`: another player's card in
    Two Rooms (on its player button), another tribe's hand or the dug cards in Arctic Scavengers."""
    game = get_game(slug)
    if slug == "two-rooms-and-a-boom":
        from games.two_rooms.state import NAMES, known_cards

        known = known_cards(state, viewer)
        return [f'data-cell="{NAMES[s]}" data-card=' for s in range(game.num_players) if s not in known]
    if state.phase == "skirmish":  # both hands are shown to both tribes for the fight
        return []
    hands = [f'aria-label="{name}\'s hand"' for seat, name in enumerate(game.seat_names) if seat != viewer]
    return hands + (['data-cell="dug-', "Dug: "] if state.phase == "dig" and viewer != state.turn else [])


@pytest.mark.parametrize("slug", ["arctic-scavengers", "two-rooms-and-a-boom"])
@override_settings(ARENA_RATE_LIMITS={"frames": (10_000, 10)})
async def test_no_frame_of_the_newest_games_shows_a_card_its_viewer_has_not_seen(client, django_user_model, slug):
    match, player_frames, spectator_frames, moves = await live_match_frames(client, django_user_model, slug, 400)
    assert len(moves) >= 3, "the person hardly got to act"
    assert match.status == Match.Status.FINISHED
    decisions = [(d.ply, d.seat, d.action_text) async for d in match.decisions.order_by("ply")]
    checked = 0
    for frames, viewer in ((player_frames, 0), (spectator_frames, None)):
        for frame in frames:
            if 'data-status="running"' not in frame["html"]:
                continue
            state = await sync_to_async(match_state_at)(match, frame["ply"])
            mine = {text for _, seat, text in decisions if seat == viewer}
            # which dug card another tribe kept (its move list says only that it kept one)
            kept = [
                f"<li>{escape(t)}</li>"
                for p, s, t in decisions
                if p < frame["ply"] and s != viewer and t not in mine and t.startswith("keep ")
            ]
            for secret in unseen_secrets(slug, state, viewer) + kept:
                assert secret not in frame["html"], (slug, viewer, frame["ply"], secret)
                checked += 1
    assert checked > 20
