"""What each viewer of a Diplomacy game sees, and the texts for people and models."""

from __future__ import annotations

from typing import Any

from games.diplomacy.board_svg import drawing
from games.diplomacy.engine import POWERS, results
from games.diplomacy.rules import (
    ALL,
    DEFAULT_MAX_YEAR,
    MAX_MESSAGE,
    SEAT_NAMES,
    DiplomacyRules,
    DiplomacyState,
    Message,
    kind_of,
)

SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def phase_long(phase: str) -> str:
    """'S1901M' → 'Spring 1901 movement'."""
    if phase == "COMPLETED":
        return "game over"
    return f"{SEASONS[phase[0]]} {phase[1:5]} {KINDS[phase[-1]]}"


class Diplomacy(DiplomacyRules):
    def round_label(self, state: DiplomacyState) -> str:
        return phase_long(self.board(state).phase)

    def message_entry(self, message: Message, viewer: int | None) -> dict[str, Any]:
        phase, number, sender, recipient, text = message
        return {
            "phase": phase,
            "phase_long": phase_long(phase),
            "round": number + 1,
            "sender": SEAT_NAMES[sender],
            "recipient": SEAT_NAMES[recipient] if recipient >= 0 else ALL,
            "text": text,
            "you": viewer is not None and sender == viewer,
            "private": recipient >= 0,
        }

    def view(self, state: DiplomacyState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        now = self.board(state)
        to_act = self.current_player(state)
        powers = []
        for seat, name in enumerate(SEAT_NAMES):
            powers.append(
                {
                    "seat": seat,
                    "name": name,
                    "units": list(now.units[seat]),
                    "centres": list(now.centres[seat]),
                    "builds": now.builds[seat],
                    "points": state.points[seat],
                    "waiting": seat in state.pending,
                    "sealed": not state.over and seat not in state.pending and seat in self.actors(now),
                    "to_act": seat == to_act,
                    "you": seat == viewer,
                    "sealed_orders": list(state.sealed[seat]) if reveal or seat == viewer else None,
                }
            )
        last = state.history[-1] if state.history else None
        return {
            "game": self.slug,
            "viewer": viewer,
            "variant": "welfare" if state.welfare else "classic",
            "phase": now.phase,
            "phase_long": phase_long(now.phase),
            "round": state.round + 1,
            "rounds": self.rounds_in(state, now.phase),
            "talking": self.talking(state),
            "max_year": state.max_year,
            "max_message": MAX_MESSAGE,
            "to_act": to_act,
            "to_act_name": SEAT_NAMES[to_act] if to_act is not None else "",
            "powers": powers,
            "options": [list(orders) for _, orders in now.options[viewer]] if viewer is not None else [],
            "last_phase": last[0] if last else "",
            "last_phase_long": phase_long(last[0]) if last else "",
            "last_orders": {SEAT_NAMES[s]: list(o) for s, o in enumerate(last[1])} if last else {},
            "last_results": results(state.history),
            "messages": [self.message_entry(m, viewer) for m in self.visible_messages(state, viewer, reveal)],
            "over": state.over,
            "map": drawing(
                [list(u) for u in now.units],
                [list(c) for c in now.centres],
                [list(o) for o in last[1]] if last else [],
                list(SEAT_NAMES),
            ),
        }

    def player_view(self, state: DiplomacyState, player: int | None) -> dict[str, Any]:
        # No seed, no other power's sealed orders, no message the viewer did not send or receive.
        return self.view(state, player, reveal=False)

    def full_view(self, state: DiplomacyState) -> dict[str, Any]:
        view = self.view(state, None, reveal=True)
        view["seed"] = state.seed
        return view

    def public_history(self, state: DiplomacyState) -> str:
        """Every resolved phase's executed orders: public once the phase resolves."""
        lines = []
        for phase, orders in state.history[-6:]:
            given = "; ".join(f"{SEAT_NAMES[s]}: {', '.join(o)}" for s, o in enumerate(orders) if o)
            lines.append(f"{phase}: {given or 'no orders'}")
        return "\n".join(lines)

    def rules_text(self) -> str:
        return (
            "Diplomacy on the standard map for seven powers: Austria, England, France, Germany, Italy, Russia, "
            "Turkey. Each year has Spring and Fall movement phases, retreats after a movement phase in which units "
            "were dislodged, and Winter adjustments. 34 provinces are supply centres; a centre belongs to the last "
            "power to occupy it after a Fall phase. In Winter each power builds units in its free, owned home "
            "centres or disbands units until it has as many units as centres.\n"
            "All powers order at the same time: each power seals its orders for the phase and nobody sees them "
            "until every power has sealed and the engine (the DATC-compliant `diplomacy` package) resolves them. "
            "Orders use standard syntax, one per unit: hold 'A PAR H'; move 'A WAL - LVP'; support 'A WAL S F IRI "
            "- LVP' or 'A MAR S A PAR'; convoy 'F NTH C A YOR - NWY' (the army writes 'A YOR - NWY VIA'); retreat "
            "'A VEN R TUS'; disband 'A VEN D'; build 'A PAR B' or 'F STP/SC B'; 'WAIVE' skips a build. A unit "
            "without an order holds. Equal strength bounces; support is cut by an attack from elsewhere.\n"
            "Negotiation: in each movement phase there are up to two rounds; in each round every power sends "
            "messages (one per recipient: a power, or ALL) and its orders, and only the orders of the last round "
            "are executed. A round's messages arrive when every power has finished the round; nobody but the "
            "sender and the recipients ever reads a private message while the game runs. No messages in retreats "
            "or adjustments. Promises are not binding.\n"
            "Classic rules: a power holding 18 supply centres wins alone; if nobody has by the end of "
            f"{DEFAULT_MAX_YEAR} (the default), the power with the most centres wins; with a shared lead nobody "
            "wins. Other powers still holding a centre draw; powers without centres lose.\n"
            "Welfare variant (Welfare Diplomacy): after each year's adjustments every power earns welfare points "
            "= supply centres − units; the game ends after W1910A and the power with the most welfare points wins "
            "(a tie shares the win). There is no solo victory.\n"
            "Answer with a JSON object, as DSGBench's agents do (keep your reasoning private, under 500 words):\n"
            '{"reasoning": "...", "orders": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"], '
            '"messages": {"England": "Shall we keep the Channel demilitarised?", "Global": "France wants peace."}}\n'
            "People may also type lines: 'orders: A PAR - BUR; F BRE - MAO', then 'to England: …' or 'to ALL: …'."
        )

    def observation_text(self, state: DiplomacyState, player: int) -> str:
        view = self.player_view(state, player)
        me = view["powers"][player]
        lines = [
            f"You are {SEAT_NAMES[player]}. Phase: {view['phase']} ({view['phase_long']}), "
            f"round {view['round']} of {view['rounds']}."
        ]
        lines.append(
            "Supply centres: " + "; ".join(f"{p['name']} {', '.join(p['centres']) or '-'}" for p in view["powers"])
        )
        lines.append("Units: " + "; ".join(f"{p['name']} {', '.join(p['units']) or '-'}" for p in view["powers"]))
        lines.append(
            "Counts (centres/units/welfare points): "
            + "; ".join(f"{p['name']} {len(p['centres'])}/{len(p['units'])}/{p['points']}" for p in view["powers"])
        )
        history = self.public_history(state)
        if history:
            lines.append("Recent orders:\n" + history)
        if view["messages"]:
            lines.append(
                "Messages you sent or received:\n"
                + "\n".join(
                    f"  {m['phase']} r{m['round']} {m['sender']} → {m['recipient']}: {m['text']}"
                    for m in view["messages"]
                )
            )
        if state.over:
            lines.append("The game is over.")
            return "\n".join(lines)
        if view["to_act"] != player:
            return "\n".join(lines)
        if kind_of(view["phase"]) == "A":
            owed = me["builds"]
            verb = f"build up to {owed}" if owed > 0 else f"disband {-owed}"
            lines.append(f"Adjustments: you may {verb} unit(s).")
        lines.append("Your possible orders, by unit or location:")
        lines += [f"  {', '.join(orders)}" for orders in view["options"]]
        if view["talking"]:
            final = view["round"] == view["rounds"]
            lines.append(
                f"You may send messages (one per recipient, up to {MAX_MESSAGE} characters). "
                + (
                    "These orders are executed."
                    if final
                    else "These orders are a draft; the last round's are executed."
                )
            )
        return "\n".join(lines)


__all__ = ["POWERS", "Diplomacy", "phase_long"]
