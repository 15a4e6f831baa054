"""Codenames: key card, clue rules, the N+1 guess limit, the assassin and what guessers may see."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction
from games.bots.codenames import LADDER
from games.codenames import Codenames, word_table

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


def test_bots_give_legal_clues_and_lv2_clues_its_own_words():
    state = fixed(seed=4)
    action = LADDER[2].choose(GAME, state, random.Random(0))
    assert action[0] == "clue"
    assert GAME.is_legal(state, action)
    _, category_of = word_table()
    members = [i for i, w in enumerate(state.words) if category_of[w] == action[1]]
    assert state.key[members[0]] == "R"  # the guesser's first pick in that category is red
