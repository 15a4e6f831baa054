"""BotzoneBench's Appendix C prompts: word for word, with the paper's encodings, and answers read in its notation."""

from __future__ import annotations

import random
import re

import pytest

from arena.agents.llm.agent import LLMAgent
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.llm.scaffolds.botzone.templates import TEMPLATES, answer_part, parse
from games import get_game
from tests.arena.llm.scripted_server import Reply, first_legal_move
from tests.shared_files import SEEDS, needs

PAPER = SEEDS / "003_a5a096cdf1c7da17.txt"
#: Appendix C's headings for the games it shows.
HEADINGS = {
    "ataxx": "Prompt for Ataxx",
    "chess": "Prompt for Chess",
    "fight-the-landlord": "Prompt for Fight The Landlord",
    "gomoku": "Prompt for Gomoku",
    "reversi": "Prompt for Reversi",
    "holdem": "Prompt for Texas Hold’em",
    "tic-tac-toe": "Prompt for TicTacToe",
}


def paper_system_prompt(slug: str) -> list[str]:
    """Appendix C's system prompt lines for `slug`, typographic quotes made ASCII."""
    text = PAPER.read_text()
    start = text.index(HEADINGS[slug])
    body = text[text.index("System Prompt", start) + len("System Prompt") : text.index("User Prompt", start)]
    body = body.replace("’", "'").replace("“", '"').replace("”", '"')
    for latex, symbol in (("\\spadesuit", "♠"), ("\\heartsuit", "♥"), ("\\clubsuit", "♣"), ("\\diamondsuit", "♦")):
        body = body.replace(latex, symbol)  # the paper typesets the card symbols
    return [line.strip() for line in body.splitlines() if line.strip()]


def normal(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@needs(PAPER)
@pytest.mark.parametrize("slug", sorted(TEMPLATES))
def test_the_system_prompt_is_appendix_cs_word_for_word(slug):
    ours = normal(TEMPLATES[slug].system)
    for line in paper_system_prompt(slug):
        if "[...]" in line or "3. One Pair" in line:
            # Cut off or abbreviated in the paper (hold'em's hand list, renumbered there): each sentence it prints.
            for part in re.split(r"\[\.\.\.\]|\b\d+\.\s", line):
                for sentence in (s.strip(" ,.") for s in part.split(". ")):
                    if sentence:
                        assert normal(sentence) in ours, (slug, sentence)
            continue
        assert normal(line) in ours, (slug, line)


def test_the_papers_tic_tac_toe_example_is_reproduced_exactly():
    game = get_game("tic-tac-toe")
    state = game.initial_state(seed=1)
    # X on A1 and A2, O on B1 and C3 (the paper's rows count from the top: A1 is our a3).
    for text in ("a3", "b3", "a2", "c1"):
        state = game.apply(state, game.parse_action(state, text))
    [system, user] = get_scaffold("botzone").first_messages(game, state, 0, legal_texts=[])
    assert system["content"] == TEMPLATES["tic-tac-toe"].system
    assert user["content"] == (
        "It's your turn to move and you are playing as X. Your board representation is:\n"
        "  A B C\n1 X O .\n2 X . .\n3 . . O\n"
        "The occupied coordinates are: A1, A2, B1, C3.\n"
        "The valid moves are: A3, B2, B3, C1, C2."
    )


def test_the_papers_opening_positions_and_valid_actions():
    reversi = get_game("reversi")
    state = reversi.initial_state(seed=1)
    assert (
        TEMPLATES["reversi"]
        .user(reversi, state, 0)
        .endswith(
            "Your valid actions are: (C, 4), (D, 3), (E, 6), (F, 5)"  # Appendix C.6's list, in its notation
        )
    )
    ataxx = get_game("ataxx")
    lines = TEMPLATES["ataxx"].user(ataxx, ataxx.initial_state(seed=1), 0).splitlines()
    assert lines[0] == "Your pieces are marked with '@', opponents' are marked with '*', and empty spaces are '.'"
    assert lines[2:4] == ["  A B C D E F G", "1 @ . . . . . *"]  # Appendix C.1's board
    assert lines[9] == "7 * . . . . . @"
    assert "(A, 1) -> (A, 2)" in lines[10]  # the paper's first listed action
    chess_game = get_game("chess")
    user = TEMPLATES["chess"].user(chess_game, chess_game.initial_state(seed=1), 0)
    assert "8 RBF0 NBF0 BBF0 QBF0 KBF0 BBF0 NBF0 RBF0" in user  # never moved: 0, as the system prompt defines
    assert "\n[P: a2-a3, P: a2-a4, N: b1-a3, N: b1-c3, P: b2-b3, " in user  # Appendix C.2's list begins so
    assert "N: g1-h3" in user


def test_chess_flags_follow_the_moves():
    game = get_game("chess")
    state = game.initial_state(seed=1)
    for uci in ("e2e4", "g8f6", "g1f3", "d7d5"):
        state = game.apply(state, uci)
    user = TEMPLATES["chess"].user(game, state, 0)
    assert "5 .... .... .... PBT1 .... .... .... ...." in user  # d5 just moved two squares: en passant flag
    assert "4 .... .... .... .... PWF1 .... .... ...." in user  # e4 moved before
    assert "NBF1" in user
    assert "NWF1" in user
    assert "KWF0" in user


@pytest.mark.parametrize("slug", sorted(TEMPLATES))
def test_every_listed_valid_move_reads_back_as_that_move(slug):
    game = get_game(slug)
    rng = random.Random(5)
    state = game.initial_state(seed=3)
    checked = 0
    while game.current_player(state) is not None and checked < 6:
        seat = game.current_player(state)
        user = TEMPLATES[slug].user(game, state, seat)
        for action in game.legal_actions(state)[:40]:
            answer = listed_answer(game, state, action, user)
            if answer is None:
                continue
            parsed = parse(TEMPLATES[slug], game, state, f"Evaluation: …\nReason: …\nAnswer: {answer}")
            assert parsed.verdict == "ok", (slug, answer, parsed.message)
            assert parsed.action == action, (slug, answer)
        checked += 1
        state = game.apply(state, game.random_action(state, rng))
    assert checked


def listed_answer(game, state, action, user: str) -> str | None:
    """The answer the paper's format asks for, naming `action` (found in the prompt's own list where there is one)."""
    from arena.agents import botzone

    encoded = botzone.encode(game, state, action)
    if game.slug in ("tic-tac-toe", "gomoku"):
        return f'{{"col": "{"ABCDEFGHIJKLMNO"[encoded["x"]]}", "row": {encoded["y"] + 1}}}'
    if game.slug == "reversi":
        text = "None" if encoded["x"] < 0 else f"({'ABCDEFGH'[encoded['x']]}, {encoded['y'] + 1})"
        assert text == "None" or text in user
        return text
    if game.slug == "ataxx":
        if encoded["x0"] < 0:
            return "None"
        text = f"({'ABCDEFG'[encoded['y0']]}, {encoded['x0'] + 1}) -> ({'ABCDEFG'[encoded['y1']]}, {encoded['x1'] + 1})"
        assert text in user
        return text
    if game.slug == "chess":
        text = f"{action[:2]}-{action[2:4]}" + (f"-{action[4:]}" if len(action) > 4 else "")
        listed = re.search(rf"([KQRBNP]): {re.escape(text)}\b", user)
        assert listed, text
        return f"{listed.group(1)}: {text}"
    if game.slug == "holdem":
        return None if action[0] == "raise" else {"fold": "-1", "call": "0"}.get(str(action[0]))
    return None


async def test_a_decision_reads_the_json_answer_and_retries_the_papers_way(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(
        Reply(content='Evaluation: …\nReason: …\nAnswer: {"col": "D", "row": 9}'),  # off the board
        Reply(content='Evaluation: the centre.\nReason: most lines.\nAnswer: {"col": "B", "row": 2}'),
    )
    result = await LLMAgent({**llm_config, "scaffold": "botzone"}).decide(game, state, 0, 7)
    assert result.action == 4  # B2, the centre
    assert [a.verdict for a in result.attempts] == ["illegal", "ok"]
    first, second = (r.body["messages"] for r in scripted.chat_requests())
    assert first[0]["content"] == second[0]["content"] == TEMPLATES["tic-tac-toe"].system
    # The user prompt is sent again with the invalid output appended, not as a conversation.
    assert len(second) == 2
    assert second[1]["content"] == first[1]["content"] + '\nYour previous invalid outputs are: {"col": "D", "row": 9}.'


async def test_gomoku_asks_again_for_json_when_no_move_was_read(scripted, llm_config):
    game = get_game("gomoku")
    state = game.initial_state(seed=1)
    scripted.push(
        Reply(content="Evaluation: …\nReason: …\nAnswer: the centre"), Reply(content='Answer: {"col": "H", "row": 8}')
    )
    result = await LLMAgent({**llm_config, "scaffold": "botzone"}).decide(game, state, 0, 7)
    assert game.action_to_text(state, result.action) == "h8"  # the centre: H8 from the top is h8 from the bottom
    retry = scripted.chat_requests()[1].body["messages"][1]["content"]
    assert retry.endswith('\nInvalid format. Please output strictly JSON: {"col": "Letter", "row": Number}')


def test_answers_are_read_after_the_last_answer_line():
    assert answer_part("Answer: maybe a1\nEvaluation: …\n**Answer:** (C, 4)") == "(C, 4)"
    game = get_game("reversi")
    state = game.initial_state(seed=1)
    assert parse(TEMPLATES["reversi"], game, state, "Answer: (A, 1)").verdict == "illegal"
    assert parse(TEMPLATES["reversi"], game, state, "I pass on this one.").verdict == "unparseable"


def test_a_holdem_raise_is_botzones_more_chips():
    game = get_game("holdem")
    state = game.initial_state(seed=1)
    seat = game.current_player(state)
    user = TEMPLATES["holdem"].user(game, state, seat)
    least = int(re.search(r"(\d+) \(raise the bet\)", user).group(1))
    hand = game.player_view(state, seat)["current"]
    parsed = parse(TEMPLATES["holdem"], game, state, f"Answer: {least}")
    assert parsed.verdict == "ok"
    assert parsed.action == ("raise", hand["street_bet"][seat] + least)  # N more chips: the smallest raise
    assert parse(TEMPLATES["holdem"], game, state, "Answer: -1").action == ("fold",)


@pytest.mark.parametrize("slug", sorted(TEMPLATES))
def test_the_scripted_well_behaved_model_answers_appendix_c_prompts_legally(slug):
    game = get_game(slug)
    rng, state = random.Random(1), game.initial_state(seed=2)
    for _ in range(8):
        if game.current_player(state) is None:
            break
        messages = get_scaffold("botzone").first_messages(game, state, game.current_player(state), legal_texts=[])
        reply = first_legal_move({"messages": messages}).content
        assert parse(TEMPLATES[slug], game, state, reply).verdict == "ok", (slug, reply)
        state = game.apply(state, game.random_action(state, rng))


def test_the_papers_landlord_peasant_prompt():
    game = get_game("fight-the-landlord")
    rng, state = random.Random(3), game.initial_state(seed=4)
    while game.current_player(state) != 1:  # P2, a peasant whose previous player is the landlord
        state = game.apply(state, game.random_action(state, rng))
    user = TEMPLATES["fight-the-landlord"].user(game, state, 1)
    assert user.startswith(
        "You are playing as a peasant. Your aim is to play out all your cards before the landlord does, OR help your "
        "teammate (the other peasant) play out their cards before the landlord does. You are a Peasant. The Previous "
        "Player (Left) is the Landlord (ENEMY). The Next Player (Right) is your TEAMMATE (Peasant)."
    )
    assert "\nCards Held by Next Player (Right) [Peasant (Teammate)]: 17\n" in user
    assert "\nCards Held by Prev Player (Left) [Landlord (Opponent)]: " in user
    assert "Turn 1 (Prev Player): " in user
    assert re.search(r"\nRedJoker: [01], BlackJoker: [01], 2: \d, A: \d, .*, 3: \d\n", user)
    assert "\npass: []\n" in user or "Last Play to Beat: None (Free Play)" in user
    bidding = get_game("fight-the-landlord").initial_state(seed=1, bidding=True)
    assert get_scaffold("botzone").first_messages(game, bidding, 0, legal_texts=["no bid"])[0]["content"] != (
        TEMPLATES["fight-the-landlord"].system
    )  # Appendix C's prompt has no auction: the bidding variant keeps the generic form
