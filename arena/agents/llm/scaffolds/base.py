"""What a scaffold is: how one decision's prompts are written, sampled, searched and read (docs/llm.md).

A `Scaffold` is stateless and shared by every decision of its agents. For one decision it opens a `Conversation`
(the opening messages, how a reply is read, the re-prompt after an invalid one) and `decide`s, asking the
decision's run (`arena.agents.llm.agent`) for the model's tries. `Standard` is Arena's own conversation
(arena/agents/llm/prompts.py); BotzoneBench's Appendix C prompts are the other (`scaffolds/botzone/`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from arena.agents.llm.parsing import Parsed, parse_reply
from arena.agents.llm.prompts import (
    ANSWER_FORMAT,
    PLAN_FORMAT,
    feedback_messages,
    first_messages,
    fit_retry,
    prompt_budget,
)
from games import Game

#: The user prompt's last line for scaffolds that answer at once.
ONE_LINE = "Answer with one line: `Answer: <move>`."


class Conversation(Protocol):
    """One decision's exchange with the model, as a scaffold writes and reads it."""

    #: The system and user messages the first try sends.
    opening: list[dict[str, str]]

    def parse(self, reply: str) -> Parsed:
        """The reply's move: verdict ok, unparseable or illegal."""

    def retry(self, messages: list[dict], reply: str, parsed: Parsed) -> list[dict]:
        """The messages of the next try after `messages` drew the invalid `reply`."""


@dataclass
class Standard:
    """Arena's conversation: the generic prompt, the tolerant reader, the reply quoted back with what was wrong."""

    game: Game
    state: Any
    legal_texts: list[str]
    legal_list: bool
    budget_tokens: int | None
    opening: list[dict[str, str]]

    def parse(self, reply: str) -> Parsed:
        return parse_reply(self.game, self.state, reply, self.legal_texts)

    def retry(self, messages: list[dict], reply: str, parsed: Parsed) -> list[dict]:
        feedback = feedback_messages(
            reply,
            parsed.message,
            legal_texts=self.legal_texts,
            legal_list=self.legal_list,
            plan=self.game.document_actions,
        )
        return fit_retry(messages + feedback, self.budget_tokens)


class Scaffold:
    """How an agent's decisions are prompted; subclasses change the answer lines, sampling, request or search."""

    #: The name stored in an agent's config (`llm_config.SCAFFOLDS`).
    name: ClassVar[str]
    #: Its answers are held to the legal moves by a grammar, so even a small model makes its own moves.
    constrained: ClassVar[bool] = False
    #: The whole-number config fields bounding its search, each (lowest, highest) (docs/operations.md).
    limits: ClassVar[dict[str, tuple[int, int]]] = {}

    def reply_format(self) -> str:
        """The system prompt's last paragraph, for a game whose moves are listed (plan games have their own)."""
        return ANSWER_FORMAT

    def instruction(self, game: Game) -> str | None:
        """The user prompt's last paragraph; None leaves the observation last."""
        return PLAN_FORMAT if game.document_actions else ONE_LINE

    def first_messages(
        self,
        game: Game,
        state: Any,
        seat: int,
        *,
        legal_texts: list[str],
        legal_list: bool = True,
        budget_tokens: int | None = None,
    ) -> list[dict[str, str]]:
        """Arena's opening messages with this scaffold's answer lines, fitted to `budget_tokens` if given."""
        return first_messages(
            game,
            state,
            seat,
            reply_format=self.reply_format(),
            instruction=self.instruction(game),
            legal_texts=legal_texts,
            legal_list=legal_list,
            budget_tokens=budget_tokens,
        )

    def conversation(
        self, game: Game, state: Any, seat: int, *, legal_texts: list[str], config: dict[str, Any]
    ) -> Conversation:
        """The decision's conversation, opened once."""
        budget = prompt_budget(config)
        legal_list = config["legal_list"]
        opening = self.first_messages(
            game, state, seat, legal_texts=legal_texts, legal_list=legal_list, budget_tokens=budget
        )
        return Standard(game, state, legal_texts, legal_list, budget, opening)

    def samples(self, config: dict[str, Any]) -> int:
        """Answers drawn per try (all of them attempts; the majority legal one is played)."""
        return 1

    def request_fields(self, game: Game, legal_texts: list[str]) -> dict[str, Any]:
        """Fields this scaffold adds to every answer request."""
        return {}

    async def decide(self, run: Any) -> Any:
        """The decision's action, None when out of tries; the attempts are `run.attempts`."""
        return await run.play(run.conversation.opening)
