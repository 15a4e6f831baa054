"""Chess: notation, draw rules, outcomes, views and the bot ladder (move generation: test_chess_moves.py)."""

from __future__ import annotations

import copy
import json
import pickle
import random

import chess
import pytest

from games import IllegalAction
from games.bots import chess_bots
from games.bots.calibration import play_series
from games.chess_game import Chess
from games.chess_game import position as chess_position

GAME = Chess()


def play(*moves: str, **options):
    """The state after `moves` (any notation parse_action accepts) from the options' start."""
    state = GAME.initial_state(seed=0, **options)
    for text in moves:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def from_fen(fen: str, **options):
    return GAME.initial_state(seed=0, fen=fen, **options)


# -- notation -------------------------------------------------------------------------------


def test_uci_is_canonical_and_san_of_every_legal_move_parses_back():
    rng = random.Random(4)
    state = GAME.initial_state(seed=4)
    for _ in range(60):
        if GAME.current_player(state) is None:
            break
        board = GAME.board(state)
        for uci in GAME.legal_actions(state):
            assert GAME.parse_action(state, GAME.action_to_text(state, uci)) == uci
            assert GAME.parse_action(state, board.san(chess.Move.from_uci(uci))) == uci
        state = GAME.apply(state, GAME.random_action(state, rng))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("e2e4", "e2e4"),
        ("E2E4", "e2e4"),
        ("e2-e4", "e2e4"),
        ("e4", "e2e4"),
        ("E4", "e2e4"),
        ("1. e4", "e2e4"),
        ("  `e4`  ", "e2e4"),
        ("Nf3", "g1f3"),
        ("nf3", "g1f3"),
        ("NF3", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("Nf3!?", "g1f3"),
        ("♘f3", "g1f3"),
        ("g1f3", "g1f3"),
        ("Nf3, developing", "g1f3"),  # a move followed by words: the first word is the move
        ("e4 is best", "e2e4"),
        ("1. d4 d5", "d2d4"),
    ],
)
def test_parse_opening_moves(text, expected):
    assert GAME.parse_action(GAME.initial_state(seed=0), text) == expected


CASTLING_FEN = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("O-O", "e1g1"),
        ("0-0", "e1g1"),
        ("o-o", "e1g1"),
        ("O-O+", "e1g1"),
        ("e1g1", "e1g1"),
        ("e1h1", "e1g1"),  # king takes own rook, as Chess960-style UCI writes castling
        ("O-O-O", "e1c1"),
        ("0-0-0", "e1c1"),
        ("e1c1", "e1c1"),
        ("e1a1", "e1c1"),
    ],
)
def test_parse_castling_both_sides(text, expected):
    state = from_fen(CASTLING_FEN)
    assert GAME.parse_action(state, text) == expected
    after = GAME.apply(state, expected)
    king_file = "g" if expected == "e1g1" else "c"
    assert GAME.board(after).piece_at(chess.parse_square(f"{king_file}1")) == chess.Piece.from_symbol("K")


def test_black_castles_too():
    state = from_fen(CASTLING_FEN.replace(" w ", " b "))
    assert GAME.parse_action(state, "O-O") == "e8g8"
    assert GAME.parse_action(state, "0-0-0") == "e8c8"


PROMOTION_FEN = "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("e8=Q", "e7e8q"),
        ("e8Q", "e7e8q"),
        ("e8=q", "e7e8q"),
        ("e8=N", "e7e8n"),
        ("e8=R+", "e7e8r"),
        ("exd8=Q+", "e7d8q"),
        ("exd8=Q#", "e7d8q"),
        ("e7e8q", "e7e8q"),
        ("e7e8N", "e7e8n"),
        ("e7e8", "e7e8q"),  # UCI without the piece promotes to a queen
        ("e8", "e7e8q"),
    ],
)
def test_parse_promotions(text, expected):
    assert GAME.parse_action(from_fen(PROMOTION_FEN), text) == expected


def test_promotions_share_their_cells_but_not_their_text():
    state = from_fen(PROMOTION_FEN)
    promotions = [a for a in GAME.legal_actions(state) if a.startswith("e7e8")]
    assert sorted(promotions) == ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    assert {GAME.action_cells(state, a) for a in promotions} == {("e7", "e8")}
    assert GAME.action_cells(state, "e7d8q") == ("e7", "d8")


def test_pawn_capture_and_bishop_capture_are_told_apart_by_case():
    # The pawn on b2 and the bishop on a5 can both take the knight on c3.
    state = from_fen("4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1")
    assert GAME.parse_action(state, "bxc3") == "b2c3"
    assert GAME.parse_action(state, "Bxc3") == "a5c3"
    assert GAME.parse_action(state, "BXC3") == "a5c3"


def test_ambiguous_and_impossible_san_raise_readable_errors():
    state = from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")  # knights b1 and f1 both reach d2
    with pytest.raises(IllegalAction, match="ambiguous"):
        GAME.parse_action(state, "Nd2")
    assert GAME.parse_action(state, "Nbd2") == "b1d2"
    assert GAME.parse_action(state, "Nfd2") == "f1d2"
    with pytest.raises(IllegalAction, match="Legal moves"):
        GAME.parse_action(GAME.initial_state(seed=0), "Qh5")
    with pytest.raises(IllegalAction):
        GAME.parse_action(GAME.initial_state(seed=0), "")


def test_illegal_uci_parses_and_apply_rejects_it():
    state = GAME.initial_state(seed=0)
    assert GAME.parse_action(state, "e2e5") == "e2e5"
    with pytest.raises(IllegalAction, match="not a legal move"):
        GAME.apply(state, "e2e5")


# -- game end -----------------------------------------------------------------------------


def test_fools_mate_is_checkmate_for_black():
    state = play("f3", "e5", "g4", "Qh4#")
    assert GAME.current_player(state) is None
    assert GAME.legal_actions(state) == []
    outcome = GAME.outcome(state)
    assert outcome.reason == "checkmate"
    assert outcome.scores == (0.0, 1.0)
    assert outcome.winner == 1


def test_scholars_mate_is_a_white_win():
    outcome = GAME.outcome(play("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"))
    assert (outcome.reason, outcome.scores) == ("checkmate", (1.0, 0.0))


def test_stalemate():
    state = from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert GAME.outcome(state).reason == "stalemate"
    assert GAME.outcome(state).scores == (0.5, 0.5)
    # One move earlier it is not over yet, and Qf7 is what stalemates.
    before = from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    assert GAME.outcome(before) is None
    assert GAME.outcome(GAME.apply(before, "f1f7")).reason == "stalemate"


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",  # K vs K
        "8/8/8/4k3/8/8/8/3BK3 w - - 0 1",  # K+B vs K
        "8/8/8/4k3/8/8/8/3NK3 b - - 0 1",  # K+N vs K
    ],
)
def test_insufficient_material(fen):
    state = from_fen(fen)
    assert GAME.current_player(state) is None
    assert GAME.outcome(state).reason == "insufficient material"


def test_capturing_the_last_piece_ends_in_insufficient_material():
    state = from_fen("8/8/8/4k3/8/8/4r3/4K3 w - - 0 1")
    assert GAME.outcome(state) is None
    state = GAME.apply(state, "e1e2")
    assert GAME.outcome(state).reason == "insufficient material"


def test_threefold_repetition_by_knight_shuffles_ends_as_soon_as_claimable():
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    state = GAME.initial_state(seed=0)
    for ply, text in enumerate(shuffle, start=1):
        assert GAME.outcome(state) is None, f"over too early, before ply {ply}"
        state = GAME.apply(state, GAME.parse_action(state, text))
    # Black to move could now claim: ...Ng8 would bring the start position back a third time.
    assert GAME.outcome(state).reason == "threefold repetition"
    assert GAME.outcome(state).scores == (0.5, 0.5)
    assert GAME.board(state).can_claim_threefold_repetition()


def test_fifty_move_rule_from_the_fen_halfmove_clock():
    fen = "4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80"
    state = from_fen(fen)
    assert GAME.outcome(state) is None
    quiet = GAME.apply(state, "a1a2")  # halfmove clock 99: Black can make the 100th quiet half-move
    assert GAME.outcome(quiet).reason == "fifty-move rule"
    pawn = GAME.apply(state, "e2e4")  # a pawn move resets the clock
    assert GAME.outcome(pawn) is None
    assert GAME.outcome(from_fen(fen.replace(" 98 ", " 100 "))).reason == "fifty-move rule"


def test_checkmate_beats_the_fifty_move_rule():
    # Mated with the half-move clock at 100: checkmate takes precedence, as in python-chess and FIDE.
    assert GAME.outcome(from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80")).reason == "checkmate"
    # At 99 the side to move can already claim (it announces its 100th quiet half-move): a draw.
    assert GAME.outcome(from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")).reason == "fifty-move rule"


def test_move_cap_is_a_draw_with_its_reason():
    state = play("e4", "e5", "Nf3", max_plies=4)
    assert GAME.outcome(state) is None
    state = GAME.apply(state, GAME.parse_action(state, "Nc6"))
    assert (GAME.outcome(state).reason, GAME.outcome(state).scores) == ("move cap", (0.5, 0.5))
    # The same moves under the default cap are not over: the cap is part of the state.
    assert GAME.outcome(play("e4", "e5", "Nf3", "Nc6")) is None


def test_botzone_chess_has_no_move_cap():
    moves = ["e2e4", "e7e5", "g1f3", "b8c6"]
    capped = GAME.from_json({"seed": 0, "ply": 4, "moves": moves, "max_plies": 4, "draws": "standard"})
    assert GAME.outcome(capped).reason == "move cap"
    botzone = GAME.from_json({"seed": 0, "ply": 4, "moves": moves, "max_plies": 4, "draws": "botzone"})
    assert GAME.outcome(botzone) is None  # Botzone's judge plays on: only mate, stalemate or 50 quiet plies end it
    assert "of at most" not in GAME.observation_text(botzone, 0)
    with pytest.raises(ValueError, match="no move cap"):
        GAME.initial_state(seed=0, max_plies=500, **GAME.variants["botzone"])


def test_black_to_move_fen_makes_black_seat_one_to_act():
    state = from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
    assert GAME.current_player(state) == 1


def test_bad_options_are_rejected():
    with pytest.raises(ValueError, match="FEN"):
        GAME.initial_state(seed=0, fen="not a fen")
    with pytest.raises(ValueError, match="legal"):
        GAME.initial_state(seed=0, fen="8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(ValueError, match="options"):
        GAME.initial_state(seed=0, colour="white")


# -- state, JSON and views ----------------------------------------------------------------


def test_json_round_trip_rebuilds_an_evicted_board():
    state = play("e4", "c5", "Nf3", max_plies=300, fen=chess.STARTING_FEN)
    data = json.loads(json.dumps(GAME.to_json(state)))
    assert data["fen"] == GAME.board(state).fen()
    chess_position._cache.clear()
    restored = GAME.from_json(data)
    assert restored == state
    assert GAME.legal_actions(restored) == [m.uci() for m in GAME.board(state).legal_moves]
    with pytest.raises(ValueError):
        GAME.legal_actions(GAME.from_json({**data, "moves": ["e2e4", "e2e4"], "ply": 2}))


def test_a_state_pickles_and_copies_without_its_position_and_works_it_out_again():
    state = play("e4", "c5", "Nf3")
    assert GAME.current_player(state) == 1  # its position is now attached
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert copied == state
        assert GAME.legal_actions(copied) == GAME.legal_actions(state)
        assert GAME.to_json(copied) == GAME.to_json(state)


def test_observation_has_fen_board_side_and_san_moves():
    text = GAME.observation_text(play("e4", "e5", "Nf3"), 1)
    assert "You play Black. Black to move" in text
    assert "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" in text
    assert "r n b q k b n r" in text
    assert "1. e4 e5 2. Nf3" in text
    assert "UCI" in GAME.rules_text()
    assert "FEN" in GAME.rules_text()


def test_player_view_squares_orientation_last_move_and_check():
    state = play("f3", "e5", "g4", "Qh4#")
    view = GAME.player_view(state, 0)
    assert len(view["squares"]) == 64
    first = view["squares"][0]
    assert (first["name"], first["x"], first["y"], first["piece"]) == ("a8", 0, 0, "r")
    assert view["last_move"] == "d8h4"
    assert view["check_square"] == "e1"
    by_name = {sq["name"]: sq for sq in view["squares"]}
    assert by_name["h4"]["last"]
    assert by_name["d8"]["last"]
    assert not by_name["e1"]["last"]
    assert by_name["e1"]["check"]
    assert by_name["h4"]["label"] == "h4, black queen"
    assert view["san_moves"] == ["f3", "e5", "g4", "Qh4#"]
    black = GAME.player_view(state, 1)
    a8 = next(sq for sq in black["squares"] if sq["name"] == "a8")
    assert (a8["x"], a8["y"]) == (70, 70)  # Black sees its own back rank at the bottom
    assert black["flipped"]
    assert not view["flipped"]


# -- bots ---------------------------------------------------------------------------------


def test_engine_in_use_is_reported():
    in_use = chess_bots.chess_engine_in_use()
    if chess_bots.stockfish_path() is None:
        assert in_use == "pure-python fallback"
    else:
        assert in_use.startswith("stockfish ")


def test_ladder_levels_choose_legal_moves_reproducibly():
    state = play("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6")
    for bot in chess_bots.LADDER:
        first = bot.choose(GAME, state, random.Random(3))
        assert GAME.is_legal(state, first), bot.slug
        assert bot.choose(GAME, state, random.Random(3)) == first, f"{bot.slug} is not deterministic"


def test_engine_without_noise_finds_mate_in_one():
    state = from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert chess_bots._stockfish(1000)(GAME, state, random.Random(0)) == "a1a8"


def test_fallback_without_stockfish_still_plays(monkeypatch):
    monkeypatch.setattr(chess_bots, "_get_engine", lambda: None)
    assert chess_bots.chess_engine_in_use() == "pure-python fallback"
    state = from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert chess_bots._stockfish(1000, fallback_depth=3)(GAME, state, random.Random(0)) == "a1a8"
    for bot in chess_bots.LADDER[3:]:
        assert GAME.is_legal(state, bot.choose(GAME, state, random.Random(1))), bot.slug


def test_search_takes_a_hanging_queen():
    state = from_fen("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    assert chess_bots.search_move(GAME.board(state), 2, chess_bots.material, random.Random(0)) == "d1d5"


def test_top_level_beats_random():
    result = play_series(GAME, chess_bots.LADDER[-1], chess_bots.LADDER[0], games_per_seat=3)
    assert result.wins >= 4
    assert result.losses == 0
