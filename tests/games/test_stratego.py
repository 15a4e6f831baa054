"""Stratego: combat, movement (scouts, lakes, the two-square rule), setups, the end of the game, hidden ranks."""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.stratego import determinise, knowledge
from games.stratego import MAX_PLAY_PLIES, MAX_QUIET_PLIES, Stratego, StrategoState
from games.stratego.pieces import (
    ARMY,
    ATTACKER_WINS,
    BOMB,
    BOTH_LOSE,
    CODES,
    DEFENDER_WINS,
    FLAG,
    MARSHAL,
    MINER,
    SCOUT,
    SPY,
    combat,
    has_moved,
    is_revealed,
    owner_of,
    piece,
    rank_of,
)
from games.stratego.rules import cell_index, cell_name, home_cells, parse_setup, random_setup

GAME: Stratego = get_game("stratego")  # type: ignore[assignment]


def position(pieces: dict[str, str], ply: int = 2, revealed: tuple[str, ...] = ()) -> StrategoState:
    """A hand-built position: {'a1': 'rF', 'e7': 'b9'} (r Red, b Blue, then the piece code); Red moves at even plies."""
    board = [0] * 100
    for name, text in pieces.items():
        board[cell_index(name)] = piece("rb".index(text[0]), CODES.index(text[1]), name in revealed)
    return StrategoState(0, ply, tuple(board), ((), ()), 0, ("", ""), (), (), -1)


def move_texts(state: StrategoState, square: str | None = None) -> list[str]:
    texts = [GAME.action_to_text(state, a) for a in GAME.legal_actions(state)]
    return sorted(t for t in texts if square is None or t.startswith(square))


def play(state: StrategoState, moves: str) -> StrategoState:
    for text in moves.split():
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def cell(state: StrategoState, name: str) -> int:
    return state.board[cell_index(name)]


# -- combat ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "result"),
    [
        (SPY, MARSHAL, ATTACKER_WINS),  # the spy takes the marshal only when it attacks
        (MARSHAL, SPY, ATTACKER_WINS),
        (SPY, 9, DEFENDER_WINS),
        (MINER, BOMB, ATTACKER_WINS),  # only a miner defuses a bomb
        (MARSHAL, BOMB, DEFENDER_WINS),
        (SCOUT, BOMB, DEFENDER_WINS),
        (SCOUT, FLAG, ATTACKER_WINS),
        (SPY, FLAG, ATTACKER_WINS),
        (7, 7, BOTH_LOSE),
        (MARSHAL, MARSHAL, BOTH_LOSE),
        (9, MARSHAL, DEFENDER_WINS),
        (4, 3, ATTACKER_WINS),
        (SCOUT, SPY, ATTACKER_WINS),
    ],
)
def test_combat_table(attacker, defender, result):
    assert combat(attacker, defender) == result


def test_battles_on_the_board_reveal_and_remove_the_right_pieces():
    state = position({"a1": "rF", "j1": "r3", "e4": "rS", "e5": "bM", "j2": "bB", "a10": "bF", "b10": "b2"})
    after = play(state, "e4xe5")
    assert rank_of(cell(after, "e5")) == SPY
    assert owner_of(cell(after, "e5")) == 0
    assert is_revealed(cell(after, "e5"))
    assert not cell(after, "e4")
    assert after.captured == ("", "M")
    assert "Red Spy (S) attacks Blue Marshal (M), attacker wins" in GAME.public_history(after)
    # The same pieces the other way round: the marshal takes the spy.
    state = position({"a1": "rF", "e4": "rS", "e5": "bM", "a10": "bF", "j1": "r4"}, ply=3)
    after = play(state, "e5xe4")
    assert rank_of(cell(after, "e4")) == MARSHAL
    assert after.captured == ("S", "")
    # A miner defuses a bomb and moves onto its square.
    after = play(position({"a1": "rF", "j1": "r3", "j2": "bB", "a10": "bF", "b10": "b2"}), "j1xj2")
    assert rank_of(cell(after, "j2")) == MINER
    assert after.captured == ("", "B")
    # Anything else dies on a bomb, which stays, revealed.
    after = play(position({"a1": "rF", "j1": "r9", "j2": "bB", "a10": "bF", "b10": "b2"}), "j1xj2")
    assert rank_of(cell(after, "j2")) == BOMB
    assert is_revealed(cell(after, "j2"))
    assert not cell(after, "j1")
    # Equal ranks both leave the board.
    after = play(position({"a1": "rF", "j1": "r7", "j2": "b7", "a10": "bF", "b10": "b2"}), "j1xj2")
    assert not cell(after, "j1")
    assert not cell(after, "j2")
    assert after.captured == ("7", "7")


# -- movement ----------------------------------------------------------------------------------------------------


def test_scouts_move_any_distance_in_straight_lines_and_strike_at_the_end():
    state = position({"a1": "r2", "j10": "rF", "a7": "bB", "d1": "b5", "j9": "bF"})
    # Up the a-file to a6, then the bomb on a7 can be attacked; along rank 1 to c1, then d1 can be attacked.
    assert move_texts(state, "a1") == sorted(
        ["a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1xa7", "a1-b1", "a1-c1", "a1xd1"]
    )
    long = play(state, "a1-a5")
    assert is_revealed(cell(long, "a5"))
    assert has_moved(cell(long, "a5"))
    short = play(state, "a1-a2")
    assert not is_revealed(cell(short, "a2"))
    assert has_moved(cell(short, "a2"))


def test_lakes_block_every_piece_and_scout_lines():
    state = position({"c4": "r2", "e4": "r2", "b5": "r5", "j1": "rF", "a10": "bF", "j10": "b3"})
    assert move_texts(state, "c4") == sorted(["c4-c3", "c4-c2", "c4-c1", "c4-b4", "c4-a4", "c4-d4"])
    assert "e4-e10" in move_texts(state, "e4")  # the e-file runs between the lakes
    assert move_texts(state, "b5") == sorted(["b5-b6", "b5-b4", "b5-a5"])  # c5 is a lake
    with pytest.raises(IllegalAction):
        GAME.apply(state, GAME.parse_action(state, "b5-c5"))


def test_bombs_and_the_flag_never_move_and_a_player_without_moves_loses():
    state = position({"a1": "rF", "b1": "rB", "a10": "bF", "j10": "b3"})
    assert GAME.current_player(state) is None
    assert GAME.outcome(state).scores == (0.0, 1.0)
    assert GAME.outcome(state).reason == "Red cannot move"


def test_two_square_rule():
    state = position({"a1": "rF", "e2": "r5", "a10": "bF", "j9": "b4"})
    state = play(state, "e2-e3 j9-j8 e3-e2 j8-j9 e2-e3 j9-j8")
    assert "e3-e2" not in move_texts(state, "e3")  # a fourth time between e2 and e3 is not allowed
    assert "e3-e4" in move_texts(state, "e3")
    with pytest.raises(IllegalAction, match="two-square rule"):
        GAME.apply(state, GAME.parse_action(state, "e3-e2"))
    later = play(state, "e3-e4")
    assert "j8-j9" not in move_texts(later)  # the same holds for Blue's piece
    later = play(later, "j8-j7")
    assert "e4-e3" in move_texts(later, "e4")


def test_capturing_the_flag_wins():
    state = position({"a1": "rF", "e2": "r2", "e9": "bF", "j10": "b4"})
    after = play(state, "e2xe9")
    assert GAME.outcome(after).scores == (1.0, 0.0)
    assert GAME.outcome(after).reason == "Red captured the flag"
    assert GAME.legal_actions(after) == []


def test_draw_caps():
    quiet = position({"a1": "rF", "e2": "r5", "a10": "bF", "j9": "b4"})
    quiet = StrategoState(
        *[MAX_QUIET_PLIES - 1 if f == "quiet" else getattr(quiet, f) for f in quiet.__dataclass_fields__]
    )
    after = play(quiet, "e2-e3")
    assert GAME.outcome(after).scores == (0.5, 0.5)
    assert "without an attack" in GAME.outcome(after).reason
    long = position({"a1": "rF", "e2": "r5", "a10": "bF", "j9": "b4"}, ply=2 + MAX_PLAY_PLIES - 1)
    after = play(long, "j9-j8")
    assert GAME.outcome(after).reason == "move limit: 1,000 moves each"


# -- setups ------------------------------------------------------------------------------------------------------


def test_setups_are_validated_and_placed_front_row_first():
    with pytest.raises(ValueError, match="6 × B"):
        parse_setup("B" * 40)
    with pytest.raises(ValueError, match="40 piece codes"):
        parse_setup("MB9")
    setup = parse_setup("".join(sorted(ARMY)))
    assert len(setup) == 43
    assert setup.count("/") == 3
    state = GAME.apply(GAME.initial_state(seed=0), setup)
    codes = setup.replace("/", "")
    assert [CODES[rank_of(state.board[i])] for i in home_cells(0)] == list(codes)
    assert cell_name(home_cells(0)[0]) == "a4"
    assert cell_name(home_cells(1)[0]) == "a7"
    assert GAME.parse_action(state, codes.lower()) == setup
    with pytest.raises(IllegalAction, match="classic army"):
        GAME.parse_action(state, "F" * 40)


def test_random_setups_are_armies_with_the_flag_on_the_back_row_and_follow_the_seed():
    for seed in range(20):
        codes = random_setup(random.Random(seed)).replace("/", "")
        assert sorted(codes) == sorted(ARMY)
        assert codes.index("F") >= 30  # the back row
    first = play(GAME.initial_state(seed=4), "random random")
    again = play(GAME.initial_state(seed=4), "random random")
    other = play(GAME.initial_state(seed=5), "random random")
    assert first.board == again.board != other.board
    assert GAME.current_player(first) == 0


# -- hidden information --------------------------------------------------------------------------------------------


def started(seed: int, moves: int) -> StrategoState:
    state, rng = GAME.initial_state(seed=seed), random.Random(seed)
    for _ in range(2 + moves):
        state = GAME.apply(state, GAME.random_action(state, rng))
    return state


def reshuffled(state: StrategoState, seat: int, rng: random.Random) -> StrategoState:
    """The same public position with `seat`'s hidden ranks permuted (moved pieces among moved ones)."""
    cells = list(state.board)
    for moved in (False, True):
        hidden = [
            i for i, c in enumerate(cells) if c and owner_of(c) == seat and not is_revealed(c) and has_moved(c) == moved
        ]
        ranks = [rank_of(cells[i]) for i in hidden]
        rng.shuffle(ranks)
        for i, rank in zip(hidden, ranks, strict=True):
            cells[i] = (cells[i] & ~15) | (1 + rank)
    return StrategoState(*[tuple(cells) if f == "board" else getattr(state, f) for f in state.__dataclass_fields__])


def test_views_texts_and_html_show_only_what_a_seat_may_see():
    state = started(seed=3, moves=40)
    for seat in (0, 1):
        other = reshuffled(state, 1 - seat, random.Random(1))
        assert other.board != state.board
        for viewer in (seat, None):
            views = [GAME.player_view(s, viewer) for s in (state, other)]
            assert views[0] == views[1]
            html = [render_to_string("games/stratego/board.html", {"view": v, "seat": viewer}) for v in views]
            assert html[0] == html[1]
        assert GAME.observation_text(state, seat) == GAME.observation_text(other, seat)
        assert GAME.public_history(state) == GAME.public_history(other)
        hidden = [c for row in GAME.player_view(state, seat)["rows"] for c in row["cells"] if c["side"]]
        for info in hidden:
            mine = info["side"] == ("red", "blue")[seat]
            assert bool(info["code"]) == (mine or info["revealed"])
    full = GAME.full_view(state)
    assert all(c["code"] for row in full["rows"] for c in row["cells"] if c["side"])


def test_setup_is_hidden_from_the_other_seat():
    state = play(GAME.initial_state(seed=2), "random")
    html = render_to_string("games/stratego/board.html", {"view": GAME.player_view(state, 1), "seat": 1})
    assert 'data-cell="random-setup"' in html
    assert ">M</button>" not in html
    assert ">F</button>" not in html
    mine = render_to_string("games/stratego/board.html", {"view": GAME.player_view(state, 0), "seat": 0})
    assert ">M</button>" in mine
    assert 'data-cell="random-setup"' not in mine


def test_determinised_boards_keep_what_is_known():
    state = started(seed=6, moves=60)
    known = knowledge(GAME, state, 0)
    board = determinise(known, random.Random(0))
    for i, (seen, guess) in enumerate(zip(known.board, board, strict=True)):
        if seen and (owner_of(seen) == 0 or is_revealed(seen)):
            assert guess == seen
        elif seen:
            assert has_moved(guess) == has_moved(seen)
            if has_moved(seen):
                assert rank_of(guess) not in (BOMB, FLAG), cell_name(i)
    enemy_left = sorted(CODES[rank_of(c)] for c in board if c and owner_of(c) == 1)
    assert enemy_left == sorted(CODES[rank_of(c)] for c in state.board if c and owner_of(c) == 1)


def test_bots_decide_from_what_their_seat_sees():
    state = started(seed=8, moves=30)
    seat = GAME.current_player(state)
    other = reshuffled(state, 1 - seat, random.Random(2))
    for bot in ladder("stratego"):
        picks = [[bot.choose(GAME, s, random.Random(n)) for n in range(3)] for s in (state, other)]
        assert picks[0] == picks[1], bot.slug


def test_dsgbench_placements_put_both_armies_down_before_the_first_move():
    """`placement="random"` deals each side the setup its `random` answer would; `"fixed"` the same layout always."""
    game = Stratego()
    answered = game.apply(game.apply(game.initial_state(seed=11), "random"), "random")
    placed = game.initial_state(seed=11, placement="random")
    assert (placed.board, placed.ply, game.current_player(placed)) == (answered.board, 2, 0)
    assert game.initial_state(seed=12, placement="random").board != placed.board
    fixed = [game.initial_state(seed=seed, placement="fixed") for seed in (11, 12)]
    assert fixed[0].board == fixed[1].board
    red_back_row = [fixed[0].board[cell] for cell in range(10)]  # Red's rank 1, files a–j: FIXED_SETUP's last row
    assert "".join(CODES[rank_of(c)] for c in red_back_row) == "3BM4BFB722"
    assert game.from_json(game.to_json(fixed[0])) == fixed[0]
    with pytest.raises(ValueError, match="placement"):
        game.initial_state(seed=1, placement="mirrored")
