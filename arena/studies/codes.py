"""A study's codes and links: the keyed hash of outside ids, completion codes, the recruiter's redirect URL, the
personal withdrawal code, and finding a participant by any code a researcher sees."""

from __future__ import annotations

import hashlib
import hmac
import string
from urllib.parse import quote

from django.conf import settings

from arena.record.services import ServiceError
from arena.studies.models import Participant, Study


def keyed_hash(study: Study, value: str) -> str:
    """HMAC-SHA256 with the site's secret key, per study: the raw value is never stored, and the same outside id
    gives unrelated hashes in two studies."""
    message = f"{study.slug}\n{value}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()


def completion_code(participant: Participant) -> str:
    """The code a participant who completed hands the recruiting platform: the study's, or with per-participant
    codes their own (a keyed hash of their pseudonymous code, so nobody can make one up for another)."""
    study = participant.study
    if not study.per_participant_codes:
        return study.completion_code
    return keyed_hash(study, f"complete\n{participant.code}")[:10].upper()


#: The placeholders a study's redirect URL may hold.
REDIRECT_FIELDS = ("completion_code", "pid")


def redirect_url_check(url: str) -> None:
    """ServiceError unless `url` is an http(s) address whose only placeholders are REDIRECT_FIELDS."""
    if not url:
        return
    if not url.startswith(("https://", "http://")):
        raise ServiceError("The redirect URL starts with https:// (or http://).")
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(url) if name is not None}
    except ValueError:
        raise ServiceError("The redirect URL has an unmatched brace: write {completion_code} or {pid}.") from None
    if unknown := fields - set(REDIRECT_FIELDS):
        names = ", ".join(sorted(f"{{{name}}}" for name in unknown))
        raise ServiceError(f"The redirect URL may hold {{completion_code}} and {{pid}}, not {names}.")


def redirect_for(participant: Participant, pid: str) -> str:
    """The study's redirect URL for a participant who completed, the placeholders filled in (URL-quoted)."""
    url = participant.study.redirect_url
    if not url:
        return ""
    return url.format(completion_code=quote(completion_code(participant), safe=""), pid=quote(pid, safe=""))


def withdrawal_code(participant: Participant) -> str:
    """The participant's personal code for withdrawing later: their pseudonymous code and a keyed check, so it
    is shown whenever needed, yet nobody can make one up for another participant's code."""
    check = keyed_hash(participant.study, f"withdraw\n{participant.code}")[:10]
    return f"{participant.code}-{check}"


def participant_by_withdrawal(*, study: Study, code: str) -> Participant | None:
    """The participant whose withdrawal code this is (None for a wrong or unknown code)."""
    code = code.strip()
    participant = study.participants.filter(code=code.partition("-")[0].upper()).first()
    if participant is None or not hmac.compare_digest(withdrawal_code(participant), code):
        return None
    return participant


def participant_by_any_code(*, study: Study, code: str) -> Participant | None:
    """The participant a researcher names by any code they see: the pseudonymous code (results page, exports), the
    personal withdrawal code, or a per-participant completion code (None when no participant has it)."""
    code = code.strip().upper()
    if not code:
        return None
    participant = study.participants.filter(code=code.partition("-")[0]).first()
    if participant is not None and code in (participant.code, withdrawal_code(participant).upper()):
        return participant
    if study.per_participant_codes:
        return next((p for p in study.participants.all() if completion_code(p) == code), None)
    return None
