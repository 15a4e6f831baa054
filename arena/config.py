"""Settings read from the environment, validated once, with safe defaults (docs/commands.md: Configuration)."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from arena.limits import PLAY_LIMITS, PROGRAM_LIMITS_MAX, RATE_LIMITS

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


class ConfigError(Exception):
    """A malformed environment variable; the message names it and says what is expected."""


@dataclass(frozen=True)
class Config:
    var_dir: Path
    secret_key: str
    debug: bool
    allowed_hosts: list[str]
    database_url: str | None
    redis_url: str | None
    https: bool
    #: Header a trusted reverse proxy sets to the client's address ("" when clients connect directly).
    client_ip_header: str = ""
    #: Overrides of arena.limits' RATE_LIMITS: name -> (hits, window in seconds).
    rate_limits: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Failed logins per account name and address before they lock, and the lock's length (django-axes).
    login_lockout: dict[str, int] = field(default_factory=lambda: {"failures": 5, "cooloff_s": 900})
    #: Overrides of arena.limits' PLAY_LIMITS: name -> number.
    play_limits: dict[str, int] = field(default_factory=dict)
    #: Overrides of arena.limits' PROGRAM_LIMITS_MAX: the largest limit an outside agent may be given.
    program_limits_max: dict[str, int] = field(default_factory=dict)
    #: Leaderboard snapshots with filters kept at once, and cached dataset exports kept on disk.
    max_filtered_snapshots: int = 20
    dataset_cache_files: int = 8
    #: Seconds a person's game may wait on a person's move before it is adjourned, then ended by the rules.
    adjourn_after_s: int = 600
    abandon_after_s: int = 3600
    #: Rated games an agent needs before a leaderboard ranks it and shows its interval.
    rank_min_games: int = 10
    seed_matches: int = 8832
    #: Where collectstatic puts the site's static files (outside the private var/ when a proxy serves them).
    static_root: Path | None = None


def _flag(env: dict[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no or on/off.")


def _url(env: dict[str, str], name: str, schemes: set[str]) -> str | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in schemes or not (parts.hostname or parts.path.strip("/")):
        raise ConfigError(
            f"{name} is malformed: expected {' or '.join(sorted(schemes))}://user:password@host:port/name, "
            f"got a value starting {raw[:12]!r}."
        )
    try:
        parts.port  # noqa: B018 - raises ValueError on a non-numeric port
    except ValueError:
        raise ConfigError(f"{name} has a port that is not a number.") from None
    return raw


def _items(env: dict[str, str], name: str) -> list[tuple[str, str, str]]:
    """`a=x,b=y` -> [(item, "a", "x"), (item, "b", "y")], skipping empty items."""
    items = filter(None, (part.strip() for part in env.get(name, "").split(",")))
    return [(item, *(part.strip() for part in item.partition("=")[::2])) for item in items]


def _known(name: str, item: str, key: str, known: Iterable[str]) -> str:
    if key not in known:
        raise ConfigError(f"{name}: {item!r} names no limit; the limits are: {', '.join(known)}.")
    return key


def _rate_limits(env: dict[str, str], name: str) -> dict[str, tuple[int, int]]:
    """`match_create=30/60,signup=5/3600` -> {"match_create": (30, 60), "signup": (5, 3600)}."""
    limits = {}
    for item, key, value in _items(env, name):
        hits, _, window = (part.strip() for part in value.partition("/"))
        if not (hits.isdigit() and window.isdigit() and int(window) > 0):
            raise ConfigError(f"{name}: {item!r} is not name=hits/seconds, e.g. match_create=30/60.")
        limits[_known(name, item, key, RATE_LIMITS)] = (int(hits), int(window))
    return limits


def _play_limits(env: dict[str, str], name: str) -> dict[str, int]:
    """`sockets_per_address=500,rejected_tries_kept=3` -> {"sockets_per_address": 500, "rejected_tries_kept": 3}."""
    limits = {}
    for item, key, value in _items(env, name):
        if not value.isdigit():
            raise ConfigError(f"{name}: {item!r} is not name=number, e.g. sockets_per_match=200.")
        limits[_known(name, item, key, PLAY_LIMITS)] = int(value)
    return limits


def _program_limits_max(env: dict[str, str], name: str) -> dict[str, int]:
    """`time_s=30,memory_mb=1024` -> {"time_s": 30, "memory_mb": 1024}."""
    limits = {}
    for item, key, value in _items(env, name):
        if not value.isdigit() or int(value) < 1:
            raise ConfigError(f"{name}: {item!r} is not name=number (at least 1), e.g. time_s=30.")
        limits[_known(name, item, key, PROGRAM_LIMITS_MAX)] = int(value)
    return limits


def _count(env: dict[str, str], name: str, default: int, *, least: int = 1) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < least:
        raise ConfigError(f"{name}={raw!r} is not a whole number of at least {least}.")
    return int(raw)


def _login_lockout(env: dict[str, str], name: str) -> dict[str, int]:
    """`5/900` -> failed logins allowed per account name and address, and the seconds the lock then lasts."""
    raw = env.get(name, "").strip()
    if not raw:
        return {"failures": 5, "cooloff_s": 900}
    parts = [p.strip() for p in raw.split("/")]
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ConfigError(f"{name}={raw!r} is not failures/cooloff_s, e.g. 5/900.")
    return dict(zip(("failures", "cooloff_s"), map(int, parts), strict=True))


def private_directory(path: Path) -> Path:
    """`path` as a directory only Arena's user may enter (0700): made so, or tightened if it was looser."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    _tighten(path, 0o700)
    return path


def private_file(path: Path) -> Path:
    """`path` as a file only Arena's user may read or write (0600): created empty so, or tightened."""
    if not path.exists():
        with contextlib.suppress(FileExistsError):  # made by another process in between: tightened below
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    _tighten(path, 0o600)
    return path


def _tighten(path: Path, mode: int) -> None:
    """Take away the group's and others' rights on a path Arena owns (one made before it was private)."""
    status = path.stat()
    if status.st_uid == os.geteuid() and status.st_mode & 0o777 & ~mode:
        path.chmod(mode)


def _secret_key(env: dict[str, str], var_dir: Path) -> str:
    """DJANGO_SECRET_KEY, else a key generated once into var/secret_key (never committed)."""
    if env.get("DJANGO_SECRET_KEY"):
        return env["DJANGO_SECRET_KEY"]
    path = private_directory(var_dir) / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    _tighten(path, 0o600)
    return path.read_text().strip()


def from_env(env: dict[str, str] | None = None) -> Config:
    """Read and validate the configuration; ConfigError names the first bad variable."""
    env = dict(os.environ if env is None else env)
    var_dir = Path(env.get("ARENA_VAR_DIR") or BASE_DIR / "var")
    hosts = [h.strip() for h in env.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
    if not hosts:
        raise ConfigError("DJANGO_ALLOWED_HOSTS is empty; give a comma-separated list such as example.org,localhost.")
    return Config(
        var_dir=var_dir,
        debug=_flag(env, "DJANGO_DEBUG", default=False),
        allowed_hosts=hosts,
        database_url=_url(env, "DATABASE_URL", {"postgres", "postgresql", "pgsql", "sqlite"}),
        redis_url=_url(env, "REDIS_URL", {"redis", "rediss", "unix"}),
        https=_flag(env, "DJANGO_HTTPS", default=False),
        client_ip_header=env.get("ARENA_CLIENT_IP_HEADER", "").strip(),
        rate_limits=_rate_limits(env, "ARENA_RATE_LIMITS"),
        login_lockout=_login_lockout(env, "ARENA_LOGIN_LOCKOUT"),
        play_limits=_play_limits(env, "ARENA_PLAY_LIMITS"),
        program_limits_max=_program_limits_max(env, "ARENA_PROGRAM_LIMITS_MAX"),
        max_filtered_snapshots=_count(env, "ARENA_MAX_FILTERED_SNAPSHOTS", 20),
        dataset_cache_files=_count(env, "ARENA_DATASET_CACHE_FILES", 8),
        adjourn_after_s=_count(env, "ARENA_ADJOURN_AFTER_S", 600),
        abandon_after_s=_count(env, "ARENA_ABANDON_AFTER_S", 3600),
        rank_min_games=_count(env, "ARENA_RANK_MIN_GAMES", 10),
        seed_matches=_count(env, "ARENA_SEED_MATCHES", 8832, least=0),
        secret_key=_secret_key(env, var_dir),
        static_root=Path(env["ARENA_STATIC_ROOT"]) if env.get("ARENA_STATIC_ROOT") else var_dir / "static",
    )
