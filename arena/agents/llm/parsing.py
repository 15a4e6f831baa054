"""Read a move out of a model's reply, tolerantly, and check it against the game.

Verdicts: `unparseable` when no candidate move can be found in the reply at all;
`illegal` when a candidate was found but the game rejects it (unreadable as a move,
or not legal here). That split is game-independent, so rates compare across games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import Game, IllegalAction

#: The last `Answer:` anywhere in a line, allowing markdown around the word (`**Answer:**`).
ANSWER_RE = re.compile(r"answer\s*\**\s*[:：]\s*(.*)", re.IGNORECASE)
THINK_RE = re.compile(r"<think>(.*?)</think>", re.IGNORECASE | re.DOTALL)
JSON_KEYS = ("move", "action", "answer")
#: Characters models wrap answers in; stripped from both ends of a candidate.
WRAPPERS = " \t*`'\"<>[]_~"
TRAILING = ".,;:!?。"


@dataclass(frozen=True)
class Parsed:
    """The outcome of reading one reply: a legal action, or a verdict and a message saying why not."""

    verdict: str
    action: Any = None
    text: str = ""
    message: str = ""


def split_reasoning(content: str) -> tuple[str, str]:
    """Move `<think>…</think>` blocks (and an unclosed trailing `<think>`) out of the content."""
    if "<think>" not in content.lower() and "</think>" not in content.lower():
        return content, ""
    thoughts = [block.strip() for block in THINK_RE.findall(content)]
    rest = THINK_RE.sub("", content)
    lowered = rest.lower()
    if "<think>" in lowered:  # cut off while thinking: everything after the tag is reasoning
        start = lowered.index("<think>")
        thoughts.append(rest[start + len("<think>") :].strip())
        rest = rest[:start]
    elif "</think>" in lowered:  # some templates put the opening tag in the prompt
        end = lowered.index("</think>")
        thoughts.insert(0, rest[:end].strip())
        rest = rest[end + len("</think>") :]
    return rest.strip(), "\n\n".join(t for t in thoughts if t)


def clean(text: str, trailing: str = TRAILING) -> str:
    """Strip markdown emphasis, backticks, quotes and trailing punctuation from a candidate."""
    text = text.strip()
    previous = None
    while text != previous:
        previous = text
        text = text.strip(WRAPPERS).rstrip(trailing).strip()
    return text


def unwrap(text: str) -> str:
    """Strip markdown emphasis, backticks and quotes only: free text keeps its own punctuation."""
    return clean(text, trailing="")


def _answer_line(reply: str, tidy: Callable[[str], str] = clean) -> str | None:
    found = None
    lines = reply.splitlines()
    for index, line in enumerate(lines):
        matches = list(ANSWER_RE.finditer(line))
        if not matches:
            continue
        value = tidy(matches[-1].group(1))
        if not value:  # "Answer:" alone on its line, the move on the next one
            following = [tidy(rest) for rest in lines[index + 1 :] if tidy(rest)]
            value = following[0] if following else ""
        if value:
            found = value
    return found


def _json_answer(reply: str) -> str | None:
    decoder = json.JSONDecoder()
    position = reply.rfind("{")
    # Scan objects from the end: the model's final JSON is its answer.
    while position != -1:
        try:
            value, _ = decoder.raw_decode(reply, position)
        except ValueError:
            value = None
        if isinstance(value, dict):
            for key in JSON_KEYS:
                for name, field in value.items():
                    if str(name).lower() == key and isinstance(field, (str, int, float)) and str(field).strip():
                        return clean(str(field))
        position = reply.rfind("{", 0, position)
    return None


def last_json_document(reply: str) -> str | None:
    """The text of the last top-level JSON object in the reply (a plan), or None."""
    decoder, spans, position = json.JSONDecoder(), [], reply.find("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(reply, position)
        except ValueError:
            position = reply.find("{", position + 1)
            continue
        if isinstance(value, dict):
            spans.append((position, end))
            position = reply.find("{", end)  # skip what this object contains: only top-level documents count
        else:
            position = reply.find("{", position + 1)
    return reply[spans[-1][0] : spans[-1][1]] if spans else None


def _whole_word(text: str, reply: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(text)}(?!\w)", reply) is not None


def find_candidate(reply: str, legal_texts: list[str]) -> str | None:
    """The move text the reply means, by the first rule that finds one (see the module docstring)."""
    if (answer := _answer_line(reply)) is not None:
        return answer
    if (answer := _json_answer(reply)) is not None:
        return answer
    lines = [line for line in reply.splitlines() if line.strip()]
    if lines and (last := clean(lines[-1])) in legal_texts:
        return last
    mentioned = {text for text in legal_texts if _whole_word(text, reply)}
    if len(mentioned) == 1:
        return mentioned.pop()
    return None


def validate(game: Game, state: Any, text: str, legal_texts: list[str] | None = None) -> Parsed:
    """Turn a candidate move text into a legal action, or an `illegal` verdict with the game's reason."""
    try:
        action = game.parse_action(state, text)
    except IllegalAction as error:
        # "b2 (the centre)": the full text is not a move, but one legal move named in it is.
        named = {t for t in legal_texts or () if _whole_word(t, text)}
        if len(named) != 1:
            return Parsed("illegal", text=text, message=str(error))
        text = named.pop()
        try:
            action = game.parse_action(state, text)
        except IllegalAction as again:
            return Parsed("illegal", text=text, message=str(again))
    except Exception as error:  # a game's parser must never take the agent down with it
        return Parsed("illegal", text=text, message=f"Could not read {text!r} as a move ({error}).")
    if not game.is_legal(state, action):
        return Parsed("illegal", text=text, message=f"{text!r} is not a legal move here. {game.legal_summary(state)}")
    return Parsed("ok", action=action, text=game.action_to_text(state, action))


def parse_reply(game: Game, state: Any, reply: str, legal_texts: list[str]) -> Parsed:
    """Find the move in `reply` and check it: verdict ok, unparseable or illegal."""
    document = last_json_document(reply) if game.document_actions else None
    candidate = document or find_candidate(reply, legal_texts)
    if candidate is None:
        return Parsed(
            "unparseable",
            message="No move found in the reply: end it with a line `Answer: <move>` naming one legal move.",
        )
    said = None if document else _answer_line(reply, tidy=unwrap)
    if said and said != candidate:
        # Free text (a question, a claim) keeps its own punctuation when the game reads it whole.
        whole = validate(game, state, said)
        if whole.verdict == "ok":
            return whole
    return validate(game, state, candidate, legal_texts)
