"""Forms for staff pages."""

from __future__ import annotations

from django import forms

from arena.agents.llm_config import SCAFFOLDS
from arena.agents.outside import LARGEST, MAX_TEXT
from arena.agents.program import LANGUAGES, PROTOCOLS
from arena.agents.remote import MAX_DECISION_S
from arena.agents.sandbox import DEFAULT_LIMITS, limit_maxima
from arena.record.services import SEED_RANGE
from arena.tournaments.services import first_duplicate_sets


class LLMAgentForm(forms.Form):
    """An LLM agent's configuration. The API key itself is never entered here, only its variable's name."""

    slug = forms.SlugField(max_length=80, help_text="Used in URLs, the CLI and exports; cannot change later.")
    name = forms.CharField(max_length=120)
    base_url = forms.URLField(
        label="Base URL", help_text="Any OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1"
    )
    model = forms.CharField(max_length=200)
    api_key_env = forms.RegexField(
        regex=r"^[A-Z_][A-Z0-9_]*$",
        required=False,
        label="API key variable",
        help_text="Name of the environment variable holding the key (e.g. OPENAI_API_KEY). Never the key.",
    )
    temperature = forms.FloatField(min_value=0, max_value=2, initial=0.2)
    top_p = forms.FloatField(min_value=0, max_value=1, initial=1.0)
    max_tokens = forms.IntegerField(min_value=1, initial=1024, label="Max output tokens")
    reasoning_effort = forms.ChoiceField(
        choices=[("", "not set"), ("low", "low"), ("medium", "medium"), ("high", "high")], required=False
    )
    timeout_s = forms.FloatField(min_value=1, initial=300, label="Per-decision timeout (s)")
    scaffold = forms.ChoiceField(choices=[(s, s) for s in SCAFFOLDS], initial="direct")
    retries = forms.IntegerField(min_value=0, max_value=10, initial=3, help_text="Re-prompts after an invalid answer.")
    price_in_per_mtok = forms.FloatField(min_value=0, initial=0, label="Price in ($ / M tokens)")
    price_out_per_mtok = forms.FloatField(min_value=0, initial=0, label="Price out ($ / M tokens)")

    def config(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("slug")
        data.pop("name")
        return {k: v for k, v in data.items() if v not in ("", None)}


class OutsideAgentForm(forms.Form):
    """An outside agent's fields, typed only: `outside_config` checks them (as it does for the CLI and the API)."""

    #: The agent kind and (for a bot account) transport this form makes.
    kind = ""
    slug = forms.SlugField(max_length=80, help_text="Used in URLs, the CLI and exports; cannot change later.")
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(required=False, help_text="Restrict the agent to one game, or leave it open to any.")

    def __init__(self, *args, games, operator: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.operator = operator
        self.fields["game"].choices = [("", "any game"), *((g.slug, g.name) for g in games)]

    def config_fields(self) -> dict:
        """The config fields entered, in the shape outside_config reads."""
        return {k: v for k, v in self.cleaned_data.items() if k not in ("slug", "name", "game")}

    @classmethod
    def initial_from(cls, config: dict) -> dict:
        """The form's initial values for a stored config."""
        return dict(config)


#: A program's limit fields: form field → the key in the config's `limits`.
LIMIT_FIELDS = {"wall_time_s": "time_s", "cpu_s": "cpu_s", "memory_mb": "memory_mb", "output_bytes": "output_bytes"}


def _limit_help(key: str, unit: str) -> str:
    def number(value: float) -> str:
        return f"{value:,.0f}" if value == int(value) else f"{value:g}"

    return f"Default {number(DEFAULT_LIMITS[key])} {unit}; at most {number(limit_maxima()[key])}."


class ProgramAgentForm(OutsideAgentForm):
    kind = "program"
    command = forms.CharField(max_length=MAX_TEXT, help_text="Absolute paths, e.g. /usr/bin/python3 /srv/bots/ttt.py")
    protocol = forms.ChoiceField(choices=[(p, p) for p in PROTOCOLS], initial="botzone")
    language = forms.ChoiceField(
        required=False,
        choices=[("", "not stated"), *((name, name) for name in LANGUAGES)],
        help_text="Gives Botzone's time per turn for this language (first turn doubled) and its 256 MiB memory.",
    )
    keep_running = forms.BooleanField(required=False, help_text="Botzone's keep-running mode.")
    wall_time_s = forms.FloatField(required=False, min_value=0.1, label="Wall time per decision (s)")
    cpu_s = forms.IntegerField(required=False, min_value=1, label="CPU time (s)")
    memory_mb = forms.IntegerField(required=False, min_value=1, label="Memory (MiB)")
    output_bytes = forms.IntegerField(required=False, min_value=1, label="Output per decision (bytes)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field, key in LIMIT_FIELDS.items():
            unit = {"time_s": "s", "cpu_s": "s", "memory_mb": "MiB", "output_bytes": "bytes"}[key]
            self.fields[field].help_text = _limit_help(key, unit)

    def config_fields(self) -> dict:
        fields = super().config_fields()
        fields["limits"] = {key: fields.pop(field) for field, key in LIMIT_FIELDS.items() if fields[field] is not None}
        return fields

    @classmethod
    def initial_from(cls, config: dict) -> dict:
        limits = config.get("limits") or {}
        return {**config, **{field: limits.get(key) for field, key in LIMIT_FIELDS.items()}}


class UCIAgentForm(OutsideAgentForm):
    kind = "uci"
    command = forms.CharField(max_length=MAX_TEXT, help_text="A UCI engine, e.g. /usr/games/stockfish")
    uci_elo = forms.IntegerField(
        required=False, min_value=0, label="UCI_Elo", help_text="Set at most one of these three."
    )
    nodes = forms.IntegerField(required=False, min_value=1, label="Nodes per move")
    movetime_ms = forms.IntegerField(required=False, min_value=1, label="Time per move (ms)", help_text="Default 100.")
    time_s = forms.FloatField(required=False, min_value=0.1, label="Wall time per move (s)", help_text="Default 10.")


class RemoteAgentForm(OutsideAgentForm):
    kind = "remote"
    url = forms.URLField(max_length=MAX_TEXT, label="URL", help_text="Arena POSTs each decision here (http or https).")
    timeout_s = forms.FloatField(
        required=False,
        min_value=0.1,
        max_value=LARGEST["timeout_s"],
        label="Timeout per request (s)",
        help_text=f"Default 30; at most {LARGEST['timeout_s']:g}, and {MAX_DECISION_S:g} s over a decision's tries.",
    )
    retries = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=LARGEST["retries"],
        help_text="Re-asks after an invalid answer (default 1).",
    )
    provider_retries = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=LARGEST["provider_retries"],
        help_text="Re-sends after a 5xx, 429 or connection failure (default 2).",
    )
    secret_env = forms.RegexField(
        regex=r"^[A-Z_][A-Z0-9_]*$",
        required=False,
        label="Secret variable (operators)",
        help_text="Sign with the secret in this environment variable of Arena's; leave empty to get a new secret.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.operator:
            del self.fields["secret_env"]


class WebsocketBotForm(OutsideAgentForm):
    """A bot account: no config beyond its transport; it plays with its owner's tokens."""

    kind = "remote"

    def config_fields(self) -> dict:
        return {"transport": "websocket"}


def variant_choices(variants) -> list[tuple[str, str]]:
    """The variant select of a game: the standard rules, then the game's own variants."""
    return [("", "standard"), *((name, name) for name in variants)]


def seat_choices(seat_names) -> list[tuple[str, str]]:
    """The seat select of a game: drawn at random, or one seat named by its role ("Red spymaster"), in order."""
    two = len(seat_names) == 2
    names = [f"first ({seat_names[0]})", f"second ({seat_names[1]})"] if two else list(seat_names)
    return [("random", "random"), *((str(index), name) for index, name in enumerate(names))]


TIME_CHOICES = [("", "no limit"), ("30", "30 s per move"), ("60", "1 min per move"), ("300", "5 min per move")]
CONSENT_CHOICES = [("yes", "Yes, my games may be used as human-baseline data"), ("no", "No, keep my games out of it")]
OPEN_CHALLENGE = "open-challenge"


class LobbyForm(forms.Form):
    """Start a game: what, against whom, in which seat; guests also give a nickname."""

    game = forms.ChoiceField()
    opponent = forms.ChoiceField(help_text="A bot level, a model, or an open challenge for another person.")
    variant = forms.ChoiceField(required=False, help_text="Other rules the game can be played with.")
    seat = forms.ChoiceField(initial="random")
    time_limit = forms.ChoiceField(choices=TIME_CHOICES, required=False, label="Time limit")
    nickname = forms.CharField(
        max_length=40,
        required=False,
        help_text="Shown to your opponent and on leaderboards.",
        error_messages={"required": "Choose a nickname of 1 to 40 characters."},
    )
    consent = forms.ChoiceField(
        choices=CONSENT_CHOICES, widget=forms.RadioSelect, required=False, label="Human baseline"
    )

    def __init__(
        self, *args, games, opponents, variants, seat_names, needs_nickname: bool, needs_consent: bool, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seat_choices(seat_names)
        self.fields["game"].choices = [(g.slug, g.name) for g in games]
        people = ("People", [(OPEN_CHALLENGE, "Open challenge (another person)")])
        self.fields["opponent"].choices = [*opponents, people]
        self.fields["variant"].choices = variant_choices(variants)
        self.fields["nickname"].required = needs_nickname
        self.fields["consent"].required = needs_consent
        if not needs_nickname:
            del self.fields["nickname"]
        if not needs_consent:
            del self.fields["consent"]

    def full_clean(self) -> None:
        super().full_clean()
        # The page comes back at its top, where a phone shows none of the fields below: focusing the first field
        # at fault scrolls it, and its error, into view.
        if faulty := next((name for name in self.errors if name in self.fields), None):
            self.fields[faulty].widget.attrs["autofocus"] = True

    def seat_index(self) -> int | None:
        return None if self.cleaned_data["seat"] == "random" else int(self.cleaned_data["seat"])

    def time_limit_s(self) -> int | None:
        return int(self.cleaned_data["time_limit"]) if self.cleaned_data.get("time_limit") else None


#: Bounds of a tournament started from the web or the API (docs/operations.md): its size, and the duplicate sets
#: (about two matches each) written at once, in one transaction.
MAX_TOURNAMENT_AGENTS = 20
MAX_TOURNAMENT_GAMES_PER_SEAT = 100
MAX_TOURNAMENT_FIRST_SETS = 500


class TournamentForm(forms.Form):
    """A tournament staff start from the web; `arena.tournaments.services.tournament_create` checks the rest."""

    FORMATS = [("round_robin", "round robin"), ("ladder", "ladder evaluation"), ("adaptive", "adaptive")]

    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, help_text="Used in URLs and the CLI; cannot change later.")
    format = forms.ChoiceField(choices=FORMATS, initial="round_robin")
    games = forms.MultipleChoiceField(choices=[], widget=forms.CheckboxSelectMultiple)
    agents = forms.MultipleChoiceField(
        choices=[], help_text="Round robin and adaptive: the entrants. Ladder: the candidates climbing each ladder."
    )
    games_per_seat = forms.IntegerField(
        min_value=1,
        max_value=MAX_TOURNAMENT_GAMES_PER_SEAT,
        initial=2,
        help_text="Seeds per pairing (ladder: per level).",
    )
    budget = forms.IntegerField(min_value=1, max_value=2000, initial=200, help_text="Adaptive: most matches to play.")
    first_seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=SEED_RANGE - 1,
        label="Fixed first seed",
        help_text="Leave empty for fresh random seeds. Only to reproduce a run: consecutive seeds from this one, "
        "and the tournament is marked fixed-seed (anyone who knows the seeds knows the deals).",
    )

    def __init__(self, *args, games: list[tuple[str, str]], agents: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["games"].choices = games
        self.fields["agents"].choices = agents

    def clean_agents(self) -> list[str]:
        agents = self.cleaned_data["agents"]
        if len(agents) > MAX_TOURNAMENT_AGENTS:
            raise forms.ValidationError(f"At most {MAX_TOURNAMENT_AGENTS} agents.")
        return agents

    def clean(self) -> dict:
        data = super().clean()
        if data.get("format") and data.get("games") and data.get("agents"):
            sets = first_duplicate_sets(
                format=data["format"],
                games=data["games"],
                agents=len(data["agents"]),
                games_per_seat=data.get("games_per_seat"),
            )
            if sets > MAX_TOURNAMENT_FIRST_SETS:
                raise forms.ValidationError(
                    f"This would schedule {sets} seat-swapped sets of matches at once; at most "
                    f"{MAX_TOURNAMENT_FIRST_SETS}: choose fewer games, agents or games per seat."
                )
        return data
