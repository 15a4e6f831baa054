"""The scaffolds by name: every stored name has one, and each one's answer lines are pinned word for word."""

from __future__ import annotations

import pytest

from arena.agents.llm.scaffolds import REGISTRY, get_scaffold
from arena.agents.llm_config import SCAFFOLDS
from games import get_game

#: Each scaffold's last paragraph of the system prompt and of the user prompt, for a game whose moves are listed.
ANSWER_LINES = {
    "direct": (
        "Reply with one line only: `Answer: <move>`, where <move> is one legal move written exactly as listed.",
        "Answer with one line: `Answer: <move>`.",
    ),
    "cot": (
        "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed.",
        "First, let's reason out loud about which action you should take to maximize your probability of winning. "
        "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed.",
    ),
    "self-consistency": (
        "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed.",
        "Think briefly about your options. "
        "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed.",
    ),
    "grammar": (
        "Reply with one line only: `Answer: <move>`, where <move> is one legal move written exactly as listed.",
        "Answer with one line: `Answer: <move>`.",
    ),
    "grammar-reasoning": (
        "Reply with two lines: `Reasoning: <one short sentence on your plan>`, then `Answer: <move>`, "
        "where <move> is one legal move written exactly as listed.",
        "Answer with two lines: `Reasoning: <one short sentence>`, then `Answer: <move>`.",
    ),
    "rap": (
        "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed.",
        "Legal moves: a1, b1",  # the observation only: RAP's own prompts ask the questions
    ),
    "rap-verbal": (
        "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed.",
        "Answer with one line: `Answer: <move>`.",
    ),
    "botzone": (
        "Reply strictly in this format:\nEvaluation: [Your Evaluation]\nReason: [Your Reason]\nAnswer: [Your Answer]\n"
        "where [Your Answer] is one legal move written exactly as listed.",
        "Briefly evaluate a few promising moves, provide reason for your final choice, and output the action.\n"
        "Evaluation: [Your Evaluation]\nReason: [Your Reason]\nAnswer: [Your Answer]",
    ),
}


def test_every_stored_scaffold_name_has_its_scaffold():
    assert tuple(REGISTRY) == SCAFFOLDS
    assert all(get_scaffold(name).name == name for name in SCAFFOLDS)
    with pytest.raises(KeyError):
        get_scaffold("tree")


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_each_scaffold_ends_its_prompts_with_its_answer_lines(name):
    game = get_game("connect-four")  # no Appendix C prompt: every scaffold uses Arena's
    state = game.initial_state(seed=1)
    system, user = get_scaffold(name).first_messages(game, state, 0, legal_texts=["a1", "b1"])
    assert system["content"].startswith(f"You are playing {game.name}.\n\n{game.rules_text()}")
    assert system["content"].endswith("\n\n" + ANSWER_LINES[name][0])
    assert user["content"].startswith("You play seat 1 of 2:")
    assert user["content"].endswith("\n\n" + ANSWER_LINES[name][1])


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_only_the_grammar_scaffolds_constrain_the_answer(name):
    game = get_game("connect-four")
    fields = get_scaffold(name).request_fields(game, ["a1", "b1"])
    if name == "grammar":
        assert fields == {"grammar": 'root ::= "Answer: " move\nmove ::= "a1" | "b1"\n'}
    elif name == "grammar-reasoning":
        assert fields["grammar"].startswith('root ::= "Reasoning: " reason "\\nAnswer: " move\n')
    else:
        assert fields == {}
    assert get_scaffold(name).constrained == name.startswith("grammar")
    plan_game = get_game("tower-defense")  # a plan is written, never held to a list
    assert get_scaffold(name).request_fields(plan_game, ["{}"]) == {}
