"""The match record: agent → version → seat → match → decision → attempt (docs/architecture.md, The record).

Everything the site shows (leaderboards, replays, analysis) is a read of these tables.
Only the record's services write them: `arena.record.services` (matches) and `arena.record.agents` (agents).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Agent(models.Model):
    """Anyone or anything that takes a seat: a person, a bot, or an LLM configuration."""

    class Kind(models.TextChoices):
        HUMAN = "human", "person"
        BOT = "bot", "bot"
        LLM = "llm", "model"
        PROGRAM = "program", "program"
        REMOTE = "remote", "remote agent"
        UCI = "uci", "UCI engine"

    slug = models.SlugField(max_length=80, unique=True, help_text="Used in URLs, the CLI and exports.")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    #: The one game this agent plays (bots), or "" when it can play any game.
    game = models.CharField(max_length=40, blank=True, default="")
    description = models.TextField(blank=True, default="")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="agent"
    )
    #: Outside agents made through the API: the account that registered them (and may change them).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="owned_agents"
    )
    #: People only: may their games be used as human-baseline data? None until they choose.
    baseline_consent = models.BooleanField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    #: Offered to everyone in the lobby. The operator's and staff's own agents are; others once staff approve them.
    approved = models.BooleanField(
        default=False, help_text="Offered to everyone in the lobby (otherwise only to its owner). Set by staff."
    )
    #: Programs only: Botzone's `globaldata`, what the program keeps for all its future turns and matches.
    program_globaldata = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "slug"]

    def __str__(self) -> str:
        return self.slug

    def current_version(self) -> AgentVersion:
        return self.versions.order_by("-number").first()


class AgentVersion(models.Model):
    """One exact configuration of an agent. Once it has played it never changes."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    config = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["agent", "number"]
        constraints = [models.UniqueConstraint(fields=["agent", "number"], name="agent_version_unique")]

    def __str__(self) -> str:
        return f"{self.agent.slug} v{self.number}"


class ProgramBuild(models.Model):
    """A person's uploaded program: its source, the language it was built as, and what the sandbox built from it.

    Queued by the upload page and built by a worker (`build_program_task`): `built_at` is empty until then."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="program_builds")
    language = models.CharField(max_length=12)
    #: The uploaded source file, or empty when a zip archive was uploaded instead (`archive`).
    source = models.TextField(blank=True, default="")
    archive = models.BinaryField(blank=True, default=b"")
    #: The agent the upload asks for once built: its slug, name, protocol and keep_running.
    wanted = models.JSONField(default=dict, blank=True)
    #: The agent made from this build (empty while building, when it failed, or when the slug was taken meanwhile).
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="builds")
    #: The built program (a binary, a jar, or the Python source), empty when the build failed.
    artifact = models.BinaryField(blank=True, default=b"")
    #: SHA-256 of the artifact: where a worker keeps it on disk (arena.agents.build).
    digest = models.CharField(max_length=64, blank=True, default="", db_index=True)
    #: The compiler's messages (stderr), shown to the owner.
    log = models.TextField(blank=True, default="")
    ok = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    #: When a worker finished building it (empty: queued or building).
    built_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.language} build {self.pk} by {self.owner}"


class Tournament(models.Model):
    """A schedule of matches between agents, run locally or by workers."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        LADDER = "ladder", "ladder evaluation"
        ADVERSARIAL = "adversarial", "adversarial matrix"
        ADAPTIVE = "adaptive", "adaptive (narrowest intervals)"

    class Status(models.TextChoices):
        CREATED = "created"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=160)
    format = models.CharField(max_length=20, choices=Format.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CREATED)
    #: Games, seeds, games per seat, policies: everything needed to re-create the schedule.
    config = models.JSONField(default=dict)
    entrants = models.ManyToManyField(AgentVersion, related_name="tournaments")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.slug

    @property
    def fixed_seeds(self) -> bool:
        """True when it plays consecutive seeds asked for to reproduce a run: anyone who knows them knows the deals."""
        return self.config.get("first_seed") is not None


class Match(models.Model):
    """One game between seated agents, with everything needed to reproduce it."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        FINISHED = "finished"
        ABORTED = "aborted"

    #: Global identity across instances: exports and imports use it, so importing twice adds nothing.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    game = models.CharField(max_length=40, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    #: Per-seat scores (1 win, 0.5 draw, 0 loss) once finished.
    scores = models.JSONField(null=True, blank=True)
    termination = models.CharField(max_length=200, blank=True, default="")
    #: Frozen reproducibility record: game and code versions, policies, budgets.
    record = models.JSONField(default=dict, blank=True)
    ply = models.PositiveIntegerField(default=0, help_text="Decisions recorded so far.")
    state = models.JSONField(null=True, blank=True, help_text="Current (or final) game state.")
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="matches")
    #: The other half of a duplicate pair: same seed and deals, seats swapped.
    duplicate_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    #: Which worker runs it now, and when it last proved it was alive.
    claimed_by = models.CharField(max_length=80, blank=True, default="")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    #: A match whose model server is not answering waits, held by nobody, until this instant (arena.record.turns).
    paused_until = models.DateTimeField(null=True, blank=True, db_index=True)
    #: The outage it waits out: {"reason", "since" (ISO instant of its first pause), "delay_s" (the last wait)};
    #: cleared by the next decision recorded.
    pause = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game})"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    agent_version = models.ForeignKey(AgentVersion, on_delete=models.PROTECT, related_name="seats")
    score = models.FloatField(null=True, blank=True)
    #: Programs only: Botzone's `data` for this seat's next turn, and the program's own answers where Arena
    #: played another move for it, by turn (`arena.record.program_memory`).
    program_memory = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.index} {self.agent_version}"


class Decision(models.Model):
    """One applied action. Unique per (match, ply): a decision is never recorded twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="decisions")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Plan games: the revision round.")
    state_before = models.JSONField()
    action_text = models.TextField()
    action = models.JSONField()
    revised = models.BooleanField(null=True, blank=True)
    plan_similarity = models.FloatField(null=True, blank=True)
    elapsed_ms = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    reasoning_tokens = models.PositiveIntegerField(default=0)
    cost = models.FloatField(default=0.0)
    #: "" when the agent chose; else the policy that chose for it ("random_legal", "forfeit").
    fallback = models.CharField(max_length=20, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="decision_unique_ply")]

    def __str__(self) -> str:
        return f"{self.match_id}@{self.ply}: {self.action_text}"


class Attempt(models.Model):
    """One try at a decision: an LLM call, or a person's rejected move."""

    class Verdict(models.TextChoices):
        OK = "ok"
        UNPARSEABLE = "unparseable"
        ILLEGAL = "illegal"
        TIMEOUT = "timeout"
        API_ERROR = "api_error", "API error"
        OVER_BUDGET = "over_budget", "over budget"
        CRASHED = "crashed"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="attempts")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    decision = models.ForeignKey(Decision, null=True, blank=True, on_delete=models.CASCADE, related_name="attempts")
    messages = models.JSONField(default=list, blank=True)
    raw_text = models.TextField(blank=True, default="")
    reasoning_text = models.TextField(blank=True, default="")
    parsed_action = models.TextField(blank=True, default="")
    verdict = models.CharField(max_length=12, choices=Verdict.choices)
    message = models.TextField(blank=True, default="")
    #: Provider trouble (429, 5xx, connection) rather than the agent's own mistake.
    transient = models.BooleanField(default=False)
    latency_ms = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    reasoning_tokens = models.PositiveIntegerField(default=0)
    cost = models.FloatField(default=0.0)
    model_reported = models.CharField(max_length=200, blank=True, default="")
    #: People only: rejected moves after this one at the same decision, counted but not stored
    #: (a decision keeps at most ARENA_PLAY_LIMITS["rejected_tries_kept"] of them).
    unstored_rejections = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "ply", "seat", "number"], name="attempt_unique_number")]

    def __str__(self) -> str:
        return f"{self.match_id}@{self.ply} try {self.number}: {self.verdict}"


class Challenge(models.Model):
    """An open invitation from a person to play a game; accepting it creates the match."""

    creator = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="challenges")
    game = models.CharField(max_length=40)
    #: The creator's seat: 0, 1, or None for a random draw when accepted.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    move_time_limit_s = models.PositiveIntegerField(null=True, blank=True)
    #: A variant of the game (Game.variants), "" for the standard rules.
    variant = models.CharField(max_length=40, blank=True, default="")
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.creator.slug} challenges ({self.game})"


class AnnotationTag(models.Model):
    """One entry of the annotation taxonomy (editable by staff in the admin)."""

    slug = models.SlugField(max_length=40, unique=True)
    label = models.CharField(max_length=80)
    description = models.CharField(max_length=200, blank=True, default="")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["label"]

    def __str__(self) -> str:
        return self.label


class Annotation(models.Model):
    """A person's judgement of one decision: a glyph, tags and a comment. One per person per decision."""

    GLYPHS = [("!!", "!! brilliant"), ("!", "! good"), ("!?", "!? interesting"), ("?!", "?! dubious"),
              ("?", "? mistake"), ("??", "?? blunder")]  # fmt: skip

    decision = models.ForeignKey(Decision, on_delete=models.CASCADE, related_name="annotations")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="annotations")
    glyph = models.CharField(max_length=2, choices=GLYPHS, blank=True, default="")
    tags = models.ManyToManyField(AnnotationTag, blank=True, related_name="annotations")
    comment = models.TextField(blank=True, default="", max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [models.UniqueConstraint(fields=["decision", "author"], name="annotation_one_per_author")]

    def __str__(self) -> str:
        return f"{self.author} on {self.decision}"


class ApiToken(models.Model):
    """A person's key to the API: scoped, revocable, and kept only as a SHA-256 digest."""

    class Scope(models.TextChoices):
        AGENTS = "agents", "create agents and versions"
        TOURNAMENTS = "tournaments", "start tournaments and ladder climbs"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=80)
    #: The token's first characters, shown so a person can tell their tokens apart (not enough to use one).
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… ({self.name})"
