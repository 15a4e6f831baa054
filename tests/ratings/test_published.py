"""The papers' published tables: transcribed as printed, shown beside ours as labelled text, never rated."""

from __future__ import annotations

import pytest

from ratings.record.reports import PAPERS, paper
from ratings.record.reports.base import Cell, ReportFilters
from ratings.record.reports.published import published_document, published_tables


def test_every_paper_has_its_headline_table_transcribed_with_known_values():
    assert all(published_document(slug)["tables"] for slug in PAPERS)
    botzone = {r["label"]: r["cells"] for r in published_document("botzonebench")["tables"][0]["rows"]}
    assert botzone["Gemini3-Pro-Pre."][0] == "Lv2, topped"
    labels = [label for label, _ in published_tables("botzonebench")[0][1].rows]
    assert labels[2] == "GPT-5.2 — published (BotzoneBench, Table 2)"
    assert botzone["GPT-5.2"][4] == "Lv2, 0.0%"  # chess: the only model past Lv1
    assert len(botzone) == 8
    assert {len(c) for c in botzone.values()} == {8}
    turn_based, real_time = published_document("star")["tables"]
    assert (len(turn_based["rows"]), len(real_time["rows"])) == (14, 18)
    assert turn_based["rows"][0] == {"label": "Kimi-K2-Thinking", "cells": ["1206.1 ± 7.3", "1149.2 ± 3.7", "1.00"]}
    adv = {r["label"]: r["cells"] for r in published_document("advgamebench")["tables"][0]["rows"]}
    assert adv["ChatGPT-o3-mini"][9:] == ["74.7", "24.5", "78.6"]  # avg WR, ORR, CSR
    dsg = {r["label"]: r["cells"] for r in published_document("dsgbench")["tables"][0]["rows"]}
    assert dsg["GPT-4o"][-1] == "54.10 ± 1.14"
    ratings, scores = published_document("gamebench")["tables"]
    assert {r["label"]: r["cells"][0] for r in ratings["rows"]}["Human"] == "1.76"
    assert {r["label"]: r["cells"][1] for r in scores["rows"]}["GPT-4-RAP"] == "NaN"


@pytest.mark.django_db
@pytest.mark.parametrize("slug", PAPERS)
def test_published_rows_sit_beside_ours_labelled_and_as_text_only(slug):
    report = paper(slug).build(ReportFilters())
    published = [t for t in report.tables if t.key.startswith("published-")]
    assert [t.key for t in published] == [t.key for _, t in published_tables(slug)]
    name = published_document(slug)["paper"]
    for table in published:
        number = table.title.removeprefix("Published: ").split(":")[0]  # "Table 2"
        for label, cells in table.rows:
            assert label.endswith(f" — published ({name}, {number})")
            assert not any(isinstance(c, Cell) for c in cells)  # nothing a rating or chart could read as ours
    ours = [t for t in report.tables if not t.key.startswith("published-")]
    assert all("published" not in label for t in ours for label, _ in t.rows)
