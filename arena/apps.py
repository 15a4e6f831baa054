from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Arena"

    def ready(self) -> None:
        from arena.record.signals import match_finished
        from arena.tournaments.services import tournament_advance_on_match_finished

        match_finished.connect(tournament_advance_on_match_finished, dispatch_uid="tournament_advance")
