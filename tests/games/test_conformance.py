"""The game contract (games/base.py), checked for every registered game over many seeds."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalAction, all_games, get_game
from games.bots import get_bot, ladder
from games.registry import GAMES
from tests.sampled import sampled

#: Seeds per game: `make test` plays them all, `make check` the first.
SEEDS = range(12)
MAX_PLIES = 5000


def playout(game, seed: int):
    """A random game from `seed`: the list of (state, action) pairs and the final state."""
    rng = random.Random(seed)
    state = game.initial_state(seed=seed)
    history = []
    while game.current_player(state) is not None:
        assert len(history) < MAX_PLIES, "random playout did not terminate"
        action = game.random_action(state, rng)
        history.append((state, action))
        state = game.apply(state, action)
    return history, state


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return get_game(request.param)


VARIANTS = sorted((slug, name) for slug in GAMES for name in get_game(slug).variants)


@pytest.mark.parametrize(("slug", "variant"), VARIANTS)
@pytest.mark.parametrize("seed", sampled(SEEDS[:4], {0}))
def test_every_variant_plays_out_within_the_contract(slug, variant, seed):
    """A variant's random games end with an outcome, every action round-trips through its text and every state
    through JSON, as the standard rules' do."""
    game, rng = get_game(slug), random.Random(seed)
    state = game.initial_state(seed=seed, **game.variants[variant])
    for _ in range(MAX_PLIES):
        if game.current_player(state) is None:
            break
        action = game.random_action(state, rng)
        assert game.parse_action(state, game.action_to_text(state, action)) == action
        state = game.apply(state, action)
        assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state
    assert game.outcome(state) is not None, "random playout did not terminate"
    game.full_view(state)


def test_registry_slugs_match_games():
    assert [g.slug for g in all_games()] == list(GAMES)


def test_every_registered_game_has_its_ladder_beside_it(game):
    bots = ladder(game.slug)
    assert len(bots) >= 2
    assert [bot.slug for bot in bots] == [f"{game.slug}-lv{level}" for level in range(len(bots))]
    assert get_bot(f"{game.slug}-lv0") == bots[0]


@pytest.mark.parametrize("seed", sampled(SEEDS, {0}))
def test_random_playout_terminates_with_outcome(game, seed):
    history, final = playout(game, seed)
    outcome = game.outcome(final)
    assert outcome is not None
    assert len(outcome.scores) == game.num_players
    assert all(score in (0.0, 0.5, 1.0) for score in outcome.scores)
    assert outcome.reason
    assert game.legal_actions(final) == []
    for state, _ in history:
        assert game.outcome(state) is None


@pytest.mark.parametrize("seed", sampled(SEEDS, {0}))
def test_json_round_trip_is_exact(game, seed):
    history, final = playout(game, seed)
    for state, action in [*history[::7], (final, None)]:
        data = game.to_json(state)
        assert json.loads(json.dumps(data)) == data, "to_json must produce plain JSON"
        assert game.from_json(json.loads(json.dumps(data))) == state
        if action is not None:
            encoded = json.loads(json.dumps(game.action_to_json(action)))
            assert game.action_from_json(encoded) == action


@pytest.mark.parametrize("seed", sampled(SEEDS[:4], {0}))
def test_apply_does_not_mutate(game, seed):
    history, _ = playout(game, seed)
    for state, action in history[::5]:
        before = json.dumps(game.to_json(state), sort_keys=True)
        game.apply(state, action)
        assert json.dumps(game.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("seed", sampled(SEEDS[:4], {0}))
def test_same_seed_same_game(game, seed):
    first = [game.to_json(s) for s, _ in playout(game, seed)[0]]
    second = [game.to_json(s) for s, _ in playout(game, seed)[0]]
    assert first == second
    assert game.to_json(game.initial_state(seed=seed)) == game.to_json(game.initial_state(seed=seed))


@pytest.mark.parametrize("seed", sampled(SEEDS[:4], {0}))
def test_replay_from_text_reproduces_final_state(game, seed):
    history, final = playout(game, seed)
    state = game.initial_state(seed=seed)
    for recorded, action in history:
        text = game.action_to_text(recorded, action)
        parsed = game.parse_action(state, text)
        assert parsed == action, f"{text!r} parsed as {parsed!r}, expected {action!r}"
        state = game.apply(state, parsed)
    assert state == final
    assert game.outcome(state) == game.outcome(final)


@pytest.mark.parametrize("seed", sampled(SEEDS[:3], {0}))
def test_every_legal_action_has_text_and_cells(game, seed):
    history, _ = playout(game, seed)
    for state, _ in history[::9]:
        texts = [game.action_to_text(state, a) for a in game.legal_actions(state)]
        assert len(set(texts)) == len(texts), "two legal actions share a notation"
        for action in game.legal_actions(state):
            assert game.is_legal(state, action)
            cells = game.action_cells(state, action)
            assert cells
            assert all(isinstance(c, str) and c for c in cells)


def test_illegal_actions_raise_readable_errors(game):
    history, final = playout(game, 3)
    state = history[0][0]
    with pytest.raises(IllegalAction) as error:
        game.parse_action(state, "this is not a move")
    assert str(error.value)
    with pytest.raises(IllegalAction, match="over"):
        game.apply(final, history[-1][1])


def test_apply_rejects_an_action_illegal_in_this_state(game):
    """An action legal in some state but not this one raises, and the state is unchanged."""
    history, _ = playout(game, 5)
    for (_earlier, action), (later, _) in zip(history, history[2:], strict=False):
        if not game.is_legal(later, action):
            before = game.to_json(later)
            with pytest.raises(IllegalAction):
                game.apply(later, action)
            assert game.to_json(later) == before
            return
    pytest.skip("every action stayed legal (not expected for board games)")


def test_texts_for_people_and_models(game):
    state = game.initial_state(seed=0)
    assert len(game.rules_text()) > 100
    for seat in range(game.num_players):
        assert game.observation_text(state, seat)
    assert game.seat_names
    assert len(game.seat_names) == game.num_players
    assert game.name
    assert game.version


def test_only_games_flagged_hidden_teams_deal_their_teams(game):
    """Tournaments seat entrants by `team_of` on a fresh state unless `hidden_teams`: it must then be the same for
    every deal, or who sits where would tell who is on which team."""
    sides = {tuple(game.team_of(game.initial_state(seed=seed), s) for s in range(game.num_players)) for seed in SEEDS}
    assert (len(sides) > 1) == game.hidden_teams, sides


def test_rng_is_derived_from_state(game):
    state = game.initial_state(seed=11)
    assert game.rng(state).random() == game.rng(game.from_json(game.to_json(state))).random()


@pytest.mark.parametrize("seed", sampled(SEEDS[:2], {0}))
def test_turns_split_the_plies_played(game, seed):
    """A replay steps by `turns`: they must cover every ply so far, in order, and only grow as the game goes on."""
    history, final = playout(game, seed)
    states = [state for state, _ in history[::7]] + [final]
    plies = [*list(range(0, len(history), 7)), len(history)]
    previous: list = []
    for state, ply in zip(states, plies, strict=True):
        turns = game.turns(state)
        if turns:
            assert sum(count for _, count in turns) == ply
            assert all(name and count > 0 for name, count in turns)
            assert turns[: len(previous) - 1] == previous[:-1]  # only the turn under way may still change
        previous = turns
