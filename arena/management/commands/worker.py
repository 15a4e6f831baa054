"""django-tasks-db's `db_worker` that waits out database outages instead of exiting."""

from __future__ import annotations

import logging
import time

from django.db import InterfaceError, OperationalError, connections
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

logger = logging.getLogger(__name__)

#: Seconds between reconnection attempts while the database is down (then the last value, forever).
RECONNECT_DELAYS_S = (1, 2, 4, 8, 15)


class Command(DbWorkerCommand):
    help = "Run background matches (django-tasks-db's db_worker), reconnecting when the database goes away."

    def handle(self, *args, **options) -> None:
        failures = 0
        while True:
            try:
                super().handle(*args, **options)
                return  # stopped by a signal, or --batch ran out of work
            except (OperationalError, InterfaceError) as error:
                delay = RECONNECT_DELAYS_S[min(failures, len(RECONNECT_DELAYS_S) - 1)]
                failures += 1
                logger.warning("database unavailable (%s); reconnecting in %s s", error, delay)
                connections.close_all()
                time.sleep(delay)
