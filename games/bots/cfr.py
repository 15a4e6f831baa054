"""CFR+ and exact best responses for the small fixed-limit poker games (Kuhn, Leduc), in numpy.

The game tree is walked once per iteration over *public* nodes (the betting so far), with every
array indexed by the board card (axis 0; size 1 before the board is dealt) and the private card
of a player (axis 1), so one public node holds all of a player's information sets at once. Ranks
stand for cards: suits never matter in these games, and the chance weights count the copies of
each rank left in the deck (card removal).

Positions, not seats: position 0 opens every round of a hand. A strategy is a dict from an
information-set key `"<own rank><board rank>:<actions>"` (e.g. `"Q:cr"`, `"QK:rc/c"`) to the
probabilities of the legal actions in `legal_codes` order (check/call before bet/raise, fold first
when facing a bet).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.limit_poker import CALL, FOLD, RAISE, ROUND_BREAK, LimitSpec, hand_status

Strategy = dict[str, tuple[float, ...]]


def legal_codes(spec: LimitSpec, actions: str) -> str:
    """The action codes open at a hand's decision point, in the fixed order strategies use."""
    status = hand_status(spec, actions, 0)
    if status.facing:
        return FOLD + CALL + (RAISE if status.bets < spec.max_bets else "")
    return CALL + RAISE


@dataclass
class Node:
    actions: str
    kind: str  # "decision", "fold", "showdown" or "deal" (the board card comes next)
    player: int = -1  # position to act at a decision
    codes: str = ""
    children: list[Node] = field(default_factory=list)
    contributed: tuple[int, int] = (0, 0)
    folded: int = -1


def build_tree(spec: LimitSpec, actions: str = "") -> Node:
    """The public tree of one hand from `actions` on."""
    status = hand_status(spec, actions, 0)
    if status.folded is not None:
        return Node(actions, "fold", contributed=status.contributed, folded=status.folded)
    if status.showdown:
        return Node(actions, "showdown", contributed=status.contributed)
    if status.round > actions.count(ROUND_BREAK):
        return Node(actions, "deal", children=[build_tree(spec, actions + ROUND_BREAK)])
    codes = legal_codes(spec, actions)
    node = Node(actions, "decision", player=status.to_act, codes=codes)
    node.children = [build_tree(spec, actions + code) for code in codes]
    return node


class Solver:
    """CFR+ (alternating updates, regret clipping, linearly weighted average) on one LimitSpec."""

    def __init__(self, spec: LimitSpec) -> None:
        self.spec = spec
        self.n = len(spec.ranks)
        copies = np.full(self.n, max(len(spec.suits), 1), dtype=float)
        total = copies.sum()
        same = np.eye(self.n)
        # P(position 0 holds rank i, position 1 holds rank j), with card removal.
        self.private = copies[:, None] * (copies[None, :] - same) / (total * (total - 1))
        self.has_board = spec.rounds > 1
        if self.has_board:
            # P(board rank k | i, j), shape (k, i, j).
            left = np.stack([copies[k] - same[k][:, None] - same[k][None, :] for k in range(self.n)])
            self.board_given = np.clip(left, 0, None) / (total - 2)
        self.tree = build_tree(spec)
        self.showdown_sign = {1: self._showdown_utility(1), self.n: self._showdown_utility(self.n)}
        self.regrets: dict[str, np.ndarray] = {}
        self.average: dict[str, np.ndarray] = {}
        self.iterations = 0

    # -- the walk ---------------------------------------------------------------------------

    def _strategy(self, node: Node, boards: int) -> np.ndarray:
        regrets = self.regrets.setdefault(node.actions, np.zeros((boards, self.n, len(node.codes))))
        positive = np.maximum(regrets, 0.0)
        total = positive.sum(axis=2, keepdims=True)
        uniform = np.full_like(positive, 1.0 / len(node.codes))
        return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)

    def average_strategy_at(self, node: Node, boards: int) -> np.ndarray:
        total = self.average.get(node.actions)
        if total is None:
            return np.full((boards, self.n, len(node.codes)), 1.0 / len(node.codes))
        norm = total.sum(axis=2, keepdims=True)
        return np.where(norm > 0, total / np.where(norm > 0, norm, 1.0), 1.0 / len(node.codes))

    def _walk(self, node: Node, chance: np.ndarray, reach: list[np.ndarray], mode: str, player: int):
        """Counterfactual values (v0, v1), each (boards, n), of the subtree for both positions.

        `chance` is (boards, n, n): P(cards, board) for every deal; `reach` the positions' own
        reach probabilities, (boards, n). `mode` is "cfr" (update `player`), "br" (`player`
        best-responds to the average strategy) or "avg" (both play the average strategy).
        """
        if node.kind in ("fold", "showdown"):
            if node.kind == "fold":
                payoff = node.contributed[1] if node.folded == 1 else -node.contributed[0]
                utility = np.full((self.n, self.n), float(payoff))
            else:
                pot = node.contributed[0]  # equal at a showdown
                utility = self.showdown_sign[chance.shape[0]] * pot
            weighted = chance * utility
            v0 = np.einsum("bij,bj->bi", weighted, reach[1])
            v1 = -np.einsum("bij,bi->bj", weighted, reach[0])
            return v0, v1
        if node.kind == "deal":
            boards = self.n
            dealt_chance = chance * self.board_given  # (1, n, n) * (k, n, n)
            dealt_reach = [np.broadcast_to(r, (boards, self.n)).copy() for r in reach]
            v0, v1 = self._walk(node.children[0], dealt_chance, dealt_reach, mode, player)
            return v0.sum(axis=0, keepdims=True), v1.sum(axis=0, keepdims=True)
        boards = chance.shape[0]
        p = node.player
        strategy = self._strategy(node, boards) if mode == "cfr" else self.average_strategy_at(node, boards)
        child_values = []
        for index, child in enumerate(node.children):
            child_reach = list(reach)
            if not (mode == "br" and p == player):
                child_reach[p] = reach[p] * strategy[:, :, index]
            child_values.append(self._walk(child, chance, child_reach, mode, player))
        mine = np.stack([values[p] for values in child_values], axis=2)  # (boards, n, actions)
        other = sum(values[1 - p] for values in child_values)
        value = mine.max(axis=2) if mode == "br" and p == player else (strategy * mine).sum(axis=2)
        if mode == "cfr" and p == player:
            regrets = self.regrets[node.actions]
            np.maximum(regrets + mine - value[:, :, None], 0.0, out=regrets)
            average = self.average.setdefault(node.actions, np.zeros_like(strategy))
            average += self.iterations * reach[p][:, :, None] * strategy
        return (value, other) if p == 0 else (other, value)

    def _showdown_utility(self, boards: int) -> np.ndarray:
        """+1 where position 0 wins, -1 where it loses, 0 on ties: (boards, i, j)."""
        ranks = np.arange(self.n)
        higher = np.sign(ranks[:, None] - ranks[None, :]).astype(float)
        if boards == 1:
            return higher[None]
        out = np.empty((boards, self.n, self.n))
        for k in range(boards):
            pair0 = (ranks == k)[:, None]
            pair1 = (ranks == k)[None, :]
            out[k] = np.where(pair0 & ~pair1, 1.0, np.where(pair1 & ~pair0, -1.0, higher))
        return out

    def _root(self):
        return self.private[None], [np.ones((1, self.n)), np.ones((1, self.n))]

    # -- public API ---------------------------------------------------------------------------

    def run(self, iterations: int) -> Solver:
        """Run `iterations` more CFR+ iterations."""
        for _ in range(iterations):
            self.iterations += 1
            for player in (0, 1):
                chance, reach = self._root()
                self._walk(self.tree, chance, reach, "cfr", player)
        return self

    def value(self) -> float:
        """Position 0's expected chips per hand when both play the average strategy."""
        chance, reach = self._root()
        v0, _ = self._walk(self.tree, chance, reach, "avg", 0)
        return float(v0.sum())

    def best_response_values(self) -> tuple[float, float]:
        """What a best response to the average strategy wins per hand, in position 0 and in position 1."""
        out = []
        for player in (0, 1):
            chance, reach = self._root()
            values = self._walk(self.tree, chance, reach, "br", player)
            out.append(float(values[player].sum()))
        return out[0], out[1]

    def exploitability(self) -> float:
        """Mean of the two best-response values: 0 for a Nash equilibrium, in chips per hand."""
        first, second = self.best_response_values()
        return (first + second) / 2

    def strategy_table(self, digits: int | None = None) -> Strategy:
        """The average strategy as `{info-set key: probabilities}`, rounded to `digits` if given."""
        table: Strategy = {}

        def visit(node: Node, boards: int) -> None:
            if node.kind == "deal":
                visit(node.children[0], self.n)
                return
            if node.kind != "decision":
                return
            strategy = self.average_strategy_at(node, boards)
            for k in range(boards):
                board = self.spec.ranks[k] if boards > 1 else ""
                for i, rank in enumerate(self.spec.ranks):
                    probabilities = (float(p) for p in strategy[k, i])
                    if digits is not None:
                        probabilities = (round(p, digits) for p in probabilities)
                    table[f"{rank}{board}:{node.actions}"] = tuple(probabilities)
            for child in node.children:
                visit(child, boards)

        visit(self.tree, 1)
        return table


def evaluate_table(spec: LimitSpec, table: Strategy) -> Solver:
    """A solver whose average strategy is `table` (for exact values and best responses of a given table)."""
    solver = Solver(spec)

    def load(node: Node, boards: int) -> None:
        if node.kind == "deal":
            load(node.children[0], solver.n)
            return
        if node.kind != "decision":
            return
        probabilities = np.zeros((boards, solver.n, len(node.codes)))
        for k in range(boards):
            board = spec.ranks[k] if boards > 1 else ""
            for i, rank in enumerate(spec.ranks):
                probabilities[k, i] = table[f"{rank}{board}:{node.actions}"]
        solver.average[node.actions] = probabilities
        for child in node.children:
            load(child, boards)

    load(solver.tree, 1)
    return solver


def info_set_key(own_card: str, board_card: str, actions: str) -> str:
    """The strategy-table key of a decision: ranks only (suits never matter)."""
    return f"{own_card[0]}{board_card[:1]}:{actions}"
