"""Reports: each paper's tables checked by hand on small records, and what their cells say."""

from __future__ import annotations

import math

import numpy as np
import pytest

from games import get_game
from ratings.maths import process_metrics as pm
from ratings.record.report_record import Result
from ratings.record.reports import advgamebench, botzonebench, dsgbench, gamebench, star
from ratings.record.reports.base import ReportFilters
from ratings.record.reports.render import cell_text

NONE = ReportFilters()


def test_gamebench_bradley_terry_by_hand_with_a_thin_cell():
    # A beats B three times and loses once: the MLE strength gap is ln 3, mean zero → A = ln 3 / 2.
    rows = [Result(m, "chess", ("A", "B"), (0, 1), (s, 1 - s)) for m, s in zip(range(1, 5), (1, 1, 1, 0), strict=True)]
    cells = gamebench.ratings(rows, rounds=50, rng=np.random.default_rng(0), minimum=10)
    a = cells["A"]["chess"]
    assert a.value == pytest.approx(math.log(3) / 2, abs=1e-4)
    assert cells["B"]["chess"].value == pytest.approx(-math.log(3) / 2, abs=1e-4)
    assert (a.n, a.matches, a.note) == (4, (1, 2, 3, 4), "thin")  # 4 matches < 10: shown, marked thin
    (figure, _table_2, radar) = gamebench.tables(rows, filters=NONE, rounds=50)
    assert figure.level == 0.90
    assert figure.columns == ["chess"]
    assert radar.rows == [("A", []), ("B", [])]  # the radar leaves thin cells out: no category has data


def test_gamebench_overall_pools_only_the_papers_nine_games():
    # A and B split hive and pit 1–1 each; on battle-card (not one of GameBench's nine) A wins all four.
    rows = [
        Result(m, game, ("A", "B"), (0, 1), (s, 1 - s))
        for m, (game, s) in enumerate(
            [("hive", 1), ("hive", 0), ("pit", 1), ("pit", 0), *[("battle-card", 1)] * 4], start=1
        )
    ]
    cells = gamebench.ratings(rows, rounds=50, rng=np.random.default_rng(0), minimum=1)
    assert cells["A"]["overall"].value == pytest.approx(0.0, abs=1e-4)  # the battle-card wins stay out of it
    assert cells["A"]["overall"].matches == (1, 2, 3, 4)
    assert "battle-card" in cells["A"]
    (figure, table_2, _radar) = gamebench.tables(rows, filters=NONE, rounds=50)
    assert figure.columns == ["battle-card", "hive", "pit", "overall"]
    overall = dict(table_2.rows)["A"][figure.columns.index("overall")]
    assert (overall.value, overall.n) == (0.5, 4)


def test_advgamebench_table_1_is_per_game_and_pools_only_in_overall():
    def rec(match, game_round, won):
        return pm.RoundRecord(agent="a", match=(match, "attacker"), round=game_round, won=won)

    # Tower defense (match 1): won round 1, lost round 2. Battle card (match 2): lost both.
    records = [rec(1, 1, True), rec(1, 2, False), rec(2, 1, False), rec(2, 2, False)]
    tables = {t.key: t for t in advgamebench.tables(records, {1: "tower-defense", 2: "battle-card"}, filters=NONE)}
    per_game = dict(tables["table-1"].rows)
    assert per_game["a · tower-defense"][0].value == 0.5
    assert per_game["a · tower-defense"][0].matches == (1,)
    assert per_game["a · battle-card"][0].value == 0.0
    assert per_game["a · battle-card"][0].n == 2
    overall = dict(tables["table-1-overall"].rows)["a"]
    assert (overall[0].value, overall[0].n) == (0.25, 4)
    # ORR: of the failed rounds only match 2's round 1 has a next round (not revised): 0 / 1.
    assert (overall[2].value, overall[2].n) == (0.0, 1)
    assert dict(tables["figure-3"].rows)["a"][0].value == 0.5  # round 1: one of two won


def test_advgamebench_obr_wr_correlation_across_agents():
    overall = {}
    for agent, (wr, obr) in {"a": (0.2, 0.6), "b": (0.5, 0.3), "c": (0.8, 0.0)}.items():
        cells = [advgamebench.Cell(None)] * 8
        cells[0], cells[5] = advgamebench.Cell(wr, n=5), advgamebench.Cell(obr, n=5)
        overall[agent] = cells
    table = advgamebench.correlation_table(overall)
    r, _p = dict(table.rows)["OBR ~ WR (§4.3)"]
    assert r.value == pytest.approx(-1.0)
    assert r.n == 3


def test_star_tables_one_match_by_hand():
    # A beats B once in turn-based play keeping 3/5 units at turn 4 of 12: SER 1016/984 (K = 32), and
    # PWER Δ = 32 · (1 + 0.5·0.6 + 0.5·(1 − 4/12)) · 0.5 = 26.13; one match: every order agrees, ± 0.
    units = [[1, 0, "infantry", 0, 0, 50, 4, 2], [3, 0, "cavalry", 1, 0, 90, 8, 2], [4, 0, "archer", 2, 0, 5, 4, 2]]
    state = {"winner": 0, "units": units, "mode": "turn-based", "turn": 4, "max_turns": 12, "clock": 0}
    board = star.leaderboard(
        [Result(9, "skirmish", ("A", "B"), (0, 1), (1.0, 0.0), state)], rng=np.random.default_rng(0)
    )
    pwer, ser, wins = board["A"]
    assert pwer.value == pytest.approx(1026.133, abs=1e-3)
    assert pwer.high == pytest.approx(pwer.value)
    assert ser.value == pytest.approx(1016.0)
    assert board["B"][1].value == pytest.approx(984.0)
    assert (wins.value, wins.n, wins.matches) == (1.0, 1, (9,))


def test_dsgbench_eq_3_by_hand():
    # Social = IRP = 50; Team = KSR = 100; Adaptive = 0.5·0.4 + 0.5·0.8 = 60; the two dimensions with no
    # metric on our games are left out and W renormalised: (0.2·0.5 + 0.15·1 + 0.2·0.6) / 0.55.
    scores = dsgbench.dimension_scores({"IRP": 0.5, "KSR": 1.0, "WR": 0.4, "GA": 0.8}, dsgbench.DEFAULT_SCORE)
    assert scores["Social Reasoning"] == pytest.approx(50)
    assert scores["Team Collaboration"] == pytest.approx(100)
    assert scores["Adaptive Learning"] == pytest.approx(60)
    assert scores["Strategic Planning"] is None
    assert scores["Overall"] == pytest.approx(100 * 0.37 / 0.55)
    # Bounds are configurable: a metric on [0.5, 1] maps 0.75 to 50.
    custom = {"Social Reasoning": {"W": 1.0, "beta": 1.0, "metrics": {"IRP": (1.0, 0.5, 1.0)}}}
    assert dsgbench.dimension_scores({"IRP": 0.75}, custom)["Overall"] == pytest.approx(50)


def test_botzonebench_table_2_level_progress_and_tic_tac_toe_rule():
    # Level 0: 3 wins, 1 loss (75% ≥ 50%, passed); level 1: 1 win, 3 losses → Lv1, progress 2 × 25% = 50%.
    games = [botzonebench.LadderGame("m", "chess", 0, s, i) for i, s in enumerate((1.0, 1.0, 1.0, 0.0))]
    games += [botzonebench.LadderGame("m", "chess", 1, s, 10 + i) for i, s in enumerate((1.0, 0.0, 0.0, 0.0))]
    cell = botzonebench.ladder_cell(games, top_level=3, draw_levels=frozenset())
    assert (cell.note, cell.value, cell.n, cell.matches) == ("Lv1", 0.5, 4, (10, 11, 12, 13))
    # Wilson 95% on 1 of 4: [0.0456, 0.6994], doubled and capped as the progress is: [0.0912, 1].
    assert (cell.low, cell.high) == (pytest.approx(0.09116, abs=1e-4), 1.0)
    assert cell_text(cell) == "Lv1, 50.0% [9.1%–100.0%] n=4"  # the paper's "Lv1, 50%", with its interval
    # Tic-tac-toe's perfect top level (1 here): 3 draws and 1 loss → not passed, progress = games not lost = 75%.
    ttt = [botzonebench.LadderGame("m", "tic-tac-toe", 0, 1.0, 1)]
    ttt += [botzonebench.LadderGame("m", "tic-tac-toe", 1, s, 2 + i) for i, s in enumerate((0.5, 0.5, 0.5, 0.0))]
    cell = botzonebench.ladder_cell(ttt, top_level=1, draw_levels=frozenset({1}))
    assert (cell.note, cell.value) == ("Lv1", 0.75)
    # Wilson 95% on 3 of 4 not lost: [0.3006, 0.9544], undoubled as the progress is.
    assert (cell.low, cell.high) == (pytest.approx(0.30064, abs=1e-4), pytest.approx(0.95442, abs=1e-4))
    # Three draws only: no loss, so the top is beaten: topped.
    topped = botzonebench.ladder_cell(ttt[:4], top_level=1, draw_levels=frozenset({1}))
    assert topped.note == "Lv2, topped"
    assert topped.value is None
    assert cell_text(topped) == "Lv2, topped n=4"


def test_botzonebench_action_kinds():
    texts = ("fold", "check", "call", "raise-to 40", "all-in")  # as hold'em's action_to_text writes them
    assert [botzonebench.action_kind(t) for t in texts] == ["fold", "check", "call", "raise", "all-in"]
    assert botzonebench.ACTIONS == ("fold", "check", "call", "all-in", "raise")  # the paper's Table 3, all-in apart


def test_multi_aspect_sim_by_hand():
    tower_defense = get_game("tower-defense")
    before = frozenset({"RifleSoldier@1,2", "RifleSoldier@1,3", "IceSoldier@2,2"})
    after = frozenset({"RifleSoldier@1,2", "IceSoldier@3,3", "ShieldSoldier@2,2"})
    lost = pm.RoundRecord(
        agent="a", match=(1, "defender"), round=1, won=False, items=before,
        functions=tower_defense.strategic_functions(before),
    )  # fmt: skip
    revised = pm.RoundRecord(
        agent="a", match=(1, "defender"), round=2, won=True, revised=True, items=after,
        functions=tower_defense.strategic_functions(after),
    )  # fmt: skip
    # Structural: 1 shared item of 5 = 0.2. Semantic: kinds (Ice, Rifle, Shield) counted (1, 2, 0) then (1, 1, 1):
    # cosine 3 / (√5 · √3). Functional (App. B.3: the strategic functions fielded): {sustained damage, slowing}
    # then {sustained damage, slowing, blocking}: 2 / 3.
    structural, semantic, functional = pm.aspect_scores(lost, revised)
    assert structural == pytest.approx(0.2)
    assert semantic == pytest.approx(3 / (5**0.5 * 3**0.5))
    assert functional == pytest.approx(2 / 3)
    swapped = frozenset({"MachineGunSoldier@1,2", "EnhancedShieldSoldier@2,2"})  # other kinds, same roles
    walls = frozenset({"HandgunSoldier@1,2", "ShieldSoldier@2,2"})
    *_, same_roles = pm.aspect_scores(
        pm.RoundRecord(
            agent="a", match=1, round=1, won=False, items=walls, functions=tower_defense.strategic_functions(walls)
        ),
        pm.RoundRecord(
            agent="a", match=1, round=2, won=False, items=swapped, functions=tower_defense.strategic_functions(swapped)
        ),
    )
    assert same_roles == pytest.approx(1.0)  # no kind in common, every function kept
    assert [pm.component(i) for i in ("0:gold LavaGolem", "Fire:1:flame_splash", "target:leftmost")] == [
        "gold LavaGolem",
        "flame_splash",
        "target:leftmost",
    ]
    sim = pm.multi_aspect_strategy_similarity([lost, revised], rng=np.random.default_rng(0), rounds=20)
    expected = (0.2 + 3 / 15**0.5 + 2 / 3) / 3
    assert sim.value == pytest.approx(expected)
    assert sim.n == 1
    (row,) = list(advgamebench.tables([lost, revised], {1: "tower-defense"}, filters=NONE)[0].rows)
    assert row[1][-1].value == pytest.approx(expected)  # Table 1's SIM column is the multi-aspect SIM


def test_strategic_functions_read_each_games_items():
    assert get_game("battle-card").strategic_functions(frozenset({"target:lowest_health", "0:gold LavaGolem"})) == {
        "finish the weakest", "taunt", "durable", "damage over time",
    }  # fmt: skip
    assert get_game("attribute-battle").strategic_functions(
        frozenset({"target:first", "0:Wood", "Wood:0:bud_healing", "Wood:1:poison_vine"})
    ) == {"front first", "healing", "damage over time"}
    demons = frozenset({"FlyingDemon@y2@1000ms", "NormalDemon@y1@0ms#2"})
    assert get_game("tower-defense").strategic_functions(demons) == {"bypass", "air", "swarm"}


def test_dsgbench_werewolf_and_stratego_measures_by_hand():
    from games.stratego.pieces import BOMB, COLONEL, FLAG, GENERAL, MARSHAL, SCOUT, SPY, piece

    events = [
        ["kill", 1, 0, 2, ""],  # A's werewolf kills seat 2
        ["inspect", 1, 1, 0, ""],  # A's seer inspects the werewolf
        ["vote", 1, 1, 0, ""],  # A's seer votes the werewolf: IRP and VSS hit (seat 0 is exiled)
        ["vote", 1, 3, 1, ""],  # B votes the seer: a miss for both
        ["vote", 1, 0, 1, ""],  # the werewolf's own vote: not an identification
        ["vote", 1, 2, -1, ""],  # B abstains
        ["exile", 1, -1, 0, ""],
    ]
    state = {"roles": ["werewolf", "seer", "villager", "villager"], "alive": [False, True, False, True]}
    wolf = Result(1, "werewolf", ("A", "A", "B", "B"), (0, 1, 1, 1), (0.0, 1.0, 1.0, 1.0), {**state, "events": events})
    board = [0] * 100
    for cell, (owner, rank) in enumerate(
        [(0, MARSHAL), (0, GENERAL), (0, COLONEL), (0, SCOUT), (1, COLONEL), (1, SPY), (1, BOMB), (1, FLAG)]
    ):
        board[cell] = piece(owner, rank)
    strat = Result(2, "stratego", ("A", "B"), (0, 1), (1.0, 0.0), {"board": board})
    m = dsgbench.game_measures([wolf, strat], np.random.default_rng(0))
    assert (m["A"]["IRP"].value, m["A"]["VSS"].value, m["A"]["KSR"].value) == (1.0, 1.0, 0.5)
    assert (m["B"]["IRP"].value, m["B"]["VSS"].n) == (0.0, 1)
    assert "KSR" not in m["B"]  # B held no key role
    # CPR: A keeps Marshal, General and one Colonel of 4 critical pieces; B one Colonel. TPCV: 10+9+8+2, 8+1.
    assert (m["A"]["CPR"].value, m["A"]["TPCV"].value) == (0.75, 29.0)
    assert (m["B"]["CPR"].value, m["B"]["TPCV"].value) == (0.25, 9.0)
    # Decision tracking: A made 4 key decisions (kill, inspect, 2 votes); B a vote and an abstention.
    assert (m["A"]["decisions:kill"].value, m["A"]["decisions:vote"].value, m["A"]["decisions:kill"].n) == (
        0.25,
        0.5,
        4,
    )
    assert m["B"]["decisions:abstain"].value == 0.5
    assert m["A"]["IRP"].matches == (1,)
    assert m["A"]["CPR"].matches == (2,)
    # Table 2's scenarios: CPR and TPCV from random placement, WR from fixed placement (GA too, from attempts).
    placed = {
        placement: Result(n, "stratego", ("A", "B"), (0, 1), (1.0, 0.0), {"board": board}, {"placement": placement})
        for n, placement in ((3, "random"), (4, "fixed"))
    }
    m = dsgbench.game_measures(list(placed.values()), np.random.default_rng(0))
    assert (m["A"]["CPR"].matches, m["A"]["TPCV"].matches, m["A"]["WR"].matches) == ((3,), (3,), (4,))
    assert (m["A"]["WR"].value, m["B"]["WR"].value) == (1.0, 0.0)


def test_dsgbench_stratego_decision_tracking_by_hand():
    from games.stratego.pieces import MARSHAL, SCOUT, piece

    def state(captured: tuple[str, str], enemy_at: int | None = None) -> dict:
        board = [0] * 100
        board[0] = piece(0, SCOUT)
        if enemy_at is not None:
            board[enemy_at] = piece(1, MARSHAL)
        return {"board": board, "captured": list(captured)}

    decisions = [
        (5, "A", state(("", "")), "random"),  # a setup: not a key decision
        (5, "A", state(("", "")), [0, 30]),  # three squares down an empty file: early scout run
        (5, "A", state(("S", "2")), [0, 1]),  # one square into an empty cell: early move (2 of 80 off)
        (6, "A", state(("3333333", "222"), enemy_at=1), [0, 1]),  # onto an enemy with 10 off: mid attack
        (6, "B", state(("B" * 6 + "3" * 14, "2" * 8 + "4" * 12), enemy_at=30), [0, 30]),  # 40 off: late attack
    ]
    cells = dsgbench.stratego_decision_cells(decisions)
    a = {k.removeprefix("stratego:"): c for k, c in cells["A"].items()}
    assert {k: round(c.value, 3) for k, c in a.items() if c.value} == {
        "early: scout-run": 0.333,
        "early: move": 0.333,
        "mid: attack": 0.333,
    }
    assert (a["early: move"].n, a["early: move"].matches) == (3, (5, 6))
    assert cells["B"]["stratego:late: attack"].value == 1.0  # a scout run onto a piece is an attack
    (table,) = [t for t in dsgbench.tables(cells, config=dsgbench.DEFAULT_SCORE) if t.key == "decisions-stratego"]
    assert table.columns[:3] == ["early: move", "early: scout-run", "early: attack"]
    assert [label for label, _ in table.rows] == ["A", "B"]
    assert dict(table.rows)["B"][table.columns.index("late: attack")].value == 1.0


def test_gamebench_categories_hold_its_nine_games_as_table_3_does():
    # GameBench's Table 3, game abbreviations as its Figure 1 caption spells them out.
    table_3 = {
        "Abstract Strategy": "ALS ARC CN HV SN SB",
        "Non-Deterministic": "ARC TRB SB",
        "Hidden Information": "ARC AYT TRB",
        "Language Communication": "AYT CN PT TRB",
        "Social Deduction": "AYT TRB",
        "Cooperation": "AYT CN SB TRB",
    }
    names = {
        "air-land-sea": "ALS",
        "arctic-scavengers": "ARC",
        "are-you-the-traitor": "AYT",
        "codenames": "CN",
        "hive": "HV",
        "pit": "PT",
        "santorini": "SN",
        "two-rooms-and-a-boom": "TRB",
        "sea-battle": "SB",
    }
    ours = {category: {names[g] for g in games if g in names} for category, games in gamebench.CATEGORIES.items()}
    assert ours == {category: set(games.split()) for category, games in table_3.items()}


def test_star_gap_pairs_each_modes_pwer_with_that_modes_decision_times():
    # A beats B once per mode. A's decisions took 100 and 300 ms in the turn-based match and 40 ms in the
    # real-time one: the turn-based row's median is 200 ms over 2 decisions, the real-time row's 40 ms over 1
    # (pooled, both rows would show the median of all three, 100 ms, n = 3).
    units = [[1, 0, "infantry", 0, 0, 50, 4, 2]]
    turn = {"winner": 0, "units": units, "mode": "turn-based", "turn": 4, "max_turns": 12, "clock": 0}
    real = {**turn, "mode": "real-time", "clock": 50, "window_ticks": 10}
    by_mode = {
        "turn-based": [Result(1, "skirmish", ("A", "B"), (0, 1), (1.0, 0.0), turn)],
        "real-time": [Result(2, "skirmish", ("A", "B"), (0, 1), (1.0, 0.0), real)],
    }
    assert star.mode_labels(by_mode["real-time"]) == {2: {0: "A · real-time", 1: "B · real-time"}}
    times = {"A · turn-based": [(1, 100), (1, 300)], "A · real-time": [(2, 40)], "B · turn-based": [(1, 7)]}
    tables = {t.key: t for t in star.tables(by_mode, [], times, filters=NONE)}
    gap = dict(tables["gap"].rows)
    assert (gap["A · turn-based"][1].value, gap["A · turn-based"][1].n) == (200.0, 2)
    assert gap["A · turn-based"][1].matches == (1,)
    assert (gap["A · real-time"][1].value, gap["A · real-time"][1].n, gap["A · real-time"][1].matches) == (
        40.0,
        1,
        (2,),
    )
    assert (gap["B · real-time"][1].value, gap["B · real-time"][1].n) == (None, 0)
    assert gap["A · real-time"][0] == dict(tables["table-2"].rows)["A"][0]  # the real-time PWER
    # The ± is a standard deviation over match orders, and the page says so rather than "95%".
    assert tables["table-1"].level is None
    assert "standard deviation" in tables["table-1"].interval_text
    assert "95%" not in tables["table-1"].interval_text.split(";")[0]


def test_star_table_3_rows_are_agent_scaffold_and_mode():
    errors = [
        {
            "agent": f"m (cot) · {mode}",
            "games": 2,
            "matches": [1, 2],
            "commands": 10,
            "actions_per_game": 5.0,
            "failed": {"value": 0.2, "low": 0.05, "high": 0.5, "n": 10},
            "spatial": {"value": 0.5, "low": 0.1, "high": 0.9, "n": 2},
            "halts": 1,
        }
        for mode in star.MODES
    ]
    (table,) = [t for t in star.tables({}, errors, {}, filters=NONE) if t.key == "table-3"]
    assert [label for label, _ in table.rows] == ["m (cot) · turn-based", "m (cot) · real-time"]
    assert table.columns[-1] == "Fog halts"
    direct = [t for t in star.tables({}, errors, {}, filters=ReportFilters(scaffold="direct")) if t.key == "table-3"]
    assert direct[0].rows == []  # the scaffold filter reads the label before the mode


def test_advgamebench_correlations_count_models_only_unless_bots_are_asked_for():
    # Three models whose OBR falls as WR rises exactly (r = −1), and two bots at OBR = 0 that would pull r.
    overall, kinds = {}, {}
    for agent, (wr, obr), kind in [
        ("a (cot)", (0.2, 0.6), "llm"),
        ("b (direct)", (0.5, 0.3), "llm"),
        ("c (direct)", (0.8, 0.0), "llm"),
        ("lv0", (0.0, 0.0), "bot"),
        ("lv1", (0.1, 0.0), "bot"),
    ]:
        records = []
        for game_round in range(1, 11):  # 10 rounds: WR and OBR exactly as given
            records.append(
                pm.RoundRecord(
                    agent=agent,
                    match=(1, "attacker"),
                    round=game_round,
                    won=game_round <= 10 * wr,
                    over_budget=game_round <= 10 * obr,
                )
            )
        overall[agent] = records
        kinds[agent] = kind
    records = [r for rs in overall.values() for r in rs]
    tables = {t.key: t for t in advgamebench.tables(records, {1: "battle-card"}, filters=NONE, kinds=kinds)}
    r, _p = dict(tables["correlations"].rows)["OBR ~ WR (§4.3)"]
    assert (r.value, r.n) == (pytest.approx(-1.0), 3)
    assert r.note == "thin: 3 agents, fewer than 20"
    assert "models only" in tables["correlations"].note
    assert [label for label, _ in tables["radar"].rows] == ["a (cot)", "b (direct)", "c (direct)"]
    # bots=show counts them, and the rows say so: r over the five is no longer −1.
    shown = {
        t.key: t
        for t in advgamebench.tables(records, {1: "battle-card"}, filters=ReportFilters(bots="show"), kinds=kinds)
    }
    r5, _ = dict(shown["correlations"].rows)["OBR ~ WR (§4.3), bots included"]
    assert r5.n == 5
    assert r5.value == pytest.approx(-0.0513, abs=1e-4)  # the bots' zeros wash the models' r = −1 out
    assert len(shown["radar"].rows) == 5
    # A constant series (three models all at OBR = 0) has no r, and the cell says why.
    same = {a: [advgamebench.Cell(None)] * 9 for a in ("x", "y", "z")}
    for a, wr in zip(same, (0.1, 0.5, 0.9), strict=True):
        same[a][0], same[a][5] = advgamebench.Cell(wr, n=5), advgamebench.Cell(0.0, n=5)
    (obr_wr, *_rest) = advgamebench.correlation_table(same).rows
    assert obr_wr[1][0].value is None
    assert obr_wr[1][0].note == "undefined: one of the two is the same for every agent"


def test_advgamebench_table_1_has_constructive_revision_rate():
    # Lost round 1 (V = 2), revised and rose to V = 5 in round 2 (constructive); lost round 2, revised, fell to V = 1.
    rows = [
        pm.RoundRecord(agent="m (cot)", match=(1, "defender"), round=1, won=False, value=2.0),
        pm.RoundRecord(agent="m (cot)", match=(1, "defender"), round=2, won=False, revised=True, value=5.0),
        pm.RoundRecord(agent="m (cot)", match=(1, "defender"), round=3, won=False, revised=True, value=1.0),
    ]
    (table,) = [t for t in advgamebench.tables(rows, {1: "tower-defense"}, filters=NONE) if t.key == "table-1-overall"]
    cnstr = dict(table.rows)["m (cot)"][table.columns.index("CnstrR")]
    assert (cnstr.value, cnstr.n, cnstr.unit) == (0.5, 2, "%")


def test_dsgbench_eq_3_marks_partial_and_thin_rows_and_shows_spread():
    from collections import Counter

    # m (cot): a Diplomacy game (CCC 17 of 34, WS 0.5, BIR 0.1, ASR 0.5, AD 10 of 20) and a Stratego game
    # (CPR 2/4, TPCV 74 of 148, won). Strategic (.5 + .5 + .5 + .5)/4 = 50; Social BIR = 10; Team (.5 + .5)/2 = 50;
    # Adaptive WR = 100; Overall (0.25·.5 + 0.2·.1 + 0.15·.5 + 0.2·1) / 0.8 = 52.5, on all four dimensions.
    diplomacy = Counter(ccc=17, ccc_n=1, ws=0.5, ws_n=1, bir=0.1, bir_n=1, asr=0.5, asr_n=1, ad=10, ad_n=1)
    stratego = Counter(cpr=2, cpr_n=4, tpcv=74, tpcv_n=1, wr=1, wr_n=1)
    # lv0: one Stratego game, everything kept and won: Overall 100 on two dimensions of one game.
    bot = Counter(cpr=4, cpr_n=4, tpcv=148, tpcv_n=1, wr=1, wr_n=1)
    counts = {"m (cot)": {1: diplomacy, 2: stratego}, "lv0": {3: bot}}
    (table,) = [
        t for t in dsgbench.tables({}, config=dsgbench.DEFAULT_SCORE, counts=counts, minimum=2) if t.key == "eq-3"
    ]
    rows = dict(table.rows)
    overall = table.columns.index("Overall")
    m = rows["m (cot)"]
    assert [c.value for c in m[:overall]] == pytest.approx([50.0, None, 10.0, 50.0, 100.0], nan_ok=True)
    assert m[overall].value == pytest.approx(52.5)
    assert m[overall].low <= 52.5 <= m[overall].high
    assert m[overall].low < m[overall].high
    assert (m[overall].n, m[overall].note) == (2, "")
    assert m[-1] == "4 dims: diplomacy, stratego"
    lv0 = rows["lv0"]
    assert (lv0[overall].value, lv0[overall].low, lv0[overall].high) == (100.0, 100.0, 100.0)
    assert lv0[overall].note == "thin: 1 matches; partial: 2 of 4 dimensions"
    assert lv0[-1] == "2 dims: stratego"
    assert table.level is None
    assert "bootstrap" in table.interval_text


def test_gamebench_figure_1_holds_models_and_people_unless_bots_are_asked_for():
    rows = [Result(m, "chess", ("m (cot)", "lv0"), (0, 1), (s, 1 - s)) for m, s in enumerate((1, 1, 0, 1), start=1)]
    rows += [Result(9, "chess", ("human-baseline", "lv0"), (0, 1), (0.5, 0.5))]
    kinds = {"m (cot)": "llm", "lv0": "bot", "human-baseline": "human"}
    figure, table_2, _ = gamebench.tables(rows, filters=NONE, rounds=20, kinds=kinds)
    assert sorted(label for label, _ in figure.rows) == ["human-baseline", "m (cot)"]
    assert [label for label, _ in table_2.rows] == [label for label, _ in figure.rows]
    assert "1 scripted agents were rated with them" in figure.note
    shown, _, _ = gamebench.tables(rows, filters=ReportFilters(bots="show"), rounds=20, kinds=kinds)
    assert "lv0" in dict(shown.rows)


def test_gamebench_plan_games_are_not_non_deterministic():
    for game in ("tower-defense", "battle-card", "attribute-battle"):
        assert game not in gamebench.CATEGORIES["Non-Deterministic"]
        assert game in gamebench.CATEGORIES["Hidden Information"]  # sealed plans


def test_every_rendering_says_what_the_intervals_are():
    from ratings.record.reports.base import Report
    from ratings.record.reports.render import as_json, as_markdown

    units = [[1, 0, "infantry", 0, 0, 50, 4, 2]]
    state = {"winner": 0, "units": units, "mode": "turn-based", "turn": 4, "max_turns": 12, "clock": 0}
    by_mode = {"turn-based": [Result(1, "skirmish", ("A", "B"), (0, 1), (1.0, 0.0), state)]}
    star_tables = star.tables(by_mode, [], {}, filters=NONE)
    eq3 = dsgbench.tables({}, config=dsgbench.DEFAULT_SCORE, counts={})[-1]
    report = Report("star", "t", "c", [*star_tables, eq3], NONE)
    text = as_markdown(report)
    table_1 = text[text.index("## Table 1") : text.index("## Table 2")]
    assert "intervals at 95%" not in table_1
    assert "mean ± one standard deviation over 1,000 random match orders" in table_1
    assert "Wilson 95% interval" in table_1  # the win-rate column
    eq3_text = text[text.index("## Eq. 3") :]
    assert "95% bootstrap intervals resampling the agent's matches" in eq3_text
    data = {t["key"]: t for t in as_json(report)["tables"]}
    assert data["table-1"]["level"] is None
    assert data["table-1"]["intervals"].startswith("PWER and SER: mean ± one standard deviation")
