from django.db import migrations, models


def forget_filtered_snapshots(apps, schema_editor):
    """Filtered snapshots are caches made before filters were checked (some keys may not parse): pages
    recompute the ones still wanted."""
    apps.get_model("ratings", "RatingSnapshot").objects.exclude(filters="").delete()


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_snapshots")]

    operations = [
        migrations.AddField(model_name="ratingsnapshot", name="error", field=models.TextField(blank=True, default="")),
        migrations.AddField(
            model_name="ratingsnapshot", name="used_at", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.RunPython(forget_filtered_snapshots, migrations.RunPython.noop),
    ]
