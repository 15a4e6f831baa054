"""Django's SQLite backend, with the threads of one process queueing for the write lock in Python.

SQLite lets one transaction write at a time, and its busy handler makes the others sleep and poll (for up to
100 ms a turn). With many threads in one process — a worker's match runners, the web server's — they spend more
time asleep than the writer holds the lock. Here a transaction of this process first takes a process-wide lock,
handed straight to the next waiting thread at commit or rollback; SQLite's busy timeout still arbitrates between
processes. A thread that cannot get the lock within the connection's timeout gets SQLite's own "database is
locked" error, as before.
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

#: One writer at a time among this process's connections to the database file.
WRITE_LOCK = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    holds_write_lock = False

    def _start_transaction_under_autocommit(self) -> None:
        if not WRITE_LOCK.acquire(timeout=self.settings_dict["OPTIONS"].get("timeout", 5)):
            raise OperationalError("database is locked")
        self.holds_write_lock = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_write_lock()

    def _release_write_lock(self) -> None:
        if self.holds_write_lock:
            self.holds_write_lock = False
            WRITE_LOCK.release()
