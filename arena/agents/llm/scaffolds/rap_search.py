"""The `rap` scaffold's search: RAP, Reasoning via Planning, as GameBench runs it (Appendix G and H; Hao et al.
2023; llm-reasoners' MCTS).

The model is the world model: in each position it predicts its own actions (below the root), the other
players' actions and the next observation. A step's reward is read from next-token probabilities:

    fast reward = intuition + self-evaluation
    reward      = intuition + self-evaluation + (2 · P(win) − 1)

where the intuition is P(the action's number) after "Choose an action by writing only the associated number.",
the self-evaluation P("yes") after "Is this a good action? yes/no." and P(win) P("yes") after "Will you
eventually win from this position? yes/no", each from the first reply token's `top_logprobs` as GameBench's code
reads them (agents/rap/chat.py): as many alternatives asked for as there are answers wanted, at most 5; an
answer's probability is that of the first alternative spelled like it in any case, normalised over the
alternatives returned. An endpoint that returns no log-probabilities gets the
documented fallback: the same prompt answered `rap_samples` times at temperature 1, the probability being the
share of answers that say so.

The search is llm-reasoners' MCTS with its defaults (10 iterations, exploration weight 1, Q = mean of the
cumulative rewards, cumulative reward = sum, greedy simulation on the fast reward, unvisited children scored
by their fast reward in UCT) and GameBench's depth limit of 2; the move played is the first action of the
trajectory with the highest cumulative reward to the depth limit (`output_strategy="max_reward"`), so the
search, not a final prompt, picks the move. docs/llm.md lists where this departs from GameBench.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from arena.agents.llm import client as llm_client
from arena.agents.llm.spend import Spend

#: llm-reasoners' MCTS defaults (reasoners/algorithm/mcts.py): UCT exploration weight `w_exp`.
EXPLORATION = 1.0
#: GameBench's code asks for one alternative per answer wanted, at most this many (agents/rap/chat.py).
MAX_TOP_LOGPROBS = 5
#: The answers of a yes/no prompt (GameBench's default `tokens`): both asked for, "yes" read.
YES_NO = ["yes", "no"]
#: Output tokens for a prediction (actions, others' actions, next observation) when the config sets no max_tokens.
PREDICTION_TOKENS = 1024
#: Output tokens for one sampled answer in the fallback (a word or a number is wanted).
SAMPLE_TOKENS = 4

# Appendix H, word for word where it gives the words (the example game is its Monty Hall).
EXAMPLE = (
    "You are playing a game called monty hall.\nThe rules of the game are as follows: there are three doors, "
    "behind one of which there is a prize. Select the door with the prize.\nYour observation of the state is "
    "between <state> and </state>:\n<state>\nAll three doors are closed.\n</state>\n"
)
PREFIX = (
    "You are now playing a game called {title}.\nThe rules are as follows {rules}\nYour observation of the game "
    "is between <state> and </state>:\n<state>\n{state}\n</state>\n"
)
ACTIONS_Q = (
    "To the best of your ability, predict your available actions in this position between <actions> and </actions>:"
)
ACTIONS_EXAMPLE = "<actions>\n0. Choose the left door\n1. Choose the middle door\n2. Choose the right door\n</actions>"
SELECT_Q = (
    "To the best of your ability, predict your available actions in this position between <actions> and </action>:"
)
SELECT_ASK = "Choose an action by writing only the associated number."
WRITE_ACTION = "Write your action below:"
SELF_EVAL_ASK = "Is this a good action? yes/no."
OTHERS_Q = "To the best of your ability, predict what actions other players might take between <others> and </others>:"
OTHERS_EXAMPLE = "<others>My opponent is going to reveal one of the two doors I don't choose.</others>"
WRITE_OTHERS = "Write other players' actions below:"
STATE_Q = (
    "To the best of your ability, predict your new observation of the game based on your actions and others' "
    "actions between <state> and </state>:"
)
STATE_EXAMPLE = (
    "<state>\nThe left and right doors are closed, and the middle is open. There is no prize behind it.\n</state>"
)
WIN_ASK = "Will you eventually win from this position? yes/no"
#: Ours: when there are more legal moves than `rap_actions`, the model shortlists the root's actions.
SHORTLIST_ASK = (
    "Your legal moves are: {moves}\nWrite the {k} most promising of them between <actions> and </actions>, one "
    "per line, best first, each written exactly as listed."
)
#: GameBench's stand-ins when a prediction cannot be read.
NO_OTHERS = "no information about others' actions"
NO_STATE = "no information about current state"

_NUMBERED = re.compile(r"^\s*(?:[-*]|\d+[.):])\s*")


class SearchStopped(Exception):
    """The call budget is spent, or the provider failed: the search ends with what it has."""


@dataclass(eq=False)
class Node:
    """llm-reasoners' MCTS node: the action that led here, its rewards, and the predicted state once expanded."""

    action: str | None
    parent: Node | None
    depth: int = 0
    state: str | None = None
    fast_reward: float = 0.0
    intuition: float = 0.0
    self_eval: float = 0.0
    reward: float = 0.0
    cum_rewards: list[float] = field(default_factory=list)
    children: list[Node] | None = None
    terminal: bool = False
    #: The actions given rather than predicted: the root's legal moves (GameBench's preset actions).
    actions: list[str] | None = None

    @property
    def q(self) -> float:
        if self.state is None:
            return self.fast_reward
        return sum(self.cum_rewards) / len(self.cum_rewards) if self.cum_rewards else 0.0


@dataclass
class Search(Spend):
    """What one decision's search spent and found."""

    #: The model id the server last reported.
    model: str = ""
    #: "logprobs" while the endpoint returns them, "sampling" once it has not.
    probabilities: str = "logprobs"
    move: str | None = None
    cum_reward: float | None = None
    stopped: str = ""


def parse_tagged(reply: str, tag: str) -> str | None:
    """The text between <tag> and </tag> (or to the end when the closing tag is missing); None without the tag."""
    found = re.search(rf"<{tag}>(.*?)(?:</{tag}>|$)", reply, re.S | re.I)
    return found.group(1).strip() if found else None


def parse_actions(reply: str, limit: int) -> list[str]:
    """The predicted actions, one a line between <actions> and </actions>, numbering stripped, first `limit`."""
    block = parse_tagged(reply, "actions")
    if block is None:
        return []
    lines = (_NUMBERED.sub("", line).strip() for line in block.splitlines())
    return list(dict.fromkeys(line for line in lines if line))[:limit]


def top_logprobs_asked(wanted: list[str]) -> int:
    """How many alternatives a probability prompt asks for: one per answer wanted, at most `MAX_TOP_LOGPROBS`."""
    return min(len(wanted), MAX_TOP_LOGPROBS)


def token_probability(top: list[tuple[str, float]], wanted: str) -> float:
    """P(first token is `wanted`): the first alternative spelled like it in any case, normalised over the
    alternatives returned (GameBench's `unnorm_prob` / `p_total`; no other variant is added)."""
    total = sum(math.exp(lp) for _token, lp in top)
    hit = next((math.exp(lp) for token, lp in top if token.lower() == wanted.lower()), 0.0)
    return hit / total if total > 0 else 0.0


def sampled_answer(text: str) -> str:
    """A sampled answer's first word, lower case, without markdown or punctuation ("**Yes.**" → "yes")."""
    found = re.search(r"[A-Za-z]+|\d+", text)
    return found.group(0).lower() if found else ""


def reward(intuition: float, self_eval: float, win: float | None = None) -> float:
    """GameBench's reward (after RAP): intuition + self-evaluation, plus 2·P(win) − 1 once the state is predicted."""
    return intuition + self_eval + (0.0 if win is None else 2 * win - 1)


class Planner:
    """One decision's MCTS; every model call goes through `call`, which keeps the budget and the log."""

    def __init__(self, run: Any, title: str, rules: str) -> None:
        self.run = run
        self.config = run.config
        self.title = title
        self.rules = rules
        self.depth_limit = int(self.config["rap_depth"])
        self.width = int(self.config["rap_actions"])
        self.samples = int(self.config["rap_samples"])
        self.search = Search()
        self._memo: dict[tuple, Any] = {}

    # --- the model ------------------------------------------------------------------------------------------

    def prefix(self, state: str) -> str:
        return PREFIX.format(title=self.title, rules=self.rules.strip(), state=state)

    async def call(self, messages: list[dict], **fields: Any) -> llm_client.Completion:
        """One request within the budget; a provider failure stops the search (the answer path handles outages)."""
        if self.search.calls >= int(self.config["rap_calls"]):
            self.search.stopped = f"the call budget (rap_calls = {self.config['rap_calls']}) ran out"
            raise SearchStopped
        timeout_s = float(self.config["timeout_s"])
        if self.run.deadline is not None:  # `decision_budget_s` bounds the search too
            timeout_s = min(timeout_s, self.run.deadline - time.perf_counter())
            if timeout_s <= 0:
                self.search.stopped = f"the decision budget ({self.config['decision_budget_s']:g} s) ran out"
                raise SearchStopped
        self.search.calls += 1
        request = {**self.run.request(messages), **fields, "messages": messages}
        request.pop("grammar", None)
        result = await llm_client.complete(
            self.run.client,
            request,
            limiter=self.run.limiter,
            timeout_s=timeout_s,
            api_key=self.run.api_key,
        )
        s = self.search
        s.charge(result, self.config)
        s.model = result.model or s.model
        return result

    async def complete(self, kind: str, messages: list[dict], label: str = "") -> str:
        """A prediction's text (memoised per decision, as GameBench caches its calls); "" if unreadable."""
        key = (kind, tuple(m["content"] for m in messages))
        if key not in self._memo:
            tokens = int(self.config.get("max_tokens") or PREDICTION_TOKENS)
            result = await self.call(messages, max_tokens=tokens)
            if not result.ok:
                self.search.stopped = f"a {kind} call failed: {result.verdict} {result.message}"
                raise SearchStopped
            self._memo[key] = result.content
            self.search.log.append(f"## {kind}{label} (call {self.search.calls})\n→ {result.content}")
        return self._memo[key]

    async def probabilities(
        self, kind: str, messages: list[dict], wanted: list[str], label: str = ""
    ) -> dict[str, float]:
        """P(first reply token) for each of `wanted`: from log-probabilities, else by sampling (memoised)."""
        key = (kind, tuple(m["content"] for m in messages))
        if key in self._memo:
            return self._memo[key]
        found = None
        if self.search.probabilities == "logprobs":
            asked = top_logprobs_asked(wanted)
            result = await self.call(messages, max_tokens=1, logprobs=True, top_logprobs=asked)
            if result.ok and result.top_logprobs:
                found = {w: token_probability(result.top_logprobs, w) for w in wanted}
            elif result.ok or not result.transient:  # no log-probabilities, or the endpoint refuses the fields
                self.search.probabilities = "sampling"
                self.search.log.append("## the endpoint returned no log-probabilities: sampling from here on")
            else:
                self.search.stopped = f"a {kind} call failed: {result.verdict} {result.message}"
                raise SearchStopped
        if found is None:
            answers = await self.sample(kind, messages)
            found = {w: sum(a == w.lower() for a in answers) / len(answers) if answers else 0.0 for w in wanted}
        self._memo[key] = found
        shown = ", ".join(f"{w}: {p:.3f}" for w, p in found.items())
        self.search.log.append(f"## {kind}{label} (call {self.search.calls}, {self.search.probabilities})\n→ {shown}")
        return found

    async def sample(self, kind: str, messages: list[dict]) -> list[str]:
        """`rap_samples` answers at temperature 1, asked for as `n` and topped up if the server sends fewer."""
        answers: list[str] = []
        while len(answers) < self.samples:
            want = self.samples - len(answers)
            fields: dict[str, Any] = {"max_tokens": SAMPLE_TOKENS, "temperature": 1.0}
            if want > 1:
                fields["n"] = want
            result = await self.call(messages, **fields)
            if not result.ok:
                self.search.stopped = f"a {kind} call failed: {result.verdict} {result.message}"
                raise SearchStopped
            answers.extend(sampled_answer(text) for text in (result.choices or [result.content])[:want])
        return answers

    # --- Appendix H's prompts -------------------------------------------------------------------------------

    async def predicted_actions(self, state: str) -> list[str]:
        reply = await self.complete(
            "actions",
            _conversation(EXAMPLE + ACTIONS_Q, ACTIONS_EXAMPLE, self.prefix(state) + ACTIONS_Q),
        )
        return parse_actions(reply, self.width)

    async def shortlist(self, state: str, legal: list[str]) -> list[str]:
        ask = SHORTLIST_ASK.format(moves=", ".join(legal), k=self.width)
        reply = await self.complete("shortlist", _conversation(self.prefix(state) + ask))
        chosen = [a for a in parse_actions(reply, len(legal)) if a in legal]
        return list(dict.fromkeys([*chosen, *legal]))[: self.width]  # topped up in the listed order

    async def intuitions(self, state: str, actions: list[str]) -> list[float]:
        listed = "\n".join(f"{i}. {a}" for i, a in enumerate(actions))
        messages = _conversation(self.prefix(state) + SELECT_Q, f"<actions>\n{listed}\n</actions>", SELECT_ASK)
        found = await self.probabilities("intuition", messages, [str(i) for i in range(len(actions))])
        return [found[str(i)] for i in range(len(actions))]

    async def self_evaluation(self, state: str, action: str) -> float:
        messages = _conversation(self.prefix(state) + WRITE_ACTION, action, SELF_EVAL_ASK)
        return (await self.probabilities("self-evaluation", messages, YES_NO, f" of {action}"))["yes"]

    async def others(self, state: str) -> str:
        reply = await self.complete(
            "others", _conversation(EXAMPLE + OTHERS_Q, OTHERS_EXAMPLE, self.prefix(state) + OTHERS_Q)
        )
        return parse_tagged(reply, "others") or NO_OTHERS

    async def next_state(self, state: str, action: str, others: str) -> str:
        messages = _conversation(
            EXAMPLE + WRITE_ACTION,
            "I will choose the left door",
            "Write other player's actions below:",
            "My opponent will reveal the middle door",
            STATE_Q,
            STATE_EXAMPLE,
            self.prefix(state) + WRITE_ACTION,
            action,
            WRITE_OTHERS,
            others,
            STATE_Q,
        )
        return parse_tagged(await self.complete("state", messages, f" after {action}"), "state") or NO_STATE

    async def win_probability(self, state: str) -> float:
        return (await self.probabilities("win", _conversation(self.prefix(state) + WIN_ASK), YES_NO))["yes"]

    # --- llm-reasoners' MCTS --------------------------------------------------------------------------------

    async def expand(self, node: Node) -> None:
        """Predict the node's state and reward (world model: others' actions, next state, P(win)), then its children."""
        if node.state is None:
            parent = node.parent
            others = await self.others(parent.state)
            node.state = await self.next_state(parent.state, node.action, others)
            node.reward = reward(node.intuition, node.self_eval, await self.win_probability(node.state))
            node.terminal = node.depth >= self.depth_limit
        if node.terminal or node.children is not None:
            return
        actions = node.actions if node.actions is not None else await self.predicted_actions(node.state)
        intuitions = await self.intuitions(node.state, actions) if actions else []
        children = []
        for action, intuition in zip(actions, intuitions, strict=True):
            self_eval = await self.self_evaluation(node.state, action)
            child = Node(action, node, node.depth + 1, intuition=intuition, self_eval=self_eval)
            child.fast_reward = child.reward = reward(intuition, self_eval)  # unexpanded: its fast reward
            children.append(child)
        node.children = children

    def select(self, root: Node) -> list[Node]:
        path, node = [], root
        while True:
            path.append(node)
            if not node.children or node.terminal or node.depth >= self.depth_limit:
                return path
            parent_visits = len(node.cum_rewards)
            node = max(
                node.children,
                key=lambda c: (
                    c.q + EXPLORATION * math.sqrt(math.log(parent_visits) / max(1, len(c.cum_rewards)))
                    if parent_visits
                    else c.q
                ),
            )

    async def simulate(self, path: list[Node]) -> None:
        node = path[-1]
        while True:
            if node.state is None:
                await self.expand(node)
            if node.terminal or node.depth >= self.depth_limit or not node.children:
                return
            node = max(node.children, key=lambda c: c.fast_reward)  # the first of equals, as numpy's argmax
            path.append(node)

    @staticmethod
    def back_propagate(path: list[Node]) -> None:
        below = 0.0
        for node in reversed(path):
            below += node.reward
            node.cum_rewards.append(below)

    def best_trajectory(self, node: Node, total: float = 0.0) -> tuple[float, list[Node]]:
        """llm-reasoners' `max_reward` output: the path to a terminal node with the highest sum of rewards."""
        if node.terminal:
            return total, [node]
        visited = [c for c in node.children or [] if c.state is not None]
        best = (-math.inf, [node])
        for child in visited:
            value, path = self.best_trajectory(child, total + child.reward)
            if value > best[0]:
                best = (value, [node, *path])
        return best

    async def run_search(self, root_state: str, legal: list[str]) -> Search:
        """Search from the real observation with the real legal moves at the root; `search.move` is the move."""
        root = Node(None, None, 0, state=root_state)
        try:
            root.actions = legal if len(legal) <= self.width else await self.shortlist(root_state, legal)
            for _ in range(int(self.config["rap_iterations"])):
                path = self.select(root)
                leaf = path[-1]
                if not (leaf.terminal or leaf.depth >= self.depth_limit):
                    await self.expand(leaf)
                    await self.simulate(path)
                self.back_propagate(path)
        except SearchStopped:
            self.search.log.append(f"## search stopped: {self.search.stopped}")
        value, path = self.best_trajectory(root)
        if len(path) > 1 and value > -math.inf:
            self.search.move, self.search.cum_reward = path[1].action, value
        elif root.children:  # no trajectory reached the depth limit: the root's best estimate
            best = max(root.children, key=lambda c: c.q)
            self.search.move, self.search.cum_reward = best.action, best.q
        self.search.log.append(self.tree_text(root))
        return self.search

    @staticmethod
    def tree_text(root: Node) -> str:
        """The root's actions with their rewards and visits, for the decision's reasoning text."""
        lines = ["## root actions (fast reward, reward, visits, Q)"]
        for child in root.children or []:
            reward_text = f"{child.reward:.3f}" if child.state is not None else "—"
            lines.append(
                f"- {child.action}: {child.fast_reward:.3f}, {reward_text}, {len(child.cum_rewards)}, {child.q:.3f}"
            )
        return "\n".join(lines)


def _conversation(*turns: str) -> list[dict[str, str]]:
    """Alternating user and assistant messages, user first (GameBench's context templates)."""
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": text} for i, text in enumerate(turns)]
