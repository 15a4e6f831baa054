"""Werewolf as in DSGBench (werewolf_arena): 8 players, 2 werewolves, a seer, a doctor and 4 villagers.

The `teams` option "seated" puts the two werewolves in P1 and P2 and deals the other roles among P3–P8, so a
team can be one agent (DSGBench's role scenarios, after Werewolf Arena: one model plays the village, another
the wolves); the seats' roles are as secret at the table as in the standard deal, but anyone who knows the
option knows the wolves, so it is for matches whose players are not told it (bots, models).

Each round: a night (living wolves pick a victim, the seer inspects, the doctor protects, in that order),
then a day: every living player says one message, then everyone votes. Roles are dealt from the seed and
never announced, not even for removed players. See docs/games.md for every rule choice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome

PLAYERS = 8
ROLES = ("werewolf", "werewolf", "seer", "doctor", "villager", "villager", "villager", "villager")
MAX_SAY = 500
DEFAULT_MAX_ROUNDS = 10
#: `teams` option values: "dealt" (the default): the seed deals every role; "seated": the wolves sit in P1 and P2.
TEAMS = ("dealt", "seated")
NAMES = tuple(f"P{n}" for n in range(1, PLAYERS + 1))
NIGHT_VERBS = {"werewolf": "kill", "seer": "inspect", "doctor": "protect"}
TEMPLATES = (
    "I am a villager and I want to find the werewolves.",
    "I have no information yet; let us listen carefully.",
    "Quiet players worry me.",
)
# kind, round, actor, target, text. Kinds: kill/inspect/protect (private), dawn/say/exile (public),
# vote (public once the round's vote is tallied).
Event = tuple[str, int, int, int, str]


@dataclass(frozen=True)
class WerewolfState:
    seed: int
    ply: int
    roles: tuple[str, ...]
    alive: tuple[bool, ...]
    round: int
    phase: str  # "night", "debate", "vote", "over"
    pending: tuple[int, ...]  # seats still to act in this phase, the first acts now
    events: tuple[Event, ...]
    result: str  # "", "village", "wolves", "draw"
    max_rounds: int


def seat_of(name: str) -> int | None:
    """'P3', 'p3', '3' or 'Player 3' → seat 2; None when it is none of those."""
    match = re.fullmatch(r"(?:p|player\s*)?(\d+)", name.strip().lower())
    if match and 1 <= int(match[1]) <= PLAYERS:
        return int(match[1]) - 1
    return None


class Werewolf(Game[WerewolfState, tuple]):
    slug = "werewolf"
    name = "Werewolf"
    num_players = PLAYERS
    hidden_information = True
    chance = True
    has_controls = True
    seat_names = NAMES

    hidden_teams = True

    variants = {"seated-teams": {"teams": "seated"}}

    def teams_dealt(self, options: dict[str, Any]) -> bool:
        return options.get("teams", "dealt") == "dealt"

    def team_of(self, state: WerewolfState, seat: int) -> int:
        """0 for the village, 1 for the werewolves (the deal decides, so it depends on the state)."""
        return 1 if state.roles[seat] == "werewolf" else 0

    def initial_state(self, *, seed: int, **options: Any) -> WerewolfState:
        max_rounds = options.pop("max_rounds", DEFAULT_MAX_ROUNDS)
        teams = options.pop("teams", "dealt")
        if options:
            raise ValueError(f"werewolf takes only the options 'max_rounds' and 'teams', got {sorted(options)}")
        if not isinstance(max_rounds, int) or not 1 <= max_rounds <= 50:
            raise ValueError(f"max_rounds must be a whole number from 1 to 50, got {max_rounds!r}")
        if teams not in TEAMS:
            raise ValueError(f"teams must be one of {', '.join(TEAMS)}, got {teams!r}")
        blank = WerewolfState(seed, 0, (), (), 1, "night", (), (), "", max_rounds)
        wolves = ROLES.count("werewolf") if teams == "seated" else 0
        roles = list(ROLES[wolves:])
        self.rng(blank).shuffle(roles)
        state = replace(blank, roles=(*ROLES[:wolves], *roles), alive=(True,) * PLAYERS)
        return replace(state, pending=self.night_order(state))

    # -- phases ------------------------------------------------------------------------

    def living(self, state: WerewolfState) -> list[int]:
        return [seat for seat in range(PLAYERS) if state.alive[seat]]

    def night_order(self, state: WerewolfState) -> tuple[int, ...]:
        """Living wolves in seat order, then the seer, then the doctor."""
        alive = self.living(state)
        order = [s for s in alive if state.roles[s] == "werewolf"]
        order += [s for s in alive if state.roles[s] == "seer"] + [s for s in alive if state.roles[s] == "doctor"]
        return tuple(order)

    def day_order(self, state: WerewolfState) -> tuple[int, ...]:
        """Living players in seat order, starting one seat later each round so no one always speaks first."""
        alive = self.living(state)
        start = (state.round - 1) % PLAYERS
        return tuple(sorted(alive, key=lambda s: (s - start) % PLAYERS))

    def current_player(self, state: WerewolfState) -> int | None:
        return None if state.phase == "over" else state.pending[0]

    def targets(self, state: WerewolfState, seat: int) -> list[int]:
        """Whom `seat` may name in the current phase."""
        alive = self.living(state)
        if state.phase == "night":
            role = state.roles[seat]
            if role == "werewolf":
                return [s for s in alive if state.roles[s] != "werewolf"]
            if role == "seer":
                return [s for s in alive if s != seat]
            return alive  # the doctor may protect itself
        return [s for s in alive if s != seat]

    def legal_actions(self, state: WerewolfState) -> list[tuple]:
        """Night: a verb per target. Debate: representative sentences (any text up to 500 characters is legal)."""
        seat = self.current_player(state)
        if seat is None:
            return []
        if state.phase == "night":
            verb = NIGHT_VERBS[state.roles[seat]]
            return [(verb, t) for t in self.targets(state, seat)]
        if state.phase == "debate":
            return [("say", text) for text in TEMPLATES] + [
                ("say", f"I suspect {NAMES[t]}.") for t in self.targets(state, seat)
            ]
        return [("vote", t) for t in self.targets(state, seat)] + [("abstain",)]

    def action_problem(self, state: WerewolfState, action: tuple) -> str | None:
        seat = self.current_player(state)
        if seat is None:
            return "The game is over."
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            return f"{action!r} is not an action."
        kind = action[0]
        if state.phase == "debate":
            if kind != "say" or len(action) != 2 or not isinstance(action[1], str):
                return "It is the debate: answer 'say <your message>'."
            text = action[1]
            if not text or text != text.strip():
                return "Say something: 'say <your message>'."
            if len(text) > MAX_SAY:
                return f"Your message has {len(text)} characters; the limit is {MAX_SAY}."
            return None
        if state.phase == "vote" and kind == "abstain" and len(action) == 1:
            return None
        expected = NIGHT_VERBS[state.roles[seat]] if state.phase == "night" else "vote"
        if kind != expected or len(action) != 2 or not isinstance(action[1], int):
            extra = " or 'abstain'" if state.phase == "vote" else ""
            return f"Now you must {expected} a player: '{expected} P<n>'{extra}."
        if action[1] not in self.targets(state, seat):
            names = ", ".join(NAMES[t] for t in self.targets(state, seat))
            whom = NAMES[action[1]] if 0 <= action[1] < PLAYERS else action[1]
            return f"You cannot {expected} {whom}; choose one of {names}."
        return None

    def is_legal(self, state: WerewolfState, action: tuple) -> bool:
        return self.action_problem(state, action) is None

    def require_legal(self, state: WerewolfState, action: tuple) -> None:
        problem = self.action_problem(state, action)
        if problem:
            raise IllegalAction("The game is over; no more moves can be made." if self.is_terminal(state) else problem)

    def random_action(self, state: WerewolfState, rng: Any) -> tuple:
        return rng.choice(self.legal_actions(state))

    def apply(self, state: WerewolfState, action: tuple) -> WerewolfState:
        self.require_legal(state, action)
        seat = state.pending[0]
        target = action[1] if action[0] in ("kill", "inspect", "protect", "vote") else -1
        text = action[1] if action[0] == "say" else ""
        event: Event = (action[0] if action[0] != "abstain" else "vote", state.round, seat, target, text)
        state = replace(state, ply=state.ply + 1, pending=state.pending[1:], events=(*state.events, event))
        if state.pending:
            return state
        if state.phase == "night":
            return self._dawn(state)
        if state.phase == "debate":
            return replace(state, phase="vote", pending=self.day_order(state))
        return self._tally(state)

    def _round_events(self, state: WerewolfState, kind: str) -> list[Event]:
        return [e for e in state.events if e[0] == kind and e[1] == state.round]

    def _dawn(self, state: WerewolfState) -> WerewolfState:
        """The last living wolf's pick is the victim (it saw its partner's pick); the doctor's protection saves."""
        kills = self._round_events(state, "kill")
        protected = {e[3] for e in self._round_events(state, "protect")}
        victim = kills[-1][3] if kills else -1
        if victim in protected:
            victim = -1
        alive = state.alive if victim < 0 else tuple(a and s != victim for s, a in enumerate(state.alive))
        state = replace(state, alive=alive, events=(*state.events, ("dawn", state.round, -1, victim, "")))
        return self._settle(replace(state, phase="debate"), next_phase_order=self.day_order)

    def _tally(self, state: WerewolfState) -> WerewolfState:
        """A strict majority of the votes cast removes that player; a tie or no majority removes no one."""
        exiled = majority(self._round_events(state, "vote"))
        alive = state.alive if exiled < 0 else tuple(a and s != exiled for s, a in enumerate(state.alive))
        state = replace(state, alive=alive, events=(*state.events, ("exile", state.round, -1, exiled, "")))
        if self._winner(state):
            return replace(state, phase="over", pending=(), result=self._winner(state))
        if state.round >= state.max_rounds:
            return replace(state, phase="over", pending=(), result="draw")
        state = replace(state, round=state.round + 1, phase="night")
        return replace(state, pending=self.night_order(state))

    def _settle(self, state: WerewolfState, next_phase_order: Any) -> WerewolfState:
        winner = self._winner(state)
        if winner:
            return replace(state, phase="over", pending=(), result=winner)
        return replace(state, pending=next_phase_order(state))

    def _winner(self, state: WerewolfState) -> str:
        wolves = sum(1 for s in self.living(state) if state.roles[s] == "werewolf")
        others = len(self.living(state)) - wolves
        if wolves == 0:
            return "village"
        if wolves >= others:
            return "wolves"
        return ""

    def outcome(self, state: WerewolfState) -> Outcome | None:
        if state.phase != "over":
            return None
        if state.result == "draw":
            return Outcome.draw(f"no side won within {state.max_rounds} rounds", PLAYERS)
        wolves_won = state.result == "wolves"
        scores = tuple(1.0 if (role == "werewolf") == wolves_won else 0.0 for role in state.roles)
        reason = "the werewolves equal or outnumber the others" if wolves_won else "both werewolves were removed"
        return Outcome(scores, reason)

    # -- JSON and notation ---------------------------------------------------------------

    def to_json(self, state: WerewolfState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "roles": list(state.roles),
            "alive": list(state.alive),
            "round": state.round,
            "phase": state.phase,
            "pending": list(state.pending),
            "events": [list(e) for e in state.events],
            "result": state.result,
            "max_rounds": state.max_rounds,
        }

    def from_json(self, data: dict[str, Any]) -> WerewolfState:
        return WerewolfState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            roles=tuple(str(r) for r in data["roles"]),
            alive=tuple(bool(a) for a in data["alive"]),
            round=int(data["round"]),
            phase=str(data["phase"]),
            pending=tuple(int(s) for s in data["pending"]),
            events=tuple((str(k), int(r), int(a), int(t), str(x)) for k, r, a, t, x in data["events"]),
            result=str(data["result"]),
            max_rounds=int(data["max_rounds"]),
        )

    def round_label(self, state: WerewolfState) -> str:
        return f"Night {state.round}" if state.phase == "night" else f"Day {state.round}"

    def action_to_text(self, state: WerewolfState, action: tuple) -> str:
        if action[0] == "say":
            return f"say {action[1]}"
        if action[0] == "abstain":
            return "abstain"
        return f"{action[0]} {NAMES[action[1]]}"

    def parse_action(self, state: WerewolfState, text: str) -> tuple:
        stripped = text.strip()
        verb, _, rest = stripped.partition(" ")
        verb = verb.lower().rstrip(":")
        if verb == "say":
            return ("say", rest.strip())
        if verb == "abstain" or (verb == "vote" and rest.strip().lower() in ("none", "nobody", "no one")):
            return ("abstain",)
        if verb in ("kill", "remove", "inspect", "investigate", "protect", "save", "vote"):
            target = seat_of(rest)
            if target is None:
                raise IllegalAction(f"{rest.strip()!r} is not a player; name one as P1–P8.")
            canonical = {"remove": "kill", "investigate": "inspect", "save": "protect"}.get(verb, verb)
            return (canonical, target)
        raise IllegalAction(
            f"Could not read {stripped[:80]!r}; answer 'say <message>', 'vote P<n>', 'abstain', "
            "'kill P<n>', 'inspect P<n>' or 'protect P<n>'."
        )

    def public_action_text(self, text: str) -> str:
        """Another seat's move while the match runs: debate messages are public; a night action would give the
        actor's role away and a vote is secret until the round's tally, so both read as what they are, no more."""
        verb = text.strip().partition(" ")[0].lower().rstrip(":")
        if verb == "say":
            return text
        return "(vote)" if verb in ("vote", "abstain") else "(night action)"

    def action_cells(self, state: WerewolfState, action: tuple) -> tuple[str, ...]:
        if action[0] in ("kill", "inspect", "protect", "vote"):
            return (NAMES[action[1]],)
        return (action[0] if action[0] == "abstain" else self.action_to_text(state, action),)

    # -- what each viewer sees ------------------------------------------------------------

    def known_roles(self, state: WerewolfState, viewer: int | None, reveal: bool) -> dict[int, str]:
        """Roles `viewer` knows: its own, its partner's (wolves), 'werewolf'/'not a werewolf' (seer's inspections)."""
        if reveal:
            return dict(enumerate(state.roles))
        if viewer is None:
            return {}
        known = {viewer: state.roles[viewer]}
        if state.roles[viewer] == "werewolf":
            known.update({s: "werewolf" for s, r in enumerate(state.roles) if r == "werewolf"})
        if state.roles[viewer] == "seer":
            for kind, _, actor, target, _ in state.events:
                if kind == "inspect" and actor == viewer:
                    known[target] = "werewolf" if state.roles[target] == "werewolf" else "not a werewolf"
        return known

    def visible_indices(self, state: WerewolfState, viewer: int | None, reveal: bool) -> list[int]:
        """Public events, own private ones, and the wolves' kills for wolves; votes once the round's vote is over."""
        wolf = viewer is not None and state.roles[viewer] == "werewolf"
        shown = []
        for index, event in enumerate(state.events):
            kind, number, actor, _, _ = event
            if (
                reveal
                or kind in ("dawn", "say", "exile")
                or actor == viewer
                or (kind == "kill" and wolf)
                or (kind == "vote" and not (number == state.round and state.phase == "vote"))
            ):
                shown.append(index)
        return shown

    def visible_events(self, state: WerewolfState, viewer: int | None, reveal: bool) -> list[Event]:
        return [state.events[i] for i in self.visible_indices(state, viewer, reveal)]

    def describe(self, state: WerewolfState, event: Event) -> str:
        kind, number, actor, target, text = event
        who = NAMES[actor] if actor >= 0 else ""
        whom = NAMES[target] if target >= 0 else ""
        if kind == "kill":
            return f"Night {number}: werewolf {who} chose {whom} as the victim."
        if kind == "inspect":
            found = "a werewolf" if state.roles[target] == "werewolf" else "not a werewolf"
            return f"Night {number}: seer {who} inspected {whom}: {found}."
        if kind == "protect":
            return f"Night {number}: doctor {who} protected {whom}."
        if kind == "dawn":
            return (
                f"Night {number}: {whom} was removed by the werewolves."
                if whom
                else f"Night {number}: no one was removed."
            )
        if kind == "say":
            return f"Day {number}: {who} said: {text}"
        if kind == "vote":
            return f"Day {number}: {who} voted {'to remove ' + whom if whom else 'to abstain'}."
        return f"Day {number}: the vote removed {whom}." if whom else f"Day {number}: no majority, no one was removed."

    def shown_to_move(self, state: WerewolfState, viewer: int | None) -> int | None:
        return self.shown_to_act(state, viewer, reveal=False)

    def shown_to_act(self, state: WerewolfState, viewer: int | None, reveal: bool) -> int | None:
        """Who acts now, as `viewer` may know it: at night the order (wolves, seer, doctor) would give roles away,
        so only the actor itself, and a viewer who already knows the actor is a werewolf, learn who it is."""
        to_act = self.current_player(state)
        if reveal or to_act is None or state.phase != "night" or to_act == viewer:
            return to_act
        return to_act if self.known_roles(state, viewer, reveal).get(to_act) == "werewolf" else None

    def chat_entry(self, state: WerewolfState, index: int, viewer: int | None, known: dict[int, str]) -> dict[str, Any]:
        """One visible event for the debate panel: a message (kind 'say') or a notice, with who and when."""
        kind, number, actor, target, text = state.events[index]
        part = "night" if kind in ("kill", "inspect", "protect", "dawn") else "day"
        described = self.describe(state, state.events[index])
        notice = "" if kind == "say" else described.partition(": ")[2]  # the group already says "Night 2"
        return {
            "index": index,
            "kind": kind,
            "round": number,
            "part": part,
            "group": f"{part.capitalize()} {number}",
            "text": described,
            "notice": notice[:1].upper() + notice[1:],
            "actor": actor if actor >= 0 else None,
            "speaker": NAMES[actor] if actor >= 0 else "",
            "speaker_role": known.get(actor, "") if actor >= 0 else "",
            "target": NAMES[target] if target >= 0 else "",
            "message": text if kind == "say" else "",
            "you": viewer is not None and actor == viewer,
            "secret": kind in ("kill", "inspect", "protect"),
        }

    def _view(self, state: WerewolfState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        known = self.known_roles(state, viewer, reveal)
        to_act = self.shown_to_act(state, viewer, reveal)
        voted = {e[2] for e in state.events if e[0] == "vote" and e[1] == state.round}
        players = [
            {
                "seat": s,
                "name": NAMES[s],
                "alive": state.alive[s],
                "role": known.get(s, ""),
                "you": s == viewer,
                "to_act": s == to_act,
                "voted": state.phase == "vote" and s in voted,
            }
            for s in range(PLAYERS)
        ]
        indices = self.visible_indices(state, viewer, reveal)
        return {
            "game": self.slug,
            "viewer": viewer,
            "round": state.round,
            "phase": state.phase,
            "to_act": to_act,
            "to_act_name": NAMES[to_act] if to_act is not None else "",
            "players": players,
            "living": sum(state.alive),
            "votes_cast": len(voted) if state.phase == "vote" else 0,
            "max_say": MAX_SAY,
            "log": [self.chat_entry(state, i, viewer, known) for i in indices],
            "result": state.result,
            "max_rounds": state.max_rounds,
        }

    def player_view(self, state: WerewolfState, player: int | None) -> dict[str, Any]:
        # No seed and no roles beyond what `player` knows: the seed deals the roles.
        return self._view(state, player, reveal=False)

    def full_view(self, state: WerewolfState) -> dict[str, Any]:
        view = self._view(state, None, reveal=True)
        view["seed"] = state.seed
        return view

    def public_history(self, state: WerewolfState) -> str:
        return "\n".join(self.describe(state, e) for e in self.visible_events(state, None, reveal=False))

    def rules_text(self) -> str:
        return (
            "Werewolf (also known as Mafia) for 8 players, P1–P8: 2 werewolves, 1 seer, 1 doctor and 4 villagers. "
            "Roles are secret; the werewolves know each other. Removed players' roles are never announced.\n"
            "Each round has a night and a day. Night: each living werewolf names a victim (the second werewolf "
            "sees its partner's pick, and the last werewolf's pick is final); the seer inspects one player and "
            "learns whether it is a werewolf; the doctor protects one player (itself allowed). At dawn the victim "
            "is removed unless the doctor protected it. Day: every living player says one message (up to 500 "
            "characters), in seat order starting one seat later each round; then every living player votes to "
            "remove another player or abstains. Votes stay secret until all have voted. A player is removed only "
            "with a strict majority of the votes cast; a tie or no majority removes no one.\n"
            "The villagers (seer, doctor and villagers) win when both werewolves are removed. The werewolves win "
            "when they are as many as the other living players. After 10 rounds without a winner the game is "
            "a draw.\n"
            "Answer with one action: night 'kill P<n>' (werewolf), 'inspect P<n>' (seer), 'protect P<n>' "
            "(doctor); day 'say <message>'; vote 'vote P<n>' or 'abstain'."
        )

    def observation_text(self, state: WerewolfState, player: int) -> str:
        view = self.player_view(state, player)
        lines = [f"You are {NAMES[player]}, the {state.roles[player]}."]
        partners = [p["name"] for p in view["players"] if p["role"] == "werewolf" and p["seat"] != player]
        if state.roles[player] == "werewolf" and partners:
            lines.append(f"Your fellow werewolf: {', '.join(partners)}.")
        lines.append(f"Round {state.round}, phase: {state.phase}.")
        lines.append("Living players: " + ", ".join(p["name"] for p in view["players"] if p["alive"]) + ".")
        if view["log"]:
            lines.append("What you know so far:\n" + "\n".join(f"  {e['text']}" for e in view["log"]))
        if view["result"]:
            lines.append(f"Game over: {view['result']}.")
        elif view["to_act"] == player:
            verb = NIGHT_VERBS.get(state.roles[player], "") if state.phase == "night" else state.phase
            lines.append(f"It is your turn to {verb}.")
        return "\n".join(lines)


def majority(votes: list[Event]) -> int:
    """The seat with more than half of the votes cast (abstentions are not cast), or -1."""
    cast = [e[3] for e in votes if e[3] >= 0]
    for seat in set(cast):
        if 2 * cast.count(seat) > len(cast):
            return seat
    return -1
