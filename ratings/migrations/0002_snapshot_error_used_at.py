from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_snapshots")]

    operations = [
        migrations.AddField(model_name="ratingsnapshot", name="error", field=models.TextField(blank=True, default="")),
        migrations.AddField(
            model_name="ratingsnapshot", name="used_at", field=models.DateTimeField(blank=True, null=True)
        ),
    ]
