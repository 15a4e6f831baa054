"""`rap`: GameBench's Reasoning via Planning (App. G and H): an MCTS with the model as world model picks the move
(`rap_search.py`); when the search finds none, and for plan games (a plan is written whole, not searched), the
model answers as under `direct`."""

from __future__ import annotations

from typing import Any

from arena.agents.base import AttemptData
from arena.agents.llm.prompts import prompt_budget
from arena.agents.llm.scaffolds.base import Conversation, Scaffold
from arena.agents.llm.scaffolds.direct import Direct
from arena.agents.llm.scaffolds.rap_search import Planner
from games import Game

TITLE = "RAP search"


class Rap(Scaffold):
    name = "rap"
    #: MCTS iterations, depth, actions per position, samples per probability when the endpoint gives no
    #: log-probabilities, and a hard cap on the search's calls.
    limits = {
        "rap_iterations": (1, 20),
        "rap_depth": (1, 3),
        "rap_actions": (2, 10),
        "rap_samples": (1, 10),
        "rap_calls": (4, 400),
    }

    def instruction(self, game: Game) -> str | None:
        """The observation only, for the search's prompts: they ask their own questions (`rap_search.py`)."""
        return super().instruction(game) if game.document_actions else None

    def conversation(
        self, game: Game, state: Any, seat: int, *, legal_texts: list[str], config: dict[str, Any]
    ) -> Conversation:
        """`direct`'s: the answer when the search finds no move."""
        return Direct().conversation(game, state, seat, legal_texts=legal_texts, config=config)

    async def decide(self, run: Any) -> Any:
        game, state = run.game, run.state
        if game.document_actions:
            return await super().decide(run)
        planner = Planner(run, game.name, game.rules_text())
        [_system, user] = self.first_messages(
            game,
            state,
            run.seat,
            legal_texts=run.legal_texts,
            legal_list=False,
            budget_tokens=prompt_budget(run.config),
        )
        observation = user["content"]
        search = await planner.run_search(observation, run.legal_texts)
        if search.move is None:
            action = await run.play(run.conversation.opening)
            if run.attempts:
                run.charge(run.attempts[0], search, TITLE)
            return action
        # The search picks the move (GameBench App. G).
        chosen = AttemptData(
            verdict="ok",
            raw_text=f"Answer: {search.move}",
            parsed_action=search.move,
            messages=[{"role": "user", "content": planner.prefix(observation)}],
            model_reported=search.model[:200],
        )
        run.charge(chosen, search, TITLE)
        run.attempts.append(chosen)
        return run.legal[run.legal_texts.index(search.move)]
