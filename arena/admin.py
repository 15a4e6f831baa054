from django.contrib import admin

from arena.models import (
    Agent,
    AgentVersion,
    Annotation,
    AnnotationTag,
    Attempt,
    Challenge,
    Decision,
    Match,
    Seat,
    Tournament,
)


class AgentVersionInline(admin.TabularInline):
    model = AgentVersion
    extra = 0
    readonly_fields = ["number", "config", "created_at"]


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "kind", "game", "owner", "approved", "is_active", "created_at"]
    list_editable = ["approved", "is_active"]  # untick is_active: a program plays no more moves, at once
    list_filter = ["approved", "kind", "game", "is_active"]
    search_fields = ["slug", "name"]
    inlines = [AgentVersionInline]


@admin.register(AgentVersion)
class AgentVersionAdmin(admin.ModelAdmin):
    list_display = ["agent", "number", "created_at"]
    list_filter = ["agent__kind"]
    search_fields = ["agent__slug"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["agent_version"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "seed", "ply", "termination", "tournament", "created_at"]
    list_filter = ["status", "game", "tournament"]
    search_fields = ["id", "seats__agent_version__agent__slug"]
    raw_id_fields = ["tournament", "duplicate_of"]
    inlines = [SeatInline]


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ["match", "ply", "seat", "action_text", "elapsed_ms", "fallback"]
    list_filter = ["match__game", "fallback"]
    raw_id_fields = ["match"]


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ["match", "ply", "seat", "number", "verdict", "transient", "latency_ms"]
    list_filter = ["verdict", "transient", "match__game"]
    raw_id_fields = ["match", "decision"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "format", "status", "created_at"]
    list_filter = ["format", "status"]
    filter_horizontal = ["entrants"]


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["creator", "game", "seat", "match", "created_at"]
    list_filter = ["game"]
    raw_id_fields = ["creator", "match"]


@admin.register(AnnotationTag)
class AnnotationTagAdmin(admin.ModelAdmin):
    list_display = ["label", "slug", "is_active"]
    list_filter = ["is_active"]
    prepopulated_fields = {"slug": ["label"]}


@admin.register(Annotation)
class AnnotationAdmin(admin.ModelAdmin):
    list_display = ["decision", "author", "glyph", "updated_at"]
    list_filter = ["glyph", "tags"]
    raw_id_fields = ["decision"]
    search_fields = ["comment", "author__username"]
