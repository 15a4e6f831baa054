"""Real-time skirmish for people: thinking time stamps a command's arrival, and the live page shows the timers.

Thinking time is simulated by back-dating the match start or the last decision, never by sleeping.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import Attempt, Decision, Match
from arena.pages.rendering import live_match_html
from arena.record.people import guest_agent_create, person_move
from arena.record.services import match_create
from arena.record.turns import match_claim, match_release
from games import get_game

pytestmark = pytest.mark.django_db

GAME = get_game("skirmish")


def person_match(mode: str = "real-time"):
    """Two guests (Red, Blue) in a running skirmish; no bot, so nothing moves but what the test sends."""
    red, blue = guest_agent_create(nickname="Red"), guest_agent_create(nickname="Blue")
    options = {"mode": mode, "window_ticks": 10} if mode == "real-time" else {}
    match = match_create(game="skirmish", agents=[red, blue], options=options, seed=5)
    match_claim(match_id=match.pk, worker="test")
    match_release(match_id=match.pk, worker="test")  # running, waiting for a person
    return Match.objects.get(pk=match.pk), red, blue


def think(match: Match, seconds: float) -> None:
    """Pretend the side to move has been thinking for `seconds` (since the last decision, or the start)."""
    moment = timezone.now() - timedelta(seconds=seconds)
    last = match.decisions.order_by("-ply").first()
    if last is None:
        Match.objects.filter(pk=match.pk).update(started_at=moment)
    else:
        Decision.objects.filter(pk=last.pk).update(created_at=moment)


def first_move(match: Match) -> str:
    """The text of a legal move command for the side to act, as the live page offers it ('@<clock> move …')."""
    state = GAME.from_json(match.state)
    return next(GAME.action_to_text(state, a) for a in GAME.legal_actions(state) if a[0] == "move")


def test_a_persons_command_arrives_after_their_thinking_time_and_a_late_one_is_dropped():
    match, red, _ = person_match()
    text = first_move(match)
    assert text.startswith("@0 move ")
    think(match, 3.5)
    match = person_move(match_id=match.pk, agent=red, text=text, ply=0).match
    decision = match.decisions.get(ply=0)
    assert decision.action_text == "@4 " + text.removeprefix("@0 ")  # clock 0 + ⌈3.5 s × 1 tick/s⌉
    assert Attempt.objects.get(decision=decision).raw_text == text  # what the person sent, as sent
    state = GAME.from_json(match.state)
    assert (state.clock, state.side, state.failed) == (5, 0, (0, 0))  # took effect at tick 4; Red still acts

    units_before = state.units
    late = first_move(match)
    think(match, 20.5)  # tick 5 + 21 ≥ the window's end at tick 10
    match = person_move(match_id=match.pk, agent=red, text=late, ply=1).match
    decision = match.decisions.get(ply=1)
    assert int(decision.action_text.split()[0].removeprefix("@")) >= 10
    state = GAME.from_json(match.state)
    assert state.failed == (1, 0)  # dropped, counted as Red's failed command
    assert state.units == units_before  # nothing moved
    assert (state.side, state.clock) == (1, 10)  # the window closed: Blue's turn from tick 10
    assert "after its window closed at 10; dropped" in state.log[-1][2]


def test_thinking_time_does_not_stamp_turn_based_commands():
    match, red, _ = person_match(mode="turn-based")
    text = first_move(match)
    think(match, 60)
    match = person_move(match_id=match.pk, agent=red, text=text, ply=0).match
    assert match.decisions.get(ply=0).action_text == text
    assert GAME.from_json(match.state).failed == (0, 0)


def test_the_live_fragment_shows_the_real_time_timers():
    match, red, blue = person_match()
    mine = live_match_html(match, red)
    assert 'class="skirmish-timer"' in mine
    assert 'data-countdown-s="9"' in mine  # up to 9 s of thinking still arrives before tick 10
    assert 'data-window-end="10"' in mine
    assert 'data-clock-tick="0"' in mine
    assert 'data-ticks-per-second="1"' in mine
    assert 'data-count-from="0" data-per-s="1"' in mine
    assert "You have" in mine
    assert "commands sent now are dropped" in mine  # shown by the page once the countdown is over
    theirs = live_match_html(match, blue)
    assert "Red has" in theirs
    assert "You have" not in theirs
    assert "Red has" in live_match_html(match, None)  # spectators

    think(match, 2.5)
    match = person_move(match_id=match.pk, agent=red, text=first_move(match), ply=0).match  # arrives at tick 3
    after = live_match_html(match, red)
    assert 'data-clock-tick="4"' in after
    assert 'data-countdown-s="5"' in after


def test_the_live_fragment_has_no_timers_in_turn_based_mode():
    match, red, _ = person_match(mode="turn-based")
    html = live_match_html(match, red)
    assert "skirmish-timer" not in html
    assert "data-countdown-s" not in html
    assert "data-count-from" not in html
    assert "commands sent now are dropped" not in html
