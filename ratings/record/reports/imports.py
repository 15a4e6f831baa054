"""Published results as reference rows: GameBench's matches.json (results only) and BotzoneBench's game logs,
every Botzone move replayed through our engines (with Botzone's rules as named variants) before it is accepted.

`reference_records_import` is the only writer; importing the same file twice adds nothing. A strict read
(`strict=True`, `import_records --strict`) also rejects a log for any detail of the judge's display our replay
does not reproduce: every hold'em hand's category (`max_hand_type`) and Mahjong's wall counts on every entry (the
board games' and Fight the Landlord's logs show nothing a replay leaves unchecked).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from games import get_game
from games.fight_the_landlord.combos import rank_of
from games.holdem.cards import botzone_best_hand, botzone_card
from games.mahjong.tiles import name as tile_name
from games.mahjong.tiles import tile_of
from ratings.record.models import ReferenceRecord

GAMEBENCH = {"repository": "Joshuaclymer/GameBench", "commit": "main"}
BOTZONE = {"repository": "AMysteriousBeing/BotzoneBench", "commit": "ca70a864e5ff5732ce8674fdfb3a9d5803cd8c27"}
#: Botzone's game names → (our slug, the variant whose rules Botzone's judge follows).
BOTZONE_GAMES = {
    "TicTacToe": ("tic-tac-toe", ""),
    "Gomoku": ("gomoku", ""),
    "Reversi": ("reversi", ""),
    "Ataxx": ("ataxx", "botzone"),
    "Chess": ("chess", "botzone"),
    "TexasHoldem2p": ("holdem", "botzone"),
    "FightTheLandlord": ("fight-the-landlord", "botzone"),
    "ChineseStandardMahjong": ("mahjong", "botzone"),
}
FILE_NAME = re.compile(
    r"(?P<game>[A-Za-z0-9]+)__lv(?P<level>\d+)__(?P<model>.+)__(?P<n>\d+)-(?P<kind>llm|bl)(?P<rematch>-re)?\.json"
)


class RecordRejected(ValueError):
    """A record that cannot be accepted; the message names the file, the entry and why."""


@dataclass
class Parsed:
    """One record ready to store."""

    path: str
    index: int
    game: str
    agents: list[str]
    scores: list[float]
    variant: str = ""
    level: int | None = None
    moves: list[str] = field(default_factory=list)
    termination: str = ""


def gamebench_records(path: Path) -> list[Parsed]:
    """GameBench's matches.json: `{"game": g, "<agent>": score, "<agent>": score}` per match, results only."""
    out = []
    for index, entry in enumerate(json.loads(path.read_text())):
        players = [(k, v) for k, v in entry.items() if k != "game"]
        if len(players) != 2 or not all(isinstance(v, int | float) and 0 <= v <= 1 for _, v in players):
            raise RecordRejected(f"{path.name} entry {index}: expected a game and two scores in [0, 1], got {entry!r}")
        out.append(
            Parsed(path.name, index, str(entry["game"]), [p for p, _ in players], [float(v) for _, v in players])
        )
    return out


def botzone_action(slug: str, state: Any, move: dict) -> Any:
    """Our action for one Botzone log entry (x is the column, y the row counted from the top)."""
    if slug == "chess":
        promotion = move.get("promotion", "*")
        return f"{move['source']}{move['target']}{'' if promotion in ('*', None) else promotion}"
    if slug == "ataxx":
        source, to = (6 - move["y0"]) * 7 + move["x0"], (6 - move["y1"]) * 7 + move["x1"]
        return (to,) if max(abs(move["x0"] - move["x1"]), abs(move["y0"] - move["y1"])) == 1 else (source, to)
    if slug == "reversi" and move["x"] == -1:
        return 64  # pass
    size = {"tic-tac-toe": 3, "gomoku": 15, "reversi": 8}[slug]
    return move["y"] * size + move["x"]


def botzone_winner(slug: str, winner: Any) -> int | None:
    """Our seat that won, None for a draw: Botzone's chess judge numbers black 0, white 1, draw 2; gomoku's
    judge writes "none" for a draw."""
    if winner == "none":
        return None
    if slug == "chess":
        return {0: 1, 1: 0, 2: None}[int(winner)]
    return int(winner)


def botzone_record(path: Path, *, strict: bool = False) -> Parsed:
    """One Botzone log replayed move by move; RecordRejected at the first move our rules reject or result they deny
    (and, `strict`, at any other difference from the judge's display)."""
    named = FILE_NAME.fullmatch(path.name)
    if not named or named["game"] not in BOTZONE_GAMES:
        raise RecordRejected(f"{path.name}: not a Botzone log name Game__lv<k>__<model>__<n>-llm|bl.json we can read")
    slug, variant = BOTZONE_GAMES[named["game"]]
    game = get_game(slug)
    log = json.loads(path.read_text())
    if slug in CARD_GAMES:
        moves, scores, termination = CARD_GAMES[slug](path.name, game, log, strict)
        return botzone_parsed(named, path.name, slug, variant, moves, scores, termination)
    state = game.initial_state(seed=0, **game.variants.get(variant, {}))
    moves, winner, judged, forfeit = [], None, False, False
    for index, entry in enumerate(log[1:], start=1):
        if not isinstance(entry, dict) or forfeit:
            raise RecordRejected(f"{path.name} entry {index}: not a move")
        # Botzone's judges end a game on an invalid response with an entry naming the winner and no move
        # (`{"winner": w}`, tic-tac-toe adds `err`): a forfeit by the player to move, and a result.
        forfeit = "winner" in entry and not set(entry) - {"player", "color", "winner", "err"}
        if set(entry) - {"player", "color", "winner", "err"}:
            action = botzone_action(slug, state, entry)
            if not game.is_legal(state, action):
                raise RecordRejected(
                    f"{path.name} entry {index}: {entry!r} is not legal in our {slug} at ply {len(moves)}"
                )
            moves.append(game.action_to_text(state, action))
            state = game.apply(state, action)
        if "winner" in entry:
            winner, judged = botzone_winner(slug, entry["winner"]), True
    outcome = game.outcome(state)
    if outcome is None and not forfeit:
        raise RecordRejected(f"{path.name}: the log ends at ply {len(moves)} but our {slug} game is not over")
    if outcome is not None:
        if judged and outcome.winner != winner:
            raise RecordRejected(f"{path.name}: Botzone's judge says {winner}, our replay says {outcome.winner}")
        scores, termination = list(outcome.scores), outcome.reason
    else:
        mover = game.current_player(state)
        if winner is None or winner == mover:
            raise RecordRejected(f"{path.name}: seat {mover} was to move, yet Botzone's judge gives {winner} the game")
        scores = [1.0 if seat == winner else 0.0 for seat in (0, 1)]
        termination = f"forfeit: {game.seat_names[mover]} made an invalid move at ply {len(moves)} (Botzone judge)"
    return botzone_parsed(named, path.name, slug, variant, moves, scores, termination)


def botzone_parsed(named: re.Match, name: str, slug: str, variant: str, moves: list, scores: list, termination: str):
    """The record of a replayed log, its seats named from the file name."""
    model, bot = named["model"], f"botzone-lv{named['level']}"
    # BotzoneBench's evaluate_single_game.py (ca70a864) seats the model first in "-llm" logs, the bot in "-bl";
    # Fight the Landlord fills the other seats with the other player's kind, MCR Mahjong alternates them.
    seats = {"fight-the-landlord": (0, 1, 1), "mahjong": (0, 1, 0, 1)}.get(slug, (0, 1))
    agents = [(model, bot)[side if named["kind"] == "llm" else 1 - side] for side in seats]
    return Parsed(name, 0, slug, agents, scores, variant, int(named["level"]), moves, termination[:200])


def botzone_holdem_start(name: str, game: Any, log: list) -> Any:
    """The start of a `TexasHoldem2p` log's match in our `botzone` variant: its hands, its button, its own cards."""
    if not log or not all(isinstance(entry, dict) and "matchdata" in entry for entry in log):
        raise RecordRejected(f"{name}: not a TexasHoldem2p log (every entry needs the judge's matchdata)")
    hands = int(log[0]["matchdata"]["max_hand"])
    holes: dict[int, list] = {}
    boards: dict[int, list] = {}
    for entry in log:
        hand = entry["matchdata"]["hand"]
        holes[hand] = entry["player_cards"]
        if len(entry["public_cards"]) >= len(boards.get(hand, [])):
            boards[hand] = entry["public_cards"]
        if "temp_result" in entry and "last_public_cards" in entry:
            boards[hand - 1] = entry["last_public_cards"]
    if sorted(holes) != list(range(hands)):
        raise RecordRejected(f"{name}: the log does not show all {hands} hands")
    deals = [[[botzone_card(c) for c in cards] for cards in (*holes[h], boards[h])] for h in range(hands)]
    first = log[0]["round_player_bet"]
    button = 0 if first == [50, 100] else 1 if first == [100, 50] else None
    if button is None:
        raise RecordRejected(f"{name} entry 0: blinds {first!r}, not 50/100")
    return game.initial_state(seed=0, hands=hands, button=button, deals=deals, **game.variants["botzone"])


def botzone_holdem(name: str, game: Any, log: list, strict: bool) -> tuple[list[str], list[float], str]:
    """A `TexasHoldem2p` log replayed under our `botzone` variant with the log's own cards.

    Each entry is the judge's display after one response: `last_action` is the response as the judge
    applied it (an invalid one shows as the fold it was turned into); the final entry has none, so its
    action is read from the bets (a fold leaves −1; else the call or all-in that ended the hand). Every
    hand's result is checked against the judge's `temp_result`, the match against `final_result`; `strict`, each
    seat's hand category too (`max_hand_type`, of its hole cards and the board shown when the hand ended).
    """
    state = botzone_holdem_start(name, game, log)
    holes = {entry["matchdata"]["hand"]: entry["player_cards"] for entry in log}  # each hand's cards, as dealt
    moves: list[str] = []
    for index in range(1, len(log)):
        before, entry = log[index - 1], log[index]
        actor = before["round_idx"]
        if "last_action" in entry:
            if entry["last_action"]["player_id"] != actor:
                raise RecordRejected(f"{name} entry {index}: seat {actor} was to act, not {entry['last_action']}")
            number = int(entry["last_action"]["action"])
        elif entry["round_player_bet"][actor] == -1:
            number = -1
        else:
            number = -2 if before["round_bet"] == -2 else 0
        if game.current_player(state) != actor:
            raise RecordRejected(
                f"{name} entry {index}: Botzone's seat {actor} acts, ours is seat {game.current_player(state)}"
            )
        try:
            action = game.parse_action(state, str(number))
        except ValueError as error:
            raise RecordRejected(
                f"{name} entry {index}: {number} is not legal in our holdem at ply {len(moves)}: {error}"
            ) from None
        if not game.is_legal(state, action):
            raise RecordRejected(f"{name} entry {index}: {number} is not legal in our holdem at ply {len(moves)}")
        moves.append(game.action_to_text(state, action))
        hand = state.hand
        state = game.apply(state, action)
        if state.hand != hand:
            judged = entry["temp_result"][0]["win_chips"]
            ours = game.hand_result_of(state, hand)
            if ours != judged:
                raise RecordRejected(
                    f"{name} entry {index}: hand {hand + 1} won seat 0 {judged} by Botzone's judge, {ours} by ours"
                )
            if strict:
                board = entry.get("last_public_cards", entry["public_cards"])
                cards = [[botzone_card(c) for c in (*holes[hand][seat], *board)] for seat in (0, 1)]
                categories = [botzone_best_hand(seat_cards)[0] for seat_cards in cards]
                shown = [result["max_hand_type"] for result in entry["temp_result"]]
                if categories != shown:
                    raise RecordRejected(
                        f"{name} entry {index}: hand {hand + 1}'s categories are {shown} by Botzone's judge, "
                        f"{categories} by ours (strict)"
                    )
    outcome = game.outcome(state)
    final = log[-1].get("final_result")
    if outcome is None or final is None:
        raise RecordRejected(f"{name}: the log ends at ply {len(moves)} but the match is not over")
    if game.net(state) != final[0]["win_chips"]:
        raise RecordRejected(
            f"{name}: Botzone's judge says seat 0 won {final[0]['win_chips']} chips, our replay {game.net(state)}"
        )
    return moves, list(outcome.scores), outcome.reason


@transaction.atomic
def reference_records_import(*, source: str, records: list[Parsed], repository: str, commit: str) -> int:
    """Store `records` as reference rows of `source`; returns how many were new (a repeat import adds none)."""
    created = 0
    for r in records:
        _, new = ReferenceRecord.objects.get_or_create(
            source=source,
            commit=commit,
            path=r.path,
            index=r.index,
            defaults={
                "repository": repository,
                "game": r.game,
                "variant": r.variant,
                "agents": r.agents,
                "scores": r.scores,
                "level": r.level,
                "moves": r.moves,
                "termination": r.termination,
            },
        )
        created += new
    return created


def botzone_landlord(name: str, game: Any, log: list, strict: bool) -> tuple[list[str], list[float], str]:
    """A `FightTheLandlord` log replayed under our `botzone` variant with the log's deal.

    Entry 0 is the deal (`allocation`: the landlord's 20 cards with the 3 `publiccard`s, then 17 and 17);
    then one `event` per play (`[]` passes); the final entry holds Botzone's scores, checked against ours
    (`botzone_points`), or an `errorInfo` when a response was invalid: a forfeit, the other side wins. Every
    entry is checked in either reading (`strict` adds nothing).
    """
    deal = log[0] if log and isinstance(log[0], dict) else {}
    if set(deal) != {"allocation", "publiccard"}:
        raise RecordRejected(f"{name} entry 0: not a FightTheLandlord deal")
    bottom = list(deal["publiccard"])
    hands = [[c for c in deal["allocation"][0] if c not in bottom], *deal["allocation"][1:]]
    try:
        state = game.initial_state(seed=0, cards={"hands": hands, "bottom": bottom}, **game.variants["botzone"])
    except ValueError as error:
        raise RecordRejected(f"{name} entry 0: {error}") from None
    moves: list[str] = []
    final = log[-1]
    for index, entry in enumerate(log[1:], start=1):
        event = entry.get("event") if isinstance(entry, dict) else None
        if not isinstance(event, dict):
            raise RecordRejected(f"{name} entry {index}: not a play")
        if event["player"] != game.current_player(state):
            raise RecordRejected(f"{name} entry {index}: seat {event['player']} plays, ours is to move")
        if "errorInfo" in entry:
            if entry is not final:
                raise RecordRejected(f"{name} entry {index}: the game goes on after an invalid response")
            seat, error = event["player"], entry["errorInfo"]
            scores = [1.0 if (s == 0) != (seat == 0) else 0.0 for s in range(3)]  # the other side wins
            return moves, scores, f"forfeit: {game.seat_names[seat]} made an invalid response (Botzone judge: {error})"
        cards = event["action"]
        action = ("play", tuple(sorted(rank_of(c) for c in cards)))
        if not game.is_legal(state, action):
            raise RecordRejected(
                f"{name} entry {index}: {cards!r} is not legal in our fight-the-landlord at ply {len(moves)}"
            )
        moves.append(game.action_to_text(state, action))
        state = game.apply(state, action)
    outcome, points = game.outcome(state), game.botzone_points(state)
    if outcome is None:
        raise RecordRejected(f"{name}: the log ends at ply {len(moves)} but our fight-the-landlord game is not over")
    judged = [final.get(str(s)) for s in range(3)]
    if any(j is None or abs(j - p) > 1e-9 for j, p in zip(judged, points, strict=True)):
        raise RecordRejected(f"{name}: Botzone's judge scores {judged}, our replay {list(points)}")
    return moves, list(outcome.scores), outcome.reason


def botzone_walls(name: str, log: list) -> list[list[str]]:
    """The four private walls (each in drawing order) of a duplicate-mode `ChineseStandardMahjong` log.

    The log shows each seat's 13 dealt tiles in the order drawn and every later draw (`DRAW`, the seat's
    own wall). Tiles never drawn are not in the log: only their multiset is known (136 minus all tiles
    seen) and how many each wall kept (the last `tileCnt` shown); they go into the walls in sorted order. No
    replay depends on it, since nobody draws them.
    """
    deal = next((e for e in log if isinstance(e, dict) and e.get("action") == "DEAL"), None)
    if deal is None:
        raise RecordRejected(f"{name}: no DEAL entry")
    walls = [list(hand) for hand in deal["hand"]]
    for entry in log:
        if isinstance(entry, dict) and entry.get("action") == "DRAW":
            walls[entry["player"]].append(entry["tile"])
    left = Counter(tile_name(t) for t in range(34) for _ in range(4))
    left.subtract(t for wall in walls for t in wall)
    if any(n < 0 for n in left.values()):
        raise RecordRejected(f"{name}: more than four of a tile dealt and drawn")
    unseen = sorted(left.elements())
    counts = next((e["tileCnt"] for e in reversed(log) if isinstance(e, dict) and "tileCnt" in e), [0] * 4)
    for seat, count in enumerate(counts):
        walls[seat] += unseen[:count]
        unseen = unseen[count:]
    if unseen or any(len(w) != 34 for w in walls):
        raise RecordRejected(f"{name}: the walls do not add up to four of 34 tiles")
    return walls


def botzone_mahjong(name: str, game: Any, log: list, strict: bool) -> tuple[list[str], list[float], str]:
    """A duplicate-mode `ChineseStandardMahjong` log replayed under our `botzone` variant.

    The display lists only what happened (INIT with the prevalent wind `quan`, DEAL, DRAW, PLAY, CHI, PENG,
    GANG, BUGANG, HU, HUANG for a drawn hand, WA for an invalid response), never the passes: the answers to a
    discard or a BuGang are the claim the next entry shows and Pass for every other seat. After every entry
    each wall's length must equal the judge's `tileCnt` (a GANG entry shows them before the kong's replacement,
    which the next DRAW entry shows; `strict`, every entry but a WA must show them); a HU must score the judge's
    fan count.
    """
    init = log[0] if log and isinstance(log[0], dict) else {}
    if init.get("action") != "INIT":
        raise RecordRejected(f"{name} entry 0: not a ChineseStandardMahjong INIT")
    walls = botzone_walls(name, log)
    state = game.initial_state(seed=0, walls=walls, wind=int(init["quan"]))
    moves: list[str] = []

    def act(index: int, action: tuple) -> None:
        nonlocal state
        if not game.is_legal(state, action):
            who = game.seat_names[game.current_player(state)]
            raise RecordRejected(
                f"{name} entry {index}: {game.action_to_text(state, action)} by {who} is not legal in our mahjong "
                f"at ply {len(moves)}"
            )
        moves.append(game.action_to_text(state, action))
        state = game.apply(state, action)

    def answer(index: int, claimer: int | None, claim: tuple | None) -> None:
        """Every pending answer to a discard or BuGang: `claim` for `claimer`, Pass for the others."""
        while state.phase in ("claims", "rob"):
            seat = game.current_player(state)
            act(index, claim if seat == claimer else ("pass",))

    for index, entry in enumerate(log[2:], start=2):
        verb, seat = entry.get("action"), entry.get("player")
        tile = tile_of(entry["tile"]) if "tile" in entry else None
        if verb == "WA":  # Botzone scores the offender −30 and every other seat +10
            scores = [0.0 if s == seat else 1.0 for s in range(4)]
            return moves, scores, f"forfeit: {game.seat_names[seat]} made an invalid response (Botzone judge)"
        if verb == "DRAW":
            answer(index, None, None)
            if (state.phase, state.turn, state.drawn) != ("turn", seat, tile):
                raise RecordRejected(f"{name} entry {index}: Botzone's seat {seat} draws {entry['tile']}, ours differ")
        elif verb == "PLAY":
            act(index, ("play", tile))
        elif verb in ("PENG", "CHI"):
            claim = ("peng",) if verb == "PENG" else ("chi", tile_of(entry["tileCHI"]))
            answer(index, seat, claim)
            act(index, ("play", tile))
        elif verb == "GANG":
            if state.phase == "turn":
                act(index, ("gang", tile))
            else:
                answer(index, seat, ("kong",))
        elif verb == "BUGANG":
            act(index, ("bugang", tile))
        elif verb == "HU":
            if state.phase == "turn":
                act(index, ("hu",))
            else:
                answer(index, seat, ("hu",))
            winner, _, found = state.result
            total = sum(points * count for points, count, _ in found)
            if (winner, total) != (seat, entry["fanCnt"]):
                raise RecordRejected(
                    f"{name} entry {index}: Botzone's seat {seat} won {entry['fanCnt']} fan, ours differ"
                )
        elif verb == "HUANG":
            answer(index, None, None)
            if state.phase != "over" or state.result[0] != -1:
                raise RecordRejected(f"{name} entry {index}: Botzone's hand is drawn, ours is not")
        else:
            raise RecordRejected(f"{name} entry {index}: unknown action {verb!r}")
        counts = [len(w) for w in state.walls]
        if verb == "GANG" and (state.phase, state.turn) == ("turn", seat):
            counts[seat] += 1  # our kong has drawn its replacement already; Botzone's entry is before it
        if strict and "tileCnt" not in entry:
            raise RecordRejected(f"{name} entry {index}: no wall counts (tileCnt) to check (strict)")
        if "tileCnt" in entry and counts != entry["tileCnt"]:
            raise RecordRejected(f"{name} entry {index}: walls {counts}, Botzone's {entry['tileCnt']}")
    outcome = game.outcome(state)
    if outcome is None:
        raise RecordRejected(f"{name}: the log ends at ply {len(moves)} but our mahjong hand is not over")
    return moves, list(outcome.scores), outcome.reason


#: Card games replayed from their own log formats: slug → reader.
CARD_GAMES = {"holdem": botzone_holdem, "fight-the-landlord": botzone_landlord, "mahjong": botzone_mahjong}
