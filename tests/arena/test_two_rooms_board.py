"""Two Rooms and a Boom's board through the page's own renderer: each seat hears only its room's talk and sees only
the cards shown to it; the player to act clicks room-mates (to show its card, vote or send a hostage); messages are
escaped."""

from __future__ import annotations

import re

from arena.pages.rendering import board_html
from games import get_game

GAME = get_game("two-rooms-and-a-boom")
# Seed 1: Room 1 holds P1 (Leader, the Bomber), P3 and P6; Room 2 holds P2 (the President), P4 and P5 (Leader).


def play(state, *texts: str):
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def enabled_cells(html: str) -> list[str]:
    tags = re.findall(r"<button[^>]*>", html)
    return [re.search(r'data-cell="([^"]+)"', t)[1] for t in tags if "data-cell" in t and "disabled" not in t]


def cards_shown(html: str) -> dict[str, str]:
    shown = {}
    for tag in re.findall(r"<button[^>]*>", html):
        card = re.search(r'data-card="([^"]+)"', tag)
        if card:
            shown[re.search(r'data-cell="(P\d)"', tag)[1]] = card[1]
    return shown


def test_the_player_to_talk_shows_its_card_by_two_clicks_and_others_cannot_click():
    state = GAME.initial_state(seed=1)
    assert enabled_cells(board_html(GAME, state, 0)) == ["P3", "P6", "show"]  # P1's room-mates, then the button
    assert GAME.action_cells(state, ("show", 2)) == ("show", "P3")
    assert enabled_cells(board_html(GAME, state, 2)) == []  # not P3's turn
    answering = play(state, "ask P3 Which team?")
    assert enabled_cells(board_html(GAME, answering, 2)) == ["show"]  # P3 answers, or shows its card back to P1
    assert GAME.action_cells(answering, ("show", 0)) == ("show",)


def test_votes_and_hostages_are_clicks_on_players_of_your_room():
    state = GAME.initial_state(seed=1)
    for mate in (3, 6, 1, 4, 5, 2):  # P1, P3, P6, then P2, P4, P5 show their card to a room-mate, who shows back
        state = play(state, f"show P{mate}", "show")
    assert enabled_cells(board_html(GAME, state, 0)) == ["P1", "P3", "P6"]  # P1 votes, itself included
    state = play(state, "vote P1", "vote P1", "vote P1", "vote P5", "vote P5", "vote P5")
    assert enabled_cells(board_html(GAME, state, 0)) == ["P3", "P6"]  # P1, Leader, sends a room-mate


def test_a_seat_sees_its_own_card_and_cards_shown_to_it_and_hears_only_its_room():
    state = play(GAME.initial_state(seed=1), "ask P3 Secret of room one?", "show")  # P3 shows P1 its card
    p1, p2 = board_html(GAME, state, 0), board_html(GAME, state, 1)
    assert cards_shown(p1) == {"P1": "bomber", "P3": "red team"}
    assert cards_shown(p2) == {"P2": "president"}
    assert cards_shown(board_html(GAME, state, None)) == {}
    assert "Secret of room one?" in p1
    assert "Secret of room one?" not in p2
    assert "You cannot hear this room" in p2


def test_messages_are_escaped():
    state = play(GAME.initial_state(seed=1), "ask P3 <script>x()</script>")
    html = board_html(GAME, state, 5)
    assert "&lt;script&gt;x()&lt;/script&gt;" in html
    assert "<script>x()" not in html
