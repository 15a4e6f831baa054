"""Are You the Traitor?'s table through the page's own renderer: Stop is a click on a player, for a seat that may
shout it and only on its turn; a seat's board names no role it may not know; messages are escaped."""

from __future__ import annotations

import re
from dataclasses import replace

from arena.pages.rendering import board_html
from games import get_game

GAME = get_game("are-you-the-traitor")
ROLES = ("good wizard", "traitor", "key holder", "evil wizard", "guard")


def enabled_cells(html: str) -> list[str]:
    tags = re.findall(r"<button[^>]*>", html)
    return [re.search(r'data-cell="(P\d)"', t)[1] for t in tags if "data-cell" in t and "disabled" not in t]


def roles_shown(html: str) -> list[str]:
    return re.findall(r'<span class="ww-role">([^<]*)</span>', html)


def test_the_seat_to_act_points_by_clicking_players_and_others_cannot():
    state = replace(GAME.initial_state(seed=1), roles=ROLES)  # P1, the Good Wizard, acts
    mine = board_html(GAME, state, 0)
    assert enabled_cells(mine) == ["P2", "P3", "P4", "P5"]
    assert enabled_cells(board_html(GAME, state, 2)) == []  # not P3's turn
    traitor_turn = replace(state, turn=1)
    assert enabled_cells(board_html(GAME, traitor_turn, 1)) == []  # the Traitor cannot shout Stop


def test_a_seat_sees_its_own_role_and_the_traitor_the_key_holder_only():
    state = replace(GAME.initial_state(seed=1), roles=ROLES)
    assert roles_shown(board_html(GAME, state, 4)) == ["?", "?", "?", "?", "guard"]
    assert roles_shown(board_html(GAME, state, 1)) == ["?", "traitor", "key holder", "?", "?"]
    assert roles_shown(board_html(GAME, state, None)) == ["?"] * 5


def test_messages_are_escaped():
    state = GAME.apply(replace(GAME.initial_state(seed=1), roles=ROLES), ("say", "<script>x()</script>"))
    html = board_html(GAME, state, 2)
    assert "&lt;script&gt;x()&lt;/script&gt;" in html
    assert "<script>x()" not in html
