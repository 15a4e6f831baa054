"""Botzone's Chinese-Standard-Mahjong requests and responses, each seat told only what its seat sees.

As Botzone's judge sends them (its wiki, and `botzone/envs/botzone/chinesestandardmahjong.py` in BotzoneBench),
every seat gets a request after every event and answers it: "0 seat wind" and "1 0 0 0 0 <its 13 tiles>" at the
deal, "2 T" when it draws T, "3 s DRAW" when seat s draws, "3 s PLAY T", "3 s PENG T" and "3 s CHI M T" when s
discards T (after a pung, or a chow around M), "3 s GANG" for any kong (the tile of a concealed one unseen),
"3 s BUGANG T". Answers: after its own draw "PLAY T", "GANG T", "BUGANG T" or "HU"; to another's discard
"PASS", "PENG T" or "CHI M T" (the claim with the tile then discarded), "GANG" or "HU"; "HU" or "PASS" to a
BUGANG; "PASS" to everything else. Arena plays Botzone's duplicate mode: the `botzone` variant of `mahjong`.
Arena asks a seat only where it has a choice; the PASSes between are filled in, and the discard named with a
PENG or CHI is played on the seat's next turn without asking again (`follow_up`).
"""

from __future__ import annotations

from typing import Any

from games import Game, IllegalAction
from games.mahjong.tiles import name, tile_of

SLUG = "mahjong"
CLAIMS = ("peng", "chi")


def unplayable(state: Any) -> str:
    """Why a program cannot play this deal ("" when it can)."""
    if not state.walls:
        return "Botzone's Mahjong is its duplicate mode: programs play the botzone variant of mahjong."
    return ""


def follow_up(game: Game, state: Any) -> bool:
    """Whether the seat to act must now discard after its own PENG or CHI (the discard it named then)."""
    return state.phase == "turn" and state.drawn < 0


def _stream(state: Any) -> list[tuple[int, str, int]]:
    """Every event of the hand as Botzone tells it: with East's first draw, and the replacement draw after a kong."""
    stream: list[tuple[int, str, int]] = [(0, "draw", -1)]
    events = list(state.events)
    for index, (seat, verb, tile) in enumerate(events):
        later = events[index + 1 :]
        if verb == "draw" and not later and state.phase == "over":
            break  # the wall was empty: the hand is drawn, nothing was told
        stream.append((seat, verb, tile))
        if verb in ("gang", "angang"):
            replaced = bool(later) or state.phase != "over"  # else the wall had no tile for it
        elif verb == "bugang":
            replaced = later[0][1] != "hu" if later else state.phase == "turn"  # not robbed (nor still robbable)
        else:
            replaced = False
        if replaced:
            stream.append((seat, "draw", -1))
    return stream


def history(seat: int, decisions: list[tuple[int, Any, Any]], state: Any) -> tuple[list[Any], list[Any]]:
    """The seat's `requests` and `responses` so far, from the match's (seat, state_before, action) and its state."""
    first = decisions[0][1] if decisions else state
    dealt = list(first.hands[seat])
    if seat == 0:
        dealt.remove(first.drawn)  # East's first draw comes after the deal
    drawn = [b.drawn for mover, b, _ in decisions if mover == seat and b.phase == "turn" and b.drawn >= 0]
    if state.phase == "turn" and state.turn == seat and state.drawn >= 0:
        drawn.append(state.drawn)
    draws = iter(drawn)
    stream = _stream(state)
    middles = _chow_middles(stream, state)
    requests = [f"0 {seat} {state.wind}", "1 0 0 0 0 " + " ".join(name(t) for t in sorted(dealt))]
    responses = ["PASS", "PASS"]
    for index, (mover, verb, tile) in enumerate(stream):
        start = index + 1  # the first event after the request: what answered it
        if verb == "draw":
            told = f"2 {name(next(draws))}" if mover == seat else f"3 {mover} DRAW"
        elif verb == "play":
            if index and stream[index - 1][:2] in ((mover, "peng"), (mover, "chi")):
                continue  # told with the claim
            told = f"3 {mover} PLAY {name(tile)}"
        elif verb in CLAIMS:
            if stream[start : start + 1] == [] or stream[start][:2] != (mover, "play"):
                continue  # the discard is still to come
            discard = name(stream[start][2])
            told = f"3 {mover} PENG {discard}" if verb == "peng" else f"3 {mover} CHI {name(middles[index])} {discard}"
            start += 1
        elif verb in ("gang", "angang"):
            told = f"3 {mover} GANG"
        elif verb == "bugang":
            told = f"3 {mover} BUGANG {name(tile)}"
        else:
            continue  # a win ends the hand
        requests.append(told)
        responses.append(_answered(seat, told, stream, start, middles))
    return requests, responses[: len(requests) - 1]  # the last request is the one to answer now


def _chow_middles(stream: list[tuple[int, str, int]], state: Any) -> dict[int, int]:
    """The middle tile of each chow in `stream`, by its index (each seat's chows are its CHI packs, in order)."""
    packs = {seat: iter([middle for kind, middle, _ in state.packs[seat] if kind == "CHI"]) for seat in range(4)}
    return {index: next(packs[seat]) for index, (seat, verb, _) in enumerate(stream) if verb == "chi"}


def _answered(seat: int, told: str, stream: list[tuple[int, str, int]], start: int, middles: dict[int, int]) -> str:
    """What `seat` answered to `told`, as the events from `stream[start]` on show."""
    mover, verb, tile = stream[start] if start < len(stream) else (-1, "", -1)
    if told.startswith("2 "):
        names = {"play": "PLAY", "angang": "GANG", "bugang": "BUGANG"}
        return f"{names[verb]} {name(tile)}" if verb in names else "HU"
    words = told.split()
    if words[1] == str(seat) or mover != seat:
        return "PASS"
    if verb == "hu":
        return "HU"
    if words[2] in ("PLAY", "PENG", "CHI"):
        if verb == "gang":
            return "GANG"
        if verb in CLAIMS and start + 1 < len(stream):
            discard = name(stream[start + 1][2])
            return f"PENG {discard}" if verb == "peng" else f"CHI {name(middles[start])} {discard}"
    return "PASS"


def decode(game: Game, state: Any, answer: Any) -> Any:
    """The action an answer names (a PENG or CHI: the claim; its discard is `then`'s); IllegalAction if none."""
    if not isinstance(answer, str):
        raise IllegalAction('A Mahjong response is a string such as "PLAY W1", "PENG B3", "PASS" or "HU".')
    words = answer.split()
    verb = words[0].upper() if words else ""
    try:
        tiles = [tile_of(word) for word in words[1:]]
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    shapes = {
        "turn": {"PLAY": 1, "GANG": 1, "BUGANG": 1, "HU": 0},
        "claims": {"PASS": 0, "HU": 0, "GANG": 0, "PENG": 1, "CHI": 2},
        "rob": {"PASS": 0, "HU": 0},
    }[state.phase]
    if verb not in shapes or len(tiles) != shapes[verb]:
        raise IllegalAction(f"{answer[:40]!r} is not an answer here; answer {', '.join(shapes)} (with its tiles).")
    if state.phase == "turn":
        return (verb.lower(), tiles[0]) if tiles else ("hu",)
    if verb == "CHI":
        return ("chi", tiles[0])
    return {"PENG": ("peng",), "GANG": ("kong",), "HU": ("hu",), "PASS": ("pass",)}[verb]


def then(answer: Any) -> str:
    """The discard a PENG or CHI answer names, as the answer to give on the seat's next turn ("" for others)."""
    words = answer.split() if isinstance(answer, str) else []
    if words[:1] in (["PENG"], ["CHI"]):
        return f"PLAY {words[-1]}"
    return ""
