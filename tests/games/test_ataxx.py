"""Ataxx: perft against published counts and a plain reference generator, rules edge cases, notation, bots.

OpenSpiel has no `ataxx` (checked with `pyspiel.registered_names()`), so the independent check is
`Reference` below: a direct scan of a list-of-strings board, sharing no code with games.ataxx.
"""

from __future__ import annotations

import random

import pytest

from games import IllegalAction, get_game
from games.ataxx import MAX_PLIES, PASS, Ataxx, AtaxxState, cell_name
from games.bots import ladder
from games.bots.calibration import play_series

game: Ataxx = get_game("ataxx")  # type: ignore[assignment]
OTHER = {"X": "O", "O": "X"}


def position(rows: list[str], ply: int = 0) -> AtaxxState:
    """A hand-built position: seven rows, row 7 first; X moves at even plies."""
    return game.from_json({"seed": 0, "ply": ply, "board": rows, "last": None})


def play(state: AtaxxState, moves: str) -> AtaxxState:
    for text in moves.split():
        state = game.apply(state, game.parse_action(state, text))
    return state


class Reference:
    """Ataxx by direct scanning: grid[r][c] with r = row number - 1, actions in games.ataxx's encoding."""

    @staticmethod
    def grid(state: AtaxxState) -> list[list[str]]:
        return [list(line) for line in reversed(game.rows(state))]

    @staticmethod
    def moves(grid: list[list[str]], me: str) -> set[tuple[int, ...]]:
        found = set()
        for r in range(7):
            for c in range(7):
                if grid[r][c] != me:
                    continue
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        rr, cc = r + dr, c + dc
                        if (dr or dc) and 0 <= rr < 7 and 0 <= cc < 7 and grid[rr][cc] == ".":
                            near = max(abs(dr), abs(dc)) == 1
                            found.add((rr * 7 + cc,) if near else (r * 7 + c, rr * 7 + cc))
        return found

    @staticmethod
    def apply(grid: list[list[str]], me: str, action: tuple[int, ...]) -> list[list[str]]:
        new = [row[:] for row in grid]
        r, c = divmod(action[-1], 7)
        if len(action) == 2:
            fr, fc = divmod(action[0], 7)
            new[fr][fc] = "."
        new[r][c] = me
        for rr in range(max(0, r - 1), min(7, r + 2)):
            for cc in range(max(0, c - 1), min(7, c + 2)):
                if new[rr][cc] == OTHER[me]:
                    new[rr][cc] = me
        return new

    @classmethod
    def over(cls, grid: list[list[str]]) -> bool:
        cells = "".join("".join(row) for row in grid)
        if "X" not in cells or "O" not in cells or "." not in cells:
            return True
        return not cls.moves(grid, "X") and not cls.moves(grid, "O")

    @classmethod
    def perft(cls, grid: list[list[str]], me: str, depth: int) -> int:
        if depth == 0:
            return 1
        if cls.over(grid):
            return 0
        moves = cls.moves(grid, me)
        if not moves:  # forced pass
            return cls.perft(grid, OTHER[me], depth - 1)
        if depth == 1:
            return len(moves)
        return sum(cls.perft(cls.apply(grid, me, m), OTHER[me], depth - 1) for m in moves)


def perft(state: AtaxxState, depth: int) -> int:
    """Positions exactly `depth` plies on (a pass is a ply; a finished game has none beyond it)."""
    if depth == 0:
        return 1
    if game.current_player(state) is None:
        return 0
    if depth == 1:
        return len(game.legal_actions(state))
    return sum(perft(game.apply(state, action), depth - 1) for action in game.legal_actions(state))


# Published counts for the standard start position (libataxx / UAI engines), which also count a
# finished game as having no positions beyond it: the 16 ply-4 wipe-outs below make the difference.
PERFT = [(1, 16), (2, 256), (3, 6460), (4, 155888)]


@pytest.mark.parametrize(("depth", "count"), PERFT)
def test_perft_from_the_start(depth, count):
    assert perft(game.initial_state(seed=0), depth) == count


@pytest.mark.parametrize(("depth", "count"), PERFT)
def test_reference_generator_agrees_on_perft(depth, count):
    grid = Reference.grid(game.initial_state(seed=0))
    assert Reference.perft(grid, "X", depth) == count


@pytest.mark.slow
def test_perft_depth_5():
    assert perft(game.initial_state(seed=0), 5) == 4752668


@pytest.mark.slow
def test_reference_generator_perft_depth_5():
    assert Reference.perft(Reference.grid(game.initial_state(seed=0)), "X", 5) == 4752668


def test_agrees_with_the_reference_generator_over_random_games():
    passes = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.initial_state(seed=seed)
        grid, me = Reference.grid(state), "X"
        while not Reference.over(grid):
            expected = Reference.moves(grid, me)
            actions = game.legal_actions(state)
            assert len(set(actions)) == len(actions)
            assert set(actions) == (expected or {PASS})
            assert all(game.is_legal(state, a) for a in actions)
            action = rng.choice(actions)
            passes += action == PASS
            state = game.apply(state, action)
            grid = Reference.apply(grid, me, action) if action else grid
            me = OTHER[me]
            assert list(reversed(game.rows(state))) == ["".join(row) for row in grid]
        assert game.current_player(state) is None
        assert game.legal_actions(state) == []


def test_start_position():
    state = game.initial_state(seed=0)
    assert game.rows(state) == ["X.....O", *["......."] * 5, "O.....X"]
    assert game.current_player(state) == 0
    texts = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    assert texts[:6] == ["f1", "f2", "g2", "a6", "b6", "b7"]  # clones by destination index
    assert len(texts) == 16
    assert "g1e3" in texts
    assert "a7c5" in texts


def test_clone_converts_every_adjacent_opponent_piece():
    state = position(["OO.....", "X.O....", "O.O....", "......O", ".......", ".......", "......X"])
    after = game.apply(state, game.parse_action(state, "b6"))
    assert game.rows(after) == ["XX.....", "XXX....", "X.X....", "......O", ".......", ".......", "......X"]
    assert (after.x.bit_count(), after.o.bit_count()) == (8, 1)
    assert after.last == (5 * 7 + 1,)
    assert game.current_player(after) == 1


def test_jump_empties_its_source_and_converts():
    state = position(["X.....O", ".......", ".O.O...", "..O....", ".......", ".......", "......."])
    after = game.apply(state, game.parse_action(state, "a7c5"))
    assert game.rows(after)[:4] == ["......O", ".......", ".XXX...", "..X...."]
    assert after.last == (6 * 7, 4 * 7 + 2)
    with pytest.raises(IllegalAction, match="3 cells"):
        game.parse_action(state, "a7d4")
    with pytest.raises(IllegalAction, match="not a legal move"):  # two cells away, but onto b5's piece
        game.apply(state, (6 * 7, 4 * 7 + 1))


def test_wipe_out_ends_the_game_at_ply_four():
    state = play(game.initial_state(seed=0), "g1e3 b2 a7c5 b2d4")
    assert state.x == 0
    assert game.current_player(state) is None
    assert game.outcome(state).scores == (0.0, 1.0)
    assert game.outcome(state).reason == "X has no pieces left; 5–0"


def test_forced_pass_is_the_only_action():
    # X on a1 is boxed in: every cell within two steps is taken. O can still clone into g7.
    rows = ["OOOOOO.", *["OOOOOOO"] * 3, "OOOOOOO", "OOOOOOO", "XOOOOOO"]
    state = position(rows, ply=0)
    assert game.current_player(state) == 0
    assert game.legal_actions(state) == [PASS]
    assert game.action_to_text(state, PASS) == "pass"
    assert game.action_cells(state, PASS) == ("pass",)
    assert "must pass" in game.observation_text(state, 0)
    passed = game.apply(state, game.parse_action(state, "pass"))
    assert passed.ply == 1
    assert game.current_player(passed) == 1
    assert game.legal_actions(passed) == [(48,), (32, 48), (33, 48), (34, 48), (39, 48), (46, 48)]
    final = game.apply(passed, (48,))
    assert game.outcome(final).scores == (0.0, 1.0)
    assert game.outcome(final).reason == "board full; 48–1"


def test_pass_is_illegal_while_a_move_exists():
    state = game.initial_state(seed=0)
    with pytest.raises(IllegalAction, match="'pass' is not a legal move"):
        game.apply(state, PASS)


def test_full_board_is_scored_by_piece_count():
    state = position(["XXXXXXX"] * 4 + ["OOOOOOO"] * 3, ply=77)
    assert game.current_player(state) is None
    assert game.outcome(state).scores == (1.0, 0.0)
    assert game.outcome(state).reason == "board full; 28–21"


def test_four_hundred_plies_is_a_draw():
    rows = ["X.....O", *["......."] * 5, "OO....X"]
    assert game.current_player(position(rows, ply=MAX_PLIES - 1)) == 1
    state = position(rows, ply=MAX_PLIES)
    assert game.current_player(state) is None
    assert game.outcome(state).scores == (0.5, 0.5)
    assert game.outcome(state).reason == "400-ply limit reached; 2–3"
    assert "400 plies" in game.rules_text()


def test_botzone_ataxx_counts_the_pieces_after_move_401():
    rows = ["X....OO", *["......."] * 4, ".X.....", "OO....X"]
    at_400 = game.from_json({"seed": 0, "ply": MAX_PLIES, "board": rows, "last": None, "end": "botzone"})
    assert game.current_player(at_400) == 0  # Botzone's judge plays move 401
    state = game.apply(at_400, game.parse_action(at_400, "b7"))  # X clones beside its a7: 4–4
    assert game.outcome(state).scores == (0.5, 0.5)
    state = game.apply(at_400, game.parse_action(at_400, "a2"))  # X clones to a2 and takes a1 and b1: 6–2
    assert game.current_player(state) is None
    assert game.outcome(state).scores == (1.0, 0.0)
    assert game.outcome(state).reason == "move 401 played (Botzone's limit: more pieces win); 6–2"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("b6", (36,)),
        ("B6", (36,)),
        (" b 6 ", (36,)),
        ("a7b6", (36,)),  # a clone written from-to, from the mover's a7
        ("a7-b6", (36,)),
        ("a7c5", (42, 30)),
        ("A7C5", (42, 30)),
        ("a7-c5", (42, 30)),
        ("a7 c5", (42, 30)),
        ("a7->c5", (42, 30)),
        ("'a7c5'.", (42, 30)),
        ("pass", PASS),
        ("PASS", PASS),
    ],
)
def test_parse_tolerant_forms(text, expected):
    assert game.parse_action(game.initial_state(seed=0), text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("b2c3", "b2 is not your piece"),
        ("a7d4", "3 cells"),
        ("a7a7", "0 cells"),
        ("h1", "Could not read"),
        ("a8", "Could not read"),
        ("", "Could not read"),
        ("jump", "Could not read"),
    ],
)
def test_parse_rejects_with_a_hint(text, message):
    with pytest.raises(IllegalAction, match=message):
        game.parse_action(game.initial_state(seed=0), text)


def test_notation_and_cells_round_trip():
    state = game.initial_state(seed=0)
    assert [cell_name(i) for i in (0, 6, 42, 48)] == ["a1", "g1", "a7", "g7"]
    for action in game.legal_actions(state):
        text = game.action_to_text(state, action)
        assert game.parse_action(state, text) == action
        assert "".join(game.action_cells(state, action)) == text
    with pytest.raises(IllegalAction):
        game.action_to_text(state, (1, 2, 3))


def test_no_action_cells_are_a_prefix_of_another_actions_cells():
    """The play page matches clicks by prefix: every action must stay reachable."""
    rng = random.Random(3)
    state = game.initial_state(seed=3)
    checked = 0
    while game.current_player(state) is not None:
        cells = [game.action_cells(state, a) for a in game.legal_actions(state)]
        assert len(set(cells)) == len(cells)
        firsts = {c[0] for c in cells if len(c) == 2}
        assert not any(len(c) == 1 and c[0] in firsts for c in cells)
        checked += len(cells)
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert checked > 1000


def test_apply_rejects_malformed_actions():
    state = game.initial_state(seed=0)
    for bad in ((49,), (-1,), (42, 30, 18), [42, 30], 30, "a7c5", (42.0, 30), (6, 5)):
        with pytest.raises(IllegalAction):
            game.apply(state, bad)


def test_player_view_marks_clone_targets_and_last_move():
    state = play(game.initial_state(seed=0), "a7c5")
    view = game.player_view(state, 1)
    by_name = {cell["name"]: cell for cell in view["cells"]}
    assert by_name["c5"]["piece"] == "x"
    assert by_name["a7"]["last"]
    assert by_name["c5"]["last"]
    assert view["last_cells"] == ["a7", "c5"]
    assert {n for n, c in by_name.items() if c["clone"]} == {"a2", "b2", "b1", "f7", "f6", "g6"}
    assert view["to_move"] == 1
    assert view["counts"] == [2, 2]
    assert (by_name["a7"]["x"], by_name["a7"]["y"]) == (0, 0)  # row 7 drawn at the top


def test_observation_text():
    state = play(game.initial_state(seed=0), "a7c5")
    text = game.observation_text(state, 1)
    assert "You play O. Move 2. Pieces: X 2, O 2. X's last move: a7c5." in text
    assert "5 . . X . . . ." in text
    assert "Clone destinations: b1, a2, b2, f6, g6, f7." in text


def test_top_bot_beats_random():
    bots = ladder("ataxx")
    result = play_series(game, bots[-1], bots[0], games_per_seat=3)
    assert result.wins == 6


def test_search_bot_beats_greedy():
    bots = ladder("ataxx")
    greedy = next(b for b in bots if b.description.startswith("greedy:"))
    result = play_series(game, bots[-1], greedy, games_per_seat=3)
    assert result.wins > result.losses + 2
