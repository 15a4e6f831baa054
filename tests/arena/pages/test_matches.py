"""The match pages show the record: a match steps through its plies, and the list filters."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_match_page_steps_through_plies(client, finished_match):
    response = client.get(f"/matches/{finished_match.pk}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert f"move <strong>{finished_match.ply}</strong> / {finished_match.ply}" in body
    first = finished_match.decisions.get(ply=0)
    body = client.get(f"/matches/{finished_match.pk}/?ply=1").content.decode()
    assert "move <strong>1</strong> / " in body
    # After the first move exactly one mark is on the board, in the cell the record names.
    assert body.count('aria-label="' + first.action_text + ': X"') == 1
    assert body.count(': X"') + body.count(': O"') == 1
    # The fragment alone (what htmx swaps in) carries the same board and links to the neighbours.
    fragment = client.get(f"/matches/{finished_match.pk}/replay/?ply=1").content.decode()
    assert fragment.startswith(f'<div id="match-{finished_match.pk}-replay"')
    assert 'data-step="next" href="?ply=2"' in fragment
    assert 'data-step="prev" href="?ply=0"' in fragment
    assert "Move 1 · seat 0" in fragment
    assert client.get(f"/matches/{finished_match.pk}/?ply=junk").status_code == 200
    assert client.get(f"/matches/{finished_match.pk}/?ply=999").status_code == 200
    assert client.get("/matches/999999/").status_code == 404


def test_match_list_filters(client, finished_match, ttt_bots):
    body = client.get("/matches/?agent=tic-tac-toe-lv4").content.decode()
    assert f"/matches/{finished_match.pk}/" in body
    body = client.get("/matches/?agent=tic-tac-toe-lv0").content.decode()
    assert f"/matches/{finished_match.pk}/" not in body
