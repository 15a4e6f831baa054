"""Chess move generation (bulletchess in python-chess's order) and the special rules, against known values and
against python-chess itself."""

from __future__ import annotations

import random

import bulletchess as bc
import chess
import pytest

from games.chess_game import Chess
from games.chess_game.moves import identity, legal_moves

GAME = Chess()


def from_fen(fen: str):
    return GAME.initial_state(seed=0, fen=fen)


def play(state, *moves: str):
    for text in moves:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


# -- perft ------------------------------------------------------------------------------------

# Leaf counts from chessprogramming.org's "Perft Results" page: the start position, "Kiwipete" (castling,
# en passant, promotions, pins), position 3 (en passant pins along the rank), 4 (promotions, castling rights
# lost to captures) and 5.
PERFT = [
    (chess.STARTING_FEN, 5, 4_865_609),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4_085_603),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422_333),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2_103_487),
]


def perft(board: bc.Board, depth: int) -> int:
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.apply(move)
        total += perft(board, depth - 1)
        board.undo()
    return total


@pytest.mark.parametrize(("fen", "depth", "leaves"), PERFT)
def test_perft_of_our_legal_move_list_equals_the_published_counts(fen, depth, leaves):
    assert perft(bc.Board.from_fen(fen), depth) == leaves


def test_legal_actions_through_the_game_contract_count_the_start_position_perft_3():
    start = GAME.initial_state(seed=0)
    after_one = [GAME.apply(start, a) for a in GAME.legal_actions(start)]
    after_two = [GAME.apply(state, a) for state in after_one for a in GAME.legal_actions(state)]
    assert len(after_two) == 400
    assert sum(len(GAME.legal_actions(state)) for state in after_two) == 8_902


# -- against python-chess -------------------------------------------------------------------


@pytest.mark.slow
def test_moves_order_fen_and_verdicts_are_python_chess_own_over_seeded_random_games():
    """Every position of 40 seeded random games (about 12,000): the same legal moves in the same order as
    `generate_legal_moves` (the order seeded random play draws from), the same FEN (en passant square only when
    a capture there is legal) and the same insufficient-material verdict."""
    positions = endings = 0
    for seed in range(40):
        rng, board = random.Random(seed), chess.Board()
        while True:
            ours = bc.Board.from_fen(board.fen(en_passant="fen"))  # every en passant square, legal or not
            expected = list(board.generate_legal_moves())
            assert [move.uci() for move in legal_moves(ours)] == [move.uci() for move in expected], board.fen()
            assert ours.fen() == board.fen()
            assert (ours in bc.INSUFFICIENT_MATERIAL) == board.is_insufficient_material(), board.fen()
            positions += 1
            endings += chess.popcount(board.occupied) <= 5
            if not expected or board.halfmove_clock >= 100 or board.ply() >= 400:
                break
            board.push(rng.choice(expected))
    assert positions > 10_000
    assert endings > 1_000


@pytest.mark.slow
def test_game_results_are_python_chess_outcome_with_claimed_draws_ply_by_ply():
    reasons = {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
        chess.Termination.FIFTY_MOVES: "fifty-move rule",
        chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
    }
    seen = set()
    for seed in range(30):
        rng, board = random.Random(seed), chess.Board()
        state = GAME.initial_state(seed=seed, max_plies=10_000)
        while True:
            expected = board.outcome(claim_draw=True)
            outcome = GAME.outcome(state)
            assert (outcome and outcome.reason) == (expected and reasons[expected.termination]), board.fen()
            if outcome is not None:
                assert outcome.winner == (None if expected.winner is None else int(not expected.winner))
                seen.add(outcome.reason)
                break
            action = GAME.random_action(state, rng)
            state = GAME.apply(state, action)
            board.push_uci(action)
    assert seen == set(reasons.values())  # every ending came up


@pytest.mark.parametrize(
    ("fen", "insufficient"),
    [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", True),  # K v K
        ("8/8/8/4k3/8/8/8/2NNK3 w - - 0 1", False),  # K+N+N v K: python-chess calls it sufficient
        ("6k1/8/8/8/8/8/8/B1B1K3 w - - 0 1", True),  # K+B+B on one colour v K
        ("6k1/8/8/8/8/8/8/BB2K3 w - - 0 1", False),  # bishops on both colours
        ("8/8/8/4kb2/8/8/8/4KB2 w - - 0 1", True),  # K+B v K+B, same colour
        ("8/8/8/4k1b1/8/8/8/4KB2 w - - 0 1", False),  # K+B v K+B, other colours
        ("8/8/8/4kn2/8/8/8/4KN2 w - - 0 1", False),  # K+N v K+N
        ("8/8/8/4kq2/8/8/8/4KN2 w - - 0 1", False),  # K+N v K+Q: the queen can still mate
    ],
)
def test_insufficient_material_endings_as_python_chess_decides(fen, insufficient):
    assert chess.Board(fen).is_insufficient_material() is insufficient
    outcome = GAME.outcome(from_fen(fen))
    assert (outcome is not None and outcome.reason == "insufficient material") is insufficient


# -- special rules --------------------------------------------------------------------------


def test_en_passant_is_legal_unless_it_exposes_the_king_along_the_rank():
    # After ...d7d5 the pawn on e5 may take en passant; with a rook on h5 and the king on a5, taking
    # would empty the fifth rank between them.
    open_file = play(from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d7d5")
    assert "e5d6" in GAME.legal_actions(open_file)
    assert GAME.to_json(open_file)["fen"].split()[3] == "d6"
    pinned = play(from_fen("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1"), "d7d5")
    assert "e5d6" not in GAME.legal_actions(pinned)
    assert GAME.to_json(pinned)["fen"].split()[3] == "-"  # no legal capture there: no en passant square


def test_en_passant_capture_removes_the_passed_pawn():
    state = play(from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d7d5", "e5d6")
    assert GAME.to_json(state)["fen"].startswith("4k3/8/3P4/8/8/8/8/4K3 b")


@pytest.mark.parametrize(
    ("attacker", "legal"),
    [
        ("", {"e1g1", "e1c1"}),
        ("5r2", {"e1c1"}),  # f1 attacked: the king may not pass it
        ("6r1", {"e1c1"}),  # g1 attacked: nor land on it
        ("3r4", {"e1g1"}),  # d1 attacked
        ("1r6", {"e1g1", "e1c1"}),  # only b1 attacked: the rook passes it, the king does not
        ("4r3", set()),  # in check: no castling
    ],
)
def test_castling_neither_out_of_nor_through_nor_into_check(attacker, legal):
    rank_3 = attacker or "8"
    state = from_fen(f"r3k2r/8/8/8/8/{rank_3}/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} & set(GAME.legal_actions(state)) == legal


def test_castling_rights_lapse_when_king_or_rook_moves_or_the_rook_is_taken():
    start = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert GAME.to_json(play(start, "h1h2"))["fen"].split()[2] == "Qkq"
    assert GAME.to_json(play(start, "e1f1"))["fen"].split()[2] == "kq"
    assert GAME.to_json(play(start, "a1a8"))["fen"].split()[2] == "Kk"


def test_promotions_in_python_chess_order_queen_rook_bishop_knight():
    state = from_fen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1")
    pawn_moves = [action for action in GAME.legal_actions(state) if action.startswith("a7")]
    assert pawn_moves == ["a7b8q", "a7b8r", "a7b8b", "a7b8n", "a7a8q", "a7a8r", "a7a8b", "a7a8n"]
    assert GAME.to_json(GAME.apply(state, "a7b8n"))["fen"].startswith("1N5k/8/")


def test_in_check_the_kings_moves_come_first():
    in_check = from_fen("k7/8/8/8/8/4N3/8/r3K3 w - - 0 1")  # the rook on a1 checks; the knight can block on d1
    assert GAME.legal_actions(in_check) == ["e1f2", "e1e2", "e1d2", "e3d1"]
    quiet = from_fen("k7/8/8/8/8/4N3/P7/4K3 w - - 0 1")  # no check: the knight (higher square) moves first
    assert GAME.legal_actions(quiet) == [
        *("e3f5", "e3d5", "e3g4", "e3c4", "e3g2", "e3c2", "e3f1", "e3d1"),
        *("e1f2", "e1e2", "e1d2", "e1f1", "e1d1", "a2a3", "a2a4"),
    ]


THREEFOLD_SHUFFLE = ("Kd8", "Nf3", "Ke8", "Ng1", "Kd8", "Nf3", "Ke8")


def test_threefold_counts_a_position_after_a_double_push_as_itself_when_no_en_passant_is_legal():
    # After e2e4 Black may not take en passant (no black pawn beside e4): the position is the same as the one
    # the knight and king shuffles bring back, so Ng1 would repeat it a third time.
    state = play(from_fen("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1"), "e2e4", *THREEFOLD_SHUFFLE)
    assert GAME.outcome(state).reason == "threefold repetition"
    assert GAME.board(state).can_claim_threefold_repetition()


def test_threefold_tells_a_position_with_a_legal_en_passant_capture_from_the_same_placement_without():
    # The pawn on d4 may take e4 en passant right after e2e4, so that position differs from the later ones.
    start = from_fen("4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1")
    state = play(start, "e2e4", *THREEFOLD_SHUFFLE)
    assert GAME.outcome(state) is None
    assert not GAME.board(state).can_claim_threefold_repetition()
    state = play(state, "Ng1")  # its second time without en passant; Kd8 would bring the next one a third time
    assert GAME.outcome(state).reason == "threefold repetition"
    assert GAME.board(state).can_claim_threefold_repetition()


def test_a_position_identity_leaves_out_the_clocks_only():
    board = bc.Board.from_fen("4k3/8/8/8/8/8/4P3/4K1N1 w - - 17 40")
    assert identity(board.fen()) == "4k3/8/8/8/8/8/4P3/4K1N1 w - -"


def test_fifty_move_rule_is_not_claimed_with_only_zeroing_moves_left():
    # Clock 99, but White's king is boxed in (b1 by the knight, b2 by the pawn on c3): only pawn moves remain.
    state = from_fen("7k/8/8/8/8/1pp5/P2n4/K7 w - - 99 80")
    assert GAME.legal_actions(state) == ["a2b3", "a2a3", "a2a4"]
    assert GAME.outcome(state) is None
    assert not GAME.board(state).can_claim_fifty_moves()
