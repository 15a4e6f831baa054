"""API tokens' writers: tokens (shown once, stored only as a SHA-256 digest, scoped, revocable) and the bot
accounts that play with one."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from arena.models import Agent, ApiToken
from arena.record.agents import agent_create
from arena.record.errors import ServiceError

PREFIX = "arena_"
#: Live tokens one person may hold at once.
MAX_TOKENS_PER_PERSON = 10


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token for `user`; returns the record and the token itself, which is never stored or shown again."""
    unknown = set(scopes) - set(ApiToken.Scope.values)
    if unknown:
        raise ServiceError(f"Unknown scope(s) {', '.join(sorted(unknown))}; use {', '.join(ApiToken.Scope.values)}.")
    if ApiToken.objects.filter(user=user, revoked_at=None).count() >= MAX_TOKENS_PER_PERSON:
        raise ServiceError(f"At most {MAX_TOKENS_PER_PERSON} live tokens per person; revoke one first.")
    token = PREFIX + secrets.token_urlsafe(32)
    record = ApiToken.objects.create(
        user=user, name=name[:80], prefix=token[:12], digest=token_digest(token), scopes=sorted(set(scopes))
    )
    return record, token


@transaction.atomic
def api_token_revoke(*, token: ApiToken) -> ApiToken:
    """Revoke `token` for good (idempotent)."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def live_token(token: str) -> ApiToken | None:
    """The unrevoked token record for a presented token, with its user; None if there is none."""
    if not token.startswith(PREFIX):
        return None
    record = ApiToken.objects.select_related("user").filter(digest=token_digest(token), revoked_at=None).first()
    if record is None or not record.user.is_active:
        return None
    return record


@transaction.atomic
def api_token_touch(*, token: ApiToken) -> None:
    """Note when a token was last used (at most once a minute, to keep reads cheap)."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)


@transaction.atomic
def bot_account_create(*, user, slug: str, name: str, game: str = "") -> tuple[Agent, str]:
    """A websocket bot owned by `user` and a new token (scope `agents`) it plays with, shown once."""
    agent = agent_create(
        slug=slug, name=name, kind=Agent.Kind.REMOTE, game=game, config={"transport": "websocket"}, owner=user
    )
    _, token = api_token_create(user=user, name=f"bot {slug}", scopes=[ApiToken.Scope.AGENTS])
    return agent, token
