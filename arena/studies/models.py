"""A study: consent (versioned), a design of games and opponents, participants and their assigned matches.

Participants are pseudonymous: a random code, the keyed hash of the recruiting platform's id (never the id),
a guest seat named after the code, and their questionnaire answers. No names or emails.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from arena.models import Agent, Match

#: Participants a result needs before it shows an interval, unless the study sets another minimum.
DEFAULT_MIN_N = 5

#: The statuses of a match that is over, one way or the other.
ENDED = (Match.Status.FINISHED, Match.Status.ABORTED)


class Study(models.Model):
    """What a researcher sets up: games, opponents, order, limits; a share link `/studies/<slug>/`."""

    class Order(models.TextChoices):
        FIXED = "fixed", "fixed (as listed)"
        RANDOM = "random", "random per participant (games, and opponents within a game; seed recorded)"
        COUNTERBALANCED = "counterbalanced", "counterbalanced (Latin squares over games and over each game's opponents)"
        CONDITIONS = "conditions", "counterbalanced over every game × opponent (one Latin square, games interleaved)"

    slug = models.SlugField(max_length=60, unique=True)
    title = models.CharField(max_length=160)
    #: [{"game": slug, "opponents": [agent slug, …], "options": {…}, "move_time_limit_s": int}, …] in the listed
    #: (fixed) order; "options" (the game's `initial_state` options, a variant's included) and the game's own time
    #: per move are there only when set.
    design = models.JSONField(default=list)
    games_per_opponent = models.PositiveSmallIntegerField(default=1)
    order = models.CharField(max_length=16, choices=Order.choices, default=Order.COUNTERBALANCED)
    move_time_limit_s = models.PositiveIntegerField(null=True, blank=True)
    questionnaire = models.BooleanField(default=True, help_text="Ask each participant's experience with each game.")
    #: The study's own questions before the first match and after the last (`arena.studies.questions`).
    questions = models.JSONField(default=list, blank=True)
    completion_code = models.CharField(max_length=40)
    #: Each participant gets their own completion code (a keyed hash of theirs) instead of `completion_code`.
    per_participant_codes = models.BooleanField(default=False)
    #: Where the thank-you page sends a participant who completed: a recruiting platform's URL with the
    #: placeholders {completion_code} and {pid} (the id the participant arrived with); "" for none.
    redirect_url = models.CharField(max_length=500, blank=True, default="")
    #: A match counts as played once it reached this many plies (moves of either side) and lasted this many seconds;
    #: a participant with a shorter one is "incomplete" and gets no completion code. 0: no minimum.
    min_plies = models.PositiveIntegerField(default=0)
    #: A match whose opponent has not moved for this many seconds on its turn is void: aborted and replayed (at most
    #: MAX_REPLAYS times), never the participant's loss. None: no such rule.
    void_after_s = models.PositiveIntegerField(null=True, blank=True)
    min_seconds = models.PositiveIntegerField(default=0)
    max_participants = models.PositiveIntegerField(default=50)
    #: Below this many participants a result shows no interval ("too few participants").
    min_n = models.PositiveSmallIntegerField(default=DEFAULT_MIN_N)
    #: How many participants withdrew (their records are deleted; the count keeps attrition reportable).
    withdrawn = models.PositiveIntegerField(default=0)
    is_open = models.BooleanField(default=True)
    #: Participants see their opponents as "Opponent A", "Opponent B", … (per game, in the listed order), on the study
    #: pages and on their matches' pages: no name, kind or link.
    blind_opponents = models.BooleanField(default=False)
    #: While taking part, pages show no site navigation (leaderboards, lobby): only the study and its matches.
    focused = models.BooleanField(default=False)
    #: Anyone may show the study's pooled baseline (an aggregate, nothing per participant) beside a leaderboard.
    publish_baseline = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "studies"

    def __str__(self) -> str:
        return self.slug

    def games(self) -> list[str]:
        return [block["game"] for block in self.design]

    def opponent_label(self, game: str, opponent: str) -> str:
        """How a blinded study names `opponent` in `game` to participants: "Opponent A", "B", … in the listed order."""
        listed = next(block["opponents"] for block in self.design if block["game"] == game)
        return f"Opponent {chr(ord('A') + listed.index(opponent))}"

    def played_enough(self, match: Match) -> bool:
        """Whether `match` reached the study's minimum plies and seconds (its length so far, for one still going)."""
        if match.ply < self.min_plies:
            return False
        if not self.min_seconds:
            return True
        started = match.started_at or match.created_at
        ended = match.finished_at or timezone.now()
        return (ended - started).total_seconds() >= self.min_seconds

    def consent(self) -> StudyConsent:
        """The current consent text (the latest version)."""
        return self.consents.order_by("-version").first()


class StudyConsent(models.Model):
    """One version of a study's consent text; a participant keeps the version they accepted."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="consents")
    version = models.PositiveIntegerField()
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["study", "version"]
        constraints = [models.UniqueConstraint(fields=["study", "version"], name="study_consent_version_unique")]

    def __str__(self) -> str:
        return f"{self.study.slug} consent v{self.version}"


class Participant(models.Model):
    """One person in one study: pseudonymous code, consent version, answers, assigned order and progress."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="participants")
    #: Pseudonymous id shown in exports ("P…"); random, unrelated to any outside id.
    code = models.CharField(max_length=16, unique=True)
    #: Arrival number in the study (0, 1, …): picks the Latin-square row and the first seat.
    number = models.PositiveIntegerField()
    #: HMAC-SHA256 (site secret key) of the study and the recruiting platform's id, or "" when none came.
    external_id_hash = models.CharField(max_length=64, blank=True, default="")
    consent = models.ForeignKey(StudyConsent, on_delete=models.PROTECT, related_name="participants")
    agent = models.ForeignKey(Agent, null=True, on_delete=models.SET_NULL, related_name="study_participations")
    #: {"experience": {game: "none" | "some" | "expert"}, "questions": {question id: answer}} as answered.
    answers = models.JSONField(default=dict, blank=True)
    answered = models.BooleanField(default=False)
    game_order = models.JSONField(default=list)
    #: The seed of a "random" order (replays it with `design.conditions`); None for the other orders.
    order_seed = models.BigIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    excluded_at = models.DateTimeField(null=True, blank=True)
    exclusion_reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["study", "number"]
        constraints = [
            models.UniqueConstraint(fields=["study", "number"], name="study_participant_number_unique"),
            models.UniqueConstraint(
                fields=["study", "external_id_hash"],
                condition=~models.Q(external_id_hash=""),
                name="study_participant_external_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class Assignment(models.Model):
    """One match a participant is to play, in order: game, opponent, seat; its match once started."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="assignments")
    position = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=40)
    opponent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    #: The match was ended by the rules because the participant stopped moving (`matches_abandoned_end`).
    abandoned = models.BooleanField(default=False)
    #: The uids of this assignment's void matches (the opponent stalled), oldest first. When the last is `match`,
    #: the replays ran out and the assignment is over without a result.
    void_matches = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["participant", "position"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "position"], name="study_assignment_position_unique")
        ]

    def __str__(self) -> str:
        return f"{self.participant.code} #{self.position}"

    def void(self) -> bool:
        """The assignment ended void: its last match was voided and not replayed (the replays ran out)."""
        return self.match is not None and str(self.match.uid) in self.void_matches
