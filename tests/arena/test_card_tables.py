"""The card tables as each viewer sees them: own cards or tiles as buttons, other hands as counts."""

from __future__ import annotations

from arena.pages.rendering import board_html, render_plain
from games import get_game
from games.fight_the_landlord.combos import card_text

GAME = get_game("fight-the-landlord")
MAHJONG = get_game("mahjong")


def test_a_seat_sees_and_can_select_only_its_own_cards():
    state = GAME.initial_state(seed=4)
    html = board_html(GAME, state, 1)
    own = [card_text(c) for c in state.hands[1]]
    others = {card_text(c) for c in state.hands[2]} - set(own) - {card_text(c) for c in state.bottom}
    assert html.count("data-ftl-rank=") == 17
    assert all(face in html for face in own)
    assert not any(f">{face}<" in html for face in others)
    assert "17 cards" in html
    assert "20 cards" in html
    spectator = board_html(GAME, state, None)
    assert "data-ftl-rank" not in spectator
    revealed = board_html(GAME, state, None, reveal=True)
    assert all(f">{card_text(c)}<" in revealed for hand in state.hands for c in hand)


def test_controls_offer_the_bids_then_play_and_pass():
    state = GAME.initial_state(seed=4, bidding=True)
    html = render_plain("games/fight-the-landlord/controls.html", {"view": GAME.player_view(state, 0)})
    assert 'value="bid 3"' in html
    assert 'value="no bid"' in html
    state = GAME.apply(GAME.initial_state(seed=4), ("play", GAME.legal_actions(GAME.initial_state(seed=4))[0][1]))
    html = render_plain("games/fight-the-landlord/controls.html", {"view": GAME.player_view(state, 1)})
    assert "data-ftl-move" in html
    assert 'value="pass"' in html


def test_mahjong_discards_by_clicking_a_tile_and_claims_by_buttons():
    state = MAHJONG.initial_state(seed=6)
    html = board_html(MAHJONG, state, 0)
    own = set(MAHJONG.player_view(state, 0)["seats"][0]["hand"])
    assert all(f'data-cell="{t}"' in html for t in own)
    assert all(cell in {a for act in MAHJONG.legal_actions(state) for a in MAHJONG.action_cells(state, act)}
               for cell in own)  # fmt: skip
    assert "data-cell" not in board_html(MAHJONG, state, 1)  # not P2's turn: nothing to click
    state = MAHJONG.apply(state, MAHJONG.legal_actions(state)[-1])
    assert 'data-cell="Pass"' in board_html(MAHJONG, state, 1)
