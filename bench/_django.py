"""Start Django for a benchmark on a throw-away SQLite database in a temporary directory."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(database_url: str | None = None) -> Path:
    """Configure Django on a fresh database (migrated); returns the temporary var directory."""
    sys.path.insert(0, str(ROOT))
    var = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    os.environ["ARENA_VAR_DIR"] = str(var)
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only")
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return var
