"""Annotating decisions: who may write what, escaping, filters and agreement."""

from __future__ import annotations

import importlib

import pytest
from asgiref.sync import async_to_sync
from django.apps import apps

from arena.models import Annotation
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def taxonomy():
    """The tags the migration writes: a transactional test that ran earlier in this process emptied the table."""
    importlib.import_module("arena.migrations.0005_annotation_taxonomy").add_tags(apps, None)


@pytest.fixture
def decision(ttt_bots):
    agents = [ttt_bots["tic-tac-toe-lv2"], ttt_bots["tic-tac-toe-lv0"]]
    match = async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=2).pk)
    return match.decisions.get(ply=0)


@pytest.fixture
def people(django_user_model):
    return {
        name: django_user_model.objects.create_user(name, password="pw-123456", is_staff=(name == "mod"))
        for name in ("ann", "bob", "mod")
    }


def annotate(client, user, decision, **data):
    client.force_login(user)
    return client.post(f"/decisions/{decision.pk}/annotate/", data, HTTP_HX_REQUEST="true")


def test_only_signed_in_people_annotate_and_edits_replace(client, decision, people):
    client.post(f"/decisions/{decision.pk}/annotate/", {"glyph": "?"}, HTTP_HX_REQUEST="true")
    assert Annotation.objects.count() == 0
    assert annotate(client, people["ann"], decision, glyph="?", tags=["blunder"], comment="x").status_code == 200
    annotate(client, people["ann"], decision, glyph="??", tags=["blunder", "missed-win"], comment="worse")
    annotation = Annotation.objects.get()
    assert (annotation.glyph, annotation.comment) == ("??", "worse")
    assert sorted(t.slug for t in annotation.tags.all()) == ["blunder", "missed-win"]
    response = annotate(client, people["ann"], decision, glyph="?!!", tags=["nonsense"])
    assert response.status_code == 400
    assert "Unknown glyph" in response.content.decode()


def test_authors_delete_their_own_and_staff_moderate(client, decision, people):
    annotate(client, people["ann"], decision, glyph="!")
    annotation = Annotation.objects.get()
    client.force_login(people["bob"])
    response = client.post(f"/annotations/{annotation.pk}/delete/", HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert Annotation.objects.count() == 1
    client.force_login(people["mod"])
    client.post(f"/annotations/{annotation.pk}/delete/", HTTP_HX_REQUEST="true")
    assert Annotation.objects.count() == 0


def test_comments_are_escaped_on_the_replay_and_the_list(client, decision, people):
    annotate(client, people["ann"], decision, comment="<script>alert(1)</script>", tags=["format-error"])
    for url in (f"/matches/{decision.match_id}/replay/?ply=1", "/annotations/"):
        body = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_list_filters_and_agreement(client, decision, people):
    annotate(client, people["ann"], decision, glyph="?", tags=["blunder"])
    annotate(client, people["bob"], decision, glyph="?", tags=["blunder"])
    body = client.get("/annotations/?tag=blunder").content.decode()
    assert body.count(f"#{decision.match_id} move 1") == 2
    assert "1 decision annotated by two or more people" in body
    assert "Fleiss' κ over glyphs: <strong>" in body
    assert f"#{decision.match_id} move 1" not in client.get("/annotations/?annotator=mod").content.decode()
    assert f"#{decision.match_id} move 1" not in client.get("/annotations/?game=reversi").content.decode()
