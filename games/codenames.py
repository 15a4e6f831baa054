"""Codenames (GameBench's 2v2 version): spymasters give one-word clues, guessers find their team's words.

Seats: 0 red spymaster, 1 red guesser, 2 blue spymaster, 3 blue guesser. A 5×5 grid of words from
games/data/codenames_words.txt; the seeded key card gives 9 words to the starting team, 8 to the other,
7 neutral and 1 assassin. Spymasters see the key; guessers and spectators see only revealed cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from games.base import Game, IllegalAction, Outcome

TEAMS = ("Red", "Blue")
RED, BLUE, NEUTRAL, ASSASSIN = "R", "B", "N", "A"
COLOUR_NAMES = {RED: "red", BLUE: "blue", NEUTRAL: "neutral", ASSASSIN: "assassin"}
GRID = 5
MAX_NUMBER = 9
CLUE_PATTERN = re.compile(r"^[a-z]+(?:-[a-z]+)?$")
WORDS_FILE = Path(__file__).parent / "data" / "codenames_words.txt"


@cache
def word_table() -> tuple[tuple[str, ...], dict[str, str]]:
    """The word list and each word's category (the association table the bots use); read once per process."""
    words: list[str] = []
    category_of: dict[str, str] = {}
    category = ""
    for line in WORDS_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("# ") and " " not in line[2:]:
            category = line[2:]
        elif line and not line.startswith("#"):
            words.append(line)
            category_of[line] = category
    return tuple(words), category_of


def categories() -> list[str]:
    """Every category name, in file order: the clues the built-in bots know."""
    _, category_of = word_table()
    return list(dict.fromkeys(category_of.values()))


def team_of_seat(seat: int) -> int:
    """Seats 0 and 1 are red (spymaster, guesser), 2 and 3 blue."""
    return seat // 2


def team_colour(team: int) -> str:
    return RED if team == 0 else BLUE


@dataclass(frozen=True)
class CodenamesState:
    seed: int
    ply: int
    words: tuple[str, ...]  # 25, row by row
    key: str  # 25 letters R/B/N/A
    revealed: str  # 25 characters: "x" revealed, "." covered
    team: int  # the team to play: 0 red, 1 blue
    clue: str  # "" while the spymaster has not given one
    number: int
    guesses: int  # guesses made on the current clue
    log: tuple[tuple[str, int, str, int], ...]  # (kind, team, word, number|card index)
    winner: int  # -1 while the game runs
    reason: str


def card_name(index: int) -> str:
    """Cards are named a1–e5: column letter, row number from the top."""
    row, col = divmod(index, GRID)
    return f"{'abcde'[col]}{row + 1}"


class Codenames(Game[CodenamesState, tuple]):
    slug = "codenames"
    name = "Codenames"
    num_players = 4
    hidden_information = True
    chance = True
    has_controls = True
    seat_names = ("Red spymaster", "Red guesser", "Blue spymaster", "Blue guesser")

    def team_of(self, state: CodenamesState, seat: int) -> int:
        return team_of_seat(seat)

    def initial_state(self, *, seed: int, **options: Any) -> CodenamesState:
        if options:
            raise ValueError(f"codenames takes no options, got {sorted(options)}")
        rng = self.rng(CodenamesState(seed, 0, (), "", "", 0, "", 0, 0, (), -1, ""))
        words = tuple(rng.sample(word_table()[0], GRID * GRID))
        starting = rng.randrange(2)
        first, second = team_colour(starting), team_colour(1 - starting)
        key = [first] * 9 + [second] * 8 + [NEUTRAL] * 7 + [ASSASSIN]
        rng.shuffle(key)
        return CodenamesState(seed, 0, words, "".join(key), "." * 25, starting, "", 0, 0, (), -1, "")

    # -- turn structure ------------------------------------------------------------------

    def current_player(self, state: CodenamesState) -> int | None:
        if state.winner >= 0:
            return None
        return state.team * 2 + (1 if state.clue else 0)

    def remaining(self, state: CodenamesState, team: int) -> int:
        """Covered cards of `team`'s colour (public: the key card's counts are known to all)."""
        colour = team_colour(team)
        return sum(1 for k, r in zip(state.key, state.revealed, strict=True) if k == colour and r == ".")

    def guesses_left(self, state: CodenamesState) -> int:
        return state.number + 1 - state.guesses if state.clue else 0

    def clue_problem(self, state: CodenamesState, word: str, number: int) -> str | None:
        """Why a clue is not allowed, or None when it is."""
        if not CLUE_PATTERN.match(word) or len(word) > 30:
            return f"The clue {word!r} must be one word of letters (a hyphen inside is allowed)."
        for board_word in state.words:
            if (
                word == board_word
                or word in (board_word + "s", board_word + "es")
                or board_word in (word + "s", word + "es")
            ):
                return f"The clue {word!r} is (a form of) the board word {board_word!r}; give a word not on the board."
        if not 1 <= number <= MAX_NUMBER:
            return f"The number must be from 1 to {MAX_NUMBER}, got {number}."
        return None

    def legal_actions(self, state: CodenamesState) -> list[tuple]:
        """Guessers: every covered card (and pass after one guess). Spymasters: representative clues."""
        if self.current_player(state) is None:
            return []
        if not state.clue:
            limit = min(2, self.remaining(state, state.team))
            return [("clue", c, n) for c in categories() for n in range(1, limit + 1)]
        actions: list[tuple] = [("guess", i) for i, r in enumerate(state.revealed) if r == "."]
        if state.guesses >= 1:
            actions.append(("pass",))
        return actions

    def is_legal(self, state: CodenamesState, action: tuple) -> bool:
        return self.action_problem(state, action) is None

    def action_problem(self, state: CodenamesState, action: tuple) -> str | None:
        """Why `action` is not legal now, or None."""
        if self.current_player(state) is None:
            return "The game is over."
        if not isinstance(action, tuple) or not action:
            return f"{action!r} is not an action."
        kind = action[0]
        if not state.clue:
            if kind != "clue" or len(action) != 3 or not isinstance(action[1], str) or not isinstance(action[2], int):
                return "The spymaster must give a clue: 'clue <word> <number>', e.g. 'clue animal 2'."
            return self.clue_problem(state, action[1], action[2])
        if kind == "clue":
            return "A clue has been given; the guesser now guesses a word or passes."
        if kind == "pass" and len(action) == 1:
            return None if state.guesses >= 1 else "You must make at least one guess before passing."
        if kind == "guess" and len(action) == 2 and isinstance(action[1], int) and 0 <= action[1] < 25:
            return None if state.revealed[action[1]] == "." else f"{state.words[action[1]]!r} is already revealed."
        return "Guess a covered word ('guess <word>') or 'pass'."

    def require_legal(self, state: CodenamesState, action: tuple) -> None:
        problem = self.action_problem(state, action)
        if problem:
            raise IllegalAction("The game is over; no more moves can be made." if self.is_terminal(state) else problem)

    def random_action(self, state: CodenamesState, rng: Any) -> tuple:
        if not state.clue:
            return ("clue", rng.choice(categories()), rng.randint(1, max(1, self.remaining(state, state.team))))
        return rng.choice(self.legal_actions(state))

    def apply(self, state: CodenamesState, action: tuple) -> CodenamesState:
        self.require_legal(state, action)
        team, ply = state.team, state.ply + 1
        if action[0] == "clue":
            log = (*state.log, ("clue", team, action[1], action[2]))
            return _replace(state, ply=ply, clue=action[1], number=action[2], guesses=0, log=log)
        if action[0] == "pass":
            log = (*state.log, ("pass", team, "", 0))
            return _replace(state, ply=ply, team=1 - team, clue="", number=0, guesses=0, log=log)
        index = action[1]
        revealed = state.revealed[:index] + "x" + state.revealed[index + 1 :]
        log = (*state.log, ("guess", team, state.words[index], index))
        after = _replace(state, ply=ply, revealed=revealed, guesses=state.guesses + 1, log=log)
        colour = state.key[index]
        if colour == ASSASSIN:
            return _replace(after, winner=1 - team, reason=f"{TEAMS[team]} revealed the assassin")
        for side in (team, 1 - team):
            if self.remaining(after, side) == 0:
                return _replace(after, winner=side, reason=f"{TEAMS[side]} found all its words")
        if colour == team_colour(team) and after.guesses < state.number + 1:
            return after
        return _replace(after, team=1 - team, clue="", number=0, guesses=0)

    def outcome(self, state: CodenamesState) -> Outcome | None:
        if state.winner < 0:
            return None
        scores = tuple(1.0 if seat // 2 == state.winner else 0.0 for seat in range(4))
        return Outcome(scores, state.reason)

    # -- JSON and notation ---------------------------------------------------------------

    def to_json(self, state: CodenamesState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "words": list(state.words),
            "key": state.key,
            "revealed": state.revealed,
            "team": state.team,
            "clue": state.clue,
            "number": state.number,
            "guesses": state.guesses,
            "log": [list(e) for e in state.log],
            "winner": state.winner,
            "reason": state.reason,
        }

    def from_json(self, data: dict[str, Any]) -> CodenamesState:
        return CodenamesState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            words=tuple(str(w) for w in data["words"]),
            key=str(data["key"]),
            revealed=str(data["revealed"]),
            team=int(data["team"]),
            clue=str(data["clue"]),
            number=int(data["number"]),
            guesses=int(data["guesses"]),
            log=tuple((str(k), int(t), str(w), int(n)) for k, t, w, n in data["log"]),
            winner=int(data["winner"]),
            reason=str(data["reason"]),
        )

    def round_label(self, state: CodenamesState) -> str:
        """ "Turn 3: Red": a turn is one clue and the guesses on it."""
        clues = sum(kind == "clue" for kind, *_ in state.log)
        return f"Turn {clues if state.clue else clues + 1}: {TEAMS[state.team]}"

    def action_to_text(self, state: CodenamesState, action: tuple) -> str:
        if action[0] == "clue":
            return f"clue {action[1]} {action[2]}"
        if action[0] == "guess":
            return f"guess {state.words[action[1]]}"
        return "pass"

    def parse_action(self, state: CodenamesState, text: str) -> tuple:
        words = text.strip().lower().replace('"', "").replace("'", "").split()
        if words == ["pass"] or words == ["end"]:
            return ("pass",)
        if len(words) == 3 and words[0] == "clue" and re.fullmatch("[0-9]{1,4}", words[2]):
            return ("clue", words[1], int(words[2]))
        if len(words) == 2 and words[0] == "guess":
            target = words[1]
            for index, word in enumerate(state.words):
                if target in (word, card_name(index)):
                    return ("guess", index)
            raise IllegalAction(f"{target!r} is not a word on the board.")
        raise IllegalAction(f"Could not read {text.strip()!r}; write 'clue <word> <number>', 'guess <word>' or 'pass'.")

    def action_cells(self, state: CodenamesState, action: tuple) -> tuple[str, ...]:
        if action[0] == "guess":
            return (card_name(action[1]),)
        return (action[0] if action[0] == "pass" else self.action_to_text(state, action),)

    # -- what each viewer sees ------------------------------------------------------------

    def _view(self, state: CodenamesState, viewer: int | None, show_key: bool) -> dict[str, Any]:
        cards = []
        for index, (word, colour, mark) in enumerate(zip(state.words, state.key, state.revealed, strict=True)):
            shown = mark == "x" or show_key
            cards.append(
                {
                    "index": index,
                    "name": card_name(index),
                    "word": word,
                    "revealed": mark == "x",
                    "colour": COLOUR_NAMES[colour] if shown else "",
                }
            )
        to_act = self.current_player(state)
        return {
            "game": self.slug,
            "viewer": viewer,
            "role": None if viewer is None else ("spymaster" if viewer % 2 == 0 else "guesser"),
            "seat_names": list(self.seat_names),
            "cards": cards,
            "rows": [cards[r * GRID : (r + 1) * GRID] for r in range(GRID)],
            "team": TEAMS[state.team],
            "to_act": to_act,
            "phase": "over" if to_act is None else ("guess" if state.clue else "clue"),
            "clue": state.clue,
            "number": state.number,
            "guesses_left": self.guesses_left(state),
            "remaining": {"Red": self.remaining(state, 0), "Blue": self.remaining(state, 1)},
            "log": self.log_lines(state),
            "winner": TEAMS[state.winner] if state.winner >= 0 else None,
            "reason": state.reason,
            "can_pass": state.guesses >= 1 and to_act is not None,
        }

    def player_view(self, state: CodenamesState, player: int | None) -> dict[str, Any]:
        # No seed and no key here: the seed determines the key card.
        return self._view(state, player, show_key=player is not None and player % 2 == 0)

    def full_view(self, state: CodenamesState) -> dict[str, Any]:
        view = self._view(state, None, show_key=True)
        view["seed"] = state.seed
        return view

    def log_lines(self, state: CodenamesState) -> list[str]:
        lines = []
        for kind, team, word, number in state.log:
            if kind == "clue":
                lines.append(f"{TEAMS[team]} spymaster: clue {word} {number}")
            elif kind == "guess":
                lines.append(f"{TEAMS[team]} guesser: {word} ({COLOUR_NAMES[state.key[number]]})")
            else:
                lines.append(f"{TEAMS[team]} guesser: pass")
        return lines

    def public_history(self, state: CodenamesState) -> str:
        return "\n".join(self.log_lines(state))

    def rules_text(self) -> str:
        return (
            "Codenames for four players in two teams, Red and Blue; each team has a spymaster and a guesser. "
            "25 words lie in a 5×5 grid (cards a1–e5: column letter, row number from the top). A secret key card "
            "colours every word: 9 words for the team that starts, 8 for the other team, 7 neutral and 1 assassin. "
            "Only the spymasters see the key; guessers see the colour of a card once it is revealed.\n"
            "On a team's turn its spymaster gives a clue: one word that is not on the board (nor a board word "
            "with -s/-es added or removed) and a number from 1 to 9 saying how many of the team's words it "
            "relates to. The guesser then guesses one covered word at a time, up to the number plus one guesses. "
            "A guess of the team's own colour lets the guesser go on; a neutral word or an opponent's word ends "
            "the turn (an opponent's word counts for the opponent); the assassin ends the game and that team "
            "loses. After at least one guess the guesser may pass. A team wins as soon as all its words are "
            "revealed, whoever revealed them.\n"
            "Answer with one action: spymaster 'clue <word> <number>' (e.g. 'clue animal 2'); "
            "guesser 'guess <word>' (or 'guess <card>', e.g. 'guess c4') or 'pass'."
        )

    def observation_text(self, state: CodenamesState, player: int) -> str:
        view = self.player_view(state, player)
        team = TEAMS[player // 2]
        lines = [f"You are the {team} {view['role']}. {view['team']} is to play."]
        lines.append(f"Words still covered: Red {view['remaining']['Red']}, Blue {view['remaining']['Blue']}.")
        lines.append("Board (card: word [colour]):")
        for row in view["rows"]:
            cells = []
            for card in row:
                mark = card["colour"] or "?"
                if card["revealed"]:
                    mark = f"revealed {mark}"
                elif card["colour"]:
                    mark = f"key {mark}"
                cells.append(f"{card['name']}: {card['word']} [{mark}]")
            lines.append("  " + "; ".join(cells))
        if view["clue"]:
            lines.append(f"Current clue: {view['clue']} {view['number']}; guesses left: {view['guesses_left']}.")
        if view["log"]:
            lines.append("History:\n" + "\n".join(f"  {line}" for line in view["log"]))
        if view["winner"]:
            lines.append(f"Game over: {view['winner']} wins ({view['reason']}).")
        return "\n".join(lines)


def _replace(state: CodenamesState, **changes: Any) -> CodenamesState:
    return replace(state, **changes)
