from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from arena.record.signals import match_finished
        from ratings.tasks import refresh_on_match_finished

        match_finished.connect(refresh_on_match_finished, dispatch_uid="ratings_refresh")
