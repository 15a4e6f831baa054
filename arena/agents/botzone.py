"""Botzone's bot protocol: the request/response formats of the games both platforms share, and the I/O.

A Botzone bot sees `requests` (what happened since its last move: the opponent's move, or the
"-1" sentinel on its first turn when it moves first) and its own past `responses`. Board games use
`{"x": column, "y": row}` counted from the top-left corner from 0, chess `{"source": "e2", "target": "e4",
"promotion": "*"}` as Botzone's chess judge reads it (see docs/agents.md); Fight the Landlord, Mahjong and
hold'em use Botzone's own per-seat requests (`arena.agents.botzone_landlord`, `botzone_mahjong`, `botzone_holdem`); any
other perfect-information game uses Arena's own action text (a string) for both.
"""

from __future__ import annotations

import json
from typing import Any

from arena.agents import botzone_holdem, botzone_landlord, botzone_mahjong
from arena.models import Agent
from games import Game, IllegalAction

#: Board games whose Botzone format is a point: board side, and whether Arena counts rows from the top.
POINT_GAMES = {"tic-tac-toe": (3, True), "reversi": (8, True), "gomoku": (15, True)}
ATAXX_SIDE = 7
NO_MOVE = -1
#: A kept-running bot prints this line after its answer to stay alive until its next turn.
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
#: Arena's pass action in the games where a Botzone bot passes with the -1 sentinel.
PASS_ACTIONS = {"reversi": 64, "ataxx": ()}
#: Botzone's chess: squares as strings, "-1" for none (the first request of White), "*" for no promotion.
CHESS_NONE = {"source": "-1", "target": "-1", "promotion": "*"}


def first_request(game: Game) -> Any:
    """The request a bot that moves first receives on its first turn."""
    if game.slug == "ataxx":
        return {"x0": NO_MOVE, "y0": NO_MOVE, "x1": NO_MOVE, "y1": NO_MOVE}
    if game.slug == "chess":
        return dict(CHESS_NONE)
    if game.slug in POINT_GAMES:
        return {"x": NO_MOVE, "y": NO_MOVE}
    return ""


def _xy(game: Game, index: int) -> tuple[int, int]:
    if game.slug == "ataxx":
        row, column = divmod(index, ATAXX_SIDE)
        return column, ATAXX_SIDE - 1 - row  # Arena counts Ataxx rows from the bottom
    side, _top = POINT_GAMES[game.slug]
    row, column = divmod(index, side)
    return column, row


def _index(game: Game, x: Any, y: Any) -> int:
    side = ATAXX_SIDE if game.slug == "ataxx" else POINT_GAMES[game.slug][0]
    if type(x) is not int or type(y) is not int or not (0 <= x < side and 0 <= y < side):
        raise IllegalAction(f"({x!r}, {y!r}) is not a point of the {side}×{side} board (x and y count from 0).")
    if game.slug == "ataxx":
        return (ATAXX_SIDE - 1 - y) * ATAXX_SIDE + x
    return y * side + x


def encode(game: Game, state_before: Any, action: Any) -> Any:
    """`action`, played from `state_before`, in Botzone's format (a request to the other seat, or a response)."""
    if game.slug == "ataxx":
        if action == ():
            return first_request(game)
        if len(action) == 2:
            source, target = action
        else:  # a clone: Botzone names a source too, any of the mover's pieces next to the target
            (target,) = action
            source = _clone_source(game, state_before, target)
        (x0, y0), (x1, y1) = _xy(game, source), _xy(game, target)
        return {"x0": x0, "y0": y0, "x1": x1, "y1": y1}
    if game.slug == "chess":  # Arena's chess actions are UCI: e2e4, e7e8q, e1g1 (castling as the king's move)
        return {"source": action[:2], "target": action[2:4], "promotion": action[4:] or "*"}
    if game.slug in POINT_GAMES:
        if action == PASS_ACTIONS.get(game.slug):
            return {"x": NO_MOVE, "y": NO_MOVE}
        x, y = _xy(game, action)
        return {"x": x, "y": y}
    return game.action_to_text(state_before, action)


def _clone_source(game: Game, state: Any, target: int) -> int:
    mover = state.x if game.current_player(state) == 0 else state.o
    tx, ty = _xy(game, target)
    for source in range(ATAXX_SIDE * ATAXX_SIDE):
        sx, sy = _xy(game, source)
        if mover >> source & 1 and max(abs(sx - tx), abs(sy - ty)) == 1:
            return source
    return target


#: Hidden-information games with Botzone's own per-seat requests, by slug.
CARD_GAMES = {
    botzone_landlord.SLUG: botzone_landlord,
    botzone_mahjong.SLUG: botzone_mahjong,
    botzone_holdem.SLUG: botzone_holdem,
}


def has_requests(game: Game) -> bool:
    """Whether Arena can tell a program in `game` only what its seat may know (Botzone's requests, or a full view)."""
    return game.slug in CARD_GAMES or not game.hidden_information


def unplayable(game: Game, state: Any) -> str:
    """Why a program cannot play `game` from `state` ("" when it can)."""
    if game.slug in CARD_GAMES:
        return CARD_GAMES[game.slug].unplayable(state)
    if not has_requests(game):
        return (
            f"Arena has no Botzone requests for {game.name}, which hides information: a program would be told "
            "more than its seat may know. Programs play Fight the Landlord, Mahjong (botzone), hold'em (botzone) "
            "and the perfect-information games."
        )
    return ""


def variant_refusal(game: Game, variant: str) -> str:
    """Why a program cannot play `game` under `variant` ("" for the standard rules): "" when it can. Checked before
    a match seats a program, so one is never seated only to be refused every turn."""
    return unplayable(game, game.initial_state(seed=0, **game.variants.get(variant, {})))


def program_seating_refusal(sender: type, *, game: Game, state: Any, agents: list[Agent], **kwargs: Any) -> str:
    """`match_seating`'s receiver: why a program (Botzone's protocol) cannot be seated in `game` from `state` ("":
    it can, or no program sits in it)."""
    program = next((agent for agent in agents if agent.kind == Agent.Kind.PROGRAM), None)
    if program is None or not (why := unplayable(game, state)):
        return ""
    return f"{program.name} is a Botzone program and cannot play these rules. {why}"


def judged_invalid(game: Game, state: Any) -> Any:
    """What Botzone's judge plays for a bot whose answer is not a valid move (it crashed, ran out of time, or
    named no legal move): hold'em's judge folds its hand (the fold is returned); every other judge ends the game
    with that bot losing (None)."""
    return botzone_holdem.FOLD if game.slug == botzone_holdem.SLUG else None


def then(game: Game, state: Any, response: Any) -> str:
    """The answer a response already gives for the seat's next turn (Mahjong's discard after a PENG or CHI)."""
    return botzone_mahjong.then(response) if game.slug == botzone_mahjong.SLUG else ""


def answered_already(game: Game, state: Any) -> bool:
    """Whether the seat to act gave this turn's answer on its last one (`then`): it is not asked again."""
    return game.slug == botzone_mahjong.SLUG and botzone_mahjong.follow_up(game, state)


def decode(game: Game, state: Any, response: Any) -> Any:
    """The action a Botzone response names; IllegalAction if it names none (legality is checked after)."""
    if game.slug in CARD_GAMES:
        return CARD_GAMES[game.slug].decode(game, state, response)
    if game.slug == "ataxx":
        if not isinstance(response, dict) or not {"x0", "y0", "x1", "y1"} <= set(response):
            raise IllegalAction('An Ataxx response is {"x0": …, "y0": …, "x1": …, "y1": …}.')
        if response["x0"] == NO_MOVE:
            return ()
        source = _index(game, response["x0"], response["y0"])
        target = _index(game, response["x1"], response["y1"])
        sx, sy = _xy(game, source)
        tx, ty = _xy(game, target)
        return (target,) if max(abs(sx - tx), abs(sy - ty)) == 1 else (source, target)
    if game.slug == "chess":
        return _chess_move(response)
    if game.slug in POINT_GAMES:
        if not isinstance(response, dict) or not {"x", "y"} <= set(response):
            raise IllegalAction('A response is {"x": column, "y": row}, counted from the top left from 0.')
        if response["x"] == NO_MOVE and game.slug in PASS_ACTIONS:
            return PASS_ACTIONS[game.slug]
        return _index(game, response["x"], response["y"])
    if not isinstance(response, str):
        example = game.action_to_text(state, game.legal_actions(state)[0])
        raise IllegalAction(f"A {game.slug} response is the move as text, e.g. {example!r}.")
    return game.parse_action(state, response)


def _chess_move(response: Any) -> str:
    """A Botzone chess response as Arena's UCI move (legality is checked after)."""
    fields = ("source", "target", "promotion")
    if not isinstance(response, dict) or not all(isinstance(response.get(k), str) for k in fields):
        raise IllegalAction('A chess response is {"source": "e2", "target": "e4", "promotion": "*"} (strings).')
    source, target, promotion = (response[k].strip().lower() for k in fields)
    squares = [f"{file}{rank}" for file in "abcdefgh" for rank in "12345678"]
    if source not in squares or target not in squares or promotion not in ("*", "q", "r", "b", "n"):
        raise IllegalAction(
            f"{source!r} → {target!r} ({promotion!r}) is not a move: squares a1–h8, promotion one of * q r b n."
        )
    return source + target + ("" if promotion == "*" else promotion)


def history(game: Game, seat: int, decisions: list[tuple[int, Any, Any]], state: Any) -> tuple[list[Any], list[Any]]:
    """Botzone's `requests` and `responses` for `seat`, from the match's (seat, state_before, action) so far
    and its `state` now.

    Each request gathers the other seats' moves since this seat last moved (the last of them, as Botzone's
    two-player games have one); a seat that moves first gets the sentinel. Fight the Landlord's are its own.
    """
    if game.slug in CARD_GAMES:
        return CARD_GAMES[game.slug].history(seat, decisions, state)
    requests: list[Any] = []
    responses: list[Any] = []
    pending: Any = first_request(game)
    for mover, state_before, action in decisions:
        if mover == seat:
            requests.append(pending)
            responses.append(encode(game, state_before, action))
            pending = None
        else:
            pending = encode(game, state_before, action)
    requests.append(first_request(game) if pending is None else pending)
    return requests, responses


def text_line(value: Any) -> str:
    """A request or response as one line of the simple-interaction text mode ("3 4", or the move text)."""
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values())
    return str(value)


def parse_text_line(game: Game, line: str) -> Any:
    """A simple-interaction response line back in the JSON shape `decode` reads."""
    shape = first_request(game)
    if not isinstance(shape, dict):
        return line.strip()
    words = line.split()
    if len(words) != len(shape):
        raise IllegalAction(f"Expected {len(shape)} words ({' '.join(shape)}) on the first line, got {line!r}.")
    if game.slug == "chess":
        return dict(zip(shape, words, strict=True))
    try:
        return dict(zip(shape, (int(word) for word in words), strict=True))
    except ValueError:
        raise IllegalAction(f"Expected integers ({' '.join(shape)}), got {line!r}.") from None


def simple_input(requests: list[Any], responses: list[Any], data: str, globaldata: str) -> str:
    """The simple-interaction input: turn number, then requests and responses interleaved, then data lines."""
    lines = [str(len(requests))]
    for index, request in enumerate(requests):
        lines.append(text_line(request))
        if index < len(responses):
            lines.append(text_line(responses[index]))
    lines += [data, globaldata]
    return "\n".join(lines) + "\n"


def json_input(requests: list[Any], responses: list[Any], data: Any, globaldata: Any, limits: dict[str, Any]) -> str:
    """The JSON-mode input, on one line; `limits` holds `time_limit` (seconds) and `memory_limit` (MiB)."""
    turn = {"requests": requests, "responses": responses, "data": data, "globaldata": globaldata, **limits}
    return json.dumps(turn) + "\n"
