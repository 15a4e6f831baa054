"""Werewolf's debate panel as people see it: bubbles with the speaker and "you", notices, untrusted text escaped,
no other seat's role or night action in the live fragment, and the full chat in the replay after the game."""

from __future__ import annotations

import random
import re

import pytest

from arena.models import Match
from arena.pages.rendering import live_match_html, replay_html
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.record.visibility import MatchView, Viewer
from games.bots.werewolf import LADDER
from games.werewolf import Werewolf

pytestmark = pytest.mark.django_db

GAME = Werewolf()
# P1 (the person) a villager; P2 and P5 werewolves; P3 seer; P4 doctor.
ROLES = ("villager", "werewolf", "seer", "doctor", "werewolf", "villager", "villager", "villager")
SCRIPT = '<script>alert("x")</script> P3 is lying'


SEED = 427  # deals exactly ROLES


DAY_ONE = ["P1", "P2", "P3", "P4", "P5", "P7", "P8"]  # the speakers: P6 died in night 1; P1 speaks first
DAY_TWO = ["P2", "P3", "P4", "P5", "P7", "P8"]  # then P1, the person, speaks last
ROUND_ONE = ["kill P6", "kill P6", "inspect P2", "protect P4", "say Good morning from me."]
ROUND_ONE += [f"say P{n} here." for n in (2, 3, 4, 5, 7, 8)] + ["abstain"] * 7
ROUND_TWO = ["kill P7", "kill P8", "inspect P5", "protect P8"]  # the doctor saves P8: no one dies
ROUND_TWO += [f"say {SCRIPT}", "say I am the seer: P5 is a werewolf.", "say Trust P3.", "say Not me."]
ROUND_TWO += ["say P7 again.", "say P8 again."]


def record(match: Match, *texts: str) -> Match:
    """Make the moves through the services, as the runner does, so the match replays."""
    for text in texts:
        state = GAME.from_json(match.state)
        match = decision_record(match=match, ply=match.ply, action=GAME.parse_action(state, text))
    return match


def finish(match: Match) -> Match:
    """The rule bot plays every seat to the end."""
    rng = random.Random(3)
    while GAME.current_player(state := GAME.from_json(match.state)) is not None:
        match = decision_record(match=match, ply=match.ply, action=LADDER[2].choose(GAME, state, rng))
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def person_match(django_user_model):
    """Round 1 in full (P1 speaks first, the vote removes no one), then round 2 until P1, speaking last, is to speak."""
    user = django_user_model.objects.create_user("villager", password="pw-123456")
    person = person_agent_for_user(user=user)
    bot = {a.slug: a for a in bots_ensure(game="werewolf")}["werewolf-lv0"]
    match = match_create(game="werewolf", agents=[person] + [bot] * 7, seed=SEED)
    match = record(match_claim(match_id=match.pk, worker="test").match, *ROUND_ONE, *ROUND_TWO)
    state = GAME.from_json(match.state)
    assert state.roles == ROLES
    assert (GAME.current_player(state), state.phase, state.round) == (0, "debate", 2)
    return match, person, user


def bubbles(html: str) -> list[tuple[str, str, str]]:
    """(speaker, classes, text) of each message bubble."""
    found = re.findall(
        r'<li class="(ww-msg[^"]*)" data-event="\d+" data-speaker="(P\d)">.*?<p class="ww-msg-text">(.*?)</p>',
        html,
        re.S,
    )
    return [(speaker, classes, text) for classes, speaker, text in found]


def test_live_chat_shows_bubbles_speakers_and_escaped_text(person_match):
    match, person, _ = person_match
    html = live_match_html(match, person)
    said = bubbles(html)
    assert [s for s, _, _ in said] == [*DAY_ONE, *DAY_TWO]
    mine = [(s, c) for s, c, _ in said if "ww-msg-you" in c]
    assert mine == [("P1", "ww-msg ww-msg-you")]  # only the viewer's own message is marked, and as "You"
    assert html.count('<strong class="ww-you-tag">You</strong> · P1') == 1
    assert said[7][2] == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; P3 is lying"
    assert "<script>alert" not in html
    # Grouped by night and day, notices centred apart from the bubbles, newest last.
    titles = re.findall(r'<h3 class="ww-part-title"><span>(.*?)</span></h3>', html)
    assert titles == ["Night 1", "Day 1", "Night 2", "Day 2"]
    assert '<li class="ww-notice ww-notice-dawn" data-event="4" data-kind="dawn">' in html
    assert html.count('class="ww-notice ww-notice-vote"') == 7  # round 1's abstentions, public after the tally
    assert "No majority, no one was removed." in html
    assert 'role="log" aria-live="polite"' in html
    # The person speaks now: the message box sits under the conversation, with the limit and Enter to send.
    assert html.index("data-ww-chat") < html.index('id="ww-say"') < html.index("</section>\n</div>")
    for part in ('data-say-limit="500"', "0/500", "Enter sends."):
        assert part in html
    assert 'href="#ww-say"' in html  # the side panel points to it rather than a second box


def test_live_fragment_leaks_no_other_role_or_night_action(person_match):
    match, person, _ = person_match
    html = live_match_html(match, person)
    labels = dict(re.findall(r'data-cell="(P\d)" aria-label="([^"]*)"', html))
    assert labels["P1"] == "P1 (you), villager"
    for name, label in labels.items():
        if name != "P1":
            assert not any(role in label for role in ("werewolf", "seer", "doctor", "villager")), label
    for secret in ("ww-role-werewolf", "ww-role-seer", "ww-role-doctor", "ww-msg-role", "ww-secret", "inspected",
                   "protected", "as the victim", "inspect P", "protect P", "kill P"):  # fmt: skip
        assert secret not in html, secret
    # A spectator sees the same conversation and no message box.
    spectator = live_match_html(match, None)
    assert [s for s, _, _ in bubbles(spectator)] == [s for s, _, _ in bubbles(html)]
    assert "ww-msg-you" not in spectator
    assert 'id="ww-say"' not in spectator
    assert "P1 is speaking…" in spectator


def test_live_night_turn_names_no_one(person_match):
    match, person, _ = person_match
    votes = ["vote P5"] * 3 + ["abstain", "vote P5", "abstain", "abstain"]  # P2, P3, P4, P5, P7, P8, P1
    match = record(match, "say Vote P5.", *votes)  # 4 of 4 votes cast: P5 (a werewolf) is removed
    state = GAME.from_json(match.state)
    assert (state.alive[4], state.phase, GAME.current_player(state)) == (False, "night", 1)  # P2, a wolf, acts
    for viewer in (person, None):
        html = live_match_html(match, viewer)
        assert "the werewolves, the seer and the doctor act in secret" in html
        for giveaway in ("P2 is acting", "P2 to act", "ww-acting"):
            assert giveaway not in html


def test_replay_after_the_game_shows_the_whole_chat_with_roles(person_match):
    match, person, user = person_match
    match = finish(match)
    assert match.status == Match.Status.FINISHED
    html = replay_html(MatchView.for_viewer(match, Viewer.of_person(person)), match.ply, user)
    said = bubbles(html)
    assert said[:2] == [("P1", "ww-msg", "Good morning from me."), ("P2", "ww-msg", "P2 here.")]
    assert "ww-msg-you" not in html  # the full reveal is no one's view
    assert '<span class="ww-msg-role ww-role-werewolf">werewolf</span>' in html
    assert "secret</span> Seer P3 inspected P2: a werewolf." in html
    assert "&lt;script&gt;alert" in html
    assert "<script>alert" not in html
    assert "The game is over." in html
    assert 'id="ww-say"' not in html
