"""Chinese Official (MCR, Guobiao) Mahjong for four players, one hand, scored by pymahjonggb (games.mahjong.tiles).

The seed's wall (144 tiles with 8 flowers) is dealt 13 tiles a seat from the front, East (P1) first; flowers
are set aside and replaced at once. East draws first. On its turn a seat that drew may declare a self-drawn
win (Hu), a concealed kong (Gang X) or add to an exposed pung (BuGang X), and otherwise discards (Play X).
After a discard the three others answer in turn from the discarder's right, sealed until all have answered:
Hu, Peng, Gang (exposed kong), Chi X (only the next seat; X the middle tile of the chow) or Pass. Hu wins
over Peng/Gang, which win over Chi; among several Hu the first in turn order wins. After a BuGang the three
others answer likewise, Hu (robbing the kong: a win on the added tile, paid by the seat that added it) or
Pass. A win needs 8 fan without the flower fans. Kongs take a replacement tile. The hand is drawn when the
wall runs out. Option `wind` sets the prevalent wind (0 East, the default … 3 North) or "drawn" draws it
from the seed.

Variant "botzone" (options `walls="botzone"`, `wind="drawn"`): Botzone's duplicate mode, under which
BotzoneBench's logs replay exactly. 136 tiles, no flowers, four private walls of 34 (the seed's shuffle,
34 a seat in seat order, each drawn from its own front); each seat is dealt and draws from its own wall,
kong replacements too. The hand is drawn when the seat due to draw next has an empty wall; "last tile"
means the next seat's wall is empty, and then no chow, pung or kong may be made (nor a kong by a seat
whose own wall is empty). Option `walls` may also list the four walls' tiles (the importer's).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.mahjong.tiles import MIN_FAN, Pack, counted, fans, is_flower, name, shanten, suited, tile_of, wall_for

NAMES = ("P1", "P2", "P3", "P4")
WINDS = ("East", "South", "West", "North")
RESPONSES = ("Pass", "Peng", "Gang", "Hu")  # with "Chi X": the sealed answers to a discard


@dataclass(frozen=True)
class MahjongState:
    seed: int
    ply: int
    wall: tuple[int, ...]  # tiles left, drawn from the front
    hands: tuple[tuple[int, ...], ...]  # concealed tiles, sorted
    packs: tuple[tuple[Pack, ...], ...]  # exposed melds and concealed kongs (offer 0)
    flowers: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]  # discards not claimed
    phase: str  # "turn", "claims" or "over"
    turn: int  # the seat to act in "turn"; the discarder in "claims"
    drawn: int  # the tile just drawn, -1 after a chow or pung (the seat must discard)
    about_kong: bool  # the drawn tile replaced a kong
    responses: tuple[tuple, ...]  # sealed answers to the discard, by seat; () not yet answered
    events: tuple[tuple[int, str, int], ...]  # (seat, verb, tile): play, chi, peng, gang, angang, bugang, flower, hu
    result: tuple  # () while playing; (winner or -1, dealt-in seat or -1, ((points, count, name), ...))
    wind: int = 0  # the prevalent wind, 0 East … 3 North
    walls: tuple[tuple[int, ...], ...] = ()  # Botzone's private walls, drawn from the front; () a shared `wall`


def _draw(wall: list[int], flowers: list[int], events: list, seat: int) -> int | None:
    """The next non-flower tile from the front of `wall` (flowers go to `flowers`), None when the wall is empty."""
    while wall:
        tile = wall.pop(0)
        if not is_flower(tile):
            return tile
        flowers.append(tile)
        events.append((seat, "flower", tile))
    return None


def _without(hand: tuple[int, ...], *tiles: int) -> tuple[int, ...]:
    rest = list(hand)
    for tile in tiles:
        rest.remove(tile)
    return tuple(rest)


class Mahjong(Game[MahjongState, tuple]):
    slug = "mahjong"
    name = "Mahjong (Chinese Official)"
    num_players = 4
    seat_names = NAMES
    hidden_information = True
    chance = True
    has_controls = True

    # -- the contract -------------------------------------------------------------------

    variants = {"botzone": {"walls": "botzone", "wind": "drawn"}}

    def initial_state(self, *, seed: int, **options: Any) -> MahjongState:
        wind, walls = options.pop("wind", 0), options.pop("walls", None)
        if options or wind not in (0, 1, 2, 3, "drawn"):
            raise ValueError(
                f"Mahjong takes only the options wind (0–3 or 'drawn') and walls, not {options or wind!r}."
            )
        if wind == "drawn":
            wind = random.Random(f"mahjong/{seed}/wind").randrange(4)
        if walls is not None:
            return self._botzone_deal(seed, wind, walls)
        wall, events = list(wall_for(seed)), []
        hands, flowers = [], []
        for seat in range(4):
            mine, hand = [], []
            while len(hand) < 13:
                hand.append(_draw(wall, mine, events, seat))
            hands.append(hand)
            flowers.append(tuple(mine))
        east_flowers = list(flowers[0])
        drawn = _draw(wall, east_flowers, events, 0)
        hands[0].append(drawn)
        flowers[0] = tuple(east_flowers)
        return MahjongState(
            seed, 0, tuple(wall), tuple(tuple(sorted(h)) for h in hands), ((),) * 4, tuple(flowers), ((),) * 4,
            "turn", 0, drawn, False, ((),) * 4, tuple(events), (), wind,
        )  # fmt: skip

    def _botzone_deal(self, seed: int, wind: int, walls: Any) -> MahjongState:
        """Botzone's duplicate deal: 13 tiles a seat from its own wall, then East draws from its own."""
        if walls == "botzone":
            tiles = [t for t in range(34) for _ in range(4)]
            random.Random(f"mahjong/{seed}").shuffle(tiles)
            walls = [tiles[34 * s : 34 * s + 34] for s in range(4)]
        try:
            walls = [[tile_of(t) if isinstance(t, str) else int(t) for t in wall] for wall in walls]
        except (TypeError, ValueError) as error:
            raise ValueError(f"walls: {error}") from None
        if (
            len(walls) != 4
            or any(len(w) != 34 for w in walls)
            or sorted(t for w in walls for t in w) != sorted(t for t in range(34) for _ in range(4))
        ):
            raise ValueError("walls must be four walls of 34 tiles holding the 136 suit and honour tiles")
        hands = [tuple(sorted(w[:13])) for w in walls]
        drawn = walls[0][13]
        hands[0] = tuple(sorted((*hands[0], drawn)))
        rest = tuple(tuple(w[14:] if s == 0 else w[13:]) for s, w in enumerate(walls))
        return MahjongState(
            seed, 0, (), tuple(hands), ((),) * 4, ((),) * 4, ((),) * 4, "turn", 0, drawn, False, ((),) * 4, (), (),
            wind, rest,
        )  # fmt: skip

    def can_draw(self, state: MahjongState, seat: int) -> bool:
        """Whether `seat` has a tile to draw (its own wall in the botzone variant)."""
        return bool(state.walls[seat]) if state.walls else bool(state.wall)

    def wall_last(self, state: MahjongState) -> bool:
        """No tile for the next draw: the wall is empty, or (botzone) the wall of the seat after `turn`."""
        return not state.walls[(state.turn + 1) % 4] if state.walls else not state.wall

    def current_player(self, state: MahjongState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "turn":
            return state.turn
        return next(s for s in self.answer_order(state) if not state.responses[s])  # claims or rob

    def answer_order(self, state: MahjongState) -> list[int]:
        return [(state.turn + k) % 4 for k in (1, 2, 3)]

    def discard(self, state: MahjongState) -> int:
        return state.discards[state.turn][-1]

    def shown(self, state: MahjongState, tile: int) -> int:
        """Copies of `tile` everyone can see: discards and exposed melds."""
        count = sum(pile.count(tile) for pile in state.discards)
        for packs in state.packs:
            for kind, middle, offer in packs:
                if kind == "CHI":
                    count += tile in (middle - 1, middle, middle + 1)
                elif offer:
                    count += (4 if kind == "GANG" else 3) * (middle == tile)
        return count

    def win_fans(self, state: MahjongState, seat: int, tile: int, self_drawn: bool) -> list | None:
        """The fans if `seat` wins on `tile` now with at least 8 (without flowers), else None. In the rob phase
        the win is on a tile added to a pung: robbing the kong."""
        hand = _without(state.hands[seat], tile) if self_drawn else state.hands[seat]
        robbing = state.phase == "rob"
        found = fans(
            state.packs[seat], hand, tile,
            flowers=len(state.flowers[seat]), self_drawn=self_drawn,
            fourth_tile=self.shown(state, tile) == (3 if self_drawn else 4),
            about_kong=(self_drawn and state.about_kong) or robbing, wall_last=self.wall_last(state), seat_wind=seat,
            prevalent_wind=state.wind,
        )  # fmt: skip
        return found if found is not None and counted(found) >= MIN_FAN else None

    def legal_actions(self, state: MahjongState) -> list[tuple]:
        seat = self.current_player(state)
        if seat is None:
            return []
        hand = state.hands[seat]
        counts = Counter(hand)
        if state.phase == "rob":
            return [("pass",), ("hu",)] if self.win_fans(state, seat, state.drawn, False) else [("pass",)]
        if state.phase == "turn":
            actions: list[tuple] = []
            if state.drawn >= 0:
                if self.win_fans(state, seat, state.drawn, True):
                    actions.append(("hu",))
                if self.can_draw(state, seat) and not self.wall_last(state):
                    actions += [("gang", t) for t in sorted(counts) if counts[t] == 4]
                    actions += [("bugang", t) for k, t, _ in state.packs[seat] if k == "PENG" and t in counts]
            return actions + [("play", t) for t in sorted(counts)]
        tile = self.discard(state)
        actions = [("pass",)]
        if self.win_fans(state, seat, tile, False):
            actions.append(("hu",))
        if not self.wall_last(state):
            if counts[tile] >= 2:
                actions.append(("peng",))
            if counts[tile] == 3 and self.can_draw(state, seat):
                actions.append(("kong",))
            if seat == (state.turn + 1) % 4 and suited(tile):
                for middle in (tile - 1, tile, tile + 1):
                    if middle // 9 == tile // 9 and 1 <= middle % 9 <= 7:
                        need = [t for t in (middle - 1, middle, middle + 1) if t != tile]
                        if all(counts[t] for t in need):
                            actions.append(("chi", middle))
        return actions

    def apply(self, state: MahjongState, action: tuple) -> MahjongState:
        self.require_legal(state, action)
        return self.advance(state, action)

    def advance(self, state: MahjongState, action: tuple) -> MahjongState:
        """`apply` without the legality check: for simulations that only make legal moves."""
        seat = self.current_player(state)
        fields = {f: getattr(state, f) for f in state.__dataclass_fields__} | {"ply": state.ply + 1}
        if state.phase in ("claims", "rob"):
            responses = tuple(action if s == seat else r for s, r in enumerate(state.responses))
            fields["responses"] = responses
            if all(responses[s] for s in self.answer_order(state)):
                resolve = self._resolve if state.phase == "claims" else self._resolve_rob
                return resolve(MahjongState(**fields))
            return MahjongState(**fields)
        hands, packs = list(state.hands), list(state.packs)
        verb = action[0]
        if verb == "hu":
            found = self.win_fans(state, seat, state.drawn, True)
            result = (seat, -1, tuple(tuple(f) for f in found))
            events = (*state.events, (seat, "hu", state.drawn))
            return MahjongState(**fields | {"phase": "over", "result": result, "events": events})
        if verb == "play":
            hands[seat] = _without(hands[seat], action[1])
            discards = tuple((*d, action[1]) if s == seat else d for s, d in enumerate(state.discards))
            return MahjongState(
                **fields
                | {
                    "hands": tuple(hands),
                    "discards": discards,
                    "phase": "claims",
                    "drawn": -1,
                    "about_kong": False,
                    "responses": tuple(("-",) if s == seat else () for s in range(4)),
                    "events": (*state.events, (seat, "play", action[1])),
                }
            )
        tile = action[1]
        if verb == "gang":
            hands[seat] = _without(hands[seat], tile, tile, tile, tile)
            packs[seat] = (*packs[seat], ("GANG", tile, 0))
            event = (seat, "angang", tile)
            return self._replacement(
                MahjongState(**fields | {"hands": tuple(hands), "packs": tuple(packs)}), seat, event
            )
        # bugang: the pung becomes a kong, and the others may rob it (win on the added tile) before the replacement
        hands[seat] = _without(hands[seat], tile)
        packs[seat] = tuple(("GANG", t, o) if (k, t) == ("PENG", tile) else (k, t, o) for k, t, o in packs[seat])
        rob = {
            "hands": tuple(hands), "packs": tuple(packs), "phase": "rob", "drawn": tile, "about_kong": False,
            "responses": tuple(("-",) if s == seat else () for s in range(4)),
            "events": (*state.events, (seat, "bugang", tile)),
        }  # fmt: skip
        return MahjongState(**fields | rob)

    def _resolve_rob(self, state: MahjongState) -> MahjongState:
        """Every answer to a BuGang is in: the first Hu robs the kong (the kong's owner pays), else it draws."""
        tile, owner = state.drawn, state.turn
        fields = self._fields(state) | {"responses": ((),) * 4}
        winner = next((s for s in self.answer_order(state) if state.responses[s][0] == "hu"), None)
        if winner is not None:
            found = self.win_fans(state, winner, tile, False)
            result = (winner, owner, tuple(tuple(f) for f in found))
            return MahjongState(
                **fields | {"phase": "over", "result": result, "events": (*state.events, (winner, "hu", tile))}
            )
        return self._replacement(MahjongState(**fields | {"phase": "turn"}), owner, None)

    def _replacement(self, state: MahjongState, seat: int, event: tuple | None) -> MahjongState:
        """After a kong: `seat` draws a replacement tile (the hand is drawn when none is left). `event` (None: a
        BuGang's, already logged) is logged first."""
        wall = list(state.walls[seat] if state.walls else state.wall)
        flowers = list(state.flowers[seat])
        events = [*state.events] if event is None else [*state.events, event]
        tile = _draw(wall, flowers, events, seat)
        all_flowers = tuple(tuple(flowers) if s == seat else f for s, f in enumerate(state.flowers))
        common = {"flowers": all_flowers, "events": tuple(events), "turn": seat}
        if state.walls:
            common["walls"] = tuple(tuple(wall) if s == seat else w for s, w in enumerate(state.walls))
        else:
            common["wall"] = tuple(wall)
        if tile is None:
            return MahjongState(**self._fields(state) | common | {"phase": "over", "result": (-1, -1, ())})
        hands = tuple(tuple(sorted((*h, tile))) if s == seat else h for s, h in enumerate(state.hands))
        extra = {"hands": hands, "phase": "turn", "drawn": tile, "about_kong": event is None or event[1] != "draw"}
        return MahjongState(**self._fields(state) | common | extra | {"responses": ((),) * 4})

    def _fields(self, state: MahjongState) -> dict[str, Any]:
        return {f: getattr(state, f) for f in state.__dataclass_fields__}

    def _resolve(self, state: MahjongState) -> MahjongState:
        """Every answer is in: the first Hu, else a Peng or Gang, else a Chi, else the next seat draws."""
        tile, thrower = self.discard(state), state.turn
        order = self.answer_order(state)
        answers = {s: state.responses[s] for s in order}
        fields = self._fields(state) | {"responses": ((),) * 4}
        winner = next((s for s in order if answers[s][0] == "hu"), None)
        if winner is not None:
            found = self.win_fans(state, winner, tile, False)
            result = (winner, thrower, tuple(tuple(f) for f in found))
            return MahjongState(
                **fields | {"phase": "over", "result": result, "events": (*state.events, (winner, "hu", tile))}
            )
        claimer = next((s for s in order if answers[s][0] in ("peng", "kong")), None)
        claimer = claimer if claimer is not None else next((s for s in order if answers[s][0] == "chi"), None)
        if claimer is None:
            return self._replacement(MahjongState(**fields), order[0], (order[0], "draw", -1))
        verb = answers[claimer][0]
        discards = tuple(d[:-1] if s == thrower else d for s, d in enumerate(state.discards))
        hands, packs = list(state.hands), list(state.packs)
        if verb == "chi":
            middle = answers[claimer][1]
            hands[claimer] = _without(hands[claimer], *[t for t in (middle - 1, middle, middle + 1) if t != tile])
            packs[claimer] = (*packs[claimer], ("CHI", middle, tile - middle + 2))
        else:
            width = 2 if verb == "peng" else 3
            hands[claimer] = _without(hands[claimer], *[tile] * width)
            packs[claimer] = (*packs[claimer], ("PENG" if verb == "peng" else "GANG", tile, (claimer - thrower) % 4))
        claimed = {"hands": tuple(hands), "packs": tuple(packs), "discards": discards}
        event = (claimer, {"chi": "chi", "peng": "peng", "kong": "gang"}[verb], tile)
        if verb == "kong":
            return self._replacement(MahjongState(**fields | claimed), claimer, event)
        extra = {"phase": "turn", "turn": claimer, "drawn": -1, "about_kong": False, "events": (*state.events, event)}
        return MahjongState(**fields | claimed | extra)

    def outcome(self, state: MahjongState) -> Outcome | None:
        if state.phase != "over":
            return None
        winner, thrower, found = state.result
        if winner < 0:
            return Outcome.draw("The wall ran out: a drawn hand.", 4)
        total = sum(points * count for points, count, _ in found)
        listed = ", ".join(f"{n} {p}" + (f"×{c}" if c > 1 else "") for p, c, n in found)
        if thrower < 0:
            scores = tuple(1.0 if s == winner else 0.0 for s in range(4))
            how = f"by self-draw; each other seat pays {8 + total}"
        else:
            scores = tuple(1.0 if s == winner else 0.0 if s == thrower else 0.5 for s in range(4))
            robbed = len(state.events) > 1 and state.events[-2][1] == "bugang"
            taken = f"by robbing {NAMES[thrower]}'s kong" if robbed else f"on {NAMES[thrower]}'s discard"
            how = f"{taken}; {NAMES[thrower]} pays {8 + total}, the others 8"
        return Outcome(scores, f"{NAMES[winner]} wins {how}. {total} fan: {listed}.")

    def team_of(self, state: MahjongState, seat: int) -> int:
        return seat

    def ladder_scores(self, state: MahjongState) -> tuple[float, ...]:
        """The outcome's scores; when the wall ran out, a seat fewer tiles from ready scores higher (ladder steps
        only: bots other than random rarely differ otherwise, docs/games.md)."""
        if state.result[0] >= 0:
            return self.outcome(state).scores  # type: ignore[union-attr]
        return tuple(0.5 - shanten(packs, hand) / 100 for packs, hand in zip(state.packs, state.hands, strict=True))

    # -- record and notation (Botzone's: Play W3, Chi W2, Peng, Gang, Gang W3, BuGang B7, Hu, Pass) --------

    def to_json(self, state: MahjongState) -> dict[str, Any]:
        data = self._fields(state)
        for key in ("wind", "walls"):
            if not data[key]:
                del data[key]  # the defaults: records read as before
        return {k: (to_lists(v) if isinstance(v, tuple) else v) for k, v in data.items()}

    def from_json(self, data: dict[str, Any]) -> MahjongState:
        return MahjongState(**{k: (to_tuples(v) if isinstance(v, list) else v) for k, v in data.items()})

    def action_to_text(self, state: MahjongState, action: tuple) -> str:
        verb = action[0]
        words = {"hu": "Hu", "pass": "Pass", "peng": "Peng", "kong": "Gang"}
        if verb in words:
            return words[verb]
        return {"play": "Play", "gang": "Gang", "bugang": "BuGang", "chi": "Chi"}[verb] + f" {name(action[1])}"

    def parse_action(self, state: MahjongState, text: str) -> tuple:
        words = text.strip().split()
        if not words:
            raise IllegalAction("Write an action: Play W3, Chi W2, Peng, Gang, Gang W3, BuGang B7, Hu or Pass.")
        verb = words[0].lower()
        if len(words) == 1 and verb in ("hu", "pass", "peng", "gang"):
            return ("kong",) if verb == "gang" else (verb,)
        if len(words) == 2 and verb in ("play", "gang", "bugang", "chi"):
            try:
                return (verb, tile_of(words[1]))
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        raise IllegalAction(
            f"{text.strip()[:30]!r} is not an action: write Play W3, Chi W2 (the middle tile), Peng, Gang, "
            "Gang W3 (concealed kong), BuGang B7, Hu or Pass."
        )

    def public_action_text(self, text: str) -> str:
        """Answers to a discard stay sealed until all are in (the winning claim is then in the table's log);
        a concealed kong does not show its tile."""
        first = text.split()[0] if text.split() else ""
        if text in RESPONSES or first == "Chi":
            return "(answer to a discard)"
        if first == "Gang":
            return "Gang (concealed)"
        return text

    def action_cells(self, state: MahjongState, action: tuple) -> tuple[str, ...]:
        """A discard is a click on the tile in the hand; every other action is its button."""
        return (name(action[1]),) if action[0] == "play" else (self.action_to_text(state, action),)

    # -- what each viewer sees ---------------------------------------------------------------

    def player_view(self, state: MahjongState, player: int | None) -> dict[str, Any]:
        return mahjong_view(self, state, player, reveal=False)

    def full_view(self, state: MahjongState) -> dict[str, Any]:
        return mahjong_view(self, state, None, reveal=True)

    def describe(self, event: tuple, viewer: int | None, reveal: bool) -> str:
        seat, verb, tile = event
        who = NAMES[seat]
        if verb == "angang":
            return f"{who} declares a concealed kong" + (f" of {name(tile)}" if reveal or seat == viewer else "")
        if verb == "draw":
            return f"{who} draws"
        return f"{who} {VERBS[verb]} {name(tile)}"

    def public_history(self, state: MahjongState) -> str:
        return "\n".join(self.describe(e, None, False) for e in state.events)

    def unshown(self, state: MahjongState, player: int) -> dict[str, int]:
        """Copies of each tile `player` has not seen (in the wall or the others' concealed hands)."""
        counts = Counter(range(34))
        for tile in range(34):
            counts[tile] = 4 - self.shown(state, tile) - state.hands[player].count(tile)
        for kind, tile, offer in state.packs[player]:
            if kind == "GANG" and offer == 0:
                counts[tile] -= 4
        return {name(t): n for t, n in sorted(counts.items()) if n > 0}

    def observation_text(self, state: MahjongState, player: int) -> str:
        view = self.player_view(state, player)
        me = view["seats"][player]
        lines = [
            f"You are {NAMES[player]}, seat wind {WINDS[player]} (prevalent wind {WINDS[state.wind]}). "
            f"Wall: {view['wall']} tiles."
        ]
        if state.walls:
            counts = ", ".join(f"{NAMES[s]} {len(w)}" for s, w in enumerate(state.walls))
            lines.append(
                f"Botzone's private walls: each player draws only from its own ({counts}); no flowers. The hand is "
                "drawn when the next player to draw has an empty wall, and no chow, pung or kong is allowed then."
            )
        lines.append(f"Your hand: {' '.join(me['hand'])}" + (f" (just drew {view['drawn']})" if view["drawn"] else ""))
        for seat in view["seats"]:
            melds = "; ".join(seat["packs"]) or "none"
            lines.append(
                f"{seat['name']}{' (you)' if seat['you'] else ''}: {seat['count']} concealed tiles, melds: {melds}, "
                f"flowers: {' '.join(seat['flowers']) or 'none'}, discards: {' '.join(seat['discards']) or 'none'}"
            )
        lines.append(
            "Unshown tiles (not in your hand, melds or discards): "
            + ", ".join(f"{t}×{n}" for t, n in self.unshown(state, player).items())
        )
        if view["offered"] and state.phase == "rob":
            lines.append(
                f"{view['offered']['seat']} adds {view['offered']['tile']} to a pung: answer Hu to rob the kong "
                "(win on that tile) or Pass (answers are sealed)."
            )
        elif view["offered"]:
            lines.append(
                f"{view['offered']['seat']} discarded {view['offered']['tile']}: answer it (answers are sealed)."
            )
        if view["result"]:
            lines.append(view["result"])
        return "\n".join(lines)

    def rules_text(self) -> str:
        return (
            "Chinese Official Mahjong (MCR, Guobiao) for four players P1 (East), P2 (South), P3 (West), P4 (North), "
            "one hand, prevalent wind East unless your observation says otherwise. Tiles: W1–W9 characters, "
            "T1–T9 bamboo, B1–B9 dots, F1–F4 winds "
            "(east, south, west, north), J1–J3 dragons (red, green, white), four of each; H1–H8 flowers (set aside "
            "and replaced automatically; each is worth 1 fan that does not count toward the minimum). Each player "
            "holds 13 tiles; East starts by drawing. A complete hand is four melds (chow: three in a row of one "
            "suit; pung: three alike; kong: four alike) and a pair, or a special hand (seven pairs, thirteen "
            "orphans, knitted hands …); it wins only with at least 8 fan of the 81 MCR patterns (without flowers). "
            "On your turn after drawing: 'Hu' (self-drawn win), 'Gang W3' (concealed kong of four in hand), "
            "'BuGang W3' (add a drawn tile to your exposed pung), or discard with 'Play W3'. After a chow or pung "
            "you must discard. When another player discards, answer: 'Hu' (win on it), 'Peng' (pung it), 'Gang' "
            "(kong it with three in hand), 'Chi W2' (only the player after the discarder; the chow's middle tile) "
            "or 'Pass'. Hu beats Peng/Gang, which beat Chi; answers are sealed until all three are in. When a "
            "player adds a tile to a pung (BuGang), the others answer 'Hu' (robbing the kong: you win on that "
            "tile, paid by that player) or 'Pass'. Kongs draw a "
            "replacement tile. The hand is a draw when the wall runs out. Scoring: the winner gets 8 + fan from the "
            "discarder and 8 from each other player, or 8 + fan from each by self-draw. Your observation lists "
            "your hand, every player's melds, flowers and discards, and the unshown tile counts. Briefly evaluate "
            "a few promising moves and give the reason for your choice before answering."
        )


VERBS = {
    "play": "discards",
    "chi": "chows",
    "peng": "pungs",
    "gang": "kongs (exposed)",
    "bugang": "adds to a pung (kong)",
    "flower": "sets aside flower",
    "hu": "wins (Hu) with",
}


def to_lists(value: Any) -> Any:
    return [to_lists(v) for v in value] if isinstance(value, tuple) else value


def to_tuples(value: Any) -> Any:
    return tuple(to_tuples(v) for v in value) if isinstance(value, list) else value


def pack_text(pack: Pack, shown: bool) -> str:
    kind, tile, offer = pack
    if kind == "CHI":
        return f"Chi {name(tile - 1)} {name(tile)} {name(tile + 1)}"
    if kind == "GANG" and offer == 0:
        return f"concealed Gang {name(tile)}" if shown else "concealed Gang"
    return f"{'Peng' if kind == 'PENG' else 'Gang'} {name(tile)}"


def mahjong_view(game: Mahjong, state: MahjongState, viewer: int | None, reveal: bool) -> dict[str, Any]:
    """The table as `viewer` may see it (no seed, no wall order, no other concealed hand until `reveal`)."""
    to_move = game.current_player(state)
    seats = []
    for seat in range(4):
        shown = reveal or seat == viewer
        seats.append(
            {
                "name": NAMES[seat],
                "wind": WINDS[seat],
                "you": seat == viewer,
                "to_act": seat == to_move,
                "count": len(state.hands[seat]),
                "hand": [name(t) for t in state.hands[seat]] if shown else [],
                "hand_text": " ".join(name(t) for t in state.hands[seat]) if shown else "",
                "packs": [pack_text(p, shown) for p in state.packs[seat]],
                "flowers": [name(t) for t in state.flowers[seat]],
                "discards": [name(t) for t in state.discards[seat]],
                "answered": bool(state.responses[seat]) and state.phase in ("claims", "rob") and seat != state.turn,
                "answer": game.action_to_text(state, state.responses[seat])
                if shown and state.responses[seat] and state.phase in ("claims", "rob") and seat != state.turn
                else "",
            }
        )
    winner, _thrower, found = state.result or (-1, -1, ())
    outcome = game.outcome(state)
    legal = game.legal_actions(state) if viewer is not None and to_move == viewer else []
    return {
        "seats": seats,
        "you": viewer,
        "wall": sum(map(len, state.walls)) if state.walls else len(state.wall),
        "phase": state.phase,
        "drawn": name(state.drawn)
        if state.drawn >= 0 and (reveal or viewer == state.turn) and state.phase == "turn"
        else "",
        "offered": {"seat": NAMES[state.turn], "tile": name(game.discard(state))}
        if state.phase == "claims"
        else {"seat": NAMES[state.turn], "tile": name(state.drawn)}
        if state.phase == "rob"
        else None,
        "log": [game.describe(e, viewer, reveal) for e in state.events if e[1] != "draw"][-40:],
        "buttons": [game.action_to_text(state, a) for a in legal if a[0] != "play"],
        "discardable": sorted({name(a[1]) for a in legal if a[0] == "play"}),
        "fans": [{"name": n, "points": p, "count": c} for p, c, n in found],
        "fan_total": sum(p * c for p, c, _ in found),
        "winner": NAMES[winner] if winner >= 0 else "",
        "result": outcome.reason if outcome else "",
    }
