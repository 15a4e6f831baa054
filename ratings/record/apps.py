from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings.record"
    label = "ratings"  # the tables, migrations and content types keep the name they were made with
    verbose_name = "Ratings"

    def ready(self) -> None:
        from arena.record.signals import agents_merged, match_finished
        from ratings.record.tasks import merge_on_agents_merged, refresh_on_match_finished

        match_finished.connect(refresh_on_match_finished, dispatch_uid="ratings_refresh")
        agents_merged.connect(merge_on_agents_merged, dispatch_uid="ratings_merge")
