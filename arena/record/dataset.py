"""The research dataset: JSONL export of the record, and its validated, idempotent import.

Line 1 is the manifest; every other line is one record: an agent (with its versions), a match
(with its seats), a decision (with its attempts) or an annotation. Matches are keyed by their
global uid, so importing a file twice adds nothing the second time. People appear only when they
consented to baseline use, under their slug; annotators appear under a pseudonym.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone

from arena.models import Agent, AgentVersion, Annotation, AnnotationTag, Attempt, Decision, Match, Seat
from arena.record.agents import public_config, secret_keys_in
from arena.record.selectors import matches_filtered
from arena.record.versions import code_version
from arena.record.visibility import matches_without_secrets
from games import IllegalAction, UnknownGame, get_game

FORMAT = "arena-dataset/1"
ATTEMPT_FIELDS = [
    "number", "messages", "raw_text", "reasoning_text", "parsed_action", "verdict", "message", "transient",
    "latency_ms", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost", "model_reported",
]  # fmt: skip
DECISION_FIELDS = [
    "ply", "seat", "round", "state_before", "action_text", "action", "revised", "plan_similarity", "elapsed_ms",
    "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost", "fallback",
]  # fmt: skip
#: Largest file import_dataset reads (bytes), so a hostile upload cannot exhaust memory.
MAX_IMPORT_BYTES = 512 * 1024 * 1024


def exportable_matches(
    *, game: str = "", agent: str = "", tournament: str = "", since: datetime | None = None, until=None
) -> QuerySet[Match]:
    """Finished matches matching the filters, without people who withheld baseline consent, nor those whose
    seed still matters to a match that can be played (`matches_without_secrets`)."""
    finished = matches_without_secrets(Match.objects.filter(status=Match.Status.FINISHED))
    matches = matches_filtered(finished, game=game, agent=agent, tournament=tournament, since=since, until=until)
    withheld = Q(seats__agent_version__agent__kind=Agent.Kind.HUMAN) & ~Q(
        seats__agent_version__agent__baseline_consent=True
    )
    return matches.exclude(pk__in=Match.objects.filter(withheld).values("pk")).distinct().order_by("pk")


def _pseudonym(user) -> str:
    return "annotator-" + hashlib.sha256(f"arena:{user.pk}:{user.get_username()}".encode()).hexdigest()[:10]


def _records(matches: QuerySet[Match]) -> Iterator[dict[str, Any]]:
    versions = AgentVersion.objects.filter(seats__match__in=matches).select_related("agent").distinct()
    by_agent: dict[Agent, list[AgentVersion]] = {}
    for version in versions.order_by("agent__slug", "number"):
        by_agent.setdefault(version.agent, []).append(version)
    for agent, agent_versions in by_agent.items():
        yield {
            "type": "agent",
            "slug": agent.slug,
            "name": agent.name,
            "kind": agent.kind,
            "game": agent.game,
            "description": agent.description,
            "versions": [{"number": v.number, "config": public_config(v.config)} for v in agent_versions],
        }
    # One match at a time (its seats, decisions and attempts by their own queries), so memory stays flat.
    for match in matches.iterator(chunk_size=100):
        yield {
            "type": "match",
            "uid": str(match.uid),
            "game": match.game,
            "options": match.options,
            "seed": match.seed,
            "scores": match.scores,
            "termination": match.termination,
            "record": match.record,
            "ply": match.ply,
            "final_state": match.state,
            "started_at": match.started_at.isoformat() if match.started_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
            "seats": [
                {"index": s.index, "agent": s.agent_version.agent.slug, "version": s.agent_version.number}
                for s in match.seats.select_related("agent_version__agent").order_by("index")
            ],
        }
        attempts_by_ply: dict[int, list[Attempt]] = {}
        for attempt in match.attempts.order_by("ply", "seat", "number"):
            attempts_by_ply.setdefault(attempt.ply, []).append(attempt)
        for decision in match.decisions.order_by("ply"):
            yield {
                "type": "decision",
                "match": str(match.uid),
                **{name: getattr(decision, name) for name in DECISION_FIELDS},
                "attempts": [{n: getattr(a, n) for n in ATTEMPT_FIELDS} for a in attempts_by_ply.get(decision.ply, [])],
            }
    annotations = Annotation.objects.filter(decision__match__in=matches).select_related("decision__match", "author")
    for annotation in annotations.prefetch_related("tags").order_by("pk"):
        yield {
            "type": "annotation",
            "match": str(annotation.decision.match.uid),
            "ply": annotation.decision.ply,
            "author": _pseudonym(annotation.author),
            "glyph": annotation.glyph,
            "tags": sorted(t.slug for t in annotation.tags.all()),
            "comment": annotation.comment,
        }


def export_dataset(out: IO[str], *, filters: dict[str, Any] | None = None, **query: Any) -> dict[str, Any]:
    """Write the manifest line and then every record to `out`; returns the manifest.

    The records go to a temporary file first (the manifest, which comes first, needs their checksum), so
    memory stays flat however large the export."""
    matches = exportable_matches(**query)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as body:
        counts, digest = {}, hashlib.sha256()
        for record in _records(matches):
            line = json.dumps(record, sort_keys=True, ensure_ascii=False)
            digest.update(line.encode() + b"\n")
            counts[record["type"]] = counts.get(record["type"], 0) + 1
            body.write(line + "\n")
        manifest = _manifest(matches, filters, counts, digest.hexdigest())
        out.write(json.dumps(manifest, sort_keys=True) + "\n")
        body.seek(0)
        shutil.copyfileobj(body, out)
    return manifest


def _manifest(matches: QuerySet[Match], filters: dict[str, Any] | None, counts: dict[str, int], sha256: str) -> dict:
    games = sorted(set(matches.values_list("game", flat=True)))
    return {
        "type": "manifest",
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "code_version": code_version(),
        "game_versions": {slug: get_game(slug).version for slug in games},
        "prompt_versions": sorted({str(v) for v in matches.values_list("record__prompt_version", flat=True)}),
        "seeds": sorted(set(matches.values_list("seed", flat=True))),
        "filters": filters or {},
        "counts": counts,
        "sha256": sha256,
    }


def max_cached_exports() -> int:
    return int(getattr(settings, "ARENA_DATASET_CACHE_FILES", 8))


def _export_key(filters: dict[str, str]) -> str:
    """Names an export by its filters and by what it covers: a match finishing, a person's consent changing
    or an annotation being added or edited changes the key, so a cached file is never out of date."""
    matches = exportable_matches(**filters)
    covered = matches.aggregate(n=Count("pk", distinct=True), newest=Max("pk"), last=Max("finished_at"))
    notes = Annotation.objects.filter(decision__match__in=matches).aggregate(
        n=Count("pk", distinct=True), newest=Max("pk"), edited=Max("updated_at")
    )
    text = json.dumps([FORMAT, code_version(), sorted(filters.items()), covered, notes], default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def cached_export(*, filters: dict[str, str]) -> IO[bytes]:
    """The export for `filters` as an open file: the cached one when nothing it covers changed, else a new one.

    One export is built at a time on this machine (a file lock in the cache's directory, held by threads and
    processes alike): requests that arrive while the file for their state is being built wait for it and serve
    it, so N concurrent downloads at one state cost one build. At most ARENA_DATASET_CACHE_FILES files are kept
    in ARENA_VAR_DIR/datasets (least recently served go first); a file deleted while being served stays
    readable through its open handle."""
    directory = Path(settings.VAR_DIR) / "datasets"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{_export_key(filters)}.jsonl"
    if handle := _cached(path):
        return handle
    with _one_build_at_a_time(directory):
        if handle := _cached(path):  # built while this request waited
            return handle
        descriptor, part = tempfile.mkstemp(dir=directory, suffix=".part")
        try:
            with open(descriptor, "w", encoding="utf-8") as out:
                export_dataset(out, filters=filters, **filters)
            os.replace(part, path)  # whole files only: a reader finds none or a finished one
        finally:
            Path(part).unlink(missing_ok=True)
        handle = path.open("rb")
    cached = sorted(directory.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in cached[max_cached_exports() :]:
        stale.unlink(missing_ok=True)
    return handle


def _cached(path: Path) -> IO[bytes] | None:
    """The cached file at `path`, opened and marked as just served; None when there is none."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return None
    os.utime(path)
    return handle


@contextmanager
def _one_build_at_a_time(directory: Path) -> Iterator[None]:
    """Hold the cache's build lock: an exclusive `flock` on one file that is never deleted (each open file
    description locks on its own, so threads of one process exclude each other as processes do)."""
    with open(directory / "build.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@dataclass
class ImportReport:
    """What an import added, what it already had, and what it turned down and why."""

    added: dict[str, int] = field(default_factory=dict)
    already_present: int = 0
    rejected: list[str] = field(default_factory=list)

    def count(self, kind: str) -> None:
        self.added[kind] = self.added.get(kind, 0) + 1


class DatasetError(ValueError):
    """The file as a whole cannot be imported (bad manifest, checksum, size)."""


def _read(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The records after a valid manifest whose checksum matches them; DatasetError otherwise."""
    iterator = iter(lines)
    try:
        manifest = json.loads(next(iterator))
    except (StopIteration, json.JSONDecodeError):
        raise DatasetError("The first line must be the JSON manifest.") from None
    if manifest.get("type") != "manifest" or manifest.get("format") != FORMAT:
        raise DatasetError(f"Not an Arena dataset (expected format {FORMAT}).")
    digest, records = hashlib.sha256(), []
    for number, line in enumerate(iterator, start=2):
        digest.update(line.rstrip("\n").encode() + b"\n")
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            raise DatasetError(f"Line {number} is not JSON.") from None
    if digest.hexdigest() != manifest.get("sha256"):
        raise DatasetError("Checksum mismatch: the file was changed or truncated after export.")
    return records


def import_dataset(lines: Iterable[str]) -> ImportReport:
    """Load an exported dataset. Valid matches are added whole (replayed and checked first); bad ones are reported."""
    records = _read(lines)
    report = ImportReport()
    decisions: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("type") == "decision":
            decisions.setdefault(str(record.get("match")), []).append(record)
    versions: dict[tuple[str, int], AgentVersion] = {}
    for record in (r for r in records if r.get("type") == "agent"):
        try:
            versions.update(_import_agent(record, report))
        except (KeyError, TypeError, ValueError) as error:
            report.rejected.append(f"agent {record.get('slug')!r}: {error}")
    for record in (r for r in records if r.get("type") == "match"):
        uid = str(record.get("uid"))
        if Match.objects.filter(uid=uid).exists():
            report.already_present += 1
            continue
        try:
            with transaction.atomic():
                _import_match(record, decisions.get(uid, []), versions)
            report.count("match")
        except (KeyError, TypeError, ValueError, IllegalAction, UnknownGame) as error:
            report.rejected.append(f"match {uid}: {error}")
    for record in (r for r in records if r.get("type") == "annotation"):
        try:
            if _import_annotation(record):
                report.count("annotation")
        except (KeyError, TypeError, ValueError) as error:
            report.rejected.append(f"annotation on match {record.get('match')}: {error}")
    return report


def _import_agent(record: dict[str, Any], report: ImportReport) -> dict[tuple[str, int], AgentVersion]:
    slug = str(record["slug"])
    if record["kind"] not in Agent.Kind.values:
        raise ValueError(f"unknown kind {record['kind']!r}")
    agent, created = Agent.objects.get_or_create(
        slug=slug,
        defaults={"name": record["name"], "kind": record["kind"], "game": record.get("game", ""),
                  "description": record.get("description", "")},
    )  # fmt: skip
    if created:
        report.count("agent")
    if agent.kind != record["kind"]:
        raise ValueError(f"exists here as a {agent.kind}, not a {record['kind']}")
    found = {}
    for entry in record["versions"]:
        config = dict(entry["config"])
        if secret_keys_in(config):
            raise ValueError("a config carries a secret-looking field; refused")
        version, made = AgentVersion.objects.get_or_create(
            agent=agent, number=int(entry["number"]), defaults={"config": config}
        )
        if not made and version.config != config:
            raise ValueError(f"version {entry['number']} differs from this instance's")
        found[(slug, version.number)] = version
    return found


def _import_match(record: dict[str, Any], decisions: list[dict[str, Any]], versions) -> None:
    game = get_game(record["game"])
    state = game.initial_state(seed=int(record["seed"]), **record["options"])
    decisions = sorted(decisions, key=lambda d: d["ply"])
    if [d["ply"] for d in decisions] != list(range(len(decisions))) or len(decisions) != record["ply"]:
        raise ValueError("its decisions are not plies 0..n-1")
    for decision in decisions:
        if game.to_json(state) != decision["state_before"]:
            raise ValueError(f"the state before ply {decision['ply']} does not follow from the moves")
        state = game.apply(state, game.action_from_json(decision["action"]))
    outcome = game.outcome(state)
    if game.to_json(state) != record["final_state"] or outcome is None or list(outcome.scores) != record["scores"]:
        raise ValueError("replaying its moves does not give its final state and result")
    seats = [(s["index"], versions.get((s["agent"], int(s["version"])))) for s in record["seats"]]
    if any(version is None for _, version in seats):
        raise ValueError("a seat names an agent version that is not in the file")
    match = Match.objects.create(
        uid=record["uid"], game=game.slug, options=record["options"], seed=int(record["seed"]),
        status=Match.Status.FINISHED, scores=record["scores"], termination=record["termination"],
        record={**record["record"], "imported": True}, ply=record["ply"], state=record["final_state"],
        started_at=record.get("started_at"), finished_at=record.get("finished_at"),
    )  # fmt: skip
    Seat.objects.bulk_create(
        Seat(match=match, index=index, agent_version=version, score=record["scores"][index]) for index, version in seats
    )
    for data in decisions:
        decision = Decision.objects.create(match=match, **{name: data[name] for name in DECISION_FIELDS})
        Attempt.objects.bulk_create(
            Attempt(
                match=match,
                decision=decision,
                ply=decision.ply,
                seat=decision.seat,
                **{n: a[n] for n in ATTEMPT_FIELDS},
            )
            for a in data["attempts"]
        )


def _import_annotation(record: dict[str, Any]) -> bool:
    decision = Decision.objects.filter(match__uid=record["match"], ply=int(record["ply"])).first()
    if decision is None:
        raise ValueError("its decision is not here")
    author, _ = get_user_model().objects.get_or_create(
        username=str(record["author"])[:150], defaults={"is_active": False}
    )
    if Annotation.objects.filter(decision=decision, author=author).exists():
        return False
    annotation = Annotation.objects.create(
        decision=decision, author=author, glyph=record.get("glyph", ""), comment=str(record.get("comment", ""))[:5000]
    )
    annotation.tags.set(AnnotationTag.objects.filter(slug__in=record.get("tags", [])))
    return True
