"""Reading moves out of model replies, and the prompts and grammar they answer."""

from __future__ import annotations

import pytest

from arena.agents.llm.parsing import find_candidate, parse_reply, split_reasoning
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.llm.scaffolds.cot import COT_SENTENCE
from arena.agents.llm.scaffolds.grammar import answer_grammar, gbnf_literal

LEGAL = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Answer: b2", "b2"),
        ("I think the centre.\n**Answer:** `b2`.", "b2"),
        ("answer: B2!", "B2"),
        ("Answer: a1\nOn reflection...\nFinal answer: c3", "c3"),
        ("Answer:\n  b2", "b2"),
        ('Sure. {"move": "c1"}', "c1"),
        ('{"Action": "a2", "why": "blocks"}', "a2"),
        ("The best square is the corner.\n\na1", "a1"),
        ("I would play b2 since it controls most lines", "b2"),
        ("Either b2 or a1 is fine", None),
        ("I resign", None),
        ("", None),
    ],
)
def test_find_candidate(reply, expected):
    assert find_candidate(reply, LEGAL) == expected


def test_parse_reply_verdicts(ttt):
    game, state = ttt
    state = game.apply(state, 4)  # X took b2
    ok = parse_reply(game, state, "**Answer:** a1.", LEGAL)
    assert (ok.verdict, ok.action, ok.text) == ("ok", 6, "a1")
    case_folded = parse_reply(game, state, "Answer: C3", LEGAL)
    assert (case_folded.verdict, case_folded.text) == ("ok", "c3")
    taken = parse_reply(game, state, "Answer: b2", LEGAL)
    assert taken.verdict == "illegal"
    assert "not a legal move" in taken.message
    assert "Legal moves: a3" in taken.message
    nonsense = parse_reply(game, state, "Answer: d9", LEGAL)
    assert nonsense.verdict == "illegal"
    assert "Could not read 'd9'" in nonsense.message
    assert parse_reply(game, state, "no idea", LEGAL).verdict == "unparseable"
    # A move with a comment after it: the one legal move named is taken.
    commented = parse_reply(game, state, "Answer: c1 (blocking the diagonal)", LEGAL)
    assert (commented.verdict, commented.text) == ("ok", "c1")


def test_free_text_keeps_its_own_punctuation():
    from games import get_game

    game = get_game("two-rooms-and-a-boom")
    state = game.initial_state(seed=1)
    mate = game.legal_actions(state)[0][1]
    legal = [game.action_to_text(state, action) for action in game.legal_actions(state)]
    asked = parse_reply(game, state, f"**Answer:** ask P{mate + 1} Are you the Bomber?", legal)
    assert (asked.verdict, asked.action) == ("ok", ("ask", mate, "Are you the Bomber?"))
    listed = parse_reply(game, state, f"Answer: ask P{mate + 1} Which team are you on?", legal)
    assert listed.action == ("ask", mate, "Which team are you on?")


def test_split_reasoning_moves_think_blocks_out():
    assert split_reasoning("<think>corner or centre?</think>\nAnswer: b2") == ("Answer: b2", "corner or centre?")
    assert split_reasoning("Answer: b2") == ("Answer: b2", "")
    # Cut off while thinking: all of it is reasoning, nothing is an answer.
    assert split_reasoning("<think>let me count the lines") == ("", "let me count the lines")
    # Templates that open the block in the prompt leave only the closing tag.
    assert split_reasoning("hmm, b2.</think>Answer: b2") == ("Answer: b2", "hmm, b2.")


def test_grammar_admits_only_the_answer_line():
    grammar = answer_grammar(["a1", "b2", 'say "hi"\\'])
    assert grammar.startswith('root ::= "Answer: " move\n')
    assert 'move ::= "a1" | "b2" | "say \\"hi\\"\\\\"' in grammar
    assert gbnf_literal("x\ny") == '"x\\ny"'


def test_prompts_carry_rules_state_legal_moves_and_format(ttt):
    game, state = ttt
    system, user = get_scaffold("cot").first_messages(game, state, 0, legal_texts=LEGAL)
    assert game.rules_text() in system["content"]
    assert "Answer: <move>" in system["content"]
    assert "You play seat 1 of 2: X." in user["content"]
    assert game.observation_text(state, 0) in user["content"]
    assert "Legal moves: a3, b3, c3, a2, b2, c2, a1, b1, c1" in user["content"]
    assert COT_SENTENCE in user["content"]
    _, bare = get_scaffold("direct").first_messages(game, state, 1, legal_texts=LEGAL, legal_list=False)
    assert "Legal moves" not in bare["content"]
    assert COT_SENTENCE not in bare["content"]


def test_plan_games_take_the_last_top_level_json_document():
    from arena.agents.llm.parsing import last_json_document

    reply = (
        'I considered {"units": []} but then:\nAnswer:\n{"units": [{"name": "archer", "at": [1, 2]}], "keep": false}\n'
    )
    assert last_json_document(reply) == '{"units": [{"name": "archer", "at": [1, 2]}], "keep": false}'
    assert last_json_document("no plan here") is None
    assert last_json_document('{"a": {"b": 1}} {broken') == '{"a": {"b": 1}}'
