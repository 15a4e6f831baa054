"""Accounts: sign-up, sign-in (rate limited, locked after repeated failures) and merging a guest's games."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from arena.models import Agent, Seat
from arena.pages.people import current_person
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.people import account_create, guest_merge, guest_pending_merge, person_agent_for_user
from arena.record.services import ServiceError


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        name = request.user.get_username()
        return refusal(request, status=403, message=f"You are signed in as {name}; sign out to make another account.")
    if request.method == "POST" and (wait := limited(request, "signup")):
        return refusal(request, status=429, message="Too many sign-ups from here.", retry_after=wait)
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:  # the guest this browser played as, if any, becomes the account's seat
            user = account_create(form=form, guest=current_person(request))
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            request.session.pop("guest_agent", None)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}.")
            return redirect("play")
    return render(request, "registration/signup.html", {"form": form, "guest": current_person(request)})


def _session_guest(request: HttpRequest) -> Agent | None:
    """The guest agent this browser played as (kept in the session across signing in), if any."""
    slug = request.session.get("guest_agent")
    return Agent.objects.filter(slug=slug, kind=Agent.Kind.HUMAN).first() if slug else None


class PersonLoginView(auth_views.LoginView):
    """Django's sign-in; a browser that played as a guest is then asked whether to merge those games."""

    def get_success_url(self) -> str:
        url = super().get_success_url()
        if guest_pending_merge(guest=_session_guest(self.request), user=self.request.user):
            return f"{reverse('guest-merge')}?{urlencode({'next': url})}"
        return url


@login_required
def guest_merge_view(request: HttpRequest) -> HttpResponse:
    """Confirm step: move the games this browser played as a guest into the signed-in account, or keep them apart."""
    next_url = request.POST.get("next") or request.GET.get("next") or reverse("play")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = reverse("play")
    guest = guest_pending_merge(guest=_session_guest(request), user=request.user)
    if guest is None:
        request.session.pop("guest_agent", None)
        return redirect(next_url)
    if request.method == "POST":
        if request.POST.get("action") == "keep":
            request.session.pop("guest_agent", None)
            messages.info(request, f"The guest {guest.name}'s games stay under the guest's name.")
            return redirect(next_url)
        try:
            account = guest_merge(guest=guest, user=request.user)
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            request.session.pop("guest_agent", None)
            messages.success(request, f"The guest's games are now {account.name}'s; the leaderboards are refitting.")
            return redirect(next_url)
    games = Seat.objects.filter(agent_version__agent=guest).values("match").distinct().count()
    context = {"guest": guest, "games": games, "account": person_agent_for_user(user=request.user), "next": next_url}
    return render(request, "registration/guest_merge.html", context)


def rate_limited(name: str, message: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A form view whose submissions count against the rate limit `name` (per address and person): once it is
    used up a POST is refused with `message` before the view sees it (the login forms, the password reset)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST" and (wait := limited(request, name)):
                return refusal(request, status=429, message=message, retry_after=wait)
            return view(request, *args, **kwargs)

        return guarded

    return decorate


login_guarded = rate_limited("login", "Too many logins from here; try again in a while.")


def login_locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the answer once an account name has failed too often from this address."""
    message = "Too many failed logins; for your account's safety, further tries wait a while."
    return refusal(request, status=429, message=message, retry_after=int(settings.AXES_COOLOFF_TIME.total_seconds()))
