"""BotzoneBench's anchored skill rating (§4.5): (level, progress) against a graded bot ladder."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    """A candidate's games against one ladder level (weighted counts where matches weigh unequally)."""

    wins: float = 0
    draws: float = 0
    losses: float = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def rate(self, draw_rate: bool = False) -> float | None:
        """Win rate with draws excluded; with `draw_rate`, the share of games not lost (BotzoneBench's TTT rule)."""
        if draw_rate:
            return (self.wins + self.draws) / self.games if self.games else None
        decisive = self.wins + self.losses
        return self.wins / decisive if decisive else None


@dataclass(frozen=True)
class LadderRating:
    level: int
    progress: float | None  # 0..1 toward the next level; None when topped
    topped: bool

    def __str__(self) -> str:
        if self.topped:
            return f"Lv{self.level}, topped"
        return f"Lv{self.level}, {self.progress:.1%}" if self.progress is not None else f"Lv{self.level}"


@dataclass(frozen=True)
class Standing:
    """A candidate's records against each level so far, bottom-up, and the rating they give."""

    records: tuple[Record, ...]
    rating: LadderRating

    @property
    def level_to_play(self) -> int | None:
        """The level to play next: every level played so far was beaten and one is left; None otherwise."""
        rating = self.rating
        waiting = not rating.topped and rating.progress is None and rating.level == len(self.records)
        return rating.level if waiting else None

    def __str__(self) -> str:
        return str(self.rating) if self.records else "not started"


def passes(record: Record, draw_rate: bool = False) -> bool:
    """Advance when the rate is at least 50% (draws excluded); the draw-rate rule needs no loss at all."""
    if draw_rate:
        return record.games > 0 and record.losses == 0
    rate = record.rate()
    return rate is not None and rate >= 0.5


def ladder_rating(
    records: list[Record], top_level: int, draw_rate_levels: frozenset[int] = frozenset()
) -> LadderRating:
    """Rating from records against levels 0, 1, … played bottom-up.

    Level L means every level below L was beaten (≥ 50% of decisive games) but L was not;
    progress is 2 × the win rate against L, capped at 100%. Beating the top level is
    "topped", shown one level above it. Levels in `draw_rate_levels` (a perfect-play bot,
    as tic-tac-toe's) use the rate of games not lost instead, undoubled, and need no loss to pass.
    """
    for level, record in enumerate(records):
        draw_rule = level in draw_rate_levels
        if not passes(record, draw_rule):
            rate = record.rate(draw_rule)
            progress = None if rate is None else (rate if draw_rule else min(1.0, 2 * rate))
            return LadderRating(level=level, progress=progress, topped=False)
    if len(records) > top_level:
        return LadderRating(level=top_level + 1, progress=None, topped=True)
    # Every level played so far was beaten; the next one has not been played yet.
    return LadderRating(level=len(records), progress=None, topped=False)
