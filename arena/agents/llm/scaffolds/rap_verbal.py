"""`rap-verbal`: a verbal-value look-ahead scaffold, not GameBench's RAP (that is `rap`, `rap.py` beside this).

A small budgeted MCTS in which the model proposes moves and predicts the position each leads to with a verbal
value (`Value: 0–1`); the search's findings are then given to the model, which answers as usual. Plan games are
not searched (a plan is written whole): the model answers at once.

Every search call is kept: its prompt and reply go into the decision's reasoning text, and its tokens, cost
and time are added to the first answer attempt, so a decision costs what it really cost (docs/llm.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from arena.agents.llm import client as llm_client
from arena.agents.llm.parsing import clean
from arena.agents.llm.scaffolds.base import Scaffold
from arena.agents.llm.spend import Spend

MOVE_RE = re.compile(r"^\s*\**\s*move\s*\**\s*[:：]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
VALUE_RE = re.compile(r"value\s*\**\s*[:：]\s*([01](?:\.\d+)?|\.\d+)", re.IGNORECASE)
#: UCT exploration constant (√2, the textbook choice; RAP does not fix one).
EXPLORATION = math.sqrt(2)


@dataclass
class Node:
    """A position in the search: as the real observation (the root) or as the model predicted it."""

    text: str
    depth: int
    moves: list[str] | None = None  # proposed by the model when first needed
    children: dict[str, Node] = field(default_factory=dict)
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Search(Spend):
    """What the search spent and found: calls, a readable log, and per root move (mean value, visits)."""

    values: dict[str, tuple[float, int]] = field(default_factory=dict)

    def summary(self) -> str:
        """The findings as the model is told them before it answers."""
        if not self.values:
            return "Your look-ahead found nothing usable; decide directly."
        ranked = sorted(self.values.items(), key=lambda kv: (-kv[1][0], -kv[1][1]))
        lines = [f"- {move}: estimated value {mean:.2f} over {visits} look-ahead(s)" for move, (mean, visits) in ranked]
        return "A look-ahead using your own predictions of the resulting positions estimated:\n" + "\n".join(lines)


def proposed_moves(reply: str, limit: int) -> list[str]:
    """The moves a policy reply names on `Move: …` lines, first `limit`, without repeats."""
    return list(dict.fromkeys(clean(m) for m in MOVE_RE.findall(reply)))[:limit]


def predicted_value(reply: str) -> float | None:
    """The last `Value: x` (x in [0, 1]) of a world-model reply; None if there is none."""
    found = VALUE_RE.findall(reply)
    return min(1.0, max(0.0, float(found[-1]))) if found else None


def expandable(node: Node, depth: int) -> bool:
    """Whether the search can still ask something within `depth`: a position no moves were proposed for yet, or a
    proposed move not yet predicted. Once nothing is left, more iterations would only revisit known values."""
    if node.depth >= depth:
        return False
    if node.moves is None or len(node.children) < len(node.moves):
        return True
    return any(expandable(child, depth) for child in node.children.values())


class Planner:
    """One decision's search: `ask` sends one prompt and records what it cost; the tree does the rest."""

    def __init__(self, run: Any, system: str, seat_name: str) -> None:
        self.run = run
        self.config = run.config
        self.system = system
        self.seat_name = seat_name
        self.search = Search()

    async def ask(self, prompt: str) -> str | None:
        """The model's reply to `prompt` (after the system prompt); None if the call failed or the budget is spent."""
        if self.search.calls >= int(self.config["verbal_calls"]):
            return None
        self.search.calls += 1
        messages = [{"role": "system", "content": self.system}, {"role": "user", "content": prompt}]
        request = {**self.run.request(messages), "messages": messages}
        request.pop("grammar", None)
        result = await llm_client.complete(
            self.run.client,
            request,
            limiter=self.run.limiter,
            timeout_s=float(self.config["timeout_s"]),
            api_key=self.run.api_key,
        )
        s = self.search
        s.charge(result, self.config)
        s.log.append(f"## call {s.calls}\n{prompt}\n→ {result.content if result.ok else result.verdict}")
        return result.content if result.ok else None

    async def propose(self, node: Node, legal_texts: list[str] | None) -> list[str]:
        limit = int(self.config["verbal_actions"])
        listed = f"\nLegal moves: {', '.join(legal_texts)}" if legal_texts else ""
        reply = await self.ask(
            f"Position:\n{node.text}{listed}\n\nAs the player to move, name up to {limit} promising moves, best "
            "first, one per line as `Move: <move>`."
        )
        moves = proposed_moves(reply or "", limit)
        if legal_texts is not None:
            moves = [m for m in moves if m in legal_texts]  # at the root only real moves are searched
        return moves

    async def predict(self, node: Node, move: str) -> tuple[str, float]:
        reply = await self.ask(
            f"Position:\n{node.text}\n\nSuppose `{move}` is played now. Describe the position that results, in the "
            f"same encoding, then end with a line `Value: <number from 0 to 1>`: the probability that you "
            f"({self.seat_name}) win from there."
        )
        value = predicted_value(reply or "")
        text = (reply or "").rsplit("Value", 1)[0].strip() or node.text
        return text, 0.5 if value is None else value  # an unreadable prediction says nothing either way

    async def run_search(self, root_text: str, legal_texts: list[str]) -> Search:
        """MCTS with UCT over the model's predicted positions, to `verbal_depth` moves, within `verbal_calls` calls;
        it ends early when the tree holds every proposed move to that depth."""
        root = Node(root_text, 0)
        root.moves = await self.propose(root, legal_texts)
        depth = int(self.config["verbal_depth"])
        while root.moves and self.search.calls < int(self.config["verbal_calls"]) and expandable(root, depth):
            path, node = [root], root
            while node.moves and len(node.children) == len(node.moves) and node.depth < depth:
                node = max(
                    node.children.values(),
                    key=lambda c, parent=node: c.mean + EXPLORATION * math.sqrt(math.log(parent.visits + 1) / c.visits),
                )
                path.append(node)
            if node.depth >= depth:
                value = node.mean
            else:
                if node.moves is None:
                    node.moves = await self.propose(node, None)
                untried = [m for m in (node.moves or []) if m not in node.children]
                if not untried:
                    break  # nothing more to expand here: the model proposed no move
                text, value = await self.predict(node, untried[0])
                child = Node(text, node.depth + 1)
                node.children[untried[0]] = child
                path.append(child)
            for visited in path:
                visited.visits += 1
                visited.total += value
        self.search.values = {move: (child.mean, child.visits) for move, child in root.children.items()}
        return self.search


class RapVerbal(Scaffold):
    name = "rap-verbal"
    #: Search calls, moves proposed per position, and moves looked ahead.
    limits = {"verbal_calls": (2, 16), "verbal_actions": (1, 6), "verbal_depth": (1, 3)}

    async def decide(self, run: Any) -> Any:
        game, seat = run.game, run.seat
        if game.document_actions:
            return await super().decide(run)
        system, user = run.conversation.opening
        seat_name = game.seat_names[seat] if seat < len(game.seat_names) else f"seat {seat + 1}"
        search = await Planner(run, system["content"], seat_name).run_search(user["content"], run.legal_texts)
        action = await run.play([system, {**user, "content": f"{user['content']}\n\n{search.summary()}"}])
        if run.attempts:
            run.charge(run.attempts[0], search, "Verbal look-ahead")
        return action
