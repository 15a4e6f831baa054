"""Answering a challenge posted in the lobby: accepting it, or withdrawing one's own."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from arena.models import Challenge
from arena.pages.people import current_person
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.people import challenge_accept, challenge_cancel
from arena.record.services import ServiceError


@require_POST
def challenge_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    person = current_person(request)
    if person is None:
        messages.error(request, "Choose a nickname (start any game) or log in before accepting a challenge.")
        return redirect("play")
    if wait := limited(request, "match_create"):
        return refusal(request, status=429, message="You are starting games too quickly.", retry_after=wait)
    try:
        match = challenge_accept(challenge=get_object_or_404(Challenge, pk=pk), accepter=person)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("play")
    return redirect("play-match", pk=match.pk)


@require_POST
def challenge_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    person = current_person(request)
    try:
        if person is None:
            raise ServiceError("Only the person who posted a challenge can cancel it.")
        challenge_cancel(challenge=get_object_or_404(Challenge, pk=pk), person=person)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Your challenge is withdrawn.")
    return redirect("play")
