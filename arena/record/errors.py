"""The one error the record's writers raise for a request they turn down."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the record cannot accept; the message says why."""
