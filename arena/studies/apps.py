from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "arena.studies"
    label = "studies"
    verbose_name = "Human baseline studies"
    default_auto_field = "django.db.models.BigAutoField"
