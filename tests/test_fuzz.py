"""Property-based fuzzing of everything a person or a model can send: frames, move texts, plans."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.play.consumers import FrameError, parse_frame
from games import IllegalAction, get_game
from games.registry import GAMES
from tests.sampled import sampled

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)
frames = (
    st.text(max_size=300)
    | st.sampled_from(['{"type": ["move"]}', '{"type": {"a": 1}}', '{"type": "move", "move": "\\ud800", "ply": 0}'])
    | st.integers(4290, 4400).map(lambda digits: f'{{"type": "move", "move": "a1", "ply": {"9" * digits}}}')
    | json_values.map(json.dumps)
    | st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "resign", "flag", "x"]), "move": json_values, "ply": json_values}
    ).map(json.dumps)
)


@FUZZ
@given(frames)
def test_frames_are_parsed_or_refused_with_a_message(text):
    try:
        frame = parse_frame(text)
    except FrameError as error:
        assert str(error)
        return
    assert frame["type"] in {"move", "resign", "flag"}
    if frame["type"] == "move":
        assert isinstance(frame["move"], str)
        assert isinstance(frame["ply"], int)


# Numbers a parser may choke on: longer than int() converts (4,300 digits), non-ASCII digits, zeros.
awkward_numbers = st.tuples(
    st.sampled_from(["", "clue x ", "raise to ", "move u", "move u1 to e", "attack u1 u", "@", "guess ", "e", "p"]),
    st.sampled_from(["9" * 5000, "²", "٣", "0" * 30 + "7", "1" * 20]),
).map("".join)

# Texts a person or a model might send: noise, near-notation, JSON plans.
move_texts = (
    st.text(max_size=80)
    | st.from_regex(r"[a-oA-O][0-9]{1,2}([-x ]?[a-oA-O][0-9]{1,2})?[qrbnQRBN]?", fullmatch=True)
    | json_values.map(json.dumps)
    | awkward_numbers
)


@pytest.mark.parametrize("slug", sampled(sorted(GAMES), {"chess", "diplomacy", "holdem", "tower-defense"}))
def test_any_text_is_a_legal_move_or_an_illegal_action_never_a_crash(slug):
    game = get_game(slug)
    state = game.initial_state(seed=7)
    # A few plies in, so the position is not trivial.
    for _ in range(3):
        if game.current_player(state) is None:
            break
        state = game.apply(state, game.random_action(state, game.rng(state)))
    before = game.to_json(state)

    @FUZZ
    @given(move_texts)
    def check(text):
        try:
            action = game.parse_action(state, text)
        except IllegalAction as error:
            assert str(error)
            return
        if game.current_player(state) is not None and game.is_legal(state, action):
            game.apply(state, action)
        else:
            with pytest.raises(IllegalAction):
                game.apply(state, action)
        assert game.to_json(state) == before  # states are never mutated

    check()


@pytest.mark.django_db
def test_invalid_moves_through_the_service_change_nothing(django_user_model):
    from arena.models import Agent, Decision
    from arena.record.agents import bots_ensure
    from arena.record.people import guest_agent_create, person_match_create, person_move
    from arena.record.services import ServiceError
    from arena.record.turns import match_claim, match_release

    bots_ensure(game="connect-four")
    person = guest_agent_create(nickname="fuzz")
    match = person_match_create(
        person=person, opponent=Agent.objects.get(slug="connect-four-lv0"), game="connect-four", seat=0
    )
    match_claim(match_id=match.pk, worker="w")
    match_release(match_id=match.pk, worker="w")
    legal = {"a", "b", "c", "d", "e", "f", "g"}

    @FUZZ
    @given(move_texts, st.integers(min_value=-3, max_value=3))
    def check(text, ply):
        before = Decision.objects.count()
        try:
            person_move(match_id=match.pk, agent=person, text=text, ply=ply)
        except (IllegalAction, ServiceError):
            assert Decision.objects.count() == before
            return
        # Accepted: it was a real column at the current ply; undo so every example starts equal.
        assert ply == 0
        assert Decision.objects.get(match=match).action_text in legal
        Decision.objects.filter(match=match).delete()
        type(match).objects.filter(pk=match.pk).update(
            ply=0, state=get_game("connect-four").to_json(get_game("connect-four").initial_state(seed=match.seed))
        )

    check()
