"""A person's API tokens: create one (shown once), see which exist and when they were last used, revoke."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from arena.models import ApiToken
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.services import ServiceError
from arena.record.tokens import MAX_TOKENS_PER_PERSON, api_token_create, api_token_revoke


class TokenForm(forms.Form):
    name = forms.CharField(max_length=80, help_text="What the token is for, e.g. “my bot on the lab server”.")
    scopes = forms.MultipleChoiceField(
        choices=ApiToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="Reading needs no scope; tick what the token may change.",
    )


@never_cache  # the page that shows a new token must not be kept by any cache
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """GET: the person's tokens; POST `create` (name, scopes) shows the new token once, POST `revoke` (id) ends one."""
    form, created = TokenForm(), ""
    if request.method == "POST":
        if wait := limited(request, "api_token"):
            return refusal(request, status=429, message="You are changing tokens too quickly.", retry_after=wait)
        if "revoke" in request.POST:
            number = request.POST["revoke"]
            if not number.isdigit():
                return refusal(request, status=400, message="Which token? The form names it by its number.")
            api_token_revoke(token=get_object_or_404(request.user.api_tokens, pk=int(number)))
        else:
            form = TokenForm(request.POST)
            if form.is_valid():
                try:
                    _, created = api_token_create(
                        user=request.user, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
                    )
                    form = TokenForm()
                except ServiceError as error:
                    form.add_error(None, str(error))
    context = {
        "form": form,
        "created": created,
        "tokens": request.user.api_tokens.order_by("revoked_at", "-created_at"),
        "most": MAX_TOKENS_PER_PERSON,
    }
    return render(request, "arena/api_tokens.html", context)
