"""Agents gain `approved` (offered to everyone in the lobby); the agents that existed are approved when the operator
or a staff member registered them, and people's own wait for staff."""

from django.db import migrations, models
from django.db.models import Q


def approve_the_sites_agents(apps, schema_editor):
    Agent = apps.get_model("arena", "Agent")
    Agent.objects.filter(Q(owner__isnull=True) | Q(owner__is_staff=True)).update(approved=True)


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0013_match_pause"),
    ]

    operations = [
        migrations.AddField(
            model_name="agent",
            name="approved",
            field=models.BooleanField(
                default=False, help_text="Offered to everyone in the lobby (otherwise only to its owner). Set by staff."
            ),
        ),
        migrations.RunPython(approve_the_sites_agents, migrations.RunPython.noop),
    ]
