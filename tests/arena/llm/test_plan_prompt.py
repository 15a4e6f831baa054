"""Plan games: models write their own plans from the tables, budget and format; nothing is offered as a list."""

from __future__ import annotations

import json

import pytest

from arena.agents.llm.agent import LLMAgent
from arena.agents.llm.prompts import PROMPT_VERSION
from games import get_game
from games.plan_game import canonical
from tests.arena.llm.scripted_server import Reply

PLAN_GAMES = ["tower-defense", "battle-card", "attribute-battle"]


def prompt_text(scripted, index: int = 0) -> str:
    return "\n".join(m["content"] for m in scripted.chat_requests()[index].body["messages"])


@pytest.mark.parametrize("slug", PLAN_GAMES)
async def test_the_prompt_gives_format_and_one_marked_example_but_no_list(scripted, llm_config, slug):
    game = get_game(slug)
    state = game.initial_state(seed=3)
    listed = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    scripted.push(Reply(content=f"My plan:\n{listed[0]}"))
    await LLMAgent({**llm_config, "scaffold": "cot"}).decide(game, state, 0, 7)
    text = prompt_text(scripted)
    assert "Legal moves" not in text
    assert "exactly as listed" not in text
    assert "Plan format (JSON Schema)" in text
    assert "For illustration only, one valid plan" in text
    # Of the sample plans kept for bots and the UI, only the one example is shown, and marked as such.
    assert sum(plan in text for plan in listed) <= 1
    assert PROMPT_VERSION == "3"


async def test_a_plan_of_the_models_own_is_judged_by_the_rules(scripted, llm_config):
    game = get_game("tower-defense")
    state = game.initial_state(seed=3)
    # The attacker's own plan, in no list: two demons in rows 0 and 4.
    own = {"units": [{"unit": "NormalDemon", "y": 0, "time": 0}, {"unit": "NormalDemon", "y": 4, "time": 3}]}
    listed = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    assert canonical(own) not in listed
    over = {"units": [{"unit": "NormalDemon", "y": 0, "time": 0}] * 60}  # far over the 1,000 budget
    scripted.push(Reply(content=json.dumps(own)))
    result = await LLMAgent(llm_config).decide(game, state, 0, 7)
    assert result.attempts[0].verdict == "ok"
    assert json.loads(result.action) == own
    # An over-budget plan is a plan: the game accepts it as a move and forfeits the leg by its rules.
    scripted.push(Reply(content=json.dumps(over)))
    result = await LLMAgent(llm_config).decide(game, state, 0, 7)
    assert result.attempts[0].verdict == "ok"
    assert game.check(result.action, 0, dict(state.options)).plan is None
