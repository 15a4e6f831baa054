"""The live panel (play and spectate) shows a model's reasoning after its move, but never what a seat hides;
every untrusted text in it is escaped."""

from __future__ import annotations

import re

import pytest

from arena.agents.base import AttemptData
from arena.pages.live_panel import live_panel_html
from arena.pages.rendering import live_match_html, live_panel_context, replay_html
from arena.record.agents import agent_create, bots_ensure
from arena.record.people import person_agent_for_user
from arena.record.services import decision_record, match_abort, match_create
from arena.record.turns import match_claim
from arena.record.visibility import MatchView, Viewer
from games import get_game

pytestmark = pytest.mark.django_db

WHY = "I hold the King, so I bet."


@pytest.fixture
def model():
    return agent_create(slug="m", name="Model M", kind="llm", config={"model": "x", "api_key_env": "M_KEY"})


@pytest.fixture
def person(django_user_model):
    return person_agent_for_user(user=django_user_model.objects.create_user("pat", password="pw-123456"))


def model_moves_first(game_slug: str, model, person, text: str | None = None):
    """The model (seat 0) makes its first move with a reply that explains it; the person is to move next."""
    match = match_claim(match_id=match_create(game=game_slug, agents=[model, person], seed=4).pk, worker="w").match
    game = get_game(game_slug)
    state = game.from_json(match.state)
    action = game.parse_action(state, text) if text else game.legal_actions(state)[0]
    reply = AttemptData(verdict="ok", raw_text=f"Answer: {game.action_to_text(state, action)}", reasoning_text=WHY)
    return decision_record(match=match, ply=0, action=action, attempts=[reply], worker="w", release_to={1})


def test_a_models_reasoning_is_shown_after_its_move(model, person):
    match = model_moves_first("tic-tac-toe", model, person, "b2")
    for viewer in (person, None):
        html = live_match_html(match, viewer)
        assert "Why the model played its last move" in html
        assert WHY.replace(",", "") in html.replace(",", "")


def test_a_models_reasoning_stays_hidden_in_a_hidden_information_game(model, person):
    match = model_moves_first("kuhn-poker", model, person)
    assert match.status == "running"
    assert match.claimed_by == ""
    for viewer in (person, None):
        html = live_match_html(match, viewer)
        assert "Why the model played" not in html
        assert "hold the King" not in html


def test_werewolf_night_turn_is_not_shown_in_the_players_list_or_the_replay(person):
    bot = {a.slug: a for a in bots_ensure(game="werewolf")}["werewolf-lv0"]
    created = match_create(game="werewolf", agents=[person] + [bot] * 7, seed=427)
    match = match_claim(match_id=created.pk, worker="w").match
    game = get_game("werewolf")
    state = game.from_json(match.state)
    assert state.phase == "night"
    assert game.current_player(state) != 0
    html = live_match_html(match, person)
    assert 'class="to-move"' not in html
    assert "Players act in secret" in html
    match = decision_record(match=match, ply=0, action=game.legal_actions(state)[0])
    shown = MatchView.for_viewer(match, Viewer.of_person(person))
    heading = re.search(r'-heading">(.*?)</h2>', replay_html(shown, 1, person.user)).group(1)
    assert heading == "Move 1"  # not "Move 1 · seat 1": who acted first at night gives a wolf away
    after = replay_html(shown, 0, person.user)  # the start position has no move heading at all
    assert "Start position" in after


def test_the_seats_agent_links_are_the_agent_link_template_drawn_once_per_seat(model, person):
    from django.template import Context, Template

    match = model_moves_first("kuhn-poker", model, person)
    include = Template('{% include "arena/partials/agent-link.html" with agent=a %}')
    players = re.search(r'<ol class="players">.*?</ol>', live_match_html(match, person), re.S).group(0)
    for agent in (model, person):
        link = include.render(Context({"a": agent}))
        assert link in players
        assert f'href="/agents/{agent.slug}/"' in link
    assert players.count('<a class="agent agent-') == 2


NASTY = "<script>alert('x')</script> & \"q\""
NASTY_ESCAPED = "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;q&quot;"


def test_every_untrusted_text_the_panel_prints_is_escaped(person):
    model = agent_create(slug="m", name=f"Model {NASTY}", kind="llm", config={"model": "x", "api_key_env": "M_KEY"})
    match = match_claim(match_id=match_create(game="tic-tac-toe", agents=[model, person], seed=4).pk, worker="w").match
    game = get_game("tic-tac-toe")
    state = game.from_json(match.state)
    reply = AttemptData(verdict="ok", raw_text="Answer: b2", reasoning_text=f"Why: {NASTY}\x1b")
    match = decision_record(match=match, ply=0, action=game.parse_action(state, "b2"), attempts=[reply], worker="w")

    mine = live_match_html(match, person)  # the person's turn: the model's reasoning, the move form
    assert 'data-ply="1" data-status="running"\n     data-my-turn="true"' in mine
    assert "<strong>Your move.</strong>" in mine
    assert f'<pre class="model-text">Why: {NASTY_ESCAPED}\u241b</pre>' in mine  # ESC shown as its picture
    assert 'placeholder="e.g. a3"' in mine  # the first legal move

    state = game.from_json(match.state)
    match = decision_record(match=match, ply=1, action=game.parse_action(state, "a1"))
    watched = live_match_html(match, None)  # a spectator while the model thinks
    assert f"Model {NASTY_ESCAPED} is thinking…" in watched
    assert 'data-my-turn="false"' in watched

    match = match_abort(match=match, reason=f"operator: {NASTY}")
    over = live_match_html(match, person)
    assert f"<strong>Aborted:</strong> operator: {NASTY_ESCAPED}\n" in over
    assert '<a class="button" href="/play/?game=tic-tac-toe&amp;opponent=m">Play again</a>' in over
    for html in (mine, watched, over):
        assert "<script>alert" not in html
        assert "&lt;script&gt;" in html


def test_drawing_a_panel_takes_a_few_hundred_calls_where_the_template_took_a_thousand(person):
    """A bound that a template (1,004 calls for this panel) or per-node work in Python would break: 205 now."""
    import cProfile
    import pstats

    bot = {a.slug: a for a in bots_ensure(game="connect-four")}["connect-four-lv0"]
    match = match_claim(match_id=match_create(game="connect-four", agents=[person, bot], seed=1).pk, worker="w").match
    game = get_game("connect-four")
    for column in "abcdefgd":
        state = game.from_json(match.state)
        match = decision_record(match=match, ply=match.ply, action=game.parse_action(state, column))
    context = live_panel_context(match, person)
    profile = cProfile.Profile()
    profile.runcall(live_panel_html, context)
    assert "<strong>Your move.</strong>" in live_panel_html(context)
    assert pstats.Stats(profile).total_calls <= 300
