"""Every metric name and acronym the pages show, defined once for people (docs/metrics.md has the formulas).

`TERMS` feeds the glossary page and the `terms` template filter, which wraps each acronym it finds in
a heading with <abbr title> and a link to its entry here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """One glossary entry: the abbreviation as shown, its full name, a one-line definition, its source."""

    short: str
    name: str
    definition: str
    source: str = ""

    @property
    def anchor(self) -> str:
        return "".join(c if c.isalnum() else "-" for c in self.short.lower()).strip("-")


TERMS: tuple[Term, ...] = (
    Term(
        "Rating",
        "Bradley–Terry rating",
        "Maximum-likelihood strength from every rated match (draws count half, with a first-move term), on an "
        "Elo-like scale where each game's Lv0 bot (a uniform-random player) is 1000 on every board: beating your "
        "game's random player puts you above 1000. 200 points ≈ a 76% expected score.",
        "GameBench §3.3",
    ),
    Term(
        "h",
        "first-move term",
        "The log-odds a player gains by moving first against an equal opponent, fitted with the ratings under a "
        "Gaussian prior N(0, 1.25²) so a few games cannot make it huge; shown with its 95% interval.",
        "Agresti's home advantage; prior: Gelman et al. 2008",
    ),
    Term(
        "Group",
        "group of the comparison graph",
        "Agents linked by a chain of matches. Agents in different groups never met, directly or through others, so "
        "each group is ranked on its own.",
        "",
    ),
    Term(
        "CI",
        "95% confidence interval",
        "The range the rating lands in for 95% of bootstrap resamples of the matches: how sure the rating is.",
        "Chatbot Arena",
    ),
    Term(
        "Rank",
        "rank range",
        "Agents whose intervals overlap cannot be told apart, so a rank is a range: best = 1 + the agents "
        "certainly better, worst = the agents not certainly worse.",
        "Chatbot Arena",
    ),
    Term(
        "Too few to rank",
        "too few rated games",
        "Below a minimum number of rated games (ARENA_RANK_MIN_GAMES, 10 by default) a rating swings by "
        "hundreds of points on one result and its interval spans most of the board, so the agent is listed "
        "with its game count but given no rank, no interval and no place on the chart.",
    ),
    Term(
        "Provisional",
        "provisional rating",
        "A ranked rating whose 95% interval is still wider than 200 points.",
    ),
    Term(
        "n",
        "sample size",
        "How many matches (or rounds, agents, votes: the column says which) a number is computed from.",
    ),
    Term(
        "Elo",
        "sequential Elo (SER)",
        "Classic Elo replayed over the matches in the order played (K = 32); ± is its spread over random match orders.",
        "STAR §4.1",
    ),
    Term("SER", "standard Elo rating", "The sequential Elo above, as STAR names it.", "STAR §4.1"),
    Term(
        "PWER",
        "performance-weighted Elo rating",
        "Elo whose update grows with how convincingly a game was won (units surviving, time left): K between "
        "32 and 64. Meaningful on Skirmish only; elsewhere it equals Elo.",
        "STAR §4.1",
    ),
    Term("p50 time", "median decision time", "Half of the agent's decisions took less than this."),
    Term("WR", "win rate", "Rounds (or games) won / rounds played.", "AdvGameBench §3.3"),
    Term("Init-win", "initial win rate", "Win rate over round 1, before any feedback.", "AdvGameBench §4.2"),
    Term(
        "ORR",
        "over-correction risk rate",
        "After a round with negative feedback, how often the next plan is revised.",
        "AdvGameBench §3.3",
    ),
    Term(
        "CSR",
        "correction success rate",
        "Revisions that win the next round or remove the previous round's rule violation / revisions.",
        "AdvGameBench §3.3",
    ),
    Term(
        "CnstrR",
        "constructive revision rate",
        "Revisions after a lost round whose game value V rose / such revisions with both values known.",
        "AdvGameBench Appendix B.2",
    ),
    Term(
        "OBR",
        "over-budget rate",
        "Plans that cost more than the budget allows / all plans.",
        "AdvGameBench §3.3",
    ),
    Term("RVR", "rule-violation rate", "Round-1 plans breaking any rule / round-1 plans.", "AdvGameBench App. B.1"),
    Term(
        "FMA",
        "first-mover advantage",
        "A metric's mean when the agent moved first minus its mean when it moved second.",
        "AdvGameBench App. B.4",
    ),
    Term(
        "β",
        "improvement slope",
        "Least-squares slope of the win rate on the round number: positive means it learns within a match.",
        "AdvGameBench §3.3",
    ),
    Term("TCE", "tool-call error rate", "Failed commands / commands sent.", "STAR §4.4"),
    Term(
        "SAE",
        "spatial awareness error",
        "Rejected commands that broke a spatial rule (out of range, off the board, water, occupied) / failed "
        "commands; a march stopped by an enemy it could not see fails but is not a spatial error.",
        "STAR §4.4",
    ),
    Term(
        "IRP",
        "identity recognition precision",
        "A villager-side player's votes that name a werewolf / its votes naming a player.",
        "DSGBench Table 17",
    ),
    Term(
        "KSR",
        "key-role survival rate",
        "Games a seer or werewolf was still alive at the end / games it held that role.",
        "DSGBench Table 17",
    ),
    Term(
        "VSS",
        "vote success share",
        "Critical villager-side votes that exiled a werewolf / critical votes.",
        "DSGBench Table 17",
    ),
    Term("CPR", "critical pieces retained", "Marshal, General and Colonels alive at the end / fielded.", "DSGBench"),
    Term("TPCV", "total piece value", "Rank values of live pieces at the end, summed (148 at the start).", "DSGBench"),
    Term("GA", "grounding accuracy", "Replies that were a valid move / replies judged.", "DSGBench"),
    Term("CCC", "control centres held", "Diplomacy supply centres held at the end.", "DSGBench"),
    Term("WS", "welfare share", "A power's welfare points / all powers' welfare points.", "DSGBench"),
    Term(
        "BIR",
        "betrayal rate",
        "Orders that attack a power allied the phase before / orders given in movement phases.",
        "DSGBench",
    ),
    Term("ASR", "alliance share", "Movement phases spent allied / movement phases played.", "DSGBench"),
    Term("AD", "alliance duration", "Movement phases in which the power was allied.", "DSGBench"),
    Term(
        "r",
        "Pearson correlation",
        "How closely two metrics rise together across agents (−1 to 1), with its two-sided p. With fewer than "
        "20 agents a large r is often chance: read it with its n.",
        "AdvGameBench §4.4",
    ),
)

BY_SHORT = {term.short: term for term in TERMS}
