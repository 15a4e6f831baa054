"""The upload page: a signed-in person sends a program's source, Arena builds it in the sandbox, and it plays.

A build that fails shows its compiler's messages to its author; one that works becomes a program agent owned by
them (offered to them in the lobby, to everyone once staff approve it; staff disable it in the admin).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from arena.agents import build
from arena.agents.program import PROTOCOLS
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.errors import ServiceError
from arena.record.uploads import program_build_record, upload_allowed, uploaded_program_create


class ProgramUploadForm(forms.Form):
    slug = forms.SlugField(max_length=80, help_text="Used in URLs, the CLI and exports; cannot change later.")
    name = forms.CharField(max_length=120)
    language = forms.ChoiceField(choices=[(key, spec.label) for key, spec in build.LANGUAGES.items()])
    protocol = forms.ChoiceField(
        choices=[("botzone", "JSON (botzone)"), ("botzone-simple", "simple interaction, text (botzone-simple)")],
        initial="botzone",
    )
    keep_running = forms.BooleanField(required=False, help_text="Botzone's keep-running mode.")
    source = forms.FileField(help_text=f"One source file, at most {build.MAX_SOURCE_BYTES:,} bytes of UTF-8 text.")

    def clean_protocol(self) -> str:
        protocol = self.cleaned_data["protocol"]
        if protocol not in PROTOCOLS:
            raise forms.ValidationError(f"Choose one of {', '.join(PROTOCOLS)}.")
        return protocol

    def clean_source(self) -> str:
        upload = self.cleaned_data["source"]
        if upload.size > build.MAX_SOURCE_BYTES:
            raise forms.ValidationError(f"The source is {upload.size:,} bytes; at most {build.MAX_SOURCE_BYTES:,}.")
        try:
            return upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError("The source should be UTF-8 text.") from None


@login_required
def program_upload(request: HttpRequest) -> HttpResponse:
    """Upload a program's source: built in the sandbox; its compiler's messages shown here if it fails."""
    form = ProgramUploadForm(request.POST or None, request.FILES or None)
    log = ""
    if request.method == "POST" and (wait := limited(request, "agent_edit")):
        return refusal(request, status=429, message="You are saving agents too quickly.", retry_after=wait)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            upload_allowed(owner=request.user, slug=data["slug"])
            built = async_to_sync(build.build)(data["language"], data["source"])
            record = program_build_record(
                owner=request.user,
                language=data["language"],
                source=data["source"],
                artifact=built.artifact,
                digest=build.digest_of(built.artifact) if built.ok else "",
                log=built.log,
            )
            if built.ok:
                agent = uploaded_program_create(
                    owner=request.user,
                    slug=data["slug"],
                    name=data["name"],
                    build=record,
                    protocol=data["protocol"],
                    keep_running=data["keep_running"],
                )
                messages.success(request, f"Built and created {agent.slug}: it is in your lobby now.")
                return redirect("agent-detail", slug=agent.slug)
            log = built.log
        except ServiceError as error:
            form.add_error(None, str(error))
    return render(request, "arena/program_upload.html", {"form": form, "log": log}, status=422 if log else 200)
