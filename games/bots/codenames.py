"""Codenames ladder: random, a category matcher, then a careful category matcher.

The bots are embedding-free: a clue is a category name of the shipped word list
(games/data/codenames_words.txt), and a guesser looks up board words of that category; for a clue
it does not know (an LLM's or a person's) it guesses the covered word sharing the most letters.
Spymasters read the key from the state, as their seat may; guessers read only revealed colours.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.codenames import Codenames, CodenamesState, categories, team_colour, word_table


def _covered_by_category(state: CodenamesState) -> dict[str, list[int]]:
    _, category_of = word_table()
    groups: dict[str, list[int]] = {}
    for index, word in enumerate(state.words):
        if state.revealed[index] == ".":
            groups.setdefault(category_of.get(word, ""), []).append(index)
    return groups


def _spymaster(careful: bool):
    def choose(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
        """Lv1: the category naming most own covered words. Careful: count only the own words that come, in the
        board order the guesser follows, before any opponent's word or the assassin."""
        own = team_colour(state.team)
        groups = _covered_by_category(state)
        best, best_n, best_score = None, 0, 0.0
        for category in categories():
            members = groups.get(category, [])
            reachable = neutral = 0
            for index in members:
                if state.key[index] == own:
                    reachable += 1
                elif state.key[index] != "N" and careful:
                    break  # the guesser would give an opponent's word or the assassin away here
                elif careful:
                    neutral += 1  # a neutral word on the way ends the turn early (and clears it away)
            score = reachable - 0.4 * neutral
            if reachable and score > best_score:
                best, best_n, best_score = category, reachable, score
        if best is None:
            return game.random_action(state, rng)
        # Lv1 always says 1: it does not trust its guesser to find more than one word.
        return ("clue", best, min(best_n, 9) if careful else 1)

    return choose


def _shared_letters(a: str, b: str) -> int:
    return len(set(a) & set(b)) + (3 if a[:3] == b[:3] else 0)


def _guesser(careful: bool):
    def choose(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
        """Covered words of the clue's category in board order, up to the number, then (careful) the bonus
        guess on an older own clue that has not yet yielded its number of own words, then pass."""
        _, category_of = word_table()
        covered = [i for i, r in enumerate(state.revealed) if r == "."]
        matching = [i for i in covered if category_of.get(state.words[i]) == state.clue]
        if state.guesses < state.number and matching:
            return ("guess", matching[0])
        if state.guesses < state.number and state.clue not in categories():
            return ("guess", max(covered, key=lambda i: (_shared_letters(state.clue, state.words[i]), -i)))
        if careful and state.guesses == state.number:
            own = team_colour(state.team)
            for kind, team, clue, number in state.log[:-1]:
                if kind != "clue" or team != state.team or clue == state.clue:
                    continue
                members = [i for i, w in enumerate(state.words) if category_of.get(w) == clue]
                found = sum(1 for i in members if state.revealed[i] == "x" and state.key[i] == own)
                left = [i for i in members if state.revealed[i] == "."]
                if found < number and left:
                    return ("guess", left[0])
        if state.guesses >= 1:
            return ("pass",)
        return ("guess", rng.choice(covered))

    return choose


def _team_bot(careful: bool):
    spymaster, guesser = _spymaster(careful), _guesser(careful)

    def choose(game: Codenames, state: CodenamesState, rng: random.Random) -> tuple:
        return guesser(game, state, rng) if state.clue else spymaster(game, state, rng)

    return choose


LADDER = [
    Bot("codenames", 0, "uniform random legal action (random category clue, random guesses)", random_chooser),
    Bot(
        "codenames",
        1,
        "clues the category with most own words, always for 1 word; guesses that category's first word",
        _team_bot(False),
    ),
    Bot(
        "codenames",
        2,
        "like Lv1, but counts only own words that the guesser reaches before an opponent's word or the assassin",
        _team_bot(True),
    ),
]
