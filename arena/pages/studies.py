"""Study pages: the participant's flow (no account: the share link and the session) and the researcher's (staff)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.pages.study_forms import QuestionnaireForm, StudyForm, study_initial
from arena.record.services import ServiceError
from arena.studies import exports, selectors
from arena.studies.codes import (
    completion_code,
    participant_by_any_code,
    participant_by_withdrawal,
    redirect_for,
    withdrawal_code,
)
from arena.studies.models import Participant, Study
from arena.studies.parquet import as_parquet
from arena.studies.questions import asked
from arena.studies.services import (
    assignment_start,
    participant_answer,
    participant_answer_after,
    participant_exclude,
    participant_include,
    participant_join,
    participant_progress,
    participant_seen,
    participant_withdraw,
    post_pending,
    study_open_set,
    study_save,
)
from games import get_game

SESSION_KEY = "study_participants"
#: The id each participant arrived with (`?pid=`), per study, kept in their session only, for the redirect URL.
PID_SESSION_KEY = "study_pids"


def _staff_only(request: HttpRequest) -> None:
    """Researchers' pages do not exist for anyone else (404, not 403: nothing to learn from the answer)."""
    if not request.user.is_staff:
        raise Http404("No such page.")


def _remember(request: HttpRequest, participant: Participant, pid: str) -> None:
    """This browser is this participant: their study code, the id they came with (passed back to the recruiting
    platform by the redirect URL, never stored in the study's record) and their guest seat for the live pages."""
    slug = participant.study.slug
    request.session[SESSION_KEY] = {**request.session.get(SESSION_KEY, {}), slug: participant.code}
    if pid:
        request.session[PID_SESSION_KEY] = {**request.session.get(PID_SESSION_KEY, {}), slug: pid}
    if participant.agent is not None and not request.user.is_authenticated:
        request.session["guest_agent"] = participant.agent.slug


def _participant(request: HttpRequest, study: Study) -> Participant | None:
    """The participant this browser is in `study`, from its session only: the link's outside id (`?pid=`) joins once
    and never finds a participant again, so knowing someone's id reveals nothing of them."""
    code = request.session.get(SESSION_KEY, {}).get(study.slug)
    return study.participants.filter(code=code).select_related("agent").first() if code else None


def study_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """The share link: consent for a newcomer; a returning participant's progress, or the thank-you page."""
    study = get_object_or_404(Study, slug=slug)
    participant = _participant(request, study)
    if request.method == "POST" and participant is None:
        return _consent_answer(request, study)
    if participant is None:
        if not study.is_open:
            return render(request, "studies/study_closed.html", {"study": study})
        context = {
            "study": study,
            "consent": study.consent(),
            "pid": request.GET.get("pid", ""),
            "focused": study.focused,
        }
        return render(request, "studies/study_consent.html", context)
    participant_seen(participant=participant)
    if not participant.answered:
        return redirect("study-questionnaire", slug=study.slug)
    current = participant_progress(participant=participant)
    participant.refresh_from_db()
    assignments = list(participant.assignments.select_related("match", "opponent"))
    for assignment in assignments:
        rules = get_game(assignment.game)
        assignment.game_name = rules.name
        assignment.seat_name = rules.seat_names[assignment.seat] if assignment.seat < len(rules.seat_names) else ""
        assignment.opponent_name = (
            study.opponent_label(assignment.game, assignment.opponent.slug)
            if study.blind_opponents
            else assignment.opponent.name
        )
    if current is not None:
        current = next(a for a in assignments if a.pk == current.pk)
    context = {
        "study": study,
        "focused": study.focused,
        "participant": participant,
        "assignments": assignments,
        "current": current,
        "withdrawal_code": withdrawal_code(participant),
        "games": [get_game(slug) for slug in participant.game_order],
        "incomplete": selectors.participant_status(participant) == "incomplete",
        "completion_code": completion_code(participant),
        "redirect_url": redirect_for(participant, request.session.get(PID_SESSION_KEY, {}).get(study.slug, "")),
    }
    if current is None and participant.excluded_at is None and post_pending(participant):
        return redirect("study-after", slug=study.slug)
    if current is None or participant.excluded_at is not None:
        return render(request, "studies/study_thanks.html", context)
    return render(request, "studies/study_participant.html", context)


def _consent_answer(request: HttpRequest, study: Study) -> HttpResponse:
    if request.POST.get("answer") != "accept":
        return render(request, "studies/study_declined.html", {"study": study})  # nothing stored, no session
    if request.user.is_authenticated:
        message = "Studies seat you anonymously: log out, or open the link in a private window, to take part."
        return refusal(request, status=409, message=message)
    if wait := limited(request, "study_join") or limited(request, "study_join_per_study", scope=study.slug):
        return refusal(
            request, status=429, message="Too many people joined from here; wait a moment.", retry_after=wait
        )
    pid = request.POST.get("pid", "").strip()[:200]
    try:
        version = int(request.POST.get("consent_version", ""))
        participant = participant_join(study=study, consent_version=version, external_id=pid)
    except (ValueError, ServiceError) as error:
        message = str(error) if isinstance(error, ServiceError) else "Please accept the consent text shown."
        return refusal(request, status=409, message=message)
    _remember(request, participant, pid)
    return redirect("study-entry", slug=study.slug)


def study_questionnaire(request: HttpRequest, slug: str) -> HttpResponse:
    study = get_object_or_404(Study, slug=slug)
    participant = _participant(request, study)
    if participant is None:
        return redirect("study-entry", slug=study.slug)
    games = [(game, get_game(game).name) for game in study.games()] if study.questionnaire else []
    form = QuestionnaireForm(request.POST or None, games=games, questions=asked(study.questions, "pre"))
    if request.method == "POST" and form.is_valid():
        try:
            participant_answer(participant=participant, experience=form.experience(), answers=form.answers())
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return redirect("study-entry", slug=study.slug)
    context = {"study": study, "form": form, "focused": study.focused, "heading": "Before you play"}
    return render(request, "studies/study_questionnaire.html", context)


def study_after(request: HttpRequest, slug: str) -> HttpResponse:
    """The study's "post" questions, once every assigned match has ended."""
    study = get_object_or_404(Study, slug=slug)
    participant = _participant(request, study)
    if participant is None or not post_pending(participant) or participant_progress(participant=participant):
        return redirect("study-entry", slug=study.slug)  # nobody's, answered, or matches still to play
    form = QuestionnaireForm(request.POST or None, games=[], questions=asked(study.questions, "post"))
    if request.method == "POST" and form.is_valid():
        try:
            participant_answer_after(participant=participant, answers=form.answers())
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return redirect("study-entry", slug=study.slug)
    context = {"study": study, "form": form, "focused": study.focused, "heading": "A few questions to finish"}
    return render(request, "studies/study_questionnaire.html", context)


@require_POST
def study_next(request: HttpRequest, slug: str) -> HttpResponse:
    """Start (or continue) the participant's current assigned match on the normal live page."""
    study = get_object_or_404(Study, slug=slug)
    participant = _participant(request, study)
    if participant is None:
        return redirect("study-entry", slug=study.slug)
    try:
        match = assignment_start(participant=participant)
    except ServiceError as error:
        messages.info(request, str(error))
        return redirect("study-entry", slug=study.slug)
    return redirect("play-match", pk=match.pk)


def study_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    """Delete one's participation with the personal code from the thank-you page (matches stay, anonymous)."""
    study = get_object_or_404(Study, slug=slug)
    done = False
    if request.method == "POST":
        if wait := limited(request, "study_withdraw"):
            message = "Too many withdrawal codes tried from here; wait a moment."
            return refusal(request, status=429, message=message, retry_after=wait)
        participant = participant_by_withdrawal(study=study, code=request.POST.get("code", ""))
        if participant is None:
            messages.error(request, "That code does not match any participant of this study.")
        else:
            participant_withdraw(participant=participant)
            request.session.pop("guest_agent", None)
            for key in (SESSION_KEY, PID_SESSION_KEY):
                request.session[key] = {k: v for k, v in request.session.get(key, {}).items() if k != study.slug}
            done = True
    return render(request, "studies/study_withdraw.html", {"study": study, "done": done, "focused": study.focused})


# The researcher's pages (staff).


def _up_to_date(study: Study) -> Study:
    """The study with its participants' progress brought up to date (matches that ended since their last visit)."""
    for participant in study.participants.filter(completed_at__isnull=True, agent__isnull=False):
        participant_progress(participant=participant)
    return study


def study_list(request: HttpRequest) -> HttpResponse:
    _staff_only(request)
    studies = Study.objects.all()
    return render(request, "studies/study_list.html", {"studies": studies})


def study_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    _staff_only(request)
    study = get_object_or_404(Study, slug=slug) if slug else None
    form = StudyForm(request.POST or None, initial=study_initial(study) if study else None)
    if study:
        form.fields["slug"].disabled = True
    if request.method == "POST" and form.is_valid():
        fields = form.study_fields()
        if study is None and Study.objects.filter(slug=fields["slug"]).exists():
            form.add_error("slug", "A study with this slug exists.")
        else:
            try:
                study = study_save(
                    study=study, consent_text=form.cleaned_data["consent_text"], created_by=request.user, **fields
                )
            except ServiceError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, f"Saved. Share link: /studies/{study.slug}/")
                return redirect("study-results", slug=study.slug)
    return render(request, "studies/study_form.html", {"form": form, "study": study})


def study_results(request: HttpRequest, slug: str) -> HttpResponse:
    _staff_only(request)
    study = _up_to_date(get_object_or_404(Study, slug=slug))
    table = selectors.participants_table(study)
    counts = selectors.participant_counts(study, table)
    context = {
        "study": study,
        "participants": table,
        "counts": counts,
        "results": selectors.results_by_opponent(study),
        "by_experience": selectors.results_by_experience(study),
        "baselines": selectors.baselines(study),
        "share_link": request.build_absolute_uri(f"/studies/{study.slug}/"),
        "consent": study.consent(),
    }
    return render(request, "studies/study_results.html", context)


@require_POST
def study_open(request: HttpRequest, slug: str) -> HttpResponse:
    _staff_only(request)
    study = get_object_or_404(Study, slug=slug)
    study_open_set(study=study, is_open=request.POST.get("is_open") == "1")
    return redirect("study-results", slug=study.slug)


@require_POST
def participant_exclude_view(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    _staff_only(request)
    participant = get_object_or_404(Participant, study__slug=slug, code=code)
    try:
        if request.POST.get("include"):
            participant_include(participant=participant)
        else:
            participant_exclude(participant=participant, reason=request.POST.get("reason", ""))
    except ServiceError as error:
        messages.error(request, str(error))
    return redirect("study-results", slug=slug)


@require_POST
def participant_delete_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Delete a participant's record at their request, named by any code the researcher sees (as a withdrawal)."""
    _staff_only(request)
    study = get_object_or_404(Study, slug=slug)
    participant = participant_by_any_code(study=study, code=request.POST.get("code", ""))
    if participant is None:
        messages.error(request, "No participant of this study has that code; nothing was deleted.")
    else:
        participant_withdraw(participant=participant)
        messages.success(request, f"Deleted participant {participant.code}'s record (counted as withdrawn).")
    return redirect("study-results", slug=study.slug)


def study_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The protocol and aggregate results (`export.json`), or the per-participant table (`export.csv`, `.jsonl`,
    `.parquet`)."""
    _staff_only(request)
    if fmt == "json":  # the protocol and the aggregate results, nothing per participant
        study = _up_to_date(get_object_or_404(Study, slug=slug))
        response = HttpResponse(json.dumps(selectors.protocol(study), indent=2), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="study-{study.slug}.json"'
        return response
    if fmt == "jsonl":  # one record per participant, their matches nested
        study = _up_to_date(get_object_or_404(Study, slug=slug))
        records = exports.participant_records(study)
        response = HttpResponse(exports.as_jsonl(records), content_type="application/x-ndjson")
        response["Content-Disposition"] = f'attachment; filename="study-{study.slug}.jsonl"'
        return response
    return study_table(request, slug, "participants", fmt)


def study_table(request: HttpRequest, slug: str, table: str, fmt: str) -> HttpResponse:
    """One of the study's tables (participants, matches, decisions, answers) as CSV, JSON lines or Parquet."""
    _staff_only(request)
    if table not in exports.TABLES or fmt not in ("csv", "jsonl", "parquet"):
        raise Http404("Study tables are participants, matches, decisions or answers, as .csv, .jsonl or .parquet.")
    study = _up_to_date(get_object_or_404(Study, slug=slug))
    rows = {
        "participants": exports.participant_rows,
        "matches": exports.match_rows,
        "decisions": exports.decision_rows,
        "answers": exports.answer_rows,
    }[table](study)
    if fmt == "csv":
        response = HttpResponse(exports.as_csv(rows, exports.TABLES[table]), content_type="text/csv")
    elif fmt == "parquet":
        response = HttpResponse(as_parquet(rows, table), content_type="application/vnd.apache.parquet")
    else:
        response = HttpResponse(exports.as_jsonl(rows), content_type="application/x-ndjson")
    response["Content-Disposition"] = f'attachment; filename="study-{study.slug}-{table}.{fmt}"'
    return response
