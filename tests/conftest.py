"""Shared test settings."""

from __future__ import annotations
