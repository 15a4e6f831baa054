"""Django settings for Arena. Every knob comes from the environment via arena.config."""

from __future__ import annotations

import os
from datetime import timedelta

import dj_database_url

from arena.config import BASE_DIR, from_env, private_directory, private_file

CONFIG = from_env()

SECRET_KEY = CONFIG.secret_key
DEBUG = CONFIG.debug
ALLOWED_HOSTS = CONFIG.allowed_hosts
VAR_DIR = private_directory(CONFIG.var_dir)  # database, secret key, models, caches: Arena's user only

INSTALLED_APPS = [
    "arena.runserver.DaphneRunserver",  # first: its runserver, not staticfiles', serves the site
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "django_tasks_db",
    "axes",
    # django-ninja's API docs page (/api/v1/docs) then uses the Swagger UI files the package ships, served from
    # here, instead of a CDN the site's Content-Security-Policy (script-src 'self') rightly blocks.
    "ninja",
    "arena",
    "ratings.record",
    "arena.studies",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "arena.middleware.DatabaseUnavailableMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: turns a lockout into our 429 page
]

#: Failed logins (both login forms, through `authenticate`) are counted by django-axes, per account name AND
#: address together, so nobody's guesses lock an owner out elsewhere (docs/operations.md, "Failed logins").
#: AxesStandaloneBackend refuses a locked name before ModelBackend checks the password.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = CONFIG.login_lockout["failures"]
AXES_COOLOFF_TIME = timedelta(seconds=CONFIG.login_lockout["cooloff_s"])
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True  # forgets only the failures of that name from that address
AXES_USERNAME_CALLABLE = "arena.pages.ratelimit.lockout_username"
AXES_CLIENT_IP_CALLABLE = "arena.pages.ratelimit.lockout_address"
AXES_LOCKOUT_CALLABLE = "arena.pages.accounts.login_locked_out"
AXES_DISABLE_ACCESS_LOG = True  # no record of successful logins is kept
AXES_VERBOSE = False

ROOT_URLCONF = "arena.urls"
ASGI_APPLICATION = "arena.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "arena.pages.context_processors.site",
            ],
        },
    },
]

if CONFIG.database_url:
    DATABASES = {"default": dj_database_url.parse(CONFIG.database_url, conn_max_age=60, conn_health_checks=True)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "arena.sqlite",
            # Made 0600 in a 0700 directory before SQLite opens it (its -wal and -shm files take the same
            # mode): outside programs and other users of the host must not read sessions or tokens.
            "NAME": private_file(private_directory(CONFIG.var_dir) / "arena.sqlite3"),
            # A local file: keep each thread's connection rather than reopening it (and re-running
            # the PRAGMAs below) for every websocket frame.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                # WAL lets the web server read while a worker writes; IMMEDIATE avoids
                # upgrade deadlocks between them; the timeout waits out short write locks.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }

if CONFIG.redis_url:
    # Pub/sub delivers a match's updates to the processes watching it as they happen, one subscription per
    # process's hub (docs/architecture.md, Live play).
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [CONFIG.redis_url]}}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

if CONFIG.redis_url:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CONFIG.redis_url}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "arena"}}

TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "matches"]}}
#: Bootstrap rounds behind each leaderboard interval (Chatbot Arena uses 1,000).
ARENA_BOOTSTRAP_ROUNDS = int(os.environ.get("ARENA_BOOTSTRAP_ROUNDS", "1000"))
#: Work a visitor can cause, bounded (docs/operations.md, "Limits").
ARENA_RATE_LIMITS = CONFIG.rate_limits
ARENA_CLIENT_IP_HEADER = CONFIG.client_ip_header
ARENA_PLAY_LIMITS = CONFIG.play_limits
ARENA_PROGRAM_LIMITS_MAX = CONFIG.program_limits_max
ARENA_MAX_FILTERED_SNAPSHOTS = CONFIG.max_filtered_snapshots
ARENA_DATASET_CACHE_FILES = CONFIG.dataset_cache_files
ARENA_ADJOURN_AFTER_S = CONFIG.adjourn_after_s
ARENA_ABANDON_AFTER_S = CONFIG.abandon_after_s
#: Rated games below which a leaderboard row shows no rank and no interval (docs/metrics.md, "Too few to rank").
ARENA_RANK_MIN_GAMES = CONFIG.rank_min_games
ARENA_SEED_MATCHES = CONFIG.seed_matches

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = CONFIG.static_root  # var/static unless ARENA_STATIC_ROOT (a proxy cannot enter var/)
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "arena.staticfinders.PlotlyFinder",
]
# Serve straight from the finders when nothing was collected (tests, a fresh checkout).
WHITENOISE_USE_FINDERS = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Security: safe by default; with DJANGO_HTTPS=1 (served over TLS, usually behind a proxy) the
# HTTPS-only settings come on: redirects, secure cookies, HSTS.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
if CONFIG.https:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31_536_000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in CONFIG.allowed_hosts if not host.startswith(".")]

SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    # plotly.js sets inline styles on the elements it draws.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
