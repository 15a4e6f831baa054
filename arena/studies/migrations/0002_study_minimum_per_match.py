"""Studies gain a minimum per match (plies and seconds) below which a participant is "incomplete"."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("studies", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="study",
            name="min_plies",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="study",
            name="min_seconds",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
