"""People's uploaded programs: their quotas, each build's record, and the agent made from a build that worked.

The build itself runs on a worker (`build_program_task`), in the sandbox (`arena.agents.build`), never in the web
process; these are the record's writers around it.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from arena.models import Agent, AgentVersion, Match, ProgramBuild
from arena.record.agents import agent_create, reserved_slug
from arena.record.errors import ServiceError

#: Uploaded programs one person (not staff) may have, builds they may start in a day, and matches a day their
#: uploaded programs may play together.
MAX_UPLOADED_PROGRAMS = 5
MAX_BUILDS_PER_DAY = 20
MAX_UPLOADED_MATCHES_PER_DAY = 300
#: A build no worker finished this long after its upload is given up as lost (a worker died with it): it no longer
#: holds its author's one build at a time, and its page says so.
BUILD_LOST_AFTER_S = 900


def build_lost(build: ProgramBuild) -> bool:
    """Whether no worker will finish `build` now."""
    return build.built_at is None and build.created_at < timezone.now() - timedelta(seconds=BUILD_LOST_AFTER_S)


def upload_allowed(*, owner, slug: str) -> None:
    """Refuse (ServiceError) an upload `owner` may not build now: a slug taken, or a quota used up."""
    if reason := reserved_slug(slug):
        raise ServiceError(f"{slug[:80]!r} cannot be registered: {reason}; choose another slug.")
    if Agent.objects.filter(slug=slug).exists():
        raise ServiceError(f"An agent called {slug!r} already exists.")
    if owner.is_staff:
        return
    programs = Agent.objects.filter(owner=owner, kind=Agent.Kind.PROGRAM).count()
    if programs >= MAX_UPLOADED_PROGRAMS:
        raise ServiceError(f"At most {MAX_UPLOADED_PROGRAMS} uploaded programs per person.")
    since = timezone.now() - timedelta(days=1)
    if ProgramBuild.objects.filter(owner=owner, created_at__gte=since).count() >= MAX_BUILDS_PER_DAY:
        raise ServiceError(f"At most {MAX_BUILDS_PER_DAY} builds a day per person; try again tomorrow.")


@transaction.atomic
def program_build_queue(
    *,
    owner,
    language: str,
    source: str = "",
    archive: bytes = b"",
    slug: str,
    name: str,
    protocol: str,
    keep_running: bool,
) -> ProgramBuild:
    """Keep an upload (a `source` file or a zip `archive`) for a worker to build (`build_program_task`), once `owner`
    may upload it (else ServiceError)."""
    upload_allowed(owner=owner, slug=slug)
    since = timezone.now() - timedelta(seconds=BUILD_LOST_AFTER_S)
    if ProgramBuild.objects.filter(owner=owner, built_at=None, created_at__gte=since).exists():
        raise ServiceError("Your previous upload is still building; wait for it to finish.")
    wanted = {"slug": slug, "name": name, "protocol": protocol, "keep_running": keep_running}
    return ProgramBuild.objects.create(owner=owner, language=language, source=source, archive=archive, wanted=wanted)


@transaction.atomic
def program_build_finish(*, build: ProgramBuild, artifact: bytes, digest: str, log: str) -> ProgramBuild:
    """Keep what the sandbox built from `build`, whether it worked (`artifact`) or not (its `log` is the compiler's
    messages), and make the agent the upload asked for from a build that worked (unless its slug was taken
    meanwhile: the log says so)."""
    build.artifact, build.digest, build.log, build.ok = artifact, digest, log, bool(artifact)
    build.built_at = timezone.now()
    if build.ok:
        wanted = build.wanted
        try:
            with transaction.atomic():
                build.agent = uploaded_program_create(
                    owner=build.owner,
                    slug=wanted["slug"],
                    name=wanted["name"],
                    build=build,
                    protocol=wanted["protocol"],
                    keep_running=wanted["keep_running"],
                )
        except ServiceError as refused:
            build.log = f"{build.log}\nBuilt, but no agent was made: {refused}".lstrip()
    build.save()
    return build


@transaction.atomic
def uploaded_program_create(
    *, owner, slug: str, name: str, build: ProgramBuild, protocol: str, keep_running: bool
) -> Agent:
    """The agent that plays `build` for its owner: offered to them in the lobby, to others once staff approve it."""
    if not build.ok:
        raise ServiceError("This build failed; fix the source and upload it again.")
    config = {"build": build.digest, "language": build.language, "protocol": protocol}
    if keep_running:
        config["keep_running"] = True
    return agent_create(slug=slug, name=name, kind=Agent.Kind.PROGRAM, config=config, owner=owner)


def uploaded_matches_allowed(versions: list[AgentVersion]) -> None:
    """Refuse (ServiceError) a match seating an uploaded program whose owner's programs played their matches a day."""
    owners = {
        v.agent.owner
        for v in versions
        if v.agent.kind == Agent.Kind.PROGRAM and v.config.get("build") and v.agent.owner and not v.agent.owner.is_staff
    }
    since = timezone.now() - timedelta(days=1)
    for owner in owners:
        played = Match.objects.filter(
            created_at__gte=since,
            seats__agent_version__agent__owner=owner,
            seats__agent_version__agent__kind=Agent.Kind.PROGRAM,
        )
        if played.distinct().count() >= MAX_UPLOADED_MATCHES_PER_DAY:
            raise ServiceError(
                f"{owner}'s uploaded programs played {MAX_UPLOADED_MATCHES_PER_DAY} matches in the last day, "
                "their most; try again later."
            )
