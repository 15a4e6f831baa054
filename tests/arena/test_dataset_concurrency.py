"""Concurrent downloads at one state of the record cost one build of the dataset, not one each."""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.db import connection

from arena.record.dataset import cached_export
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db(transaction=True)

DOWNLOADS = 5


def test_parallel_downloads_at_one_state_wait_for_one_build(ttt_bots, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    agents = [ttt_bots["tic-tac-toe-lv2"], ttt_bots["tic-tac-toe-lv0"]]
    for seed in range(3):
        async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=seed).pk)
    start = threading.Barrier(DOWNLOADS)

    def download(_: int) -> tuple[int, dict]:
        start.wait()  # every request misses the cache together
        try:
            with cached_export(filters={}) as handle:
                return os.fstat(handle.fileno()).st_ino, json.loads(handle.readline())
        finally:
            connection.close()

    with ThreadPoolExecutor(DOWNLOADS) as pool:
        served = list(pool.map(download, range(DOWNLOADS)))
    assert len({inode for inode, _ in served}) == 1  # one file, built once
    assert len({manifest["exported_at"] for _, manifest in served}) == 1
    assert served[0][1]["counts"]["match"] == 3
    kept = tmp_path / "datasets"
    assert len(list(kept.glob("*.jsonl"))) == 1
    assert not list(kept.glob("*.part"))
