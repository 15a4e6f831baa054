"""Give every match a global uid (exports and imports are keyed by it)."""

import uuid

from django.db import migrations, models


def fill_uids(apps, schema_editor):
    match_model = apps.get_model("arena", "Match")
    for match in match_model.objects.filter(uid__isnull=True).only("pk"):
        match.uid = uuid.uuid4()
        match.save(update_fields=["uid"])


class Migration(migrations.Migration):
    dependencies = [("arena", "0005_annotation_taxonomy")]
    operations = [
        migrations.AddField(model_name="match", name="uid", field=models.UUIDField(null=True, editable=False)),
        migrations.RunPython(fill_uids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="match",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
