"""The upload page: a signed-in person sends a program's source (one file or a zip), a worker builds it in the
sandbox, and it plays.

The web process never runs the compiler: the upload is queued (`build_program_task`) and its page polls until the
worker is done. A build that fails shows its compiler's messages to its author; one that works becomes a program
agent owned by them (offered to them in the lobby, to everyone once staff approve it; staff disable it in the admin).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from arena.agents import build
from arena.agents.program import PROTOCOLS
from arena.models import ProgramBuild
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.errors import ServiceError
from arena.record.uploads import build_lost, program_build_queue
from arena.runner.tasks import program_build_enqueue


class ProgramUploadForm(forms.Form):
    slug = forms.SlugField(max_length=80, help_text="Used in URLs, the CLI and exports; cannot change later.")
    name = forms.CharField(max_length=120)
    language = forms.ChoiceField(choices=[(key, spec.label) for key, spec in build.LANGUAGES.items()])
    protocol = forms.ChoiceField(
        choices=[("botzone", "JSON (botzone)"), ("botzone-simple", "simple interaction, text (botzone-simple)")],
        initial="botzone",
    )
    keep_running = forms.BooleanField(required=False, help_text="Botzone's keep-running mode.")
    source = forms.FileField(
        help_text=f"One source file, at most {build.MAX_SOURCE_BYTES:,} bytes of UTF-8 text, or a zip archive of "
        f"several (at most {build.MAX_ARCHIVE_BYTES:,} bytes; C and C++ build every source in it, Python runs its "
        "main.py, Java its class Main)."
    )

    def clean_protocol(self) -> str:
        protocol = self.cleaned_data["protocol"]
        if protocol not in PROTOCOLS:
            raise forms.ValidationError(f"Choose one of {', '.join(PROTOCOLS)}.")
        return protocol

    def clean(self) -> dict:
        """The upload as `source` (text) or `archive` (a zip, checked against the language's build)."""
        data = super().clean()
        upload, language = data.get("source"), data.get("language")
        if upload is None or language is None:
            return data
        if upload.size > build.MAX_ARCHIVE_BYTES:
            self.add_error(
                "source",
                f"The file is {upload.size:,} bytes; at most {build.MAX_SOURCE_BYTES:,} for a source file or "
                f"{build.MAX_ARCHIVE_BYTES:,} for a zip archive.",
            )
            return data
        content = upload.read()
        if content.startswith(b"PK"):
            data["source"], data["archive"] = "", content
            if problem := build.archive_problem(language, content):
                self.add_error("source", problem)
            return data
        if len(content) > build.MAX_SOURCE_BYTES:
            self.add_error("source", f"The source is {len(content):,} bytes; at most {build.MAX_SOURCE_BYTES:,}.")
            return data
        try:
            data["source"], data["archive"] = content.decode("utf-8"), b""
        except UnicodeDecodeError:
            self.add_error("source", "The source should be UTF-8 text, or a zip archive.")
        return data


@login_required
def program_upload(request: HttpRequest) -> HttpResponse:
    """Upload a program's source: queued for a worker to build in the sandbox, then shown building."""
    form = ProgramUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and (wait := limited(request, "agent_edit")):
        return refusal(request, status=429, message="You are saving agents too quickly.", retry_after=wait)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            queued = program_build_queue(
                owner=request.user,
                language=data["language"],
                source=data["source"],
                archive=data["archive"],
                slug=data["slug"],
                name=data["name"],
                protocol=data["protocol"],
                keep_running=data["keep_running"],
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            program_build_enqueue(queued.pk)
            return redirect("program-build", pk=queued.pk)
    return render(request, "arena/program_upload.html", {"form": form})


@login_required
def program_build(request: HttpRequest, pk: int) -> HttpResponse:
    """An upload's build, for its author: "building…" (polled by htmx), then the compiler's messages or the agent."""
    queued = get_object_or_404(ProgramBuild.objects.select_related("agent"), pk=pk, owner=request.user)
    context = {"build": queued, "language": build.LANGUAGES[queued.language].label, "lost": build_lost(queued)}
    if request.headers.get("HX-Request"):
        return render(request, "arena/partials/program-build.html", context)
    return render(request, "arena/program_build.html", context)
