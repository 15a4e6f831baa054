"""Codenames: key card, clue rules, the N+1 guess limit, the assassin and what guessers may see."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction
from games.bots.calibration import play_series
from games.bots.codenames import LADDER, guess_order
from games.codenames import Codenames, categories, word_table

GAME = Codenames()
# Card 0–8 red, 9–16 blue, 17–23 neutral, 24 the assassin; red starts.
KEY = "R" * 9 + "B" * 8 + "N" * 7 + "A"


def fixed(seed: int = 0):
    return replace(GAME.initial_state(seed=seed), key=KEY, team=0)


def play(state, *texts):
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


@pytest.mark.parametrize("seed", range(20))
def test_key_card_counts(seed):
    state = GAME.initial_state(seed=seed)
    starting = "R" if state.team == 0 else "B"
    other = "B" if starting == "R" else "R"
    assert len(set(state.words)) == 25
    assert set(state.words) <= set(word_table()[0])
    assert (state.key.count(starting), state.key.count(other), state.key.count("N"), state.key.count("A")) == (
        9,
        8,
        7,
        1,
    )
    assert GAME.current_player(state) == 2 * state.team  # the starting team's spymaster


def test_word_list_is_a_few_hundred_nouns():
    words, category_of = word_table()
    assert 250 <= len(words) == len(set(words))
    assert not set(category_of.values()) & set(words)  # every category is always a legal clue


def test_clue_validation():
    state = fixed()
    board_word = state.words[3]
    for text, message in [
        (f"clue {board_word} 2", "board word"),
        (f"clue {board_word}s 2", "board word"),
        ("clue animal 0", "from 1 to 9"),
        ("clue animal 10", "from 1 to 9"),
        ("clue an1mal 2", "one word"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            GAME.apply(state, GAME.parse_action(state, text))
    with pytest.raises(IllegalAction):
        GAME.parse_action(state, "clue two words 2")
    after = play(state, "clue animal 2")
    assert GAME.current_player(after) == 1
    assert after.clue == "animal"
    assert GAME.guesses_left(after) == 3


def test_at_most_n_plus_one_guesses_then_the_turn_passes():
    state = play(fixed(), "clue zzz 1")
    state = play(state, f"guess {state.words[0]}")
    assert GAME.current_player(state) == 1
    assert GAME.guesses_left(state) == 1
    state = play(state, f"guess {state.words[1]}")  # the bonus guess, also red
    assert GAME.current_player(state) == 2  # blue spymaster: two guesses used up
    assert GAME.remaining(state, 0) == 7


def test_wrong_colours_end_the_turn_and_count_for_the_opponent():
    state = play(fixed(), "clue zzz 3", "guess " + fixed().words[9])  # blue's word
    assert GAME.current_player(state) == 2
    assert GAME.remaining(state, 1) == 7
    state = play(state, "clue zzz 2", "guess " + state.words[17])  # neutral
    assert GAME.current_player(state) == 0


def test_pass_needs_one_guess_first():
    state = play(fixed(), "clue zzz 2")
    with pytest.raises(IllegalAction, match="at least one guess"):
        GAME.apply(state, ("pass",))
    state = play(state, "guess " + state.words[0], "pass")
    assert GAME.current_player(state) == 2


def test_assassin_loses_for_the_guessing_team():
    state = play(fixed(), "clue zzz 2", "guess " + fixed().words[24])
    outcome = GAME.outcome(state)
    assert outcome.scores == (0.0, 0.0, 1.0, 1.0)
    assert "assassin" in outcome.reason
    assert GAME.current_player(state) is None


def test_finding_all_words_wins():
    state = replace(fixed(), revealed="x" * 8 + "." * 17)
    state = play(state, "clue zzz 1", "guess " + state.words[8])
    assert GAME.outcome(state).scores == (1.0, 1.0, 0.0, 0.0)


def test_guessers_never_see_covered_colours():
    state = play(fixed(), "clue zzz 1", "guess " + fixed().words[0])
    for seat in (1, 3, None):
        view = GAME.player_view(state, seat)
        assert "seed" not in view
        assert "key" not in view
        assert [c["colour"] for c in view["cards"] if not c["revealed"]] == [""] * 24
        assert view["cards"][0]["colour"] == "red"
        text = GAME.observation_text(state, seat) if seat is not None else ""
        assert "key red" not in text
        assert "key blue" not in text
        assert "assassin]" not in text
    spymaster = GAME.player_view(state, 2)
    assert [c["colour"] for c in spymaster["cards"]][23:] == ["neutral", "assassin"]
    assert GAME.full_view(state)["cards"][24]["colour"] == "assassin"


# A hand-made board for the bots (red to play). In board order: animal lion B, tiger R; bird eagle R, owl N;
# fish shark R, salmon R, trout B; fruit apple R, banana R, cherry R; then one word each of other categories.
BOARD = (
    ("lion", "B"), ("tiger", "R"), ("eagle", "R"), ("owl", "N"), ("shark", "R"),
    ("salmon", "R"), ("trout", "B"), ("apple", "R"), ("banana", "R"), ("cherry", "R"),
    ("carrot", "B"), ("coffee", "B"), ("hand", "N"), ("shirt", "N"), ("chair", "A"),
    ("knife", "B"), ("hammer", "N"), ("car", "B"), ("rain", "N"), ("soccer", "B"),
    ("piano", "N"), ("doctor", "R"), ("house", "R"), ("mountain", "N"), ("star", "B"),
)  # fmt: skip
BOARD_WORDS = tuple(word for word, _ in BOARD)


def board(key: str | None = None, revealed: str = "." * 25):
    key = key or "".join(colour for _, colour in BOARD)
    return replace(GAME.initial_state(seed=0), words=BOARD_WORDS, key=key, revealed=revealed, team=0)


def bot_turn(level: int, state):
    """The clue of `level`'s spymaster, then its guesser's actions until the turn passes."""
    bot, guesser = LADDER[level], 2 * state.team + 1
    clue = bot.choose(GAME, state, random.Random(0))
    state = GAME.apply(state, clue)
    actions = []
    while GAME.current_player(state) == guesser:
        action = bot.choose(GAME, state, random.Random(0))
        actions.append(action)
        state = GAME.apply(state, action)
    return clue, actions, state


def test_hand_made_board_is_a_valid_key_card():
    key = board().key
    assert (key.count("R"), key.count("B"), key.count("N"), key.count("A")) == (9, 8, 7, 1)
    assert set(BOARD_WORDS) <= set(word_table()[0])


@pytest.mark.parametrize(
    ("level", "clue"),
    [
        (1, ("clue", "fruit", 1)),  # most red words in a category (three fruit)
        (2, ("clue", "bird", 1)),  # one safe word a turn: the first category led by a red word
        (3, ("clue", "fruit", 3)),  # the longest board-order run of red words: apple, banana, cherry
        (4, ("clue", "fruit", 3)),  # no letter clue beats a category run of 3
        (5, ("clue", "fruit", 3)),
        (6, ("clue", "shelf", 6)),  # a letter clue whose six best shared-letter words are all red
    ],
)
def test_each_level_picks_its_clue_on_a_hand_made_board(level, clue):
    state = board()
    assert LADDER[level].choose(GAME, state, random.Random(0)) == clue
    assert GAME.is_legal(state, clue)


@pytest.mark.parametrize(
    ("level", "clue", "found"),
    [
        (2, ("clue", "bird", 1), ["eagle"]),
        (3, ("clue", "bird", 1), ["eagle"]),  # no category runs longer than 1 now
        # Letter clues: ball shares a, l (2) with eagle and salmon, at most 1 with the rest; Lv4 may use it
        # for 2 words as a category's first word. Lv5 takes the first such word of the whole list: camel
        # (3 letters with eagle, salmon, hammer: ties go in board order, and hammer, neutral, comes third).
        (4, ("clue", "ball", 2), ["eagle", "salmon"]),
        (5, ("clue", "camel", 2), ["eagle", "salmon"]),
        (6, ("clue", "shelf", 4), ["house", "eagle", "salmon", "cherry"]),  # house 3 letters; eagle, salmon, cherry 2
    ],
)
def test_letter_runs_once_category_runs_are_short(level, clue, found):
    revealed = "".join("x" if word in ("shark", "apple", "banana") else "." for word in BOARD_WORDS)
    played, actions, _ = bot_turn(level, board(revealed=revealed))
    assert played == clue
    assert actions == [*(("guess", BOARD_WORDS.index(word)) for word in found), ("pass",)]


@pytest.mark.parametrize("level", [2, 3, 4, 5, 6])
def test_careful_guessers_find_exactly_the_clued_run_of_own_words(level):
    clue, actions, after = bot_turn(level, board())
    guessed = [action[1] for action in actions if action[0] == "guess"]
    assert len(guessed) == clue[2]
    assert {board().key[i] for i in guessed} == {"R"}
    assert actions[-1] == ("pass",)  # no gamble on the bonus guess
    assert GAME.current_player(after) == 2  # blue's turn


def test_lv1_guesser_goes_on_through_the_category_with_the_bonus_guess():
    clue, actions, _ = bot_turn(1, board())
    assert clue == ("clue", "fruit", 1)
    assert actions == [("guess", BOARD_WORDS.index("apple")), ("guess", BOARD_WORDS.index("banana"))]


def test_without_a_category_run_lv2_gives_a_letter_clue_from_the_word_list():
    # Only cherry is left to red, behind a neutral apple in its category: no category clue reaches it.
    key = list(board().key)
    key[BOARD_WORDS.index("apple")], key[BOARD_WORDS.index("owl")] = "N", "R"
    key = "".join(key)
    revealed = "".join(
        "." if word == "cherry" or colour != "R" else "x" for word, colour in zip(BOARD_WORDS, key, strict=True)
    )
    state = board(key, revealed)
    # "herring" shares h, e, r with cherry and with shirt; cherry comes first on the board.
    assert guess_order(state, "herring")[:2] == [BOARD_WORDS.index("cherry"), BOARD_WORDS.index("shirt")]
    clue, actions, after = bot_turn(2, state)
    assert clue == ("clue", "herring", 1)
    assert "herring" not in categories()
    assert actions == [("guess", BOARD_WORDS.index("cherry"))]
    assert GAME.outcome(after).scores == (1.0, 1.0, 0.0, 0.0)
    # Lv1 clues the category and its guesser walks into the neutral apple.
    clue, actions, after = bot_turn(1, state)
    assert clue == ("clue", "fruit", 1)
    assert actions == [("guess", BOARD_WORDS.index("apple"))]
    assert GAME.outcome(after) is None


def hide_covered_key(state):
    """The state with the covered cards' colours shuffled among themselves: what a guesser cannot know."""
    covered = [i for i, mark in enumerate(state.revealed) if mark == "."]
    colours = [state.key[i] for i in covered]
    random.Random(state.ply).shuffle(colours)
    key = list(state.key)
    for index, colour in zip(covered, colours, strict=True):
        key[index] = colour
    return replace(state, key="".join(key))


@pytest.mark.parametrize("level", range(1, len(LADDER)))
def test_guessers_never_read_covered_colours(level):
    bot, checked, spymaster_used_key = LADDER[level], 0, False
    for seed in range(6):
        state = GAME.initial_state(seed=seed)
        while GAME.current_player(state) is not None:
            action = bot.choose(GAME, state, random.Random(seed))
            other = bot.choose(GAME, hide_covered_key(state), random.Random(seed))
            if state.clue:
                assert other == action  # guessers: same decision whatever the covered colours are
                checked += 1
            else:
                spymaster_used_key |= other != action
            state = GAME.apply(state, action)
    assert checked > 20
    assert spymaster_used_key  # the check has teeth: spymasters do read the key


@pytest.mark.parametrize("level", range(1, len(LADDER)))
def test_bots_are_deterministic_given_seed_and_rng(level):
    def game_log(seed):
        state = GAME.initial_state(seed=seed)
        rngs = [random.Random(seed * 10 + seat) for seat in range(4)]
        while (seat := GAME.current_player(state)) is not None:
            state = GAME.apply(state, LADDER[level].choose(GAME, state, rngs[seat]))
        return state.log

    assert game_log(3) == game_log(3)


@pytest.mark.parametrize("level", range(2, len(LADDER)))
def test_careful_levels_never_reveal_the_assassin(level):
    for seed in range(10):
        state = GAME.initial_state(seed=seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, LADDER[level].choose(GAME, state, random.Random(seed)))
        assert "assassin" not in state.reason


def test_bots_give_legal_clues_that_start_on_their_own_words():
    state = fixed(seed=4)
    for bot in LADDER[2:]:
        action = bot.choose(GAME, state, random.Random(0))
        assert action[0] == "clue"
        assert GAME.is_legal(state, action)
        assert state.key[guess_order(state, action[1])[0]] == "R"  # the guesser's first pick is red


@pytest.mark.parametrize("level", range(2, len(LADDER)))
def test_each_level_beats_the_one_below_more_often_than_not(level):
    result = play_series(GAME, LADDER[level], LADDER[level - 1], games_per_seat=10, first_seed=500)
    assert result.wins > result.losses
