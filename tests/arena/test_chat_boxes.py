"""The chat boxes of Two Rooms and Are You the Traitor? take plain text and say what is being answered."""

from __future__ import annotations

from arena.pages.rendering import board_html
from games import get_game

TWO_ROOMS = get_game("two-rooms-and-a-boom")
TRAITOR = get_game("are-you-the-traitor")


def play(game, state, *texts: str):
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def test_the_two_rooms_answer_box_shows_the_question_escaped():
    state = play(TWO_ROOMS, TWO_ROOMS.initial_state(seed=1), "ask P3 Are you <b>Blue</b>?")
    html = board_html(TWO_ROOMS, state, 2)
    assert 'P1 asked you: <q class="ww-msg-text">Are you &lt;b&gt;Blue&lt;/b&gt;?</q>' in html
    assert 'data-move-prefix="say "' in html  # plain text is sent as "say …"
    state = play(TWO_ROOMS, TWO_ROOMS.initial_state(seed=1), "show P3")
    assert "P1 showed you their card. Answer them, or show yours back." in board_html(TWO_ROOMS, state, 2)
    assert "data-answering" not in board_html(TWO_ROOMS, state, 5)  # nobody asked P6


def test_the_traitor_box_takes_plain_text():
    state = TRAITOR.initial_state(seed=1)
    seat = TRAITOR.current_player(state)
    html = board_html(TRAITOR, state, seat)
    assert 'data-move-prefix="say "' in html
    assert "Type <code>say</code>" not in html
