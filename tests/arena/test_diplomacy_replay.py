"""A Diplomacy replay steps phase by phase: every power's orders and messages of the phase, and each one's trace."""

from __future__ import annotations

import re
from html import unescape

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user, person_move
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from games.bots.diplomacy import PROPOSAL

pytestmark = pytest.mark.django_db

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def replay(client: Client, match, ply: int) -> str:
    return client.get(f"/matches/{match.pk}/replay/?ply={ply}").content.decode()


def step_link(body: str, step: str) -> int:
    return int(re.search(rf'data-step="{step}" href="\?ply=(\d+)"', body).group(1))


def test_a_finished_match_replays_one_phase_per_step_with_all_orders_and_messages():
    bots = bots_ensure(game="diplomacy")
    match = match_create(game="diplomacy", agents=[bots[3]] * 7, seed=5, options={"max_year": 1901})
    match = async_to_sync(run_match)(match.pk)
    assert match.status == "finished"
    client = Client()

    start = replay(client, match, 0)
    spring = step_link(start, "next")
    assert spring == 14  # seven powers seal twice: two message rounds
    assert "turn <strong>0</strong> / 3" in start  # S1901M, F1901M, W1901A

    body = replay(client, match, spring)
    assert "S1901M, turn <strong>1</strong> / 3" in body
    assert step_link(body, "prev") == 0
    assert step_link(body, "next") == 28
    trace = body[body.index('class="trace"') :]
    for number, power in enumerate(POWERS * 2, start=1):
        assert f"Move {number} · {power}" in trace  # every power's decision of the phase, in both rounds
    assert "A VIE" in trace
    assert "F LON" in trace
    assert "A MOS" in trace
    # the phase's messages come with its decisions
    assert re.search(rf"to ({'|'.join(POWERS)}): {re.escape(PROPOSAL)}", unescape(trace))
    assert body.count('class="dip-order dip-move') >= 7  # the board draws the phase's orders as arrows
    assert 'class="dip-order' not in start  # nothing drawn before the first phase resolves

    # a ply inside a phase is no step: it shows the phase resolved
    assert 'data-ply="28"' in replay(client, match, 20)
    assert 'data-ply="14"' in replay(client, match, 13)


def test_a_running_match_hides_other_powers_orders_and_traces_in_the_phase(django_user_model):
    user = django_user_model.objects.create_user("ann", password="pw-123456")
    person = person_agent_for_user(user=user)
    bots = bots_ensure(game="diplomacy")
    match = match_create(game="diplomacy", agents=[person, *[bots[3]] * 6], seed=7, options={"max_year": 1901})
    game = get_game("diplomacy")
    match = async_to_sync(run_match)(match.pk)
    for _ in range(2):  # two rounds of Spring: the person (Austria) seals first, the bots after
        match = person_move(match_id=match.pk, agent=person, text="orders: A VIE - GAL", ply=match.ply).match
        match = async_to_sync(run_match)(match.pk)
    assert game.from_json(match.state).history[-1][0] == "S1901M"
    england = match.decisions.get(ply=1).action_text
    assert "F LON" in england

    owner = Client()
    owner.force_login(user)
    for viewer, sees_own in ((Client(), False), (owner, True)):
        body = replay(viewer, match, 14)
        assert "S1901M" in body
        assert england not in body
        assert "F LON -" not in body.split('class="side-panel"')[1]
        assert "(orders sealed)" in body
        assert ("Move 1 · Austria" in body) is sees_own
        assert ("A VIE - GAL" in body.split('class="side-panel"')[1]) is sees_own
        assert "to England" not in body  # nobody's messages in the move list while the match runs
