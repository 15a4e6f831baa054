"""The study set-up form and the participant's questionnaire."""

from __future__ import annotations

import re
import secrets

from django import forms

from arena.record.services import ServiceError, variant_options
from arena.studies.codes import redirect_url_check
from arena.studies.models import DEFAULT_MIN_N, Study
from arena.studies.questions import LIKERT, MAX_TEXT_ANSWER_CHARS, questions_check
from arena.studies.services import EXPERIENCE, MAX_MOVE_TIME_S, MIN_MOVE_TIME_S


def design_parse(text: str) -> list[dict]:
    """Lines "game: opponent, opponent" → [{"game": …, "opponents": […]}, …] (blank lines ignored)."""
    design = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        game, colon, opponents = line.partition(":")
        if not colon:
            raise forms.ValidationError(f"Line {number}: write “game: opponent, opponent”.")
        design.append({"game": game.strip(), "opponents": [o.strip() for o in opponents.split(",") if o.strip()]})
    return design


def design_text(design: list[dict]) -> str:
    return "\n".join(f"{block['game']}: {', '.join(block['opponents'])}" for block in design)


def _value(text: str) -> int | bool | str:
    """An option's value as written: a whole number, true/false, or text."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return {"true": True, "false": False}.get(text.lower(), text)


def options_parse(text: str, design: list[dict]) -> list[dict]:
    """Lines "game: key=value, key=value" set per-game options on `design`'s blocks: `variant=<name>` (its rule
    options), `move_time_limit_s=<seconds>` (this game's time per move), anything else the game's own options."""
    blocks = {block["game"]: block for block in design}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        game, colon, pairs = line.partition(":")
        if not colon or game.strip() not in blocks:
            raise forms.ValidationError(f"Line {number}: write “game: key=value, …” for a game listed above.")
        block = blocks[game.strip()]
        for pair in filter(None, (p.strip() for p in pairs.split(","))):
            key, equals, value = (part.strip() for part in pair.partition("="))
            if not equals or not key:
                raise forms.ValidationError(f"Line {number}: write each option as key=value, not “{pair}”.")
            if key == "variant":
                try:
                    block["options"] = {**block.get("options", {}), **variant_options(block["game"], value)}
                except ServiceError as error:
                    raise forms.ValidationError(f"Line {number}: {error}") from None
            elif key == "move_time_limit_s":
                block["move_time_limit_s"] = _value(value)
            else:
                block["options"] = {**block.get("options", {}), key: _value(value)}
    return design


def options_text(design: list[dict]) -> str:
    lines = []
    for block in design:
        pairs = [f"{key}={_option_text(value)}" for key, value in block.get("options", {}).items()]
        if "move_time_limit_s" in block:
            pairs.append(f"move_time_limit_s={block['move_time_limit_s']}")
        if pairs:
            lines.append(f"{block['game']}: {', '.join(pairs)}")
    return "\n".join(lines)


def _option_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


QUESTIONS_EXAMPLE = (
    "pre choice: How often do you play board games? | never | monthly | weekly\n"
    "pre attention: Choose “blue” to show you are reading. | red | blue | green = blue\n"
    "post likert: The opponent played like a person.\n"
    "post text: Anything you would like to tell us?"
)


def questions_parse(text: str) -> list[dict]:
    """Lines "pre|post kind: question | choice | choice = expected" → the study's questions (ids q1, q2, …)."""
    questions = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        head, colon, rest = line.partition(":")
        words = head.split()
        if not colon or len(words) != 2:
            raise forms.ValidationError(f"Line {number}: write “pre|post text|likert|choice|attention: question”.")
        rest, _, expected = rest.partition(" = ")
        text, *choices = (part.strip() for part in rest.split("|"))
        question = {"id": f"q{len(questions) + 1}", "when": words[0], "kind": words[1], "text": text}
        if choices:
            question["choices"] = choices
        if expected.strip():
            question["expected"] = expected.strip()
        questions.append(question)
    try:
        questions_check(questions)
    except ServiceError as error:
        raise forms.ValidationError(str(error)) from None
    return questions


def questions_text(questions: list[dict]) -> str:
    lines = []
    for q in questions:
        choices = "".join(f" | {choice}" for choice in q.get("choices", []))
        expected = f" = {q['expected']}" if "expected" in q else ""
        lines.append(f"{q['when']} {q['kind']}: {q['text']}{choices}{expected}")
    return "\n".join(lines)


#: The form's fields a study stores as they are (the slug, design and minimums are converted first).
STORED_AS_IS = (
    "title",
    "games_per_opponent",
    "order",
    "blind_opponents",
    "focused",
    "move_time_limit_s",
    "questionnaire",
    "questions",
    "completion_code",
    "per_participant_codes",
    "redirect_url",
    "void_after_s",
    "max_participants",
    "is_open",
    "publish_baseline",
)

#: The largest minimum per match a study may set: a thousand moves, and an hour.
MAX_MIN_PLIES = 1000
MAX_MIN_SECONDS = 3600


class StudyForm(forms.Form):
    title = forms.CharField(max_length=160)
    slug = forms.SlugField(max_length=60, help_text="The share link is /studies/&lt;slug&gt;/.")
    consent_text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="Shown to participants word for word. Changing it makes a new version; each participant's record "
        "keeps the version they accepted.",
    )
    design = forms.CharField(
        label="Games and opponents",
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "tic-tac-toe: tic-tac-toe-lv0, tic-tac-toe-lv2"}),
        help_text="One line per game: the game's slug, a colon, then the opponents' slugs (bot levels or agents).",
    )
    games_per_opponent = forms.IntegerField(min_value=1, max_value=20, initial=2)
    order = forms.ChoiceField(choices=Study.Order.choices, initial=Study.Order.COUNTERBALANCED)
    move_time_limit_s = forms.IntegerField(
        label="Time limit per move (seconds)", min_value=MIN_MOVE_TIME_S, max_value=MAX_MOVE_TIME_S, required=False
    )
    game_options = forms.CharField(
        label="Game options",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "kuhn-poker: hands=10, move_time_limit_s=60"}),
        help_text="Optional, one line per game: “game: key=value, …”. variant=&lt;name&gt; picks a variant, "
        "move_time_limit_s=&lt;seconds&gt; this game's time per move, other keys are the game's own options "
        "(hands=10 for the poker games).",
    )
    void_after_s = forms.IntegerField(
        label="Void a match when the opponent stalls (seconds)",
        min_value=10,
        max_value=3600,
        required=False,
        help_text="A match whose opponent (a slow or failing model) has not moved for this long on its turn is "
        "void: no result for anyone, replayed up to twice, and marked in the exports. Empty: no such rule.",
    )
    blind_opponents = forms.BooleanField(
        required=False,
        label="Blind the opponents: participants see “Opponent A”, “Opponent B”, … (per game, in the listed order)",
        help_text="On the study pages and their matches' pages: no name, kind, link or model reasoning. You see the "
        "names on this page and in the exports.",
    )
    focused = forms.BooleanField(
        required=False,
        label="Focused mode: no site navigation while taking part",
        help_text="The study pages and the participant's matches show no links to leaderboards, the lobby or sign-in.",
    )
    questionnaire = forms.BooleanField(
        required=False, initial=True, label="Ask each participant's experience with each game (none / some / expert)"
    )
    questions = forms.CharField(
        label="Questions of your own",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": QUESTIONS_EXAMPLE}),
        help_text="Optional, one per line: “pre” (before the first match) or “post” (after the last), then text, "
        "likert (1–5, strongly disagree to strongly agree), choice or attention, a colon and the question; choices "
        "follow, separated by |; an attention check ends with “= ” and its expected answer.",
    )
    completion_code = forms.CharField(max_length=40, help_text="Shown on the thank-you page, for the recruiting site.")
    per_participant_codes = forms.BooleanField(
        required=False,
        label="A completion code per participant",
        help_text="Each participant gets their own code instead (in the exports as completion_code), so a code "
        "passed on to someone who did not take part is recognised.",
    )
    redirect_url = forms.CharField(
        label="Redirect URL",
        max_length=500,
        required=False,
        help_text="Where the thank-you page sends a participant who completed, e.g. "
        "https://app.prolific.com/submissions/complete?cc={completion_code}. {completion_code} and {pid} (the id "
        "the participant arrived with as ?pid=) are filled in. Empty: no redirect.",
    )
    min_plies = forms.IntegerField(
        label="Minimum plies per match",
        min_value=0,
        max_value=MAX_MIN_PLIES,
        required=False,
        help_text="A match counts as played once it reached this many moves (both sides'). A participant with a "
        "shorter match (resigned at once, say) is incomplete and gets no completion code. Empty or 0: no minimum.",
    )
    min_seconds = forms.IntegerField(
        label="Minimum seconds per match",
        min_value=0,
        max_value=MAX_MIN_SECONDS,
        required=False,
        help_text="Likewise, the time from a match's start to its end. Empty or 0: no minimum.",
    )
    max_participants = forms.IntegerField(min_value=1, max_value=10_000, initial=50)
    min_n = forms.IntegerField(
        label="Minimum n for an interval",
        min_value=1,
        max_value=1000,
        initial=DEFAULT_MIN_N,
        required=False,
        help_text=f"Below this many participants a result shows no interval, only “too few participants”. Empty: "
        f"{DEFAULT_MIN_N}.",
    )
    is_open = forms.BooleanField(required=False, initial=True, label="Open (new participants may join)")
    publish_baseline = forms.BooleanField(
        required=False,
        label="Publish the baseline: anyone may show it beside a game's leaderboard (the pooled rating only)",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["completion_code"].initial = secrets.token_hex(4).upper()

    def clean_redirect_url(self) -> str:
        url = self.cleaned_data["redirect_url"].strip()
        try:
            redirect_url_check(url)
        except ServiceError as error:
            raise forms.ValidationError(str(error)) from None
        return url

    def clean_questions(self) -> list[dict]:
        return questions_parse(self.cleaned_data["questions"])

    def clean_design(self) -> list[dict]:
        return design_parse(self.cleaned_data["design"])

    def clean(self) -> dict:
        data = super().clean()
        if "design" in data:
            try:
                data["design"] = options_parse(data.get("game_options", ""), data["design"])
            except forms.ValidationError as error:
                self.add_error("game_options", error)
        return data

    def study_fields(self) -> dict:
        data = self.cleaned_data
        return {name: data[name] for name in ("slug", "design", *STORED_AS_IS)} | {
            "min_plies": data["min_plies"] or 0,
            "min_seconds": data["min_seconds"] or 0,
            "min_n": data["min_n"] or DEFAULT_MIN_N,
        }


def study_initial(study: Study) -> dict:
    initial = {name: getattr(study, name) for name in ("slug", *STORED_AS_IS, "min_plies", "min_seconds", "min_n")}
    return initial | {
        "design": design_text(study.design),
        "game_options": options_text(study.design),
        "questions": questions_text(study.questions),
        "consent_text": study.consent().text,
    }


class QuestionnaireForm(forms.Form):
    """What a participant is asked before the first match (experience per game, with the questionnaire, and the
    study's "pre" questions) or after the last (its "post" questions)."""

    def __init__(self, *args, games: list[tuple[str, str]], questions: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        for slug, name in games:
            self.fields[slug] = forms.ChoiceField(
                label=f"Your experience with {name}",
                choices=[(value, value) for value in EXPERIENCE],
                widget=forms.RadioSelect,
            )
        for question in questions:
            self.fields[question["id"]] = question_field(question)

    def experience(self) -> dict[str, str]:
        return {k: v for k, v in self.cleaned_data.items() if not QUESTION_ID.fullmatch(k)}

    def answers(self) -> dict[str, str]:
        return {k: v for k, v in self.cleaned_data.items() if QUESTION_ID.fullmatch(k)}


#: The form field names of the study's own questions (games' slugs never look like this).
QUESTION_ID = re.compile(r"q\d+")


def question_field(question: dict) -> forms.Field:
    if question["kind"] == "text":
        return forms.CharField(
            label=question["text"],
            required=False,
            max_length=MAX_TEXT_ANSWER_CHARS,
            widget=forms.Textarea(attrs={"rows": 3}),
        )
    choices = list(LIKERT.items()) if question["kind"] == "likert" else [(c, c) for c in question["choices"]]
    return forms.ChoiceField(label=question["text"], choices=choices, widget=forms.RadioSelect)
