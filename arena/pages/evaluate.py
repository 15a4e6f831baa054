"""Staff evaluate one agent under a paper's protocol from the web (the same service as `manage.py evaluate`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from arena.agents.llm_config import SCAFFOLDS
from arena.evaluate.protocols import PROTOCOLS
from arena.evaluate.selectors import evaluation_rows
from arena.evaluate.services import evaluation_create, evaluation_queue
from arena.models import Agent
from arena.pages.forms import MAX_TOURNAMENT_AGENTS, MAX_TOURNAMENT_GAMES_PER_SEAT
from arena.record.services import ServiceError

#: The largest budget the form takes (US$ and tokens): a typing slip must not authorise an unbounded spend.
MAX_BUDGET_USD = 10_000.0
MAX_BUDGET_TOKENS = 10_000_000_000


class EvaluationForm(forms.Form):
    """What `manage.py evaluate` takes; `arena.evaluate.services.evaluation_create` checks the rest."""

    agent = forms.ChoiceField(choices=[])
    protocol = forms.ChoiceField(choices=[(key, p.paper) for key, p in PROTOCOLS.items()])
    games = forms.MultipleChoiceField(
        choices=[], required=False, widget=forms.CheckboxSelectMultiple, help_text="None ticked: all the paper's."
    )
    opponents = forms.MultipleChoiceField(
        choices=[], required=False, help_text="AdvGameBench and STAR: the models standing in for the paper's."
    )
    scaffold = forms.ChoiceField(
        choices=[("", "the paper's"), *((s, s) for s in SCAFFOLDS)], required=False, help_text="Models only."
    )
    games_per_seat = forms.IntegerField(
        min_value=1, max_value=MAX_TOURNAMENT_GAMES_PER_SEAT, required=False, help_text="Empty: the paper's."
    )
    budget_usd = forms.FloatField(min_value=0, max_value=MAX_BUDGET_USD, required=False, label="Budget (US$)")
    budget_tokens = forms.IntegerField(min_value=0, max_value=MAX_BUDGET_TOKENS, required=False)

    def __init__(self, *args, agents: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["agent"].choices = agents
        self.fields["opponents"].choices = agents
        games = sorted({g for p in PROTOCOLS.values() for g in p.games})
        self.fields["games"].choices = [(g, g) for g in games]

    def clean_opponents(self) -> list[str]:
        opponents = self.cleaned_data["opponents"]
        if len(opponents) > MAX_TOURNAMENT_AGENTS:
            raise forms.ValidationError(f"At most {MAX_TOURNAMENT_AGENTS} opponents.")
        return opponents


@staff_member_required
def evaluation_list(request: HttpRequest) -> HttpResponse:
    """GET: evaluations with their progress and spend, and the form; POST: create (or resume) one and queue it."""
    agents = Agent.objects.filter(is_active=True).exclude(kind=Agent.Kind.HUMAN).exclude(kind=Agent.Kind.BOT)
    choices = [(a.slug, f"{a.name} ({a.get_kind_display()})") for a in agents.order_by("kind", "slug")]
    form = EvaluationForm(request.POST or None, agents=choices)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            _, tournaments = evaluation_create(
                agent=agents.get(slug=data["agent"]),
                protocol=data["protocol"],
                games=[g for g in data["games"] if g in PROTOCOLS[data["protocol"]].games] or None,
                opponents=data["opponents"] or None,
                scaffold=data["scaffold"] or None,
                games_per_seat=data["games_per_seat"],
                budget_usd=data["budget_usd"],
                budget_tokens=data["budget_tokens"],
                owner=request.user,
            )
            queued = evaluation_queue(tournaments=tournaments)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            label = tournaments[0].config["evaluation"]["label"]
            messages.success(request, f"{label} for {data['agent']}: {len(queued)} matches queued.")
            return redirect("evaluation-list")
    return render(request, "arena/evaluation_list.html", {"form": form, "evaluations": evaluation_rows()})
