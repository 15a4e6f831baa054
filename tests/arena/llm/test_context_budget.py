"""Every game's prompt fits the embedded models' context, counted by the models' own tokenizers (loaded
vocabulary-only: no server). The fitting keeps the rules, the legal moves and the answer format whole and drops the
oldest public history first."""

from __future__ import annotations

import random
from functools import cache

import pytest

from arena.agents.llm.local import (
    GEMMA3,
    SMOLLM2,
    TRAINED_CONTEXT,
    gemma3_gguf,
    local_llm_agents,
    served_context,
    smollm2_gguf,
)
from arena.agents.llm.prompts import (
    MESSAGE_OVERHEAD_TOKENS,
    estimate_tokens,
    feedback_messages,
    fit_retry,
    messages_tokens,
    prompt_budget,
)
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.llm.scaffolds.botzone.templates import TEMPLATES
from games import all_games, get_game
from tests.sampled import sampled

llama_cpp = pytest.importorskip("llama_cpp")
GAMES_PER_SLUG = 2


@cache
def tokenizer(model: str):
    path = smollm2_gguf() if model == SMOLLM2 else gemma3_gguf()
    return llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)


def real_tokens(model: str, messages: list[dict]) -> int:
    """The model's own count of the contents, plus the chat template's markers (checked below to be within
    MESSAGE_OVERHEAD_TOKENS per message and once for the reply's header)."""
    tok = tokenizer(model)
    contents = sum(len(tok.tokenize(m["content"].encode(), add_bos=False)) for m in messages)
    return contents + MESSAGE_OVERHEAD_TOKENS * (len(messages) + 1)


def budgets() -> dict[tuple[str, int], str]:
    """Each distinct (model, prompt budget) of the embedded agents, with one agent's slug having it."""
    found = {}
    for spec in local_llm_agents(8081):
        found.setdefault((spec["config"]["model"], prompt_budget(spec["config"])), spec["slug"])
    return found


def states(slug: str):
    """Every decision point of a few random games."""
    game = get_game(slug)
    for seed in range(GAMES_PER_SLUG):
        rng, state = random.Random(seed), game.initial_state(seed=seed)
        while game.current_player(state) is not None:
            yield state
            state = game.apply(state, game.random_action(state, rng))


def test_the_trained_contexts_are_the_models_own():
    for model, key in ((SMOLLM2, "llama.context_length"), (GEMMA3, "gemma3.context_length")):
        assert int(tokenizer(model).metadata[key]) == TRAINED_CONTEXT[model]
        assert served_context(model) == 8192
    assert budgets() == {(SMOLLM2, 8128): "smollm2-135m", (SMOLLM2, 8064): "smollm2-135m-reasoning",
                         (GEMMA3, 8064): "gemma3-270m"}  # fmt: skip


@pytest.mark.parametrize("model", [SMOLLM2, GEMMA3])
def test_the_chat_template_adds_at_most_the_overhead_per_message(model):
    tok = tokenizer(model)
    if model == SMOLLM2:
        markers = ["<|im_start|>system\n", "<|im_end|>\n"]
    else:
        markers = ["<start_of_turn>user\n", "<end_of_turn>\n"]
    assert sum(len(tok.tokenize(m.encode(), add_bos=False, special=True)) for m in markers) <= MESSAGE_OVERHEAD_TOKENS


#: Decision points whose whole prompts are longest (in characters) are fitted and counted; every SAMPLE_EVERY-th
#: one checks the estimate against the real count.
LONGEST, SAMPLE_EVERY = 6, 8


#: The games `make check` fits: a board game, a card game, a talking game and a plan game. `make test` fits them all.
QUICK_FIT = {"connect-four", "kuhn-poker", "werewolf", "tower-defense"}


@pytest.mark.parametrize("slug", sampled([game.slug for game in all_games()], QUICK_FIT))
def test_the_longest_prompt_of_random_games_fits_every_local_model(slug):
    game = get_game(slug)
    budget = min(budget for _model, budget in budgets())  # every local agent's budget is at least this
    candidates = []
    for number, state in enumerate(states(slug)):
        seat = game.current_player(state)
        legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
        whole = get_scaffold("grammar-reasoning").first_messages(game, state, seat, legal_texts=legal)
        candidates.append((sum(len(m["content"]) for m in whole), number, state, seat, legal))
        if number % SAMPLE_EVERY == 0:
            for model in (SMOLLM2, GEMMA3):  # the estimate the fitting relies on bounds the model's own count
                for message in whole:
                    real = len(tokenizer(model).tokenize(message["content"].encode(), add_bos=False))
                    assert real <= estimate_tokens(message["content"]), (model, message["content"][:200])
    for _chars, _number, state, seat, legal in sorted(candidates, key=lambda c: c[:2])[-LONGEST:]:
        messages = get_scaffold("grammar-reasoning").first_messages(
            game, state, seat, legal_texts=legal, budget_tokens=budget
        )
        assert game.rules_text() in messages[0]["content"]
        if not game.document_actions:
            assert ", ".join(legal) in messages[1]["content"]
        # Two re-prompts after replies as long as the agents allow (128 tokens) still fit, the opening kept whole.
        retried = messages
        for _ in range(2):
            retry = feedback_messages(" banana" * 128, "Not a move.", legal_texts=legal, legal_list=True)
            retried = fit_retry(retried + retry, budget)
        assert retried[:2] == messages
        for model in (SMOLLM2, GEMMA3):
            for message in messages:
                real = len(tokenizer(model).tokenize(message["content"].encode(), add_bos=False))
                assert real <= estimate_tokens(message["content"]), (model, message["content"][:200])
            assert real_tokens(model, messages) <= budget, (model, budget)
            assert real_tokens(model, retried) <= budget, (model, "retry")


def test_history_is_dropped_oldest_first_and_the_rules_and_legal_moves_stay():
    game = get_game("leduc-holdem")
    state = max(states("leduc-holdem"), key=lambda s: len(game.public_history(s)))
    seat = game.current_player(state)
    legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    whole = get_scaffold("direct").first_messages(game, state, seat, legal_texts=legal)
    lines = game.public_history(state).splitlines()
    assert len(lines) >= 4
    budget = messages_tokens(whole) - estimate_tokens("\n".join(lines[:2])) - 2
    fitted = get_scaffold("direct").first_messages(game, state, seat, legal_texts=legal, budget_tokens=budget)
    assert messages_tokens(fitted) <= budget
    assert fitted[0] == whole[0]  # the rules whole
    user = fitted[1]["content"]
    assert f"Legal moves: {', '.join(legal)}" in user
    assert game.observation_text(state, seat) in user
    assert lines[-1] in user
    assert lines[0] not in user
    assert "earliest entries left out to fit the context" in user


@pytest.mark.parametrize("slug", sorted(TEMPLATES))
def test_botzonebenchs_own_prompts_fit_every_local_model(slug):
    """Appendix C's prompts are sent whole (nothing in them is cut): the longest, with three invalid outputs
    appended as a retry does, fits the smallest local budget by the models' own counts."""
    game = get_game(slug)
    budget = min(budget for _model, budget in budgets())
    longest = max(
        (get_scaffold("botzone").first_messages(game, s, game.current_player(s), legal_texts=[]) for s in states(slug)),
        key=lambda messages: sum(len(m["content"]) for m in messages),
    )
    retried = [
        longest[0],
        {"role": "user", "content": longest[1]["content"] + "\n" + TEMPLATES[slug].retry(["x" * 120] * 3)},
    ]
    for model in (SMOLLM2, GEMMA3):
        assert real_tokens(model, retried) <= budget, (model, slug)
