"""The defaults of every limit a setting may override, by setting.

They sit below everything, so `arena.config` checks an override's names without importing the code that
applies the limit: the site's rate limits (`arena.pages.ratelimit`), live play's bounds
(`arena.play.live_limits`) and the outside agents' sandbox (`arena.agents.sandbox`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

#: name -> (hits allowed, window in seconds), for each address and each person; override with ARENA_RATE_LIMITS.
RATE_LIMITS = {
    "match_create": (30, 60),  # lobby games, open challenges and accepted challenges
    "ladder_climb": (5, 600),  # person ladder climbs started (each queues a match per level)
    "signup": (5, 3600),  # sign-up form submissions (each hashes a password; success creates an account)
    "annotate": (60, 60),  # annotation writes
    "dataset": (10, 600),  # /dataset.jsonl downloads
    "refit": (5, 600),  # leaderboards asked for with filters nobody asked for yet (each queues a fit)
    "report": (10, 600),  # report pages computed for filters not cached yet (each reads the record)
    "agent_edit": (30, 600),  # staff or people creating or editing agents
    "api_token": (20, 600),  # creating or revoking one's API tokens
    "api_anonymous": (120, 60),  # API calls without a token (every read), per address
    "api_token_calls": (600, 60),  # API writes, per token
    "login": (30, 900),  # login form submissions, right or wrong, whatever the account name (both forms)
    "password_reset": (5, 3600),  # password reset requests (each may send an email)
    "frames": (100, 10),  # websocket frames per connection: a person clicking fast (Pit offers) sends ~5 a second
    "study_join": (20, 600),  # joining a study (each creates a participant, a guest seat and its assignments)
    "study_join_per_study": (5, 86_400),  # joining one study, per address and per person: one person, one record
    "study_withdraw": (10, 600),  # withdrawal codes tried (each looks a participant up by a code)
}

#: name -> default; override any of them with the ARENA_PLAY_LIMITS environment variable
#: ("sockets_per_address=500,sockets_per_match=100", read by arena.config).
PLAY_LIMITS = {
    "sockets_per_person": 8,  # open match sockets of one account or guest session (tabs)
    "sockets_per_address": 64,  # of one client address, whoever is signed in
    "sockets_per_match": 200,  # watchers of one match (its players are not counted)
    "bot_sockets_per_token": 4,  # bot-account sockets (/ws/bot/) open with one API token
    "rejected_tries_kept": 10,  # a person's rejected moves stored per decision; the rest are counted
}

#: The largest limit an agent's config may ask for; settings.ARENA_PROGRAM_LIMITS_MAX overrides each.
PROGRAM_LIMITS_MAX: dict[str, Any] = {
    "time_s": 60,
    "cpu_s": 600,
    "memory_mb": 4096,
    "processes": 256,
    "output_bytes": 10_000_000,
    "file_mb": 256,
    "disk_mb": 1024,
}


def play_limit(name: str) -> int:
    """Live play's limit `name` as configured (ARENA_PLAY_LIMITS), else its default."""
    return getattr(settings, "ARENA_PLAY_LIMITS", {}).get(name, PLAY_LIMITS[name])
