"""Versions that ran the verbal-value look-ahead under the name `rap` are labelled `rap-verbal`, the name it has
now that `rap` is GameBench's RAP (docs/llm.md): their results keep saying what produced them."""

from django.db import migrations

KEYS = {"rap_calls": "verbal_calls", "rap_actions": "verbal_actions", "rap_depth": "verbal_depth"}


def rename(apps, schema_editor, old: str, new: str, keys: dict[str, str]) -> None:
    AgentVersion = apps.get_model("arena", "AgentVersion")
    for version in AgentVersion.objects.filter(config__scaffold=old):
        config = {keys.get(key, key): value for key, value in version.config.items()}
        config["scaffold"] = new
        version.config = config
        version.save(update_fields=["config"])


def forwards(apps, schema_editor) -> None:
    rename(apps, schema_editor, "rap", "rap-verbal", KEYS)


def backwards(apps, schema_editor) -> None:
    rename(apps, schema_editor, "rap-verbal", "rap", {new: old for old, new in KEYS.items()})


class Migration(migrations.Migration):
    dependencies = [("arena", "0011_api_tokens")]

    operations = [migrations.RunPython(forwards, backwards)]
