"""Diplomacy as DSGBench plays it: seven powers, sealed orders, private negotiation, and the Welfare variant.

rules.py holds the rules and notation (the `diplomacy` package adjudicates, engine.py), player_views.py what each
viewer sees and the prompts, board_svg.py the map.
"""

from __future__ import annotations

from games.diplomacy.player_views import Diplomacy

__all__ = ["Diplomacy"]
