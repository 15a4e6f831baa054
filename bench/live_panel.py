"""One live panel drawn over and over: Python function calls per render (deterministic) and its time.

A connect-four match against Lv0 after `--plies` moves, the person's view at their turn (the panel a
player's own move brings back), drawn by `live_match_html` as a websocket page draws it. The function
calls are counted by cProfile over 100 renders; the time is the median of 5 batches without the profiler.
Runs on any tree of this project (copy it into an older tree's bench/ to compare).

Usage: .venv/bin/python bench/live_panel.py [--plies 8] [--renders 300]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from _django import setup_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--renders", type=int, default=300, help="Renders per timed batch.")
    args = parser.parse_args()
    if args.plies % 2:
        parser.error("--plies must be even: the panel drawn is the person's, at their turn")
    setup_django()
    from django.contrib.auth.models import User

    from arena.pages.rendering import live_match_html
    from arena.record.agents import bots_ensure
    from arena.record.people import person_agent_for_user, person_move
    from arena.record.services import decision_record, match_create
    from arena.record.turns import AwaitingPerson, match_claim
    from games import get_game

    game = get_game("connect-four")
    person = person_agent_for_user(user=User.objects.create_user("pat", password="pw-123456"))
    bot = {agent.slug: agent for agent in bots_ensure(game="connect-four")}["connect-four-lv0"]
    # The person moves first: the match starts held by nobody, each person's move hands it to this process's
    # runner "w" for the bot's reply, and the reply hands it back to nobody, as live play records them.
    claim = match_claim(match_id=match_create(game="connect-four", agents=[person, bot], seed=1).pk, worker="w")
    assert isinstance(claim, AwaitingPerson), claim
    match = claim.match
    for ply in range(args.plies):  # columns a, b, c … in turn: no four in a row in the first 12 plies
        if ply % 2 == 0:
            text = game.action_to_text(game.from_json(match.state), ply % 7)
            match = person_move(match_id=match.pk, agent=person, text=text, ply=ply, runner="w").match
        else:
            match = decision_record(match=match, ply=ply, action=ply % 7, worker="w", release_to={0})
    assert "Your move." in live_match_html(match, person)  # also warms the kept rows, labels and seats
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(100):
        live_match_html(match, person)
    profile.disable()
    calls = pstats.Stats(profile).total_calls / 100
    batches = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(args.renders):
            live_match_html(match, person)
        batches.append(1000 * (time.perf_counter() - started) / args.renders)
    print(f"connect four after {args.plies} plies, the person's view: {calls:,.0f} calls per render")
    print(f"ms per render: {', '.join(f'{batch:.3f}' for batch in batches)} (median {statistics.median(batches):.3f})")
    print(f"figure live_panel_calls_per_render {calls:.0f} calls")
    print(f"figure live_panel_ms_per_render {statistics.median(batches):.3f} ms")


if __name__ == "__main__":
    main()
