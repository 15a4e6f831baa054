"""A person plays an Air, Land & Sea card face down by clicking, in real Chromium; a spectator sees only "face down"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.air_land_sea import CARDS
from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_person_improvises_a_card_which_only_they_see(page, chromium, live_site):
    live_site.manage("seed", "--no-demo", "--game", "air-land-sea")  # the site seeds only two games' bots
    # The bot's reply may turn our card face up (Maneuver, Ambush) or end the battle (withdraw): then its secret is
    # gone and a new game is dealt, until one leaves the card face down.
    for _ in range(8):
        url = start_game(page, live_site, "air-land-sea", "air-land-sea-lv1", "Ada")  # Blue, 1st player in battle 1
        card, theater = improvise_a_card(page)
        moves = page.locator(".move-list li:not(.muted)")
        expect(moves.first).to_contain_text(f"improvise {card} {theater}")
        expect(page.locator(".match-status")).to_contain_text("Your move.", timeout=30000)  # the bot has replied
        replies = " ".join(moves.all_inner_texts()[1:])
        if f"flip Blue {theater}" not in replies and "withdraw" not in replies:
            break
    name = CARDS[card][0]
    ours = page.locator(f".als-theater[aria-label^='{theater},'] .side-blue .als-card.face-down")
    expect(ours).to_have_count(1)
    expect(ours).to_contain_text(name)  # we see our own card, marked face down
    expect(ours).to_contain_text("(face down)")

    spectator_context = chromium.new_context()
    spectator = spectator_context.new_page()
    spectator.goto(url)
    theirs = spectator.locator(f".als-theater[aria-label^='{theater},'] .side-blue .als-card.face-down")
    expect(theirs).to_have_count(1)
    expect(theirs).to_have_text("face down")
    expect(spectator.locator(".move-list li:not(.muted)").first).to_have_text(f"improvise a card {theater}")
    assert spectator.locator(".als-hand").count() == 0  # no hand at all for someone not seated
    assert spectator.locator(".als-moves").count() == 0
    spectator_context.close()


def improvise_a_card(page) -> tuple[str, str]:
    """Check the hand's plays (battle 1's first move), then play a card face down; its id and theater."""
    # Each of our six cards carries its own plays under it (face up to its own theater, face down to each of the
    # three), each button labelled with the whole move; only withdraw stands apart.
    hand = page.locator(".als-hand .als-hand-card")
    expect(hand).to_have_count(6)
    for i in range(6):
        name, theater = hand.nth(i).locator(".als-card").inner_text().split("\n")[0].rsplit(" ", 2)[:2]
        plays = hand.nth(i).locator(".als-moves button")
        texts = plays.all_inner_texts()
        assert texts[0] == f"face up to {theater}"
        assert sorted(texts[1:]) == ["face down to Air", "face down to Land", "face down to Sea"]
        assert all(label.startswith(f"{name} (") for label in plays.evaluate_all("bs => bs.map(b => b.ariaLabel)"))
    assert page.locator("[aria-label='your other moves'] button").all_inner_texts() == ["withdraw"]
    face_down = page.locator(".als-moves [data-cell^='improvise-']").first
    _, card, theater = face_down.get_attribute("data-cell").split("-")
    face_down.click()
    return card, theater
