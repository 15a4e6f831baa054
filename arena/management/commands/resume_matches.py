"""Re-queue matches a dead worker left behind, and pending ones nobody queued."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from arena.models import Match
from arena.record.people import matches_abandoned_end
from arena.record.turns import STALE_AFTER_S, match_release_stale
from arena.runner.tasks import enqueue_matches, match_resume_enqueue, matches_waiting_in_queue


class Command(BaseCommand):
    help = "Release running matches without a recent heartbeat and enqueue every pending match not already queued."

    def add_arguments(self, parser):
        parser.add_argument(
            "--stale-after",
            type=float,
            default=STALE_AFTER_S,
            help="Seconds without a heartbeat after which a running match counts as orphaned (default 30; "
            "0 when no worker is running, e.g. at start-up of the embedded mode).",
        )

    def handle(self, *args, stale_after: float, **options):
        released = match_release_stale(stale_after_s=stale_after)
        abandoned = matches_abandoned_end(at_most=10_000)
        # Matches with a person in them are driven by their play page, not by workers.
        waiting = Match.objects.filter(status=Match.Status.PENDING).exclude(seats__agent_version__agent__kind="human")
        pending = list(waiting.values_list("pk", flat=True))
        # `seed` (run just before by `make run`) and tournaments queue their own matches: queue each match once.
        queued = matches_waiting_in_queue(pending)
        pending = [pk for pk in pending if pk not in queued]
        enqueue_matches(pending)
        # A paused match's resumption is queued when it pauses; one whose task was lost is queued again.
        running = Match.objects.filter(status=Match.Status.RUNNING)
        paused = dict(running.exclude(paused_until=None).values_list("pk", "paused_until"))
        still_queued = matches_waiting_in_queue(list(paused))
        lost = [pk for pk in paused if pk not in still_queued]
        for pk in lost:
            match_resume_enqueue(match_id=pk, until=paused[pk])
        self.stdout.write(
            f"released {len(released)} orphaned matches; ended {len(abandoned)} abandoned games; "
            f"enqueued {len(pending)} matches ({len(queued)} already queued); {len(paused)} paused "
            f"({len(lost)} queued again)"
        )
