"""Uploads are built by a worker: ProgramBuild keeps what the upload asks for, when it was built, and its agent."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F


def builds_before_are_built(apps, schema_editor):
    """Builds recorded before the queue were built in the request that made them."""
    apps.get_model("arena", "ProgramBuild").objects.update(built_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0016_program_builds"),
    ]

    operations = [
        migrations.AddField(
            model_name="programbuild",
            name="agent",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="builds",
                to="arena.agent",
            ),
        ),
        migrations.AddField(
            model_name="programbuild",
            name="built_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="programbuild",
            name="wanted",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(builds_before_are_built, migrations.RunPython.noop),
    ]
