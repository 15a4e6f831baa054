"""Arena's own prompt for LLM seats (BotzoneBench-style: rules, state, legal moves, the scaffold's answer lines),
fitted to the model's context, and the re-prompt after an invalid reply.

`PROMPT_VERSION` (kept with the other versions in `arena.record.versions`) is frozen into every match
record; change it whenever the wording changes, so results from different templates are never silently pooled.
"""

from __future__ import annotations

import math
import re
from typing import Any

from arena.record.versions import PROMPT_VERSION as PROMPT_VERSION
from games import Game

#: The answer line every re-prompt asks for, and the scaffolds' system prompts unless they ask for less.
ANSWER_FORMAT = "End your reply with a line `Answer: <move>`, where <move> is one legal move written exactly as listed."
#: Plan games (`Game.document_actions`): the model writes its own plan; the rules, not a list, decide what is valid.
PLAN_FORMAT = (
    "End your reply with your plan: one JSON document in the plan format given (or, from round 2, the word "
    "`keep` to field your previous plan for this role again)."
)
#: Previous invalid outputs are quoted back to the model at most this long (a runaway reply would fill the context).
FEEDBACK_QUOTE_CHARS = 4000


def prompt_budget(config: dict[str, Any]) -> int | None:
    """Tokens a prompt may use: the context (`context_tokens`) less the reply's `max_tokens`; None if unknown."""
    if not config.get("context_tokens"):
        return None
    return int(config["context_tokens"]) - int(config.get("max_tokens") or 0)


def system_prompt(game: Game, *, reply_format: str, legal_list: bool = True) -> str:
    """The rules, how the state is encoded, and the answer format: `reply_format` (the scaffold's) unless the
    game's moves are plans."""
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
    parts.append(PLAN_FORMAT if game.document_actions else reply_format)
    return "\n\n".join(parts)


def user_prompt(
    game: Game,
    state: Any,
    seat: int,
    *,
    instruction: str | None,
    legal_texts: list[str],
    legal_list: bool,
    observation: str | None = None,
    history: str | None = None,
) -> str:
    """Your seat, what you see, the public history where information is hidden, the legal moves, and the
    scaffold's `instruction` (none: the observation only).

    Plan games never list moves: their `legal_actions` are a few sample plans for bots and the UI, and a list
    would turn writing a plan into picking one (AdvGameBench's OBR and RVR would be biased towards zero).
    `observation` and `history` replace the game's own texts (`first_messages` shortens them)."""
    seat_name = game.seat_names[seat] if seat < len(game.seat_names) else f"seat {seat}"
    if observation is None:
        observation = game.observation_text(state, seat)
    parts = [f"You play seat {seat + 1} of {game.num_players}: {seat_name}.", observation]
    if game.hidden_information:
        # With hidden information the observation alone may not say what happened publicly.
        if history is None:
            history = f"Public move history:\n{game.public_history(state) or '(none yet)'}"
        parts.append(history)
    if legal_list and not game.document_actions:
        parts.append(f"Legal moves: {', '.join(legal_texts)}")
    if instruction is not None:
        parts.append(instruction)
    return "\n\n".join(parts)


def first_messages(
    game: Game,
    state: Any,
    seat: int,
    *,
    reply_format: str,
    instruction: str | None,
    legal_texts: list[str],
    legal_list: bool = True,
    budget_tokens: int | None = None,
) -> list[dict[str, str]]:
    """The opening conversation of a decision: system prompt and user prompt, fitted to `budget_tokens` if given.

    Fitting keeps the rules, the seat, the legal moves and the answer format whole: it drops the oldest public
    history first, then (only if still too long) cuts the middle out of the position's text."""
    system = system_prompt(game, reply_format=reply_format, legal_list=legal_list)

    def build(observation: str | None = None, history: str | None = None) -> list[dict[str, str]]:
        user = user_prompt(
            game,
            state,
            seat,
            instruction=instruction,
            legal_texts=legal_texts,
            legal_list=legal_list,
            observation=observation,
            history=history,
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    messages = build()
    if budget_tokens is None or messages_tokens(messages) <= budget_tokens:
        return messages
    history = None
    if game.hidden_information:
        lines = (game.public_history(state) or "").splitlines()
        keep = _most_recent_fitting(lines, lambda text: messages_tokens(build(history=text)) <= budget_tokens)
        history = _history_text(lines, keep)
        messages = build(history=history)
        if messages_tokens(messages) <= budget_tokens:
            return messages
    observation = game.observation_text(state, seat)
    over = messages_tokens(messages) - budget_tokens
    cut = _cut_middle(observation, max(0, estimate_tokens(observation) - over))
    return build(observation=cut, history=history)


#: The margin over the piece count of `estimate_tokens`, which makes it an upper bound of SmolLM2's and Gemma 3's
#: own counts on every game's prompts (at most 0.96 of it measured; tests/arena/llm/test_context_budget.py).
TOKEN_MARGIN = 1.3
#: Tokens a chat template adds per message (role markers, separators) and once for the reply's header.
MESSAGE_OVERHEAD_TOKENS = 8
_PIECE = re.compile(r"[A-Za-z]+|[^\x00-\x7f]| {2,}|\s|[^ ]")


def estimate_tokens(text: str) -> int:
    """An upper estimate of `text`'s tokens: a letter run at most one per 3 letters, every digit, punctuation mark,
    newline and extra space one, a non-ASCII character one per UTF-8 byte (byte fallback), times TOKEN_MARGIN."""
    pieces = 0
    for piece in _PIECE.findall(text):
        first = piece[0]
        if not first.isascii():
            pieces += len(piece.encode())
        elif first.isalpha():
            pieces += -(-len(piece) // 3)
        elif first == " ":
            pieces += len(piece) - 1
        else:
            pieces += 1
    return math.ceil(pieces * TOKEN_MARGIN)


def messages_tokens(messages: list[dict]) -> int:
    """`estimate_tokens` over a conversation, with the chat template's per-message overhead and the reply header."""
    return sum(estimate_tokens(m.get("content") or "") + MESSAGE_OVERHEAD_TOKENS for m in messages) + (
        MESSAGE_OVERHEAD_TOKENS
    )


def _most_recent_fitting(lines: list[str], fits) -> int:
    """How many of the last `lines` can be kept (binary search on `fits(text)`; 0 if none)."""
    low, high = 0, len(lines)
    while low < high:
        middle = (low + high + 1) // 2
        if fits(_history_text(lines, middle)):
            low = middle
        else:
            high = middle - 1
    return low


def _history_text(lines: list[str], keep: int) -> str:
    """The public history with only its last `keep` lines, saying how many were left out."""
    dropped = len(lines) - keep
    if not dropped:
        return f"Public move history:\n{chr(10).join(lines) or '(none yet)'}"
    if not keep:
        return f"Public move history: ({dropped} entries left out to fit the context)"
    recent = "\n".join(lines[-keep:])
    return f"Public move history (the {dropped} earliest entries left out to fit the context):\n{recent}"


def _cut_middle(text: str, tokens: int) -> str:
    """`text` within about `tokens` estimated tokens: its head and tail kept whole-line, the middle marked as cut."""
    if estimate_tokens(text) <= tokens:
        return text
    lines = text.splitlines()
    head, tail = [], []
    marker = "[… part of the position left out to fit the context …]"
    budget = tokens - estimate_tokens(marker) - 2
    while lines:
        take_head = len(head) <= len(tail)
        line = lines[0] if take_head else lines[-1]
        cost = estimate_tokens(line) + 1
        if cost > budget:
            break
        budget -= cost
        if take_head:
            head.append(lines.pop(0))
        else:
            tail.insert(0, lines.pop())
    return "\n".join([*head, marker, *tail])


def fit_retry(messages: list[dict], budget_tokens: int | None) -> list[dict]:
    """A re-prompt conversation within `budget_tokens`: the earlier failed exchanges are dropped first (the
    opening messages and the latest exchange kept), then the latest reply's quote is shortened."""
    if budget_tokens is None or messages_tokens(messages) <= budget_tokens or len(messages) <= 4:
        fitted = list(messages)
    else:
        fitted = [*messages[:2], *messages[-2:]]
    if len(fitted) >= 4 and messages_tokens(fitted) > (budget_tokens or math.inf):
        reply = fitted[-2]["content"]
        room = max(0, estimate_tokens(reply) - (messages_tokens(fitted) - budget_tokens))
        # Each character costs at most TOKEN_MARGIN·4 estimated tokens (a 4-byte character); keep the reply's end.
        keep = int(room / (TOKEN_MARGIN * 4))
        fitted[-2] = {**fitted[-2], "content": ("…" + reply[-keep:]) if keep else "(reply left out)"}
    return fitted


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
