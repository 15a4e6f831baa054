"""Prompt templates for LLM seats (BotzoneBench-style: rules, state, legal moves, answer line).

`PROMPT_VERSION` is frozen into every match record; change it whenever the wording changes,
so results from different templates are never silently pooled.
"""

from __future__ import annotations

from typing import Any

from games import Game

PROMPT_VERSION = "2"

#: GameBench's chain-of-thought instruction, word for word.
COT_SENTENCE = (
    "First, let's reason out loud about which action you should take to maximize your probability of winning."
)
ANSWER_FORMAT = "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed."
#: BotzoneBench's uniform response format and instruction (its §3 and Appendix C), word for word.
BOTZONE_INSTRUCTION = (
    "Briefly evaluate a few promising moves, provide reason for your final choice, and output the action."
)
BOTZONE_FORMAT = "Evaluation: [Your Evaluation]\nReason: [Your Reason]\nAnswer: [Your Answer]"
#: Plan games (`Game.document_actions`): the model writes its own plan; the rules, not a list, decide what is valid.
PLAN_FORMAT = (
    "End your reply with your plan: one JSON document in the plan format given (or, from round 2, the word "
    "`keep` to field your previous plan for this role again)."
)
#: Previous invalid outputs are quoted back to the model at most this long (a runaway reply would fill the context).
FEEDBACK_QUOTE_CHARS = 4000


def system_prompt(game: Game, *, scaffold: str, legal_list: bool = True) -> str:
    """The rules, how the state is encoded, and the answer format."""
    if game.document_actions:
        moves = "your budget and the plan format; write your own plan (any plan the rules allow is valid)"
    else:
        moves = "and the list of legal moves" if legal_list else "(legal moves are not listed: work them out)"
    parts = [
        f"You are playing {game.name}.",
        game.rules_text(),
        "Each turn you are told which seat you play, the current position as text "
        f"(encoded as described above) {moves}.",
    ]
    if game.hidden_information:
        parts.append("You only see what your seat may see; the other side's hidden information is not shown.")
    if game.document_actions:
        parts.append(PLAN_FORMAT)
    elif scaffold == "botzone":
        parts.append(
            f"Reply strictly in this format:\n{BOTZONE_FORMAT}\n"
            "where [Your Answer] is one legal move written exactly as listed."
        )
    elif scaffold in ("direct", "grammar"):
        parts.append(
            "Reply with one line only: `Answer: <move>`, where <move> is one legal move written exactly as listed."
        )
    elif scaffold == "grammar-reasoning":
        parts.append(
            "Reply with two lines: `Reasoning: <one short sentence on your plan>`, then `Answer: <move>`, "
            "where <move> is one legal move written exactly as listed."
        )
    else:
        parts.append(ANSWER_FORMAT)
    return "\n\n".join(parts)


def user_prompt(game: Game, state: Any, seat: int, *, scaffold: str, legal_texts: list[str], legal_list: bool) -> str:
    """Your seat, what you see, the public history where information is hidden, and the legal moves.

    Plan games never list moves: their `legal_actions` are a few sample plans for bots and the UI, and a list
    would turn writing a plan into picking one (AdvGameBench's OBR and RVR would be biased towards zero)."""
    seat_name = game.seat_names[seat] if seat < len(game.seat_names) else f"seat {seat}"
    parts = [f"You play seat {seat + 1} of {game.num_players}: {seat_name}.", game.observation_text(state, seat)]
    if game.hidden_information:
        # With hidden information the observation alone may not say what happened publicly.
        parts.append(f"Public move history:\n{game.public_history(state) or '(none yet)'}")
    if legal_list and not game.document_actions:
        parts.append(f"Legal moves: {', '.join(legal_texts)}")
    answer = PLAN_FORMAT if game.document_actions else ANSWER_FORMAT
    if scaffold == "cot":
        parts.append(f"{COT_SENTENCE} {answer}")
    elif scaffold == "self-consistency":
        parts.append(f"Think briefly about your options. {answer}")
    elif scaffold == "botzone":
        parts.append(f"{BOTZONE_INSTRUCTION}\n{BOTZONE_FORMAT}" if not game.document_actions else answer)
    elif game.document_actions:
        parts.append(PLAN_FORMAT)
    elif scaffold == "grammar-reasoning":
        parts.append("Answer with two lines: `Reasoning: <one short sentence>`, then `Answer: <move>`.")
    else:
        parts.append("Answer with one line: `Answer: <move>`.")
    return "\n\n".join(parts)


def first_messages(
    game: Game, state: Any, seat: int, *, scaffold: str, legal_texts: list[str], legal_list: bool = True
) -> list[dict[str, str]]:
    """The opening conversation of a decision: system prompt and user prompt."""
    return [
        {"role": "system", "content": system_prompt(game, scaffold=scaffold, legal_list=legal_list)},
        {
            "role": "user",
            "content": user_prompt(
                game, state, seat, scaffold=scaffold, legal_texts=legal_texts, legal_list=legal_list
            ),
        },
    ]


def feedback_messages(
    previous_output: str, error: str, *, legal_texts: list[str], legal_list: bool, plan: bool = False
) -> list[dict]:
    """The re-prompt after an invalid reply: the reply itself, then what was wrong with it (BotzoneBench)."""
    quoted = (
        previous_output if len(previous_output) <= FEEDBACK_QUOTE_CHARS else previous_output[-FEEDBACK_QUOTE_CHARS:]
    )
    retry = [f"Your previous reply was not accepted: {error}"]
    if legal_list and not plan:
        retry.append(f"Legal moves: {', '.join(legal_texts)}")
    retry.append(f"Try again. {PLAN_FORMAT if plan else ANSWER_FORMAT}")
    return [
        {"role": "assistant", "content": quoted or "(empty reply)"},
        {"role": "user", "content": "\n\n".join(retry)},
    ]


def gbnf_literal(text: str) -> str:
    """A GBNF string literal for `text`."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


#: The longest reasoning line the `grammar-reasoning` scaffold lets a model write before its constrained answer.
REASONING_CHARS = 80


def answer_grammar(legal_texts: list[str], *, reasoning: bool = False) -> str:
    """A GBNF grammar admitting exactly `Answer: <one legal move>` (llama.cpp constrained decoding), after one
    `Reasoning: ` line of at most REASONING_CHARS characters with `reasoning`."""
    moves = " | ".join(gbnf_literal(text) for text in dict.fromkeys(legal_texts))
    if reasoning:
        return (
            f'root ::= "Reasoning: " reason "\\nAnswer: " move\nreason ::= [^\\n]{{1,{REASONING_CHARS}}}\n'
            f"move ::= {moves}\n"
        )
    return f'root ::= "Answer: " move\nmove ::= {moves}\n'
