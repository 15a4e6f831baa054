"""The connect-four board drawn in Python (arena.pages.boards): known positions, cell by cell."""

from __future__ import annotations

import re

from arena.pages.boards import connect_four_board
from arena.pages.rendering import board_html
from games import get_game

GAME = get_game("connect-four")


def play(*columns: str):
    state = GAME.initial_state(seed=0)
    for column in columns:
        state = GAME.apply(state, GAME.parse_action(state, column))
    return state


def cell(html: str, cx: int, cy: int) -> str:
    """The <g> of the cell centred at (cx, cy), with its content."""
    return re.search(rf'<g transform="translate\({cx} {cy}\)".*?</g>', html).group(0)


def test_the_empty_board_has_42_holes_and_seven_columns_to_drop_into():
    html = board_html(GAME, play(), 0)
    assert html.count('<circle class="c4-hole" r="40"/>') == 42
    assert "c4-stone" not in html
    assert 'aria-label="Connect Four board, X to move"' in html
    assert '<div class="board board-connect-four">' in html
    playable = re.findall(
        r'data-cell="([a-g])" role="button" tabindex="0" aria-label="Column \1: drop a stone \(6 free\)"', html
    )
    assert playable == list("abcdefg")
    assert (
        cell(html, 50, 550) == '<g transform="translate(50 550)" class="c4-cell"><circle class="c4-hole" r="40"/></g>'
    )
    assert html.count('<text class="c4-label"') == 7


def test_a_full_column_is_marked_full_and_cannot_be_chosen():
    html = board_html(GAME, play(*"dddddd"), 0)  # X on d1, d3, d5; O on d2, d4, d6
    assert '<g class="c4-column" data-cell="d" aria-label="Column d, full">' in html
    assert 'data-cell="d" role="button"' not in html
    assert 'aria-label="Connect Four board, X to move, last move d"' in html
    assert cell(html, 350, 550) == (
        '<g transform="translate(350 550)" class="c4-cell"><circle class="c4-stone c4-x" r="40"><title>d1: X</title>'
        '</circle><path class="c4-x-mark" d="M-15 -15L15 15M15 -15L-15 15"/></g>'
    )
    assert cell(html, 350, 50) == (  # d6, the last stone: O, ringed
        '<g transform="translate(350 50)" class="c4-cell c4-last"><circle class="c4-stone c4-o" r="40"><title>d6: O'
        '</title></circle><circle class="c4-o-mark" r="17"/><circle class="c4-ring" r="45"/></g>'
    )
    assert html.count("c4-stone c4-x") == 3
    assert html.count("c4-stone c4-o") == 3


def test_a_won_game_rings_the_four_and_offers_no_column():
    state = play(*"aabbccd")  # X: a1 b1 c1 d1 across the bottom row
    html = board_html(GAME, state, None)
    assert GAME.outcome(state).scores == (1.0, 0.0)
    assert '<div class="board board-connect-four c4-over">' in html
    assert 'aria-label="Connect Four board, last move d"' in html
    assert 'role="button"' not in html
    assert '<g class="c4-column" data-cell="a" aria-label="Column a">' in html  # four free, but the game is over
    fours = re.findall(r'translate\((\d+) 550\)" class="c4-cell( c4-last)? c4-four"', html)
    assert fours == [("50", ""), ("150", ""), ("250", ""), ("350", " c4-last")]
    assert html.count('<circle class="c4-ring" r="45"/>') == 4


def test_every_value_from_the_view_is_escaped():
    view = GAME.player_view(play("a"), 1)
    view["to_move"], view["last_move"] = "<b>", "a&b"
    view["columns"][0]["name"] = '"><script>'
    view["columns"][0]["cells"][0]["name"] = "<i>"
    html = connect_four_board(view, 1)
    assert "<script>" not in html
    assert "<b>" not in html
    assert "<i>" not in html
    assert 'data-cell="&quot;&gt;&lt;script&gt;"' in html
    assert "<title>&lt;i&gt;: X</title>" in html
    assert 'aria-label="Connect Four board, &lt;b&gt; to move, last move a&amp;b"' in html
