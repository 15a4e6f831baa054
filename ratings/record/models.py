"""Cached leaderboards: pages read snapshots, never fit a model per request."""

from __future__ import annotations

from django.db import models

from arena.models import Agent, Match


class RatingSnapshot(models.Model):
    """One computed leaderboard: a scope (all games, or one) under one set of filters."""

    #: "" for all games (each game weighted equally), else a game slug.
    game = models.CharField(max_length=40, blank=True, default="")
    #: Canonical filter string, e.g. "prompt=1&scaffold=cot&since=2026-01-01" ("" for none).
    filters = models.CharField(max_length=300, blank=True, default="")
    #: Rows, the first-move term, chart data: plain JSON for the pages and the downloads.
    data = models.JSONField(default=dict)
    matches = models.PositiveIntegerField(default=0)
    bootstrap_rounds = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)
    #: True while a refresh is queued or running (pages show "updating…").
    stale = models.BooleanField(default=False)
    #: The columns replayed from the record in time order (Elo, W/D/L, people, …), merged into `data` by slug.
    replay = models.JSONField(default=dict)
    #: True while the replay of the record is queued or running (it runs apart from the Bradley–Terry refit).
    replay_stale = models.BooleanField(default=False)
    #: Why the last refresh failed ("" when it succeeded); the page shows it instead of waiting forever.
    error = models.TextField(blank=True, default="")
    #: When a page last read it: the least recently used filtered snapshot is the one evicted.
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "filters"], name="snapshot_unique_scope")]

    def __str__(self) -> str:
        return f"{self.game or 'all games'} [{self.filters or 'no filters'}]"


class ReferenceRecord(models.Model):
    """A published result imported for comparison (GameBench's matches.json, BotzoneBench's logs).

    Never a Match: reports show these as reference rows, apart from and labelled unlike the arena's own."""

    source = models.CharField(max_length=20)  # "gamebench" or "botzone"
    repository = models.CharField(max_length=120)
    commit = models.CharField(max_length=40)
    path = models.CharField(max_length=300, help_text="The file it came from, inside the repository.")
    index = models.PositiveIntegerField(default=0, help_text="Its position in that file.")
    #: Our game slug where we have the game (Botzone logs are replayed through it), else the source's name.
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, blank=True, default="")
    agents = models.JSONField(default=list)  # names per seat, as the source writes them
    scores = models.JSONField(default=list)  # per seat: 1, 0.5, 0
    level = models.PositiveSmallIntegerField(null=True, blank=True)  # Botzone's ladder level
    moves = models.JSONField(default=list)  # our action texts, replayed and accepted move by move
    termination = models.CharField(max_length=200, blank=True, default="")
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["source", "path", "index"]
        constraints = [
            models.UniqueConstraint(fields=["source", "commit", "path", "index"], name="reference_record_unique")
        ]

    def __str__(self) -> str:
        return f"{self.source}:{self.path}#{self.index}"


class RatingCell(models.Model):
    """Bradley–Terry's sufficient statistic: the summed weight of the pairwise results (`ratings.maths.pairwise`) of
    rated matches sharing leaderboard, filter keys (prompt version, finishing day), pair, first mover and score.

    A refit reads these instead of the matches, so its cost does not grow with the record's length."""

    key = models.CharField(max_length=80)  # rating key: game, or game:variant
    prompt = models.CharField(max_length=40, blank=True, default="")
    day = models.DateField(null=True)  # the day it finished (None: no finishing time recorded)
    a = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="+")
    first_mover = models.FloatField()  # 1: a moved first; 0.5: no move order between the pair
    score = models.FloatField()  # a's score
    weight = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["key", "prompt", "day", "a", "b", "first_mover", "score"], name="rating_cell_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.day} {self.a_id}–{self.b_id}: {self.score} × {self.weight}"


class RatingCount(models.Model):
    """Rated matches per leaderboard and filter keys: the bootstrap's draw size and the per-game weights."""

    key = models.CharField(max_length=80)
    prompt = models.CharField(max_length=40, blank=True, default="")
    day = models.DateField(null=True)
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "prompt", "day"], name="rating_count_unique")]

    def __str__(self) -> str:
        return f"{self.key} {self.day}: {self.matches} matches"


class CountedMatch(models.Model):
    """A finished, scored match whose results are in the cells: each match is counted once, however often asked."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="+")

    def __str__(self) -> str:
        return f"match {self.match_id} counted"
