"""Codenames ladder: random, a naive category matcher, then spymasters whose clues are ever more productive.

The bots are embedding-free. Every bot guesser follows one public convention that uses only the board,
the clue and the shipped word list (games/data/codenames_words.txt): for a clue that is a category name
of that list, it takes the category's covered board words in board order; for any other clue (a letter
clue, an LLM's or a person's clue, or a category with no covered word left) it takes the covered words
sharing the most letters with the clue (a shared first three letters counts 3 more), ties in board order.
Spymasters read the key from the state, as their seat may, and choose the clue whose guesses, simulated
with that same convention, run longest through their own words; guessers never read the key of a covered
card (tests check that hiding it changes nothing).

The levels differ in how far a clue may run and which words they use as letter clues: Lv2 clues one word
a turn, Lv3 a whole category run, Lv4 also two-word letter runs from a small vocabulary (the first word
of each category), Lv5 two-word runs from the whole list, Lv6 runs of any length.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache

from games.bots.base import Bot, random_chooser
from games.codenames import MAX_NUMBER, NEUTRAL, Codenames, CodenamesState, categories, team_colour, word_table


def covered_members(state: CodenamesState, category: str) -> list[int]:
    """The covered board words of `category`, in board order."""
    _, category_of = word_table()
    return [i for i, w in enumerate(state.words) if state.revealed[i] == "." and category_of.get(w) == category]


def shared_letters(a: str, b: str) -> int:
    return len(set(a) & set(b)) + (3 if a[:3] == b[:3] else 0)


@lru_cache(maxsize=16)
def _board_scores(words: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Shared-letter scores of every category name and listed word against each board word (once per board)."""
    return {clue: tuple(shared_letters(clue, word) for word in words) for clue in (*categories(), *word_table()[0])}


def _letter_scores(words: tuple[str, ...], clue: str) -> tuple[int, ...]:
    scores = _board_scores(words).get(clue)
    return scores if scores is not None else tuple(shared_letters(clue, word) for word in words)


def guess_order(state: CodenamesState, clue: str) -> list[int]:
    """The covered cards in the order the bot guessers take them for `clue` (public information only)."""
    members = covered_members(state, clue)
    if members:
        return members
    scores = _letter_scores(state.words, clue)
    covered = [i for i, r in enumerate(state.revealed) if r == "."]
    return sorted(covered, key=lambda i: (-scores[i], i))


def clue_run(state: CodenamesState, clue: str) -> int:
    """How many of the team's words the guesser finds for `clue` before its first other word (spymaster only)."""
    own, run = team_colour(state.team), 0
    for index in guess_order(state, clue):
        if state.key[index] != own:
            break
        run += 1
    return run


@cache
def _first_words() -> frozenset[str]:
    """Each category's first word in the list: the small letter-clue vocabulary of Lv4."""
    words, category_of = word_table()
    return frozenset(w for i, w in enumerate(words) if i == 0 or category_of[words[i - 1]] != category_of[w])


@lru_cache(maxsize=16)
def _candidates(game: Codenames, words: tuple[str, ...]) -> tuple[str, ...]:
    """Clue candidates on a board: the category names, then the legal words of the word list (once per board)."""
    board = CodenamesState(0, 0, words, "", "." * len(words), 0, "", 0, 0, (), -1, "")
    return (*categories(), *(w for w in word_table()[0] if not game.clue_problem(board, w, 1)))


def _spymaster(category_cap: int, letter_cap: int, small_vocabulary: bool = False):
    def choose(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
        """The candidate clue with the longest run of own words (capped; the first candidate on ties, so
        categories before letter clues), for that many. With no run: a clue whose first guess is a neutral
        word (a harmless miss), else one giving the opponent a word; the assassin only if nothing else is left.
        Small vocabulary: letter clues for more than one word only from each category's first word."""
        del rng  # deterministic
        known = set(categories())
        best, best_run, fallback = None, 0, None
        for clue in _candidates(game, state.words):
            if clue not in known:
                cap = 1 if small_vocabulary and clue not in _first_words() else letter_cap
            else:  # a category with no covered word left is guessed by letters, for one guess only
                cap = category_cap if covered_members(state, clue) else 1
            run = min(clue_run(state, clue), cap, MAX_NUMBER)
            if run > best_run:
                best, best_run = clue, run
            elif not best_run:
                first = state.key[guess_order(state, clue)[0]]
                rank = 0 if first == NEUTRAL else 1 if first == team_colour(1 - state.team) else 2
                if fallback is None or rank < fallback[0]:
                    fallback = (rank, clue)
        return ("clue", best, best_run) if best else ("clue", fallback[1], 1)

    return choose


def _lv1_spymaster(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
    """The category naming most own covered words (wherever they lie in it), always for 1."""
    own = team_colour(state.team)
    best, best_n = None, 0
    for category in categories():
        n = sum(1 for i in covered_members(state, category) if state.key[i] == own)
        if n > best_n:
            best, best_n = category, n
    if best is None:
        return game.random_action(state, rng)
    return ("clue", best, 1)


def _guesser(careful: bool):
    def choose(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
        """The next card in `guess_order`. Careful: stop after the number. Naive (Lv1): on a category clue,
        go on through the category's words while guesses are left (the bonus guess included)."""
        del rng  # deterministic
        if state.guesses >= 1:
            is_category = state.clue in categories()
            if is_category and not covered_members(state, state.clue):
                return ("pass",)  # a category clue never leads on to letter guesses
            if state.guesses >= state.number and (careful or not is_category):
                return ("pass",)
        return ("guess", guess_order(state, state.clue)[0])

    return choose


def _team_bot(spymaster, guesser):
    def choose(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
        return guesser(game, state, rng) if state.clue else spymaster(game, state, rng)

    return choose


_CAREFUL = _guesser(True)

LADDER = [
    Bot("codenames", 0, "uniform random legal action (random category clue, random guesses)", random_chooser),
    Bot(
        "codenames",
        1,
        "clues the category with most own words, always for 1; its guesser goes on through that "
        "category's words in board order while guesses are left",
        _team_bot(_lv1_spymaster, _guesser(False)),
    ),
    Bot(
        "codenames",
        2,
        "one own word a turn, safely: a category whose first covered word (board order) is its own, else a "
        "word-list letter clue whose most-shared-letters word is its own",
        _team_bot(_spymaster(1, 1), _CAREFUL),
    ),
    Bot(
        "codenames",
        3,
        "like Lv2, but clues a category's whole board-order run of own words, for that many",
        _team_bot(_spymaster(MAX_NUMBER, 1), _CAREFUL),
    ),
    Bot(
        "codenames",
        4,
        "like Lv3, plus letter clues for 2 words (the two sharing most letters), from a small vocabulary "
        "(each category's first word)",
        _team_bot(_spymaster(MAX_NUMBER, 2, small_vocabulary=True), _CAREFUL),
    ),
    Bot(
        "codenames",
        5,
        "like Lv4, with the whole word list as letter clues",
        _team_bot(_spymaster(MAX_NUMBER, 2), _CAREFUL),
    ),
    Bot(
        "codenames",
        6,
        "like Lv5, with clues for as many words as the run goes (up to 9)",
        _team_bot(_spymaster(MAX_NUMBER, MAX_NUMBER), _CAREFUL),
    ),
]
