"""What a viewer of Two Rooms and a Boom sees: the board's view, the event sentences, the rules and the LLM prompt."""

from __future__ import annotations

from typing import Any

from games.two_rooms.state import (
    MAX_SAY,
    NAMES,
    PLAYERS,
    ROOMS,
    ROUNDS,
    TEAM_OF_CARD,
    Event,
    TwoRoomsState,
    heard,
    known_cards,
    phase,
    room_mates,
    shown_to_act,
    to_act,
)

RULES_TEXT = (
    "Two Rooms and a Boom. Two teams, Blue and Red, have opposing goals. At the end of three rounds the Red team "
    "wants to have both the President and the Bomber in the same room, while Blue team wants them to be in "
    "opposite rooms. Each round will allow the Leader of each room to trade 'hostages' in order to find out who the "
    "President and Bomber are and use that info to achieve their team's mission. Find out information by talking "
    "to other hostages in your room.\n"
    "Six players, P1–P6, each hold a secret card: three Blue (one of them the President) and three Red (one of "
    "them the Bomber). Three players start in Room 1 and three in Room 2; each room has a Leader, known to all "
    "(the first ones are drawn at random). You know your own card and the cards shown to you; everyone knows who is "
    "in which room.\n"
    "Each round, the players of Room 1 and then those of Room 2 take one turn each, in seat order: 'ask P<n> "
    f"<question>' (up to {MAX_SAY} characters) or 'show P<n>' (show your card to that player only), naming a "
    "player in your room. That player replies: 'say <answer>' or 'show' (show your card back). Only the players in "
    "the room hear its talk, and anyone may lie; a shown card cannot lie. Everyone in the room sees who showed "
    "a card to whom, not the card.\n"
    "Then everyone votes, in the same order, for their room's Leader: 'vote P<n>' (a player of your room, you "
    "included). The votes are shown once all are cast; a player with two of the room's three votes is its Leader, "
    "otherwise the Leader stays.\n"
    "Then each Leader secretly chooses one other player of their room as a hostage: 'send P<n>'. The two hostages "
    "change rooms at once, and everyone learns who moved. After the third exchange the game ends: Red wins if the "
    "President and the Bomber are in the same room, Blue if they are apart. Every player of the winning team "
    "scores 1."
)


def card_label(card: str) -> str:
    """'president' → 'the President (Blue)'; 'red team' → 'a Red team card'."""
    team = TEAM_OF_CARD[card].capitalize()
    return f"the {card.capitalize()} ({team})" if card in ("president", "bomber") else f"a {team} team card"


def describe(
    state: TwoRoomsState, event: Event, viewer: int | None, reveal: bool = False, index: int | None = None
) -> str:
    """One event as a sentence for `viewer`; a shown card is named only to its two players (all with `reveal`).
    With the event's `index` in the state's events, a card shown to the same player before is shown "again"."""
    kind, _round, _room, actor, target, text = event
    if kind == "ask":
        return f"{NAMES[actor]} asked {NAMES[target]}: {text}"
    if kind == "say":
        return f"{NAMES[actor]} answered {NAMES[target]}: {text}"
    if kind == "show":
        seen = reveal or viewer in (actor, target)
        before = index is not None and any(e[0] == "show" and e[3:5] == (actor, target) for e in state.events[:index])
        return f"{NAMES[actor]} showed {NAMES[target]} their card{' again' if before else ''}" + (
            f": {card_label(state.cards[actor])}" if seen else ""
        )
    if kind == "leader":
        return f"{ROOMS[actor]} voted ({text}): {NAMES[target]} is its Leader"
    if kind == "exchange":
        return f"hostages exchanged: {NAMES[actor]} went to Room 2 and {NAMES[target]} to Room 1"
    where = "the same room" if text == "red" else "different rooms"
    return f"the {text.capitalize()} team wins: the President and the Bomber end in {where}"


def chat_entry(state: TwoRoomsState, index: int, viewer: int | None, reveal: bool) -> dict[str, Any]:
    """One event for a room's chat panel (arena/partials/chat-log.html): a message, or a notice."""
    event = state.events[index]
    kind, number, _room, actor, target, text = event
    talk = kind in ("ask", "say")
    return {
        "index": index,
        "kind": "say" if talk else kind,
        "round": number,
        "group": f"Round {number}",
        "speaker": f"{NAMES[actor]} to {NAMES[target]}" if talk else "",
        "you": viewer is not None and actor == viewer,
        "message": text if talk else "",
        "notice": describe(state, event, viewer, reveal, index),
        # a card named to this viewer only (or to a spectator of a replay)
        "secret": kind == "show" and (reveal or viewer == target),
    }


def view(state: TwoRoomsState, viewer: int | None, reveal: bool) -> dict[str, Any]:
    """The board's view for `viewer` (None: a spectator), or everything with `reveal` (replays of finished games)."""
    known = known_cards(state, viewer, reveal)
    now, acting, shown_acting = phase(state), to_act(state), shown_to_act(state, viewer, reveal)
    mine = viewer is not None and viewer == acting
    # players the viewer may click now: to show its card to (after 'Show my card'), to vote for, to send
    choosable = [] if not mine or now == "answer" else room_mates(state, viewer) + ([viewer] if now == "vote" else [])
    rooms = []
    for room, name in enumerate(ROOMS):
        players = [
            {
                "seat": s,
                "name": NAMES[s],
                "card": known.get(s, ""),
                "team": TEAM_OF_CARD[known[s]] if s in known else "",
                "you": s == viewer,
                "leader": s == state.leaders[room],
                "to_act": s == shown_acting,
                "choosable": s in choosable,
            }
            for s in range(PLAYERS)
            if state.rooms[s] == room
        ]
        log = [
            chat_entry(state, i, viewer, reveal)
            for i, e in enumerate(state.events)
            if (e[2] == room or e[2] < 0) and heard(state, e, viewer, reveal)
        ]
        hears = reveal or (viewer is not None and state.rooms[viewer] == room)
        rooms.append(
            {
                "index": room,
                "name": name,
                "leader_name": NAMES[state.leaders[room]],
                "players": players,
                "log": log,
                "hears": hears,
                "yours": viewer is not None and state.rooms[viewer] == room,
            }
        )
    answering_to = NAMES[state.events[-1][3]] if now == "answer" else ""
    # What is being answered: a question (its text), or a card shown to the viewer ("" for a show).
    answering_what = state.events[-1][5] if now == "answer" else ""
    result = {
        "game": "two-rooms-and-a-boom",
        "viewer": viewer,
        "round": state.round,
        "rounds": ROUNDS,
        "phase": now,
        "to_act": shown_acting,
        "to_act_name": NAMES[shown_acting] if shown_acting is not None else "",
        "you": None
        if viewer is None
        else {
            "name": NAMES[viewer],
            "card": state.cards[viewer],
            "room": ROOMS[state.rooms[viewer]],
            "leader": viewer in state.leaders,
        },
        "rooms": rooms,
        "my_turn": mine,
        "answering_to": answering_to if mine else "",
        "answering_question": answering_what if mine else "",
        "max_say": MAX_SAY,
        "result": state.result,
    }
    if reveal:
        result["picks"] = [NAMES[p] if p >= 0 else "" for p in state.picks]
    return result


def observation(state: TwoRoomsState, player: int, prompt: str) -> str:
    """What `player` knows, as the user prompt of an LLM seat."""
    card = state.cards[player]
    room = state.rooms[player]
    side = TEAM_OF_CARD[card].capitalize()
    lines = [f"You are {NAMES[player]}. Your card: {card_label(card)}; you are on the {side} team."]
    for index, name in enumerate(ROOMS):
        members = [
            NAMES[s] + (" (Leader)" if s == state.leaders[index] else "")
            for s in range(PLAYERS)
            if state.rooms[s] == index
        ]
        lines.append(f"{name}: {', '.join(members)}" + (" — you are here." if index == room else "."))
    if player in state.leaders:
        lines.append(f"You are the Leader of {ROOMS[room]}: you choose its hostage each round.")
    seen = {s: c for s, c in known_cards(state, player).items() if s != player}
    if seen:
        lines.append(
            "Cards shown to you: " + ", ".join(f"{NAMES[s]} holds {card_label(c)}" for s, c in seen.items()) + "."
        )
    events = [(i, e) for i, e in enumerate(state.events) if heard(state, e, player, reveal=False)]
    if events:
        lines.append(
            "What you heard and saw:\n"
            + "\n".join(f"  Round {e[1]}: {describe(state, e, player, index=i)}" for i, e in events)
        )
    if state.result:
        lines.append(f"Game over: the {state.result.capitalize()} team won.")
    elif to_act(state) == player:
        mates = ", ".join(NAMES[s] for s in room_mates(state, player))
        lines.append(f"Round {state.round} of {ROUNDS}. It is your turn (players in your room: {mates}); {prompt}")
    return "\n".join(lines)
