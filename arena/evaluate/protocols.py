"""Each seed paper's evaluation protocol as data, every choice cited (docs/evaluate.md has the full citations).

A protocol is split into parts (one tournament each): a ladder over several games is one part; an
opponent set that is game-specific (bots) or a game played in two modes makes one part per game or mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: What the protocol's opponents are when it names none in Arena: the researcher names them (`--opponents`).
NAMED_BY_RESEARCHER = "named"
#: The game's bot ladder, climbed from Lv0 (BotzoneBench §4.5).
LADDER = "ladder"
#: The strongest level of the game's bot ladder, standing in for a game's "built-in AI".
TOP_BOT = "top-bot"
#: Uniform random legal moves (Lv0 of every ladder).
RANDOM_BOT = "random-bot"


@dataclass(frozen=True)
class Part:
    """One mode or scenario of a game as the paper plays it: the game, its variant and options."""

    game: str
    variant: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    #: Matches against the protocol's bot in this part, pooled over the seatings (DSGBench's 10 per scenario);
    #: None: the protocol's `pairing_matches` or `games_per_seat`.
    matches: int | None = None


@dataclass(frozen=True)
class Protocol:
    """What a paper prescribes for evaluating one agent. `None` means the paper leaves it to the agent's own config."""

    key: str
    paper: str
    #: The tournament format that plays it (arena/tournaments/services.py).
    format: str
    #: The paper's games that Arena has, one Part per mode or scenario.
    parts: tuple[Part, ...]
    #: LADDER, TOP_BOT, RANDOM_BOT or NAMED_BY_RESEARCHER.
    opponents: str
    #: Games per seat (side) per opponent or ladder level; None: the format's default (the ladder's 16/32).
    games_per_seat: int | None
    #: The scaffolds the paper ran; the first is the default, the others are the paper's too (not a change).
    scaffolds: tuple[str, ...]
    retries: int | None
    fallback: str
    temperature: float | None
    #: The seat rule in words (how sides and deals are balanced).
    seating: str
    #: The report (ratings/record/reports/<key>.py) whose tables show the results.
    report: str
    #: The paper's section for each choice above, by field name (docs/evaluate.md repeats them).
    sources: dict[str, str]
    #: What the paper evaluated that Arena cannot play (so it is left out).
    left_out: str = ""
    #: Ladder protocols: matches per level, by whether the game has chance (its deals): (at Lv0, at each level
    #: above), pooled over the seatings; None: `games_per_seat` duplicate sets at every level.
    level_matches: dict[bool, tuple[int, int]] | None = None
    #: Seconds for one decision, all its tries together (the agent's `decision_budget_s`); None: the agent's own.
    decision_s: float | None = None
    #: Ladder protocols: per game, the levels of Arena's bot ladder that stand in for the paper's Lv0, Lv1, …
    ladder_levels: dict[str, tuple[int, ...]] | None = None
    #: Where Arena's run is not the paper's experiment and why, printed in the report's header and by `evaluate`.
    departures: str = ""
    #: The evaluated models play each other (`evaluate A B C`: each plays those listed before it, a round robin).
    cohort: bool = False
    #: Matches per game of one pairing, pooled over the seatings, by opponent kind: "bot" (the protocol's bot),
    #: "model" (a cohort's or named model); None: `games_per_seat` duplicate sets (tournament `pairing_matches`).
    pairing_matches: dict[str, int] | None = None
    #: The named opponents also play each other, a round robin (STAR's leaderboard rates every pair).
    opponents_round_robin: bool = False

    @property
    def games(self) -> list[str]:
        return list(dict.fromkeys(p.game for p in self.parts))


#: BotzoneBench's levels above random per game (§4.4, App. B, Tables A7–A14).
BOTZONE_PAPER_LEVELS = {
    "tic-tac-toe": 1, "gomoku": 6, "ataxx": 6, "reversi": 6, "chess": 4, "holdem": 3, "fight-the-landlord": 4,
    "mahjong": 4,
}  # fmt: skip

#: The BotzoneBench ladder profile: Arena's calibrated levels (docs/ladders.json) standing in for the paper's Lv0…LvK,
#: chosen by its rule (§4.4): Lv0 random, each level above beating the one below 70–90%; tic-tac-toe's Lv1 the bot
#: that never loses. As many levels as the paper's where Arena's ladder has them; reversi (4 of 6), hold'em (2 of 3)
#: and Fight the Landlord (3 of 4) have fewer (docs/ladders.md, "BotzoneBench ladder profile").
BOTZONE_PROFILE: dict[str, tuple[int, ...]] = {
    "tic-tac-toe": (0, 4),
    "gomoku": (0, 1, 2, 3, 4, 5, 6),
    "ataxx": (0, 1, 2, 3, 4, 5, 6),
    "reversi": (0, 1, 2, 3, 4),
    "chess": (0, 1, 2, 3, 4),
    "holdem": (0, 1, 2),
    "fight-the-landlord": (0, 1, 2, 3),
    "mahjong": (0, 1, 2, 3, 4),
}

BOTZONEBENCH = Protocol(
    key="botzonebench",
    paper="BotzoneBench",
    format="ladder",
    # Botzone's rules wherever they differ from ours (the games' `botzone` variants, docs/games.md).
    parts=(
        Part("tic-tac-toe"),
        Part("gomoku"),
        Part("ataxx", variant="botzone"),
        Part("reversi"),
        Part("chess", variant="botzone"),
        Part("holdem", variant="botzone"),
        Part("fight-the-landlord", variant="botzone"),
        Part("mahjong", variant="botzone"),
    ),
    opponents=LADDER,
    games_per_seat=None,
    scaffolds=("botzone",),
    retries=2,
    fallback="forfeit",
    temperature=None,
    seating="duplicate sets: each seed played with the agent on every side, against every ladder level",
    report="botzonebench",
    level_matches={False: (16, 32), True: (32, 64)},
    decision_s=300.0,
    ladder_levels=BOTZONE_PROFILE,
    departures="Arena's ladder, not Botzone's bots (Botzone's need its platform); Lv0 is identical: uniform random. "
    "One bot per level where the paper has 1–4; reversi, hold'em and Fight the Landlord have 4, 2 and 3 levels "
    "above random where the paper has 6, 3 and 4 (docs/ladders.md, BotzoneBench ladder profile).",
    sources={
        "games": "§3, Table 1",
        "opponents": "§4.4 (graded baseline bots), §4.5 (climb from Lv0, advance at ≥ 50%)",
        "games_per_seat": "§4.1: 16 duplicate games per side (perfect information), 32 (imperfect)",
        "level_matches": "Table 2's caption and App. B's tables: 16 games at Lv0 and 32 at each level above "
        "(perfect information), 32 and 64 (imperfect), pooled over the seatings",
        "variants": "§3 and Botzone's judges: Botzone's rules (ataxx's end, chess's draws, hold'em's betting and "
        "ranking, Fight the Landlord's scoring, Mahjong's private walls and drawn prevalent wind)",
        "seating": "§4.1: duplicate design, fixed seeds applied to every matchup",
        "scaffold": "§4.3 and Appendix C (Evaluation / Reason / Answer prompt)",
        "retries": "§4.2 and Appendix C (previous invalid outputs fed back): three tries in all, the first and "
        "two re-prompts (its code's max_retries = 3 counts every try)",
        "fallback": "§4.2: an invalid decision or timeout is an error, not masked by recovery",
        "decision_s": "§4.2: 300 s per decision (every try of it together, not per call)",
        "ladder_levels": "§4.4: Lv(k+1) beats Lv(k) 70–90%; tic-tac-toe Lv1 only (optimal); levels per game in "
        "App. B — the profile of Arena's bots chosen by that rule (Botzone's own bots are not available offline)",
        "reruns": "§4.1: games ended by transient failures are rematched",
    },
)

GAMEBENCH = Protocol(
    key="gamebench",
    paper="GameBench",
    format="adversarial",
    parts=tuple(
        Part(g)
        for g in (
            "air-land-sea",
            "arctic-scavengers",
            "are-you-the-traitor",
            "codenames",
            "hive",
            "pit",
            "santorini",
            "two-rooms-and-a-boom",
            "sea-battle",
        )
    ),
    opponents=RANDOM_BOT,
    games_per_seat=None,
    scaffolds=("cot", "direct", "rap"),
    retries=2,
    fallback="random_legal",
    temperature=None,
    seating="5 matches per game against the random baseline, 3 per game against each other model, sides taken in "
    "turn (the odd one to the first); on teams the agent is duplicated (§3.2)",
    report="gamebench",
    sources={
        "games": "§3 and Appendix J (nine games with data)",
        "opponents": "§3.1: the random-action agent is the baseline every agent is compared with",
        "pairing_matches": "Figure 2 and App. F (the random baseline oversampled); the counts are its matches.json's "
        "modes [derived]: 5 matches per game of each model against random (36 model–game pairs: median 5), 3 per "
        "game of each model pair (22: median 3)",
        "seating": "§3.2 (agents duplicated on teams); the paper's code picks player 1 at random",
        "scaffold": "§3.1: base, Chain-of-Thought and RAP",
        "retries": "not in the paper; its code (agents/gpt.py): max_retries = 3 tries in all, the invalid reply "
        "and a reminder fed back, i.e. 2 re-prompts",
        "fallback": "not in the paper; its code (agents/gpt.py) returns no action after the third try, which its "
        'games replace with a random one ("GPT returned a random action after 3 tries")',
    },
    cohort=True,
    pairing_matches={"bot": 5, "model": 3},
    departures="The evaluated model plays the random baseline, and the other models only when they are evaluated "
    "together (`evaluate A B C`) or named.",
)

ADVGAMEBENCH = Protocol(
    key="advgamebench",
    paper="AdvGameBench",
    format="adversarial",
    parts=(Part("tower-defense"), Part("battle-card"), Part("attribute-battle")),
    opponents=NAMED_BY_RESEARCHER,
    games_per_seat=4,
    scaffolds=("direct",),
    retries=None,
    fallback="random_legal",
    temperature=0.3,
    seating="both move orders against each opponent; every match alternates attacker and defender each round",
    report="advgamebench",
    sources={
        "games": "§3.2",
        "opponents": "§4: three opponents of different families (ChatGPT-4o, Claude-3.5-Sonnet, DeepSeek-V3)",
        "games_per_seat": "abstract: 4,320 rounds over 12 models and 3 games = 120 rounds per model and game = "
        "24 five-round matches over 3 opponents and 2 move orders = 4 per order (derived); §5 (Discussion, "
        "'Empirical studies') says 4,752: 132 rounds = 26.4 matches, no whole number of matches per order, so "
        "the abstract's count is the one a run can reproduce",
        "seating": "§3.1: role alternation every round; both move orders for every pair",
        "scaffold": "§3.1: identical prompts, plan then revise after feedback (the game's own protocol)",
        "temperature": "§4: temperature 0.3, top-p 1",
        "retries": "not stated; the agent's own",
        "fallback": "not stated; a plan breaking a rule forfeits its leg (§3.1, Appendix A)",
    },
    cohort=True,
    departures="The opponents are the agents you name (the paper's three models are not available offline). "
    "4 games per move order, from the abstract's 4,320 rounds: §5's 4,752 is no whole number of matches. SIM's "
    "semantic similarity is a cosine of unit counts, not of embeddings (offline, no embedding model).",
)

STAR = Protocol(
    key="star",
    paper="STAR",
    format="adversarial",
    parts=(
        Part("skirmish", label="turn-based"),
        Part("skirmish", variant="real-time", label="real-time"),
    ),
    opponents=NAMED_BY_RESEARCHER,
    games_per_seat=2,
    scaffolds=("direct",),
    retries=None,
    fallback="random_legal",
    temperature=None,
    seating="round robin among the evaluated model and its opponents, each pair in both seat orders",
    report="star",
    sources={
        "games": "§3.2 and Appendix A (one hex wargame, turn-based and real-time modes, §4.2–4.3)",
        "opponents": "§4.1: every other evaluated model, round robin (the named opponents play each other too)",
        "games_per_seat": "not stated; Arena's choice",
        "seating": "§4.1 (round robin); §3.2: identical resources for both sides",
        "scaffold": "Appendix B.3 (system prompt), Appendix C (agent loop)",
        "retries": "not capped: Appendix B.3 asks the agent to correct and retry",
        "fallback": "not stated; errors are counted (§4.1)",
    },
    cohort=True,
    opponents_round_robin=True,
    departures="The models are those you evaluate together and name (the paper's are not available offline).",
)

DSGBENCH = Protocol(
    key="dsgbench",
    paper="DSGBench",
    format="adversarial",
    parts=(
        Part("stratego", variant="random-placement", label="random placement", matches=10),
        Part("stratego", variant="fixed-placement", label="fixed placement", matches=10),
        # One part, both role scenarios: each seed played with the agent as the village and as the wolves.
        Part("werewolf", variant="seated-teams", label="village and wolf roles", matches=20),
        Part("diplomacy", variant="welfare", matches=10),
    ),
    opponents=TOP_BOT,
    games_per_seat=None,
    scaffolds=("direct",),
    retries=None,
    fallback="random_legal",
    temperature=0.2,
    seating="10 matches per scenario: Stratego 5 per side; Werewolf the agent as the whole village in 10 and as "
    "both wolves in 10 (the same seeds); Diplomacy each power once, three of them twice",
    report="dsgbench",
    sources={
        "games": "§4.2, Table 4 (Stratego, Werewolf, Diplomacy of the six; the others need commercial engines)",
        "scenarios": "Table 4 (Stratego: mode, board placement, 2 scenes; Werewolf: role, 2; Diplomacy: 1) and the "
        "benchmark's per-game READMEs (Stratego board layout random / fix; Werewolf role play Villager / Wolf)",
        "opponents": "§5.1: the game's built-in AI or GPT-4o-mini; the strongest bot of the ladder here",
        "matches": "§5.1: 10 matches per scenario",
        "scaffold": "§5.1: the games' standard prompt templates",
        "temperature": "§5.1: temperature 0.2 for all models",
        "retries": "not stated; the agent's own",
        "fallback": "not stated; invalid actions are measured by grounding accuracy (§4.3)",
    },
    left_out="StarCraft II, Civilization and Street Fighter III",
    departures="Arena's strongest ladder bot stands in for the game's built-in AI or GPT-4o-mini (neither is "
    "available offline; the top bot is the game-playing program closest to a built-in AI). Stratego's fixed "
    "placement is Arena's layout (the paper's is not published). Diplomacy's 10 matches cannot hold 7 powers "
    "equally: Austria, England and France are played twice.",
)

PROTOCOLS: dict[str, Protocol] = {p.key: p for p in (BOTZONEBENCH, GAMEBENCH, ADVGAMEBENCH, STAR, DSGBENCH)}
