"""Heads-up no-limit hold'em: hand ranking through pokerkit, betting (cross-checked against pokerkit's engine),
blinds and buttons, duplicate deals, hidden hole cards, and the bots."""

from __future__ import annotations

import json
import random
from contextlib import contextmanager
from unittest import mock

import pytest
from django.template.loader import render_to_string
from pokerkit import Automation, NoLimitTexasHoldem, StandardHighHand

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.holdem import chen_score, equity
from games.holdem import Holdem, HoldemState, hand_result
from games.holdem.betting import CALL, FOLD, STACK, replay
from games.holdem.cards import DECK, best_hand, deal, hand_label
from tests.shared_files import RECORDS, needs

GAME: Holdem = get_game("holdem")  # type: ignore[assignment]


def strength(cards: str) -> int:
    return best_hand(tuple(cards.split()))


def play(state: HoldemState, moves: str) -> HoldemState:
    for word in moves.split(","):
        state = GAME.apply(state, GAME.parse_action(state, word))
    return state


@contextmanager
def rigged(hands: dict[int, tuple[str, str, str]]):
    """Patch the deal: hand h gets (seat 0 hole, seat 1 hole, board) from `hands`, written as 'As Kd' strings."""

    def fake(seed: int, hand: int):
        mine, yours, board = hands[hand]
        return tuple(mine.split()), tuple(yours.split()), tuple(board.split())

    hand_result.cache_clear()  # results are cached by seed and actions: never mix rigged and real deals
    try:
        with mock.patch("games.holdem.deal", fake):
            yield
    finally:
        hand_result.cache_clear()


# -- hand strength ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("better", "worse", "label"),
    [
        ("As Ks Qs Js Ts 2d 3c", "Kh Qh Jh Th 9h 2c 3d", "Straight flush"),  # royal beats king-high straight flush
        ("9c 9d 9h 9s 2c 3d 4h", "Ac Ad Ah Kc Kd 2s 3s", "Four of a kind"),
        ("Ac Ad Ah Kc Kd 2s 3s", "Kh Qh 9h 5h 2h Ac Ad", "Full house"),
        ("Kh Qh 9h 5h 2h Ac Ad", "Tc Jd Qh Ks As 2c 3c", "Flush"),
        ("6c 5d 4h 3s 2c Kd Kh", "Ac 2d 3h 4s 5c Kd Kh", "Straight"),  # a six-high straight beats the wheel
        ("Ac 2d 3h 4s 5c Kd Qh", "Kc Kd Kh 9s 2c 4d 7h", "Straight"),  # the wheel is still a straight
        ("7c 7d 7h As 2c 4d 9h", "Ac Ad Kh Ks Qc Jd 9h", "Three of a kind"),
        ("Ac Ad Kh Ks Qc Jd 9h", "Ac Ad Kh Ks Jc Td 9h", "Two pair"),  # the kicker decides
        ("Ac Ad Kh Qs Jc 2d 4h", "Kc Kd Ah Qs Jc 2d 4h", "One pair"),
        ("Ac Kd Qh Js 9c 2d 4h", "Ac Kd Qh Js 8c 2d 4h", "High card"),
    ],
)
def test_hand_ranking(better, worse, label):
    assert strength(better) > strength(worse)
    assert hand_label(tuple(better.split())) == label


def test_the_board_can_play_for_both_and_split():
    board = "Ah Kh Qh Jh Th"
    assert strength(f"2c 3d {board}") == strength(f"4s 5c {board}")
    assert hand_label(("2c", "3d", *board.split())) == "Straight flush"


def test_best_hand_agrees_with_pokerkit_on_random_deals():
    rng = random.Random(7)
    for _ in range(400):
        cards = rng.sample(DECK, 9)
        ours = (best_hand(cards[:2] + cards[4:]), best_hand(cards[2:4] + cards[4:]))
        theirs = [StandardHighHand.from_game("".join(h), "".join(cards[4:])) for h in (cards[:2], cards[2:4])]
        assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])


# -- betting -----------------------------------------------------------------------------------------------------


def test_blinds_button_and_first_actions():
    state = GAME.initial_state(seed=1)
    hand = GAME.player_view(state, 0)["current"]
    assert hand["button"] == 0
    assert hand["street_bet"] == [50, 100]
    assert hand["pot"] == 150
    assert GAME.current_player(state) == 0  # the button (small blind) acts first before the flop
    assert [GAME.action_to_text(state, a) for a in GAME.legal_actions(state)] == [
        "fold",
        "call",
        "raise-to 200",  # the minimum (the big blind plus one big blind), also half the pot after calling
        "raise-to 300",  # a pot raise: call 50, making the pot 200, and raise 200 more
        "all-in",
    ]
    state = play(state, "call")
    assert GAME.current_player(state) == 1  # the big blind has the option
    assert next(GAME.action_to_text(state, a) for a in GAME.legal_actions(state)) == "check"
    state = play(state, "check")
    assert GAME.player_view(state, 1)["current"]["street"] == "flop"
    assert GAME.current_player(state) == 1  # the big blind acts first after the flop
    state = play(state, "check,check,check,check,check,check")
    assert state.hand == 1
    assert GAME.current_player(state) == 1  # seat 1 has the button in the second hand


def test_raise_bounds_and_messages():
    state = play(GAME.initial_state(seed=1), "raise-to 300")
    assert GAME.raise_bounds(state) == (500, STACK)  # re-raise by at least the last raise (200)
    with pytest.raises(IllegalAction, match="raise-to must be at least 500 and at most your stack of 20,000"):
        GAME.parse_action(state, "raise-to 400")
    with pytest.raises(IllegalAction, match="at least 500"):
        GAME.apply(state, ("raise", 20_001))
    with pytest.raises(IllegalAction, match="200 to call"):
        GAME.parse_action(state, "check")
    assert GAME.parse_action(state, "raise to 1,200") == ("raise", 1200)
    assert GAME.parse_action(state, "-2") == GAME.parse_action(state, "all-in") == ("raise", STACK)
    flop = play(GAME.initial_state(seed=1), "call,check")
    with pytest.raises(IllegalAction, match="nothing to call"):
        GAME.apply(flop, FOLD)
    assert GAME.raise_bounds(flop) == (100, 19_900)  # a bet of at least one big blind


def test_an_all_in_call_runs_the_board_out():
    with rigged({0: ("As Ad", "Kc Kd", "2c 7h 9s Js 3d")}):
        state = play(GAME.initial_state(seed=1, hands=1), "all-in,call")
        assert GAME.current_player(state) is None
        assert GAME.net(state) == STACK
        last = GAME.player_view(state, 1)["last"]
        assert last["board"] == ["2c", "7h", "9s", "Js", "3d"]
        assert last["cards"] == [["As", "Ad"], ["Kc", "Kd"]]
        assert last["hands_made"] == ["One pair", "One pair"]


def test_split_pot_and_fold_results():
    with rigged({0: ("2c 3d", "4h 5s", "Ah Kh Qh Jh Th"), 1: ("2c 3d", "4h 5s", "Ah Kh Qh Jh Th")}):
        state = play(GAME.initial_state(seed=2, hands=2), "raise-to 300,call,check,check,check,check,check,check")
        assert hand_result(2, 0, state.past[0]) == 0
        state = play(state, "raise-to 250,fold")  # seat 1 is the button now; seat 0 folds its big blind
        assert GAME.net(state) == -100
        assert GAME.outcome(state).scores == (0.0, 1.0)


def _pokerkit_state():
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    return NoLimitTexasHoldem.create_state(automations, True, 0, (50, 100), 100, (STACK, STACK), 2)


# pokerkit burns cards from its own deck, which may hold a card we deal to the board: harmless here.
@pytest.mark.filterwarnings("ignore:A card being dealt")
@pytest.mark.parametrize("seed", range(40))
def test_betting_and_payoffs_agree_with_pokerkit(seed):
    """Random hands played on both engines: same player to act, same raise bounds, same chips won."""
    rng = random.Random(seed)
    mine, yours, board = deal(seed, 0)
    theirs = _pokerkit_state()
    # pokerkit seats the big blind as player 0 and the button as player 1 heads-up: our seat 0 (button) is its 1.
    theirs.deal_hole("".join(yours))
    theirs.deal_hole("".join(mine))
    dealt = 0
    actions: tuple = ()
    while not (betting := replay(actions, 0)).over:
        while theirs.can_deal_board():
            count = 3 if dealt == 0 else 1
            theirs.deal_board("".join(board[dealt : dealt + count]))
            dealt += count
        seat = betting.to_act
        assert theirs.actor_index == 1 - seat
        state = HoldemState(seed, 0, 1, 0, actions, ())
        bounds = GAME.raise_bounds(state)
        if theirs.can_complete_bet_or_raise_to():
            assert bounds == (
                theirs.min_completion_betting_or_raising_to_amount,
                theirs.max_completion_betting_or_raising_to_amount,
            )
        else:
            assert bounds is None
        action = rng.choice(GAME.legal_actions(state))
        if action[0] == "raise" and rng.random() < 0.5:
            action = ("raise", rng.randint(*bounds))
        if action == FOLD:
            theirs.fold()
        elif action == CALL:
            theirs.check_or_call()
        else:
            theirs.complete_bet_or_raise_to(action[1])
        actions = (*actions, action)
    while theirs.status and theirs.can_deal_board():
        count = 3 if dealt == 0 else 1
        theirs.deal_board("".join(board[dealt : dealt + count]))
        dealt += count
    assert hand_result(seed, 0, actions) == theirs.stacks[1] - STACK


# -- duplicate deals and hidden cards ---------------------------------------------------------------------------


def test_deals_follow_seed_hand_and_seat():
    assert deal(5, 3) == deal(5, 3) != deal(5, 4)
    mine, yours, board = deal(5, 0)
    assert len(set(mine + yours + board)) == 9
    finals = []
    for rng_seed in (1, 2):
        state, rng = GAME.initial_state(seed=5, hands=6), random.Random(rng_seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, GAME.random_action(state, rng))
        finals.append([hand["cards"] for hand in GAME.full_view(state)["history"]])
    assert finals[0] == finals[1]
    assert finals[0][0] == [list(mine), list(yours)]


def test_hole_cards_stay_hidden_in_views_texts_and_html():
    for seat in (0, 1):
        seen = []
        for other in ("7c 2d", "Ac Ah"):
            holes = ("Ks Qs", other) if seat == 0 else (other, "Ks Qs")
            with rigged({0: (*holes, "2h 5d 9c Tc 4s")}):
                state = play(GAME.initial_state(seed=8, hands=1), "call,check")
                view = GAME.player_view(state, seat)
                html = render_to_string("games/holdem/board.html", {"view": view, "seat": seat})
                text = GAME.observation_text(state, seat)
                for card in other.split():
                    assert card not in str(view)
                    assert card not in text
                assert "Tc" not in text
                assert "T♣" not in html
                assert "K♠" in html
                assert "Ks Qs" in text
                seen.append((view, text, GAME.public_history(state), html))
        assert seen[0] == seen[1]


def test_the_replay_view_shows_everything():
    with rigged({0: ("Ks Qs", "7c 2d", "2h 5d 9c Tc 4s")}):
        state = play(GAME.initial_state(seed=8, hands=1), "raise-to 300,fold")
        assert GAME.player_view(state, None)["last"]["cards"] == [[], []]
        full = GAME.full_view(state)
        assert full["history"][0]["cards"] == [["Ks", "Qs"], ["7c", "2d"]]
        html = render_to_string("games/holdem/board.html", {"view": full, "seat": None})
        assert "Player 1 held Ks Qs; Player 2 held 7c 2d" in html


# -- bots ---------------------------------------------------------------------------------------------------------


def test_chen_scores_and_equity():
    assert chen_score(("As", "Ad")) == 20
    assert chen_score(("7c", "2d")) == -1.5  # 3.5 for the seven, minus 5 for the gap
    assert chen_score(("Ks", "Qs")) == 10  # 8 for the king, 2 for suited, connected
    rng = random.Random(1)
    assert equity(("As", "Ad"), (), 400, rng) == pytest.approx(0.85, abs=0.04)  # aces win about 85% heads-up
    assert equity(("As", "Ad"), ("Ah", "Ac", "2d", "7s", "9h"), 50, rng) == 1.0


def test_bots_decide_from_their_own_cards_only():
    for bot in ladder("holdem"):
        choices = []
        for other in ("7c 2d", "Ac Ah"):
            with rigged({0: (other, "Ks Qs", "2h 5d 9c Tc 4s")}):
                state = play(GAME.initial_state(seed=8, hands=1), "raise-to 400")
                choices.append([bot.choose(GAME, state, random.Random(n)) for n in range(6)])
        assert choices[0] == choices[1], bot.slug


BOTZONE_LOG = RECORDS / "botzone" / "TexasHoldem2p__lv0__Qwen3-14B__0-llm.json"


def test_a_bare_number_puts_that_many_more_chips_in():
    # Botzone's notation: N > 0 is "put N more chips in now". The small blind (50 in) answering 451 raises to 501.
    state = GAME.initial_state(seed=1)
    assert GAME.parse_action(state, "451") == ("raise", 501)
    assert GAME.parse_action(state, "raise-to 451") == ("raise", 451)
    assert GAME.parse_action(state, "0") == CALL
    assert GAME.parse_action(state, "-1") == FOLD
    flop = play(GAME.initial_state(seed=1), "call,check")
    assert GAME.parse_action(flop, "100") == ("raise", 100)  # nothing in yet this round: a bet of 100


def test_botzone_variant_betting_order_folds_and_raise_sizes():
    state = GAME.initial_state(seed=1, **GAME.variants["botzone"])
    assert GAME.current_player(state) == 0  # the button (small blind) acts first before the flop
    # Botzone's raise: the round's bet after it must reach twice the largest single raise (the big blind
    # before the flop), so the small blind raises to at least 200; it may not put its whole stack in but by all-in.
    assert GAME.raise_bounds(state) == (200, STACK)
    assert not GAME.is_legal(state, ("raise", 199))
    with pytest.raises(IllegalAction, match="answer -2"):
        GAME.parse_action(state, "19950")  # every chip left: Botzone wants -2 for an all-in
    state = play(state, "call,check")
    assert GAME.current_player(state) == 0  # and acts first after the flop too (ours: the big blind)
    assert FOLD in GAME.legal_actions(state)  # folding with nothing to call is allowed
    assert GAME.raise_bounds(state) == (100, 19_900)
    state = play(state, "250")  # a bet of 250: the next raise must reach 500
    assert GAME.raise_bounds(state) == (500, 19_900)
    ended = GAME.apply(state, FOLD)
    assert (ended.hand, GAME.net(ended)) == (1, 100)  # seat 1 folds: its big blind goes to seat 0
    # Facing an all-in a player calls it (Botzone's -2) or folds.
    shove = play(GAME.initial_state(seed=1, **GAME.variants["botzone"]), "all-in")
    assert GAME.parse_action(shove, "-2") == CALL
    assert GAME.raise_bounds(shove) is None
    standard = play(GAME.initial_state(seed=1), "call,check")
    assert GAME.current_player(standard) == 1
    assert FOLD not in GAME.legal_actions(standard)


def test_botzone_ranking_has_no_wheel():
    from games.holdem.cards import botzone_best_hand

    wheel, pair = ["Ah", "2d", "3s", "4c", "5h", "9d", "Jc"], ["Ah", "Ad", "3s", "4c", "5h", "9d", "Jc"]
    assert best_hand(wheel) > best_hand(pair)  # ours: a five-high straight beats a pair
    assert botzone_best_hand(wheel) < botzone_best_hand(pair)  # Botzone: ace high, below a pair
    assert botzone_best_hand(wheel) == (1, 14, 11, 9, 5, 4)
    assert botzone_best_hand(["6h", "2d", "3s", "4c", "5h", "9d", "Jc"]) == (5, 6)  # its lowest straight


@needs(BOTZONE_LOG)
def test_botzone_log_replays_with_its_cards_and_results():
    from ratings.record.reports.imports import botzone_holdem

    log = json.loads(BOTZONE_LOG.read_text())
    moves, scores, reason = botzone_holdem(BOTZONE_LOG.name, GAME, log, strict=True)
    # Hand 1: seat 0 (small blind) calls, checks are made, seat 0 bets 100 on flop and turn, seat 1 puts in 619,
    # seat 0 shoves, seat 1 folds: +819 for seat 0 (the judge's temp_result). Hand 2: seat 1, now the small
    # blind, answers 451: a raise to 501, not to 451; seat 0 folds its big blind.
    assert moves[:10] == [
        "call", "check", "raise-to 100", "call", "raise-to 100", "raise-to 619", "all-in", "fold",
        "raise-to 501", "fold",
    ]  # fmt: skip
    # The last hand: seat 1 calls, seat 0 folds with nothing to call (allowed by Botzone's judge).
    assert moves[-2:] == ["call", "fold"]
    assert (scores, reason) == ([0.0, 1.0], "Player 2 won 16,605 chips over 20 hands")


def test_botzone_variant_names_a_wheel_as_its_judge_does():
    # Seat 0 holds A-2 on a 3-4-5 board: ours a five-high straight, Botzone's judge ace high (no wheel).
    deals = [[["Ah", "2d"], ["Kc", "Qc"], ["3s", "4c", "5h", "9d", "Jc"]], [["7h", "8h"], ["9c", "Tc"], []]]
    moves = "call,check,check,check,check,check,check,check"
    for rules, label in (("", "Straight"), ("botzone", "High card")):
        state = play(GAME.initial_state(seed=0, hands=2, button=0, deals=deals, rules=rules), moves)
        assert state.hand == 1
        assert f"Player 1 Ah 2d ({label})" in GAME.public_history(state)
    botzone = play(GAME.initial_state(seed=0, hands=2, button=0, deals=deals, **GAME.variants["botzone"]), moves)
    assert "Straight" not in GAME.public_history(botzone)
