"""Every game's page tells people how to play it here, with a legend, and shows the models' prompt folded below."""

from __future__ import annotations

import html

import pytest
from django.template.loader import get_template

from games import all_games

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_every_registered_game_has_a_page_for_people_with_the_prompt_below(client, slug):
    get_template(f"games/{slug}/how_to_play.html")  # a new game adds its own next to its board
    body = client.get(f"/games/{slug}/").content.decode()
    people = body.index("How to play here")
    assert '<dl class="legend">' in body[people:]
    prompt = body.index("<summary>What the models are told</summary>")
    assert people < prompt
    rules = next(g for g in all_games() if g.slug == slug).rules_text()
    assert html.escape(rules.splitlines()[0])[:80] in body[prompt:]


def test_the_stratego_legend_names_every_piece_letter(client):
    body = client.get("/games/stratego/").content.decode()
    for letter, name in (("M", "Marshal"), ("S", "Spy"), ("B", "Bomb"), ("F", "Flag")):
        assert f"<dt>{letter}</dt><dd>{name}" in body
