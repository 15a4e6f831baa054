"""Programs keep Botzone's `data` per seat of a match and `globaldata` per agent in the record."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0014_agent_approved"),
    ]

    operations = [
        migrations.AddField(
            model_name="agent",
            name="program_globaldata",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="program_memory",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
