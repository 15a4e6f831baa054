"""Arena's settings for the test run: the real ones, with a password hasher that costs microseconds and a var/
for each test process.

PBKDF2 at Django's 1.5 M iterations spends about 0.35 s of CPU on every user created or signed in; the
tests create thousands. What they check (who may sign in, lockout, sessions) does not depend on the hash.
"""

import os

from arena.config import BASE_DIR

# Each pytest-xdist worker keeps its own var/ (files planted by the sandbox tests, dataset caches, the secret
# key), as each has its own database; the local model's files are assembled there once per machine.
if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("ARENA_VAR_DIR", str(BASE_DIR / "var" / "tests" / worker))

from arena.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Each test process (one per pytest-xdist worker) gets its own in-memory database, as Django gives SQLite
# by default; named here because pytest-django would otherwise derive a file name for the custom engine.
DATABASES["default"].setdefault("TEST", {})["NAME"] = ":memory:"  # noqa: F405
