"""AdvGameBench's plan → simulate → feedback → revise protocol, shared by its three games.

A match is `rounds` rounds of two legs each. Leg 1 of every round: seat 0 attacks and seat 1
defends; leg 2: the roles swap. In a leg both seats submit a plan (a JSON document, as text)
without seeing the other's: seat 0 first, then seat 1, and `player_view` hides a sealed plan
from everyone but its author until the leg resolves. When both are sealed the game's simulator
resolves the leg deterministically and the state keeps the battle log and each seat's feedback.
From round 2 a seat may answer `keep` to field its previous plan for the same role again.

A plan that breaks a rule (over budget, occupied cell, unknown unit, malformed JSON …) is a
valid submission that forfeits the leg; its violations are recorded with their kind
(`over_budget` or `rule`). Only text that is not a plan at all raises IllegalAction.

This package holds no rules of any one game. Games subclass `PlanGame` and fill in the hooks; the
state is in state.py and the player views, records and texts in player_views.py.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any, ClassVar

from games.base import Game, IllegalAction, Outcome
from games.plan_game.player_views import PlanViews
from games.plan_game.state import (
    KEEP,
    OVER_BUDGET,
    RULE,
    Battle,
    Checked,
    Leg,
    PlanState,
    Sealed,
    canonical,
    counted,
    jaccard,
    role_of,
    round_of,
)

MAX_PLAN_CHARS = 20_000
_FENCE = re.compile(r"^```[a-zA-Z]*\s*(.*?)\s*```$", re.DOTALL)

__all__ = [
    "KEEP",
    "OVER_BUDGET",
    "RULE",
    "Battle",
    "Checked",
    "Leg",
    "PlanGame",
    "PlanState",
    "Sealed",
    "canonical",
    "counted",
    "jaccard",
    "role_of",
    "round_of",
]


class PlanGame(PlanViews, Game[PlanState, str]):
    """A two-seat plan game; subclasses supply the rules through the hooks at the end."""

    hidden_information = True
    has_controls = True
    shared_stylesheet = "plan-games"
    document_actions = True  # plans are JSON documents: a model's answer is its reply's last JSON object

    def public_action_text(self, text: str) -> str:
        return "(sealed plan)"  # the other seat must not read it before its own plan is in

    seat_names = ("Blue", "Red")
    #: (attacking role, defending role), e.g. ("invader", "defender").
    role_names: ClassVar[tuple[str, str]] = ("attacker", "defender")
    #: Every option and its default; budgets are `<role>_budget`, and `budget=` sets both.
    default_options: ClassVar[dict[str, int]] = {}
    option_limits: ClassVar[dict[str, tuple[int, int]]] = {}

    # -- options and state ------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> PlanState:
        chosen = dict(self.default_options)
        budget = options.pop("budget", None)
        if budget is not None:
            for role in self.role_names:
                chosen[f"{role}_budget"] = budget
        for name, value in options.items():
            if name not in chosen:
                raise ValueError(f"{self.slug} has no option {name!r}; options: budget, {', '.join(sorted(chosen))}")
            chosen[name] = value
        for name, value in chosen.items():
            low, high = self.option_limits.get(name, (0, 10**9))
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{self.slug} option {name} must be an integer in {low}–{high}, got {value!r}")
        return PlanState(seed=seed, ply=0, options=tuple(sorted(chosen.items())))

    def budget(self, state_or_options: PlanState | dict[str, int], role: int) -> int:
        options = dict(state_or_options.options) if isinstance(state_or_options, PlanState) else state_or_options
        return options[f"{self.role_names[role]}_budget"]

    def current_player(self, state: PlanState) -> int | None:
        if len(state.legs) >= 2 * state.option("rounds"):
            return None
        return 0 if state.pending[0] is None else 1

    def outcome(self, state: PlanState) -> Outcome | None:
        if self.current_player(state) is not None:
            return None
        wins = self.leg_wins(state)
        if wins[0] == wins[1]:
            return Outcome.draw(f"legs won {wins[0]}–{wins[1]}")
        winner = 0 if wins[0] > wins[1] else 1
        return Outcome.win(winner, f"{self.seat_names[winner]} won more legs ({max(wins)}–{min(wins)})")

    def leg_wins(self, state: PlanState) -> tuple[int, int]:
        return tuple(sum(leg.winner == seat for leg in state.legs) for seat in (0, 1))  # type: ignore[return-value]

    def previous(self, state: PlanState, seat: int) -> Sealed | None:
        """The seat's submission for the same role one round ago (what `keep` fields again)."""
        index = len(state.legs)
        return state.legs[index - 2].sealed[seat] if index >= 2 else None

    # -- actions ----------------------------------------------------------------------------

    def parse_action(self, state: PlanState, text: str) -> str:
        if not isinstance(text, str):
            raise IllegalAction("A plan is text: a JSON document, or the word keep.")
        cleaned = text.strip()
        fenced = _FENCE.match(cleaned)
        if fenced:
            cleaned = fenced.group(1).strip()
        if len(cleaned) > MAX_PLAN_CHARS:
            raise IllegalAction(f"A plan may be at most {MAX_PLAN_CHARS} characters; this one has {len(cleaned)}.")
        if cleaned.strip("\"'").lower() == KEEP:
            return KEEP
        if not cleaned.startswith(("{", "[")):
            start = cleaned.find("{")
            if start == -1 or not cleaned.endswith("}"):
                raise IllegalAction(
                    f"{text.strip()[:60]!r} is not a plan. Answer with a JSON plan such as "
                    f"{self.example_text(state)} or, from round 2, the word keep."
                )
            cleaned = cleaned[start:]
        try:
            return canonical(json.loads(cleaned))
        except ValueError:
            return cleaned  # malformed JSON is still a submission: it forfeits the leg (a `rule` violation)

    def action_to_text(self, state: PlanState, action: str) -> str:
        return action

    def is_legal(self, state: PlanState, action: str) -> bool:
        seat = self.current_player(state)
        if seat is None or not isinstance(action, str):
            return False
        try:
            parsed = self.parse_action(state, action)
        except IllegalAction:
            return False
        return parsed != KEEP or self.previous(state, seat) is not None

    def legal_actions(self, state: PlanState) -> list[str]:
        """Representative plans (not all of them): keep when allowed, the examples and one random plan."""
        seat = self.current_player(state)
        if seat is None:
            return []
        role = role_of(seat, len(state.legs))
        options = dict(state.options)
        texts = [KEEP] if self.previous(state, seat) is not None else []
        plans = [*self.example_plans(role, options), self.random_plan(role, options, self.rng(state))]
        for plan in plans:
            if canonical(plan) not in texts:
                texts.append(canonical(plan))
        return texts

    def random_action(self, state: PlanState, rng: random.Random) -> str:
        """A random plan within budget for the seat's role (never `keep`)."""
        seat = self.current_player(state)
        if seat is None:
            raise IllegalAction("The match is over; no more plans can be submitted.")
        return canonical(self.random_plan(role_of(seat, len(state.legs)), dict(state.options), rng))

    def example_text(self, state: PlanState) -> str:
        seat = self.current_player(state)
        role = role_of(seat, len(state.legs)) if seat is not None else 0
        return canonical(self.example_plans(role, dict(state.options))[0])

    def apply(self, state: PlanState, action: str) -> PlanState:
        seat = self.current_player(state)
        if seat is None:
            raise IllegalAction("The match is over; no more plans can be submitted.")
        sealed = self.seal(state, seat, self.parse_action(state, action))
        pending = (sealed, state.pending[1]) if seat == 0 else (state.pending[0], sealed)
        if pending[0] is None or pending[1] is None:
            return replace(state, ply=state.ply + 1, pending=pending)
        leg = self._resolve(state, (pending[0], pending[1]))
        return replace(state, ply=state.ply + 1, legs=(*state.legs, leg), pending=(None, None))

    def check(self, source: str, role: int, options: dict[str, int]) -> Checked:
        """Read a plan text against the rules of `role`."""
        try:
            document = json.loads(source)
        except ValueError as error:
            return Checked(
                None, ((RULE, f"The plan is not valid JSON ({error.msg} at character {error.pos})."),), 0, frozenset()
            )
        return self.validate_plan(document, role, options)

    def seal(self, state: PlanState, seat: int, text: str) -> Sealed:
        """The record of `seat` submitting `text` (already parsed) now; IllegalAction for keep in round 1."""
        index = len(state.legs)
        role = role_of(seat, index)
        options = dict(state.options)
        previous = self.previous(state, seat)
        if text == KEEP and previous is None:
            raise IllegalAction("There is no previous plan to keep in round 1: submit a JSON plan.")
        source = previous.source if text == KEEP else text
        checked = self.check(source, role, options)
        key = canonical(checked.plan) if checked.plan is not None else source
        fielded = {"text": text, "source": source, "plan": key if checked.plan is not None else ""}
        fielded |= {"violations": checked.violations, "cost": checked.cost}
        if previous is None:
            return Sealed(**fielded, revised=False, similarity=None, added=(), removed=(), reacting_to=-1)
        before = self.check(previous.source, role, options)
        before_key = canonical(before.plan) if before.plan is not None else previous.source
        return Sealed(
            **fielded,
            revised=key != before_key,
            similarity=jaccard(before.items, checked.items),
            added=tuple(sorted(checked.items - before.items)),
            removed=tuple(sorted(before.items - checked.items)),
            reacting_to=index - 2,
        )

    def _resolve(self, state: PlanState, sealed: tuple[Sealed, Sealed]) -> Leg:
        attacker = len(state.legs) % 2
        defender = 1 - attacker
        broke = [not s.plan for s in sealed]
        log: dict[str, Any] = {}
        summary = ("", "")
        initiative = -1
        if broke[0] and broke[1]:
            winner, reason, values = -1, "both plans broke the rules: nobody wins the leg", (-1.0, -1.0)
        elif broke[attacker] or broke[defender]:
            winner = defender if broke[attacker] else attacker
            loser_role = self.role_names[0 if broke[attacker] else 1]
            reason = f"the {loser_role}'s plan broke the rules: forfeit"
            values = tuple(1.0 if seat == winner else -1.0 for seat in (0, 1))
        else:
            battle = self.simulate(
                json.loads(sealed[attacker].plan), json.loads(sealed[defender].plan), dict(state.options)
            )
            winner = attacker if battle.attacker_won else defender
            reason, log, summary = battle.reason, battle.log, battle.summary
            values = (battle.values[0], battle.values[1]) if attacker == 0 else (battle.values[1], battle.values[0])
            if battle.initiative is not None:
                initiative = attacker if battle.initiative == 0 else defender
        leg = Leg(
            attacker,
            sealed,
            winner,
            reason,
            tuple(round(v, 3) for v in values),
            initiative,  # type: ignore[arg-type]
            canonical(log),
            ("", ""),
        )
        feedback = tuple(self._feedback(state, leg, seat, summary[role_of(seat, len(state.legs))]) for seat in (0, 1))
        return replace(leg, feedback=feedback)  # type: ignore[arg-type]

    def _feedback(self, state: PlanState, leg: Leg, seat: int, summary: str) -> str:
        index = len(state.legs)
        role = self.role_names[role_of(seat, index)]
        mine = leg.sealed[seat]
        result = "draw (nobody)" if leg.winner == -1 else ("WON" if leg.winner == seat else "LOST")
        parts = [f"Round {round_of(index)}, leg {index % 2 + 1}, you were the {role}: {result} — {leg.reason}."]
        if mine.violations:
            parts.append("Your plan broke the rules: " + " ".join(m for _, m in mine.violations))
        else:
            budget = self.budget(state, role_of(seat, index))
            parts.append(f"Your plan was valid (cost {mine.cost} of {budget}).")
        if leg.sealed[1 - seat].violations:
            parts.append("The opponent's plan broke the rules.")
        if summary:
            parts.append(summary)
        return " ".join(parts)

    # -- decisions, records, views ----------------------------------------------------------

    def decision_info(self, state: PlanState, action: str) -> dict[str, Any]:
        seat = self.current_player(state)
        if seat is None:
            return {}
        sealed = self.seal(state, seat, self.parse_action(state, action))
        return {"round": round_of(len(state.legs)), "revised": sealed.revised, "plan_similarity": sealed.similarity}

    def action_label(self, state: PlanState, action: str) -> str:
        """The plan in a few words with its cost ("5 minions, target leftmost, cost 9"), or why it forfeits."""
        seat = self.current_player(state)
        if seat is None:
            return action
        role = role_of(seat, len(state.legs))
        sealed = self.seal(state, seat, action)
        kept = "keep: " if action == KEEP else ""
        if not sealed.plan:
            return f"{kept}{self.role_names[role]} plan forfeits the leg: {sealed.violations[0][1]}"
        plan = self.check(sealed.source, role, dict(state.options)).plan
        return f"{kept}{self.role_names[role]}: {self.plan_summary(plan, role)}, cost {sealed.cost}"

    def round_label(self, state: PlanState) -> str:
        index = len(state.legs)
        attacker = self.seat_names[index % 2]
        return f"Round {round_of(index)}, leg {index % 2 + 1}: {attacker} attacks"

    # -- hooks each game supplies -----------------------------------------------------------

    def plan_summary(self, plan: dict[str, Any], role: int) -> str:
        """A valid plan of `role` in a few words for the move list, e.g. "5 minions, target leftmost"."""
        raise NotImplementedError

    def validate_plan(self, document: Any, role: int, options: dict[str, int]) -> Checked:
        raise NotImplementedError

    def strategic_functions(self, items: frozenset[str]) -> frozenset[str]:
        """The strategic functions a plan's items field (AdvGameBench App. B.3, functional similarity)."""
        raise NotImplementedError

    def simulate(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> Battle:
        raise NotImplementedError

    def random_plan(self, role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
        raise NotImplementedError

    def example_plans(self, role: int, options: dict[str, int]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def plan_schema(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        """A JSON Schema of a plan's shape for `role` (the budget and the rules judge the rest)."""
        raise NotImplementedError

    def plan_format_text(self, role: int, options: dict[str, int]) -> str:
        """How to write a plan: its JSON Schema, and one example plainly marked as an example, not a choice."""
        return (
            f"Plan format (JSON Schema): {json.dumps(self.plan_schema(role, options), separators=(',', ':'))}\n"
            "Any plan that fits this format, your budget and the rules above is valid: write your own. "
            f"For illustration only, one valid plan: {canonical(self.example_plans(role, options)[0])}"
        )

    def role_text(self, role: int, options: dict[str, int]) -> str:
        raise NotImplementedError

    def full_rules_text(self) -> str:
        raise NotImplementedError

    def battle_view(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> dict[str, Any]:
        raise NotImplementedError

    def editor_data(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        raise NotImplementedError

    def empty_plan(self, role: int) -> dict[str, Any]:
        """The plan the editor starts from in round 1."""
        raise NotImplementedError
