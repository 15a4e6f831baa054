"""The starting annotation taxonomy; staff edit it in the admin afterwards."""

from django.db import migrations

TAGS = [
    ("blunder", "Blunder", "A move that throws away the game or a large advantage."),
    ("missed-win", "Missed win", "A winning move was available and not played."),
    ("rule-misread", "Rule misread", "The reasoning gets a rule of the game wrong."),
    ("hallucination", "Hallucinated piece or unit", "The reasoning refers to something that is not on the board."),
    ("format-error", "Format error", "The answer did not follow the requested format."),
    ("over-correction", "Over-correction", "A revision that made a working plan worse."),
    ("good-revision", "Good revision", "A revision that fixed what the feedback pointed at."),
    ("budget-violation", "Budget violation", "The plan or answer broke its budget."),
    ("good-defence", "Good defence", "Blocked a real threat."),
    ("inconsistent", "Reasoning contradicts move", "The stated reasoning and the chosen move disagree."),
]


def add_tags(apps, schema_editor):
    tag_model = apps.get_model("arena", "AnnotationTag")
    for slug, label, description in TAGS:
        tag_model.objects.get_or_create(slug=slug, defaults={"label": label, "description": description})


def remove_tags(apps, schema_editor):
    apps.get_model("arena", "AnnotationTag").objects.filter(slug__in=[slug for slug, _, _ in TAGS]).delete()


class Migration(migrations.Migration):
    dependencies = [("arena", "0004_annotations")]
    operations = [migrations.RunPython(add_tags, remove_tags)]
