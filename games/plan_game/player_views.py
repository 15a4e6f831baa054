"""What a plan game shows: state JSON, per-viewer views, metric records and the texts for models.

A mixin of `PlanGame` (games.plan_game); it relies on the game's hooks and bookkeeping methods.
"""

from __future__ import annotations

import json
from typing import Any

from games.plan_game.state import KEEP, Leg, PlanState, canonical, role_of, round_of, sealed_from, sealed_json


class PlanViews:
    """Serialisation, views and texts of `PlanGame`; not usable on its own."""

    def records(self, state: PlanState) -> list[dict[str, Any]]:
        """One row per (seat, resolved leg) with what Appendix B's metrics need."""
        rows = []
        options = dict(state.options)
        for index, leg in enumerate(state.legs):
            for seat in (0, 1):
                mine = leg.sealed[seat]
                role = role_of(seat, index)
                rows.append(
                    {
                        "round": round_of(index),
                        "leg": index % 2 + 1,
                        "seat": seat,
                        "role": self.role_names[role],
                        "won": leg.winner == seat,
                        "kept": mine.text == KEEP,
                        "revised": mine.revised,
                        "similarity": mine.similarity,
                        "items": sorted(self.check(mine.source, role, options).items) if mine.plan else [],
                        "over_budget": mine.over_budget,
                        "rule_violation": mine.rule_violation,
                        "value": leg.values[seat],
                        "first_mover": seat == 0,
                        "initiative": leg.initiative == seat,
                        "negative_feedback_before": index >= 2 and state.legs[index - 2].winner != seat,
                    }
                )
        return rows

    def to_json(self, state: PlanState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "options": dict(state.options),
            "legs": [
                {
                    "attacker": leg.attacker,
                    "sealed": [sealed_json(s) for s in leg.sealed],
                    "winner": leg.winner,
                    "reason": leg.reason,
                    "values": list(leg.values),
                    "initiative": leg.initiative,
                    "log": json.loads(leg.log),
                    "feedback": list(leg.feedback),
                }
                for leg in state.legs
            ],
            "pending": [None if s is None else sealed_json(s) for s in state.pending],
        }

    def from_json(self, data: dict[str, Any]) -> PlanState:
        legs = tuple(
            Leg(
                attacker=int(leg["attacker"]),
                sealed=(sealed_from(leg["sealed"][0]), sealed_from(leg["sealed"][1])),
                winner=int(leg["winner"]),
                reason=leg["reason"],
                values=(float(leg["values"][0]), float(leg["values"][1])),
                initiative=int(leg["initiative"]),
                log=canonical(leg["log"]),
                feedback=(leg["feedback"][0], leg["feedback"][1]),
            )
            for leg in data["legs"]
        )
        pending = tuple(None if s is None else sealed_from(s) for s in data["pending"])
        return PlanState(int(data["seed"]), int(data["ply"]), tuple(sorted(data["options"].items())), legs, pending)  # type: ignore[arg-type]

    def player_view(self, state: PlanState, player: int | None) -> dict[str, Any]:
        return self._view(state, player, reveal=False)

    def full_view(self, state: PlanState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def _view(self, state: PlanState, player: int | None, *, reveal: bool) -> dict[str, Any]:
        options = dict(state.options)
        index = len(state.legs)
        to_move = self.current_player(state)
        over = to_move is None
        legs = [self._leg_view(state, i) for i in range(index)]
        view: dict[str, Any] = {
            "slug": self.slug,
            "seed": state.seed,
            "ply": state.ply,
            "options": options,
            "rounds": options["rounds"],
            "over": over,
            "viewer": player,
            "to_move": to_move,
            "round": round_of(min(index, 2 * options["rounds"] - 1)),
            "leg": index % 2 + 1,
            "attacker": index % 2,
            "seat_names": list(self.seat_names),
            "role_names": list(self.role_names),
            "roles": [self.role_names[role_of(s, index)] for s in (0, 1)],
            "score": list(self.leg_wins(state)),
            "budgets": {name: self.budget(options, r) for r, name in enumerate(self.role_names)},
            "legs": legs,
            "records": self.records(state),
            "pending": [
                {
                    "seat": s,
                    "name": self.seat_names[s],
                    "sealed": state.pending[s] is not None,
                    "text": state.pending[s].text if state.pending[s] and (reveal or player == s) else None,
                }
                for s in (0, 1)
            ],
            "battle": None,
            "me": None,
        }
        outcome = self.outcome(state)
        view["outcome"] = outcome.to_json() if outcome else None
        if index:
            last = state.legs[-1]
            view["battle"] = {
                **legs[-1],
                "playback": self._playback(state, index - 1)
                if not last.sealed[0].violations and not last.sealed[1].violations
                else None,
            }
        if player is not None and not over:
            role = role_of(player, index)
            previous = self.previous(state, player)
            feedback = state.legs[index - 2].feedback[player] if index >= 2 else ""
            view["me"] = {
                "seat": player,
                "role": role,
                "role_name": self.role_names[role],
                "budget": self.budget(options, role),
                "sealed": state.pending[player] is not None,
                "keep_allowed": previous is not None,
                "previous": previous.source if previous else "",
                "previous_plan": json.loads(previous.plan) if previous and previous.plan else None,
                "feedback": feedback,
                "editor": self.editor_data(role, options),
                "initial": previous.source if previous else canonical(self.empty_plan(role)),
                "example": canonical(self.example_plans(role, options)[0]),
            }
        return view

    def _leg_view(self, state: PlanState, index: int) -> dict[str, Any]:
        leg = state.legs[index]
        options = dict(state.options)
        seats = []
        for seat in (0, 1):
            s = leg.sealed[seat]
            role = role_of(seat, index)
            seats.append(
                {
                    "seat": seat,
                    "name": self.seat_names[seat],
                    "role": self.role_names[role],
                    "text": s.text,
                    "kept": s.text == KEEP,
                    "plan": json.loads(s.plan) if s.plan else None,
                    "source": s.source,
                    "cost": s.cost,
                    "budget": self.budget(options, role),
                    "violations": [list(v) for v in s.violations],
                    "over_budget": s.over_budget,
                    "rule_violation": s.rule_violation,
                    "revised": s.revised,
                    "similarity": s.similarity,
                    "added": list(s.added),
                    "removed": list(s.removed),
                    "reacting_to": s.reacting_to,
                    "feedback": leg.feedback[seat],
                    "value": leg.values[seat],
                    "won": leg.winner == seat,
                }
            )
        return {
            "index": index,
            "round": round_of(index),
            "leg": index % 2 + 1,
            "attacker": leg.attacker,
            "winner": leg.winner,
            "winner_name": self.seat_names[leg.winner] if leg.winner >= 0 else "nobody",
            "reason": leg.reason,
            "initiative": leg.initiative,
            "seats": seats,
            "log": json.loads(leg.log),
            "by_role": [seats[leg.attacker], seats[1 - leg.attacker]],
        }

    def _playback(self, state: PlanState, index: int) -> dict[str, Any]:
        leg = state.legs[index]
        attack = json.loads(leg.sealed[leg.attacker].plan)
        defend = json.loads(leg.sealed[1 - leg.attacker].plan)
        view = self.battle_view(attack, defend, dict(state.options))
        for frame in view["frames"]:  # neighbours for the step buttons of the renderers
            frame["prev"], frame["next"] = max(0, frame["n"] - 1), min(view["last"], frame["n"] + 1)
            frame.setdefault("label", f"step {frame['n']} of {view['last']}")
        view["prefix"] = f"{self.slug}-{state.ply}-{index}"
        return view

    def public_history(self, state: PlanState) -> str:
        lines = []
        for index, leg in enumerate(state.legs):
            att, dfd = leg.attacker, 1 - leg.attacker
            who = self.seat_names[leg.winner] if leg.winner >= 0 else "nobody"
            lines.append(
                f"Round {round_of(index)} leg {index % 2 + 1}: {self.seat_names[att]} ({self.role_names[0]}) vs "
                f"{self.seat_names[dfd]} ({self.role_names[1]}) — {who} won: {leg.reason}. "
                f"{self.seat_names[att]}'s plan: {leg.sealed[att].source} {self.seat_names[dfd]}'s plan: "
                f"{leg.sealed[dfd].source}"
            )
        for seat in (0, 1):
            if state.pending[seat] is not None:
                lines.append(f"{self.seat_names[seat]} has sealed its plan for this leg.")
        return "\n".join(lines)

    def observation_text(self, state: PlanState, player: int) -> str:
        index = len(state.legs)
        options = dict(state.options)
        if self.current_player(state) is None:
            wins = self.leg_wins(state)
            return f"The match is over: legs won {wins[player]} (you) to {wins[1 - player]}."
        role = role_of(player, index)
        wins = self.leg_wins(state)
        lines = [
            f"Round {round_of(index)} of {options['rounds']}, leg {index % 2 + 1} of 2. "
            f"You are {self.seat_names[player]} and play the {self.role_names[role].upper()} in this leg. "
            f"Legs won so far: you {wins[player]}, opponent {wins[1 - player]}.",
            self.role_text(role, options),
        ]
        previous = self.previous(state, player)
        if previous is None:
            lines.append("This is round 1: write your first plan as one JSON document.")
        else:
            lines.append(f"Your previous {self.role_names[role]} plan (round {round_of(index) - 1}): {previous.source}")
            lines.append(f"Feedback on it: {state.legs[index - 2].feedback[player]}")
            lines.append(
                "Decide whether to keep or revise it. Answer `keep` to field exactly the same plan again, "
                "or a revised JSON plan."
            )
        if index >= 1:
            lines.append(f"Most recent leg (your other role): {state.legs[index - 1].feedback[player]}")
        lines.append(self.plan_format_text(role, options))
        return "\n\n".join(lines)

    def rules_text(self) -> str:
        options = dict(self.default_options)
        return "\n\n".join(
            [
                self.full_rules_text(),
                f"Match protocol: {options['rounds']} rounds (unless set otherwise); each round has two legs. "
                f"In leg 1 the first seat ({self.seat_names[0]}) is the {self.role_names[0]} and the second "
                f"({self.seat_names[1]}) the {self.role_names[1]}; in leg 2 the roles swap. In each leg both players "
                "submit a plan without seeing the other's; the simulator then resolves the battle and both receive "
                "feedback (result, rule violations, battle summary). From round 2 you may answer `keep` to field "
                "your previous plan for the same role again, or submit a revised plan. A plan that breaks any rule "
                "(over budget, malformed JSON, unknown unit, …) loses that leg by forfeit. The player who wins more "
                "legs wins the match; equal legs is a draw.",
                "Answer format: one JSON document (the plan) on one line, or the word keep.",
                *(
                    f"Example {self.role_names[r]} plan (an illustration, not a choice to pick from): "
                    f"{canonical(self.example_plans(r, options)[0])}"
                    for r in (0, 1)
                ),
            ]
        )
