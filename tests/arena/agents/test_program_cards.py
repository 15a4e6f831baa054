"""Programs in Botzone's hidden-information games: each seat is told only its own Botzone request."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync

from arena.agents import botzone, botzone_holdem, botzone_landlord, botzone_mahjong
from arena.agents.program import ProgramAgent
from arena.models import Agent, Attempt, Match
from arena.record.agents import agent_create, bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from games.fight_the_landlord.combos import rank_of
from games.holdem import hand_cards
from games.mahjong.tiles import name as tile_name
from games.mahjong.tiles import tile_of
from ratings.record.reports.imports import botzone_holdem as botzone_holdem_replay
from ratings.record.reports.imports import botzone_holdem_start, botzone_walls
from ratings.record.reports.imports import botzone_mahjong as botzone_mahjong_replay
from tests.arena.agents import bots
from tests.sampled import sampled

LANDLORD = get_game("fight-the-landlord")
MAHJONG = get_game("mahjong")
HOLDEM = get_game("holdem")
#: What Botzone's TexasHoldem2p judge tells the seat to act.
HOLDEM_REQUEST = {
    "num_players", "dealer_id", "my_id", "my_chips", "my_cards", "public_cards", "history",
    "hand", "max_hand", "total_win_chips", "total_win_games",
}  # fmt: skip
#: A Botzone Mahjong request after the deal.
REQUEST = r"2 [WTBFJ]\d|3 [0-3] (DRAW|GANG|PLAY [WTBFJ]\d|PENG [WTBFJ]\d|CHI [WTBFJ]\d [WTBFJ]\d|BUGANG [WTBFJ]\d)"


def landlord_match(program_seat: int, seed: int) -> Match:
    bots_ensure(game="fight-the-landlord")
    command = bots.python_bot(bots.program_dir(), "landlord", bots.LANDLORD_BOT)
    program = agent_create(slug=f"ftl-{program_seat}", name="ftl", kind="program", config={"command": command})
    random_bot = Agent.objects.get(slug="fight-the-landlord-lv0")
    seats = [random_bot] * 3
    seats[program_seat] = program
    match = match_create(game="fight-the-landlord", agents=seats, seed=seed)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("seat", sampled([0, 1, 2], {0}))
def test_a_fight_the_landlord_program_reads_its_own_botzone_requests_and_plays_legal_moves(seat):
    match = landlord_match(seat, seed=40 + seat)
    attempts = list(Attempt.objects.filter(match=match, seat=seat).order_by("ply"))
    assert len(attempts) >= 2
    assert [a.verdict for a in attempts] == ["ok"] * len(attempts)  # every answer a legal play
    decisions = {d.ply: d for d in match.decisions.all()}
    assert all(decisions[a.ply].fallback == "" for a in attempts)

    first = json.loads(attempts[0].messages[0]["content"])["requests"][0]
    deal = LANDLORD.initial_state(seed=match.seed)
    # Its own hand (the landlord's 20 with the public cards), the public cards: nobody else's cards.
    assert first == {
        "history": first["history"],
        "publiccard": list(deal.bottom),
        "own": list(deal.hands[seat]),
    }
    assert len(first["own"]) == (20 if seat == 0 else 17)
    last = json.loads(attempts[-1].messages[0]["content"])
    assert all(set(request) == {"history"} for request in last["requests"][1:])
    # Each request's history: the card ids the two seats before it played last, as the record has them.
    state = LANDLORD.from_json(decisions[attempts[-1].ply].state_before)
    expected = [list(cards) for _, cards in state.plays[-2:]]
    assert last["requests"][-1]["history"] == [[]] * (2 - len(expected)) + expected
    assert len(last["responses"]) == len(attempts) - 1


def test_a_program_is_refused_where_it_would_be_told_too_much_or_rules_it_cannot_read():
    agent = ProgramAgent({"command": "true"})
    leduc = get_game("leduc-holdem")
    refused = async_to_sync(agent.decide)(leduc, leduc.initial_state(seed=1), 0, 1)
    assert refused.action is None
    assert "no Botzone requests for" in refused.attempts[0].message
    bidding = LANDLORD.initial_state(seed=1, bidding=True)
    assert "no bidding" in async_to_sync(agent.decide)(LANDLORD, bidding, 0, 1).attempts[0].message
    standard = async_to_sync(agent.decide)(HOLDEM, HOLDEM.initial_state(seed=1), 0, 1)
    assert "programs play hold'em's botzone variant" in standard.attempts[0].message
    assert botzone.has_requests(LANDLORD)
    assert botzone.has_requests(HOLDEM)
    assert not botzone.has_requests(leduc)


def botzone_logs(game: str) -> list[Path]:
    """BotzoneBench's published logs of `game` (shared/reference/records/botzone beside the checkout), if present."""
    for parent in Path(__file__).resolve().parents:
        folder = parent / "shared" / "reference" / "records" / "botzone"
        if folder.is_dir():
            return sorted(folder.glob(f"{game}__*.json"))
    return []


def ranks(cards: list[int]) -> list[int]:
    return sorted(rank_of(card) for card in cards)


@pytest.mark.skipif(not botzone_logs("FightTheLandlord"), reason="BotzoneBench's logs are not beside this checkout")
@pytest.mark.parametrize("path", botzone_logs("FightTheLandlord"), ids=lambda path: path.name)
def test_fight_the_landlord_requests_match_what_botzones_judge_sent_in_its_logs(path):
    """Replaying a Botzone log: each seat's request is the judge's (its own hand and the public cards on its first
    turn, then the two plays before it), and every response the judge took decodes to a legal play."""
    log = json.loads(path.read_text())
    deal = log[0]
    bottom = deal["publiccard"]
    hands = [[card for card in deal["allocation"][0] if card not in bottom], *deal["allocation"][1:]]
    state = LANDLORD.initial_state(seed=0, cards={"hands": hands, "bottom": bottom}, scoring="botzone")
    judge_history: list[list[int]] = [[], []]  # as Botzone's judge keeps it: the last two plays
    for turn, entry in enumerate(entry for entry in log[1:] if "errorInfo" not in entry):
        seat, cards = entry["event"]["player"], entry["event"]["action"]
        assert seat == LANDLORD.current_player(state)
        told = botzone_landlord.request(state, seat, first=turn < 3)
        assert [ranks(play) for play in told["history"]] == [ranks(play) for play in judge_history]
        if turn < 3:
            assert sorted(told["own"]) == sorted(deal["allocation"][seat])
            assert sorted(told["publiccard"]) == sorted(bottom)
        else:
            assert set(told) == {"history"}
        action = botzone.decode(LANDLORD, state, cards)
        assert LANDLORD.is_legal(state, action)
        assert ranks(botzone_landlord.response(state, seat, action)) == ranks(cards)
        state = LANDLORD.apply(state, action)
        judge_history = [judge_history[1], cards]


def mahjong_match(program_seat: int, seed: int) -> Match:
    bots_ensure(game="mahjong")
    command = bots.python_bot(bots.program_dir(), "mahjong", bots.MAHJONG_BOT)
    program = agent_create(slug=f"mj-{program_seat}", name="mj", kind="program", config={"command": command})
    random_bot = Agent.objects.get(slug="mahjong-lv0")
    seats = [random_bot] * 4
    seats[program_seat] = program
    match = match_create(game="mahjong", agents=seats, seed=seed, options=MAHJONG.variants["botzone"])
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.mark.django_db
@pytest.mark.slow
def test_a_mahjong_program_reads_its_own_botzone_requests_and_plays_legal_moves():
    pungs = 0
    for seat in (0, 3):  # East, who draws first, and the seat that answers East's discards last
        match = mahjong_match(seat, seed=60 + seat)
        attempts = list(Attempt.objects.filter(match=match, seat=seat).order_by("ply"))
        assert len(attempts) >= 5
        assert [(a.verdict, a.message) for a in attempts if a.verdict != "ok"] == []
        assert not match.decisions.filter(seat=seat).exclude(fallback="").exists()
        told = [json.loads(a.messages[0]["content"]) for a in attempts if a.messages]
        deal = told[0]["requests"][:2]
        state = MAHJONG.from_json(match.decisions.order_by("ply").first().state_before)
        dealt = sorted(state.hands[seat]) if seat else sorted(_without_one(state.hands[0], state.drawn))
        assert deal == [f"0 {seat} {state.wind}", "1 0 0 0 0 " + " ".join(tile_name(t) for t in dealt)]
        for turn in told:  # every request is Botzone's; one answer for each but the last
            assert len(turn["responses"]) == len(turn["requests"]) - 1
            assert all(re.fullmatch(REQUEST, r) for r in turn["requests"][2:]), turn["requests"]
            # A draw is told as the tile to the seat that drew it only.
            assert all(r.split()[1] != str(seat) for r in turn["requests"][2:] if r.endswith("DRAW"))
        for before, after in itertools.pairwise(attempts):
            if answer_of(before).startswith("PENG"):
                pungs += 1  # its discard, named with the PENG, played on its next turn without asking again
                assert (after.messages, after.raw_text) == ([], "PLAY " + answer_of(before).split()[1])
    assert pungs, "no program pung in these deals: choose seeds where one does"


def answer_of(attempt: Attempt) -> str:
    """The program's answer at an attempt: what it printed, or the discard it named before (not run again)."""
    return json.loads(attempt.raw_text)["response"] if attempt.messages else attempt.raw_text


def _without_one(hand: tuple[int, ...], tile: int) -> list[int]:
    rest = list(hand)
    rest.remove(tile)
    return rest


def judge_told(log: list, seat: int) -> tuple[list[str], list[str]]:
    """What Botzone's Mahjong judge told `seat` in a log, and what `seat` answered (its display shows the events;
    each answer is the claim the next event shows, else PASS)."""
    dealt = sorted(log[1]["hand"][seat], key=tile_of)
    told, answers = [f"0 {seat} {log[0]['quan']}", "1 0 0 0 0 " + " ".join(dealt)], ["PASS", "PASS"]
    entries = log[2:]
    for index, entry in enumerate(entries):
        verb, mover, tile = entry["action"], entry.get("player"), entry.get("tile")
        after = entries[index + 1] if index + 1 < len(entries) else {}
        request = {
            "DRAW": f"2 {tile}" if mover == seat else f"3 {mover} DRAW",
            "PLAY": f"3 {mover} PLAY {tile}",
            "PENG": f"3 {mover} PENG {tile}",
            "CHI": f"3 {mover} CHI {entry.get('tileCHI')} {tile}",
            "GANG": f"3 {mover} GANG",
            "BUGANG": f"3 {mover} BUGANG {tile}",
        }.get(verb)
        if request is None:
            continue
        told.append(request)
        answer = "PASS"
        if request.startswith("2 "):
            answer = {"PLAY": "PLAY", "GANG": "GANG", "BUGANG": "BUGANG"}.get(after.get("action"), "HU")
            answer += f" {after['tile']}" if answer != "HU" else ""
        elif mover != seat and after.get("player") == seat:
            answer = {
                "PENG": f"PENG {after.get('tile')}",
                "CHI": f"CHI {after.get('tileCHI')} {after.get('tile')}",
                "GANG": "GANG",
                "HU": "HU",
            }.get(after["action"], "PASS")
        answers.append(answer)
    return told, answers


@pytest.mark.skipif(
    not botzone_logs("ChineseStandardMahjong"), reason="BotzoneBench's logs are not beside this checkout"
)
@pytest.mark.parametrize("path", botzone_logs("ChineseStandardMahjong"), ids=lambda path: path.name)
def test_mahjong_requests_and_answers_are_what_botzones_judge_sent_in_its_logs(path):
    """Replaying a Botzone log: every seat's requests, from the deal to the end, are the judge's, and the answers
    Arena would give it as its own earlier responses are the ones the judge took."""
    log = json.loads(path.read_text())
    moves, _, _ = botzone_mahjong_replay(path.name, MAHJONG, log, strict=True)
    state = MAHJONG.initial_state(seed=0, walls=botzone_walls(path.name, log), wind=int(log[0]["quan"]))
    decisions = []
    for text in moves:
        action = MAHJONG.parse_action(state, text)
        decisions.append((MAHJONG.current_player(state), state, action))
        state = MAHJONG.apply(state, action)
    for seat in range(4):
        requests, responses = botzone_mahjong.history(seat, decisions, state)
        told, answered = judge_told(log, seat)
        assert requests == told
        assert responses == answered[: len(told) - 1]


@pytest.mark.django_db
@pytest.mark.parametrize("seat", sampled([0, 1], {0}))
def test_a_holdem_program_reads_its_own_botzone_requests_and_plays_legal_moves(seat):
    bots_ensure(game="holdem")
    command = bots.python_bot(bots.program_dir(), "holdem", bots.HOLDEM_BOT)
    program = agent_create(slug=f"holdem-{seat}", name="h", kind="program", config={"command": command})
    seats = [Agent.objects.get(slug="holdem-lv0")] * 2
    seats[seat] = program
    options = {**HOLDEM.variants["botzone"], "hands": 6}
    seed = {0: 78, 1: 70}[seat]  # deals where it opens a hand's betting holding a pair
    match = match_create(game="holdem", agents=seats, seed=seed, options=options)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    attempts = list(Attempt.objects.filter(match=match, seat=seat).order_by("ply"))
    assert len(attempts) >= 6
    assert [(a.verdict, a.message) for a in attempts if a.verdict != "ok"] == []
    assert not match.decisions.filter(seat=seat).exclude(fallback="").exists()
    decisions = {d.ply: d for d in match.decisions.all()}
    raised = False
    for attempt in attempts:
        turn = json.loads(attempt.messages[0]["content"])
        told = turn["requests"][-1]
        state = HOLDEM.from_json(decisions[attempt.ply].state_before)
        mine = [botzone_holdem.card_number(card) for card in hand_cards(state, state.hand)[seat]]
        assert (told["my_id"], told["my_cards"], told["hand"]) == (seat, mine, state.hand)
        assert set(told) == HOLDEM_REQUEST  # nothing of the other seat's cards
        assert len(turn["responses"]) == len(turn["requests"]) - 1
        raised |= json.loads(attempt.raw_text)["response"] == 200
    assert raised, "the program never held a pair opening a hand: choose another seed"


@pytest.mark.skipif(not botzone_logs("TexasHoldem2p"), reason="BotzoneBench's logs are not beside this checkout")
@pytest.mark.parametrize("path", botzone_logs("TexasHoldem2p"), ids=lambda path: path.name)
def test_holdem_requests_and_answers_are_what_botzones_judge_sent_in_its_logs(path):
    """Replaying a Botzone log: before each response, the acting seat's request holds what the judge showed for it
    (its cards, the board, its chips, the match so far, the last action of the hand, the dealer), and the number
    Arena records as its answer is the one the judge applied."""
    log = json.loads(path.read_text())
    moves, _, _ = botzone_holdem_replay(path.name, HOLDEM, log, strict=True)
    state = botzone_holdem_start(path.name, HOLDEM, log)
    for index, text in enumerate(moves):
        shown, after = log[index], log[index + 1]
        seat = shown["round_idx"]
        told = botzone_holdem.request(state, seat)
        assert (told["my_id"], told["num_players"]) == (seat, 2)
        assert told["my_cards"] == shown["player_cards"][seat]
        assert told["public_cards"] == shown["public_cards"]
        assert told["my_chips"] == shown["player_chips"][seat]
        assert told | shown["matchdata"] == told  # hand, max_hand, total_win_chips, total_win_games
        if "temp_result" in shown or index == 0:
            assert told["history"] == []
        elif "last_action" in shown:
            assert told["history"][-1] == shown["last_action"]
        if not told["history"] and shown["round"] == 0:
            assert told["dealer_id"] == shown["round_player_bet"].index(100)  # Botzone's dealer posts the big blind
        action = HOLDEM.parse_action(state, text)
        if "last_action" in after:
            assert botzone_holdem.response(state, action) == after["last_action"]["action"]
            assert botzone.decode(HOLDEM, state, after["last_action"]["action"]) == action
        state = HOLDEM.apply(state, action)
